// A cheap stamp of a text that arrives in chunks, to tell whether a second reading of a file read the same text as
// the first (a document read in parts is read twice; a file rewritten in between must not be checked as a mix of
// both). Length alone misses a rewrite of the same size, so the stamp also digests the head whole and one character
// in every STRIDE after it: a few milliseconds for 100 MB, and any rewrite that touches the head or more than a
// stride of text shows. Positions count from the text's start, so the chunking of either reading does not matter.

const HEAD = 1 << 16;
const STRIDE = 64;

export class TextStamp {
  /** Characters read. */
  length = 0;
  private hash = 0x811c9dc5; // FNV-1a, 32 bits

  push(chunk: string): void {
    const start = this.length;
    const headEnd = Math.min(chunk.length, Math.max(0, HEAD - start));
    let h = this.hash;
    for (let i = 0; i < headEnd; i++) h = Math.imul(h ^ chunk.charCodeAt(i), 0x01000193);
    // past the head: the characters at offsets that are multiples of STRIDE
    const first = headEnd + ((STRIDE - ((start + headEnd) % STRIDE)) % STRIDE);
    for (let i = first; i < chunk.length; i += STRIDE) h = Math.imul(h ^ chunk.charCodeAt(i), 0x01000193);
    this.hash = h;
    this.length = start + chunk.length;
  }

  /** Whether `other` read the same length and digest. */
  same(other: TextStamp): boolean {
    return this.length === other.length && this.hash === other.hash;
  }
}
