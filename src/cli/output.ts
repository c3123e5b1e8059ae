// Where `check` writes its report as it is made: stdout, or a file written in place (a temporary file renamed over
// it at the end, as writeFileAtomic does, so a reader never sees half a report). Small pieces are gathered into
// larger writes; a write waits while the stream's buffer is full, so a slow reader never makes the report pile up.
// A file is written with synchronous writes of the text itself: a write stream would turn each piece into a
// Buffer, garbage outside the heap that piles up (tens of MB for a large report) before the collector sees it.
import { closeSync, openSync, promises as fs, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { tempPathFor } from './atomic';

/** Gathered pieces are written once they reach this many characters. */
const BATCH = 1 << 16;

export class ReportOutput {
  private pending: string[] = [];
  private size = 0;
  private failure?: Error;

  private constructor(private readonly stream?: Writable, private readonly target?: { file: string; tmp: string; fd: number }) {
    stream?.on('error', (e: Error) => (this.failure ??= e));
  }

  /** stdout when `file` is undefined or `-`. */
  static open(file?: string): ReportOutput {
    if (file === undefined || file === '-') return new ReportOutput(process.stdout);
    const tmp = tempPathFor(file);
    try {
      return new ReportOutput(undefined, { file, tmp, fd: openSync(tmp, 'wx') });
    } catch (e) {
      // said when the report is first written (as a stream's error would be)
      const out = new ReportOutput();
      out.failure = e as Error;
      return out;
    }
  }

  /** Write a piece; a promise when the caller must wait for the stream to drain. */
  write(piece: string): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (piece.length === 0) return undefined;
    this.pending.push(piece);
    this.size += piece.length;
    return this.size >= BATCH ? this.flush() : undefined;
  }

  private flush(): Promise<void> | undefined {
    if (this.size === 0) return undefined;
    const text = this.pending.join('');
    this.pending = [];
    this.size = 0;
    const stream = this.stream;
    if (!stream) {
      writeSync(this.target!.fd, text);
      return undefined;
    }
    if (stream.write(text)) return undefined;
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('error', done);
        if (this.failure) reject(this.failure);
        else resolve();
      };
      stream.on('drain', done);
      stream.on('error', done);
    });
  }

  /** Everything written: the file renamed into place (stdout stays open). */
  async close(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    const stream = this.stream;
    if (stream) {
      await new Promise<void>((resolve, reject) => stream.write('', (e) => (e ? reject(e) : resolve())));
      return;
    }
    const target = this.target!;
    closeSync(target.fd);
    target.fd = -1; // closed: an abort after a failed rename must not close the number again (it may be reused)
    await fs.rename(target.tmp, target.file);
  }

  /** The run failed: a file target keeps its old content (the temporary file is removed). */
  async abort(): Promise<void> {
    if (!this.target) return;
    if (this.target.fd >= 0) closeSync(this.target.fd);
    this.target.fd = -1;
    await fs.rm(this.target.tmp, { force: true });
  }
}
