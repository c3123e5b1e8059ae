// The streamed line index (src/cli/line-starts.ts) answers every offset as the whole text's LineIndex does, across
// many chunks of line starts, fed as a stream feeds it (starts repeated or out of order are ignored).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LineIndex } from '../../src/core';
import { StreamedLineIndex } from '../../src/cli/line-starts';

describe('StreamedLineIndex', () => {
  it('gives the positions of LineIndex.of for a text of 10,000 lines of varied lengths', () => {
    const lines: string[] = [];
    for (let i = 0; i < 10_000; i++) lines.push('x'.repeat((i * 7919) % 97));
    const text = lines.join('\n');
    const whole = LineIndex.of(text);
    const streamed = new StreamedLineIndex();
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      streamed.addLineStart(i + 1);
      streamed.addLineStart(i + 1); // the same start again: ignored
      streamed.addLineStart(0); // an earlier one: ignored
    }
    for (let offset = 0; offset <= text.length; offset += 13) assert.deepEqual(streamed.position(offset), whole.position(offset), `offset ${offset}`);
    assert.deepEqual(streamed.position(text.length), whole.position(text.length));
    assert.equal(streamed.position(text.length).line, 10_000);
  });

  it('is line 1 for every offset of a text with no newline, and counts offsets past 2^32', () => {
    const one = new StreamedLineIndex();
    assert.deepEqual(one.position(0), { line: 1, column: 1 });
    assert.deepEqual(one.position(500), { line: 1, column: 501 });
    const far = new StreamedLineIndex();
    far.addLineStart(2 ** 32 + 10);
    far.addLineStart(2 ** 33);
    assert.deepEqual(far.position(2 ** 32 + 12), { line: 2, column: 3 });
    assert.deepEqual(far.position(2 ** 33 + 1), { line: 3, column: 2 });
  });
});
