// The Gemini CLI adapter on small hand-made traces: `.jsonl` recordings (a message written again as it changes,
// `$set` copies, `$rewindTo`), legacy `.json` recordings (call statuses, results as a string, copies of the
// responses in user messages), saved chats of Content, `--output-format stream-json` output and `logs.json`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';
import { spanOf } from '../../src/core/parse/doc';

function read(text: string, fileName: string) {
  return readModel(text, { fileName });
}

const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const at = (text: string, s: { start: number; end: number }) => text.slice(s.start, s.end);
const header = { sessionId: 's-1', projectHash: 'p', startTime: '2026-01-01T00:00:00Z', lastUpdated: '2026-01-01T00:00:00Z', kind: 'main' };
const user = (id: string, text: string) => ({ id, timestamp: 't', type: 'user', content: [{ text }] });
const response = (id: string, name: string, out: object) => [{ functionResponse: { id, name, response: out } }];
const toolCall = (id: string, name: string, args: object, status: string, result?: unknown) =>
  ({ id, name, args, status, timestamp: 't', ...(result === undefined ? {} : { result }), displayName: name, description: '' });

describe('gemini-cli: .jsonl recordings', () => {
  it('reads a message written several times once, from its last copy, and skips the responses a user message repeats', () => {
    const call = toolCall('read_file_1_0', 'read_file', { file_path: 'a.md' }, 'success', response('read_file_1_0', 'read_file', { output: 'A' }));
    const text = jsonl(
      header,
      user('u1', 'read a.md'),
      { $set: { lastUpdated: 't' } },
      { id: 'g1', timestamp: 't', type: 'gemini', content: '', model: 'gemini-3' },
      { id: 'g1', timestamp: 't', type: 'gemini', content: '', model: 'gemini-3', tokens: { input: 1, output: 1, cached: 0, total: 2 } },
      { id: 'g1', timestamp: 't', type: 'gemini', content: '', model: 'gemini-3', toolCalls: [call] },
      { id: 'u2', timestamp: 't', type: 'user', content: response('read_file_1_0', 'read_file', { output: 'A' }) },
      { $set: { lastUpdated: 't' } },
      { id: 'g2', timestamp: 't', type: 'gemini', content: 'done', model: 'gemini-3' },
    );
    const { r, sessions } = read(text, 'session-2026-01-01T00-00-s1.jsonl');
    assert.equal(r.format, 'gemini-cli');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.equal(s.id, 's-1', 'the header names the session');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['read_file', 'read_file_1_0']]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload, x.transport]), [['read_file_1_0', 'A', { isError: false }]]);
    // the call points into the last copy of its message (line 6)
    const line6 = text.split('\n').slice(0, 5).join('\n').length + 1;
    assert.ok(spanOf(s.calls[0].nameAt).start > line6);
    assert.equal(at(text, spanOf(s.calls[0].nameAt)), '"read_file"');
    assert.deepEqual(r.findings.map((f) => f.code), ['no-contract']);
  });

  it('reads messages a $set list holds only when no line of their own does, and rewound messages as a session of their own', () => {
    const text = jsonl(
      header,
      { $set: { messages: [user('u0', 'context'), { id: 'g0', timestamp: 't', type: 'gemini', content: '', toolCalls: [toolCall('ls_0', 'ls', { dir: '.' }, 'success', response('ls_0', 'ls', { output: 'a' }))] }] } },
      { id: 'g0', timestamp: 't', type: 'gemini', content: '', toolCalls: [toolCall('ls_0', 'ls', { dir: '.' }, 'success', response('ls_0', 'ls', { output: 'a' }))] },
      user('u1', 'write it'),
      { id: 'g1', timestamp: 't', type: 'gemini', content: '', toolCalls: [toolCall('w_1', 'write_file', { file_path: 'x', content: '1' }, 'success', response('w_1', 'write_file', { output: 'ok' }))] },
      { $rewindTo: 'u1' },
      user('u2', 'write it again'),
      { id: 'g2', timestamp: 't', type: 'gemini', content: '', toolCalls: [toolCall('w_2', 'write_file', { file_path: 'x', content: '1' }, 'success', response('w_2', 'write_file', { output: 'ok' }))] },
    );
    const { sessions } = read(text, 'session.jsonl');
    assert.deepEqual(sessions.map((s) => [s.id, s.calls.map((c) => c.id)]), [['s-1', ['ls_0', 'w_2']], ['s-1#rewound-1', ['w_1']]]);
    // ls_0 from its own line (3), not from the $set copy (2)
    const line3 = text.split('\n').slice(0, 2).join('\n').length + 1;
    assert.ok(spanOf(sessions[0].calls[0].nameAt).start > line3);
  });

  it('takes stream-json output: tool_use and tool_result events linked by tool_id, an error status as the transport', () => {
    const text = jsonl(
      { type: 'init', timestamp: 't', session_id: 'run-1', model: 'gemini-2.5-pro' },
      { type: 'message', timestamp: 't', role: 'user', content: 'list' },
      { type: 'tool_use', timestamp: 't', tool_name: 'list_directory', tool_id: 'ld-1', parameters: { dir_path: '.' } },
      { type: 'tool_use', timestamp: 't', tool_name: 'read_file', tool_id: 'rf-1', parameters: { file_path: 'nope' } },
      { type: 'tool_result', timestamp: 't', tool_id: 'ld-1', status: 'success', output: 'a\nb' },
      { type: 'tool_result', timestamp: 't', tool_id: 'rf-1', status: 'error', error: { type: 'file_not_found', message: 'File not found' } },
      { type: 'message', timestamp: 't', role: 'assistant', content: 'done', delta: true },
      { type: 'result', timestamp: 't', status: 'success', stats: { tool_calls: 2 } },
    );
    const { r, sessions: [s] } = read(text, 'out.jsonl');
    assert.equal(r.format, 'gemini-cli');
    assert.equal(s.id, 'run-1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.turn]), [['list_directory', 1], ['read_file', 1]]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['ld-1', false], ['rf-1', true]]);
    assert.deepEqual(s.results[1].payload, { type: 'file_not_found', message: 'File not found' });
  });
});

describe('gemini-cli: .json recordings and saved chats', () => {
  it('reads statuses: cancelled without a response is a failed result, a call still executing has none, a string result is the payload', () => {
    const text = JSON.stringify({
      sessionId: 's-2', projectHash: 'p', startTime: 't', lastUpdated: 't',
      messages: [
        { id: 'u1', timestamp: 't', type: 'user', content: 'go' },
        { id: 'g1', timestamp: 't', type: 'gemini', content: 'three calls', toolCalls: [
          toolCall('a-1', 'run_shell_command', { command: 'ls' }, 'cancelled'),
          toolCall('b-1', 'web_fetch', { prompt: 'x' }, 'executing'),
          toolCall('c-1', 'glob', { pattern: '*' }, 'success', 'no files found'),
        ] },
        { id: 'i1', timestamp: 't', type: 'info', content: 'Request cancelled.' },
        { id: 'u2', timestamp: 't', type: 'user', content: [{ text: 'never mind' }] },
      ],
    }, null, 2);
    const { r, sessions: [s] } = read(text, 'session-x.json');
    assert.equal(r.format, 'gemini-cli');
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError, x.payload]), [['a-1', true, undefined], ['c-1', false, 'no files found']]);
    assert.equal(s.calls[0].messageText, 'three calls');
    // web_fetch never got a result and the session went on
    const orphans = r.findings.filter((f) => f.code === 'orphan-call');
    assert.deepEqual(orphans.map((f) => [f.tool, f.severity]), [['web_fetch', 'warning']]);
  });

  it('reads a saved chat ({history: Content[]}) and a bare Content[] checkpoint as Gemini contents', () => {
    const history = [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ functionCall: { id: 'f1', name: 'google_web_search', args: { query: 'x' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'f1', name: 'google_web_search', response: { output: 'results' } } }] },
      { role: 'model', parts: [{ text: 'found it' }] },
    ];
    for (const [doc, name] of [[{ history, authType: 'oauth-personal' }, 'checkpoint-tag.json'], [history, 'checkpoint-old.json']] as const) {
      const { r, sessions: [s] } = read(JSON.stringify(doc), name);
      assert.equal(r.format, 'gemini-cli', name);
      assert.deepEqual(s.calls.map((c) => c.id), ['f1']);
      assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['f1', 'results']]);
    }
  });

  it('recognises logs.json (prompts only) and finds nothing to check in it', () => {
    const { r } = read(JSON.stringify([{ sessionId: 's', messageId: 0, type: 'user', message: 'hello', timestamp: 't' }]), 'logs.json');
    assert.equal(r.calls, 0);
    assert.deepEqual(r.findings, []);
  });
});
