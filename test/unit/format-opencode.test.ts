// OpenCode on small hand-made traces: an export's steps as turns, state as result, error and exit signals, parts that
// never finished, the storage layout's one-part files, and streamed events whose copies are read once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spanOf } from '../../src/core/parse/doc';
import { readTrace, jsonl } from './helpers';

const read = (text: string, fileName: string) => readTrace(text, { fileName });


const tool = (callID: string, name: string, state: object, extra: object = {}) => ({ id: `prt_${callID}`, type: 'tool', callID, tool: name, state, ...extra });
const done = (input: object, output: string, metadata: object = {}) => ({ status: 'completed', input, output, title: 't', metadata, time: { start: 1, end: 2 } });

function exportOf(...messages: object[]) {
  return { info: { id: 'ses_1', version: '1.18.0', time: { created: 1, updated: 2 } }, messages };
}
const user = (text: string) => ({ info: { id: 'msg_u', role: 'user', sessionID: 'ses_1' }, parts: [{ type: 'text', text }] });
const assistant = (id: string, ...parts: object[]) => ({ info: { id, role: 'assistant', sessionID: 'ses_1' }, parts });

describe('opencode export', () => {
  it('reads a step\'s tool parts as one turn, each answered by its own state, with exit codes and error states', () => {
    const doc = exportOf(
      user('fix it'),
      assistant('msg_a1', { type: 'step-start' }, { type: 'text', text: 'Running both.' },
        tool('c1', 'bash', done({ command: 'make test' }, 'FAIL', { output: 'FAIL', exit: 2 })),
        tool('c2', 'edit', { status: 'error', input: { filePath: 'a.ts', oldString: 'x', newString: 'y' }, error: 'Could not find oldString', time: { start: 1, end: 2 } }),
        { type: 'step-finish', reason: 'tool-calls' },
        { type: 'step-start' }, tool('c3', 'read', done({ filePath: 'a.ts' }, 'text')), { type: 'step-finish', reason: 'tool-calls' }),
      assistant('msg_a2', { type: 'text', text: 'Done.' }),
    );
    const text = JSON.stringify(doc, null, 2);
    const { r, sessions: [s], pos } = read(text, 'session.json');
    assert.equal(r.format, 'opencode');
    assert.equal(s.id, 'ses_1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['bash', 'c1', 1], ['edit', 'c2', 1], ['read', 'c3', 2]]);
    assert.equal(s.calls[0].messageText, 'Running both.');
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [
      ['c1', { isError: false, exitCode: 2 }], ['c2', { isError: true }], ['c3', { isError: false }]]);
    assert.equal(s.results[1].payload, 'Could not find oldString');
    assert.equal(s.continuedAfterCalls, true, 'the closing text answer came after the calls');
    // the call points at its tool name, its arguments at state.input, its result at the state
    const bashLine = text.split('\n').findIndex((l) => l.includes('"tool": "bash"')) + 1;
    assert.equal(pos(spanOf(s.calls[0].nameAt).start), `${bashLine}:${text.split('\n')[bashLine - 1].indexOf('"bash"') + 1}`);
    assert.ok(text.slice(spanOf(s.calls[0].argsAt).start).startsWith('{\n'), 'arguments anchor at the input object');
    assert.ok(text.slice(spanOf(s.results[0].at).start).startsWith('{\n'), 'the result is the state object');
    assert.ok(!r.findings.some((f) => f.code === 'status-theater'), 'an error state is an honest failure');
  });

  it('leaves pending and running parts unanswered: the session went on without them', () => {
    const doc = exportOf(
      assistant('msg_a1', tool('c1', 'bash', { status: 'running', input: { command: 'sleep 100' }, time: { start: 1 } }),
        tool('c2', 'read', { status: 'pending', input: {}, raw: '{"filePa' }), tool('c3', 'glob', done({ pattern: '*.ts' }, 'a.ts'))),
      user('stop'),
    );
    const { sessions: [s], r } = read(JSON.stringify(doc), 'session.json');
    assert.equal(s.calls.length, 3);
    assert.deepEqual(s.results.map((x) => x.callId), ['c3']);
    assert.deepEqual(r.findings.filter((f) => f.code === 'orphan-call').map((f) => [f.tool, f.severity]), [['bash', 'warning'], ['read', 'warning']]);
  });

  it('gives an interrupted tool the partial output the model saw, still as an error', () => {
    const doc = exportOf(assistant('msg_a1', tool('c1', 'bash', { status: 'error', input: { command: 'npm test' }, error: 'Tool execution aborted',
      metadata: { interrupted: true, output: 'partial log', exit: 130 }, time: { start: 1, end: 2 } })));
    const { sessions: [s] } = read(JSON.stringify(doc), 'session.json');
    assert.equal(s.results[0].payload, 'partial log');
    assert.deepEqual(s.results[0].transport, { isError: true, exitCode: 130 });
  });

  it('flags the same read repeated in a later step with nothing changed in between', () => {
    const doc = exportOf(
      assistant('msg_a1', tool('c1', 'read', done({ filePath: 'a.ts' }, 'x'))),
      assistant('msg_a2', tool('c2', 'read', done({ filePath: 'a.ts' }, 'x'))),
    );
    const { r } = read(JSON.stringify(doc), 'session.json');
    assert.deepEqual(r.findings.filter((f) => f.code === 'duplicate-fingerprint').map((f) => f.callId), ['c2']);
  });

  it('reads the server\'s bare message list and an old export\'s tool-invocation parts', () => {
    const list = [
      { info: { id: 'msg_a1', role: 'assistant', sessionID: 'ses_9' }, parts: [
        { type: 'tool-invocation', toolInvocation: { state: 'result', toolCallId: 'x1', toolName: 'list', args: { path: '.' }, result: 'a\nb' } }] },
    ];
    const { r, sessions: [s] } = read(JSON.stringify(list), 'messages.json');
    assert.equal(r.format, 'opencode');
    assert.equal(s.id, 'ses_9');
    assert.deepEqual([s.calls[0].name, s.calls[0].args], ['list', { path: '.' }]);
    assert.deepEqual([s.results[0].callId, s.results[0].payload], ['x1', 'a\nb']);
  });

  it('leaves a messages document of another shape alone', () => {
    const { r } = read(JSON.stringify({ info: { id: 'x' }, messages: [{ role: 'user', content: 'hi' }] }), 'other.json');
    assert.notEqual(r.format, 'opencode');
  });
});

describe('opencode storage files', () => {
  it('reads one part file as a one-call trace, and recognises a message info file', () => {
    const part = { ...tool('c1', 'write', done({ filePath: 'a.ts', content: 'x' }, 'Wrote file')), sessionID: 'ses_2', messageID: 'msg_1' };
    const one = read(JSON.stringify(part, null, 2), 'prt_c1.json');
    assert.equal(one.r.format, 'opencode');
    assert.equal(one.sessions[0].id, 'ses_2');
    assert.deepEqual([one.sessions[0].calls.length, one.sessions[0].results.length], [1, 1]);
    assert.deepEqual(one.codes, ['no-contract 5:11 write']);
    const info = read(JSON.stringify({ id: 'msg_1', sessionID: 'ses_2', role: 'assistant', time: { created: 1 }, modelID: 'm', providerID: 'p' }), 'msg_1.json');
    assert.equal(info.r.format, 'opencode');
    assert.deepEqual([info.r.calls, info.r.findings], [0, []]);
  });
});

describe('opencode events', () => {
  it('reads a bus event stream\'s part once, in its last state, where it last appeared', () => {
    const ev = (state: object) => ({ type: 'message.part.updated', properties: { part: { ...tool('c1', 'bash', state), sessionID: 'ses_3', messageID: 'msg_1' } } });
    const text = jsonl(
      { type: 'message.updated', properties: { info: { id: 'msg_0', role: 'user', sessionID: 'ses_3' } } },
      ev({ status: 'pending', input: {}, raw: '' }),
      ev({ status: 'running', input: { command: 'ls' }, time: { start: 1 } }),
      ev(done({ command: 'ls' }, 'a', { exit: 0 })),
      { type: 'session.idle', properties: { sessionID: 'ses_3' } },
    );
    const { r, sessions: [s], codes } = read(text, 'events.jsonl');
    assert.equal(r.format, 'opencode');
    assert.equal(s.id, 'ses_3');
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.calls[0].args, { command: 'ls' });
    assert.deepEqual(s.results[0].transport, { isError: false, exitCode: 0 });
    assert.deepEqual(codes, ['no-contract 4:103 bash'], 'the completed copy on line 4 is the call');
  });

  it('reads `opencode run --format json` lines: tool_use parts, text between them', () => {
    const run = (type: string, part: object) => ({ type, timestamp: 1, sessionID: 'ses_4', part });
    const text = jsonl(
      run('step_start', { type: 'step-start' }),
      run('tool_use', tool('c1', 'grep', done({ pattern: 'TODO' }, 'none'))),
      run('step_finish', { type: 'step-finish', reason: 'tool-calls' }),
      run('step_start', { type: 'step-start' }),
      run('tool_use', tool('c2', 'webfetch', { status: 'error', input: { url: 'http://x' }, error: 'HTTP 404', time: { start: 1, end: 2 } })),
      run('step_finish', { type: 'step-finish', reason: 'tool-calls' }),
      run('text', { id: 'prt_t', type: 'text', text: 'Nothing to do.', time: { start: 1, end: 2 } }),
    );
    const { sessions: [s] } = read(text, 'run.jsonl');
    assert.deepEqual(s.calls.map((c) => [c.name, c.turn]), [['grep', 1], ['webfetch', 2]]);
    assert.deepEqual(s.results.map((x) => x.transport.isError), [false, true]);
    assert.equal(s.continuedAfterCalls, true);
  });
});
