// Slices of a JSONL file whose lines belong to separate sessions (a Claude Code log of many `sessionId`s, an OTLP
// file of many traces), checked on several threads at once. This thread reads the bytes and cuts, cheaply, where
// the next line names another `sessionId` than the line before it (lines that name none are cut anywhere); each
// thread reads its slice apart (CheckOptions.apart) and says which sessions its lines belong to (FileResult.apart).
// The slices are put together only when they were all read by one line reader and no two share a session; else
// the file is checked whole (as soon as two slices share one, no more slices are handed out).
import type { FileReport } from './entry';
import { LineBytes } from './line-bytes';
import { fileBytes } from './stream';
import type { SliceReply } from './threads';

type SlicePart = SliceReply['part'];

/** What the caller (check-files.ts) lends: its threads, its whole-file check and its merge of slices. */
export interface SliceIo {
  /** Hands out slices (each returns once another may be handed out; its part to come). A slice's bytes are moved
   *  to the thread, and its buffer comes back with the reply: `recycle` gets it, to be filled again. */
  sender(recycle: (buffer: ArrayBuffer) => void): (bytes: Uint8Array) => Promise<{ result: Promise<SlicePart> }>;
  whole(): Promise<FileReport>;
  /** Where the slices' parts go, in file order, as they come (their diagnostics are not held here). */
  merge(): SliceSink;
}

/** The slices' parts put together as one file's entry. */
export interface SliceSink {
  add(part: SlicePart): void;
  /** The file's entry, read by `reader`. */
  entry(reader: string): FileReport;
  /** The slices do not read as the whole: what was put together is let go. */
  discard(): void;
}

/** A slice is at least this large (then cut at the next session's first line)... */
const SESSION_SLICE_BYTES = 1 << 20;
/** ...and a session longer than this beyond it is not looked past: the file is checked whole. What is held
 *  then stays within a 16 MB buffer (LineBytes doubles: 16 MB and one more piece took 32 MB, never used again
 *  but kept until this thread's next full collection, which an idle main thread may not have before the end). */
const MAX_SEARCH_BYTES = (15 << 20) - (1 << 17);

const SESSION_ID = Buffer.from('"sessionId":"');

/** The `sessionId` a line's bytes name (the first one in it), or undefined. Only a proposal: the threads say which
 *  sessions each slice's lines really belong to. */
function sessionIdOf(bytes: Uint8Array, start: number, end: number): string | undefined {
  const line = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
  const at = line.indexOf(SESSION_ID);
  if (at < 0) return undefined;
  const from = at + SESSION_ID.length;
  const to = line.indexOf(34, from);
  return to < 0 ? undefined : line.toString('latin1', from, to);
}

/** Whether the first line of `bytes` names a `sessionId` (then its file is worth cutting at sessions at once, with
 *  no probe to wait for); undefined while that line is not whole. */
export function firstLineNamesSession(bytes: Uint8Array): boolean | undefined {
  const nl = bytes.indexOf(10);
  return nl < 0 ? undefined : sessionIdOf(bytes, 0, nl) !== undefined;
}

/** Where to cut `bytes` at or after `from`: the start of a line that names another sessionId than the line before
 *  it, or of any line when neither names one; undefined when no such line starts there (before the last line). */
export function sessionCut(bytes: Uint8Array, from: number): number | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let start = from > 0 ? buf.lastIndexOf(10, from - 1) + 1 : 0; // the line `from` falls in
  let nl = buf.indexOf(10, start);
  if (nl < 0) return undefined;
  let before = sessionIdOf(bytes, start, nl);
  for (;;) {
    start = nl + 1;
    nl = buf.indexOf(10, start);
    if (nl < 0) return undefined; // the next line may not be whole yet
    const after = sessionIdOf(bytes, start, nl);
    if (start >= from && (after === undefined ? before === undefined : before !== undefined && after !== before)) return start;
    before = after;
  }
}

/** How a file was cut, on stderr, with CONTRACT_GUARD_SLICE_LOG=1 (tests tell the ways apart). */
export function sliceLog(file: string, how: string): void {
  if (process.env.CONTRACT_GUARD_SLICE_LOG) process.stderr.write(`${file}: ${how}\n`);
}

/** The sessions seen so far across slices (or groups of parts, document-parts.ts), and whether two shared one. */
export class Apart {
  private readonly seen = new Set<string>();
  private reader?: string;
  broken = false;

  add(part: Pick<SlicePart, 'apart'> | undefined): void {
    const apart = part?.apart;
    if (!apart || (this.reader !== undefined && apart.reader !== this.reader)) {
      this.broken = true;
      return;
    }
    this.reader = apart.reader;
    for (const key of apart.keys) {
      if (this.seen.has(key)) this.broken = true;
      this.seen.add(key);
    }
  }

  /** The reader of every slice, when they read as the whole would. */
  get result(): string | undefined {
    return this.broken ? undefined : this.reader;
  }
}

/**
 * Check the file in slices cut at sessions, read from its start (`gzip`: through zlib). The entry to come, or
 * undefined when this thread gave up before any slice was out of its hands (a session longer than the search: the
 * caller checks the file whole). The bytes read are held in one buffer (LineBytes) until a cut takes them out, and
 * each slice's part is merged as soon as those before it are: neither the bytes nor the diagnostics pile up.
 */
export async function checkBySessions(file: string, gzip: boolean, io: SliceIo): Promise<{ result: Promise<FileReport> } | undefined> {
  const apart = new Apart();
  const held = new LineBytes();
  const send = io.sender((buffer) => held.recycle(buffer));
  const merge = io.merge();
  let merging = Promise.resolve();
  let slices = 0;
  let failed = false;
  let searched = 0;
  let whole: string | undefined;
  const cut = async (at: number) => {
    searched = 0;
    const later = await send(held.cutAt(at));
    slices++;
    later.result.then((p) => apart.add(p), () => apart.add(undefined));
    // in file order; once the slices are known not to read as the whole, nothing more is merged
    merging = merging.then(() => later.result).then((p) => {
      if (!failed && !apart.broken) merge.add(p);
    }, () => {
      failed = true;
    });
  };
  for await (const piece of fileBytes(file, gzip)) {
    if (apart.broken) break; // two slices share a session: the rest is not worth cutting
    held.push(piece);
    while (held.size >= SESSION_SLICE_BYTES) {
      const at = sessionCut(held.view(), Math.max(SESSION_SLICE_BYTES, searched));
      if (at === undefined) break;
      await cut(at);
    }
    if (held.size < SESSION_SLICE_BYTES) continue;
    searched = Math.max(SESSION_SLICE_BYTES, held.size - (64 << 10)); // search on from about here (a line may be long)
    if (held.size > SESSION_SLICE_BYTES + MAX_SEARCH_BYTES) {
      whole = 'checked whole: a session longer than the search';
      if (slices === 0) {
        held.release(); // 16 MB this thread would hold, idle, while a thread checks the file whole
        sliceLog(file, whole);
        return undefined;
      }
      apart.broken = true;
      break;
    }
  }
  if (!apart.broken && held.size) await cut(held.size);
  held.release();
  return {
    result: merging.then(() => {
      const reader = apart.result;
      if (reader === undefined || failed) {
        merge.discard();
        sliceLog(file, whole ?? 'checked whole: its slices share a session');
        return io.whole();
      }
      sliceLog(file, `${slices} slices by sessions`);
      return merge.entry(reader);
    }),
  };
}
