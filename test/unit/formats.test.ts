// Format adapters on small hand-made traces: the shapes the corpus does not show (Claude Code sidechains and API
// messages spread over lines, Codex exit codes, MCP JSON-RPC, OTLP JSON, Responses streaming events, parallel
// chunks, the parallel wrapper in Chat), with exact positions where they matter.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts, type Session } from '../../src/core';
import { fixture } from './helpers';
import { spanOf } from '../../src/core/parse/doc';
import { LineIndex } from '../../src/core/parse/reader';

function read(text: string, fileName: string) {
  const r = checkText(text, { fileName, keepModel: true });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const index = LineIndex.of(text);
  const pos = (offset: number) => {
    const p = index.position(offset);
    return `${p.line}:${p.column}`;
  };
  return { r, sessions, pos };
}

const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

describe('claude-code', () => {
  const env = (uuid: string, parent: string | null, extra: object) => ({ type: 'assistant', uuid, parentUuid: parent, sessionId: 's1', isSidechain: false, ...extra });
  it('reads one API message written over several lines as one turn, and sidechains as sessions of their own', () => {
    const text = jsonl(
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's1', isSidechain: false, message: { role: 'user', content: 'go' } },
      env('a1', 'u1', { message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: 'two reads' }] } }),
      env('a2', 'a1', { message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }] } }),
      env('a3', 'a2', { message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Read', input: { file_path: 'b' } }] } }),
      { type: 'user', uuid: 'r1', parentUuid: 'a3', sessionId: 's1', isSidechain: false, toolUseResult: { file: 'a' }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'A', is_error: false }] } },
      { type: 'user', uuid: 'r2', parentUuid: 'r1', sessionId: 's1', isSidechain: false, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'B' }] } },
      { type: 'user', uuid: 'x1', parentUuid: null, sessionId: 's1', isSidechain: true, message: { role: 'user', content: 'subagent task' } },
      { type: 'assistant', uuid: 'x2', parentUuid: 'x1', sessionId: 's1', isSidechain: true, message: { id: 'msg_9', role: 'assistant', content: [{ type: 'tool_use', id: 't9', name: 'Grep', input: { pattern: 'x' } }] } },
      { type: 'user', uuid: 'x3', parentUuid: 'x2', sessionId: 's1', isSidechain: true, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't9', content: 'none', is_error: true }] } },
      env('a4', 'r2', { message: { id: 'msg_2', role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'Read', input: { file_path: 'c' } }] } }),
    );
    const { r, sessions, pos } = read(text, 'session.jsonl');
    assert.equal(r.format, 'claude-code');
    assert.deepEqual(sessions.map((s) => s.id), ['s1', 's1#sidechain:x1']);
    const [main, side] = sessions;
    assert.deepEqual(main.calls.map((c) => [c.name, c.id, c.turn]), [['Read', 't1', 1], ['Read', 't2', 1], ['Read', 't3', 2]], 'msg_1 over three lines is turn 1');
    assert.deepEqual(main.results.map((x) => [x.callId, x.transport.isError]), [['t1', false], ['t2', undefined]]);
    assert.deepEqual(side.calls.map((c) => c.name), ['Grep']);
    assert.deepEqual(side.results[0].transport, { isError: true });
    assert.equal(pos(spanOf(main.calls[1].nameAt).start), '4:178', 'the name of the second Read ("Read" on line 4)');
  });
});

describe('claude-code sessions in bounded memory', () => {
  it('checks a session once 2000 lines of others went by, and a stray line in between splits nothing', () => {
    const line = (sid: string, n: number, withCall: boolean) => ({
      type: 'assistant', uuid: `${sid}-${n}`, parentUuid: null, sessionId: sid, isSidechain: false,
      message: { id: `m-${sid}-${n}`, role: 'assistant', content: withCall ? [{ type: 'tool_use', id: `t-${sid}-${n}`, name: 'Read', input: { file_path: 'x' } }] : [{ type: 'text', text: 'hi' }] },
    });
    const lines = [line('A', 0, true), line('B', 0, true), line('A', 1, true)];
    for (let i = 1; i <= 2100; i++) lines.push(line('B', i, false));
    lines.push(line('A', 2, true)); // A was let go: this opens a new session A
    const { sessions } = read(jsonl(...lines), 'two.jsonl');
    assert.deepEqual(sessions.map((s) => [s.id, s.calls.length]), [['A', 2], ['B', 1], ['A', 1]],
      'A (idle since line 3) is checked while B goes on; the late A line is a session of its own');
  });
});

describe('codex', () => {
  it('takes exit codes from exec_command_end, before or after the output, and reads local_shell_call', () => {
    const text = jsonl(
      { timestamp: 't', type: 'session_meta', payload: { id: 'sess' } },
      { timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["false"]}', call_id: 'c1' } },
      { timestamp: 't', type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'c1', exit_code: 1 } },
      { timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'failed' } },
      { timestamp: 't', type: 'response_item', payload: { type: 'local_shell_call', call_id: 'c2', action: { type: 'exec', command: ['ls'] } } },
      { timestamp: 't', type: 'response_item', payload: { type: 'local_shell_call_output', call_id: 'c2', output: '{"output":"a\\n","metadata":{"exit_code":0}}' } },
      { timestamp: 't', type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'c2', exit_code: 0 } },
    );
    const { r, sessions } = read(text, 'rollout-x.jsonl');
    assert.equal(r.format, 'codex');
    const [s] = sessions;
    assert.equal(s.id, 'sess');
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['shell', { command: ['false'] }], ['local_shell_call', { type: 'exec', command: ['ls'] }]]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.exitCode]), [['c1', 1], ['c2', 0]]);
  });
});

describe('mcp JSON-RPC', () => {
  it('pairs tools/call with its response by id, keeps isError and JSON-RPC errors, and takes tools/list as contracts', () => {
    const text = jsonl(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'get_hours', inputSchema: { type: 'object', properties: { weekday: { type: 'integer' } }, required: ['weekday'] } }] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_hours', arguments: { weekday: true } } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'closed' }], isError: true } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_hours', arguments: { weekday: 2 } } },
      { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'internal' } },
    );
    const { r, sessions, pos } = read(text, 'mcp.jsonl');
    assert.equal(r.format, 'mcp');
    const [s] = sessions;
    assert.deepEqual(s.tools.map((t) => t.name), ['get_hours']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['2', true], ['3', true]]);
    const drift = r.findings.filter((f) => f.code === 'type-drift').map((f) => pos(f.span.start));
    assert.deepEqual(drift, ['3:99'], 'weekday true against the embedded integer, at the value');
  });
});

describe('otel OTLP JSON', () => {
  const attr = (key: string, value: unknown) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
  const span = (o: object) => ({ traceId: 'T1', parentSpanId: 'P', ...o });
  it('reads typed attributes, orders spans by start, and records span status on execute_tool results', () => {
    const doc = {
      resourceSpans: [{ scopeSpans: [{ spans: [
        span({ spanId: 'b', name: 'execute_tool get_hours', startTimeUnixNano: '2000', status: { code: 2, message: 'boom' }, attributes: [
          attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'get_hours'), attr('gen_ai.tool.call.id', 'c1'),
          attr('gen_ai.tool.call.arguments', '{"weekday": 2}'), attr('gen_ai.tool.call.result', '{"ok": false}')] }),
        span({ spanId: 'a', name: 'chat', startTimeUnixNano: '1000', attributes: [
          attr('gen_ai.operation.name', 'chat'),
          attr('gen_ai.tool.definitions', JSON.stringify([{ type: 'function', name: 'get_hours', parameters: { type: 'object', properties: { weekday: { type: 'integer' } } } }])),
          attr('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_hours', arguments: { weekday: 2 } }] }]))] }),
        span({ traceId: 'T2', spanId: 'c', name: 'execute_tool', startTimeUnixNano: '3000', status: { code: 1 }, attributes: [
          attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'clock'), attr('process.exit.code', 0)] }),
      ] }] }],
    };
    const text = JSON.stringify(doc, null, 1);
    const { r, sessions } = read(text, 'otlp.json');
    assert.equal(r.format, 'otel');
    assert.deepEqual(sessions.map((s) => s.id), ['T1', 'T2'], 'a session per trace id');
    const [t1, t2] = sessions;
    assert.deepEqual(t1.tools.map((t) => t.name), ['get_hours']);
    assert.deepEqual(t1.calls.map((c) => [c.name, c.id, c.args]), [['get_hours', 'c1', { weekday: 2 }]], 'the chat span (earlier) made the call; the tool span answers it');
    assert.deepEqual(t1.results.map((x) => [x.callId, x.transport]), [['c1', { spanStatus: 'ERROR' }]]);
    assert.deepEqual(t2.calls.map((c) => c.name), ['clock']);
    assert.deepEqual(t2.results[0].transport, { spanStatus: 'OK', exitCode: 0 });
  });
});

describe('spans line by line', () => {
  it('OTLP JSONL (one request per line, as the Collector writes): a trace split over lines is one session', () => {
    const a = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const req = (spans: object[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
    const text = jsonl(
      req([{ traceId: 'T', spanId: 'a', startTimeUnixNano: '1', attributes: [a('gen_ai.operation.name', 'chat'),
        a('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'clock', arguments: {} }] }]))] }]),
      req([{ traceId: 'T', spanId: 'b', startTimeUnixNano: '2', status: { code: 'STATUS_CODE_OK' }, attributes: [a('gen_ai.operation.name', 'execute_tool'),
        a('gen_ai.tool.name', 'clock'), a('gen_ai.tool.call.id', 'c1'), a('gen_ai.tool.call.result', '12:00')] }]),
    );
    const { r, sessions } = read(text, 'otel.jsonl');
    assert.equal(r.format, 'otel');
    assert.deepEqual(sessions.map((s) => [s.id, s.calls.length, s.results.length, s.results[0]?.transport.spanStatus]), [['T', 1, 1, 'OK']]);
  });

  it('Phoenix spans as JSONL, one span per line', () => {
    const span = (id: string, kind: string, start: string, attributes: object) => ({ name: id, context: { trace_id: 'P', span_id: id }, span_kind: kind, start_time: start, status_code: 'OK', attributes });
    const text = jsonl(
      span('t', 'TOOL', '2026-01-01T00:00:02Z', { 'tool.name': 'clock', 'tool.id': 'c1', 'input.value': '{}', 'output.value': '12:00' }),
      span('l', 'LLM', '2026-01-01T00:00:01Z', { 'openinference.span.kind': 'LLM', 'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'c1',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'clock', 'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{}' }),
    );
    const { r, sessions } = read(text, 'spans.jsonl');
    assert.equal(r.format, 'openinference');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id]), [['clock', 'c1']], 'the LLM span (earlier) made the call, the TOOL span answers it');
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.spanStatus]), [['c1', 'OK']]);
  });
});

describe('streams', () => {
  it('assembles two chat tool calls by index, keeping each first id', () => {
    const chunk = (tool_calls: object[], finish: string | null = null) => ({ id: 'r1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls }, finish_reason: finish }] });
    const text = jsonl(
      chunk([{ index: 0, id: 'a', type: 'function', function: { name: 'get_hours', arguments: '' } }, { index: 1, id: 'b', type: 'function', function: { name: 'get_rooms', arguments: '{"n":' } }]),
      chunk([{ index: 0, id: '', function: { arguments: '{"weekday":' } }, { index: 1, id: '', function: { arguments: '3}' } }]),
      chunk([{ index: 0, id: '', function: { arguments: '"2"}' } }], 'tool_calls'),
    );
    const { r, sessions, pos } = read(text, 'chunks.jsonl');
    assert.equal(r.format, 'stream');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id, c.args, c.turn]), [['get_hours', 'a', { weekday: '2' }, 1], ['get_rooms', 'b', { n: 3 }, 1]]);
    assert.equal(pos(spanOf(sessions[0].calls[0].argsAt).start), '3:133', 'the fragment that completed get_hours\'s arguments');
  });

  it('reads number lexemes of assembled arguments as written: 2.0 split over fragments is not an integer', () => {
    const chunk = (tool_calls: object[], finish: string | null = null) => ({ id: 'r1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls }, finish_reason: finish }] });
    const text = jsonl(
      chunk([{ index: 0, id: 'a', type: 'function', function: { name: 'get_hours', arguments: '{"building": "Killam", ' } }]),
      chunk([{ index: 0, id: '', function: { arguments: '"weekday": 2' } }]),
      chunk([{ index: 0, id: '', function: { arguments: '.0}' } }], 'tool_calls'),
    );
    const contracts = loadContracts([{ path: 'hours.contract.json', text: fixture('contracts/hours.contract.json') }]).contracts;
    const r = checkText(text, { fileName: 'chunks.jsonl', contracts });
    const index = LineIndex.of(text);
    assert.deepEqual(r.findings.map((f) => [f.code, f.message, index.position(f.span.start).line]), [
      ['type-drift', 'weekday wanted integer, got number 2.0', 3],
    ], 'on the fragment that completed the arguments');
    // the same call whole is flagged the same way
    const whole = checkText(jsonl({ name: 'get_hours', arguments: { building: 'Killam', weekday: 2 } }).replace('2}}', '2.0}}'), { fileName: 'calls.jsonl', contracts });
    assert.deepEqual(whole.findings.map((f) => f.message), ['weekday wanted integer, got number 2.0']);
  });

  it('reads Responses streaming events: the done item carries the call', () => {
    const text = jsonl(
      { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { type: 'function_call', id: 'fc1', call_id: 'c1', name: 'get_hours', arguments: '' } },
      { type: 'response.function_call_arguments.delta', sequence_number: 2, item_id: 'fc1', output_index: 0, delta: '{"weekday":' },
      { type: 'response.function_call_arguments.delta', sequence_number: 3, item_id: 'fc1', output_index: 0, delta: '2}' },
      { type: 'response.function_call_arguments.done', sequence_number: 4, item_id: 'fc1', output_index: 0, arguments: '{"weekday":2}' },
      { type: 'response.output_item.done', sequence_number: 5, output_index: 0, item: { type: 'function_call', id: 'fc1', call_id: 'c1', name: 'get_hours', arguments: '{"weekday":2}' } },
      { type: 'response.completed', sequence_number: 6, response: { output: [{ type: 'function_call', id: 'fc1', call_id: 'c1', name: 'get_hours', arguments: '{"weekday":2}' }] } },
    );
    const { r, sessions, pos } = read(text, 'events.jsonl');
    assert.equal(r.format, 'stream');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id, c.args]), [['get_hours', 'c1', { weekday: 2 }]], 'once, though response.completed repeats it');
    assert.equal(pos(spanOf(sessions[0].calls[0].nameAt).start), '5:138', 'the name in the output_item.done event');
  });
});

describe('the parallel wrapper', () => {
  it('multi_tool_use.parallel in a Chat message stands for its calls, anchored inside the arguments string', () => {
    const args = JSON.stringify({ tool_uses: [{ recipient_name: 'functions.get_hours', parameters: { weekday: 2 } }, { recipient_name: 'functions.get_rooms', parameters: { n: 1 } }] });
    const text = JSON.stringify([{ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'multi_tool_use.parallel', arguments: args } }] }]);
    const { r, sessions, pos } = read(text, 'chat.json');
    assert.equal(r.format, 'openai-chat');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id, c.args]), [['get_hours', 'call_1#0', { weekday: 2 }], ['get_rooms', 'call_1#1', { n: 1 }]]);
    assert.equal(text.slice(spanOf(sessions[0].calls[1].nameAt).start, spanOf(sessions[0].calls[1].nameAt).end), '\\"functions.get_rooms\\"');
    assert.equal(pos(spanOf(sessions[0].calls[0].argsAt).start), '1:202', 'the inner parameters object, inside the arguments string');
  });
});
