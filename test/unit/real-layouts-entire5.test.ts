// Layouts of the transcripts Entire (entireio/cli) keeps in its checkpoints: the compact `transcript.jsonl` it
// writes for every agent, a Claude Code `full.jsonl` that starts with the answer to a call made before it (a
// session continued after a plan), the newest Claude Code envelope (attachments, queue operations, `caller`,
// `wireToolInputs`), Factory Droid sessions (another agent Entire records), and the checkpoint's own JSON files,
// which hold no calls. Every trace here is small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from '../../src/core';
import { TRACE_NAME } from '../../src/core';
import { readModel } from './helpers';

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const resultOf = (s: Session, id: string) => s.results.find((x) => x.callId === id);

// ---- Entire's compact transcript ---------------------------------------------------------------------------------

const head = (agent: string) => ({ v: 1, agent, cli_version: '0.9.1' });
const user = (agent: string, text: string) => ({ ...head(agent), type: 'user', ts: '2026-03-01T10:00:00Z', content: [{ id: 'p-1', text }] });
const assistant = (agent: string, content: unknown, id?: string) => ({ ...head(agent), type: 'assistant', ts: '2026-03-01T10:00:05Z', ...(id ? { id } : {}), input_tokens: 3, output_tokens: 9, content });
const use = (id: string | undefined, name: string, input: unknown, result?: { output: string; status: string }) =>
  ({ type: 'tool_use', ...(id ? { id } : {}), name, ...(input === undefined ? {} : { input }), ...(result ? { result } : {}) });

describe('Entire compact transcripts (transcript.jsonl)', () => {
  it('reads each tool_use with the result inlined in it, its error status, and the message around it', () => {
    const text = jsonl([
      user('claude-code', 'look around'),
      assistant('claude-code', [{ type: 'text', text: 'Listing.' }, use('toolu_a', 'Bash', { command: 'ls' }, { output: 'a.go', status: 'success' }),
        use('toolu_b', 'Read', { file_path: '/w/big.bin' }, { output: 'File content exceeds maximum allowed size', status: 'error' })], 'msg_1'),
      assistant('claude-code', [{ type: 'text', text: 'Done.' }], 'msg_2'),
    ]);
    const { r, sessions, codes } = readModel(text, { fileName: 'transcript.jsonl' });
    assert.equal(r.format, 'entire');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['Bash', 'toolu_a', 1], ['Read', 'toolu_b', 1]]);
    assert.deepEqual(s.calls[0].args, { command: 'ls' });
    assert.equal(s.calls[0].messageText, 'Listing.');
    assert.equal(resultOf(s, 'toolu_a')?.payload, 'a.go');
    assert.equal(resultOf(s, 'toolu_a')?.transport.isError, undefined, '"success" is what Entire writes when no flag was set');
    assert.equal(resultOf(s, 'toolu_b')?.transport.isError, true);
    assert.ok(!codes.includes('read-by-shape') && !codes.includes('orphan-result'), codes.join());
  });

  it('a call Entire kept no result for is no orphan: it inlines only the record right after the message', () => {
    const text = jsonl([
      user('claude-code', 'two at once'),
      assistant('claude-code', [use('toolu_1', 'Bash', { command: 'gh pr view 1' }, { output: '{}', status: 'success' }), use('toolu_2', 'Bash', { command: 'git log' })], 'msg_1'),
      user('claude-code', 'and then?'),
      assistant('claude-code', [use('toolu_3', 'Bash', { command: 'git status' }, { output: 'clean', status: 'success' })], 'msg_2'),
    ]);
    const { sessions, codes } = readModel(text, { fileName: 'transcript.jsonl' });
    assert.equal(sessions[0].calls.length, 3);
    assert.equal(sessions[0].results.length, 2);
    assert.ok(!codes.includes('orphan-call'), codes.join());
  });

  it('two records of one message (same id, one after the other) are one turn; a user record ends it', () => {
    const text = jsonl([
      user('claude-code', 'go'),
      assistant('claude-code', [use('toolu_1', 'Grep', { pattern: 'x' }, { output: '', status: 'success' })], 'msg_9'),
      assistant('claude-code', [use('toolu_2', 'Grep', { pattern: 'y' }, { output: '', status: 'success' })], 'msg_9'),
      user('claude-code', 'again'),
      assistant('claude-code', [use('toolu_3', 'Grep', { pattern: 'z' }, { output: '', status: 'success' })], 'msg_9'),
    ]);
    const { sessions } = readModel(text, { fileName: 'transcript.jsonl' });
    assert.deepEqual(sessions[0].calls.map((c) => c.turn), [1, 1, 2]);
  });

  it('Codex lines: no message ids, a custom tool input kept as {input}, arguments that were not JSON left out', () => {
    const text = jsonl([
      user('codex', 'patch it'),
      assistant('codex', [{ type: 'text', text: 'Patching.' }, use('call_1', 'apply_patch', { input: '*** Begin Patch\n*** End Patch' }, { output: 'Success.', status: 'success' })]),
      assistant('codex', [use('call_2', 'exec_command', undefined, { output: 'Process exited with code 1', status: 'success' })]),
      assistant('codex', [use(undefined, 'update_plan', { plan: [] }, { output: 'Plan updated', status: 'success' })]),
    ]);
    const { r, sessions } = readModel(text, { fileName: 'transcript.jsonl' });
    assert.equal(r.format, 'entire');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => c.name), ['apply_patch', 'exec_command', 'update_plan']);
    assert.deepEqual(s.calls.map((c) => c.turn), [1, 2, 3]);
    assert.equal(s.calls[1].encoding, 'absent');
    assert.deepEqual(s.calls[0].args, { input: '*** Begin Patch\n*** End Patch' });
    assert.equal(s.results.length, 3);
    // the call without an id is answered by position
    const last = s.results[2];
    assert.equal(last.callId, undefined);
    assert.equal(last.callIndex, 2);
    assert.equal(last.payload, 'Plan updated');
  });

  it('a Copilot CLI record reads the same way, and a truncated last line is one parse error', () => {
    const full = jsonl([
      user('copilot-cli', 'make a dir'),
      assistant('copilot-cli', [use('tooluse_1', 'report_intent', { intent: 'Creating dir' }, { output: 'Intent logged', status: 'success' }),
        use('tooluse_2', 'bash', { command: 'mkdir t', description: 'Create dir' }, { output: '\n<exited with exit code 0>', status: 'success' })], 'c1034751'),
      assistant('copilot-cli', [use('tooluse_3', 'create', { path: '/t/README.md', file_text: '# t\n' }, { output: 'Created file', status: 'success' })], '8e9da75c'),
    ]);
    const cut = full.slice(0, full.lastIndexOf('"create"') + 20);
    const { r, sessions, codes } = readModel(cut, { fileName: 'transcript.jsonl' });
    assert.equal(r.format, 'entire');
    assert.equal(sessions[0].calls.length, 2);
    assert.equal(sessions[0].results.length, 2);
    assert.deepEqual(codes.filter((c) => c === 'parse-error'), ['parse-error']);
  });

  it('a record missing what makes it compact (no cli_version) is not claimed', () => {
    const text = jsonl([{ v: 1, agent: 'x', type: 'assistant', content: [use('t1', 'Bash', { command: 'ls' })] }]);
    const { r } = readModel(text, { fileName: 'transcript.jsonl' });
    assert.notEqual(r.format, 'entire');
  });
});

// ---- Claude Code full.jsonl as a checkpoint keeps it -------------------------------------------------------------

const sessionId = '0a93878f-0000-4000-8000-00000000c0de';
const env = { isSidechain: false, userType: 'external', cwd: '/w', sessionId, version: '2.1.29', gitBranch: 'main' };
const ccUser = (uuid: string, parentUuid: string | null, content: unknown, extra: Record<string, unknown> = {}) =>
  ({ parentUuid, ...env, type: 'user', message: { role: 'user', content }, uuid, timestamp: '2026-02-02T06:24:36Z', ...extra });
const ccAssistant = (uuid: string, parentUuid: string, msgId: string, block: unknown, extra: Record<string, unknown> = {}) =>
  ({ parentUuid, ...env, message: { model: 'claude-sonnet-4-5', id: msgId, type: 'message', role: 'assistant', content: [block], stop_reason: null }, type: 'assistant', uuid, timestamp: '2026-02-02T06:24:50Z', ...extra });

describe('Claude Code full.jsonl kept by an Entire checkpoint', () => {
  const continued = (result: Record<string, unknown>) => jsonl([
    // the answer to the plan's call, made in the session before this file
    ccUser('u0', 'outside-1', [{ type: 'tool_result', tool_use_id: 'toolu_plan', ...result }], { toolUseResult: { plan: 'p' }, sourceToolAssistantUUID: 'outside-1' }),
    { type: 'file-history-snapshot', messageId: 'u1', snapshot: { messageId: 'u1', trackedFileBackups: {}, timestamp: '2026-02-02T06:24:36Z' }, isSnapshotUpdate: false },
    { parentUuid: null, ...env, type: 'progress', data: { type: 'hook_progress', hookEvent: 'SessionStart', hookName: 'SessionStart:clear', command: 'entire hooks claude-code session-start' }, parentToolUseID: 'h-1', toolUseID: 'h-1', uuid: 'pr1', timestamp: '2026-02-02T06:24:36Z' },
    ccUser('u1', 'pr1', 'Implement the following plan: ...', { planContent: '# Plan' }),
    ccAssistant('a1', 'u1', 'msg_1', { type: 'text', text: 'Reading first.' }),
    ccAssistant('a2', 'a1', 'msg_1', { type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: '/w/root.go' } }),
    ccUser('u2', 'a2', [{ type: 'tool_result', tool_use_id: 'toolu_r', content: '1\tpackage cli' }], { toolUseResult: { type: 'text', file: { filePath: '/w/root.go', numLines: 1 } }, sourceToolAssistantUUID: 'a2' }),
  ]);

  it('a result whose call line (sourceToolAssistantUUID) is not in the file answers a call made outside it', () => {
    const { r, sessions, codes } = readModel(continued({ content: 'User has approved your plan.' }), { fileName: 'full.jsonl' });
    assert.equal(r.format, 'claude-code');
    const s = sessions[0];
    assert.equal(s.calls.length, 1);
    assert.equal(s.results.length, 2);
    assert.equal(resultOf(s, 'toolu_plan')?.callElsewhere, true);
    assert.notEqual(resultOf(s, 'toolu_r')?.callElsewhere, true);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });

  it('a transcript kept from a later point (no sourceToolAssistantUUID): a result whose parent line is not in the file', () => {
    const text = jsonl([
      { parentUuid: 'before-slice', ...env, version: '2.1.4', type: 'system', subtype: 'turn_duration', durationMs: 70, uuid: 's1' },
      ccUser('u0', 'a-before', [{ type: 'tool_result', tool_use_id: 'toolu_old', content: 'done' }], { toolUseResult: { stdout: 'done', stderr: '' } }),
      ccUser('u1', 'u0', 'next task'),
      ccAssistant('a1', 'u1', 'msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/a.go' } }),
      ccUser('u2', 'a1', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }]),
    ]);
    const { sessions, codes } = readModel(text, { fileName: 'full.jsonl' });
    assert.equal(resultOf(sessions[0], 'toolu_old')?.callElsewhere, true);
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('a result naming a call line the file did read, but an id no call has, is still an orphan', () => {
    const text = jsonl([
      ccUser('u1', null, 'go'),
      ccAssistant('a1', 'u1', 'msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }),
      ccUser('u2', 'a1', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' }], { sourceToolAssistantUUID: 'a1' }),
      ccUser('u3', 'u2', [{ type: 'tool_result', tool_use_id: 'toolu_spliced', content: 'b' }], { sourceToolAssistantUUID: 'a1' }),
    ]);
    const { codes } = readModel(text, { fileName: 'full.jsonl' });
    assert.ok(codes.includes('orphan-result'), codes.join());
  });

  it('the 2.1.2xx envelope: queue operations, attachments, titles, caller and wireToolInputs read as before', () => {
    const v = { ...env, version: '2.1.284', entrypoint: 'claude-desktop' };
    const text = jsonl([
      { type: 'queue-operation', operation: 'enqueue', timestamp: '2026-09-29T17:49:36Z', sessionId, content: 'install the linter' },
      { type: 'queue-operation', operation: 'dequeue', timestamp: '2026-09-29T17:49:36Z', sessionId },
      { parentUuid: null, ...v, attachment: { type: 'hook_success', hookName: 'SessionStart:startup', toolUseID: 'h-2', hookEvent: 'SessionStart', exitCode: 0 }, type: 'attachment', uuid: 'at1', timestamp: '2026-09-29T17:49:36Z' },
      { parentUuid: 'at1', ...v, promptId: 'p1', type: 'user', message: { role: 'user', content: 'install the linter' }, uuid: 'u1', origin: { kind: 'human' }, turnPosition: { promptIndex: 1, turnIndex: 1 } },
      { type: 'custom-title', customTitle: 'Linter', sessionId },
      { type: 'agent-name', agentName: 'Linter', sessionId },
      { type: 'atis-latch', atis: '', sessionId },
      { parentUuid: 'u1', ...v, attachment: { type: 'prompt_snapshot', systemPrompt: ['You are an agent.'] }, type: 'attachment', uuid: 'at2' },
      { type: 'last-prompt', lastPrompt: 'install the linter', leafUuid: 'at2', sessionId },
      { parentUuid: 'at2', ...v, message: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls -a' }, caller: { type: 'direct' } }], stop_reason: 'tool_use' },
        wireToolInputs: { toolu_1: { command: 'cd /w && ls -a' } }, apiBlockIndex: 0, type: 'assistant', uuid: 'a1' },
      { parentUuid: 'a1', ...v, promptId: 'p1', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: 'Exit code 2', is_error: true, tool_use_id: 'toolu_1' }] },
        uuid: 'u2', toolUseResult: 'Error: Exit code 2', sourceToolAssistantUUID: 'a1' },
    ]);
    const { r, sessions, codes } = readModel(text, { fileName: 'full.jsonl' });
    assert.equal(r.format, 'claude-code');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.calls[0].args, { command: 'ls -a' }, 'the arguments the model wrote, not the ones sent on the wire');
    assert.equal(s.results.length, 1);
    assert.equal(resultOf(s, 'toolu_1')?.transport.isError, true);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('parse-error'), codes.join());
  });
});

// ---- Factory Droid sessions (another agent Entire records) -------------------------------------------------------

const droidMessage = (id: string, role: 'user' | 'assistant', content: unknown) =>
  ({ type: 'message', id, timestamp: '2026-03-01T10:00:00Z', message: { role, ...(role === 'assistant' ? { model: 'claude-sonnet-4-5' } : {}), content } });

describe('Factory Droid sessions (~/.factory/sessions/*.jsonl)', () => {
  it("reads the calls and results of the Anthropic messages inside Droid's message envelope", () => {
    const text = jsonl([
      { type: 'session_start', id: 's-1', title: 'fix', sessionTitle: 'fix', owner: 'dev', version: 2, cwd: '/w' },
      droidMessage('m1', 'user', [{ type: 'text', text: 'list the files' }]),
      droidMessage('m2', 'assistant', [{ type: 'text', text: 'Listing.' }, { type: 'tool_use', id: 'toolu_1', name: 'Execute', input: { command: 'ls' } },
        { type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: '/w/x' } }]),
      droidMessage('m3', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'Error: no such file', is_error: true },
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a\nb' }]),
      { type: 'todo_state', id: 't1', todos: [] },
      droidMessage('m4', 'assistant', 'Done.'),
    ]);
    const { r, sessions, codes } = readModel(text, { fileName: 'session.jsonl' });
    assert.equal(r.format, 'droid');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.turn]), [['Execute', 1], ['Read', 1]]);
    assert.equal(resultOf(s, 'toolu_1')?.payload, 'a\nb');
    assert.equal(resultOf(s, 'toolu_2')?.transport.isError, true);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });

  it('a result block inside the assistant message pairs too; a Responses message item is not taken', () => {
    const text = jsonl([
      droidMessage('a1', 'assistant', [{ type: 'tool_use', id: 'call-1', name: 'Bash', input: { command: 'go test ./...' } },
        { type: 'tool_result', tool_use_id: 'call-1', content: 'ok' }]),
    ]);
    const { r, sessions } = readModel(text, { fileName: 'session.jsonl' });
    assert.equal(r.format, 'droid');
    assert.equal(sessions[0].results.length, 1);
    const item = readModel(jsonl([{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] }]), { fileName: 'items.jsonl' });
    assert.notEqual(item.r.format, 'droid');
    // Goose's stream-json: the same envelope without the record's own id and timestamp stays Goose's
    const goose = readModel(jsonl([{ type: 'message', message: { role: 'assistant', content: [{ type: 'toolRequest', id: 't1', toolCall: { name: 'developer__shell', arguments: { command: 'ls' } } }] } }]), { fileName: 'run.jsonl' });
    assert.equal(goose.r.format, 'goose');
  });
});

// ---- The checkpoint's own files ----------------------------------------------------------------------------------

describe("an Entire checkpoint's own JSON files", () => {
  it('session and checkpoint metadata, and a task checkpoint, hold no calls and are read as nothing', () => {
    const session = { cli_version: '0.5.0', checkpoint_id: '02c170aecfae', session_id: 's-1', strategy: 'manual-commit', created_at: '2026-05-15T18:31:49Z',
      branch: 'main', checkpoints_count: 1, files_touched: ['a.go'], agent: 'Claude Code', model: '', turn_id: 't1',
      token_usage: { input_tokens: 86, cache_creation_tokens: 1, cache_read_tokens: 2, output_tokens: 3, api_call_count: 41 }, session_metrics: { turn_count: 1 } };
    const checkpoint = { cli_version: '0.5.0', checkpoint_id: '007dbb86f787', strategy: 'manual-commit', branch: 'main', checkpoints_count: 1, files_touched: [],
      sessions: [{ metadata: '/00/7dbb86f787/0/metadata.json', transcript: '/00/7dbb86f787/0/transcript.jsonl', content_hash: '/00/7dbb86f787/0/transcript_hash.txt', prompt: '/00/7dbb86f787/0/prompt.txt' }] };
    const task = { session_id: 's-1', tool_use_id: 'toolu_01J85', checkpoint_uuid: '', agent_id: 'a79d3a6d' };
    for (const value of [session, checkpoint, task]) {
      const { r, sessions } = readModel(JSON.stringify(value, null, 2), { fileName: 'metadata.json' });
      assert.equal(r.format, undefined);
      assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
    }
  });

  it("a walk of folders takes the agent's own transcript a checkpoint keeps as raw_transcript", () => {
    assert.ok(TRACE_NAME.test('00/c9e2351016/0/raw_transcript'));
    assert.ok(TRACE_NAME.test('raw_transcript'));
    assert.ok(!TRACE_NAME.test('00/c9e2351016/0/raw_transcript_hash.txt'));
    assert.ok(!TRACE_NAME.test('my_raw_transcript'));
  });
});
