// The shape reader (`generic`) on small hand-made traces of shapes no adapter knows: calls, results and definitions
// found at any depth and inside strings holding JSON, copies counted once (by id, by structure), pairing only
// through stated links, and no orphan or duplicate-id noise it cannot justify.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, SHAPE_READER, type Session } from '../../src/core';
import { spanOf } from '../../src/core/parse/doc';

/** Check `text` forced through the shape reader, or (`readAs` null) the way an unknown file is read. */
function read(text: string, fileName = 'trace.json', readAs: string | null = 'generic') {
  const r = checkText(text, { fileName, keepModel: true, readAs: readAs ?? undefined });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const at = (a: Parameters<typeof spanOf>[0]) => {
    const s = spanOf(a);
    return text.slice(s.start, s.end);
  };
  const codes = r.findings.map((f) => `${f.code} ${text.slice(f.span.start, f.span.end)}`);
  return { r, sessions, at, codes };
}

const doc = (v: unknown) => JSON.stringify(v, null, 2);
const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const pairingNoise = (codes: string[]) => codes.filter((c) => /^(orphan-call|orphan-result|duplicate-call-id) /.test(c));

describe('generic: what is a call', () => {
  it('is the registered shape reader', () => {
    assert.equal(SHAPE_READER?.id, 'generic');
  });

  it('reads calls under many name and argument keys, at any depth, with positions on the real nodes', () => {
    const text = doc({
      run: { steps: [
        { kind: 'act', invocation: { toolName: 'get_weather', args: { city: 'Oslo' } } },
        { kind: 'act', tool_calls: [{ id: 'c2', function: { name: 'list_rooms', arguments: '{"quiet_only": true}' } }] },
        { parts: [{ functionCall: { name: 'now' } }] },
        { recipient_name: 'functions.search', parameters: { q: 'x' } },
        { type: 'tool-open_page', toolCallId: 'u1', state: 'input-available', input: { url: '/a' } },
        { type: 'tool', tool: 'bash', callID: 'b1', state: { status: 'running', input: { command: 'ls' } } },
      ] },
    });
    const { sessions: [s], at } = read(text);
    assert.deepEqual(s.calls.map((c) => [c.name, c.id ?? '-', c.encoding]), [
      ['get_weather', '-', 'object'], ['list_rooms', 'c2', 'json-string'], ['now', '-', 'absent'],
      ['functions.search', '-', 'object'], ['open_page', 'u1', 'object'], ['bash', 'b1', 'object'],
    ]);
    assert.deepEqual(s.calls.map((c) => at(c.nameAt)), ['"get_weather"', '"list_rooms"', '"now"', '"functions.search"', '"tool-open_page"', '"bash"']);
    assert.equal(at(s.calls[0].argsAt), '{\n            "city": "Oslo"\n          }');
    assert.equal(at(s.calls[1].argsAt), '"{\\"quiet_only\\": true}"');
    assert.equal(at(s.calls[5].argsAt).replace(/\s+/g, ''), '{"command":"ls"}');
  });

  it('does not take a definition, prose, a message, a span or a profiler event for a call', () => {
    const text = doc({
      tools: [
        { type: 'function', function: { name: 'get_hours', description: 'Hours', parameters: { type: 'object', properties: { day: { type: 'integer' } } } } },
        { name: 'lookup', description: 'loose schema', parameters: { q: { type: 'str', description: 'query' } } },
      ],
      people: [{ name: 'Ada Lovelace', input: 'hello' }, { name: 'ada', input: 'just text' }],
      messages: [{ role: 'assistant', name: 'helper', input: { q: 1 } }],
      observations: [{ type: 'GENERATION', name: 'ChatOpenAI', input: { messages: [] } }, { type: 'SPAN', name: 'agent', input: { x: 1 } }],
      config: { name: 'Run', args: ['--fast'] },
      profile: { traceEvents: [{ name: 'FunctionCall', cat: 'devtools.timeline', ph: 'X', ts: 1, pid: 1, tid: 1, args: { data: { url: 'a.js' } } }] },
      trace: { id: 'tr-1', projectId: 'p', name: 'conversation', input: '"{\\"prompt\\": \\"hi\\"}"' },
    });
    const { r, sessions } = read(text);
    assert.equal(r.calls, 0);
    assert.deepEqual(sessions.map((s) => s.tools.map((t) => t.name)), [['get_hours']], 'only the strict schema is a definition');
  });

  it('claims no file of definitions alone: that is a contract, not a trace', () => {
    const tools = [{ type: 'function', function: { name: 'get_hours', parameters: { type: 'object', properties: {} } } }];
    assert.equal(SHAPE_READER?.document?.claims(tools), false);
    assert.equal(SHAPE_READER?.lines?.claims(tools), false);
    assert.equal(SHAPE_READER?.lines?.accepts?.(tools), true, 'as a line of a file the reader reads, its definitions count');
  });

  it('keeps definitions as embedded contracts (schema keys of several formats), each once', () => {
    const def = { name: 'get_hours', description: 'Hours', parameters: { type: 'object', properties: { day: { type: 'integer' } }, required: ['day'] } };
    const text = doc({
      requests: [{ tools: [{ type: 'function', function: def }] }, { tools: [{ type: 'function', function: def }] }],
      mcp: { tools: [{ name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }] },
      bedrock: { toolSpec: { name: 'scan', inputSchema: { json: { type: 'object', properties: {} } } } },
      turn: { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_hours', arguments: '{"day": "2"}' } }] },
    });
    const { sessions: [s], codes, at } = read(text);
    assert.deepEqual(s.tools.map((t) => t.name), ['get_hours', 'read_file', 'scan']);
    assert.deepEqual(at(s.tools[2].at).replace(/\s+/g, ''), '{"type":"object","properties":{}}');
    assert.deepEqual(codes, ['type-drift \\"2\\"'], 'the value inside the string-encoded arguments');
  });
});

describe('generic: results, pairing, transport', () => {
  it('links results through explicit keys and nested payloads, with error signals as transport', () => {
    const text = jsonl(
      { type: 'message', message: { role: 'assistant', content: [{ type: 'toolCall', id: 't1', name: 'bash', arguments: { command: 'make' } }] } },
      { type: 'message', message: { role: 'toolResult', toolCallId: 't1', content: [{ type: 'text', text: 'boom' }], isError: true } },
      { type: 'message', message: { role: 'assistant', content: [{ type: 'toolCall', id: 't2', name: 'run', arguments: {} }] } },
      { event: 'done', call_id: 't2', stdout: '', exit_code: 2 },
      { kind: 'step', toolCall: { name: 'fetch', args: { url: 'u' } }, status: 'failed', output: 'timeout' },
      { part: { functionCall: { id: 'g1', name: 'lookup', args: { q: 1 } } } },
      { part: { functionResponse: { id: 'g1', name: 'lookup', response: { ok: true } } } },
    );
    const { sessions: [s], codes } = read(text, 'events.jsonl');
    assert.deepEqual(s.calls.map((c) => c.name), ['bash', 'run', 'fetch', 'lookup']);
    assert.deepEqual(s.results.map((x) => [x.callId ?? x.callIndex, x.transport]), [
      ['t1', { isError: true }], ['t2', { exitCode: 2 }], [2, { isError: true }], ['g1', {}],
    ]);
    assert.deepEqual(pairingNoise(codes), []);
  });

  it('keeps the results it links, and tells no orphan for a call answered in a way it cannot see', () => {
    // `run` is answered in a way this reader does not know (the next record, no id): the linked result is kept, no orphan is told
    const text = jsonl(
      { message: { content: [{ type: 'tool_use', id: 'a', name: 'read', input: { path: 'x' } }] } },
      { message: { content: [{ type: 'tool_result', tool_use_id: 'a', content: 'data' }] } },
      { step: { name: 'run', arguments: { cmd: 'ls' } } },
      { observation: 'ok' },
      { message: { content: [{ type: 'tool_result', tool_use_id: 'zzz', content: 'from another run' }] } },
    );
    const { sessions: [s], codes } = read(text, 'events.jsonl');
    assert.equal(s.calls.length, 2);
    assert.deepEqual(s.results.map((x) => x.callId), ['a'], 'the stated link is kept; the stray zzz is not recorded');
    assert.equal(s.linksStated, true);
    assert.deepEqual(pairingNoise(codes), []);
  });

  it('a linked result that says failure behind a success signal is still status-theater', () => {
    const text = jsonl(
      { type: 'call', tool_name: 'deploy', tool_input: { env: 'prod' }, tool_call_id: 't1' },
      { type: 'result', tool_call_id: 't1', output: { status_code: 200, body: { ok: false, error: 'quota exceeded' } } },
      { type: 'call', tool_name: 'notify', tool_input: { to: 'ops' } },
    );
    const { codes } = read(text, 'events.jsonl');
    assert.ok(codes.some((c) => c.startsWith('status-theater ')), codes.join());
    assert.deepEqual(pairingNoise(codes), []);
  });

  it('drops a result that names no call it saw', () => {
    const text = jsonl(
      { item: { type: 'function_call', call_id: 'c1', name: 'search', arguments: '{"q": "a"}' } },
      { item: { type: 'function_call_output', call_id: 'c1', output: 'hits' } },
      { item: { type: 'function_call_output', call_id: 'c9', output: 'stray' } },
    );
    const { sessions: [s], codes } = read(text, 'events.jsonl');
    assert.deepEqual(s.results.map((x) => x.callId), ['c1']);
    assert.deepEqual(pairingNoise(codes), []);
  });
});

describe('generic: copies count once', () => {
  it('merges copies that share an id, and completes a streamed call from its "done" copy', () => {
    const text = jsonl(
      { type: 'response.output_item.added', item: { type: 'function_call', id: 'fc1', call_id: 'c1', name: 'get_weather', arguments: '' } },
      { type: 'response.output_item.done', item: { type: 'function_call', id: 'fc1', call_id: 'c1', name: 'get_weather', arguments: '{"city": "Oslo"}' } },
      { log: { messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"}' } }] }] } },
      { log: { events: [{ event: 'tool', id: 'c1', function: 'get_weather', arguments: { city: 'Oslo' }, result: 'sunny' }] } },
    );
    const { sessions: [s], at, codes } = read(text, 'events.jsonl');
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.calls[0].args, { city: 'Oslo' });
    assert.equal(at(s.calls[0].argsAt), '"{\\"city\\": \\"Oslo\\"}"', 'the arguments point at the copy that had them');
    assert.deepEqual(s.results.map((x) => x.callId), ['c1'], 'the nested result of a copy answers the call');
    assert.deepEqual(codes.filter((c) => !c.startsWith('no-contract')), []);
  });

  it('tells the same id for another tool apart: two calls, and duplicate-call-id says so', () => {
    const text = doc({ calls: [
      { id: 'x1', name: 'get_weather', arguments: { city: 'Oslo' } },
      { id: 'x1', name: 'get_hours', arguments: { building: 'Rowe' } },
    ] });
    const { sessions: [s], codes } = read(text);
    assert.deepEqual(s.calls.map((c) => c.name), ['get_weather', 'get_hours']);
    assert.deepEqual(codes.filter((c) => c.startsWith('duplicate-call-id')), ['duplicate-call-id "get_hours"']);
  });

  it('without ids: a request history repeated in each request is read once, a repeat within it is a repeat', () => {
    const call = (q: string) => ({ role: 'model', parts: [{ functionCall: { name: 'search', args: { q } } }] });
    const user = { role: 'user', parts: [{ text: 'find it' }] };
    const text = doc({ requests: [
      { contents: [user, call('a')] },
      { contents: [user, call('a'), user, call('a')] },
      { contents: [user, call('a'), user, call('a'), user, call('b')] },
    ] });
    const { sessions: [s], codes } = read(text);
    assert.deepEqual(s.calls.map((c) => (c.args as { q: string }).q), ['a', 'a', 'b']);
    assert.deepEqual(s.calls.map((c) => c.at.path.join('.')), ['requests.0.contents.1.parts.0', 'requests.1.contents.3.parts.0', 'requests.2.contents.5.parts.0']);
    assert.deepEqual(codes.filter((c) => c.startsWith('duplicate-fingerprint')), ['duplicate-fingerprint "search"']);
  });

  it('without a shared id: a record mirroring a call in another structure is the same call, its output the result', () => {
    // the observation's id names the record (it sits beside trace keys), not the call
    const obs = (o: object) => ({ traceId: 't1', startTime: '2026-01-01T00:00:00Z', ...o });
    const text = doc({ observations: [
      obs({ type: 'GENERATION', id: 'obs-6', name: 'Responses API', output: [{ type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' }] }),
      obs({ type: 'TOOL', id: 'obs-7', name: 'get_weather', input: { city: 'Tokyo' }, output: 'rain' }),
      obs({ type: 'GENERATION', id: 'obs-8', name: 'Responses API', input: [{ type: 'function_call_output', call_id: 'call_1', output: 'rain' }] }),
    ] });
    const { sessions: [s], codes } = read(text);
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['get_weather', 'call_1']]);
    assert.equal(s.results.length, 1);
    assert.deepEqual(codes.filter((c) => !c.startsWith('no-contract')), []);
  });
});

describe('generic: strings holding JSON, encodings, sessions', () => {
  it('walks JSON inside strings, and points findings into them', () => {
    const inner = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_hours', arguments: { weekday: true } }] }]);
    const text = doc({
      attributes: { 'gen_ai.input.messages': inner },
      tools: [{ name: 'get_hours', parameters: { type: 'object', properties: { weekday: { type: 'integer' } } } }],
    });
    const { sessions: [s], codes } = read(text);
    assert.equal(s.calls[0].id, 'c1');
    assert.deepEqual(codes, ['type-drift true']);
  });

  it('reports arguments encoded oddly as everywhere else', () => {
    const text = doc({ steps: [
      { toolName: 'a', args: JSON.stringify(JSON.stringify({ x: 1 })) },
      { toolName: 'b', args: '```json\n{"x": 1}\n```' },
      { toolName: 'c', input: { input: { x: 1 } } },
    ] });
    const { sessions: [s] } = read(text);
    assert.deepEqual(s.calls.map((c) => c.encoding), ['double-encoded', 'fenced', 'input-wrapper']);
  });

  it('splits sessions by the conversation records name, and reads whole-conversation lines alone', () => {
    const line = (session: string, id: string) => ({ sessionId: session, message: { content: [{ type: 'tool_use', id, name: 'ls', input: {} }] } });
    const convo = { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', tool_calls: [{ id: 'k', type: 'function', function: { name: 'ls', arguments: '{}' } }] }] };
    const { sessions } = read(jsonl(line('A', '1'), line('B', '2'), line('A', '3'), convo, convo), 'events.jsonl');
    assert.deepEqual(sessions.map((s) => [s.id ?? '', s.calls.length]), [['line 4', 1], ['line 5', 1], ['A', 2], ['B', 1]]);
  });

  it('reads an unknown file by itself (no --read-as) and says so once', () => {
    const text = doc({ run: { steps: [{ kind: 'act', invocation: { toolName: 'get_weather', args: { city: 'Oslo' } } }] } });
    const { r, codes } = read(text, 'run.json', null);
    assert.equal(r.format, 'generic');
    assert.deepEqual(codes.filter((c) => c.startsWith('read-by-shape')), ['read-by-shape ']);
    const other = read(doc({ name: 'my-package', version: '1.0.0', scripts: { test: 'node --test' } }), 'package.json', null);
    assert.equal(other.r.format, undefined, 'JSON without calls is no trace');
  });
});

describe('generic: hostile and large input', () => {
  it('stops at a depth limit instead of overflowing', () => {
    const deep = '['.repeat(5000) + JSON.stringify({ toolName: 'deep', args: {} }) + ']'.repeat(5000);
    const text = `{"shallow": ${JSON.stringify({ toolName: 'ok', args: {} })}, "deep": ${deep}}`;
    const { sessions: [s] } = read(text);
    assert.deepEqual(s.calls.map((c) => c.name), ['ok']);
  });

  it('stays linear on many identical calls without ids (a stuck loop) and reports them', () => {
    const n = 20000;
    const steps = Array.from({ length: n }, () => ({ parts: [{ functionCall: { name: 'poll', args: { job: 7 } } }] }));
    const started = Date.now();
    const { sessions: [s], r } = read(JSON.stringify({ steps }));
    assert.equal(s.calls.length, n);
    assert.equal(r.findings.filter((f) => f.code === 'duplicate-fingerprint').length, n - 1);
    assert.ok(Date.now() - started < 20000, 'no quadratic work per call');
  });
});
