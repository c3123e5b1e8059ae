// Checking the traces of a `check` run, in order, on worker threads (--jobs): files go to the threads of a pool
// (src/cli/pool.ts) and come back as report entries, in the order of the files whatever order they finish in. A
// large JSONL file is cut into slices of whole lines checked on several threads at once; the slices are put back
// together only when each read alone read as the whole file would (FileResult.alone: every line a conversation
// of its own, one reader), else the file is checked again whole. A small run is checked here, with no threads.
import { createReadStream, existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGunzip } from 'node:zlib';
import type { CheckOptions, ReportDiagnostic, ReportFile } from '../core';
import { diagnosticsOf, fileEntry, type EntrySettings } from './entry';
import { UsageError } from './files';
import { describeLimit } from './limits';
import { WorkerPool } from './pool';
export { defaultJobs } from './pool';
import { checkFile, readsAsJsonl } from './stream';
import type { FileJob, SliceJob, SliceReply, ThreadAnswer, ThreadJob, ThreadReply, ThreadSettings } from './threads';

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

/** The bundled thread entry, next to the CLI bundle (absent when the CLI runs unbundled: then no threads). */
function workerFile(): string | undefined {
  const file = path.join(__dirname, 'cliWorker.js');
  return existsSync(file) ? file : undefined;
}

/** The report entries of the run's files, in order. */
export async function* checkFiles(run: CheckFilesRun): AsyncGenerator<ReportFile> {
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
  const pool = new WorkerPool<ThreadJob, ThreadAnswer>(file, size, run.settings, heapMb);
  try {
    const entry = run.settings.entry;
    yield* inOrder(run.targets, (t, i) => checkOnThreads(pool, t, entry, sizes[i] >= SLICE_FROM_BYTES && size > 1), Math.max(8, 4 * size));
  } finally {
    await pool.close();
  }
}

async function checkHere(t: TraceTarget, options: CheckOptions, entry: EntrySettings): Promise<ReportFile> {
  try {
    const { result, index } = await checkFile(t.file, options);
    return fileEntry(t.shown, result.format, result.calls, diagnosticsOf(result.findings, index, t.rel, entry), t.wanted, entry);
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
async function checkOnThreads(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget, entry: EntrySettings, slice: boolean): Promise<Later<ReportFile>> {
  if (slice && (await readsAsJsonl(t.file))) {
    const sliced = await checkSliced(pool, t, entry);
    if (sliced) return sliced;
  }
  return { result: wholeFile(pool, t) };
}

function wholeFile(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget): Promise<ReportFile> {
  const job: FileJob = { kind: 'file', file: t.file, shown: t.shown, rel: t.rel, wanted: t.wanted };
  return ask(pool, job, t).then((a) => {
    if (a.kind !== 'file') throw new Error('unexpected reply');
    return a.entry;
  });
}

async function ask(pool: WorkerPool<ThreadJob, ThreadAnswer>, job: ThreadJob, t: TraceTarget, transfer?: ArrayBuffer[]): Promise<ThreadReply> {
  let a: ThreadAnswer;
  try {
    a = await pool.run(job, transfer);
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
async function checkSliced(pool: WorkerPool<ThreadJob, ThreadAnswer>, t: TraceTarget, entry: EntrySettings): Promise<Later<ReportFile> | undefined> {
  const name = t.file.replace(/\.gz$/i, '');
  const gzip = name !== t.file;
  const parts: Promise<SlicePart>[] = [];
  const out = new Set<Promise<unknown>>();
  let first = true;
  const pieces: Buffer[] = [];
  let size = 0;
  let clean = 0;
  const send = async (bytes: Uint8Array): Promise<Later<SlicePart>> => {
    const job: SliceJob = { kind: 'slice', bytes: bytes.buffer as ArrayBuffer, first, name, rel: t.rel };
    first = false;
    const p = ask(pool, job, t, [job.bytes]).then((a) => (a as SliceReply).part);
    p.catch(() => undefined);
    parts.push(p);
    out.add(p);
    void p.finally(() => out.delete(p)).catch(() => undefined);
    while (out.size >= 2 * pool.size) await Promise.race(out).catch(() => undefined);
    return { result: p };
  };
  let probed = false;
  const source = createReadStream(t.file, { highWaterMark: 1 << 20 });
  for await (const piece of gzip ? source.pipe(createGunzip()) : source) {
    pieces.push(piece as Buffer);
    size += (piece as Buffer).length;
    if (size < (probed ? SLICE_BYTES : PROBE_BYTES)) continue;
    const bytes = cutAtLastNewline(pieces, clean);
    if (bytes === undefined) {
      clean = pieces.length; // one line longer than a slice: it grows until its end
      continue;
    }
    clean = 0;
    size -= bytes.length;
    const p = await send(bytes);
    if (!probed) {
      probed = true;
      const probe = await p.result.catch(() => undefined);
      if (probe?.alone === undefined) {
        source.destroy();
        return undefined; // the lines do not stand alone (or the probe failed): whole
      }
    }
  }
  const rest = joined(pieces, size);
  if (rest.length) await send(rest);
  return { result: Promise.all(parts).then((done) => merged(t, done, entry) ?? wholeFile(pool, t)) };
}

/** Bytes in an ArrayBuffer of their own (so they can be moved to a thread). */
function joined(pieces: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The bytes of `pieces` up to their last newline (included), taken out of them; undefined when they hold none.
 *  `clean`: how many leading pieces are known to hold no newline (not searched again: a long line stays linear).
 *  A newline byte never falls inside a UTF-8 sequence, so each slice decodes alone as it does in the whole. */
function cutAtLastNewline(pieces: Buffer[], clean = 0): Uint8Array | undefined {
  for (let k = pieces.length - 1; k >= clean; k--) {
    const nl = pieces[k].lastIndexOf(10);
    if (nl < 0) continue;
    const head = pieces.slice(0, k);
    head.push(pieces[k].subarray(0, nl + 1));
    const tail = pieces[k].subarray(nl + 1);
    pieces.splice(0, k + 1, ...(tail.length ? [tail] : []));
    return joined(head, head.reduce((n, p) => n + p.length, 0));
  }
  return undefined;
}

/** The slices as one file's entry, when they read as the whole would (one reader, or none, for all of them). */
function merged(t: TraceTarget, parts: SlicePart[], entry: EntrySettings): ReportFile | undefined {
  let reader = '';
  for (const p of parts) {
    if (p.alone === undefined) return undefined;
    if (p.alone !== '' && reader !== '' && p.alone !== reader) return undefined;
    if (p.alone !== '') reader = p.alone;
  }
  const diagnostics: ReportDiagnostic[] = [];
  let calls = 0;
  let lines = 0;
  for (const p of parts) {
    for (const d of p.diagnostics) {
      d.line += lines;
      d.endLine += lines;
      diagnostics.push(d);
    }
    calls += p.calls;
    lines += p.newlines;
  }
  return fileEntry(t.shown, reader === '' ? undefined : reader, calls, diagnostics, t.wanted, entry);
}
