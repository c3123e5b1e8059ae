// Coding-agent layouts met in real files (round three, coding1): the `codex exec --json` event stream of codex-rs
// before its thread events (`{id, msg}` protocol events), claude.ai / Claude Desktop data exports
// (`conversations.json`), and Cursor Agent's MCP tool calls. Every trace here is small and written for the test
// from the formats' rules.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkText, type Session } from '../../src/core';
import { checkFile } from '../../src/cli/stream';

function read(text: string, fileName: string, packs = false) {
  const r = checkText(text, { fileName, keepModel: true, packs });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const codes = r.findings.map((f) => f.code);
  return { r, sessions, codes };
}

const lines = (...v: object[]) => v.map((x) => JSON.stringify(x)).join('\n');
const ev = (msg: object) => ({ id: '0', msg });

// ---- Codex: `codex exec --json` before the thread events ----------------------------------------------------------

const legacyRun = lines(
  { model: 'o4-mini', workdir: '/src/app', sandbox: 'workspace-write', approval: 'never', provider: 'openai' },
  { prompt: 'fix the failing test' },
  ev({ type: 'session_configured', session_id: '7f3e9a2c-1b4d-4c8e-a0f5-6d2b8e1c9a77', model: 'o4-mini', history_log_id: 1, history_entry_count: 0 }),
  ev({ type: 'task_started' }),
  ev({ type: 'agent_reasoning', text: 'run the tests first' }),
  ev({ type: 'exec_command_begin', call_id: 'call_t1', command: ['bash', '-lc', "npm test -- --grep 'parser'"], cwd: '/src/app' }),
  ev({ type: 'exec_command_end', call_id: 'call_t1', stdout: '1 failing\n', stderr: '', exit_code: 1 }),
  ev({ type: 'patch_apply_begin', call_id: 'call_p1', auto_approved: true, changes: { '/src/app/parser.ts': { update: { unified_diff: '@@ -1 +1 @@\n-a\n+b\n', move_path: null } } } }),
  ev({ type: 'patch_apply_end', call_id: 'call_p1', stdout: '', stderr: 'hunk failed to apply', success: false }),
  ev({ type: 'mcp_tool_call_begin', call_id: 'call_m1', invocation: { server: 'docs', tool: 'lookup', arguments: { topic: 'parser' } } }),
  ev({ type: 'mcp_tool_call_end', call_id: 'call_m1', invocation: { server: 'docs', tool: 'lookup', arguments: { topic: 'parser' } }, result: { Ok: { content: [{ type: 'text', text: 'no such topic' }], isError: true } } }),
  ev({ type: 'web_search_end', call_id: 'ws_1', query: 'mocha grep option' }),
  ev({ type: 'agent_message', message: 'the patch did not apply' }),
  ev({ type: 'task_complete', last_agent_message: 'the patch did not apply' }),
);

describe('real layouts (coding1): codex exec --json before the thread events', () => {
  it('begin/end event pairs are the calls and their outcomes, paired by call_id', () => {
    const { r, sessions, codes } = read(legacyRun, 'codex-exec.jsonl');
    assert.equal(r.format, 'codex');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.equal(s.id, '7f3e9a2c-1b4d-4c8e-a0f5-6d2b8e1c9a77');
    assert.deepEqual(s.calls.map((c) => c.name), ['command_execution', 'file_change', 'mcp__docs__lookup', 'web_search']);
    // the argv is the command line the newer thread events report, quoted where the shell needs it
    assert.equal(s.calls[0].args, "bash -lc 'npm test -- --grep '\\''parser'\\'''");
    assert.equal(s.calls[0].encoding, 'freeform');
    assert.deepEqual(s.calls[2].args, { topic: 'parser' });
    // the search ran on the server: its end event is both the call and its outcome
    assert.deepEqual(s.results.map((x) => [x.callId ?? x.callIndex, x.transport.exitCode, x.transport.isError]),
      [['call_t1', 1, undefined], ['call_p1', undefined, true], ['call_m1', undefined, true], [3, undefined, false]]);
    assert.equal(s.results[0].payload, '1 failing\n');
    assert.equal(s.results[1].payload, 'hunk failed to apply');
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
    assert.ok(!codes.includes('duplicate-fingerprint'), codes.join());
  });

  it('the Codex pack takes the older patch map and checks nothing false on the run', () => {
    const { codes } = read(legacyRun, 'codex-exec.jsonl', true);
    assert.ok(!codes.includes('type-drift') && !codes.includes('arguments-encoding') && !codes.includes('extra-key'), codes.join());
  });

  it('an MCP end event whose begin the capture lost is the call too; a begin with no end stays unanswered', () => {
    const text = lines(
      ev({ type: 'task_started' }),
      ev({ type: 'mcp_tool_call_end', call_id: 'call_x', invocation: { server: 'fs', tool: 'read', arguments: { path: 'a' } }, result: { Err: 'server closed' } }),
      ev({ type: 'exec_command_begin', call_id: 'call_y', command: ['ls'], cwd: '/' }),
    );
    const { r, sessions, codes } = read(text, 'cut.jsonl');
    assert.equal(r.format, 'codex');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id]), [['mcp__fs__read', 'call_x'], ['command_execution', 'call_y']]);
    assert.equal(sessions[0].calls[1].args, 'ls');
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError, x.payload]), [['call_x', true, 'server closed']]);
    assert.ok(codes.includes('orphan-call'));
  });

  it('lines of another shape with a `msg` are not taken for Codex events', () => {
    const { r } = read(lines({ id: '1', msg: { type: 'hello' } }, { id: '2', msg: { type: 'bye' } }), 'chat.jsonl');
    assert.notEqual(r.format, 'codex');
  });
});

// ---- Codex: the app-server's notifications, `codex mcp-server` events, the TypeScript CLI's session files ------

const note = (method: string, params: object) => ({ method, params });

describe('real layouts (coding1): Codex servers and the TypeScript CLI', () => {
  it('app-server item notifications (camelCase items) are read like the exec stream: first copy the call, completed copy the outcome', () => {
    const cmd = { type: 'commandExecution', id: 'exec-1', command: "/bin/bash -lc 'make test'", cwd: '/w', processId: null, status: 'inProgress', commandActions: [], aggregatedOutput: null, exitCode: null, durationMs: null };
    const fc = { type: 'fileChange', id: 'call_fc', changes: [{ path: '/w/a.txt', kind: { type: 'update', move_path: null }, diff: '@@' }], status: 'inProgress' };
    const text = lines(
      note('turn/started', { threadId: 'th-9', turn: { id: 't1', items: [], status: 'inProgress' } }),
      note('item/started', { threadId: 'th-9', turnId: 't1', item: cmd }),
      note('item/completed', { threadId: 'th-9', turnId: 't1', item: { ...cmd, status: 'failed', aggregatedOutput: 'FAIL\n', exitCode: 2, durationMs: 5 } }),
      note('item/started', { threadId: 'th-9', turnId: 't1', item: fc }),
      note('item/completed', { threadId: 'th-9', turnId: 't1', item: { ...fc, status: 'declined' } }),
      note('item/completed', { threadId: 'th-9', turnId: 't1', item: { type: 'mcpToolCall', id: 'mcp-1', server: 'echo', tool: 'echo', status: 'completed', arguments: { text: 'ping' }, result: { content: [{ type: 'text', text: 'ping' }] }, error: null } }),
      note('item/completed', { threadId: 'th-9', turnId: 't1', item: { type: 'agentMessage', id: 'msg_1', text: 'done' } }),
      note('turn/completed', { threadId: 'th-9', turn: { id: 't1', items: [], status: 'completed' } }),
    );
    const { r, sessions, codes } = read(text, 'app-server.jsonl', true);
    assert.equal(r.format, 'codex');
    const s = sessions[0];
    assert.equal(s.id, 'th-9');
    assert.deepEqual(s.calls.map((c) => c.name), ['command_execution', 'file_change', 'mcp__echo__echo']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [['exec-1', { exitCode: 2, isError: true }], ['call_fc', { isError: true }], ['mcp-1', { isError: false }]]);
    assert.equal(s.results[0].payload, 'FAIL\n');
    // a patch's arguments are its changes, an object like every call's (the pack checks the list inside)
    assert.deepEqual(Object.keys(s.calls[1].args as object), ['changes']);
    assert.ok(!codes.includes('arguments-encoding') && !codes.includes('type-drift') && !codes.includes('extra-key'), codes.join());
  });

  it('a moved file\'s `kind` in either spelling (move_path, movePath) keeps the pack quiet; another key does not', () => {
    const moved = (kind: object) => lines(note('item/completed', { threadId: 'th-9', turnId: 't1', item: { type: 'fileChange', id: 'call_mv',
      changes: [{ path: '/w/a.txt', kind, diff: '' }], status: 'completed' } }));
    for (const kind of [{ type: 'update', move_path: '/w/b.txt' }, { type: 'update', movePath: '/w/b.txt' }]) {
      const { r, codes } = read(moved(kind), 'app-server.jsonl', true);
      assert.equal(r.format, 'codex');
      assert.deepEqual(codes, [], JSON.stringify(kind));
    }
    assert.deepEqual(read(moved({ type: 'update', moved_to: '/w/b.txt' }), 'app-server.jsonl', true).codes, ['constraint']);
  });

  it('`codex mcp-server` codex/event notifications are the core events; the tools/call around them stays an MCP call', () => {
    const evn = (msg: object) => ({ jsonrpc: '2.0', method: 'codex/event', params: { id: 'sub_1', msg, _meta: { requestId: 1 } } });
    const text = lines(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'list the files' } } },
      evn({ type: 'exec_command_begin', call_id: 'call_1', command: ['ls', '-a'], cwd: '/w' }),
      evn({ type: 'exec_command_end', call_id: 'call_1', stdout: '.\n..\n', stderr: '', aggregated_output: '.\n..\n', exit_code: 0 }),
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } },
    );
    // (the file holds both readers' lines: each reads its own, into sessions of its own)
    const { sessions, codes } = read(text, 'mcp-server.jsonl');
    const all = sessions.flatMap((s) => s.calls.map((c) => [c.name, c.args]));
    assert.deepEqual(all.sort(), [['codex', { prompt: 'list the files' }], ['command_execution', 'ls -a']].sort());
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('a TypeScript CLI session file ({session, items}) is a Codex rollout: the pack applies, the old exit code is read', () => {
    const text = JSON.stringify({
      session: { timestamp: '2025-04-18T08:00:00.000Z', id: 'c9d1', instructions: '' },
      items: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'build it' }] },
        { type: 'function_call', id: 'fc_1', status: 'completed', name: 'shell', arguments: JSON.stringify({ command: ['make'], workdir: '/w' }), call_id: 'call_1' },
        { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: 'error 2', metadata: { exit_code: 2, duration_seconds: 1 } }) },
      ],
    }, null, 2);
    const { r, sessions } = read(text, 'rollout-2025-04-18-c9d1.json', true);
    assert.equal(r.format, 'codex');
    assert.equal(sessions[0].id, 'c9d1');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['shell', { command: ['make'], workdir: '/w' }]]);
    assert.equal(sessions[0].results[0].transport.exitCode, 2);
  });
});

// ---- claude.ai / Claude Desktop data exports ----------------------------------------------------------------------

const toolUse = (id: string, name: string, input: object) =>
  ({ start_timestamp: '2026-03-01T10:00:01Z', stop_timestamp: '2026-03-01T10:00:02Z', flags: null, type: 'tool_use', id, name, input, message: 'Working', integration_name: null, display_content: null });
const toolResult = (id: string, name: string, isError: boolean, text: string) =>
  ({ start_timestamp: '2026-03-01T10:00:03Z', stop_timestamp: '2026-03-01T10:00:03Z', flags: null, type: 'tool_result', tool_use_id: id, name, content: [{ type: 'text', text }], is_error: isError, message: null, display_content: null });
const human = (uuid: string, text: string) =>
  ({ uuid, text, content: [{ type: 'text', text, citations: [] }], sender: 'human', created_at: '2026-03-01T10:00:00Z', attachments: [], files: [], parent_message_uuid: '00000000-0000-4000-8000-000000000000' });
const assistant = (uuid: string, content: object[]) => ({ uuid, text: '', content, sender: 'assistant', created_at: '2026-03-01T10:00:04Z', attachments: [], files: [], parent_message_uuid: 'p' });

describe('real layouts (coding1): claude.ai data exports', () => {
  it('conversations.json: one session per conversation, the app tools paired by tool_use_id, is_error read', () => {
    const conversations = [
      { uuid: 'conv-a', name: 'Trip', created_at: '2026-03-01T10:00:00Z', updated_at: '2026-03-01T10:05:00Z', account: { uuid: 'acc' }, chat_messages: [
        human('m1', 'find flights'),
        assistant('m2', [
          { type: 'text', text: 'Searching.' },
          toolUse('toolu_a1', 'web_search', { query: 'flights OSL LIS' }),
          toolResult('toolu_a1', 'web_search', false, 'results'),
          toolUse('toolu_a2', 'web_fetch', { url: 'https://example.com/f' }),
          toolResult('toolu_a2', 'web_fetch', true, 'PERMISSIONS_ERROR'),
          { type: 'text', text: 'Could not open the page.' },
        ]),
      ] },
      { uuid: 'conv-b', name: 'Hello', created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z', account: { uuid: 'acc' }, chat_messages: [human('m3', 'hi'), assistant('m4', [{ type: 'text', text: 'hello' }])] },
    ];
    for (const text of [JSON.stringify(conversations), JSON.stringify(conversations, null, 2)]) {
      const { r, sessions, codes } = read(text, 'conversations.json');
      assert.equal(r.format, 'claude-code');
      // (a session without calls has nothing to check and is not counted)
      assert.deepEqual(sessions.map((s) => [s.id, s.calls.length]), [['conv-a', 2]]);
      const a = sessions[0];
      assert.deepEqual(a.calls.map((c) => [c.name, c.id]), [['web_search', 'toolu_a1'], ['web_fetch', 'toolu_a2']]);
      assert.deepEqual(a.calls[1].args, { url: 'https://example.com/f' });
      assert.deepEqual(a.results.map((x) => [x.callId, x.transport.isError]), [['toolu_a1', false], ['toolu_a2', true]]);
      assert.ok(!codes.includes('read-by-shape') && !codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
    }
  });

  it('one conversation alone, and older messages that hold only their text', () => {
    const conv = { uuid: 'conv-c', name: 'Old', chat_messages: [{ uuid: 'o1', sender: 'human', text: 'hello' }, { uuid: 'o2', sender: 'assistant', text: 'hi there' }] };
    const { r, sessions, codes } = read(JSON.stringify(conv), 'conversation.json');
    assert.equal(r.format, 'claude-code');
    assert.equal(sessions.reduce((n, x) => n + x.calls.length, 0), 0);
    assert.ok(!codes.includes('unknown-format'), codes.join());
  });
});

// ---- Claude Code stream-json with message lines whose envelope was cut away -------------------------------------

describe('real layouts (coding1): Claude Code lines without an envelope', () => {
  it('a bare {type, message} line continues the Claude Code log it sits in (not another reader\'s)', () => {
    const sid = '4e1d9b20';
    const text = lines(
      { type: 'system', subtype: 'init', session_id: sid, model: 'claude-sonnet-4-5', claude_code_version: '2.1.0', uuid: 'i0' },
      { type: 'assistant', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] }, parent_tool_use_id: null, session_id: sid, uuid: 'a1' },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.go' }] }, parent_tool_use_id: null, session_id: sid, uuid: 'u1' },
      { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: '/w/a.go' } }] } },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'package main', is_error: false }] } },
      { type: 'result', subtype: 'success', is_error: false, num_turns: 2, session_id: sid, uuid: 'r1' },
    );
    const { r, sessions, codes } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'claude-code');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['Bash', 'Read']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['toolu_1', 'toolu_2']);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });
});

// ---- Qwen Code records copied without their uuid ----------------------------------------------------------------

describe('real layouts (coding1): Qwen Code records without uuid', () => {
  it('Gemini content under the record envelope is Qwen\'s even when the copy dropped `uuid` (it read as Claude Code, 0 calls)', () => {
    const text = lines(
      { sessionId: 'q-7', timestamp: '2026-09-08T06:21:00.000Z', type: 'user', cwd: '/w', message: { role: 'user', parts: [{ text: 'build it' }] } },
      { sessionId: 'q-7', timestamp: '2026-09-08T06:21:10.000Z', type: 'assistant', cwd: '/w', message: { role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'run_shell_command', args: { command: 'go build ./...' } } }] } },
      { sessionId: 'q-7', timestamp: '2026-09-08T06:21:20.000Z', type: 'tool_result', cwd: '/w', message: { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'run_shell_command', response: { error: 'Exit Code: 1' } } }] }, toolCallResult: { callId: 'call_1', status: 'error' } },
    );
    const { r, sessions } = read(text, 'q-7.jsonl');
    assert.equal(r.format, 'qwen-code');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['run_shell_command', { command: 'go build ./...' }]]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError]), [['call_1', true]]);
  });
});

// ---- A session log whose records are pretty-printed one after another, named .jsonl -------------------------------

describe('real layouts (coding1): pretty-printed records in a .jsonl file', () => {
  it('the CLI reads it as checkText does (it was read line by line: parse errors, 0 calls)', async () => {
    const rec = (uuid: string, type: string, content: unknown) =>
      ({ parentUuid: null, isSidechain: false, userType: 'external', cwd: '/p', sessionId: 'S-pretty', version: '1.0.3', type, message: { role: type, content }, uuid, timestamp: '2025-05-26T07:27:40.079Z' });
    const text = [
      rec('u1', 'user', 'add a config file'),
      rec('a1', 'assistant', [{ type: 'tool_use', id: 'toolu_1', name: 'LS', input: { path: '/p' } }]),
      rec('u2', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '- /p/' }]),
    ].map((r) => JSON.stringify(r, null, 4)).join('\n') + '\n';
    const dir = mkdtempSync(join(tmpdir(), 'cg-coding1-'));
    try {
      const file = join(dir, 'session.jsonl');
      writeFileSync(file, text);
      const { result } = await checkFile(file, {});
      const whole = checkText(text, { fileName: file });
      assert.equal(result.format, 'claude-code');
      assert.equal(result.calls, 1);
      assert.equal(result.calls, whole.calls);
      assert.ok(!result.findings.some((f) => f.code === 'parse-error'), result.findings.map((f) => f.code).join());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---- Cursor Agent: MCP tool calls -----------------------------------------------------------------------------------

describe('real layouts (coding1): Cursor Agent MCP calls', () => {
  it('an mcpToolCall is the server tool `toolName` with the inner args; a rejection is an honest failure', () => {
    const sid = 'c0ffee00-1111-2222-3333-444455556666';
    const text = lines(
      { type: 'system', subtype: 'init', session_id: sid, model: 'Auto', cwd: '/w', permissionMode: 'default' },
      { type: 'tool_call', subtype: 'started', call_id: 'tool_1', session_id: sid,
        tool_call: { mcpToolCall: { args: { name: 'tracker-get_issue', args: { key: 'ABC-1' }, toolCallId: 'tool_1', providerIdentifier: 'tracker', toolName: 'get_issue' } } } },
      { type: 'tool_call', subtype: 'completed', call_id: 'tool_1', session_id: sid,
        tool_call: { mcpToolCall: { result: { rejected: { reason: 'MCP tool execution rejected by user', isReadonly: false } } } } },
      { type: 'tool_call', subtype: 'started', call_id: 'tool_2', session_id: sid, tool_call: { mcpToolCall: { args: { name: 'tracker-list', args: { limit: 5 } } } } },
      { type: 'tool_call', subtype: 'completed', call_id: 'tool_2', session_id: sid,
        tool_call: { mcpToolCall: { args: { name: 'tracker-list', args: { limit: 5 } }, result: { success: { content: [{ text: { text: '[]' } }], isError: false } } } } },
      { type: 'result', subtype: 'success', is_error: false, session_id: sid, duration_ms: 10 },
    );
    const { r, sessions } = read(text, 'cursor.jsonl');
    assert.equal(r.format, 'cursor-agent');
    const s = sessions[0];
    // without toolName the call keeps the name Cursor gave it
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['get_issue', { key: 'ABC-1' }], ['tracker-list', { limit: 5 }]]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['tool_1', true], ['tool_2', false]]);
  });
});
