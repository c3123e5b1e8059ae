// Copilot CLI events.jsonl on small hand-made traces: the request is the call (its execution_start a mirror),
// execution_complete the result with its error and exit signals, replays and ephemeral events skipped, sub-agents apart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readTrace, jsonl } from './helpers';

const read = (text: string) => readTrace(text, { fileName: 'events.jsonl' });

let n = 0;
const ev = (type: string, data: object, extra: object = {}) => ({ type, data, id: `e${++n}`, timestamp: '2026-01-01T00:00:00.000Z', parentId: null, ...extra });
const start = ev('session.start', { sessionId: 'sess-1', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.70' });

describe('copilot-cli', () => {
  it('reads a tool request as the call and its execution_complete as the result; execution_start only mirrors it', () => {
    const text = jsonl(
      start,
      ev('user.message', { content: 'list /tmp' }),
      ev('assistant.message', { messageId: 'm1', content: 'Listing.', toolRequests: [{ toolCallId: 'call_1', name: 'bash', arguments: { command: 'ls /tmp' }, type: 'function' }] }),
      ev('tool.execution_start', { toolCallId: 'call_1', toolName: 'bash', arguments: { command: 'ls /tmp', initial_wait: 30 } }),
      ev('tool.execution_complete', { toolCallId: 'call_1', success: true, result: { content: 'a\nb', contents: [{ type: 'terminal', text: 'a\nb', exitCode: 0 }] } }),
      ev('assistant.message', { messageId: 'm2', content: 'Two files.', toolRequests: [] }),
    );
    const { r, sessions: [s], codes } = read(text);
    assert.equal(r.format, 'copilot-cli');
    assert.equal(s.id, 'sess-1', 'session.start names the session');
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.calls[0].args, { command: 'ls /tmp' }, 'the model\'s request, not what the runtime added');
    assert.equal(s.calls[0].messageText, 'Listing.');
    assert.deepEqual(s.results[0].transport, { isError: false, exitCode: 0 });
    assert.deepEqual(s.results[0].payload, { content: 'a\nb', contents: [{ type: 'terminal', text: 'a\nb', exitCode: 0 }] });
    assert.deepEqual(codes, ['no-contract 3:121 bash']);
  });

  it('gives a failed execution its error as payload and success:false as an error signal', () => {
    const text = jsonl(
      start,
      ev('assistant.message', { content: '', toolRequests: [{ toolCallId: 'c1', name: 'edit', arguments: { path: 'a', old_str: 'x', new_str: 'y' } }] }),
      ev('tool.execution_complete', { toolCallId: 'c1', success: false, error: { message: 'No match found', code: 'failure' } }),
    );
    const { sessions: [s], r } = read(text);
    assert.deepEqual(s.results[0].transport, { isError: true });
    assert.deepEqual(s.results[0].payload, { message: 'No match found', code: 'failure' });
    assert.ok(!r.findings.some((f) => f.code === 'status-theater' || f.code === 'orphan-call'));
  });

  it('takes the call from execution_start when no request recorded it, and decodes string arguments', () => {
    const text = jsonl(
      ev('tool.execution_start', { toolCallId: 'u1', toolName: 'bash', arguments: { command: 'git status' } }),
      ev('tool.execution_complete', { toolCallId: 'u1', success: true, isUserRequested: true, result: { content: 'clean' } }),
      ev('assistant.message', { content: '', toolRequests: [{ toolCallId: 'c2', name: 'view', arguments: '{"path":"README.md"}' }] }),
      ev('tool.execution_complete', { toolCallId: 'c2', success: true, result: { content: '# hi' } }),
    );
    const { sessions: [s], r } = read(text);
    assert.deepEqual(s.calls.map((c) => [c.name, c.encoding]), [['bash', 'object'], ['view', 'json-string']]);
    assert.deepEqual(s.calls[1].args, { path: 'README.md' });
    assert.ok(!r.findings.some((f) => f.code === 'arguments-encoding'), 'a JSON string is how VS Code transcripts write arguments');
  });

  it('skips ephemeral deltas and replayed events, and keeps a sub-agent\'s calls in a session of its own', () => {
    const request = ev('assistant.message', { content: '', toolRequests: [{ toolCallId: 'c1', name: 'task', arguments: { prompt: 'look' } }] });
    const text = jsonl(
      start,
      ev('assistant.tool_call_delta', { toolCallId: 'c1', toolName: 'task', inputDelta: '{"prompt"' }, { ephemeral: true }),
      request,
      request,
      ev('assistant.message', { content: '', toolRequests: [{ toolCallId: 's1', name: 'grep', arguments: { pattern: 'x' } }] }, { agentId: 'agent-7' }),
      ev('tool.execution_complete', { toolCallId: 's1', success: true, result: { content: '' } }, { agentId: 'agent-7' }),
      ev('tool.execution_complete', { toolCallId: 'c1', success: true, result: { content: 'found it' } }),
    );
    const { sessions } = read(text);
    assert.deepEqual(sessions.map((s) => [s.id, s.calls.map((c) => c.name), s.results.length]), [
      ['sess-1', ['task'], 1], ['sess-1#agent:agent-7', ['grep'], 1]]);
  });

  it('reports a call the session went on without', () => {
    const text = jsonl(
      start,
      ev('assistant.message', { content: '', toolRequests: [{ toolCallId: 'c1', name: 'view', arguments: { path: 'a' } }, { toolCallId: 'c2', name: 'view', arguments: { path: 'b' } }] }),
      ev('tool.execution_complete', { toolCallId: 'c2', success: true, result: { content: 'b' } }),
      ev('user.message', { content: 'next' }),
    );
    const { r } = read(text);
    assert.deepEqual(r.findings.filter((f) => f.code === 'orphan-call').map((f) => [f.callId, f.severity]), [['c1', 'warning']]);
  });
});
