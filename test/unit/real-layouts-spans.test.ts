// Span and trace exports of instrumentations the span readers used to lose (Vercel AI SDK telemetry, MLflow traces,
// Pydantic AI / Logfire, Google ADK, Strands, GenAI events as span events and as OTLP log records, Zipkin v2, the
// Go SDK's stdout exporter). Every trace here is small and written for the test from the conventions' documented
// attribute names; none is a copy of a sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Session } from '../../src/core';
import { readModel } from './helpers';

function read(text: string, fileName = 'trace.json') {
  return readModel(text, { fileName });
}

const calls = (s: Session) => s.calls.map((c) => `${c.name}${JSON.stringify(c.args)}`);
/** Where a call was read: the path in the file (of the attribute, for a call inside a JSON string). */
const where = (s: Session, i: number) => { const at = s.calls[i].at; return (at.doc.parent?.path ?? at.path).join('.'); };
/** Each result as the id of the call it answers (by id or by position) and whether it failed. */
const results = (s: Session) => s.results.map((x) => {
  const id = x.callId ?? (x.callIndex !== undefined ? s.calls[x.callIndex].id ?? `#${x.callIndex}` : '?');
  const failed = x.transport.isError === true || x.transport.spanStatus === 'ERROR' || x.transport.errorType !== undefined;
  return `${id}${failed ? ' failed' : ''}`;
});

// ---- an OTLP JSON export, as a collector writes it -----------------------------------------------------------

type Value = string | number | boolean | Value[] | { [k: string]: Value };
function anyValue(v: Value): unknown {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  return { kvlistValue: { values: Object.entries(v).map(([key, x]) => ({ key, value: anyValue(x) })) } };
}
const typed = (attrs: Record<string, Value>) => Object.entries(attrs).map(([key, value]) => ({ key, value: anyValue(value) }));

interface SpanSpec { name: string; attrs: Record<string, Value>; id?: string; status?: number; events?: { name: string; attrs: Record<string, Value> }[] }
function otlp(specs: SpanSpec[], traceId = 'aa11') {
  const spans = specs.map((s, i) => ({
    traceId, spanId: s.id ?? `s${i}`, name: s.name, startTimeUnixNano: String(1_700_000_000_000_000_000 + i * 1_000_000_000),
    attributes: typed(s.attrs), status: s.status === undefined ? {} : { code: s.status },
    ...(s.events ? { events: s.events.map((e) => ({ name: e.name, attributes: typed(e.attrs) })) } : {}),
  }));
  return { resourceSpans: [{ resource: { attributes: typed({ 'service.name': 'test' }) }, scopeSpans: [{ scope: { name: 'test' }, spans }] }] };
}
const J = (v: unknown) => JSON.stringify(v);

describe('Vercel AI SDK telemetry', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
  it('a step\'s `ai.response.toolCalls`, the `ai.toolCall` span and the next step\'s replay are one call with its result; `ai.prompt.tools` are its contract', () => {
    const tools = [J({ type: 'function', name: 'weather', inputSchema: schema })];
    const doc = otlp([
      { name: 'ai.streamText', attrs: { 'ai.operationId': 'ai.streamText', 'ai.prompt': J({ prompt: 'go' }) } },
      { name: 'ai.streamText.doStream', attrs: { 'ai.operationId': 'ai.streamText.doStream', 'ai.prompt.tools': tools, 'gen_ai.system': 'mock',
        'ai.prompt.messages': J([{ role: 'user', content: [{ type: 'text', text: 'go' }] }]),
        'ai.response.toolCalls': J([{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { town: 'Oslo' } }]) } },
      { name: 'ai.toolCall', attrs: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'weather', 'ai.toolCall.id': 'c1', 'ai.toolCall.args': J({ town: 'Oslo' }), 'ai.toolCall.result': J('snow') } },
      { name: 'ai.streamText.doStream', attrs: { 'ai.operationId': 'ai.streamText.doStream', 'ai.prompt.tools': tools,
        'ai.prompt.messages': J([{ role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { town: 'Oslo' } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'text', value: 'snow' } }] }]) } },
    ]);
    const { r, sessions, codes } = read(J(doc));
    assert.equal(r.format, 'otel');
    assert.deepEqual(calls(sessions[0]), ['weather{"town":"Oslo"}']);
    assert.deepEqual(results(sessions[0]), ['c1']);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['weather']);
    assert.ok(codes.includes('missing-key') && codes.includes('extra-key'), codes.join());
  });

  it('v4 calls (`toolCallType`, arguments as a string) repeated by the outer span are read once; a tool that threw is a failure', () => {
    const toolCalls = J([{ toolCallType: 'function', toolCallId: 'k9', toolName: 'lookup', args: J({ q: 'x' }) }]);
    const doc = otlp([
      { name: 'ai.generateText', attrs: { 'ai.operationId': 'ai.generateText', 'ai.response.toolCalls': toolCalls } },
      { name: 'ai.generateText.doGenerate', attrs: { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.response.toolCalls': toolCalls } },
      { name: 'ai.toolCall', status: 2, attrs: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'lookup', 'ai.toolCall.id': 'k9', 'ai.toolCall.args': J({ q: 'x' }) },
        events: [{ name: 'exception', attrs: { 'exception.message': 'boom' } }] },
    ]);
    const { sessions, codes } = read(J(doc));
    assert.deepEqual(calls(sessions[0]), ['lookup{"q":"x"}']);
    assert.equal(where(sessions[0], 0), 'resourceSpans.0.scopeSpans.0.spans.1.attributes.1.value.stringValue', 'the step span, not the outer one');
    assert.deepEqual(results(sessions[0]), ['k9 failed']);
    assert.ok(!codes.includes('duplicate-call-id'));
  });

  it('a replayed `tool-result` whose output is `error-text` is a failure (no tool span recorded it)', () => {
    const doc = otlp([{ name: 'ai.generateText.doGenerate', attrs: { 'ai.operationId': 'ai.generateText.doGenerate',
      'ai.prompt.messages': J([{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'e1', toolName: 'run', input: { cmd: 'ls' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'e1', toolName: 'run', output: { type: 'error-text', value: 'denied' } }] }]) } }]);
    const { sessions } = read(J(doc));
    assert.deepEqual(calls(sessions[0]), ['run{"cmd":"ls"}']);
    assert.equal(sessions[0].results[0].transport.isError, true);
  });
});

describe('MLflow traces', () => {
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
  const asked = [{ role: 'user', content: 'two cities' }, { role: 'assistant', content: null, tool_calls: [
    { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: J({ city: 'Lima' }) } },
    { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: J({ town: 'Quito' }) } }] }];
  // MLflow writes every attribute value as JSON, strings quoted
  const attrs = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, J(v)]));

  it('a `mlflow traces get` document (2.x spans): the chat span\'s calls, answered in order by the TOOL spans of their name, with `mlflow.chat.tools` as contracts', () => {
    const span = (name: string, id: string, status: string, a: Record<string, unknown>) =>
      ({ name, context: { span_id: id, trace_id: '0xfeed' }, parent_id: '0x1', start_time: Number(id.slice(2)), end_time: 0, status_code: status, status_message: '', attributes: attrs(a), events: [] });
    const trace = { info: { request_id: 'tr-9', status: 'OK', tags: {} }, data: { spans: [
      span('Completions', '0x2', 'OK', { 'mlflow.spanType': 'CHAT_MODEL', 'mlflow.chat.messages': asked, 'mlflow.chat.tools': tools, 'mlflow.spanInputs': { messages: asked.slice(0, 1) } }),
      span('get_weather', '0x3', 'OK', { 'mlflow.spanType': 'TOOL', 'mlflow.spanInputs': { city: 'Lima' }, 'mlflow.spanOutputs': 'warm' }),
      span('get_weather', '0x4', 'ERROR', { 'mlflow.spanType': 'TOOL', 'mlflow.spanInputs': { town: 'Quito' } }),
    ] } };
    const { r, sessions, codes } = read(J(trace));
    assert.equal(r.format, 'otel');
    assert.deepEqual(calls(sessions[0]), ['get_weather{"city":"Lima"}', 'get_weather{"town":"Quito"}']);
    assert.deepEqual(results(sessions[0]), ['call_a', 'call_b failed']);
    assert.ok(codes.includes('missing-key'), codes.join());
    assert.ok(!codes.includes('read-by-shape'));
  });

  it('3.x span dicts (OTLP field names in snake case, `STATUS_CODE_*`) order by `start_time_unix_nano` and keep their status', () => {
    const span = (name: string, n: number, code: string, a: Record<string, unknown>) =>
      ({ trace_id: 'q83vEjRWeJA=', span_id: `AAAAAAAAAA${n}=`, parent_span_id: '', name, start_time_unix_nano: 10 - n, end_time_unix_nano: 20, events: [], status: { code, message: '' }, attributes: attrs(a) });
    // written last-first: the order comes from the start times
    const trace = { info: { trace_id: 'tr-3', state: 'ERROR' }, data: { spans: [
      span('get_weather', 1, 'STATUS_CODE_ERROR', { 'mlflow.spanType': 'TOOL', 'mlflow.spanInputs': { city: 'Lima' } }),
      span('Completions', 2, 'STATUS_CODE_OK', { 'mlflow.spanType': 'CHAT_MODEL', 'mlflow.chat.messages': [asked[0], { role: 'assistant', tool_calls: [asked[1].tool_calls![0]] }] }),
    ] } };
    const { sessions } = read(J(trace));
    assert.deepEqual(calls(sessions[0]), ['get_weather{"city":"Lima"}']);
    assert.deepEqual(results(sessions[0]), ['call_a failed']);
  });
});

describe('Pydantic AI and Logfire', () => {
  it('v1 instrumentation: a chat span\'s `events` attribute (a JSON list of GenAI events) and `model_request_parameters.function_tools` as contracts', () => {
    const tc = [{ id: 'pyd_1', type: 'function', function: { name: 'add', arguments: { x: 1 } } }];
    const mrp = J({ function_tools: [{ name: 'add', parameters_json_schema: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } }, required: ['x', 'y'] } }] });
    const doc = otlp([
      { name: 'agent run', attrs: { 'logfire.msg': 'agent run', all_messages_events: J([{ role: 'user', content: 'add', 'event.name': 'gen_ai.user.message' },
        { role: 'assistant', tool_calls: tc, 'event.name': 'gen_ai.assistant.message' }, { role: 'tool', id: 'pyd_1', name: 'add', content: '1', 'event.name': 'gen_ai.tool.message' }]) } },
      { name: 'chat test', attrs: { 'gen_ai.operation.name': 'chat', model_request_parameters: mrp,
        events: J([{ 'event.name': 'gen_ai.user.message', content: 'add' }, { 'event.name': 'gen_ai.choice', index: 0, message: { role: 'assistant', tool_calls: tc } }]) } },
      { name: 'running tool', attrs: { 'gen_ai.tool.name': 'add', 'gen_ai.tool.call.id': 'pyd_1', tool_arguments: J({ x: 1 }), tool_response: '1' } },
    ]);
    const { sessions, codes } = read(J(doc));
    assert.deepEqual(calls(sessions[0]), ['add{"x":1}']);
    assert.match(where(sessions[0], 0), /^resourceSpans\.0\.scopeSpans\.0\.spans\.1\./, 'read from the chat span, not the run\'s summary');
    assert.deepEqual(results(sessions[0]), ['pyd_1']);
    assert.ok(codes.includes('missing-key'), codes.join());
  });
});

describe('GenAI events as span events and as log records', () => {
  const tc = J([{ id: 'call_e', type: 'function', function: { name: 'search', arguments: J({ q: 'otel' }) } }]);
  it('span events: `gen_ai.choice` holds the output\'s calls, `gen_ai.tool.message` answers one (fields as attributes, or inside `gen_ai.event.content`)', () => {
    const doc = otlp([
      { name: 'chat', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.user.message', attrs: { content: 'find' } },
        { name: 'gen_ai.choice', attrs: { index: 0, finish_reason: 'tool_calls', message: J({ role: 'assistant', tool_calls: JSON.parse(tc) as unknown }) } }] },
      { name: 'chat', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.assistant.message', attrs: { tool_calls: tc } },
        { name: 'gen_ai.tool.message', attrs: { 'gen_ai.event.content': J({ content: 'found it', id: 'call_e' }) } }] },
    ]);
    const { sessions } = read(J(doc));
    assert.deepEqual(calls(sessions[0]), ['search{"q":"otel"}']);
    assert.deepEqual(results(sessions[0]), ['call_e']);
    assert.equal(sessions[0].results[0].payload, 'found it');
  });

  const record = (span: string, event: string, body: Record<string, Value>) =>
    ({ timeUnixNano: '1', traceId: 'bb22', spanId: span, body: anyValue(body), attributes: typed({ 'event.name': event, 'gen_ai.system': 'openai' }) });
  const logs = { resourceLogs: [{ scopeLogs: [{ scope: { name: 'openai_v2' }, logRecords: [
    record('p1', 'gen_ai.choice', { index: 0, message: { role: 'assistant', tool_calls: [{ id: 'call_l', type: 'function', function: { name: 'search', arguments: J({ q: 'logs' }) } }] } }),
    record('p2', 'gen_ai.tool.message', { content: 'none', id: 'call_l' }),
  ] }] }] };

  it('an OTLP logs export (`resourceLogs`): the records of a span are its events', () => {
    const { r, sessions } = read(J(logs));
    assert.equal(r.format, 'otel');
    assert.deepEqual(calls(sessions[0]), ['search{"q":"logs"}']);
    assert.deepEqual(results(sessions[0]), ['call_l']);
  });

  it('a Collector file with a traces line and a logs line: the records join the spans of their ids', () => {
    const traces = otlp([{ name: 'chat', id: 'p1', attrs: { 'gen_ai.operation.name': 'chat' } }, { name: 'chat', id: 'p2', attrs: { 'gen_ai.operation.name': 'chat' } }], 'bb22');
    const { sessions } = read(`${J(traces)}\n${J(logs)}\n`, 'collector.jsonl');
    assert.equal(sessions.length, 1);
    assert.deepEqual(calls(sessions[0]), ['search{"q":"logs"}']);
    assert.equal(sessions[0].calls[0].at.path[0], 'resourceLogs');
    assert.deepEqual(results(sessions[0]), ['call_l']);
  });
});

describe('Zipkin v2 and the Go stdout exporter', () => {
  it('Zipkin v2 JSON: `tags` are the attributes, `otel.status_code` and `error` the status; the call and its execution pair', () => {
    const spans = [
      { traceId: 'cc33', id: 'z1', name: 'chat', timestamp: 1_700_000_000_000_000, localEndpoint: { serviceName: 'a' },
        tags: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': J([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_z', name: 'fetch', arguments: { url: 'u' } }] }]) } },
      { traceId: 'cc33', id: 'z2', name: 'execute_tool fetch', timestamp: 1_700_000_000_100_000, localEndpoint: { serviceName: 'a' },
        tags: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fetch', 'gen_ai.tool.call.id': 'call_z', 'otel.status_code': 'ERROR', error: 'timed out' } },
    ];
    const { r, sessions } = read(J(spans));
    assert.equal(r.format, 'otel');
    assert.equal(sessions.length, 1);
    assert.deepEqual(calls(sessions[0]), ['fetch{"url":"u"}']);
    assert.deepEqual(results(sessions[0]), ['call_z failed']);
  });

  it('the Go SDK\'s stdouttrace lines (ADK-Go): `Attributes` `[{Key, Value: {Type, Value}}]`, `Status.Code` "Error"', () => {
    const line = (name: string, id: string, attrs: Record<string, string>, code = 'Unset') => J({ Name: name, SpanContext: { TraceID: 'dd44', SpanID: id },
      Parent: { TraceID: 'dd44', SpanID: 'root' }, StartTime: `2026-01-01T00:00:0${id.length}Z`, Attributes: Object.entries(attrs).map(([Key, Value]) => ({ Key, Value: { Type: 'STRING', Value } })),
      Status: { Code: code, Description: '' } });
    const text = [line('execute_tool echo', 'a', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'echo', 'gcp.vertex.agent.tool_call_args': J({ msg: 'hi' }), 'gcp.vertex.agent.tool_response': J({ ok: true }) }),
      line('execute_tool echo', 'bb', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'echo', 'gcp.vertex.agent.tool_call_args': J({ msg: '' }) }, 'Error')].join('\n') + '\n';
    const { r, sessions } = read(text, 'spans.jsonl');
    assert.equal(r.format, 'otel');
    assert.deepEqual(calls(sessions[0]), ['echo{"msg":"hi"}', 'echo{"msg":""}']);
    assert.deepEqual(results(sessions[0]), ['#0', '#1 failed']);
  });
});

describe('Google ADK and Strands', () => {
  it('ADK (Python): `llm_request` declarations (snake_case, OpenAPI types) are contracts; `llm_response`\'s `function_call` pairs with the tool span by id', () => {
    const req = { model: 'gemini', config: { tools: [{ function_declarations: [{ name: 'weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] }] },
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const doc = otlp([
      { name: 'call_llm', attrs: { 'gen_ai.system': 'gcp.vertex.agent', 'gcp.vertex.agent.llm_request': J(req),
        'gcp.vertex.agent.llm_response': J({ content: { role: 'model', parts: [{ function_call: { id: 'adk-1', name: 'weather', args: { city: 7 } } }] } }) } },
      { name: 'execute_tool weather', attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'weather', 'gen_ai.tool.call.id': 'adk-1',
        'gcp.vertex.agent.tool_call_args': J({ city: 7 }), 'gcp.vertex.agent.tool_response': J({ error: 'bad city' }) } },
    ]);
    const { sessions, codes } = read(J(doc));
    assert.deepEqual(calls(sessions[0]), ['weather{"city":7}']);
    assert.deepEqual(results(sessions[0]), ['adk-1']);
    assert.ok(codes.includes('type-drift'), codes.join());
    assert.ok(codes.includes('status-theater'), 'the response says error, the span says nothing failed');
  });

  it('Strands (events): Converse `toolUse` blocks in `gen_ai.choice`, a tool span\'s arguments in its `gen_ai.tool.message` event and its result in `gen_ai.choice`', () => {
    const use = { toolUse: { toolUseId: 'tu1', name: 'weather', input: { city: 'Rome' } } };
    const doc = otlp([
      { name: 'chat', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.user.message', attrs: { content: J([{ text: 'go' }]) } },
        { name: 'gen_ai.choice', attrs: { finish_reason: 'tool_use', message: J([use]) } }] },
      { name: 'execute_tool weather', status: 2, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'weather', 'gen_ai.tool.call.id': 'tu1' },
        events: [{ name: 'gen_ai.tool.message', attrs: { role: 'tool', content: J({ city: 'Rome' }), id: 'tu1' } }, { name: 'gen_ai.choice', attrs: { message: J([{ text: 'Error: down' }]), id: '' } }] },
      { name: 'chat', attrs: { 'gen_ai.operation.name': 'chat' }, events: [{ name: 'gen_ai.assistant.message', attrs: { content: J([use]) } },
        { name: 'gen_ai.user.message', attrs: { content: J([{ toolResult: { toolUseId: 'tu1', status: 'error', content: [{ text: 'Error: down' }] } }]) } }] },
    ]);
    const { sessions, codes } = read(J(doc));
    assert.deepEqual(calls(sessions[0]), ['weather{"city":"Rome"}']);
    assert.deepEqual(results(sessions[0]), ['tu1 failed']);
    assert.equal(sessions[0].results[0].payload, J([{ text: 'Error: down' }]));
    assert.ok(!codes.includes('duplicate-fingerprint') && !codes.includes('orphan-result'), codes.join());
  });
});

describe('Traceloop @tool spans', () => {
  it('`traceloop.span.kind: tool`: the keyword arguments of `traceloop.entity.input` answer the completion\'s call', () => {
    const doc = otlp([
      { name: 'openai.chat', attrs: { 'llm.request.type': 'chat', 'gen_ai.completion.0.role': 'assistant', 'gen_ai.completion.0.tool_calls.0.id': 'call_t',
        'gen_ai.completion.0.tool_calls.0.name': 'ls', 'gen_ai.completion.0.tool_calls.0.arguments': J({ path: '.' }) } },
      { name: 'ls.tool', attrs: { 'traceloop.span.kind': 'tool', 'traceloop.entity.name': 'ls', 'traceloop.entity.input': J({ args: [], kwargs: { path: '.' } }), 'traceloop.entity.output': J('a.py') } },
    ]);
    const { sessions } = read(J(doc));
    assert.deepEqual(calls(sessions[0]), ['ls{"path":"."}']);
    assert.deepEqual(results(sessions[0]), ['call_t']);
    assert.equal(sessions[0].results[0].payload, J('a.py'));
  });
});

describe('platform span rows: braintrust and opik', () => {
  const tools = [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } }];
  const answer = (...tc: { id: string; args: object }[]) => [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null,
    tool_calls: tc.map((c) => ({ id: c.id, type: 'function', function: { name: 'search', arguments: J(c.args) } })) } }];

  it('braintrust: an `llm` row\'s choices are calls, `tool` rows answer them by name and order, `error` fails one; `metadata.tools` are contracts', () => {
    const row = (span: string, type: string, start: number, rest: object) => ({ id: `e-${span}`, span_id: span, root_span_id: 'r', span_parents: span === 'r' ? [] : ['r'],
      span_attributes: { name: type === 'tool' ? 'search' : span, type }, metrics: { start }, created: '2026-01-01T00:00:00Z', ...rest });
    const rows = [
      row('r', 'task', 1, { input: { task: 'x' }, output: 'done' }),
      row('llm', 'llm', 2, { input: [{ role: 'user', content: 'find' }], output: answer({ id: 'c1', args: { query: 'a' } }, { id: 'c2', args: { q: 'b' } }), metadata: { tools } }),
      row('t1', 'tool', 3, { input: { query: 'a' }, output: { hits: 3 }, error: null }),
      row('t2', 'tool', 4, { input: { q: 'b' }, output: null, error: 'KeyError: query' }),
    ];
    for (const [text, name] of [[J({ events: rows, cursor: null }), 'fetch.json'], [rows.map((r) => J(r)).join('\n') + '\n', 'rows.jsonl']]) {
      const { r, sessions, codes } = read(text, name);
      assert.equal(r.format, 'braintrust', name);
      assert.deepEqual(calls(sessions[0]), ['search{"query":"a"}', 'search{"q":"b"}']);
      assert.deepEqual(results(sessions[0]), ['c1', 'c2 failed']);
      assert.ok(codes.includes('missing-key') && !codes.includes('orphan-call'), codes.join());
    }
  });

  it('opik: a REST page of spans; an `llm` span\'s `output.choices` and `input.tools`, a `tool` span with `error_info` is a failure of its type', () => {
    const page = { page: 1, size: 2, total: 2, content: [
      { id: 'o1', trace_id: 'tr', name: 'chat_completion_create', type: 'llm', start_time: '2025-05-01T10:00:00Z', input: { messages: [{ role: 'user', content: 'find' }], tools }, output: { choices: answer({ id: 'c9', args: { query: 'z' } }) } },
      { id: 'o2', trace_id: 'tr', name: 'search', type: 'tool', start_time: '2025-05-01T10:00:01Z', input: { query: 'z' }, output: null, error_info: { exception_type: 'TimeoutError', message: 'slow' } },
    ] };
    const { r, sessions } = read(J(page));
    assert.equal(r.format, 'opik');
    assert.deepEqual(calls(sessions[0]), ['search{"query":"z"}']);
    assert.deepEqual(results(sessions[0]), ['c9 failed']);
    assert.equal(sessions[0].results[0].transport.errorType, 'TimeoutError');
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['search']);
  });
});

describe('Langfuse OTel SDK spans', () => {
  it('`langfuse.observation.type`: a generation\'s output holds the call, a tool observation answers it; level ERROR is a failure', () => {
    const doc = otlp([
      { name: 'llm', attrs: { 'langfuse.observation.type': 'generation', 'langfuse.observation.input': J([{ role: 'user', content: 'ls' }]),
        'langfuse.observation.output': J({ role: 'assistant', tool_calls: [{ id: 'lf1', type: 'function', function: { name: 'bash', arguments: J({ command: 'ls' }) } }] }) } },
      { name: 'bash', attrs: { 'langfuse.observation.type': 'tool', 'langfuse.observation.input': J({ command: 'ls' }), 'langfuse.observation.output': 'denied', 'langfuse.observation.level': 'ERROR' } },
    ]);
    const { sessions } = read(J(doc));
    assert.deepEqual(calls(sessions[0]), ['bash{"command":"ls"}']);
    assert.deepEqual(results(sessions[0]), ['lf1 failed']);
  });
});

describe('Phoenix / Arize span dataframes', () => {
  it('records with `context.*` and `attributes.*` columns, message lists as lists of dicts and nulls for missing values, as JSON and JSONL', () => {
    const rows = [
      { 'context.trace_id': 'tq', 'context.span_id': 'l1', parent_id: null, name: 'llm', span_kind: 'LLM', start_time: '2026-01-01T00:00:01Z', status_code: 'OK',
        'attributes.llm.output_messages': [{ 'message.role': 'assistant', 'message.tool_calls': [{ 'tool_call.id': 'df1', 'tool_call.function.name': 'lookup', 'tool_call.function.arguments': J({ id: 7 }) }] }],
        'attributes.tool.name': null },
      { 'context.trace_id': 'tq', 'context.span_id': 't1', parent_id: 'l1', name: 'lookup', span_kind: 'TOOL', start_time: '2026-01-01T00:00:02Z', status_code: 'ERROR', status_message: 'not found',
        'attributes.tool.name': 'lookup', 'attributes.tool.parameters': { id: 7 }, 'attributes.output.value': null, 'attributes.llm.output_messages': null },
    ];
    for (const [text, name] of [[J(rows), 'spans.json'], [rows.map((r) => J(r)).join('\n') + '\n', 'spans.jsonl']]) {
      const { r, sessions } = read(text, name);
      assert.equal(r.format, 'openinference', name);
      assert.deepEqual(calls(sessions[0]), ['lookup{"id":7}']);
      assert.deepEqual(results(sessions[0]), ['df1 failed']);
    }
  });
});

describe('gateway request logs', () => {
  it('a Helicone request row (`request_body` with the tools, `response_body` with the call) is one exchange: the tools apply to the call', () => {
    const row = { request_id: 'h1', request_created_at: '2025-01-01T00:00:00Z', response_status: 200,
      request_body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'go' }], tools: [{ type: 'function', function: { name: 'get', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }] },
      response_body: { object: 'chat.completion', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'get', arguments: J({ town: 'x' }) } }] } }] } };
    for (const [text, name] of [[J([row]), 'requests.json'], [`${J(row)}\n${J(row)}\n`, 'requests.jsonl']]) {
      const { sessions, codes } = read(text, name);
      assert.ok(sessions.length >= 1 && sessions.every((s) => s.calls.length === 1 && s.tools.length === 1), name);
      assert.ok(codes.includes('missing-key') && !codes.includes('no-contract'), `${name}: ${codes.join()}`);
    }
  });
});
