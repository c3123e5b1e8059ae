// Checking the traces of a `check` run, in order, on worker threads (--jobs): files go to the threads of a pool
// (src/cli/pool.ts) and come back as report entries, in the order of the files whatever order they finish in. A
// large JSONL file is cut into slices of whole lines checked on several threads at once; the slices are put back
// together only when each read alone read as the whole file would (FileResult.alone: every line a conversation
// of its own, one reader), else the file is checked again whole. A small run is checked here, with no threads.
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CheckOptions } from '../core';
import { checkedEntry, spooledEntry, type EntrySettings, type FileReport } from './entry';
import { UsageError } from './files';
import { describeLimit } from './limits';
import { WorkerPool, type HereToo } from './pool';
import { jobRunner } from './thread-jobs';
import { CHECK_HEAP_FLAGS } from './heap-flags';
export { defaultJobs } from './pool';
import { DiagnosticSpool } from './spool';
import { LineBytes } from './line-bytes';
import { fileBytes, readsAsJsonl } from './stream';
import { checkBySessions, firstLineNamesSession, type SliceSink } from './session-slices';
import { checkByParts, type PartsIo } from './document-parts';
import type { FileJob, PartsReply, SliceJob, SliceReply, ThreadAnswer, ThreadJob, ThreadReply, ThreadSettings } from './threads';

export interface TraceTarget {
  file: string;
  /** The path the report shows; relative to the config's folder (ignore rules). */
  shown: string;
  rel: string;
  /** Named by the user: not being a trace is a warning. */
  wanted: boolean;
}

export interface CheckFilesRun {
  targets: TraceTarget[];
  /** For checking here (contracts compiled). */
  options: CheckOptions;
  /** For the threads (contract sources). */
  settings: ThreadSettings;
  /** Threads to use (1: one thread, whole files only). */
  jobs: number;
}

/** Below this much input, starting threads costs more than it saves: the run is checked on this thread. */
const THREADS_FROM_BYTES = 4 << 20;
const THREADS_FROM_FILES = 64;
/** A JSONL file at least this large is cut into slices (when there are several threads): below it, warming up a
 *  second thread's code costs more than the slices save (CONTRACT_GUARD_SLICE_BYTES sets it, for tests). */
const SLICE_FROM_BYTES = Number(process.env.CONTRACT_GUARD_SLICE_BYTES) || 32 << 20;
/** The first slice is small: it tells cheaply whether the file's lines stand alone. */
const PROBE_BYTES = 1 << 18;
const SLICE_BYTES = 1 << 20;
/** Slices up to this size may be checked on this thread too (pool.ts); a larger one (a line or session longer than
 *  a slice) goes to a thread, whose heap limit answers a huge one in one line. Never a document's groups of parts:
 *  this thread splits the document meanwhile, and its held parts piled up (OTLP 100 MB: 169-237 MB against 190-198). */
const HERE_MAX_BYTES = 4 << 20;

/** The bundled thread entry, next to the CLI bundle (absent when the CLI runs unbundled: then no threads). */
function workerFile(): string | undefined {
  const file = path.join(__dirname, 'cliWorker.js');
  return existsSync(file) ? file : undefined;
}

/** The report entries of the run's files, in order. */
export async function* checkFiles(run: CheckFilesRun): AsyncGenerator<FileReport> {
  const file = workerFile();
  const sizes = await Promise.all(run.targets.map((t) => fs.stat(t.file).then((s) => s.size, () => 0)));
  const total = sizes.reduce((a, b) => a + b, 0);
  // CONTRACT_GUARD_THREADS=always|never overrides the choice (tests compare both ways on the same files)
  const force = process.env.CONTRACT_GUARD_THREADS;
  const small = total < THREADS_FROM_BYTES && run.targets.length < THREADS_FROM_FILES;
  if (!file || force === 'never' || (small && force !== 'always')) {
    for (const t of run.targets) yield await checkHere(t, run.options, run.settings.entry);
    return;
  }
  const big = sizes.some((s) => s >= SLICE_FROM_BYTES);
  const size = Math.max(1, Math.min(run.jobs, big ? run.jobs : run.targets.length));
  // each thread's heap: a share of the memory, 512 MB to 4 GB (CONTRACT_GUARD_THREAD_HEAP_MB sets it, for tests)
  const heapMb = Number(process.env.CONTRACT_GUARD_THREAD_HEAP_MB) || Math.max(512, Math.min(4096, Math.floor(os.totalmem() / 1048576 / (size + 1))));
  // the threads set the run's V8 flags again as they start (heap-flags.ts)
  // this thread checks slices too, with the contracts it compiled (pool.ts)
  const pool = new WorkerPool<ThreadJob, ThreadAnswer>(file, size, { ...run.settings, heapFlags: CHECK_HEAP_FLAGS }, heapMb, jobRunner(run.options, run.settings.entry));
  try {
    const entry = run.settings.entry;
    yield* inOrder(run.targets, (t, i) => checkOnThreads(pool, t, entry, sizes[i] >= SLICE_FROM_BYTES && size > 1), Math.max(8, 4 * size));
  } finally {
    await pool.close();
  }
}

async function checkHere(t: TraceTarget, options: CheckOptions, entry: EntrySettings): Promise<FileReport> {
  try {
    return await checkedEntry(t, options, entry);
  } catch (e) {
    throw new UsageError(`${t.shown}: ${describeLimit(e)}`);
  }
}

/**
 * Results of `start` for each item, yielded in the items' order while later ones are under way: at most `ahead`
 * started and not yet taken (so finished results never pile up behind a slow one). `start` returns once its work is
 * handed out (it runs in the background of the yields); its inner promise settles when the result is ready.
 */
async function* inOrder<T, R>(items: T[], start: (item: T, i: number) => Promise<Later<R>>, ahead: number): AsyncGenerator<R> {
  const started: Promise<R>[] = [];
  let next = 0;
  let taken = 0;
  let filling = false;
  let failure: { error: unknown } | undefined;
  let wake = () => {};
  const fill = () => {
    if (filling) return;
    filling = true;
    void (async () => {
      while (next < items.length && next - taken < ahead) {
        const p = (await start(items[next], next)).result;
        p.catch(() => undefined); // awaited in order below; not an unhandled rejection meanwhile
        started.push(p);
        next++;
        wake();
      }
    })()
      .catch((error: unknown) => (failure = { error }))
      .finally(() => {
        filling = false;
        wake();
      });
  };
  while (taken < items.length) {
    fill();
    while (started.length === 0) {
      if (failure) throw failure.error;
      await new Promise<void>((resolve) => (wake = resolve));
      if (!filling && started.length === 0 && !failure) fill();
    }
    const r = await started.shift()!;
    taken++;
    yield r;
  }
}

/** Hands a file to the pool; the inner promise is its entry. */
async function checkOnThreads(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget, entry: EntrySettings, slice: boolean): Promise<Later<FileReport>> {
  if (slice && (await readsAsJsonl(t.file))) {
    const sliced = await checkSliced(pool, t, entry);
    if (sliced) return sliced;
  } else if (slice && !/\.eval$/i.test(t.file)) {
    // one large document: its parts on the threads when its traces are independent (document-parts.ts)
    const parted = await checkByParts(t, entry, partsIo(pool, t));
    if (parted) return parted;
  }
  return { result: wholeFile(pool, t) };
}

function wholeFile(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget): Promise<FileReport> {
  const job: FileJob = { kind: 'file', file: t.file, shown: t.shown, rel: t.rel, wanted: t.wanted };
  return ask(pool, job, t).then((a) => {
    if (a.kind !== 'file') throw new Error('unexpected reply');
    return a.entry;
  });
}

async function ask(pool: WorkerPool<ThreadJob, ThreadAnswer>, job: ThreadJob, t: TraceTarget, transfer?: ArrayBuffer[], hereToo: HereToo = false): Promise<ThreadReply> {
  let a: ThreadAnswer;
  try {
    a = await pool.run(job, transfer, hereToo);
  } catch (e) {
    throw new UsageError(`${t.shown}: ${describeLimit(e)}`);
  }
  if (a.kind === undefined) throw new UsageError(`${t.shown}: ${a.error}`);
  return a;
}

type SlicePart = SliceReply['part'];

/** Work handed out, and its result to come (an object: a promise of a promise would flatten). */
interface Later<R> {
  result: Promise<R>;
}

/**
 * Reads the file's bytes here (never decoded on this thread) and hands out slices of whole lines, each moved (not
 * copied) to a thread. Undefined when the first slice says the lines do not stand alone (the file is then checked
 * whole). At most two slices per thread are out at once. A slice's offsets start at 0: only its lines and columns
 * reach the report, and those the main thread shifts by the lines before it.
 */
async function checkSliced(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget, entry: EntrySettings): Promise<Later<FileReport> | undefined> {
  const name = t.file.replace(/\.gz$/i, '');
  const gzip = name !== t.file;
  const merge = new SliceMerge();
  // each slice's part is merged once those before it are (the parts are not kept)
  let merging = Promise.resolve();
  const bytesRead = new LineBytes();
  const sender = sliceSender(pool, t, name, (b) => bytesRead.recycle(b));
  const send = async (bytes: Uint8Array): Promise<Later<SlicePart>> => {
    const later = await sender(bytes);
    merging = merging.then(() => later.result).then((p) => merge.add(p));
    merging.catch(() => undefined); // awaited at the end; not an unhandled rejection meanwhile
    return later;
  };
  // lines of separate sessions: slices cut at sessions (session-slices.ts), read again from the start
  const bySessions = () => {
    bytesRead.release();
    return checkBySessions(t.file, gzip, { sender: (recycle) => sliceSender(pool, t, name, recycle), whole: () => wholeFile(pool, t), merge: () => sessionMerge(t, entry) });
  };
  let probed = false;
  let looked = false;
  for await (const piece of fileBytes(t.file, gzip)) {
    bytesRead.push(piece);
    if (!looked) {
      // a first line naming a sessionId (a Claude Code log): cut at sessions at once, both threads busy from the
      // start, instead of waiting for a probe's thread to start and answer (~0.5 s of one core on 100 MB)
      const named = firstLineNamesSession(bytesRead.view());
      looked = named !== undefined;
      if (named) return bySessions();
    }
    if (bytesRead.size < (probed ? SLICE_BYTES : PROBE_BYTES)) continue;
    const bytes = bytesRead.cut();
    if (bytes === undefined) continue; // one line longer than a slice: it grows until its end
    const p = await send(bytes);
    if (!probed) {
      probed = true;
      const probe = await p.result.catch(() => undefined);
      if (probe?.alone === undefined) {
        merge.discard();
        if (!probe?.apart) {
          bytesRead.release();
          return undefined; // the lines do not stand alone (or the probe failed): whole
        }
        return bySessions();
      }
    }
  }
  const rest = bytesRead.rest();
  if (rest.length) await send(rest);
  bytesRead.release();
  return { result: merging.then(() => merge.entry(t, entry) ?? wholeFile(pool, t)) };
}

/** Hands jobs of one file to the pool in order, each answered with a `part` (`onReply` sees the whole reply
 *  first); returns once at most two per thread are out. */
function outbox<R>(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget, onReply?: (a: ThreadReply) => void): (job: ThreadJob, transfer?: ArrayBuffer[], hereToo?: HereToo) => Promise<Later<R>> {
  const out = new Set<Promise<unknown>>();
  return async (job, transfer, hereToo) => {
    const p = ask(pool, job, t, transfer, hereToo).then((a) => {
      onReply?.(a);
      return (a as unknown as { part: R }).part;
    });
    p.catch(() => undefined);
    out.add(p);
    void p.finally(() => out.delete(p)).catch(() => undefined);
    while (out.size >= 2 * pool.size) await Promise.race(out).catch(() => undefined);
    return { result: p };
  };
}

/** Slices of a file for the pool, in file order (the first starts the file). Each slice's bytes are a view at the
 *  start of an ArrayBuffer of their own (moved to the thread); `recycle` gets the buffer back with the reply. */
function sliceSender(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget, name: string, recycle?: (buffer: ArrayBuffer) => void): (bytes: Uint8Array) => Promise<Later<SlicePart>> {
  const send = outbox<SlicePart>(pool, t, (a) => {
    if (a.kind === 'slice' && a.bytes) recycle?.(a.bytes);
  });
  let first = true;
  let line = 0;
  return (bytes) => {
    const own = bytes.byteOffset === 0 ? bytes : bytes.slice();
    const job: SliceJob = { kind: 'slice', bytes: own.buffer as ArrayBuffer, length: own.byteLength, line, first, name, rel: t.rel };
    line += newlinesIn(own); // counted before the bytes move
    // the first slice here while the threads start (pool.ts): its answer decides how the rest is cut
    const hereToo = own.byteLength <= HERE_MAX_BYTES && (first ? 'first' : true);
    first = false;
    return send(job, [job.bytes], hereToo);
  };
}

function newlinesIn(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  for (let at = buf.indexOf(10); at !== -1; at = buf.indexOf(10, at + 1)) n++;
  return n;
}

/** What document-parts.ts borrows to check a document's groups of parts on the threads. */
function partsIo(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget): PartsIo {
  const send = outbox<PartsReply['part']>(pool, t);
  const name = t.file.replace(/\.gz$/i, '');
  return {
    send: (parts) => send({ kind: 'parts', parts, name }),
    whole: () => wholeFile(pool, t),
  };
}

/** Slices cut at sessions, put together as they come (session-slices.ts checks that they read as the whole: one
 *  line reader for all, no session shared, and names that reader at the end). */
function sessionMerge(t: TraceTarget, entry: EntrySettings): SliceSink {
  const merge = new SliceMerge(true);
  return { add: (p) => merge.add(p), entry: (reader) => merge.entry(t, entry, reader)!, discard: () => merge.discard() };
}

/** Slices put together in file order as they come back: their diagnostics (the spool's lines, made on the threads)
 *  go to a spool at once, so a file's diagnostics are never all held; which reader read them is decided as they
 *  come. */
class SliceMerge {
  private readonly spool = new DiagnosticSpool();
  private calls = 0;
  private reader: string;
  private broken = false;

  /** `apart`: slices cut at sessions, whose reader session-slices.ts decides. */
  constructor(private readonly apart = false) {
    this.reader = '';
  }

  add(p: SlicePart): void {
    if (this.broken) return;
    if (!this.apart) {
      if (p.alone === undefined || (p.alone !== '' && this.reader !== '' && p.alone !== this.reader)) {
        this.broken = true; // the file is checked whole instead
        return;
      }
      if (p.alone !== '') this.reader = p.alone;
    }
    this.spool.addText(p.diagnostics);
    this.calls += p.calls;
  }

  /** The file's entry, or undefined (the spool let go) when the slices do not read as the whole. */
  entry(t: TraceTarget, entry: EntrySettings, reader = this.reader): FileReport | undefined {
    if (this.broken) {
      this.spool.discard();
      return undefined;
    }
    return spooledEntry(t.shown, reader === '' ? undefined : reader, this.calls, this.spool, t.wanted, entry);
  }

  discard(): void {
    this.spool.discard();
  }
}
