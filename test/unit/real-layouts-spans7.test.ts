// Span and trace exports (round seven): Langfuse observations whose GENERATIONs hold Anthropic messages with the
// server's tool blocks, results standing in until their execution is read, and the other span layouts this round
// read. Every trace here is small and written for the test, after the layout of a real file or of the format's
// documentation or writer source.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callNames, pairedIds, readModel } from './helpers';

const J = JSON.stringify;

function read(text: string, fileName: string) {
  const m = readModel(text, { fileName });
  return { ...m, codes: [...m.codes].sort() };
}

/** A Langfuse observation as the public API returns it. */
const obs = <F extends Record<string, unknown>>(id: string, type: string, startTime: string, fields: F) => ({ id, traceId: 't1', type, startTime, ...fields });

describe('Langfuse: Anthropic messages with server and MCP tool blocks', () => {
  const first = obs('g1', 'GENERATION', '2025-06-01T10:00:00.000Z', {
    name: 'anthropic.messages.create',
    input: { model: 'claude-sonnet-4', messages: [{ role: 'user', content: 'weather in Oslo, then file it' }],
      tools: [{ name: 'save_note', input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] },
    output: { role: 'assistant', content: [
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'Oslo weather' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } },
      { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'lookup', server_name: 'kb', input: { q: 'Oslo' } },
      { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'cold' }] },
      { type: 'text', text: 'It is cold.' },
    ] },
  });
  const filing = obs('g1b', 'GENERATION', '2025-06-01T10:00:03.000Z', {
    name: 'anthropic.messages.create',
    output: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'save_note', input: { text: 'cold' } }] },
  });
  const second = obs('g2', 'GENERATION', '2025-06-01T10:00:05.000Z', {
    name: 'anthropic.messages.create',
    input: { messages: [
      { role: 'user', content: 'weather in Oslo, then file it' },
      { role: 'assistant', content: first.output.content },
      { role: 'assistant', content: filing.output.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'saved', is_error: false }] },
    ] },
    output: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  });

  it('reads an answer made only of server and MCP tool blocks, each call once, each result with its call', () => {
    const { sessions } = read(J({ data: [first, filing, second], meta: { page: 1 } }), 'observations.json');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['web_search', 'lookup', 'save_note']);
    assert.deepEqual(s.calls.map((c) => c.id), ['srvtoolu_1', 'mcptoolu_1', 'toolu_1']);
    assert.deepEqual(pairedIds(s), ['srvtoolu_1', 'mcptoolu_1', 'toolu_1']);
    assert.deepEqual(s.results.map((r) => r.transport.isError === true), [true, false, false]);
    assert.deepEqual(s.tools.map((t) => t.name), ['save_note']);
  });

});

describe('Langfuse: results read from a request before their execution', () => {
  // two calls of one tool; the next request (listed first: the same start time) shows both results; the TOOL
  // observations name their tool but no call id (the LangChain handler's tool spans)
  const gen = obs('g1', 'GENERATION', '2025-06-01T10:00:00.000Z', {
    output: { role: 'assistant', content: null, tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'search', arguments: '{"q":"a"}' } },
      { id: 'call_b', type: 'function', function: { name: 'search', arguments: '{"q":"b"}' } },
    ] },
  });
  const next = obs('g2', 'GENERATION', '2025-06-01T10:00:01.000Z', {
    input: [
      { role: 'assistant', tool_calls: gen.output.tool_calls },
      { role: 'tool', tool_call_id: 'call_a', content: 'A (copy)' },
      { role: 'tool', tool_call_id: 'call_b', content: 'B (copy)' },
    ],
    output: { role: 'assistant', content: 'both found' },
  });
  const toolA = obs('s1', 'TOOL', '2025-06-01T10:00:01.000Z', { name: 'search', input: { q: 'a' }, output: 'A', level: 'DEFAULT' });
  const toolB = obs('s2', 'TOOL', '2025-06-01T10:00:01.000Z', { name: 'search', input: { q: 'b' }, output: 'B', level: 'ERROR', statusMessage: 'timeout' });

  it('puts each execution in its stand-in\'s place, in call order, with its own payload and status', () => {
    const { sessions } = read(J({ data: [gen, next, toolA, toolB], meta: {} }), 'observations.json');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['search', 'search']);
    assert.deepEqual(pairedIds(s), ['call_a', 'call_b']);
    assert.deepEqual(s.results.map((r) => r.payload), ['A', 'B']);
    assert.deepEqual(s.results.map((r) => r.transport.spanStatus), ['UNSET', 'ERROR']);
  });
});

describe('Spans: Anthropic request histories recorded whole', () => {
  // an OTel span whose `gen_ai.input.messages` holds the Anthropic request's messages as they were sent (the
  // server's blocks included), and whose output is the final answer
  const history = [
    { role: 'user', content: 'search, then fetch' },
    { role: 'assistant', content: [
      { type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_fetch', input: { url: 'https://example.com' } },
      { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_9', content: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' } },
      { type: 'mcp_tool_use', id: 'mcptoolu_9', name: 'kb_search', server_name: 'kb', input: { q: 'example' } },
      { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_9', is_error: true, content: [{ type: 'text', text: 'kb down' }] },
    ] },
  ];
  const span = {
    name: 'chat claude-sonnet-4', context: { trace_id: '0xaa', span_id: '0x01' }, parent_id: null, start_time: '2025-06-01T10:00:00Z',
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'anthropic', 'gen_ai.input.messages': J(history), 'gen_ai.output.messages': J([{ role: 'assistant', parts: [{ type: 'text', content: 'both failed' }] }]) },
  };

  it('reads the server and MCP calls of the history and their results, both failures', () => {
    const { sessions } = read(J([span]), 'spans.json');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['web_fetch', 'kb_search']);
    assert.deepEqual(pairedIds(s), ['srvtoolu_9', 'mcptoolu_9']);
    assert.deepEqual(s.results.map((r) => r.transport.isError), [true, true]);
    assert.deepEqual(s.calls.map((c) => c.args), [{ url: 'https://example.com' }, { q: 'example' }]);
  });
});

describe('OpenLLMetry Anthropic spans (flattened gen_ai.prompt / gen_ai.completion attributes)', () => {
  // opentelemetry-instrumentation-anthropic: a message's content goes to `gen_ai.prompt.N.content` as it was sent
  // (a JSON list of blocks unless all are text), an assistant's tool_use blocks also to `.tool_calls.M.*`; the
  // answer's tool_use blocks to `gen_ai.completion.0.tool_calls.M.*`; tools to `llm.request.functions.N.*` with
  // `input_schema` as JSON
  const kv = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } };
  const span = (id: string, start: string, attributes: { key: string; value: unknown }[]) => ({
    traceId: 'abc', spanId: id, name: 'anthropic.chat', kind: 3, startTimeUnixNano: start, endTimeUnixNano: start + '9', attributes, status: {},
  });
  const first = span('01', '1000', [
    kv('gen_ai.system', 'Anthropic'), kv('llm.request.type', 'chat'), kv('gen_ai.request.model', 'claude-3-5-sonnet'),
    kv('gen_ai.prompt.0.role', 'user'), kv('gen_ai.prompt.0.content', 'Weather in Oslo?'),
    kv('llm.request.functions.0.name', 'get_weather'), kv('llm.request.functions.0.description', 'weather by city'),
    kv('llm.request.functions.0.input_schema', J({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] })),
    kv('gen_ai.completion.0.finish_reason', 'tool_use'), kv('gen_ai.completion.0.role', 'assistant'), kv('gen_ai.completion.0.content', ''),
    kv('gen_ai.completion.0.tool_calls.0.id', 'toolu_01'), kv('gen_ai.completion.0.tool_calls.0.name', 'get_weather'),
    kv('gen_ai.completion.0.tool_calls.0.arguments', J({ city: 'Oslo' })),
  ]);
  const second = span('02', '2000', [
    kv('gen_ai.system', 'Anthropic'), kv('llm.request.type', 'chat'),
    kv('gen_ai.prompt.0.role', 'user'), kv('gen_ai.prompt.0.content', 'Weather in Oslo?'),
    kv('gen_ai.prompt.1.role', 'assistant'), kv('gen_ai.prompt.1.content', J([toolUse])),
    kv('gen_ai.prompt.1.tool_calls.0.id', 'toolu_01'), kv('gen_ai.prompt.1.tool_calls.0.name', 'get_weather'), kv('gen_ai.prompt.1.tool_calls.0.arguments', J({ city: 'Oslo' })),
    kv('gen_ai.prompt.2.role', 'user'), kv('gen_ai.prompt.2.content', J([{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'service down', is_error: true }])),
    kv('gen_ai.completion.0.role', 'assistant'), kv('gen_ai.completion.0.content', 'I could not get the weather.'),
  ]);
  const otlp = (spans: unknown[]) => J({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'opentelemetry.instrumentation.anthropic' }, spans }] }] });

  it('pairs the call with the tool_result block of the next request, read once, its failure kept', () => {
    const { sessions, codes } = read(otlp([first, second]), 'otlp.json');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['get_weather']);
    assert.deepEqual(s.calls.map((c) => c.args), [{ city: 'Oslo' }]);
    assert.deepEqual(pairedIds(s), ['toolu_01']);
    assert.equal(s.results[0].payload, 'service down');
    assert.equal(s.results[0].transport.isError, true);
    assert.ok(!codes.includes('orphan-call'), codes.join());
  });

  it('reads the tools with their input_schema', () => {
    const s = read(otlp([first, second]), 'otlp.json').sessions[0];
    assert.deepEqual(s.tools.map((t) => [t.name, t.inputSchema]), [['get_weather', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }]]);
  });

  it('reads the calls of an older version\'s history, which lists them only as content blocks', () => {
    const older = span('02', '2000', second.attributes.filter((a) => !a.key.includes('.tool_calls.')));
    const s = read(otlp([older]), 'otlp.json').sessions[0];
    assert.deepEqual(callNames(s), ['get_weather']);
    assert.deepEqual(s.calls.map((c) => c.id), ['toolu_01']);
    assert.deepEqual(pairedIds(s), ['toolu_01']);
  });
});

describe('OTel GenAI message parts: server tool calls', () => {
  // the semantic conventions' ServerToolCallPart `{type: "server_tool_call", id, name, server_tool_call: {type,
  // ...}}` and ServerToolCallResponsePart `{type: "server_tool_call_response", id, server_tool_call_response}`;
  // Pydantic AI (v3+) keeps a built-in tool's arguments under `server_tool_call.arguments`
  const output = [{ role: 'assistant', parts: [
    { type: 'server_tool_call', id: 'ws_1', name: 'web_search', server_tool_call: { type: 'web_search', arguments: { query: 'otel genai' } } },
    { type: 'server_tool_call_response', id: 'ws_1', server_tool_call_response: { type: 'web_search', response: [{ url: 'https://opentelemetry.io' }] } },
    { type: 'server_tool_call', id: 'srvtoolu_2', name: 'code_execution', server_tool_call: { type: 'code_execution', code: 'print(1)' } },
    { type: 'server_tool_call_response', id: 'srvtoolu_2', server_tool_call_response: { type: 'code_execution_tool_result', content: { type: 'code_execution_tool_result_error', error_code: 'unavailable' } } },
    { type: 'text', content: 'done' },
  ], finish_reason: 'stop' }];
  const span = {
    name: 'chat gpt-5', context: { trace_id: '0xbb', span_id: '0x02' }, parent_id: null, start_time: '2025-06-01T10:00:00Z',
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': J([{ role: 'user', parts: [{ type: 'text', content: 'search' }] }]), 'gen_ai.output.messages': J(output) },
  };

  it('reads each as a call with its arguments, paired with its response; an error-typed content a failure', () => {
    const s = read(J([span]), 'spans.json').sessions[0];
    assert.deepEqual(callNames(s), ['web_search', 'code_execution']);
    assert.deepEqual(s.calls.map((c) => c.args), [{ query: 'otel genai' }, { type: 'code_execution', code: 'print(1)' }]);
    assert.deepEqual(pairedIds(s), ['ws_1', 'srvtoolu_2']);
    assert.deepEqual(s.results.map((r) => r.transport.isError === true), [false, true]);
    assert.deepEqual(s.results[0].payload, [{ url: 'https://opentelemetry.io' }]);
  });
});

describe('Phoenix REST pages of OTLP spans (/v1/projects/{id}/spans/otlpv1)', () => {
  // each span OTLP JSON with the proto's snake_case names, outside any resourceSpans; attributes flattened into a
  // typed list whose AnyValue writes every member of the oneof, the unset ones null
  const nulls = { array_value: null, bool_value: null, bytes_value: null, double_value: null, int_value: null, kvlist_value: null, string_value: null };
  const kv = (key: string, value: string | number) => ({ key, value: { ...nulls, ...(typeof value === 'number' ? { int_value: value } : { string_value: value }) } });
  const otlpSpan = (spanId: string, start: number, code: number, attributes: unknown[]) => ({
    trace_id: '6c1b0e2a', span_id: spanId, parent_span_id: null, name: spanId === 's1' ? 'ChatCompletion' : 'get_weather',
    start_time_unix_nano: start, end_time_unix_nano: start + 5, attributes, events: null, status: { code, message: code === 2 ? 'boom' : null },
    dropped_attributes_count: null, dropped_events_count: null, dropped_links_count: null, flags: null, kind: null, links: null, trace_state: null,
  });
  const page = {
    next_cursor: null,
    data: [
      otlpSpan('s2', 3000, 2, [kv('openinference.span.kind', 'TOOL'), kv('tool.name', 'get_weather'), kv('tool_call.id', 'call_1'), kv('input.value', '{"city": "Oslo"}'), kv('output.value', 'timeout')]),
      otlpSpan('s1', 1000, 1, [
        kv('openinference.span.kind', 'LLM'), kv('llm.token_count.prompt', 12),
        kv('llm.input_messages.0.message.role', 'user'), kv('llm.input_messages.0.message.content', 'weather in Oslo?'),
        kv('llm.output_messages.0.message.role', 'assistant'),
        kv('llm.output_messages.0.message.tool_calls.0.tool_call.id', 'call_1'),
        kv('llm.output_messages.0.message.tool_calls.0.tool_call.function.name', 'get_weather'),
        kv('llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments', '{"city": "Oslo"}'),
        kv('llm.tools.0.tool.json_schema', J({ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } })),
      ]),
    ],
  };

  it('reads the page as OpenInference spans: the call, its TOOL span\'s result with the span\'s ERROR status', () => {
    const { r, sessions } = read(J(page, null, 2), 'spans-otlpv1.json');
    assert.equal(r.format, 'openinference');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['get_weather']);
    assert.deepEqual(s.calls.map((c) => c.args), [{ city: 'Oslo' }]);
    assert.deepEqual(pairedIds(s), ['call_1']);
    assert.equal(s.results[0].payload, 'timeout');
    assert.equal(s.results[0].transport.spanStatus, 'ERROR');
    assert.deepEqual(s.tools.map((t) => t.name), ['get_weather']);
  });

  it('reads such spans one per line too', () => {
    const text = page.data.map((x) => J(x)).join('\n') + '\n';
    const s = read(text, 'spans.jsonl').sessions[0];
    assert.deepEqual(callNames(s), ['get_weather']);
    assert.deepEqual(pairedIds(s), ['call_1']);
  });
});

describe('Langfuse batch export of observations (a JSON list, JSONL)', () => {
  // the observations table exported as rows: the observation's own fields, no page wrapper; two traces mixed
  const row = <F extends Record<string, unknown>>(id: string, traceId: string, type: string, startTime: string, fields: F) =>
    ({ id, traceId, projectId: 'p1', type, startTime, endTime: startTime, metadata: {}, level: 'DEFAULT', statusMessage: null, parentObservationId: null, ...fields });
  const rows = [
    row('g1', 't1', 'GENERATION', '2025-06-01T10:00:00.000Z', { name: 'ChatOpenAI', model: 'gpt-4o', input: [{ role: 'user', content: 'weather?' }],
      output: { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] } }),
    row('g2', 't2', 'GENERATION', '2025-06-01T11:00:00.000Z', { name: 'ChatOpenAI', input: [{ role: 'user', content: 'time?' }],
      output: { role: 'assistant', content: '', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_time', arguments: '{}' } }] } }),
    row('s1', 't1', 'TOOL', '2025-06-01T10:00:02.000Z', { name: 'get_weather', input: { city: 'Oslo' }, output: null, level: 'ERROR', statusMessage: 'timeout' }),
    row('s2', 't2', 'TOOL', '2025-06-01T11:00:01.000Z', { name: 'get_time', input: {}, output: '11:00' }),
  ];

  const check = (text: string, fileName: string) => {
    const { r, sessions } = read(text, fileName);
    assert.equal(r.format, 'langfuse');
    assert.equal(sessions.length, 2);
    const [a, b] = sessions;
    assert.deepEqual([callNames(a), callNames(b)], [['get_weather'], ['get_time']]);
    assert.deepEqual([pairedIds(a), pairedIds(b)], [['call_1'], ['call_9']]);
    assert.equal(a.results[0].payload, 'timeout');
    assert.equal(a.results[0].transport.spanStatus, 'ERROR');
    assert.equal(b.results[0].payload, '11:00');
  };

  it('reads the JSON list one session per trace, each TOOL row the result of its call', () => check(J(rows, null, 2), 'observations.json'));
  it('reads the JSONL export the same way', () => check(rows.map((x) => J(x)).join('\n') + '\n', 'observations.jsonl'));
});

describe('Logfire records rows (the query API\'s JSON rows)', () => {
  // Pydantic AI traced by Logfire, queried newest first: `span_name`, `start_timestamp`, `otel_status_code`,
  // `attributes` an object; the model span's `gen_ai.output.messages` makes the call, the `running tool` span runs it
  const row = (spanId: string, name: string, start: string, status: string, attributes: Record<string, unknown>) => ({
    start_timestamp: start, end_timestamp: start, trace_id: '019a6f', span_id: spanId, parent_span_id: 'root', kind: 'span', level: status === 'ERROR' ? 17 : 9,
    span_name: name, message: name, otel_status_code: status, otel_status_message: status === 'ERROR' ? 'ValueError: no such city' : null, is_exception: status === 'ERROR', tags: [],
    attributes, otel_events: [],
  });
  const rows = [
    row('b2', 'running tool', '2025-06-01T10:00:02.000000Z', 'ERROR', { 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.id': 'call_1', tool_arguments: '{"city":"Atlantis"}', 'logfire.msg_template': 'running tool: {gen_ai.tool.name}' }),
    row('b1', 'chat gpt-4o', '2025-06-01T10:00:01.000000Z', 'UNSET', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o',
      'gen_ai.output.messages': [{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Atlantis' } }] }] }),
  ];

  it('orders the rows by start_timestamp: the call first, the tool span its failed result', () => {
    const { r, sessions } = read(J(rows), 'logfire-rows.json');
    assert.equal(r.format, 'otel');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['get_weather']);
    assert.deepEqual(s.calls.map((c) => c.args), [{ city: 'Atlantis' }]);
    assert.deepEqual(pairedIds(s), ['call_1']);
    assert.equal(s.results[0].transport.spanStatus, 'ERROR');
    assert.equal(s.results[0].payload, undefined);
  });
});

describe('OpenLLMetry GenAI events as log records (use_legacy_attributes=False)', () => {
  // OpenLLMetry's ChoiceEvent body: `{index, message: {content}, finish_reason, tool_calls}`, the calls beside the
  // message rather than in it; its tool MessageEvent has no id (it answers the calls of the message before it)
  const kvs = (o: Record<string, unknown>): unknown => ({ kvlistValue: { values: Object.entries(o).map(([key, v]) => ({ key, value: any(v) })) } });
  const any = (v: unknown): unknown => typeof v === 'string' ? { stringValue: v } : typeof v === 'number' ? { intValue: String(v) }
    : Array.isArray(v) ? { arrayValue: { values: v.map(any) } } : kvs(v as Record<string, unknown>);
  const record = (spanId: string, time: string, eventName: string, body: Record<string, unknown>) => ({
    timeUnixNano: time, traceId: 'ab12', spanId, eventName, body: kvs(body), attributes: [{ key: 'gen_ai.system', value: { stringValue: 'openai' } }],
  });
  const call = { id: 'call_7', type: 'function', function: { name: 'lookup', arguments: '{"q":"otel"}' } };
  const logs = { resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ scope: { name: 'opentelemetry.instrumentation.openai' }, logRecords: [
    record('01', '1000', 'gen_ai.user.message', { content: 'look it up' }),
    record('01', '1001', 'gen_ai.choice', { index: 0, message: { content: '' }, finish_reason: 'tool_calls', tool_calls: [call] }),
    record('02', '2000', 'gen_ai.user.message', { content: 'look it up' }),
    record('02', '2001', 'gen_ai.assistant.message', { content: '', tool_calls: [call] }),
    record('02', '2002', 'gen_ai.tool.message', { content: 'found: OpenTelemetry' }),
    record('02', '2003', 'gen_ai.choice', { index: 0, message: { content: 'It is OpenTelemetry.' }, finish_reason: 'stop' }),
  ] }] }] };

  it('reads the call beside the choice\'s message once, answered by the next request\'s tool message', () => {
    const s = read(J(logs), 'logs.json').sessions[0];
    assert.deepEqual(callNames(s), ['lookup']);
    assert.deepEqual(s.calls.map((c) => [c.id, c.args]), [['call_7', { q: 'otel' }]]);
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].payload, 'found: OpenTelemetry');
  });

  it('reads the choice\'s calls when no later request repeats them (the run ended there)', () => {
    const first = { resourceLogs: [{ ...logs.resourceLogs[0], scopeLogs: [{ ...logs.resourceLogs[0].scopeLogs[0], logRecords: logs.resourceLogs[0].scopeLogs[0].logRecords.slice(0, 2) }] }] };
    const s = read(J(first), 'logs.json').sessions[0];
    assert.deepEqual(callNames(s), ['lookup']);
    assert.deepEqual(s.calls.map((c) => c.id), ['call_7']);
    assert.equal(s.results.length, 0);
  });
});
