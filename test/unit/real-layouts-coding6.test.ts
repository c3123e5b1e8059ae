// Layouts of coding-agent transcripts swept in round six. Entire's compact transcript: a message's calls carry
// the text of its `text` blocks only (the block-text rule shared with the Anthropic reader). Every trace here is
// small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const head = { v: 1, agent: 'codex', cli_version: '0.9.3' };

describe('Entire compact transcript: message text of calls', () => {
  it('joins only the text blocks, one per line, and gives none to a message without text', () => {
    const text = jsonl([
      { ...head, type: 'user', ts: '2026-04-01T09:00:00Z', content: [{ id: 'p1', text: 'fix the build' }] },
      { ...head, type: 'assistant', ts: '2026-04-01T09:00:03Z', id: 'm1', content: [
        { type: 'text', text: 'Checking.' },
        { type: 'reasoning', text: 'not shown to the user' },
        { type: 'text', text: 'Running make.' },
        { type: 'tool_use', id: 'call_1', name: 'exec_command', input: { cmd: 'make' }, result: { output: 'ok', status: 'success' } },
      ] },
      { ...head, type: 'assistant', ts: '2026-04-01T09:00:09Z', id: 'm2', content: [
        { type: 'tool_use', id: 'call_2', name: 'apply_patch', input: { patch: '*** Begin Patch' }, result: { output: 'bad hunk', status: 'failed' } },
      ] },
    ]);
    const { r, sessions } = readModel(text, { fileName: 'transcript.jsonl' });
    assert.equal(r.format, 'entire');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['exec_command', 'call_1', 1], ['apply_patch', 'call_2', 2]]);
    assert.equal(s.calls[0].messageText, 'Checking.\nRunning make.');
    assert.equal(s.calls[1].messageText, undefined);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['call_1', undefined], ['call_2', true]]);
  });
});
