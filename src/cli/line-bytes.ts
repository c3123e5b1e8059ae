// Bytes read from a file, handed on as slices of whole lines (a JSONL file cut for the check threads): what is read
// goes into one buffer that grows only for a line longer than it, and each slice is copied out into an ArrayBuffer
// of its own (moved to a thread, not copied again, and moved back when the thread is done with it: `recycle`, so
// a few buffers go round instead of one new one per slice). A newline byte never falls inside a UTF-8 sequence, so
// each slice decodes alone as it does in the whole. A buffer let go is freed at once (`freeNow`), not left for the
// heap to find.
import { MessageChannel, type MessagePort } from 'node:worker_threads';

/** Free buffers kept (as many as may be out at once on two threads, and one). */
const FREE_BUFFERS = 8;

let closed: MessagePort | undefined;

/** Frees an ArrayBuffer's memory now: moved into a message on a closed port, it is detached and the message dropped
 *  (Node 20 has no ArrayBuffer.prototype.transfer). Only dropped, its memory (outside the heap, a few bytes of
 *  object in it) waits for this thread's next full collection, which a main thread that hands the file to a thread
 *  may not have before the run ends (one-session 100 MB trace: 18 MB of search buffers held for 40 s). */
export function freeNow(buffer: ArrayBuffer): void {
  if (!closed) {
    closed = new MessageChannel().port1;
    closed.close();
  }
  try {
    closed.postMessage(undefined, [buffer]);
  } catch {
    // not transferable (never the case for these buffers): the heap frees it in its time
  }
}

export class LineBytes {
  private buf = new Uint8Array(1 << 21);
  private length = 0;
  /** The first bytes known to hold no newline (not searched again: a long line stays linear). */
  private clean = 0;
  /** Buffers back from the threads, to be filled again. */
  private readonly free: ArrayBuffer[] = [];
  /** `release`d: buffers that come back are freed at once. */
  private released = false;

  get size(): number {
    return this.length;
  }

  push(piece: Uint8Array): void {
    if (this.length + piece.length > this.buf.length) {
      let n = this.buf.length;
      while (n < this.length + piece.length) n *= 2;
      const next = new Uint8Array(n);
      next.set(this.buf.subarray(0, this.length));
      freeNow(this.buf.buffer); // views of it are not used past a push
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

  /** The bytes held, to search for a cut of one's own (a view: valid until the next push or cut). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** The first `end` bytes, taken out (`end` at the start of a line: see session-slices.ts). */
  cutAt(end: number): Uint8Array {
    return this.take(end);
  }

  /** A buffer of a slice taken out before, free again. */
  recycle(buffer: ArrayBuffer): void {
    if (!this.released && this.free.length < FREE_BUFFERS) this.free.push(buffer);
    else freeNow(buffer);
  }

  /** Done with: the bytes held and the free buffers freed now, and those that come back later as they come (what
   *  was cut out and handed on is not touched). */
  release(): void {
    this.released = true;
    freeNow(this.buf.buffer);
    this.buf = new Uint8Array(0);
    this.length = 0;
    this.clean = 0;
    for (const b of this.free.splice(0)) freeNow(b);
  }

  private take(end: number): Uint8Array {
    let out: Uint8Array | undefined;
    for (let i = this.free.length - 1; i >= 0 && !out; i--) {
      if (this.free[i].byteLength < end) continue;
      out = new Uint8Array(this.free[i], 0, end);
      this.free.splice(i, 1);
    }
    // a new buffer leaves room for the next slices, which are about as large
    out ??= new Uint8Array(new ArrayBuffer(end + (end >> 2)), 0, end);
    out.set(this.buf.subarray(0, end));
    this.buf.copyWithin(0, end, this.length);
    this.length -= end;
    this.clean = 0;
    return out;
  }
}
