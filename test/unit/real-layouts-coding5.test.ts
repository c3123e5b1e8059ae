// Layouts of coding-agent logs (fifth round), met while sweeping the repositories the corpus came from (localpush,
// devchain, claude-code-transcripts, claude-code-log, aim, OpenCode exports). Every trace here is small and written
// for the test: facts of the real files carry over, their text does not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from '../../src/core';
import { readModel } from './helpers';

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const resultOf = (s: Session, id: string) => s.results.find((x) => x.callId === id);

// ---- Copilot CLI: which calls end with the shell's exit line -----------------------------------------------------

describe('Copilot CLI exit line of a call that runs a shell, whatever its tool is named', () => {
  const ev = (id: string, type: string, data: Record<string, unknown>) => ({ type, data, id, timestamp: '2026-06-01T00:00:00Z', parentId: null });
  const done = (id: string, callId: string, content: string, extra: Record<string, unknown> = {}) =>
    ev(id, 'tool.execution_complete', { toolCallId: callId, success: true, result: { content, detailedContent: content }, ...extra });

  it('reads the code for a command-line call, a shell permission or a terminal block, never for a file or page read', () => {
    const text = jsonl([
      ev('e1', 'session.start', { sessionId: 'cp-5', producer: 'copilot-agent', copilotVersion: '1.0.65' }),
      ev('e2', 'assistant.message', { content: '', toolRequests: [
        { toolCallId: 't1', name: 'run_in_terminal', arguments: { command: 'make test', explanation: 'run the tests' }, type: 'function' },
        { toolCallId: 't2', name: 'str_replace_editor', arguments: { command: 'view', path: '/w/build.log' }, type: 'function' },
        { toolCallId: 't3', name: 'web_fetch', arguments: { url: 'https://example.test/ci' }, type: 'function' },
        { toolCallId: 't4', name: 'custom_exec', arguments: { argv: ['ls'] }, type: 'function' },
        { toolCallId: 't5', name: 'remote_sh', arguments: { script: 'ls' }, type: 'function' }] }),
      // the runtime asks a shell permission for t4 before it runs
      ev('e3', 'permission.requested', { requestId: 'p1', permissionRequest: { kind: 'shell', toolCallId: 't4', fullCommandText: 'ls' } }),
      done('e4', 't1', 'FAIL 2 tests\n<exited with exit code 2>'),
      done('e5', 't2', '1. step 1\n2. <exited with exit code 9>'),
      done('e6', 't3', 'ci page\n<exited with exit code 7>'),
      done('e7', 't4', 'a b\n<exited with exit code 0>'),
      ev('e8', 'tool.execution_complete', { toolCallId: 't5', success: true,
        result: { content: 'x\n<exited with exit code 5>', contents: [{ type: 'terminal', text: 'x', cwd: '/w' }] } }),
    ]);
    const { r, sessions } = readModel(text, { fileName: 'events.jsonl' });
    assert.equal(r.format, 'copilot-cli');
    const [s] = sessions;
    assert.equal(s.calls.length, 5);
    assert.equal(resultOf(s, 't1')!.transport.exitCode, 2, 'a command line is a shell call, whatever the tool is named');
    assert.equal(resultOf(s, 't2')!.transport.exitCode, undefined, 'an editor sub-command on a path reads a file');
    assert.equal(resultOf(s, 't3')!.transport.exitCode, undefined, 'a fetched page says nothing of an exit');
    assert.equal(resultOf(s, 't4')!.transport.exitCode, 0, 'the shell permission marks the call');
    assert.equal(resultOf(s, 't5')!.transport.exitCode, 5, 'a terminal block without its code: the trailer gives it');
  });

  it('takes the command line from the runtime\'s start event when the request lacks it, and from JSON-string arguments', () => {
    const text = jsonl([
      ev('e1', 'session.start', { sessionId: 'cp-6', copilotVersion: '1.0.40' }),
      ev('e2', 'assistant.message', { content: '', toolRequests: [{ toolCallId: 'a1', name: 'terminal', arguments: '{"command":"npm run lint"}' }] }),
      ev('e3', 'tool.execution_start', { toolCallId: 'a2', toolName: 'runner', arguments: { command: 'false' } }),
      done('e4', 'a1', 'lint ok\n<exited with exit code 0>'),
      done('e5', 'a2', '<exited with exit code 1>'),
    ]);
    const { sessions } = readModel(text, { fileName: 'events.jsonl' });
    const [s] = sessions;
    assert.equal(resultOf(s, 'a1')!.transport.exitCode, 0);
    assert.equal(resultOf(s, 'a2')!.transport.exitCode, 1);
    assert.equal(resultOf(s, 'a2')!.transport.isError, false);
  });
});

describe('Copilot transcripts trimmed of their call ids', () => {
  it('a start without toolCallId is the call, its completion answers it by tool name (no false orphan)', () => {
    const text = jsonl([
      { type: 'user.message', data: { content: 'run the benchmark, then read the log' } },
      { type: 'assistant.message', data: { content: 'Running it.' } },
      { type: 'tool.execution_start', data: { toolName: 'run_in_terminal', arguments: { command: 'make bench' } } },
      { type: 'tool.execution_start', data: { toolName: 'read_file', arguments: { filePath: '/w/bench.log' } } },
      { type: 'tool.execution_complete', data: { toolName: 'read_file', success: true, result: { content: 'log text' } } },
      { type: 'tool.execution_complete', data: { toolName: 'run_in_terminal', success: true, result: { content: 'slow\n<exited with exit code 3>' } } },
    ]);
    const { r, sessions, codes } = readModel(text, { fileName: 'transcript.jsonl' });
    assert.equal(r.format, 'copilot-cli');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['run_in_terminal', 'read_file']);
    const of = (i: number) => s.results.find((x) => x.callIndex === s.calls[i].index)!;
    assert.equal(of(1).payload && (of(1).payload as { content: string }).content, 'log text');
    assert.equal(of(0).transport.exitCode, 3, 'the command-line call ends with the shell\'s exit line');
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });
});

// ---- Codex rollouts ------------------------------------------------------------------------------------------------

describe('Codex rollouts: newer items and an older header', () => {
  const rec = (type: string, payload: Record<string, unknown>) => ({ timestamp: '2026-03-01T10:00:00.000Z', type, payload });

  it('reads a client-run tool search and its output (paired by call_id) beside the function calls', () => {
    const text = jsonl([
      rec('session_meta', { id: 'rs-1', timestamp: '2026-03-01T10:00:00.000Z', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.130.0' }),
      rec('turn_context', { turn_id: 't1', cwd: '/w', model: 'gpt-5.5' }),
      rec('response_item', { type: 'tool_search_call', call_id: 'ts-1', status: 'completed', execution: 'client', arguments: { query: 'issue tracker' } }),
      rec('response_item', { type: 'tool_search_output', call_id: 'ts-1', status: 'completed', execution: 'client', tools: [{ name: 'tracker' }] }),
      rec('response_item', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"git log -1"}', call_id: 'fc-1' }),
      rec('response_item', { type: 'function_call_output', call_id: 'fc-1', output: 'Process exited with code 128\nOutput:\nfatal' }),
    ]);
    const { r, sessions, codes } = readModel(text, { fileName: 'rollout.jsonl' });
    assert.equal(r.format, 'codex');
    const [s] = sessions;
    assert.equal(s.calls.length, 2);
    const search = s.calls.find((c) => c.id === 'ts-1')!;
    assert.deepEqual(search.args, { query: 'issue tracker' });
    assert.deepEqual(resultOf(s, 'ts-1')!.payload, [{ name: 'tracker' }]);
    assert.equal(resultOf(s, 'fc-1')!.transport.exitCode, 128);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });

  it('a pre-envelope rollout whose header is only its id and timestamp is still Codex\'s (exit codes from the shell output)', () => {
    const text = jsonl([
      { id: '0198a1b2-c3d4-4e5f-8a9b-0c1d2e3f4a5b', timestamp: '2025-08-01T09:00:00.000Z' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list it' }] },
      { type: 'function_call', name: 'shell', arguments: '{"command":["ls","-a"]}', call_id: 'call_1' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"output":"x","metadata":{"exit_code":2,"duration_seconds":0.1}}' },
    ]);
    const { r, sessions } = readModel(text, { fileName: 'rollout.jsonl' });
    assert.equal(r.format, 'codex');
    assert.equal(sessions[0].id, '0198a1b2-c3d4-4e5f-8a9b-0c1d2e3f4a5b');
    assert.equal(resultOf(sessions[0], 'call_1')!.transport.exitCode, 2);
  });
});

// ---- Gemini CLI / Qwen Code: the shell tool's exit line ---------------------------------------------------------

describe('Gemini CLI and Qwen Code shell responses: the exit code after the output', () => {
  const shellCall = (id: string, args: Record<string, unknown>, output: string, name = 'run_shell_command') => ({
    id, name, args, status: 'success', timestamp: '2026-03-18T01:00:00.000Z',
    result: [{ functionResponse: { id, name, response: { output } } }], resultDisplay: output.split('\n')[0], displayName: 'Shell',
  });
  const recording = (toolCalls: unknown[]) => JSON.stringify({
    sessionId: 'g-1', projectHash: 'p'.repeat(64), startTime: '2026-03-18T01:00:00.000Z', lastUpdated: '2026-03-18T01:05:00.000Z',
    messages: [
      { id: 'm1', timestamp: '2026-03-18T01:00:00.000Z', type: 'user', content: [{ text: 'check it' }] },
      { id: 'm2', timestamp: '2026-03-18T01:00:01.000Z', type: 'gemini', content: '', model: 'gemini-3-flash-preview', toolCalls },
    ],
  }, null, 2);

  it('reads `Exit Code: N` of a shell call (newer: only when non-zero; older: every line), never of a file read', () => {
    const text = recording([
      shellCall('run_shell_command_1_0', { command: 'ls nope', description: 'list' }, 'Output: ls: cannot access \'nope\'\nExit Code: 2\nProcess Group PGID: 4242'),
      shellCall('run_shell_command_1_1', { command: 'true' }, 'Output: (empty)\nProcess Group PGID: 4243'),
      shellCall('run_shell_command_1_2', { command: 'make' }, 'Command: make\nDirectory: (root)\nOutput: done\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 99'),
      shellCall('read_file_1_3', { absolute_path: '/w/ci.log' }, 'step 3\nExit Code: 7', 'read_file'),
      shellCall('run_shell_command_1_4', { command: 'cat out.txt' }, 'Output: Exit Code: 5\nfinished\nProcess Group PGID: 7'),
    ]);
    const { r, sessions } = readModel(text, { fileName: 'session-2026-03-18T01-00-g1.json' });
    assert.equal(r.format, 'gemini-cli');
    const [s] = sessions;
    assert.equal(s.calls.length, 5);
    assert.equal(resultOf(s, 'run_shell_command_1_0')!.transport.exitCode, 2);
    assert.equal(resultOf(s, 'run_shell_command_1_0')!.transport.isError, false, 'the tool ran; the command failed');
    assert.equal(resultOf(s, 'run_shell_command_1_1')!.transport.exitCode, undefined);
    assert.equal(resultOf(s, 'run_shell_command_1_2')!.transport.exitCode, 0);
    assert.equal(resultOf(s, 'read_file_1_3')!.transport.exitCode, undefined, 'a file that ends like shell output is text');
    assert.equal(resultOf(s, 'run_shell_command_1_4')!.transport.exitCode, undefined, 'the command\'s own output is not the exit line');
  });

  it('Qwen Code tool_result records: the same line in the response to its run_shell_command', () => {
    const rec = (uuid: string, type: string, extra: Record<string, unknown>) => ({ uuid, parentUuid: null, sessionId: 'q-1',
      timestamp: '2026-09-08T06:00:00.000Z', type, cwd: '/w', version: '0.14.0', ...extra });
    const text = jsonl([
      rec('u1', 'user', { message: { role: 'user', parts: [{ text: 'build' }] } }),
      rec('a1', 'assistant', { model: 'qwen3-coder', message: { role: 'model', parts: [{ functionCall: { id: 'call_b', name: 'run_shell_command', args: { command: 'go build ./...' } } }] } }),
      rec('t1', 'tool_result', { message: { role: 'user', parts: [{ functionResponse: { id: 'call_b', name: 'run_shell_command',
        response: { output: 'Command: go build ./...\nDirectory: (root)\nOutput: undefined: x\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 12' } } }] },
        toolCallResult: { callId: 'call_b', status: 'success', resultDisplay: 'undefined: x' } }),
    ]);
    const { r, sessions } = readModel(text, { fileName: 'q-1.jsonl' });
    assert.equal(r.format, 'qwen-code');
    assert.equal(resultOf(sessions[0], 'call_b')!.transport.exitCode, 1);
    assert.equal(resultOf(sessions[0], 'call_b')!.transport.isError, false);
  });
});

// ---- Kiro CLI / Amazon Q exports: a shell's exit status ------------------------------------------------------------

describe('Kiro CLI export: the exit status in a shell result\'s Json block', () => {
  it('reads the bare code of the pair layout ("Success" is the tool\'s word, the code the command\'s)', () => {
    const env = { env_state: { operating_system: 'linux', current_working_directory: '/w', environment_variables: [] } };
    const user = (content: unknown) => ({ additional_context: '', env_context: env, content, images: null });
    const uses = (id: string, name: string, args: Record<string, unknown>) => ({ ToolUse: { message_id: `m-${id}`, content: '',
      tool_uses: [{ id, name, orig_name: name, args, orig_args: args }] } });
    const result = (id: string, block: unknown, status = 'Success') => ({ ToolUseResults: { tool_use_results: [{ tool_use_id: id, content: [block], status }] } });
    const text = JSON.stringify({ conversation_id: 'k-5', next_message: null, history: [
      [user({ Prompt: { prompt: 'run the tests' } }), uses('tooluse_a', 'execute_bash', { command: 'pytest -q', summary: 'tests' })],
      [user(result('tooluse_a', { Json: { exit_status: '2', stderr: 'E   assert 1 == 2', stdout: '1 failed' } })), uses('tooluse_b', 'execute_bash', { command: 'ls' })],
      [user(result('tooluse_b', { Json: { exit_status: 'exit status: 0', stderr: '', stdout: 'a' } })), uses('tooluse_c', 'fs_read', { mode: 'Line', path: '/w/a' })],
      [user(result('tooluse_c', { Text: 'exit status: 9' })), { Response: { message_id: 'm-end', content: 'done' } }],
    ] }, null, 2);
    const { r, sessions } = readModel(text, { fileName: 'kiro-export.json' });
    assert.equal(r.format, 'kiro');
    const [s] = sessions;
    assert.equal(s.calls.length, 3);
    assert.deepEqual(resultOf(s, 'tooluse_a')!.transport, { isError: false, exitCode: 2 });
    assert.equal(resultOf(s, 'tooluse_b')!.transport.exitCode, 0);
    assert.equal(resultOf(s, 'tooluse_c')!.transport.exitCode, undefined, 'text a file holds is not an exit status');
  });
});

// ---- Antigravity transcripts ------------------------------------------------------------------------------------------

describe('Antigravity transcript_full.jsonl steps', () => {
  let n = 0;
  const step = (type: string, extra: Record<string, unknown> = {}, status = 'DONE') => ({ step_index: n++, source: type === 'USER_INPUT' ? 'USER_EXPLICIT' : 'MODEL',
    type, status, created_at: '2026-06-26T22:19:46Z', ...extra });

  it('reads the planner\'s calls and pairs each with its outcome step: by the step named after it, else in order', () => {
    n = 0;
    const text = jsonl([
      step('USER_INPUT', { content: '<USER_REQUEST>\nfix the build\n</USER_REQUEST>' }),
      step('GENERIC', { content: 'You have read and write access to the workspace.' }),
      step('PLANNER_RESPONSE', { thinking: 'look first', content: 'Checking.', tool_calls: [
        { name: 'view_file', args: { AbsolutePath: '/w/Makefile' } },
        { name: 'run_command', args: { CommandLine: 'make', Cwd: '/w' } },
        { name: 'replace_file_content', args: { TargetFile: '/w/Makefile' } }] }),
      step('RUN_COMMAND', { content: 'make: *** [all] Error 2' }, 'ERROR'),
      step('VIEW_FILE', { content: 'all:\n\tcc main.c' }),
      { ...step('CODE_ACTION', { content: 'editing' }, 'RUNNING'), step_index: 90 },
      { ...step('CODE_ACTION', { content: 'edited' }), step_index: 90 },
      step('CHECKPOINT', { content: 'summary of earlier steps' }),
      step('PLANNER_RESPONSE', { content: 'Done.' }),
    ]);
    const { r, sessions, codes } = readModel(text, { fileName: 'transcript_full.jsonl' });
    assert.equal(r.format, 'antigravity');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['view_file', 'run_command', 'replace_file_content']);
    assert.deepEqual(s.calls[1].args, { CommandLine: 'make', Cwd: '/w' });
    const outcome = (i: number) => s.results.find((x) => x.callIndex === s.calls[i].index)!;
    assert.equal(outcome(0).payload, 'all:\n\tcc main.c');
    assert.equal(outcome(1).transport.isError, true);
    assert.equal(outcome(2).payload, 'edited', 'a step read once it ended');
    assert.equal(s.results.length, 3, 'the note before any call is no result');
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });
});
