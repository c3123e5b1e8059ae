// Offsets to 1-based line and column: the one line index, with the line-break rule said out loud, because the two
// views of a file count lines differently and both are right for their reader:
// - 'lf' (JSONL's rule, the default): only \n ends a line; a \r before it stays in the line. This is what a
//   finding's `file:line:col` means in the CLI's reports, SARIF and the decision table.
// - 'editor' (VS Code's rule): \n, \r\n and a lone \r each end a line, so positions match an editor's document
//   for text that is not open in one.

export type LineBreaks = 'lf' | 'editor';

/** The index of the last of `starts` (ascending, starts[0] <= value) at or before `value`: which line, or which
 *  piece, an offset falls in. */
export function lastAtOrBefore(starts: readonly number[], value: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export class LineIndex {
  private readonly starts: number[] = [0];

  static of(text: string, breaks: LineBreaks = 'lf'): LineIndex {
    const index = new LineIndex();
    if (breaks === 'lf') {
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) index.starts.push(i + 1);
      return index;
    }
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        index.starts.push(i + 1);
      } else if (ch === 10 /* \n */) {
        index.starts.push(i + 1);
      }
    }
    return index;
  }

  /** For streaming: record that a line starts at `offset`. */
  addLineStart(offset: number): void {
    if (offset > this.starts[this.starts.length - 1]) this.starts.push(offset);
  }

  position(offset: number): { line: number; column: number } {
    const i = lastAtOrBefore(this.starts, offset);
    return { line: i + 1, column: offset - this.starts[i] + 1 };
  }
}
