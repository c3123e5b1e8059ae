// Layouts of coding-agent logs (fourth round): Qwen Code's `--output-format stream-json` (Claude Code's stream
// layout under a Qwen init line), and Copilot CLI's shell exit line read from shell tools only. Every trace here is
// small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from '../../src/core';
import { readModel } from './helpers';

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const resultOf = (s: Session, id: string) => s.results.find((x) => x.callId === id);

// ---- Qwen Code stream-json ---------------------------------------------------------------------------------------

const sid = 'a1b2c3d4-0000-4000-8000-000000000001';
const init = (version: Record<string, string>) => ({ type: 'system', subtype: 'init', uuid: sid, session_id: sid, cwd: '/w',
  tools: ['read_file', 'run_shell_command'], model: 'coder-model', permission_mode: 'yolo', ...version });
const msg = (type: 'assistant' | 'user', uuid: string, content: unknown[], parent: string | null = null) => ({ type, uuid, session_id: sid,
  parent_tool_use_id: parent, message: { role: type, content, ...(type === 'assistant' ? { id: uuid, model: 'coder-model' } : {}) } });
const stream = (version: Record<string, string>) => jsonl([
  init(version),
  msg('assistant', 'm1', [{ type: 'thinking', thinking: 'look first', signature: '' }]),
  msg('assistant', 'm2', [{ type: 'tool_use', id: 'call_1', name: 'run_shell_command', input: { command: 'ls' } }]),
  { type: 'stream_event', uuid: 'p1', session_id: sid, parent_tool_use_id: null, event: { type: 'content_block_stop', index: 0 } },
  msg('user', 'm3', [{ type: 'tool_result', tool_use_id: 'call_1', content: 'a.txt', is_error: false }]),
  msg('assistant', 'm4', [{ type: 'tool_use', id: 'call_2', name: 'read_file', input: { absolute_path: '/w/a.txt' } }], 'call_0'),
  msg('user', 'm5', [{ type: 'tool_result', tool_use_id: 'call_2', content: 'no such file', is_error: true }], 'call_0'),
  { type: 'result', subtype: 'success', uuid: 'r1', session_id: sid, is_error: false, num_turns: 2, result: 'done', permission_denials: [] },
]);

describe('Qwen Code stream-json output', () => {
  it('is read as qwen-code: calls, results, error flags and subagent sessions as in Claude Code stream-json', () => {
    const { r, sessions } = readModel(stream({ qwen_code_version: '0.14.0' }), { fileName: 'run.jsonl' });
    assert.equal(r.format, 'qwen-code');
    const main = sessions.find((s) => s.id === sid)!;
    const sub = sessions.find((s) => s.id !== sid)!;
    assert.deepEqual(main.calls.map((c) => [c.name, c.id]), [['run_shell_command', 'call_1']]);
    assert.deepEqual(main.calls[0].args, { command: 'ls' });
    assert.equal(resultOf(main, 'call_1')!.transport.isError, false);
    assert.deepEqual(sub.calls.map((c) => c.name), ['read_file']);
    assert.equal(resultOf(sub, 'call_2')!.transport.isError, true);
  });

  it('the same lines under Claude Code\'s init line stay claude-code', () => {
    const { r } = readModel(stream({ claude_code_version: '2.0.1' }), { fileName: 'run.jsonl' });
    assert.equal(r.format, 'claude-code');
  });
});

// ---- Copilot CLI: the exit line is the shell tool's ------------------------------------------------------------

describe('Copilot CLI exit-code line', () => {
  const ev = (id: string, type: string, data: Record<string, unknown>) => ({ type, data, id, timestamp: '2026-05-01T00:00:00Z' });
  it('is read from bash / powershell / read_bash output only, by the call\'s name when the completion omits it', () => {
    const text = jsonl([
      ev('e1', 'session.start', { sessionId: 'cp-4', copilotVersion: '0.0.350' }),
      ev('e2', 'assistant.message', { content: '', toolRequests: [
        { toolCallId: 'b1', name: 'powershell', arguments: { command: 'dir' } },
        { toolCallId: 'f1', name: 'web_fetch', arguments: { url: 'https://example.test/log' } },
        { toolCallId: 'v1', name: 'view', arguments: { path: '/w/run.log' } }] }),
      ev('e3', 'tool.execution_start', { toolCallId: 'r1', toolName: 'read_bash', arguments: { shellId: '2' } }),
      ev('e4', 'tool.execution_complete', { toolCallId: 'b1', success: true, result: { content: 'x\n<exited with exit code 1>' } }),
      ev('e5', 'tool.execution_complete', { toolCallId: 'f1', success: true, result: { content: 'page\n<exited with exit code 3>' } }),
      ev('e6', 'tool.execution_complete', { toolCallId: 'v1', toolName: 'view', success: true, result: { content: 'log\n<exited with exit code 4>\n' } }),
      ev('e7', 'tool.execution_complete', { toolCallId: 'r1', success: true, result: { content: 'ok\n<shellId: 2 completed with exit code 0>' } }),
    ]);
    const { r, sessions } = readModel(text, { fileName: 'events.jsonl' });
    assert.equal(r.format, 'copilot-cli');
    const [s] = sessions;
    assert.equal(resultOf(s, 'b1')!.transport.exitCode, 1);
    assert.equal(resultOf(s, 'f1')!.transport.exitCode, undefined);
    assert.equal(resultOf(s, 'v1')!.transport.exitCode, undefined);
    assert.equal(resultOf(s, 'r1')!.transport.exitCode, 0);
  });
});

// ---- Claude Code envelope, flattened call/result lines -----------------------------------------------------------

describe('Claude Code envelope with one line per call and per result', () => {
  const env = (uuid: string, type: string, message: Record<string, unknown>) => ({ type, uuid, sessionId: 'flat-1',
    timestamp: '2025-01-01T00:00:00Z', cwd: '/w', message });
  const text = jsonl([
    env('e1', 'user', { role: 'user', content: 'list and read' }),
    env('e2', 'tool_call', { role: 'tool_call', tool: 'Glob', input: { pattern: '*.md' } }),
    env('e3', 'tool_result', { role: 'tool_result', content: 'a.md' }),
    env('e4', 'tool_call', { role: 'tool_call', tool: 'Read', input: { file_path: 'a.md' } }),
    env('e5', 'tool_call', { role: 'tool_call', name: 'Grep', id: 't-9', input: { pattern: 'x' } }),
    env('e6', 'tool_result', { role: 'tool_result', tool_use_id: 't-9', content: 'no match' }),
    env('e7', 'tool_result', { role: 'tool_result', content: '# A' }),
  ]);
  it('reads each call with its arguments and pairs results in order, or by tool_use_id when named', () => {
    const m = readModel(text, { fileName: 'flat.jsonl' });
    assert.equal(m.r.format, 'claude-code');
    const s = m.sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['Glob', { pattern: '*.md' }], ['Read', { file_path: 'a.md' }], ['Grep', { pattern: 'x' }]]);
    assert.deepEqual(s.results.map((r) => r.callIndex ?? s.calls.findIndex((c) => c.id === r.callId)), [0, 2, 1]);
  });
});
