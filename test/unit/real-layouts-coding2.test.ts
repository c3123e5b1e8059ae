// Layouts of coding-agent logs found in real files (third round): VS Code Copilot Chat requests whose only record of
// their tools is the response's `toolInvocationSerialized` parts, and Amp's `--stream-json` output. Every trace here
// is small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts, type Session } from '../../src/core';
import { readModel } from './helpers';

function read(text: string, fileName?: string, readAs?: string) {
  return readModel(text, { fileName, readAs });
}

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** The result that answers a call, by id. */
function resultOf(s: Session, id: string) {
  return s.results.find((x) => x.callId === id);
}

// ---- VS Code Copilot Chat: response parts only ---------------------------------------------------------------

const readPart = (id: string, file: string) => ({ kind: 'toolInvocationSerialized', toolId: 'copilot_readFile', toolCallId: id, isComplete: true,
  isConfirmed: { type: 1 }, pastTenseMessage: { value: `Read ${file}` } });
const termPart = (id: string, command: string, extra: Record<string, unknown> = {}) => ({ kind: 'toolInvocationSerialized', toolId: 'run_in_terminal',
  toolCallId: id, isComplete: true, isConfirmed: { type: 4 }, toolSpecificData: { kind: 'terminal', commandLine: { original: command }, ...extra } });

describe('VS Code chat sessions whose requests have no tool-call rounds', () => {
  it('a session log: each part is a call and its result; texts between parts end a turn; exit code and output read', () => {
    const text = jsonl([
      { kind: 0, v: { version: 3, sessionId: 'log-1', requests: [] } },
      { kind: 2, k: ['requests'], v: [{ requestId: 'request_1', message: { text: 'build it' }, response: [] }] },
      { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'Looking.' }, readPart('p1', 'a.go'), { kind: 'inlineReference', inlineReference: {} }, readPart('p2', 'b.go')] },
      { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'Now building.' },
        termPart('p3', 'go build', { terminalCommandOutput: { text: 'undefined: x\n' }, terminalCommandState: { exitCode: 2 } }), { value: 'It fails.' }] },
    ]);
    const { r, sessions, codes } = read(text, 'log-1.jsonl');
    assert.equal(r.format, 'copilot-cli');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.equal(s.id, 'log-1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['copilot_readFile', 'p1', 1], ['copilot_readFile', 'p2', 1], ['run_in_terminal', 'p3', 2]]);
    assert.equal(s.results.length, 3);
    const build = resultOf(s, 'p3')!;
    assert.equal(build.payload, 'undefined: x\n');
    assert.equal(build.transport.exitCode, 2);
    // a completed part that kept no output still answers its call
    assert.equal(resultOf(s, 'p1')!.payload, undefined);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('arguments a part never kept are not an empty object: a contract requiring keys finds nothing to flag', () => {
    const session = { version: 3, sessionId: 'doc-1', requests: [{ requestId: 'request_1', message: { text: 'test' },
      response: [{ kind: 'toolInvocationSerialized', toolId: 'copilot_runInTerminal', toolCallId: 'tc1', isComplete: true, isConfirmed: true,
        toolSpecificData: { kind: 'terminal', language: 'sh', command: 'npm test' } }] }] };
    const text = JSON.stringify(session, null, 2);
    const schema = { type: 'object', required: ['command', 'explanation'], properties: { command: { type: 'string' }, explanation: { type: 'string' } } };
    const { contracts } = loadContracts([{ path: 'c.json', text: JSON.stringify([{ name: 'copilot_runInTerminal', parameters: schema }]) }]);
    const r = checkText(text, { fileName: 'doc-1.json', keepModel: true, packs: false, contracts });
    assert.equal(r.format, 'copilot-cli');
    const [s] = (r.model ?? []).map((m) => m.session);
    assert.equal(s.calls.length, 1);
    assert.equal(s.calls[0].args, undefined);
    assert.deepEqual(r.findings.filter((f) => f.code === 'missing-key'), []);
  });

  it('an MCP part keeps its arguments as JSON input and its error flag; raw input is read as the arguments; a denied tool failed', () => {
    const session = { version: 3, sessionId: 'doc-2', requests: [{ requestId: 'request_1', message: { text: 'q' }, response: [
      { kind: 'toolInvocationSerialized', toolId: 'mcp_db_query', toolCallId: 'm1', isComplete: true, isConfirmed: { type: 1 },
        resultDetails: { input: '{\n  "sql": "select 1",\n  "limit": 5\n}', output: [{ type: 'embed', isText: true, value: 'no such table' }], isError: true } },
      { kind: 'toolInvocationSerialized', toolId: 'ext_search', toolCallId: 'm2', isComplete: true, isConfirmed: { type: 1 },
        toolSpecificData: { kind: 'input', rawInput: { query: 'foo' } }, resultDetails: [{ $mid: 1, path: '/w/a.ts', scheme: 'file' }] },
      { value: 'Trying the shell.' },
      termPart('m3', 'rm -rf build', { }),
    ] }] };
    // the shell call was denied: ConfirmedReason type 0
    (session.requests[0].response[3] as Record<string, unknown>).isConfirmed = { type: 0 };
    (session.requests[0].response[3] as Record<string, unknown>).isComplete = false;
    const { r, sessions } = read(JSON.stringify(session), 'doc-2.json');
    assert.equal(r.format, 'copilot-cli');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.encoding]), [['mcp_db_query', 'json-string'], ['ext_search', 'object'], ['run_in_terminal', 'absent']]);
    assert.deepEqual(s.calls[0].args, { sql: 'select 1', limit: 5 });
    assert.deepEqual(s.calls[1].args, { query: 'foo' });
    assert.equal(resultOf(s, 'm1')!.payload, 'no such table');
    assert.equal(resultOf(s, 'm1')!.transport.isError, true);
    assert.ok(Array.isArray(resultOf(s, 'm2')!.payload));
    assert.equal(resultOf(s, 'm3')!.transport.isError, true);
  });

  it('a terminal part whose details input is the bare command line is not read as JSON arguments', () => {
    const session = { version: 3, sessionId: 'doc-3', requests: [{ requestId: 'request_1', message: { text: 'run' }, response: [
      { ...termPart('t1', 'pytest'), resultDetails: { input: 'pytest', output: [{ type: 'embed', value: '3 passed' }] } }] }] };
    const { sessions, codes } = read(JSON.stringify(session), 'doc-3.json');
    const [s] = sessions;
    assert.equal(s.calls[0].encoding, 'absent');
    assert.equal(resultOf(s, 't1')!.payload, '3 passed');
    assert.ok(!codes.includes('arguments-encoding'), codes.join());
  });

  it('where tool-call rounds exist they are the calls: parts add the exit code, and never double a call', () => {
    const session = { version: 3, sessionId: 'doc-4', requests: [{ requestId: 'request_1', message: { text: 'run' },
      response: [termPart('c1', 'make', { terminalCommandState: { exitCode: 1 } }), { ...readPart('other-id', 'x.ts') }],
      result: { metadata: { toolCallRounds: [{ id: 'r1', response: '', toolCalls: [{ id: 'c1', name: 'run_in_terminal', arguments: '{"command":"make","explanation":"build","isBackground":false}' }] }],
        toolCallResults: { c1: { content: [{ value: 'make: *** [all] Error 1' }] } } } } }] };
    const { sessions } = read(JSON.stringify(session), 'doc-4.json');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.id), ['c1']);
    assert.equal(s.calls[0].encoding, 'json-string');
    assert.equal(resultOf(s, 'c1')!.payload, 'make: *** [all] Error 1');
    assert.equal(resultOf(s, 'c1')!.transport.exitCode, 1);
  });
});

// ---- GitHub Copilot CLI: the shell's own exit line ---------------------------------------------------------------

describe('Copilot CLI shell results without a terminal block', () => {
  it('take the exit code from the closing `<exited with exit code N>` line, a background shell\'s too; other text is no exit code', () => {
    const ev = (id: string, type: string, data: Record<string, unknown>) => ({ type, data, id, timestamp: '2026-05-01T00:00:00Z' });
    const text = jsonl([
      ev('e1', 'session.start', { sessionId: 'cp-1', producer: 'copilot-agent', copilotVersion: '0.0.340' }),
      ev('e2', 'assistant.message', { content: '', toolRequests: [{ toolCallId: 'b1', name: 'bash', arguments: { command: 'make' } },
        { toolCallId: 'b2', name: 'bash', arguments: { command: 'sleep 1', async: true } }, { toolCallId: 'v1', name: 'view', arguments: { path: '/w/a' } }] }),
      ev('e3', 'tool.execution_complete', { toolCallId: 'b1', success: true, result: { content: 'make: *** Error 2\n<exited with exit code 2>' } }),
      ev('e4', 'tool.execution_complete', { toolCallId: 'b2', success: true, result: { content: 'done\n<shellId: 3 completed with exit code 0>' } }),
      ev('e5', 'tool.execution_complete', { toolCallId: 'v1', success: true, result: { content: 'the text says <exited with exit code 9> mid-file\nmore' } }),
    ]);
    const { r, sessions } = read(text, 'events.jsonl');
    assert.equal(r.format, 'copilot-cli');
    const [s] = sessions;
    assert.equal(resultOf(s, 'b1')!.transport.exitCode, 2);
    assert.equal(resultOf(s, 'b2')!.transport.exitCode, 0);
    assert.equal(resultOf(s, 'v1')!.transport.exitCode, undefined);
  });
});

// ---- Amp --stream-json -----------------------------------------------------------------------------------------

describe('Amp --stream-json output', () => {
  const sid = 'T-0a1b2c3d-0000-7000-8000-123456789abc';
  const msg = (type: 'assistant' | 'user', content: unknown[], extra: Record<string, unknown> = {}) => ({ type, message: { role: type, content }, parent_tool_use_id: null, session_id: sid, ...extra });

  it('reads calls and results of one thread, paired by tool_use_id, with is_error; a sub-agent is its own session', () => {
    const text = jsonl([
      { type: 'system', subtype: 'init', cwd: '/w', session_id: sid, tools: ['Bash', 'Read', 'Task'], mcp_servers: [] },
      msg('user', [{ type: 'text', text: 'list and read' }]),
      msg('assistant', [{ type: 'text', text: 'ok' }, { type: 'tool_use', id: 'tu1', name: 'Bash', input: { cmd: 'ls' } }, { type: 'tool_use', id: 'tu2', name: 'Task', input: { prompt: 'read it' } }]),
      msg('assistant', [{ type: 'tool_use', id: 'tu3', name: 'Read', input: { path: '/w/README.md' } }], { parent_tool_use_id: 'tu2' }),
      msg('user', [{ type: 'tool_result', tool_use_id: 'tu3', content: 'no such file', is_error: true }], { parent_tool_use_id: 'tu2' }),
      msg('user', [{ type: 'tool_result', tool_use_id: 'tu1', content: 'README.md\n', is_error: false }, { type: 'tool_result', tool_use_id: 'tu2', content: 'it is missing' }]),
      { type: 'result', subtype: 'success', is_error: false, num_turns: 2, result: 'done', session_id: sid },
    ]);
    const { r, sessions, codes } = read(text, 'run.jsonl');
    assert.equal(r.format, 'amp');
    const main = sessions.find((s) => s.id === sid)!;
    const sub = sessions.find((s) => s.id === `${sid}#task:tu2`)!;
    assert.deepEqual(main.calls.map((c) => c.name), ['Bash', 'Task']);
    assert.deepEqual(sub.calls.map((c) => c.name), ['Read']);
    assert.equal(resultOf(main, 'tu1')!.transport.isError, false);
    assert.equal(resultOf(sub, 'tu3')!.transport.isError, true);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('message lines without session_id are taken once the thread is known; a cut-off last line is one parse error', () => {
    const lines = jsonl([
      { type: 'system', subtype: 'init', session_id: sid },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'a1', name: 'Grep', input: { pattern: 'TODO' } }] } },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a1', content: 'src/a.ts:3' }] } },
    ]) + '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"a2"';
    const { r, sessions, codes } = read(lines, 'cut.jsonl');
    assert.equal(r.format, 'amp');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['a1']);
    assert.ok(resultOf(sessions[0], 'a1'));
    assert.ok(codes.includes('parse-error'), codes.join());
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('Claude Code stream-json (a uuid session id) is still Claude Code', () => {
    const cc = 'a6b0c8f2-1111-4222-8333-944455556666';
    const text = jsonl([
      { type: 'system', subtype: 'init', session_id: cc, tools: ['Bash'] },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'x1', name: 'Bash', input: { command: 'ls' } }] }, parent_tool_use_id: null, session_id: cc },
    ]);
    assert.notEqual(read(text, 'cc.jsonl').r.format, 'amp');
  });

  it('one rule tells an Amp thread id: a session id that merely starts with "T-" leaves the line Claude Code\'s', () => {
    const line = (session_id: string) => jsonl([{ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'x1', name: 'Bash',
      input: { command: 'ls' } }] }, parent_tool_use_id: null, session_id }]);
    assert.equal(read(line('T-1'), 'a.jsonl').r.format, 'claude-code');
    assert.equal(read(line('T-_x'), 'a.jsonl').r.format, 'claude-code');
    assert.equal(read(line(sid), 'a.jsonl').r.format, 'amp');
  });
});

// ---- Goose: the Results its tool blocks hold ------------------------------------------------------------------

describe('Goose tool blocks in other Result encodings', () => {
  const line = (role: string, content: unknown[]) => ({ type: 'message', message: { role, created: 1771715822, content } });

  it("serde's default `{Ok}` / `{Err}` reads like Goose's own `{status, value}`", () => {
    const text = jsonl([
      line('assistant', [{ type: 'toolRequest', id: 'g1', toolCall: { Ok: { name: 'developer__shell', arguments: { command: 'ls' } } } },
        { type: 'toolRequest', id: 'g2', toolCall: { Ok: { name: 'developer__shell', arguments: { command: 'cat nope' } } } }]),
      line('user', [{ type: 'toolResponse', id: 'g1', toolResult: { Ok: { content: [{ type: 'text', text: 'a\nb' }], isError: false } } },
        { type: 'toolResponse', id: 'g2', toolResult: { Err: 'Execution failed: no such file' } }]),
      { type: 'complete', total_tokens: 10 },
    ]);
    const { r, sessions } = read(text, 'run.jsonl');
    assert.equal(r.format, 'goose');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['developer__shell', { command: 'ls' }], ['developer__shell', { command: 'cat nope' }]]);
    assert.equal(resultOf(s, 'g1')!.transport.isError, false);
    assert.equal(resultOf(s, 'g2')!.transport.isError, true);
    assert.equal(resultOf(s, 'g2')!.payload, 'Execution failed: no such file');
    // an `{Err}` request (Goose could not parse the model's call) is no call
    const bad = read(jsonl([line('assistant', [{ type: 'toolRequest', id: 'x', toolCall: { Err: 'invalid json' } }, { type: 'text', text: 'hm' }])]), 'bad.jsonl');
    assert.equal(bad.sessions.reduce((n, s2) => n + s2.calls.length, 0), 0);
  });

  it('a request without a Result around it, one with `{value}` and no status, and a bare result string are read as they are', () => {
    const text = jsonl([
      line('assistant', [{ type: 'toolRequest', id: 't1', toolCall: { name: 'developer__shell', arguments: { command: 'echo hi' } } }]),
      line('user', [{ type: 'toolResponse', id: 't1', toolResult: 'hi' }]),
      line('assistant', [{ type: 'toolRequest', id: 't2', toolCall: { value: { name: 'sandbox_bash', arguments: { command: 'pwd' } } } }]),
      line('user', [{ type: 'toolResponse', id: 't2', toolResult: { value: { content: [{ type: 'text', text: '/w' }], isError: false } } }]),
    ]);
    const { r, sessions, codes } = read(text, 'doc.jsonl');
    assert.equal(r.format, 'goose');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.args), [{ command: 'echo hi' }, { command: 'pwd' }]);
    assert.equal(resultOf(s, 't1')!.payload, 'hi');
    assert.equal(resultOf(s, 't2')!.transport.isError, false);
    assert.ok(!codes.includes('orphan-call'), codes.join());
  });
});

// ---- Kiro CLI journal: a result without its id ----------------------------------------------------------------

describe('Kiro CLI journal results without toolUseId', () => {
  it('answer the earliest call still waiting, in order; results with ids still pair by id', () => {
    const rec = (kind: string, content: unknown[]) => ({ version: 'v1', kind, data: { message_id: kind, content } });
    const use = (id: string, name: string, input: unknown) => ({ kind: 'toolUse', data: { toolUseId: id, name, input } });
    const res = (text: string, id?: string) => ({ kind: 'toolResult', data: { ...(id ? { toolUseId: id } : {}), content: [{ kind: 'text', data: text }], status: 'success' } });
    const text = jsonl([
      rec('Prompt', [{ kind: 'text', data: 'look' }]),
      rec('AssistantMessage', [use('k1', 'read', { path: '/a' }), use('k2', 'read', { path: '/b' })]),
      rec('ToolResults', [res('A'), res('B')]),
      rec('AssistantMessage', [use('k3', 'shell', { command: 'ls' })]),
      rec('ToolResults', [res('ls out', 'k3')]),
    ]);
    const { r, sessions, codes } = read(text, 's.jsonl');
    assert.equal(r.format, 'kiro');
    const [s] = sessions;
    const payloadFor = (k: number) => s.results.find((x) => x.callIndex === k || (x.callId !== undefined && x.callId === s.calls[k].id))?.payload;
    assert.deepEqual([0, 1, 2].map(payloadFor), ['A', 'B', 'ls out']);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('a call answered by id ahead of its turn is passed over; a long journal of them reads in linear time', () => {
    const rec = (kind: string, content: unknown[]) => ({ version: 'v1', kind, data: { message_id: kind, content } });
    const use = (id: string) => ({ kind: 'toolUse', data: { toolUseId: id, name: 'read', input: { path: `/${id}` } } });
    const res = (text: string, id?: string) => ({ kind: 'toolResult', data: { ...(id ? { toolUseId: id } : {}), content: [{ kind: 'text', data: text }], status: 'success' } });
    const { sessions } = read(jsonl([
      rec('AssistantMessage', [use('k1'), use('k2'), use('k3')]),
      rec('ToolResults', [res('B', 'k2'), res('A'), res('C')]),
    ]), 's.jsonl');
    const [s] = sessions;
    assert.deepEqual(s.results.map((x) => x.callId ?? x.callIndex), ['k2', 0, 2]);
    // each result without an id used to rescan the whole session: 20000 of them took about a minute
    const big: unknown[] = [];
    for (let i = 0; i < 20000; i++) big.push(rec('AssistantMessage', [use(`k${i}`)]), rec('ToolResults', [res('x')]));
    const t0 = Date.now();
    const long = read(jsonl(big), 's.jsonl').sessions[0];
    assert.equal(long.results.length, 20000);
    assert.equal(long.results[19999].callIndex, 19999);
    assert.ok(Date.now() - t0 < 30000, `${Date.now() - t0} ms`);
  });
});

// ---- Open Interpreter streams: content on the flag chunks -------------------------------------------------------

describe('Open Interpreter stream chunks whose start flag carries content', () => {
  it('the first piece of code on the start chunk is part of the call; output on its start chunk is part of the result', () => {
    const text = jsonl([
      { role: 'assistant', type: 'message', content: 'Running', start: true },
      { role: 'assistant', type: 'message', content: ' it.', end: true },
      { role: 'assistant', type: 'code', format: 'python', content: "print('a')", start: true },
      { role: 'assistant', type: 'code', format: 'python', content: "\nprint('b')" },
      { role: 'assistant', type: 'code', format: 'python', content: '', end: true },
      { role: 'computer', type: 'console', content: 'a\n', start: true },
      { role: 'computer', type: 'console', format: 'output', content: 'b\n' },
      { role: 'computer', type: 'console', content: '', end: true },
    ]);
    const { r, sessions } = read(text, 'oi.jsonl');
    assert.equal(r.format, 'open-interpreter');
    const [s] = sessions;
    assert.equal(s.calls.length, 1);
    assert.equal(s.calls[0].args, "print('a')\nprint('b')");
    assert.equal(s.results[0].payload, 'a\nb\n');
  });
});
