// The line index of a file read as it streams (a one-session 500 MB trace has over a million lines): its line
// starts kept in chunks of a Uint32Array, 4 bytes a line, each chunk's first start as a number beside it. A plain
// array of starts was one large object grown by copying, and each copy it left waited for a full collection.
import { lastAtOrBefore, LineIndex } from '../core';

const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;

export class StreamedLineIndex extends LineIndex {
  /** Per chunk: its first start, its first line (0-based), and its starts as distances from its first one (a new
   *  chunk begins when a chunk is full or a distance would not fit 32 bits). */
  private readonly bases: number[] = [];
  private readonly firstLines: number[] = [];
  private readonly chunks: Uint32Array[] = [];
  private used = CHUNK;
  private count = 0;
  private last = -1;

  constructor() {
    super();
    this.push(0);
  }

  override addLineStart(offset: number): void {
    if (offset > this.last) this.push(offset);
  }

  override position(offset: number): { line: number; column: number } {
    const k = Math.max(0, lastAtOrBefore(this.bases, offset));
    const chunk = this.chunks[k];
    const n = k === this.chunks.length - 1 ? this.used : this.firstLines[k + 1] - this.firstLines[k];
    const delta = offset - this.bases[k];
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (chunk[mid] <= delta) lo = mid;
      else hi = mid - 1;
    }
    return { line: this.firstLines[k] + lo + 1, column: delta - chunk[lo] + 1 };
  }

  private push(offset: number): void {
    const k = this.chunks.length - 1;
    if (this.used === CHUNK || offset - this.bases[k] > 0xffffffff) {
      this.chunks.push(new Uint32Array(CHUNK));
      this.bases.push(offset);
      this.firstLines.push(this.count);
      this.used = 0;
    }
    this.chunks[this.chunks.length - 1][this.used++] = offset - this.bases[this.bases.length - 1];
    this.count++;
    this.last = offset;
  }
}
