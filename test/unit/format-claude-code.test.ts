// Claude Code 2.x logs: one content block per line, a call's result written before the next call of the same
// message, hook and subagent `progress` records, and subagent transcripts keyed by agentId.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { claudeCodeAssistant as assistant, claudeCodeLine as line, claudeCodeResult as result, claudeCodeUser as user } from './builders';
import { jsonl, readTrace } from './helpers';

const read = (text: string) => readTrace(text, { fileName: 'session.jsonl', packs: false });
const hook = (tool: string) => ({ type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: 'PostToolUse:Bash', command: 'callback' },
  parentToolUseID: tool, toolUseID: tool });

describe('claude-code 2.x', () => {
  it('keeps a message one turn when a result is written between its calls, and gives its calls the text of an earlier line', () => {
    const text = jsonl(
      line('u1', null, user('go')),
      line('a1', 'u1', assistant('msg_1', { type: 'text', text: 'Two commands.' })),
      line('a2', 'a1', assistant('msg_1', { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } })),
      line('p1', 'a2', hook('t1')),
      line('r1', 'a2', { ...result('t1', 'a\nb', { is_error: false }), toolUseResult: { stdout: 'a\nb', stderr: '' } }),
      line('a3', 'p1', assistant('msg_1', { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'pwd' } })),
      line('r2', 'a3', { ...result('t2', 'Error: no', { is_error: true }), toolUseResult: 'Error: no' }),
      line('a4', 'r2', assistant('msg_2', { type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'ls' } })),
      line('r3', 'a4', result('t3', 'a\nb')),
    );
    const { r, sessions } = read(text);
    assert.equal(r.format, 'claude-code');
    assert.equal(sessions.length, 1, 'progress records open no session');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.id, c.turn, c.messageText]), [['t1', 1, 'Two commands.'], ['t2', 1, 'Two commands.'], ['t3', 2, undefined]]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['t1', false], ['t2', true], ['t3', undefined]],
      'a string toolUseResult beside a readable block is no second result');
  });

  it('keys a subagent transcript by its agentId, and a sidechain without one by its chain, through progress records', () => {
    const side = (uuid: string, parent: string | null, extra: object, agentId?: string) => line(uuid, parent, extra, { isSidechain: true, ...(agentId ? { agentId } : {}) });
    const text = jsonl(
      side('x1', null, user('explore'), 'a77'),
      side('x2', 'x1', assistant('msg_a', { type: 'tool_use', id: 'k1', name: 'Read', input: { file_path: 'a' } }), 'a77'),
      side('x3', 'x2', hook('k1'), 'a77'),
      side('x4', 'x3', result('k1', 'A'), 'a77'),
      side('y1', null, user('old-style sidechain')),
      side('y2', 'y1', assistant('msg_b', { type: 'tool_use', id: 'k2', name: 'Grep', input: { pattern: 'x' } })),
      side('y3', 'y2', hook('k2')),
      side('y4', 'y3', result('k2', 'none')),
    );
    const { sessions } = read(text);
    assert.deepEqual(sessions.map((s) => [s.id, s.calls.length, s.results.length]), [['s1#agent:a77', 1, 1], ['s1#sidechain:y1', 1, 1]],
      'a result whose parent is a progress record stays in its sidechain');
  });

  it('does not read the agent_progress copies of a subagent\'s lines as calls of the main session', () => {
    const text = jsonl(
      line('u1', null, user('go')),
      line('a1', 'u1', assistant('msg_1', { type: 'tool_use', id: 'task1', name: 'Task', input: { description: 'd', prompt: 'p', subagent_type: 'Explore' } })),
      line('p1', 'a1', { type: 'progress', parentToolUseID: 'task1', toolUseID: 'agent_msg_1', data: { type: 'agent_progress', agentId: 'a9', prompt: 'p', normalizedMessages: [],
        message: { type: 'assistant', uuid: 'n1', message: { id: 'msg_9', role: 'assistant', content: [{ type: 'tool_use', id: 'sub1', name: 'Glob', input: { pattern: '*' } }] } } } }),
      line('r1', 'a1', { ...result('task1', [{ type: 'text', text: 'done' }]), toolUseResult: { status: 'completed', agentId: 'a9' } }),
    );
    const { sessions } = read(text);
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => c.name)), [['Task']], 'the subagent\'s own transcript holds its calls');
    assert.equal(sessions[0].results.length, 1);
  });
});
