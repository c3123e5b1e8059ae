// Langfuse trace exports, round four: the layouts of the exports Langfuse's own test suite downloads (tRPC
// `{trace, observations}`: the trace's observation list without input/output, the full observations beside it, every
// input/output/metadata a JSON string), from the LangChain handler (LangGraph Python and JS) and from Microsoft
// Agent Framework (GenAI parts whose ids are `[run id, call id]`). Every trace here is small and written for the
// test, following facts of real exports.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callNames, pairedIds, readModel } from './helpers';

const S = JSON.stringify;

let seq = 0;
function obs(o: Record<string, unknown>): Record<string, unknown> {
  seq += 1;
  return { id: `obs${seq}`, traceId: 'tr1', projectId: 'p1', environment: 'default', level: 'DEFAULT', statusMessage: null, parentObservationId: null,
    usageDetails: {}, costDetails: {}, toolDefinitions: {}, toolCalls: [], toolCallNames: [], metadata: '{}', ...o };
}
const at = (s: number) => `2025-10-30T08:45:${String(s).padStart(2, '0')}.000Z`;
/** The export as the tRPC download writes it: the trace's own observation list carries no input or output. */
function exported(list: Record<string, unknown>[]): string {
  const bare = list.map((o) => ({ ...o, input: null, output: null, metadata: '{}' }));
  return S({ trace: { id: 'tr1', name: 'agent', timestamp: at(0), input: S(S({ messages: [] })), output: null, metadata: '{}', scores: [], observations: bare }, observations: list }, null, 2);
}
const lc = (cls: string, kwargs: Record<string, unknown>) => ({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', cls], kwargs });

describe('Langfuse export from the LangChain handler (LangGraph Python)', () => {
  const definition = { type: 'function', function: { name: 'web_search', description: 'search', parameters: { type: 'object', properties: { query: { type: 'integer' } }, required: ['query'] } } };
  const text = exported([
    obs({ type: 'GENERATION', name: 'ChatOpenAI', startTime: at(1), input: S([{ role: 'user', content: 'search' }, { role: 'tool', content: definition }]),
      output: S({ role: 'assistant', content: '', additional_kwargs: { tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'web_search', arguments: '{"query":"example"}' } }] } }) }),
    obs({ type: 'SPAN', name: 'web_search', startTime: at(2), input: "{'query': 'example'}",
      output: S({ content: '[{"url": "https://example.com"}]', type: 'tool', name: 'web_search', id: null, tool_call_id: 'call_a', status: 'success' }) }),
    obs({ type: 'SPAN', name: 'agent', startTime: at(3), input: S({ messages: [] }), output: S({ messages: [{ type: 'ai', content: 'done', tool_calls: [] }] }) }),
    obs({ type: 'GENERATION', name: 'ChatOpenAI', startTime: at(4), input: S([{ role: 'tool', content: '[]', tool_call_id: 'call_a' }]), output: S({ role: 'assistant', content: 'done', additional_kwargs: {} }) }),
  ]);

  it('reads the call once, pairs the tool SPAN by its ToolMessage id, and holds the call to the definition the GENERATION input carries as a JSON string', () => {
    const { sessions, codes, r } = readModel(text, { fileName: 'langgraph.trace.json' });
    assert.equal(r.format, 'langfuse');
    assert.equal(sessions.length, 1);
    assert.deepEqual(callNames(sessions[0]), ['web_search']);
    assert.deepEqual(pairedIds(sessions[0]), ['call_a']);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['web_search']);
    // "example" is not an integer: the definition from the input string is the contract applied
    assert.ok(codes.includes('type-drift'), `codes: ${codes.join(',')}`);
    assert.ok(!codes.includes('no-contract'));
  });
});

describe('Langfuse export from the LangChain JS handler (LangGraph JS)', () => {
  const call = { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
  const ai = lc('AIMessage', { content: '', additional_kwargs: { tool_calls: [call] }, tool_calls: [{ name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call', id: 'call_w' }] });
  const tool = lc('ToolMessage', { status: 'success', content: 'sunny', tool_call_id: 'call_w', name: 'get_weather' });
  const text = exported([
    obs({ type: 'SPAN', name: 'RunnableSequence', startTime: at(1), input: S({ messages: [] }), output: S(ai) }),
    obs({ type: 'GENERATION', name: 'ChatOpenAI', startTime: at(2), input: S([{ role: 'user', content: 'weather?' }]), output: S({ content: '', role: 'assistant', tool_calls: [call] }) }),
    obs({ type: 'SPAN', name: 'Branch<model_request,tools,__end__>', startTime: at(3), output: S({ output: [{ lg_name: 'Send', node: 'tools', args: { messages: [ai], lg_tool_call: { name: 'get_weather', args: { city: 'Paris' }, id: 'call_w' } } }] }) }),
    obs({ type: 'SPAN', name: 'get_weather', startTime: at(4), input: S({ city: 'Paris' }), output: S(tool) }),
    obs({ type: 'SPAN', name: 'ChannelWrite<...>', level: 'DEBUG', startTime: at(4), input: S({ messages: [tool] }), output: S({ messages: [tool] }) }),
    obs({ type: 'GENERATION', name: 'ChatOpenAI', startTime: at(5), input: S([]), output: S({ content: 'sunny', role: 'assistant' }) }),
  ]);

  it('reads the one call from the GENERATION (not the chain SPANs that repeat it) and pairs the serialized ToolMessage', () => {
    const { sessions, codes } = readModel(text, { fileName: 'langgraph-js.trace.json' });
    assert.deepEqual(callNames(sessions[0]), ['get_weather']);
    assert.deepEqual(pairedIds(sessions[0]), ['call_w']);
    assert.equal(sessions[0].results[0].payload, 'sunny');
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  });
});

describe('Langfuse export from Microsoft Agent Framework (GenAI parts)', () => {
  const md = S({ attributes: { 'gen_ai.provider.name': 'microsoft.agent_framework', 'gen_ai.tool.definitions': [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }] } });
  const callMsg = { role: 'assistant', parts: [{ type: 'tool_call', id: ['run_1', 'call_9'], name: 'get_weather', arguments: { location: 'Portland' } }] };
  const resultMsg = { role: 'tool', parts: [{ type: 'tool_call_response', id: ['run_1', 'call_9'], response: 'stormy' }] };
  const first = obs({ type: 'GENERATION', name: 'chat', startTime: at(1), metadata: md, input: S([{ role: 'user', parts: [{ type: 'text', content: 'weather?' }] }]), output: S([callMsg]) });
  const second = obs({ type: 'GENERATION', name: 'chat', startTime: at(3), metadata: md, input: S([callMsg, resultMsg]), output: S([{ role: 'assistant', parts: [{ type: 'text', content: 'stormy' }] }]) });

  it('takes the call id from the [run id, call id] pair and pairs the result the next model request shows', () => {
    const { sessions, codes } = readModel(exported([first, second]), { fileName: 'maf.trace.json' });
    assert.equal(sessions[0].calls[0].id, 'call_9');
    assert.deepEqual(pairedIds(sessions[0]), ['call_9']);
    assert.equal(sessions[0].results[0].payload, 'stormy');
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  });

  it('with an execute_tool observation too: one call and one result, not a second call', () => {
    const tool = obs({ type: 'TOOL', name: 'execute_tool get_weather', startTime: at(2), input: S({ location: 'Portland' }), output: 'stormy',
      metadata: S({ attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.id': 'call_9' } }) });
    const { sessions } = readModel(exported([first, tool, second]), { fileName: 'maf.trace.json' });
    assert.deepEqual(callNames(sessions[0]), ['get_weather']);
    assert.deepEqual(pairedIds(sessions[0]), ['call_9']);
    assert.equal(sessions[0].results[0].at.path.includes('observations'), true);
  });

  it('a result the input shows for a call this trace does not hold is not read (no false orphan-result)', () => {
    const other = { role: 'tool', parts: [{ type: 'tool_call_response', id: ['run_0', 'call_old'], response: 'x' }] };
    const gen = obs({ type: 'GENERATION', name: 'chat', startTime: at(1), input: S([other]), output: S([{ role: 'assistant', parts: [{ type: 'text', content: 'ok' }] }]) });
    const { sessions, codes } = readModel(exported([gen]), { fileName: 'maf.trace.json' });
    assert.equal(sessions.reduce((n, s) => n + s.results.length, 0), 0);
    assert.ok(!codes.includes('orphan-result'));
  });
});

describe('Langfuse export from the Vercel AI SDK (v5)', () => {
  const def = S({ type: 'function', name: 'getWeather', inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false } });
  const out = S([{ toolCallId: 'call_v', toolName: 'getWeather', input: '{"location":"Oslo"}' }]);
  const text = exported([
    obs({ type: 'GENERATION', name: 'ai.generateText', startTime: at(1), input: S({ prompt: 'weather?' }), output: out }),
    obs({ type: 'GENERATION', name: 'ai.generateText.doGenerate', startTime: at(2), input: S([]), output: out,
      metadata: S({ tools: [def], attributes: { 'operation.name': 'ai.generateText.doGenerate', 'ai.prompt.tools': S([def]) } }) }),
    obs({ type: 'TOOL', name: 'getWeather', startTime: at(3), input: S({ location: 'Oslo' }), output: S({ temperature: 64 }),
      metadata: S({ attributes: { 'operation.name': 'ai.toolCall', 'ai.toolCall.name': 'getWeather', 'ai.toolCall.id': 'call_v' } }) }),
  ]);

  it('reads the call the model made (once, though two GENERATIONs show it) and pairs the TOOL observation by ai.toolCall.id', () => {
    const { sessions } = readModel(text, { fileName: 'vercel.trace.json' });
    assert.deepEqual(callNames(sessions[0]), ['getWeather']);
    assert.equal(sessions[0].calls[0].id, 'call_v');
    assert.equal(sessions[0].calls[0].encoding, 'json-string');
    assert.deepEqual(pairedIds(sessions[0]), ['call_v']);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['getWeather']);
  });
});
