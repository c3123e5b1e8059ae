// The one line index and its two line-break rules: 'lf' (JSONL's, what the CLI's file:line:col means) and 'editor'
// (VS Code's: \n, \r\n and a lone \r), on the same text, and streaming line starts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LineIndex } from '../../src/core/parse/line-index';

const at = (index: LineIndex, offsets: number[]) => offsets.map((o) => { const p = index.position(o); return `${p.line}:${p.column}`; });

describe('LineIndex', () => {
  const text = 'a\r\nbc\rd\ne';
  // offsets:    0 1 2  3 4 5  6 7  8
  const offsets = [0, 1, 3, 4, 5, 6, 7, 8];

  it("'lf': only \\n ends a line; a \\r stays in its line", () => {
    assert.deepEqual(at(LineIndex.of(text), offsets), ['1:1', '1:2', '2:1', '2:2', '2:3', '2:4', '2:5', '3:1']);
    assert.deepEqual(at(LineIndex.of(text, 'lf'), offsets), at(LineIndex.of(text), offsets), "'lf' is the default");
  });

  it("'editor': \\r\\n, a lone \\r and \\n each end a line, as VS Code counts them", () => {
    assert.deepEqual(at(LineIndex.of(text, 'editor'), offsets), ['1:1', '1:2', '2:1', '2:2', '2:3', '3:1', '3:2', '4:1']);
  });

  it('the two rules agree on text with \\n breaks only', () => {
    const plain = '{"a":1}\n{"b":2}\n\n{"c":3}';
    const all = [...plain].map((_, i) => i);
    assert.deepEqual(at(LineIndex.of(plain, 'editor'), all), at(LineIndex.of(plain), all));
  });

  it('streaming: line starts recorded as they come give the positions of the whole text', () => {
    const lines = ['{"a":1}\n', '{"bb":2}\n', '{"c":3}'];
    const index = new LineIndex();
    let base = 0;
    for (const l of lines) {
      index.addLineStart(base);
      base += l.length;
    }
    const whole = lines.join('');
    const all = [...whole].map((_, i) => i);
    assert.deepEqual(at(index, all), at(LineIndex.of(whole), all));
    index.addLineStart(3); // a start behind the last one is ignored
    assert.deepEqual(at(index, all), at(LineIndex.of(whole), all));
  });
});
