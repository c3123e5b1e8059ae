// Langfuse trace exports, round five: pairing that does not depend on the order observations are listed in (an
// execution's TOOL observation read after the next request that repeats its result), and the Vercel AI SDK's call
// lists read through the one reader of that list. Every trace here is small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callNames, pairedIds, readModel } from './helpers';

const S = JSON.stringify;

let seq = 0;
function obs(o: Record<string, unknown>): Record<string, unknown> {
  seq += 1;
  return { id: `o${seq}`, traceId: 't1', level: 'DEFAULT', statusMessage: null, parentObservationId: 'root', metadata: {}, ...o };
}
const at = (s: number) => `2025-09-01T10:00:${String(s).padStart(2, '0')}.000Z`;
const exported = (list: Record<string, unknown>[]) => S({ trace: { id: 't1', name: 'agent', timestamp: at(0) }, observations: list }, null, 2);

describe('Langfuse export whose TOOL observation comes after the request that repeats its result', () => {
  const call = { id: 'call_x', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } };
  const first = () => obs({ type: 'GENERATION', name: 'chat', startTime: at(1), input: [{ role: 'user', content: 'weather?' }], output: { role: 'assistant', content: null, tool_calls: [call] } });
  const second = () => obs({ type: 'GENERATION', name: 'chat', startTime: at(3), output: { role: 'assistant', content: 'it failed' },
    input: [{ role: 'user', content: 'weather?' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_x', content: 'Error: timeout' }] });
  const tool = (o: Record<string, unknown>) => obs({ type: 'TOOL', name: 'get_weather', level: 'ERROR', statusMessage: 'timeout', input: { city: 'Oslo' }, output: null, ...o });
  const withId = { metadata: { attributes: { 'gen_ai.tool.call.id': 'call_x', 'gen_ai.tool.name': 'get_weather' } } };

  function check(list: Record<string, unknown>[], toolIndex: number) {
    const { sessions, codes } = readModel(exported(list), { fileName: 'export.json' });
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['get_weather'], 'one call: the TOOL observation is its execution, not a call of its own');
    assert.deepEqual(pairedIds(s), ['call_x']);
    // the execution's own result: its span status, its status message, its place
    assert.equal(s.results[0].transport.spanStatus, 'ERROR');
    assert.equal(s.results[0].payload, 'timeout');
    assert.deepEqual(s.results[0].at.path, ['observations', toolIndex]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  }

  it('in time order: the TOOL observation answers the call', () => {
    check([first(), tool({ startTime: at(2), ...withId }), second()], 1);
  });

  it('listed out of order, the TOOL without a start time: its result still wins over the copy', () => {
    check([second(), tool(withId), first()], 1);
  });

  it('every observation at one start time, the TOOL listed last', () => {
    check([first(), second(), tool(withId)].map((o) => ({ ...o, startTime: at(5) })), 2);
  });

  it('a TOOL observation without a call id, after the copy: it takes the copy\'s place by name (no second call)', () => {
    check([first(), second(), tool({})], 2);
  });

  it('a copy in the input stays the result when no TOOL observation recorded the execution', () => {
    const { sessions } = readModel(exported([first(), second()]), { fileName: 'export.json' });
    assert.deepEqual(pairedIds(sessions[0]), ['call_x']);
    assert.equal(sessions[0].results[0].payload, 'Error: timeout');
  });
});

describe('Langfuse export with a Vercel AI SDK call list as a GENERATION output', () => {
  it('v4 lists (`args` objects): each call with its id, its arguments where the list holds them', () => {
    const list = [{ toolCallId: 'c1', toolName: 'search', args: { q: 'a' } }, { toolCallId: 'c2', toolName: 'fetch', args: { url: 'u' } }];
    const text = exported([
      obs({ type: 'GENERATION', name: 'ai.generateText.doGenerate', startTime: at(1), input: [], output: list }),
      obs({ type: 'TOOL', name: 'fetch', startTime: at(2), input: { url: 'u' }, output: 'page', metadata: { attributes: { 'ai.toolCall.id': 'c2', 'ai.toolCall.name': 'fetch' } } }),
    ]);
    const { sessions } = readModel(text, { fileName: 'vercel.json' });
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['search', 'fetch']);
    assert.deepEqual(s.calls.map((c) => c.id), ['c1', 'c2']);
    assert.deepEqual(s.calls[1].args, { url: 'u' });
    assert.deepEqual(s.calls[1].argsAt.path, ['observations', 0, 'output', 1, 'args']);
    assert.deepEqual(pairedIds(s), ['c2']);
  });

  it('a list with an entry that has no call id is not read as a Vercel call list', () => {
    const text = exported([obs({ type: 'GENERATION', name: 'gen', startTime: at(1), input: [], output: [{ toolCallId: 'c1', toolName: 'search', input: {} }, { toolName: 'fetch', input: {} }] })]);
    const { sessions } = readModel(text, { fileName: 'vercel.json' });
    assert.equal(sessions.reduce((n, x) => n + x.calls.length, 0), 0);
  });
});

describe('Langfuse export from Koog (older Langfuse: tool spans typed SPAN; calls as content items)', () => {
  const hello = { function: { name: 'HelloTool', arguments: { name: 'Ann' } }, id: 'call_h', type: 'function' };
  const bye = { function: { name: 'ByeTool', arguments: { name: 'Ann' } }, id: 'call_b', type: 'function' };
  const toolSpan = (name: string, id: string, out: string, start: number) => obs({ type: 'SPAN', name: `tool.${name}`, startTime: at(start), input: { name: 'Ann' }, output: out,
    metadata: { attributes: { 'input.value': { name: 'Ann' }, 'output.value': out, 'gen_ai.tool.call.id': id, 'gen_ai.tool.name': name } } });
  const text = exported([
    obs({ type: 'AGENT', name: 'run.1', startTime: at(0), input: null, output: null, metadata: { attributes: { 'gen_ai.operation.name': 'invoke_agent' } } }),
    obs({ type: 'GENERATION', name: 'llm.chat', startTime: at(1), input: [{ role: 'user', content: 'greet Ann' }],
      output: [{ role: 'assistant', content: [hello], finish_reason: 'tool_calls' }, { role: 'assistant', content: [bye], finish_reason: 'tool_calls' }] }),
    toolSpan('ByeTool', 'call_b', 'Bye Ann', 2),
    toolSpan('HelloTool', 'call_h', 'Hello Ann', 2),
    obs({ type: 'SPAN', name: 'node.nodeExecuteTool', startTime: at(2), input: null, output: null, metadata: { attributes: { 'koog.node.name': 'nodeExecuteTool' } } }),
    obs({ type: 'GENERATION', name: 'llm.chat', startTime: at(3), input: [{ role: 'tool', content: [hello] }, { role: 'tool', content: 'Hello Ann' }], output: [{ role: 'assistant', content: 'Hello and bye' }] }),
  ]);

  it('reads both calls from the output list and pairs each tool SPAN by gen_ai.tool.call.id', () => {
    const { sessions, codes } = readModel(text, { fileName: 'koog.json' });
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['HelloTool', 'ByeTool']);
    assert.deepEqual(s.calls.map((c) => c.id), ['call_h', 'call_b']);
    assert.deepEqual(s.calls[0].args, { name: 'Ann' });
    assert.deepEqual(pairedIds(s).sort(), ['call_b', 'call_h']);
    assert.equal(s.results.find((r) => r.callId === 'call_h')?.payload, 'Hello Ann');
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  });
});

describe('Langfuse export from AG2 (chat messages as lists, execute_tool typed SPAN)', () => {
  const call = { id: 'call_w', function: { name: 'get_weather', arguments: '{"location": "Paris"}' }, type: 'function' };
  const result = '{"temperature_c": 17}';
  const text = exported([
    obs({ type: 'SPAN', name: 'invoke_agent assistant', startTime: at(1), input: [{ role: 'user', content: 'weather?' }], output: [{ role: 'assistant', content: '', tool_calls: [call] }], metadata: { attributes: { 'ag2.span.type': 'agent' } } }),
    obs({ type: 'GENERATION', name: 'chat gpt-4o-mini', startTime: at(2), input: [{ role: 'user', content: 'weather?' }], output: [{ role: 'assistant', content: '', tool_calls: [call] }] }),
    obs({ type: 'SPAN', name: 'execute_tool get_weather', startTime: at(3), input: '{"location": "Paris"}', output: result,
      metadata: { attributes: { 'ag2.span.type': 'tool', 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.id': 'call_w' } } }),
    obs({ type: 'GENERATION', name: 'chat gpt-4o-mini', startTime: at(4), input: [{ role: 'assistant', content: '', tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_w', content: result }], output: [{ role: 'assistant', content: '17C' }] }),
  ]);

  it('one call with the model\'s id and arguments, answered by the execute_tool SPAN', () => {
    const { sessions } = readModel(text, { fileName: 'ag2.json' });
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['get_weather']);
    assert.equal(s.calls[0].encoding, 'json-string');
    assert.deepEqual(pairedIds(s), ['call_w']);
    assert.deepEqual(s.results[0].at.path, ['observations', 2]);
  });
});

describe('Langfuse export from Google ADK through OpenInference', () => {
  const response = (content: unknown) => ({ content, finish_reason: 'STOP', usage_metadata: {} });
  const text = exported([
    obs({ type: 'GENERATION', name: 'call_llm', startTime: at(1), input: { contents: [{ parts: [{ text: 'hi' }], role: 'user' }] },
      output: response({ parts: [{ function_call: { args: { who: 'me' }, name: 'say_hello' } }], role: 'model' }) }),
    obs({ type: 'TOOL', name: 'execute_tool say_hello', startTime: at(2), input: {}, output: {},
      metadata: { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'say_hello', 'gen_ai.tool.call.id': 'adk-1', 'gcp.vertex.agent.tool_response': { greeting: 'Hello' }, 'openinference.span.kind': 'TOOL' } } }),
    obs({ type: 'GENERATION', name: 'call_llm', startTime: at(3), input: {}, output: response({ parts: [{ text: 'Hello!' }], role: 'model' }) }),
  ]);

  it('reads the call from the LlmResponse content, pairs the TOOL whose id the model never sent by name, and takes the result from the span attributes', () => {
    const { sessions } = readModel(text, { fileName: 'adk.json' });
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['say_hello']);
    assert.deepEqual(s.calls[0].args, { who: 'me' });
    assert.deepEqual(s.calls[0].argsAt.path, ['observations', 0, 'output', 'content', 'parts', 0, 'function_call', 'args']);
    assert.deepEqual(pairedIds(s), ['#0']);
    assert.deepEqual(s.results[0].payload, { greeting: 'Hello' });
  });
});

describe('Langfuse export of Anthropic Messages API calls (whole requests and responses as JSON strings)', () => {
  const tools = [{ name: 'Read', description: 'read', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
  const uses = [{ type: 'tool_use', id: 'tu_1', name: 'Read', input: { path: 'a' } }, { type: 'tool_use', id: 'tu_2', name: 'Read', input: { path: 7 } }];
  const gen = (start: number, input: unknown, output: unknown) => obs({ type: 'GENERATION', name: 'anthropic.messages.create', startTime: at(start), input: S(input), output: S(output) });
  const text = exported([
    gen(1, { model: 'm', messages: [{ role: 'user', content: 'go' }], tools }, { type: 'message', role: 'assistant', content: uses, stop_reason: 'tool_use' }),
    gen(2, { model: 'm', messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: uses },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: 'text' }, { type: 'tool_result', tool_use_id: 'tu_2', content: 'bad path', is_error: true }] }], tools },
    { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' }),
  ]);

  it('pairs the tool_result blocks of the next request, keeps is_error, and reads the request\'s tools as definitions', () => {
    const { sessions, codes } = readModel(text, { fileName: 'anthropic.trace.json' });
    const s = sessions[0];
    assert.deepEqual(pairedIds(s), ['tu_1', 'tu_2']);
    assert.equal(s.results[1].transport.isError, true);
    assert.deepEqual(s.tools.map((t) => t.name), ['Read']);
    assert.ok(codes.includes('type-drift') || codes.includes('schema-violation') || codes.some((c) => c.includes('type')), `path 7 breaks the definition: ${codes.join(',')}`);
    assert.ok(!codes.includes('no-contract'));
  });
});

describe('Langfuse seeder layout {traces: [...], observations: [...]}', () => {
  it('is read as Langfuse, one session per traceId', () => {
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }] });
    const text = S({ traces: [{ id: 'a' }, { id: 'b' }], observations: [
      { id: 'o1', traceId: 'a', type: 'GENERATION', startTime: at(1), input: [], output: call('c1') },
      { id: 'o2', traceId: 'b', type: 'GENERATION', startTime: at(2), input: [], output: call('c2') },
    ] });
    const { r, sessions } = readModel(text, { fileName: 'seed.json' });
    assert.equal(r.format, 'langfuse');
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => c.id)), [['c1'], ['c2']]);
  });
});

describe('Langfuse export whose call ids are reused (Microsoft.Extensions.AI with Gemini: the id is the tool name)', () => {
  it('a second call under an answered id is a call of its own, and its execution answers it', () => {
    const out = (args: unknown) => ({ role: 'assistant', content: null, tool_calls: [{ id: 'lookup', type: 'function', function: { name: 'lookup', arguments: S(args) } }] });
    const tool = (start: number, res: string) => obs({ type: 'TOOL', name: 'lookup', startTime: at(start), input: {}, output: res, metadata: { attributes: { 'gen_ai.tool.call.id': 'lookup', 'gen_ai.tool.name': 'lookup' } } });
    const text = exported([
      obs({ type: 'GENERATION', name: 'chat', startTime: at(1), input: [], output: out({ q: 1 }) }), tool(2, 'one'),
      obs({ type: 'GENERATION', name: 'chat', startTime: at(3), input: [], output: out({ q: 2 }) }), tool(4, 'two'),
    ]);
    const { sessions } = readModel(text, { fileName: 'meai.json' });
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => c.args), [{ q: 1 }, { q: 2 }]);
    assert.deepEqual(s.results.map((r) => r.payload), ['one', 'two']);
  });
});

describe('Langfuse export from Pydantic AI before v3 (GenAI events as messages)', () => {
  it('reads the call of a gen_ai.choice output and pairs the gen_ai.tool.message of the next input by its id', () => {
    const tc = { id: 'call_p', type: 'function', function: { name: 'lookup', arguments: '{"topic":"x"}' } };
    const text = exported([
      obs({ type: 'GENERATION', name: 'chat gpt-4o', startTime: at(1), input: S([{ content: 'q', role: 'user', 'event.name': 'gen_ai.user.message' }]),
        output: S({ index: 0, message: { role: 'assistant', tool_calls: [tc] }, 'event.name': 'gen_ai.choice' }) }),
      obs({ type: 'GENERATION', name: 'chat gpt-4o', startTime: at(3), output: S({ index: 0, message: { role: 'assistant', content: 'ok' }, 'event.name': 'gen_ai.choice' }),
        input: S([{ role: 'assistant', tool_calls: [tc], 'event.name': 'gen_ai.assistant.message' }, { role: 'tool', id: 'call_p', content: 'found', name: 'lookup', 'event.name': 'gen_ai.tool.message' }]) }),
    ]);
    const { sessions } = readModel(text, { fileName: 'pydantic.trace.json' });
    assert.deepEqual(callNames(sessions[0]), ['lookup']);
    assert.deepEqual(pairedIds(sessions[0]), ['call_p']);
    assert.equal(sessions[0].results[0].payload, 'found');
  });
});

describe('Langfuse export from BeeAI through OpenInference (a ReAct agent: no structured calls from the model)', () => {
  it('reads each agent update span that names its tool as the execution, arguments from tool.parameters; a span named only by itself adds nothing', () => {
    const update = (start: number, tool: string, params: unknown, out: unknown) => obs({ type: 'SPAN', name: `agent.react.update-${start}`, startTime: at(start), input: null, output: out,
      metadata: { attributes: { target: 'agent.react.update', 'tool.name': tool, 'tool.parameters': params, 'output.value': out, 'openinference.span.kind': 'AGENT' } } });
    const text = exported([
      obs({ type: 'GENERATION', name: 'chat', startTime: at(1), input: [{ role: 'user', content: 'trip?' }], output: null }),
      update(2, 'Wikipedia', { query: 'Barcelona' }, [{ title: 'Barcelona' }]),
      obs({ type: 'SPAN', name: 'tool.search.wikipedia.success-3', startTime: at(3), input: null, output: [{ title: 'Barcelona' }],
        metadata: { attributes: { 'tool.parameters': { query: 'Barcelona' }, 'output.value': [{ title: 'Barcelona' }], 'openinference.span.kind': 'TOOL' } } }),
      update(4, 'OpenMeteoTool', { location_name: 'Barcelona' }, { temperature: 29 }),
    ]);
    const { sessions } = readModel(text, { fileName: 'beeai.json' });
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['Wikipedia', 'OpenMeteoTool']);
    assert.deepEqual(s.calls.map((c) => c.args), [{ query: 'Barcelona' }, { location_name: 'Barcelona' }]);
    assert.deepEqual(s.results.map((r) => r.payload), [[{ title: 'Barcelona' }], { temperature: 29 }]);
  });
});

describe('Langfuse export from the OpenAI Agents SDK with no TOOL observation', () => {
  it('pairs the function_call_output item the next request\'s input list holds', () => {
    const response = (output: unknown[]) => S({ id: 'resp_1', object: 'response', output, tools: [] });
    const text = exported([
      obs({ type: 'GENERATION', name: 'response', startTime: at(1), input: S([{ content: 'weather?', role: 'user' }]),
        output: response([{ type: 'function_call', call_id: 'call_k', name: 'get_weather', arguments: '{"city":"Tokyo"}', id: 'fc_1' }]) }),
      obs({ type: 'GENERATION', name: 'response', startTime: at(2), output: response([{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'sunny' }] }]),
        input: S([{ content: 'weather?', role: 'user' }, { arguments: '{"city":"Tokyo"}', call_id: 'call_k', name: 'get_weather', type: 'function_call', id: 'fc_1' }, { call_id: 'call_k', output: 'sunny', type: 'function_call_output' }]) }),
    ]);
    const { sessions } = readModel(text, { fileName: 'openai-agents.trace.json' });
    assert.deepEqual(callNames(sessions[0]), ['get_weather']);
    assert.deepEqual(pairedIds(sessions[0]), ['call_k']);
    assert.equal(sessions[0].results[0].payload, 'sunny');
  });
});
