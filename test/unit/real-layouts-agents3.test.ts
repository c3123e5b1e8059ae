// Coding-agent layouts met in real files (round three): Codex rollouts written before the record envelope (a bare
// session header, state markers, bare Responses items), and Claude Code `--output-format stream-json` / Agent SDK
// message streams (`session_id`, subagent messages under `parent_tool_use_id`, older lines without `uuid`).
// Every trace here is small and written for the test from the formats' rules.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, type Session } from '../../src/core';

function read(text: string, fileName: string, opts: { packs?: false; readAs?: string } = { packs: false }) {
  const r = checkText(text, { fileName, keepModel: true, ...opts });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const codes = r.findings.map((f) => f.code);
  return { r, sessions, codes };
}

const lines = (...v: object[]) => v.map((x) => JSON.stringify(x)).join('\n');

// ---- Codex, pre-envelope (codex-rs of mid-2025) ----------------------------------------------------------------

const header = { id: '5b0c2f1e-7d3a-4e9b-9c11-2a6f0e4d8b73', timestamp: '2025-07-02T09:14:05.120Z', instructions: null, git: { commit_hash: 'f00d', branch: 'dev' } };
const state = { record_type: 'state' };
const shellCall = (id: string, command: unknown) => ({ type: 'function_call', id: `fc_${id}`, name: 'shell', arguments: JSON.stringify({ command, workdir: '/src' }), call_id: id });
const shellOutput = (id: string, output: string, exitCode: number) =>
  ({ type: 'function_call_output', call_id: id, output: JSON.stringify({ output, metadata: { exit_code: exitCode, duration_seconds: 0.2 } }) });

describe('real layouts (agents3): Codex rollouts before the envelope', () => {
  it('a bare header makes the file a Codex rollout: its id, the calls, the exit code in the old output metadata', () => {
    const text = lines(
      header,
      { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] },
      state,
      { type: 'reasoning', id: 'rs_9', summary: [], encrypted_content: 'opaque' },
      shellCall('call_a', ['bash', '-lc', 'npm test']),
      state,
      shellOutput('call_a', 'FAIL 3 tests', 1),
      shellCall('call_b', ['bash', '-lc', 'git diff']),
      shellOutput('call_b', '', 0),
      { type: 'message', id: 'msg_7', role: 'assistant', content: [{ type: 'output_text', text: 'three tests fail' }] },
    );
    const { r, sessions, codes } = read(text, 'rollout-2025-07-02T09-14-05-5b0c2f1e.jsonl');
    assert.equal(r.format, 'codex');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.equal(s.id, header.id);
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.args]), [
      ['shell', 'call_a', { command: ['bash', '-lc', 'npm test'], workdir: '/src' }],
      ['shell', 'call_b', { command: ['bash', '-lc', 'git diff'], workdir: '/src' }],
    ]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.exitCode]), [['call_a', 1], ['call_b', 0]]);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('the Codex pack applies to such a rollout (it did not when the Responses reader took its items)', () => {
    // `shell` takes its command as an argv array: a string is a contract violation under the Codex pack
    const text = lines(header, state, shellCall('call_s', 'ls -la'), shellOutput('call_s', 'total 0', 0));
    const asCodex = read(text, 'rollout.jsonl', {});
    assert.equal(asCodex.r.format, 'codex');
    const packFindings = asCodex.r.findings.filter((f) => f.tool === 'shell' && f.severity === 'error');
    assert.ok(packFindings.length > 0, asCodex.codes.join());
    const asResponses = read(text, 'rollout.jsonl', { readAs: 'openai-responses' });
    assert.equal(asResponses.r.findings.filter((f) => f.tool === 'shell' && f.severity === 'error').length, 0);
  });

  it('the shell call of that time names its timeout `timeout` (later `timeout_ms`): no finding under the Codex pack', () => {
    const call = { type: 'function_call', id: 'fc_t', name: 'shell', arguments: JSON.stringify({ command: ['make'], workdir: '/src', timeout: 60000 }), call_id: 'call_t' };
    const { r, codes } = read(lines(header, state, call, shellOutput('call_t', 'ok', 0)), 'rollout.jsonl', {});
    assert.equal(r.format, 'codex');
    assert.equal(r.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').length, 0, codes.join());
  });

  it('the later header (cwd, originator, cli_version) with a custom tool call and a local shell call', () => {
    const text = lines(
      { id: 'a71e3c55-0b2d-4f1a-8e6c-93d0b7a2c4e1', timestamp: '2025-08-28T16:40:00.000Z', cwd: '/repo', originator: 'codex_cli_rs', cli_version: '0.25.0' },
      state,
      { type: 'custom_tool_call', id: 'ctc_1', status: 'completed', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: x\n+y\n*** End Patch\n' },
      { type: 'custom_tool_call_output', call_id: 'call_p', output: '{"output":"Success.","metadata":{"exit_code":0,"duration_seconds":0.0}}' },
      { type: 'local_shell_call', id: 'lsc_1', call_id: 'call_l', status: 'completed', action: { type: 'exec', command: ['ls'] } },
      { type: 'function_call_output', call_id: 'call_l', output: '{"output":"x\\n","metadata":{"exit_code":2,"duration_seconds":0.0}}' },
    );
    const { r, sessions, codes } = read(text, 'rollout.jsonl');
    assert.equal(r.format, 'codex');
    assert.equal(sessions[0].id, 'a71e3c55-0b2d-4f1a-8e6c-93d0b7a2c4e1');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id]), [['apply_patch', 'call_p'], ['local_shell_call', 'call_l']]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.exitCode]), [['call_p', 0], ['call_l', 2]]);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('--read-as codex reads the bare items too', () => {
    const text = lines(header, state, shellCall('call_r', ['ls']), shellOutput('call_r', 'a', 0));
    const { r, sessions } = read(text, 'rollout.jsonl', { packs: false, readAs: 'codex' });
    assert.equal(r.format, 'codex');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results[0].transport.exitCode, 0);
  });

  it('a plain log of Responses items (no Codex header) stays the Responses reader\'s', () => {
    const text = lines(
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'weather?' }] },
      { type: 'function_call', id: 'fc_1', name: 'get_weather', arguments: '{"city":"Oslo"}', call_id: 'call_w' },
      { type: 'function_call_output', call_id: 'call_w', output: '{"output":"rain","metadata":{"exit_code":3}}' },
    );
    const { r, sessions } = read(text, 'items.jsonl');
    assert.equal(r.format, 'openai-responses');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results[0].transport.exitCode, undefined);
  });

  it('a first line with an id and a timestamp but other fields is no Codex header', () => {
    const text = lines(
      { id: 'req-1', timestamp: '2025-07-02T09:00:00Z', instructions: null, level: 'info' },
      { id: 'req-2', timestamp: '2025-07-02T09:00:01Z' },
      { type: 'function_call', id: 'fc_1', name: 'lookup', arguments: '{"q":"x"}', call_id: 'call_x' },
      { type: 'function_call_output', call_id: 'call_x', output: 'y' },
    );
    const { r, sessions } = read(text, 'app.jsonl');
    assert.equal(r.format, 'openai-responses');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 1);
  });
});

// ---- Claude Code stream-json / Agent SDK messages -------------------------------------------------------------------

const SID = '8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
let messages = 0;
const sdk = (type: 'user' | 'assistant', content: unknown[], parent: string | null, uuid?: string, sid = SID) =>
  ({ type, message: { ...(type === 'assistant' ? { id: `msg_${++messages}`, type: 'message', model: 'claude-sonnet-4-5' } : {}), role: type, content },
    parent_tool_use_id: parent, session_id: sid, ...(uuid ? { uuid } : {}) });
const use = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input });
const answer = (id: string, content: unknown, isError?: boolean) => ({ type: 'tool_result', tool_use_id: id, content, ...(isError === undefined ? {} : { is_error: isError }) });

function streamWithSubagent(withUuid: boolean) {
  const u = (n: number) => (withUuid ? `u${n}` : undefined);
  return lines(
    { type: 'system', subtype: 'init', session_id: SID, cwd: '/w', tools: ['Task', 'Grep', 'Read'], model: 'claude-sonnet-4-5', permissionMode: 'default' },
    sdk('assistant', [use('toolu_task', 'Task', { description: 'find uses', prompt: 'grep for foo', subagent_type: 'Explore' })], null, u(1)),
    sdk('assistant', [use('toolu_g', 'Grep', { pattern: 'foo' })], 'toolu_task', u(2)),
    sdk('user', [answer('toolu_g', 'a.ts:3')], 'toolu_task', u(3)),
    sdk('assistant', [use('toolu_r', 'Read', { file_path: '/w/a.ts' })], 'toolu_task', u(4)),
    sdk('user', [answer('toolu_r', 'ENOENT', true)], 'toolu_task', u(5)),
    sdk('user', [answer('toolu_task', [{ type: 'text', text: 'foo is used in a.ts' }])], null, u(6)),
    sdk('assistant', [use('toolu_b', 'Read', { file_path: '/w/b.ts' })], null, u(7)),
    sdk('user', [answer('toolu_b', 'export {}')], null, u(8)),
    { type: 'result', subtype: 'success', is_error: false, num_turns: 4, result: 'done', session_id: SID },
  );
}

describe('real layouts (agents3): Claude Code stream-json', () => {
  for (const withUuid of [true, false]) {
    it(`a subagent's messages (parent_tool_use_id) are a session of their own; session_id names the session${withUuid ? '' : ' (lines without uuid)'}`, () => {
      const { r, sessions, codes } = read(streamWithSubagent(withUuid), 'stream.jsonl');
      assert.equal(r.format, 'claude-code');
      assert.equal(sessions.length, 2);
      const main = sessions.find((s) => s.id === SID);
      const sub = sessions.find((s) => s.id !== SID);
      assert.ok(main && sub, sessions.map((s) => s.id).join());
      assert.deepEqual(main.calls.map((c) => c.name), ['Task', 'Read']);
      assert.deepEqual(sub.calls.map((c) => c.name), ['Grep', 'Read']);
      assert.ok(sub.id?.startsWith(SID) && sub.id.includes('toolu_task'), sub.id);
      assert.deepEqual(sub.results.map((x) => [x.callId, x.transport.isError]), [['toolu_g', undefined], ['toolu_r', true]]);
      assert.deepEqual(main.results.map((x) => x.callId), ['toolu_task', 'toolu_b']);
      assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
    });
  }

  it('two sessions in one stream stay apart', () => {
    const other = '0f9e8d7c-6b5a-4948-8372-615049382716';
    const text = lines(
      sdk('assistant', [use('toolu_1', 'Read', { file_path: '/a' })], null, undefined, SID),
      sdk('user', [answer('toolu_1', 'a')], null, undefined, SID),
      sdk('assistant', [use('toolu_2', 'Read', { file_path: '/b' })], null, undefined, other),
      sdk('user', [answer('toolu_2', 'b')], null, undefined, other),
    );
    const { r, sessions, codes } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'claude-code');
    assert.deepEqual(sessions.map((s) => [s.id, s.calls.length, s.results.length]), [[SID, 1, 1], [other, 1, 1]]);
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('--include-partial-messages: the stream_event pieces of a message are not read as calls besides its complete copy', () => {
    const ev = (event: object, uuid: string) => ({ type: 'stream_event', event, parent_tool_use_id: null, session_id: SID, uuid });
    const text = lines(
      ev({ type: 'message_start', message: { id: 'msg_p', type: 'message', role: 'assistant', content: [] } }, 'p1'),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_p', name: 'Glob', input: {} } }, 'p2'),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"pattern":"*.ts"}' } }, 'p3'),
      ev({ type: 'content_block_stop', index: 0 }, 'p4'),
      { type: 'assistant', message: { id: 'msg_p', type: 'message', role: 'assistant', content: [use('toolu_p', 'Glob', { pattern: '*.ts' })] }, parent_tool_use_id: null, session_id: SID, uuid: 'p5' },
      ev({ type: 'message_stop' }, 'p6'),
      sdk('user', [answer('toolu_p', 'a.ts')], null, 'p7'),
    );
    const { r, sessions, codes } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'claude-code');
    assert.equal(r.calls, 1);
    assert.deepEqual(sessions.map((s) => [s.id, s.calls.map((c) => c.args), s.results.length]), [[SID, [{ pattern: '*.ts' }], 1]]);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('duplicate-call'), codes.join());
  });

  it('Amp\'s stream-json (thread ids `T-…`, tools of its own) is not taken for Claude Code', () => {
    const thread = 'T-3f2e1d0c-b9a8-4765-8432-10fedcba9876';
    const text = lines(
      sdk('assistant', [use('toolu_x', 'Bash', { cmd: 'ls' })], null, undefined, thread),
      sdk('user', [answer('toolu_x', 'a')], null, undefined, thread),
    );
    const { r } = read(text, 'amp.jsonl');
    assert.notEqual(r.format, 'claude-code');
  });
});
