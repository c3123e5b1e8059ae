// Goose on small hand-made traces: the legacy session JSONL, a session export, stream-json lines; requests answered
// by responses through their id, the error status and CallToolResult.isError as error signals, unparsable requests.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readTrace, jsonl } from './helpers';

const read = (text: string, fileName: string) => readTrace(text, { fileName });

const request = (id: string, name: string, args: object) => ({ type: 'toolRequest', id, toolCall: { status: 'success', value: { name, arguments: args } } });
const response = (id: string, toolResult: object) => ({ type: 'toolResponse', id, toolResult });
const msg = (role: string, ...content: object[]) => ({ role, created: 1747178334, content });

describe('goose', () => {
  it('reads a legacy session file: metadata line, a request, its response marked isError', () => {
    const text = jsonl(
      { working_dir: '/w', description: 'fix tests', message_count: 3, total_tokens: 10 },
      msg('user', { type: 'text', text: 'run the tests' }),
      msg('assistant', { type: 'text', text: 'Running.' }, request('t1', 'developer__shell', { command: 'cargo test' })),
      msg('user', response('t1', { status: 'success', value: { content: [{ type: 'text', text: 'error[E0425]' }], isError: true } })),
      msg('assistant', { type: 'text', text: 'It fails.' }),
    );
    const { r, sessions: [s], codes } = read(text, 'session.jsonl');
    assert.equal(r.format, 'goose');
    assert.deepEqual([s.calls[0].name, s.calls[0].id, s.calls[0].messageText], ['developer__shell', 't1', 'Running.']);
    assert.deepEqual(s.results[0].transport, { isError: true });
    assert.equal(s.continuedAfterCalls, true);
    assert.deepEqual(codes, ['no-contract 3:166 developer__shell']);
  });

  it('takes an error status as an error result, and skips a request Goose could not parse with its response', () => {
    const text = jsonl(
      msg('assistant', request('t1', 'developer__text_editor', { command: 'view', path: 'a' }), { type: 'toolRequest', id: 't2', toolCall: { status: 'error', error: 'Could not interpret tool use parameters' } }),
      msg('user', response('t1', { status: 'error', error: '-32603: File not found' }), response('t2', { status: 'error', error: 'Could not interpret tool use parameters' })),
    );
    const { sessions: [s], r } = read(text, 'session.jsonl');
    assert.deepEqual(s.calls.map((c) => c.id), ['t1']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload, x.transport]), [['t1', '-32603: File not found', { isError: true }]]);
    assert.ok(!r.findings.some((f) => f.code === 'orphan-result' || f.code === 'status-theater'));
  });

  it('reads a session export: its id, frontend tool requests as calls, legacy bare content arrays as results', () => {
    const doc = {
      id: '20260101_1', name: 'demo', working_dir: '/w', message_count: 2, conversation: [
        msg('assistant', { type: 'frontendToolRequest', id: 'f1', toolCall: { status: 'success', value: { name: 'open_file', arguments: { path: 'README.md' } } } }),
        msg('user', response('f1', { status: 'success', value: [{ type: 'text', text: 'opened' }] })),
      ],
    };
    const { r, sessions: [s] } = read(JSON.stringify(doc, null, 2), 'export.json');
    assert.equal(r.format, 'goose');
    assert.equal(s.id, '20260101_1');
    assert.deepEqual(s.calls.map((c) => c.name), ['open_file']);
    assert.deepEqual(s.results[0].transport, { isError: false });
  });

  it('reads stream-json lines once when a message is sent again', () => {
    const line = { type: 'message', message: { id: 'm1', ...msg('assistant', request('t1', 'todo__write', { items: ['a'] })) } };
    const text = jsonl(
      line,
      line,
      { type: 'message', message: { id: 'm2', ...msg('user', response('t1', { status: 'success', value: { content: [], isError: false } })) } },
      { type: 'complete', total_tokens: 12 },
    );
    const { r, sessions: [s] } = read(text, 'run.jsonl');
    assert.equal(r.format, 'goose');
    assert.deepEqual([s.calls.length, s.results.length], [1, 1]);
    assert.ok(!r.findings.some((f) => f.code === 'duplicate-call-id' || f.code === 'duplicate-fingerprint'));
  });

  it('leaves an array of plain chat messages to other readers', () => {
    const { r } = read(JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]), 'chat.json');
    assert.notEqual(r.format, 'goose');
  });
});
