// Layouts of span exports and MCP captures met in real files (round three): the OpenAI Agents SDK traced through
// Logfire, the JS SDK's `ReadableSpan` serialized as it is (VS Code Copilot Chat's file exporter), Claude Desktop's
// MCP logs (JSON-RPC messages framed in lines of log text, a server restarted in the same file) and MCP message
// arrays that span reconnections. Every trace here is small and written for the test from the formats' documented
// fields; none is a copy of a sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Session } from '../../src/core';
import { readModel } from './helpers';
import { startsLikeJson } from '../../src/extension/reading';
import { loggedMessage } from '../../src/core/parse/log-lines';

function read(text: string, fileName = 'trace.json') {
  return readModel(text, { fileName });
}

const calls = (s: Session) => s.calls.map((c) => `${c.name}${JSON.stringify(c.args)}`);
/** Each result as the id of the call it answers (by id or by position) and whether it failed. */
const results = (s: Session) => s.results.map((x) => {
  const id = x.callId ?? (x.callIndex !== undefined ? s.calls[x.callIndex].id ?? `#${x.callIndex}` : '?');
  const failed = x.transport.isError === true || x.transport.spanStatus === 'ERROR' || x.transport.errorType !== undefined;
  return `${id}${failed ? ' failed' : ''}`;
});
const J = (v: unknown) => JSON.stringify(v);

/** An OTLP JSON export of spans whose attributes are all strings (as Logfire writes objects: JSON text). */
function otlp(specs: { name: string; attrs: Record<string, string> }[]) {
  const spans = specs.map((s, i) => ({
    traceId: '0af7651916cd43dd8448eb211c80319c', spanId: `b7ad6b71692033${String(i).padStart(2, '0')}`, name: s.name,
    startTimeUnixNano: String(1_750_000_000_000_000_000 + i * 1_000_000_000), status: {},
    attributes: Object.entries(s.attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
  }));
  return J({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'logfire' }, spans }] }] });
}

describe('OpenAI Agents SDK through Logfire', () => {
  const params = { type: 'object', properties: { sides: { type: 'integer' } }, required: ['sides'], additionalProperties: false };
  const response = { id: 'resp_1', object: 'response', status: 'completed',
    output: [{ id: 'fc_1', type: 'function_call', call_id: 'call_d6', name: 'roll', arguments: J({ sides: 'six' }), status: 'completed' }],
    tools: [{ type: 'function', name: 'roll', parameters: params, strict: true }] };
  const trace = (extra: Record<string, string>) => otlp([
    { name: 'Responses API with {gen_ai.request.model!r}', attrs: { 'logfire.msg_template': 'Responses API with {gen_ai.request.model!r}',
      'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o', response: J(response), ...extra } },
    { name: 'Function: {name}', attrs: { 'logfire.msg_template': 'Function: {name}', 'logfire.msg': 'Function: roll', name: 'roll',
      input: J({ sides: 'six' }), output: '4', 'gen_ai.system': 'openai' } },
  ]);

  it('the `Function: {name}` span answers the call of the recorded response, whose tools are its contract', () => {
    const { sessions, codes } = read(trace({}));
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.deepEqual(calls(s), ['roll{"sides":"six"}']);
    assert.deepEqual(results(s), ['call_d6']);
    assert.deepEqual(s.tools.map((t) => t.name), ['roll']);
    // the arguments break the recorded schema: the definition was read and applied
    assert.ok(codes.includes('type-drift'), codes.join());
    assert.ok(!codes.includes('orphan-call') && !codes.includes('no-contract'), codes.join());
  });

  it('the call the response holds and its copy in the span\'s GenAI events are one call', () => {
    const events = [{ 'event.name': 'gen_ai.choice', index: 0, message: { role: 'assistant',
      tool_calls: [{ id: 'call_d6', type: 'function', function: { name: 'roll', arguments: J({ sides: 'six' }) } }] } }];
    const { sessions } = read(trace({ events: J(events) }));
    assert.deepEqual(calls(sessions[0]), ['roll{"sides":"six"}']);
    assert.deepEqual(results(sessions[0]), ['call_d6']);
  });

  it('a `name` attribute of a span that is not an Agents SDK function span is no tool', () => {
    const { sessions } = read(otlp([{ name: 'Agent run: {name!r}', attrs: { 'logfire.msg_template': 'Agent run: {name!r}', name: 'roll', input: '{}', output: '4', 'gen_ai.system': 'openai' } }]));
    assert.deepEqual(sessions.flatMap(calls), []);
  });
});

describe('JS SDK ReadableSpan lines (VS Code Copilot Chat file exporter)', () => {
  // written when each span ends: a tool span before the model span that started later; HrTime [s, ns] times
  const line = (name: string, spanId: string, sec: number, attrs: Record<string, unknown>, status = { code: 0 }) => J({
    resource: { attributes: { 'service.name': 'copilot-chat' } }, instrumentationScope: { name: 'copilot-chat' },
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId, parentSpanId: 'f000000000000001', name, kind: 0,
    startTime: [sec, 250_000_000], endTime: [sec + 1, 0], duration: [0, 750_000_000], status, attributes: attrs, events: [], links: [], ended: true,
  });
  const chat = (callId: string, tool: string, args: unknown) => ({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm',
    'gen_ai.output.messages': J([{ role: 'assistant', parts: [{ type: 'tool_call', id: callId, name: tool, arguments: args }] }]) });
  const tool = (callId: string, tool: string, extra: Record<string, unknown>) => ({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'gen_ai.tool.call.id': callId, ...extra });

  it('spans are taken in the order they started, whatever order they were written in', () => {
    const text = [
      line('chat m', 'a2', 1_760_000_010, chat('t2', 'run', { cmd: 'npm test' })),
      line('execute_tool run', 'a3', 1_760_000_012, tool('t2', 'run', {}), { code: 2 }),
      line('chat m', 'a0', 1_760_000_000, chat('t1', 'read', { path: 'a.ts' })),
      line('execute_tool read', 'a1', 1_760_000_002, tool('t1', 'read', { 'gen_ai.tool.call.result': 'x' })),
    ].join('\n') + '\n';
    const { sessions, codes } = read(text, 'copilot-otel.jsonl');
    assert.equal(sessions.length, 1);
    assert.deepEqual(calls(sessions[0]), ['read{"path":"a.ts"}', 'run{"cmd":"npm test"}']);
    assert.deepEqual(results(sessions[0]), ['t1', 't2 failed']);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('parse-error'), codes.join());
  });
});

describe('Claude Desktop MCP logs', () => {
  const at = (s: number) => `2026-02-01T10:00:${String(s).padStart(2, '0')}.000Z [files] [info]`;
  const msg = (s: number, from: 'client' | 'server', m: unknown) => `${at(s)} Message from ${from}: ${J({ ...(m as object), jsonrpc: '2.0' })} { metadata: undefined }`;
  const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
  const log = [
    `${at(0)} Initializing server... { metadata: undefined }`,
    `${at(0)} Using MCP server command: node with args and path: {`,
    '  metadata: {',
    "    args: [ 'server.js', [length]: 1 ]",
    '  }',
    '} %o',
    msg(1, 'client', { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} }, id: 0 }),
    'Files MCP Server running on stdio',
    msg(1, 'server', { id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} } } }),
    msg(2, 'client', { method: 'tools/list', params: {}, id: 1 }),
    msg(2, 'server', { id: 1, result: { tools: [{ name: 'read', inputSchema: schema }] } }),
    msg(3, 'client', { method: 'tools/call', params: { name: 'read', arguments: { path: '/etc/hosts' } }, id: 2 }),
    msg(3, 'server', { id: 2, result: { content: [{ type: 'text', text: 'Access denied' }], isError: true } }),
    `${at(4)} Client transport closed { metadata: undefined }`,
    `2026-02-01T10:00:04.000Z [files] [error] Server disconnected. { metadata: { context: 'connection', stack: undefined } }`,
    // the server restarted: ids start again
    msg(5, 'client', { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} }, id: 0 }),
    msg(5, 'server', { id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} } } }),
    msg(6, 'client', { method: 'tools/call', params: { name: 'read', arguments: { path: '/tmp/a' } }, id: 2 }),
    msg(6, 'server', { id: 2, result: { content: [{ type: 'text', text: 'a' }] } }),
  ].join('\n') + '\n';

  it('reads the logged messages, passes over the log\'s own lines, and reads each connection as a session', () => {
    const { r, sessions, codes } = read(log, 'mcp-server-files.log');
    assert.equal(r.format, 'mcp');
    assert.equal(sessions.length, 2);
    assert.deepEqual(sessions.map(calls), [['read{"path":"/etc/hosts"}'], ['read{"path":"/tmp/a"}']]);
    assert.deepEqual(sessions.map(results), [['2 failed'], ['2']]);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['read']);
    for (const code of ['parse-error', 'duplicate-call-id', 'orphan-call', 'orphan-result']) assert.ok(!codes.includes(code), codes.join());
    // the call's anchor is inside the logged JSON, not at the start of the log line
    const line12 = log.split('\n').slice(0, 11).join('\n').length + 1;
    assert.ok(sessions[0].calls[0].at.doc.base > line12, 'anchored in the message');
  });

  it('a log with no logged message is not a trace: no parse errors', () => {
    const { r, codes } = read(`${at(0)} Initializing server... { metadata: undefined }\nnpm warn deprecated x\n`, 'mcp.log');
    assert.equal(r.calls, 0);
    assert.ok(!codes.includes('parse-error'), codes.join());
  });

  it('a logged message with a long run of blanks is cut at once, its trailer still taken off', () => {
    const line = `${at(1)} Message from server: {"a":"${' '.repeat(100_000)}x"}`;
    const t = Date.now();
    const m = loggedMessage(`${line}   { metadata: undefined } `);
    assert.ok(Date.now() - t < 2000, `took ${Date.now() - t} ms`);
    assert.deepEqual(m, { start: `${at(1)} Message from server: `.length, end: line.length });
    assert.deepEqual(loggedMessage(line), { start: `${at(1)} Message from server: `.length, end: line.length });
  });
});

describe('MCP message arrays over reconnections', () => {
  it('an `initialize` after other messages opens a session of its own', () => {
    const m = (x: object) => ({ jsonrpc: '2.0', ...x });
    const doc = J([
      m({ id: 0, method: 'initialize', params: {} }), m({ id: 0, result: {} }),
      m({ id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } }), m({ id: 1, result: { content: [] } }),
      m({ id: 0, method: 'initialize', params: {} }), m({ id: 0, result: {} }),
      m({ id: 1, method: 'tools/call', params: { name: 'ping', arguments: { n: 2 } } }), m({ id: 1, result: { content: [], isError: true } }),
    ]);
    const { sessions, codes } = read(doc, 'mcp.json');
    assert.deepEqual(sessions.map(calls), [['ping{}'], ['ping{"n":2}']]);
    assert.deepEqual(sessions.map(results), [['1'], ['1 failed']]);
    assert.ok(!codes.includes('duplicate-call-id'), codes.join());
  });
});

describe('OTLP written with the proto field names', () => {
  it('`resource_spans` / `scope_spans` / `string_value`, base64 ids, kind as an enum name: read like the JSON names', () => {
    const kv = (key: string, value: object) => ({ key, value });
    const span = (spanId: string, name: string, start: string, attributes: object[], status = {}) => ({
      trace_id: 'S/kvNXezTaajzpKdDg5HNg==', span_id: spanId, name, kind: 'SPAN_KIND_INTERNAL', start_time_unix_nano: start, attributes, status });
    const doc = { resource_spans: [{ resource: { attributes: [kv('service.name', { string_value: 'svc' })] }, scope_spans: [{ scope: { name: 'x' }, spans: [
      span('AAAAAAAAAAE=', 'chat m', '1750000000000000000', [kv('gen_ai.operation.name', { string_value: 'chat' }),
        kv('gen_ai.output.messages', { string_value: J([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'add', arguments: { a: 1 } }] }]) })]),
      span('AAAAAAAAAAI=', 'execute_tool add', '1750000001000000000', [kv('gen_ai.operation.name', { string_value: 'execute_tool' }),
        kv('gen_ai.tool.name', { string_value: 'add' }), kv('gen_ai.tool.call.id', { string_value: 'c1' }), kv('attempt', { int_value: 2 })],
      { code: 'STATUS_CODE_ERROR', message: 'boom' }),
    ] }] }] };
    const { r, sessions } = read(J(doc), 'export.json');
    assert.equal(r.format, 'otel');
    assert.equal(sessions.length, 1);
    assert.deepEqual(calls(sessions[0]), ['add{"a":1}']);
    assert.deepEqual(results(sessions[0]), ['c1 failed']);
  });
});

describe('MCP captures of other proxies', () => {
  it('records without the `jsonrpc` member (`{ts, dir, id, method, params}`) are read as the messages they carry', () => {
    const l = (x: object) => J({ ts: '2026-01-15T10:30:00.000Z', ...x });
    const text = [
      l({ dir: 'req', id: 1, method: 'tools/list' }),
      l({ dir: 'res', id: 1, result: { tools: [{ name: 'lookup', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }] } }),
      l({ dir: 'req', id: 2, method: 'tools/call', params: { name: 'lookup', arguments: { q: 'x' } } }),
      l({ dir: 'res', id: 2, error: { code: -32602, message: 'bad params' } }),
    ].join('\n') + '\n';
    const { r, sessions } = read(text, 'session.jsonl');
    assert.equal(r.format, 'mcp');
    assert.deepEqual(calls(sessions[0]), ['lookup{"q":"x"}']);
    assert.deepEqual(results(sessions[0]), ['2 failed']);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['lookup']);
  });

  it('messages wrapped in a direction envelope are read through the wrapper', () => {
    const text = [
      J({ direction: 'client_to_server', message: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ping', arguments: {} } } }),
      J({ direction: 'server_to_client', message: { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'pong' }] } } }),
    ].join('\n') + '\n';
    const { sessions } = read(text, 'transcript.jsonl');
    assert.deepEqual(sessions.flatMap(calls), ['ping{}']);
    assert.deepEqual(sessions.flatMap(results), ['7']);
  });
});

describe('rows of the Collector\'s ClickHouse exporter', () => {
  const row = (spanId: string, at: string, name: string, attrs: Record<string, string>, status = 'Unset', events?: { name: string; attrs: Record<string, string> }[]) => ({
    Timestamp: `2025-03-04 10:00:${at}.123456789`, TraceId: '5b8efff798038103d269b633813fc60c', SpanId: spanId, ParentSpanId: spanId === 'e1' ? '' : 'e1',
    TraceState: '', SpanName: name, SpanKind: 'Internal', ServiceName: 'agent', ResourceAttributes: { 'service.name': 'agent' }, ScopeName: 'x', ScopeVersion: '',
    SpanAttributes: attrs, Duration: 1000, StatusCode: status, StatusMessage: status === 'Error' ? 'boom' : '',
    'Events.Timestamp': (events ?? []).map(() => '2025-03-04 10:00:00.000000000'), 'Events.Name': (events ?? []).map((e) => e.name), 'Events.Attributes': (events ?? []).map((e) => e.attrs),
    'Links.TraceId': [], 'Links.SpanId': [], 'Links.TraceState': [], 'Links.Attributes': [],
  });
  const rows = [
    // written out of start order, as a query without ORDER BY returns them
    row('e3', '05', 'execute_tool lookup', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': 'call_7' }, 'Error'),
    row('e2', '02', 'chat gpt-4o', { 'gen_ai.operation.name': 'chat', 'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.tool_calls.0.id': 'call_7', 'gen_ai.completion.0.tool_calls.0.name': 'lookup', 'gen_ai.completion.0.tool_calls.0.arguments': J({ id: 42 }) }),
    row('e1', '01', 'invoke_agent', { 'gen_ai.operation.name': 'invoke_agent' }),
  ];

  it('JSONEachRow lines: each row a span of its trace, the tool row\'s status its outcome', () => {
    const { r, sessions } = read(rows.map((x) => J(x)).join('\n') + '\n', 'otel_traces.jsonl');
    assert.equal(r.format, 'otel');
    assert.deepEqual(sessions.map(calls), [['lookup{"id":42}']]);
    assert.deepEqual(sessions.map(results), [['call_7 failed']]);
  });

  it('a query\'s JSON output (`{meta, data, rows}`), events in the nested columns', () => {
    const withEvent = rows.map((x) => x.SpanId === 'e3' ? row('e3', '05', 'execute_tool lookup', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': 'call_7' }, 'Unset',
      [{ name: 'gen_ai.choice', attrs: { message: J({ content: 'found' }) } }]) : x);
    const { sessions } = read(J({ meta: [{ name: 'TraceId', type: 'String' }], data: withEvent, rows: 3 }), 'result.json');
    assert.deepEqual(sessions.map(calls), [['lookup{"id":42}']]);
    assert.deepEqual(sessions.map(results), [['call_7']]);
  });
});

describe('OpenAI Agents SDK spans exported at their start and their end', () => {
  const span = (ended: boolean, extra: object = {}) => ({ object: 'trace.span', id: 'span_3f1', trace_id: 'trace_9a', parent_id: 'span_0',
    started_at: '2025-05-29T18:29:08.283870+00:00', ended_at: ended ? '2025-05-29T18:29:08.984472+00:00' : null,
    span_data: { type: 'function', name: 'web_search', input: ended ? J({ query: 'q' }) : null, output: ended ? 'results' : null, mcp_data: null }, error: null, ...extra });

  it('the start copy and the end copy are one call with one result', () => {
    const text = [J({ object: 'trace', id: 'trace_9a', workflow_name: 'w' }), J(span(false)), J(span(true))].join('\n') + '\n';
    const { sessions, codes } = read(text, 'traces.jsonl');
    assert.deepEqual(sessions.flatMap(calls), ['web_search{"query":"q"}']);
    assert.deepEqual(sessions.flatMap(results), ['span_3f1']);
    assert.ok(!codes.includes('duplicate-call-id'), codes.join());
  });

  it('a span seen only started is a call still running, not one answered by null', () => {
    const { sessions } = read([J(span(false))].join('\n') + '\n', 'traces.jsonl');
    assert.deepEqual(sessions.flatMap((s) => s.calls.map((c) => c.name)), ['web_search']);
    assert.deepEqual(sessions.flatMap(results), []);
  });

  it('events that wrap the spans (`{event, span}`) are read through the wrapper', () => {
    const text = [J({ event: 'span_start', timestamp: 't0', span: span(false) }), J({ event: 'span_end', timestamp: 't1', span: span(true, { error: { message: 'Error running tool', data: { tool_name: 'web_search' } } }) })].join('\n') + '\n';
    const { sessions } = read(text, 'events.jsonl');
    assert.deepEqual(sessions.flatMap(calls), ['web_search{"query":"q"}']);
    assert.deepEqual(sessions.flatMap(results), ['span_3f1 failed']);
  });
});

describe('spans printed one after another as indented JSON (Python ConsoleSpanExporter)', () => {
  const span = (name: string, spanId: string, start: string, attributes: object, status: object = { status_code: 'UNSET' }) => JSON.stringify({
    name, context: { trace_id: '0x7d1c5e1ab4bd04b0a7f1cbe1e16cbb44', span_id: spanId, trace_state: '[]' }, kind: 'SpanKind.INTERNAL', parent_id: null,
    start_time: start, end_time: start, status, attributes, events: [], links: [], resource: { attributes: { 'service.name': 'a' }, schema_url: '' },
  }, null, 4) + '\n';
  const text = span('chat m', '0x01', '2025-06-01T10:00:01.000000Z', { 'gen_ai.operation.name': 'chat',
    'gen_ai.output.messages': J([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_time', arguments: { tz: 'UTC' } }] }]) })
    + span('execute_tool get_time', '0x02', '2025-06-01T10:00:02.000000Z', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_time', 'gen_ai.tool.call.id': 'call_1' },
      { status_code: 'ERROR', description: 'TimeoutError' });

  it('each value is a unit: the spans are read as one trace', () => {
    for (const fileName of ['spans.txt', 'spans.json', 'spans.jsonl']) {
      const { r, sessions, codes } = read(text, fileName);
      assert.equal(r.format, 'otel', fileName);
      assert.deepEqual(sessions.map(calls), [['get_time{"tz":"UTC"}']], fileName);
      assert.deepEqual(sessions.map(results), [['call_1 failed']], fileName);
      assert.ok(!codes.includes('parse-error'), fileName);
    }
  });

  it('a value cut short at the end is a parse error there; the values before it are read', () => {
    const cut = text.slice(0, text.length - 40);
    const { sessions, r } = read(cut, 'spans.txt');
    assert.deepEqual(sessions.map(calls), [['get_time{"tz":"UTC"}']]);
    const pe = r.findings.filter((f) => f.code === 'parse-error');
    assert.equal(pe.length, 1);
    assert.ok(pe[0].span.start > text.indexOf('execute_tool'), 'the error is in the last value');
  });

  it('JSONL whose first line is broken still reads as lines', () => {
    const jsonl = '{"a": "cut\n' + J({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } }) + '\n';
    const { r } = read(jsonl, 'log.jsonl');
    assert.equal(r.calls, 1);
  });
});

describe('an MCP log that begins after its requests', () => {
  it('responses whose requests it lacks are read by their shape: a tool list, other methods\' results, tool results', () => {
    const m = (x: object) => J({ jsonrpc: '2.0', ...x });
    const text = [
      m({ id: 1, result: { tools: [{ name: 'rcon', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } }] } }),
      m({ id: 2, result: { prompts: [] } }),
      m({ id: 3, result: { resources: [] } }),
      m({ id: 4, result: { content: [{ type: 'text', text: 'done' }] } }),
      m({ id: 5, method: 'tools/call', params: { name: 'rcon', arguments: { command: 'time set day' } } }),
      m({ id: 5, result: { content: [{ type: 'text', text: 'ok' }] } }),
    ].join('\n') + '\n';
    const { sessions, codes } = read(text, 'rotated.jsonl');
    assert.deepEqual(sessions.flatMap((s) => s.tools.map((t) => t.name)), ['rcon']);
    // ids 2 and 3 answered no tool call: no result; id 4 is a tool result whose call came before the log
    assert.deepEqual(sessions.flatMap(results), ['4', '5']);
    assert.equal(codes.filter((c) => c === 'orphan-result').length, 1);
  });
});

describe('the editor opens Claude Desktop MCP logs', () => {
  it('a `.log` that starts with a framed log line is given to the core', () => {
    assert.equal(startsLikeJson('2026-03-01T09:39:03.047Z [filesystem] [info] Initializing server... { metadata: undefined }\n'), true);
    assert.equal(startsLikeJson('[2024-05-01 10:00] INFO started\n'), false);
  });
});
