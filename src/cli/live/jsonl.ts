// The JSONL file a live command records to. Each line is written whole and synchronously before the next message
// is handled, so a crash leaves whole lines (at most a partial last one, which `check` reports as one parse-error).
// It knows where each of its lines starts, in the UTF-16 offsets the engine counts, so live findings get the
// line:column that `check FILE` prints.
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { LineIndex } from '../../core';
import { UsageError } from '../files';

export class JsonlOut {
  readonly index = new LineIndex();
  /** Offset (UTF-16 units) where the next line starts. */
  private offset = 0;
  private fd: number | undefined;
  private endsWithNewline = true;
  /** Not appending: what the file held goes when the first line comes (so a run that fails to start loses nothing). */
  private emptyFirst = false;

  private constructor(readonly file: string, fd: number) {
    this.fd = fd;
  }

  /** Open `file` (its folder created): `append` keeps what it holds (and counts its lines), otherwise it starts empty
   *  with its first line. */
  static open(file: string, append: boolean): JsonlOut {
    let fd: number;
    try {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      fd = openSync(file, 'a+');
    } catch (e) {
      throw new UsageError(`${file}: cannot write the recording: ${(e as Error).message}`);
    }
    const out = new JsonlOut(file, fd);
    if (!append) out.emptyFirst = true;
    else if (fstatSync(fd).size > 0) out.countExisting();
    return out;
  }

  /** Append one line (no newline inside); returns the offset it starts at. */
  append(line: string): number {
    if (this.fd === undefined) throw new Error('the recording is closed');
    if (this.emptyFirst) {
      ftruncateSync(this.fd, 0);
      this.emptyFirst = false;
    }
    const base = this.offset;
    writeSync(this.fd, line + '\n');
    this.offset += line.length + 1;
    this.index.addLineStart(this.offset);
    return base;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  /** Lines already in the file: read in chunks (never whole), and a last line without its newline is ended. */
  private countExisting(): void {
    const fd = this.fd!;
    const decoder = new StringDecoder('utf8');
    const buf = Buffer.alloc(1 << 16);
    let position = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, position);
      if (n === 0) break;
      position += n;
      this.take(decoder.write(buf.subarray(0, n)));
    }
    this.take(decoder.end());
    if (this.offset > 0 && !this.endsWithNewline) {
      writeSync(fd, '\n');
      this.offset += 1;
      this.index.addLineStart(this.offset);
    }
  }

  private take(text: string): void {
    if (text === '') return;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.index.addLineStart(this.offset + i + 1);
    this.offset += text.length;
    this.endsWithNewline = text.endsWith('\n');
  }
}

/** The file a run records to: `--out FILE` as given; `--out FOLDER` (an existing folder, or a path ending in a
 *  slash) is where the run's own file goes, named as by default (a client launching the command from anywhere can
 *  still keep one file per run); without --out, `traces/` under the working folder. */
export function outFile(given: string | undefined, kind: string): string {
  if (given === undefined) return defaultOutFile(kind);
  const folder = /[\\/]$/.test(given) || (existsSync(given) && statSync(given).isDirectory());
  return folder ? path.join(given, path.basename(defaultOutFile(kind))) : given;
}

/** `traces/<kind>-<local date and time>.jsonl`: a new file per run, named so runs sort by time. */
export function defaultOutFile(kind: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}T${p(now.getHours())}-${p(now.getMinutes())}-${p(now.getSeconds())}`;
  return path.join('traces', `${kind}-${stamp}.jsonl`);
}
