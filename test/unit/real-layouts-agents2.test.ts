// Layouts of coding-agent and chat-app logs found in real files (and in the agents' own sources), second round:
// VS Code chat session logs (the mutation log), and the other layouts listed in each describe. Every trace here is
// small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spanOf } from '../../src/core';
import { readModel } from './helpers';

function read(text: string, fileName?: string, readAs?: string) {
  return readModel(text, { fileName, readAs });
}

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** The line (1-based) of the file an offset is on. */
const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

// ---- VS Code chat session logs (chatSessions/<id>.jsonl) ------------------------------------------------------

const round = (id: string, calls: [string, string, unknown][]) => ({ id, response: '', toolCalls: calls.map(([cid, name, args]) => ({ id: cid, name, arguments: JSON.stringify(args) })) });
const results = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, { $mid: 20, content: [{ $mid: 21, value: `out of ${id}` }] }]));

describe('VS Code chat session logs', () => {
  it('replays the log: requests pushed later, each result set later, calls anchored on the line that wrote them', () => {
    const lines = [
      { kind: 0, v: { version: 3, sessionId: 'sess-9', creationDate: 1, requests: [] } },
      { kind: 1, k: ['customTitle'], v: 'a title' },
      { kind: 2, k: ['requests'], v: [{ requestId: 'request_1', message: { text: 'look' }, response: [] }] },
      { kind: 2, k: ['requests', 0, 'response'], v: [{ kind: 'toolInvocationSerialized', toolCallId: 'c1', toolId: 'copilot_readFile', isComplete: true }] },
      { kind: 1, k: ['requests', 0, 'result'], v: { metadata: { toolCallRounds: [round('r1', [['c1', 'read_file', { filePath: '/w/a.ts', startLine: 1, endLine: 9 }]])], toolCallResults: results(['c1']) } } },
      { kind: 2, k: ['requests'], v: [{ requestId: 'request_2', message: { text: 'run' }, response: [], result: { metadata: { toolCallRounds: [round('r2', [['c2', 'run_in_terminal', { command: 'ls' }], ['c3', 'run_in_terminal', { command: 'pwd' }]])], toolCallResults: results(['c2', 'c3']) } } }] },
    ];
    const text = jsonl(lines);
    const { r, sessions, codes } = read(text, 'sess-9.jsonl');
    assert.equal(r.format, 'copilot-cli');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.equal(s.id, 'sess-9');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['read_file', 'c1', 1], ['run_in_terminal', 'c2', 2], ['run_in_terminal', 'c3', 2]]);
    assert.deepEqual(s.calls[0].args, { filePath: '/w/a.ts', startLine: 1, endLine: 9 });
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['c1', 'out of c1'], ['c2', 'out of c2'], ['c3', 'out of c3']]);
    // the first call was written by line 5, the others by line 6
    assert.deepEqual(s.calls.map((c) => lineOf(text, spanOf(c.nameAt).start)), [5, 6, 6]);
    assert.equal(text.slice(spanOf(s.calls[0].nameAt).start, spanOf(s.calls[0].nameAt).end), '"read_file"');
    const args = spanOf(s.calls[1].argsAt);
    assert.ok(text.slice(args.start, args.end).includes('ls'), 'arguments point at the call of line 6');
    assert.ok(!codes.some((c) => c.startsWith('orphan') || c === 'read-by-shape'), codes.join());
  });

  it('a push with `i` cuts the array first: a request replaced by a retry keeps only the retry\'s calls', () => {
    const text = jsonl([
      { kind: 0, v: { version: 3, sessionId: 's', requests: [] } },
      { kind: 2, k: ['requests'], v: [{ requestId: 'q1', message: { text: 'a' }, response: [], result: { metadata: { toolCallRounds: [round('r', [['old', 'grep_search', { query: 'x' }]])] } } }] },
      { kind: 2, k: ['requests'], i: 0, v: [{ requestId: 'q1b', message: { text: 'a again' }, response: [] }] },
      { kind: 1, k: ['requests', 0, 'result'], v: { metadata: { toolCallRounds: [round('r', [['new', 'file_search', { query: '*.ts' }]])], toolCallResults: results(['new']) } } },
      { kind: 3, k: ['customTitle'] },
    ]);
    const { sessions } = read(text, 's.jsonl');
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['new']);
    assert.equal(sessions[0].results.length, 1);
  });

  it('a set inside a request the first line held changes that request, and bad entries are skipped', () => {
    const text = jsonl([
      { kind: 0, v: { version: 3, sessionId: 's', requests: [{ requestId: 'q1', message: { text: 'a' }, response: [] }] } },
      { kind: 1, k: ['requests', 5, 'result'], v: { metadata: {} } }, // no such request: skipped
      { kind: 1, k: ['requests', 0, 'result'], v: { metadata: { toolCallRounds: [round('r', [['c', 'list_dir', { path: '/w' }]])] } } },
      { kind: 1, k: ['requests', 0, 'result', 'metadata', 'toolCallResults'], v: results(['c']) },
    ]);
    const { r, sessions } = read(text, 's.jsonl');
    assert.equal(r.format, 'copilot-cli');
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['list_dir']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.payload]), [['c', 'out of c']]);
    assert.equal(lineOf(text, spanOf(sessions[0].results[0].at).start), 4);
  });

  it('a log whose requests made no tool call reads as that format with no calls, not as unknown', () => {
    const text = jsonl([
      { kind: 0, v: { version: 3, sessionId: 's', requests: [] } },
      { kind: 2, k: ['requests'], v: [{ requestId: 'q1', message: { text: 'hi' }, response: [{ value: 'hello' }] }] },
      { kind: 1, k: ['requests', 0, 'result'], v: {} },
    ]);
    const { r, sessions } = read(text, 's.jsonl');
    assert.equal(r.format, 'copilot-cli');
    assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
  });
});

// ---- Continue sessions (~/.continue/sessions/<id>.json) --------------------------------------------------------

const cUser = (content: unknown) => ({ message: { role: 'user', content }, contextItems: [] });
const cCall = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

describe('Continue sessions', () => {
  it('reads toolCalls of assistant items, results from their toolCallStates, the tool message a copy', () => {
    const doc = {
      sessionId: 'cs-1', title: 'rename', workspaceDirectory: '/w',
      history: [
        cUser('rename foo'),
        { message: { role: 'assistant', content: 'on it', toolCalls: [cCall('t1', 'read_file', { filepath: 'a.py' }), cCall('t2', 'run_terminal_command', { command: 'false' })] }, contextItems: [],
          toolCallStates: [
            { toolCallId: 't1', toolCall: cCall('t1', 'read_file', { filepath: 'a.py' }), status: 'done', parsedArgs: { filepath: 'a.py' }, output: [{ name: 'a.py', description: '', content: 'def foo(): pass' }] },
            { toolCallId: 't2', toolCall: cCall('t2', 'run_terminal_command', { command: 'false' }), status: 'errored', parsedArgs: {}, output: [{ name: 'Terminal', description: '', content: 'exit 1' }] },
          ] },
        { message: { role: 'tool', content: 'def foo(): pass', toolCallId: 't1' }, contextItems: [] },
        { message: { role: 'tool', content: 'exit 1', toolCallId: 't2' }, contextItems: [] },
        { message: { role: 'assistant', content: 'renamed' }, contextItems: [] },
      ],
    };
    const { r, sessions, codes } = read(JSON.stringify(doc), 'cs-1.json');
    assert.equal(r.format, 'continue');
    const [s] = sessions;
    assert.equal(s.id, 'cs-1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn, c.encoding]), [['read_file', 't1', 1, 'json-string'], ['run_terminal_command', 't2', 1, 'json-string']]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload, x.transport]), [['t1', 'def foo(): pass', { isError: false }], ['t2', 'exit 1', { isError: true }]]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('the CLI writes no tool message: the state answers; a call still generating has no result', () => {
    const doc = {
      sessionId: 'cli-1', title: 'Untitled Session', workspaceDirectory: '/w',
      history: [
        { message: { role: 'user', content: 'list' } },
        { message: { role: 'assistant', content: '', toolCalls: [cCall('call_a', 'Bash', { command: 'ls' })] }, toolCallStates: [{ toolCallId: 'call_a', status: 'done', output: [{ content: 'a.rs', name: 'Tool Result' }] }] },
        { message: { role: 'assistant', content: '', toolCalls: [cCall('call_b', 'Read', { filepath: 'a.rs' })] }, toolCallStates: [{ toolCallId: 'call_b', status: 'calling' }] },
      ],
    };
    const { r, sessions } = read(JSON.stringify(doc), 'cli-1.json');
    assert.equal(r.format, 'continue');
    assert.deepEqual(sessions[0].calls.map((c) => [c.id, c.turn]), [['call_a', 1], ['call_b', 2]]);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_a']);
  });

  it('an older single toolCallState without ids (Kiro IDE) holds the call and pairs by position', () => {
    const doc = {
      sessionId: 'k-1', title: 'write', workspacePath: '/w',
      history: [
        cUser([{ type: 'text', text: 'write it' }]),
        { message: { role: 'assistant', content: 'On it.' }, toolCallState: { toolCall: { function: { name: 'fsWrite', arguments: '{"path":"a.rs"}' } }, output: [{ content: 'written' }] } },
      ],
    };
    const { r, sessions, codes } = read(JSON.stringify(doc), 'k-1.json');
    assert.equal(r.format, 'continue');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['fsWrite', { path: 'a.rs' }]]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, x.payload]), [[0, 'written']]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });
});

// ---- Gemini CLI chat recordings ----------------------------------------------------------------------------

describe('Gemini CLI chat recordings', () => {
  it('a call that finished with no recorded `result` (cli_help, a subagent) is answered by what it showed', () => {
    const doc = {
      sessionId: 'g-1', projectHash: 'p', startTime: '2026-03-02T04:30:20.796Z', lastUpdated: '2026-03-02T04:33:13.631Z',
      messages: [
        { id: 'u1', timestamp: '2026-03-02T04:30:20.796Z', type: 'user', content: [{ text: 'help' }] },
        { id: 'a1', timestamp: '2026-03-02T04:31:00.000Z', type: 'gemini', content: '', toolCalls: [
          { id: 'cli_help-1', name: 'cli_help', args: { question: 'what' }, resultDisplay: 'it answers', status: 'success' },
          { id: 'investigator-1', name: 'codebase_investigator', args: { objective: 'map' }, resultDisplay: 'Subagent failed', status: 'error' },
          { id: 'run-1', name: 'run_shell_command', args: { command: 'ls' }, status: 'executing' },
        ] },
      ],
    };
    const { r, sessions, codes } = read(JSON.stringify(doc), 'session-2026-03-02.json');
    assert.equal(r.format, 'gemini-cli');
    const [s] = sessions;
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload, x.transport]), [['cli_help-1', 'it answers', { isError: false }], ['investigator-1', 'Subagent failed', { isError: true }]]);
    // the executing call has no result: it is the only one left open
    assert.equal(codes.filter((c) => c === 'orphan-call').length, 1, codes.join());
  });
});

// ---- Amp threads (~/.local/share/amp/threads/T-<uuid>.json) ----------------------------------------------------

describe('Amp threads', () => {
  const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input, complete: true });
  const res = (id: string, run: unknown) => ({ type: 'tool_result', toolUseID: id, run });
  it('pairs tool_result blocks by toolUseID; run.status says how each ended', () => {
    const thread = {
      v: 3, id: 'T-0a1b2c3d-0000-4000-8000-000000000001', created: 1767865803494, title: 't',
      messages: [
        { role: 'user', messageId: 0, content: [{ type: 'text', text: 'test it' }] },
        { role: 'assistant', messageId: 1, content: [{ type: 'text', text: 'running' }, use('toolu_a', 'Bash', { cmd: 'npm test' }), use('toolu_b', 'Read', { path: '/w/a' })], state: { type: 'complete', stopReason: 'tool_use' } },
        { role: 'user', messageId: 2, content: [res('toolu_a', { status: 'done', result: { output: '1 failing', exitCode: 1 } }), res('toolu_b', { status: 'error', error: { message: 'no such file' } })] },
        { role: 'assistant', messageId: 3, content: [use('toolu_c', 'edit_file', { path: '/w/a', old_str: 'x', new_str: 'y' })] },
        { role: 'user', messageId: 4, content: [res('toolu_c', { status: 'rejected-by-user', reason: 'no' })] },
        { role: 'info', messageId: 5, content: [{ type: 'summary', summary: { type: 'message', summary: 'short' } }] },
        { role: 'assistant', messageId: 6, content: [use('toolu_d', 'Bash', { cmd: 'sleep 9' })] },
        { role: 'user', messageId: 7, content: [res('toolu_d', { status: 'in-progress' })] },
      ],
    };
    const { r, sessions, codes } = read(JSON.stringify(thread), 'T-0a1b2c3d-0000-4000-8000-000000000001.json');
    assert.equal(r.format, 'amp');
    const [s] = sessions;
    assert.equal(s.id, thread.id);
    assert.deepEqual(s.calls.map((c) => [c.id, c.turn]), [['toolu_a', 1], ['toolu_b', 1], ['toolu_c', 2], ['toolu_d', 3]]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [['toolu_a', { isError: false, exitCode: 1 }], ['toolu_b', { isError: true }], ['toolu_c', { isError: true }]]);
    assert.deepEqual(s.results[1].payload, { message: 'no such file' });
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });
});

// ---- Open Interpreter (LMC messages) ----------------------------------------------------------------------

describe('Open Interpreter conversations', () => {
  it('a saved conversation: code messages are calls named by their language, the console output their result', () => {
    const conv = [
      { role: 'user', type: 'message', content: 'count the files' },
      { role: 'assistant', type: 'message', content: 'Counting.' },
      { role: 'assistant', type: 'code', format: 'shell', content: 'ls | wc -l' },
      { role: 'computer', type: 'console', format: 'output', content: '12\n' },
      { role: 'assistant', type: 'code', format: 'python', content: 'import os; os.remove("a")' },
      { role: 'user', type: 'message', content: '[User declined to run this code.]' },
      { role: 'assistant', type: 'message', content: 'Not removed.' },
    ];
    const { r, sessions } = read(JSON.stringify(conv), 'count__2026.json');
    assert.equal(r.format, 'open-interpreter');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.args, c.encoding, c.turn]), [['shell', 'ls | wc -l', 'freeform', 1], ['python', 'import os; os.remove("a")', 'freeform', 2]]);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.payload, x.transport]), [[0, '12\n', {}], [1, '[User declined to run this code.]', { isError: true }]]);
  });

  it('a stream: code chunks between start and end are one call, console output chunks one result, active lines skipped', () => {
    const text = jsonl([
      { role: 'assistant', type: 'code', format: 'python', start: true },
      { role: 'assistant', type: 'code', format: 'python', content: 'print(' },
      { role: 'assistant', type: 'code', format: 'python', content: '1)' },
      { role: 'assistant', type: 'code', format: 'python', end: true },
      { role: 'computer', type: 'console', start: true },
      { role: 'computer', type: 'console', format: 'active_line', content: '1' },
      { role: 'computer', type: 'console', format: 'output', content: '1' },
      { role: 'computer', type: 'console', format: 'output', content: '\n' },
      { role: 'computer', type: 'console', format: 'active_line', content: null },
      { role: 'computer', type: 'console', end: true },
      { role: 'assistant', type: 'message', content: 'done' },
    ]);
    const { r, sessions } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'open-interpreter');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['python', 'print(1)']]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, x.payload]), [[0, '1\n']]);
    assert.equal(lineOf(text, spanOf(sessions[0].calls[0].at).start), 2);
  });

  it('a Responses JSONL opening with a plain user message is not taken for one (the same three keys)', () => {
    const text = jsonl([
      { type: 'message', role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'ok' },
    ]);
    const { r, sessions } = read(text, 'items.jsonl');
    assert.equal(r.format, 'openai-responses');
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].results.length, 1);
  });
});
