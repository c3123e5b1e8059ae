// Bytes read from a file, handed on as slices of whole lines (a JSONL file cut for the check threads): what is read
// goes into one buffer that grows only for a line longer than it, and each slice is copied out into an ArrayBuffer
// of its own (moved to a thread, not copied again). A newline byte never falls inside a UTF-8 sequence, so each
// slice decodes alone as it does in the whole.
export class LineBytes {
  private buf = new Uint8Array(1 << 21);
  private length = 0;
  /** The first bytes known to hold no newline (not searched again: a long line stays linear). */
  private clean = 0;

  get size(): number {
    return this.length;
  }

  push(piece: Uint8Array): void {
    if (this.length + piece.length > this.buf.length) {
      let n = this.buf.length;
      while (n < this.length + piece.length) n *= 2;
      const next = new Uint8Array(n);
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    this.buf.set(piece, this.length);
    this.length += piece.length;
  }

  /** The bytes up to the last newline (included), taken out; undefined when there is none. */
  cut(): Uint8Array | undefined {
    const nl = this.buf.subarray(this.clean, this.length).lastIndexOf(10);
    if (nl < 0) {
      this.clean = this.length;
      return undefined;
    }
    return this.take(this.clean + nl + 1);
  }

  /** Whatever is left (the last line, without its newline). */
  rest(): Uint8Array {
    return this.take(this.length);
  }

  private take(end: number): Uint8Array {
    const out = this.buf.slice(0, end);
    this.buf.copyWithin(0, end, this.length);
    this.length -= end;
    this.clean = 0;
    return out;
  }
}
