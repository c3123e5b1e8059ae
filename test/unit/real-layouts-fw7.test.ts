// Agent-framework logs, round seven: Haystack's ChatMessage lists (a reader of their own), and the layouts the
// sweep found misread. Every trace here is small and written for the test, after the writers' source.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callNames, pairedIds, readModel } from './helpers';

const S = JSON.stringify;

describe('Haystack ChatMessage.to_dict() lists', () => {
  const call = (name: string, args: Record<string, unknown>, id: string | null) => ({ tool_call: { tool_name: name, arguments: args, id } });
  const result = (text: string, origin: ReturnType<typeof call>['tool_call'], error: boolean) => ({ tool_call_result: { result: text, origin, error } });
  const messages = (id1: string | null, id2: string | null) => {
    const a = call('weather', { city: 'Berlin' }, id1);
    const b = call('weather', { city: 'Paris' }, id2);
    return [
      { role: 'system', meta: {}, name: null, content: [{ text: 'You are helpful.' }] },
      { role: 'user', meta: {}, name: null, content: [{ text: 'Weather in Berlin and Paris?' }] },
      { role: 'assistant', meta: { finish_reason: 'tool_calls' }, name: null, content: [a, b] },
      { role: 'tool', meta: {}, name: null, content: [result('sunny', a.tool_call, false)] },
      { role: 'tool', meta: {}, name: null, content: [result('Error: no such city', b.tool_call, true)] },
      { role: 'assistant', meta: {}, name: null, content: [{ text: 'Berlin is sunny.' }] },
    ];
  };

  function check(text: string, fileName: string, ids: (string | undefined)[]) {
    const { r, sessions, codes } = readModel(text, { fileName });
    assert.equal(r.format, 'haystack');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['weather', 'weather']);
    assert.deepEqual(s.calls.map((c) => c.id), ids);
    assert.deepEqual(s.calls.map((c) => c.args), [{ city: 'Berlin' }, { city: 'Paris' }]);
    assert.deepEqual(s.calls.map((c) => c.turn), [1, 1], 'two calls of one message: one turn');
    assert.deepEqual(s.results.map((x) => x.transport.isError), [false, true]);
    assert.deepEqual(s.results.map((x) => x.payload), ['sunny', 'Error: no such city']);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
    return s;
  }

  it('2.12+ (`role`, `content` parts): calls with ids, results paired by origin.id, the error flag', () => {
    const s = check(S(messages('call_1', 'call_2'), null, 2), 'history.json', ['call_1', 'call_2']);
    assert.deepEqual(pairedIds(s), ['call_1', 'call_2']);
    assert.deepEqual(s.calls[1].argsAt.path, [2, 'content', 1, 'tool_call', 'arguments']);
    assert.deepEqual(s.results[1].at.path, [4, 'content', 0, 'tool_call_result']);
  });

  it('2.9-2.11 (`_role`, `_content`): the same calls and results', () => {
    const old = messages('call_1', 'call_2').map((m) => ({ _role: m.role, _content: m.content, _name: m.name, _meta: m.meta }));
    const s = check(S(old), 'history.json', ['call_1', 'call_2']);
    assert.deepEqual(s.calls[0].nameAt.path, [2, '_content', 0, 'tool_call', 'tool_name']);
  });

  it('one message per JSONL line, calls without ids (a local model): paired by origin.tool_name in order', () => {
    const s = check(messages(null, null).map((m) => S(m)).join('\n') + '\n', 'history.jsonl', [undefined, undefined]);
    assert.deepEqual(s.results.map((x) => x.callIndex), [0, 1]);
  });

  it("an agent's `{messages}` and a pipeline snapshot's agent inputs", () => {
    check(S({ messages: messages('c1', 'c2'), last_message: {} }), 'run.json', ['c1', 'c2']);
    const schema = { type: 'object', properties: { messages: { type: 'array' } } };
    const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const snapshot = {
      pipeline_state: { inputs: {}, component_visits: {}, pipeline_outputs: {} },
      break_point: { agent_name: 'agent', break_point: { component_name: 'chat_generator', visit_count: 2 } },
      agent_snapshot: {
        component_inputs: {
          chat_generator: { serialization_schema: schema, serialized_data: { messages: messages('c1', 'c2').slice(0, 5), tools: [
            { type: 'haystack.tools.tool.Tool', data: { name: 'weather', description: 'Weather of a city', parameters: weatherSchema, function: 'tools.weather' } },
            { type: 'haystack.tools.toolset.Toolset', data: { tools: [{ type: 'haystack.tools.tool.Tool', data: { name: 'clock', description: '', parameters: { type: 'object', properties: {} } } }] } },
          ] } },
          tool_invoker: { serialization_schema: schema, serialized_data: { messages: [] } },
        },
        component_visits: { chat_generator: 2, tool_invoker: 1 },
      },
    };
    const s = check(S(snapshot, null, 2), 'snapshot.json', ['c1', 'c2']);
    assert.deepEqual(s.calls[0].at.path.slice(0, 5), ['agent_snapshot', 'component_inputs', 'chat_generator', 'serialized_data', 'messages']);
    assert.deepEqual(s.tools.map((t) => t.name), ['weather', 'clock'], "the chat generator's tools, a Toolset's among them");
    assert.deepEqual(s.tools[0].inputSchema, weatherSchema);
  });

  it('an OpenAI-typed content list is not Haystack (parts with `type`)', () => {
    const openai = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'x', content: 'ok' }];
    assert.notEqual(readModel(S(openai), { fileName: 'chat.json' }).r.format, 'haystack');
  });
});

describe('Microsoft Agent Framework / Microsoft.Extensions.AI chat messages', () => {
  const py = (role: unknown, contents: unknown[], type = 'message') => ({ type, role, contents, author_name: null, additional_properties: {} });
  const conversation = (role: (r: string) => unknown, type?: string) => [
    py(role('user'), [{ type: 'text', text: 'weather in Oslo, then Bergen?' }], type),
    py(role('assistant'), [{ type: 'text_reasoning', text: 'look it up' }, { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city": "Oslo"}' }], type),
    py(role('tool'), [{ type: 'function_result', call_id: 'call_9', result: 'rainy' }], type),
    py(role('assistant'), [{ type: 'function_call', call_id: 'call_10', name: 'get_weather', arguments: { city: 'Bergen' } }], type),
    py(role('tool'), [{ type: 'function_result', call_id: 'call_10', result: 'Error: Function failed.', exception: 'TimeoutError: upstream' }], type),
    py(role('assistant'), [{ type: 'text', text: 'Oslo is rainy.' }], type),
  ];

  function check(text: string, fileName: string) {
    const { r, sessions, codes } = readModel(text, { fileName });
    assert.equal(r.format, 'agent-framework');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['get_weather', 'get_weather']);
    assert.deepEqual(s.calls.map((c) => c.args), [{ city: 'Oslo' }, { city: 'Bergen' }]);
    assert.deepEqual(s.calls.map((c) => c.turn), [1, 2]);
    assert.deepEqual(pairedIds(s), ['call_9', 'call_10']);
    assert.deepEqual(s.results.map((x) => x.transport.isError), [undefined, true], 'the exception is the error flag');
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
    return s;
  }

  it('Python Message.to_dict() (role a string): a list, and an agent response\'s messages', () => {
    const s = check(S(conversation((r) => r), null, 2), 'history.json');
    assert.equal(s.calls[0].encoding, 'json-string');
    assert.deepEqual(s.calls[0].nameAt.path, [1, 'contents', 1, 'name']);
    check(S({ type: 'agent_response', messages: conversation((r) => r), response_id: 'resp_1' }), 'response.json');
  });

  it('older ChatMessage (`type: chat_message`, role `{type: role, value}`) in a thread\'s message store', () => {
    const thread = { type: 'agent_thread_state', service_thread_id: null, chat_message_store_state: { messages: conversation((r) => ({ type: 'role', value: r }), 'chat_message') } };
    check(S(thread, null, 2), 'thread.json');
  });

  it('one message per JSONL line', () => {
    check(conversation((r) => r).map((m) => S(m)).join('\n') + '\n', 'history.jsonl');
  });

  it('.NET ChatMessage JSON (`$type` contents, camelCase), an approval request read once with its call', () => {
    const call = { $type: 'functionCall', callId: 'c1', name: 'delete_file', arguments: { path: 'a.txt' } };
    const messages = [
      { role: 'user', contents: [{ $type: 'text', text: 'delete a.txt' }] },
      { role: 'assistant', contents: [{ $type: 'functionApprovalRequest', id: 'ap1', functionCall: call }] },
      { role: 'user', contents: [{ $type: 'functionApprovalResponse', id: 'ap1', approved: true, functionCall: call }] },
      { role: 'assistant', contents: [call] },
      { role: 'tool', contents: [{ $type: 'functionResult', callId: 'c1', result: 'deleted' }] },
    ];
    const { r, sessions, codes } = readModel(S(messages), { fileName: 'chat.json' });
    assert.equal(r.format, 'agent-framework');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['delete_file'], 'the approval request and the call it became are one call');
    assert.deepEqual(s.calls[0].nameAt.path, [1, 'contents', 0, 'functionCall', 'name']);
    assert.deepEqual(s.calls[0].args, { path: 'a.txt' });
    assert.deepEqual(pairedIds(s), ['c1']);
    assert.equal(s.results[0].payload, 'deleted');
    assert.ok(!codes.some((c) => c.startsWith('orphan') || c === 'duplicate-call-id'), codes.join(','));
  });
});

describe('LangChain astream_events() streams', () => {
  const ev = (event: string, name: string, runId: string, data: Record<string, unknown>) =>
    ({ event, name, run_id: runId, data, parent_ids: ['root'], tags: [], metadata: { langgraph_node: event.includes('tool') ? 'tools' : 'agent' } });
  const ai = {
    content: '', type: 'ai', id: 'run-a', invalid_tool_calls: [],
    tool_calls: [{ name: 'search', args: { query: 'sf' }, id: 'call_1', type: 'tool_call' }, { name: 'search', args: { query: 'la' }, id: 'call_2', type: 'tool_call' }],
  };
  const toolMessage = (content: string, id: string, status: string) => ({ content, type: 'tool', name: 'search', tool_call_id: id, status });
  const graphEvents = [
    ev('on_chat_model_stream', 'ChatOpenAI', 'm1', { chunk: { content: '', type: 'AIMessageChunk', id: 'run-a', tool_call_chunks: [{ name: 'search', args: '', id: 'call_1', index: 0 }] } }),
    ev('on_chat_model_end', 'ChatOpenAI', 'm1', { output: ai }),
    ev('on_tool_start', 'search', 't1', { input: { query: 'sf' } }),
    ev('on_tool_start', 'search', 't2', { input: { query: 'la' } }),
    ev('on_tool_end', 'search', 't2', { input: { query: 'la' }, output: toolMessage('Error: timeout', 'call_2', 'error') }),
    ev('on_tool_end', 'search', 't1', { input: { query: 'sf' }, output: toolMessage('60F', 'call_1', 'success') }),
    ev('on_chat_model_end', 'ChatOpenAI', 'm2', { output: { content: 'SF is 60F', type: 'ai', id: 'run-b', tool_calls: [] } }),
  ];

  function checkGraph(text: string, fileName: string) {
    const { r, sessions, codes } = readModel(text, { fileName });
    assert.equal(r.format, 'langchain-events');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['search', 'search'], "the tool runs are the model's calls being executed, not calls of their own");
    assert.deepEqual(s.calls.map((c) => c.id), ['call_1', 'call_2']);
    assert.deepEqual(s.calls.map((c) => c.args), [{ query: 'sf' }, { query: 'la' }]);
    assert.deepEqual(s.calls[0].argsAt.path.slice(-5), ['data', 'output', 'tool_calls', 0, 'args']);
    assert.deepEqual(pairedIds(s), ['call_2', 'call_1']);
    assert.deepEqual(s.results.map((x) => x.transport.isError), [true, false]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  }

  it('a LangGraph agent: calls from the chat model, results of its ToolNode, as JSONL, a JSON array and an SSE body', () => {
    checkGraph(graphEvents.map((e) => S(e)).join('\n') + '\n', 'events.jsonl');
    checkGraph(S(graphEvents, null, 2), 'events.json');
    checkGraph(graphEvents.map((e) => `event: events\ndata: ${S(e)}\n\n`).join(''), 'events.sse');
  });

  it('tool runs without a chat model event (an AgentExecutor): each start is a call, paired by run_id; on_tool_error fails it', () => {
    const events = [
      ev('on_chain_start', 'AgentExecutor', 'r0', { input: { input: 'weather?' } }),
      ev('on_tool_start', 'search', 'r1', { input: { query: 'sf weather' } }),
      ev('on_tool_end', 'search', 'r1', { output: 'sunny, 60F' }),
      ev('on_tool_start', 'calc', 'r2', { input: { expr: '2+' } }),
      ev('on_tool_error', 'calc', 'r2', { input: { expr: '2+' }, error: "SyntaxError('incomplete')" }),
    ];
    const { r, sessions, codes } = readModel(events.map((e) => S(e)).join('\n') + '\n', { fileName: 'run.jsonl' });
    assert.equal(r.format, 'langchain-events');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['search', 'calc']);
    assert.deepEqual(s.calls.map((c) => c.turn), [1, 2], 'one tool run after another: a turn each');
    assert.deepEqual(s.calls[1].argsAt.path, ['data', 'input']);
    assert.deepEqual(pairedIds(s), ['#0', '#1']);
    assert.deepEqual(s.results.map((x) => x.payload), ['sunny, 60F', "SyntaxError('incomplete')"]);
    assert.deepEqual(s.results.map((x) => x.transport.isError), [undefined, true]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  });

  it("a single-input tool's text input is kept as text, not reported as broken JSON", () => {
    const events = [ev('on_tool_start', 'search', 'r1', { input: 'sf weather' }), ev('on_tool_end', 'search', 'r1', { output: 'sunny' })];
    const { sessions, codes } = readModel(events.map((e) => S(e)).join('\n') + '\n', { fileName: 'run.jsonl' });
    assert.equal(sessions[0].calls[0].encoding, 'freeform');
    assert.equal(sessions[0].calls[0].args, 'sf weather');
    assert.ok(!codes.includes('arguments-encoding'), codes.join(','));
  });
});

describe('CAMEL agent memory records', () => {
  let t = 0;
  const record = (cls: string, roleAtBackend: string, fields: Record<string, unknown>) => ({
    uuid: `u${++t}`, role_at_backend: roleAtBackend, extra_info: {}, timestamp: 1700000000 + t, agent_id: 'a1',
    message: { __class__: cls, role_name: 'Assistant', role_type: 'assistant', meta_dict: {}, content: '', image_list: null, video_bytes: null, ...fields },
  });
  const fn = (roleAtBackend: string, name: string, args: Record<string, unknown>, id: string | undefined, result: unknown) =>
    record('FunctionCallingMessage', roleAtBackend, { func_name: name, args, result, ...(id === undefined ? {} : { tool_call_id: id }) });
  const memory = (ids: boolean) => [
    record('BaseMessage', 'system', { role_name: 'System', content: 'You are a math helper.' }),
    record('BaseMessage', 'user', { role_name: 'User', role_type: 'user', content: '2+3, then 10/0?' }),
    fn('assistant', 'add', { a: 2, b: 3 }, ids ? 'call_a' : undefined, null),
    fn(ids ? 'tool' : 'function', 'add', { a: 2, b: 3 }, ids ? 'call_a' : undefined, 5),
    fn('assistant', 'div', { a: 10, b: 0 }, ids ? 'call_b' : undefined, null),
    fn(ids ? 'tool' : 'function', 'div', { a: 10, b: 0 }, ids ? 'call_b' : undefined, "Error executing tool 'div': division by zero"),
    record('BaseMessage', 'assistant', { content: '5; 10/0 fails.' }),
  ];

  function check(text: string, fileName: string, paired: string[]) {
    const { r, sessions, codes } = readModel(text, { fileName });
    assert.equal(r.format, 'camel');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['add', 'div'], 'the call record is the call; its result record repeats it and is the result');
    assert.deepEqual(s.calls.map((c) => c.args), [{ a: 2, b: 3 }, { a: 10, b: 0 }]);
    assert.deepEqual(s.calls[1].argsAt.path.slice(-2), ['message', 'args']);
    assert.deepEqual(pairedIds(s), paired);
    assert.deepEqual(s.results.map((x) => x.payload), [5, "Error executing tool 'div': division by zero"]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  }

  it('JSONL (save_memory / JsonStorage), results paired by tool_call_id', () => {
    check(memory(true).map((m) => S(m)).join('\n') + '\n', 'memory.jsonl', ['call_a', 'call_b']);
  });

  it('older records (role_at_backend "function", no tool_call_id) as a JSON array: paired by func_name', () => {
    check(S(memory(false), null, 2), 'memory.json', ['#0', '#1']);
  });
});

describe('AutoGen 0.4 runtime event logs (autogen_core.events)', () => {
  const tc = (id: string, city: string) => ({ id, type: 'function', function: { name: 'get_weather', arguments: S({ city }) } });
  const llmCall = (messages: unknown[], toolCalls: unknown[] | null, content: string | null) => ({
    type: 'LLMCall', messages, prompt_tokens: 10, completion_tokens: 5, agent_id: 'assistant/default',
    response: { id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, finish_reason: toolCalls ? 'tool_calls' : 'stop', message: { role: 'assistant', content, tool_calls: toolCalls } }] },
  });
  const user = { role: 'user', content: 'weather in Oslo and Bergen?' };

  it("the model's calls, a ToolCall event as the run of one, the next request's tool message as the other's failure", () => {
    const lines = [
      llmCall([user], [tc('call_1', 'Oslo'), tc('call_2', 'Bergen')], null),
      { type: 'ToolCall', tool_name: 'get_weather', arguments: { city: 'Oslo' }, result: 'rainy', agent_id: 'assistant/default' },
      { payload: '{}', sender: 'assistant/default', receiver: null, kind: 'MessageKind.PUBLISH', delivery_stage: 'DeliveryStage.SEND', type: 'Message' },
      llmCall([user, { role: 'assistant', tool_calls: [tc('call_1', 'Oslo'), tc('call_2', 'Bergen')] }, { role: 'tool', tool_call_id: 'call_1', content: 'rainy' },
        { role: 'tool', tool_call_id: 'call_2', content: 'Error: TimeoutError()' }], null, 'Oslo is rainy.'),
    ];
    const { r, sessions, codes } = readModel(lines.map((l) => S(l)).join('\n') + '\n', { fileName: 'events.jsonl' });
    assert.equal(r.format, 'autogen');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['get_weather', 'get_weather'], 'the ToolCall event runs a call the model made: no call of its own');
    assert.deepEqual(s.calls.map((c) => c.id), ['call_1', 'call_2']);
    assert.deepEqual(pairedIds(s), ['call_1', 'call_2'], 'each answered once: the copy of the first result in the next request is not read again');
    assert.deepEqual(s.results.map((x) => x.payload), ['rainy', 'Error: TimeoutError()']);
    assert.deepEqual(s.results[1].at.path, ['messages', 3]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  });

  it('ToolCall events alone: each a call with its result', () => {
    const lines = [{ type: 'ToolCall', tool_name: 'add', arguments: { a: 1, b: 2 }, result: '3', agent_id: null },
      { type: 'ToolCall', tool_name: 'mul', arguments: { a: 2, b: 3 }, result: '6', agent_id: null }];
    const { r, sessions, codes } = readModel(lines.map((l) => S(l)).join('\n') + '\n', { fileName: 'events.jsonl' });
    assert.equal(r.format, 'autogen');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['add', 'mul']);
    assert.deepEqual(s.calls[1].argsAt.path, ['arguments']);
    assert.deepEqual(pairedIds(s), ['#0', '#1']);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  });
});

describe("LangGraph's debug stream (stream_mode=\"debug\")", () => {
  it('checkpoint events are snapshots of the state, task events are passed over; read as LangGraph, not as another envelope', () => {
    const human = { content: 'weather?', type: 'human', id: 'h1' };
    const ai = { content: '', type: 'ai', id: 'a1', tool_calls: [{ name: 'search', args: { query: 'sf' }, id: 'call_1', type: 'tool_call' }] };
    const tool = { content: 'Error: timeout', type: 'tool', id: 't1', tool_call_id: 'call_1', name: 'search', status: 'error' };
    const answer = { content: 'no luck', type: 'ai', id: 'a2', tool_calls: [] };
    const checkpoint = (step: number, messages: unknown[]) => ({ type: 'checkpoint', timestamp: `2025-01-01T00:00:0${step}Z`, step,
      payload: { config: { configurable: { thread_id: 'th1', checkpoint_id: `c${step}` } }, values: { messages }, metadata: { source: 'loop', step }, next: [], tasks: [] } });
    const task = (step: number, name: string) => ({ type: 'task', timestamp: 't', step, payload: { id: `k${step}`, name, input: {}, triggers: [] } });
    const result = (step: number, name: string, messages: unknown[]) => ({ type: 'task_result', timestamp: 't', step, payload: { id: `k${step}`, name, error: null, result: [['messages', messages]], interrupts: [] } });
    const lines = [checkpoint(0, [human]), task(1, 'agent'), result(1, 'agent', [ai]), checkpoint(1, [human, ai]), task(2, 'tools'),
      result(2, 'tools', [tool]), checkpoint(2, [human, ai, tool]), result(3, 'agent', [answer]), checkpoint(3, [human, ai, tool, answer])];
    const { r, sessions, codes } = readModel(lines.map((l) => S(l)).join('\n') + '\n', { fileName: 'debug.jsonl' });
    assert.equal(r.format, 'langgraph');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['search'], 'each message read once, though every checkpoint repeats it');
    assert.deepEqual(pairedIds(s), ['call_1']);
    assert.equal(s.results[0].transport.isError, true);
    assert.deepEqual(s.results[0].at.path, ['payload', 'values', 'messages', 2]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join(','));
  });
});
