// Checking a large document without holding the thread: the same work as checkText, cut into slices of lines
// that each run for about `sliceMs`, with a yield to the event loop between slices and a cancellation check
// after each yield. The result equals checkText's (one TraceChecker is fed the same lines in the same order, so
// sessions that span lines are kept across slices). What cannot be cut: a document that is one JSON value (it is
// parsed and read at once) and one very long line; for JSONL, `finish` checks the sessions of line formats at
// the end in one go. Pure: runs in Node, the extension host and a browser worker (setImmediate or setTimeout).
import { completeLines, GrowingTrace } from './append';
import { TraceChecker, type CheckOptions, type FileResult } from './engine';
import { lines, readingOf, stripBom } from './parse/reader';

export interface ChunkOptions {
  /** Abort to stop checking (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Roughly how long one synchronous slice may run before yielding (default 10 ms). */
  sliceMs?: number;
  /** Called after each slice with how far the check got (characters of the text). */
  onProgress?: (done: number, total: number) => void;
  /** Called with each line as it is checked (JSONL, or a text read line by line), e.g. to learn whether every
   *  line is a unit of its own. Not called for a text read as one document. */
  onLine?: (text: string, base: number) => void;
  /** For a text read line by line: its lines are fed through a growing trace (core/append), handed over at the end
   *  left at the last line break, so that what is appended later is checked from there. */
  onGrowing?: (trace: GrowingTrace) => void;
}

/** How many characters a growing check feeds between looks at the clock. */
const GROW_STEP = 1 << 16;


const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** Let the event loop run (timers, I/O, the editor's messages) before the next slice. */
export function yieldToLoop(): Promise<void> {
  const g = globalThis as { setImmediate?: (f: () => void) => unknown };
  return new Promise((resolve) => (g.setImmediate ? g.setImmediate(resolve) : setTimeout(resolve, 0)));
}

function aborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason = (signal as { reason?: unknown }).reason;
  throw reason ?? Object.assign(new Error('the check was cancelled'), { name: 'AbortError' });
}

/** Check one file's text like checkText, yielding to the event loop between slices; cancellable. */
export async function checkTextChunked(text: string, options: CheckOptions = {}, chunk: ChunkOptions = {}): Promise<FileResult> {
  const { signal, onProgress, onLine, onGrowing } = chunk;
  const sliceMs = chunk.sliceMs ?? 10;
  aborted(signal);
  const checker = new TraceChecker(options);
  const body = stripBom(text);
  // decided where addText decides (parse/reader readingOf); a document is parsed there, once
  const reading = readingOf(body, options.fileName);
  await yieldToLoop();
  aborted(signal);
  if (reading.shape === 'document') {
    checker.addReading(body, reading);
    await yieldToLoop();
    aborted(signal);
    return checker.finish();
  }
  let started = now();
  if (onGrowing) {
    const trace = new GrowingTrace(options);
    const cut = completeLines(body);
    while (trace.consumed < cut) {
      const next = trace.consumed + GROW_STEP >= cut ? cut : body.indexOf('\n', trace.consumed + GROW_STEP) + 1;
      trace.addLines(body.slice(trace.consumed, next), onLine);
      if (now() - started >= sliceMs) {
        onProgress?.(trace.consumed, body.length);
        await yieldToLoop();
        aborted(signal);
        started = now();
      }
    }
    const tail = body.slice(cut);
    if (tail !== '') onLine?.(tail.endsWith('\r') ? tail.slice(0, -1) : tail, cut);
    await yieldToLoop();
    aborted(signal);
    onGrowing(trace);
    return trace.result(tail);
  }
  for (const line of lines(body)) {
    checker.addLine(line.text, line.base);
    onLine?.(line.text, line.base);
    if (now() - started >= sliceMs) {
      onProgress?.(line.base + line.text.length, body.length);
      await yieldToLoop();
      aborted(signal);
      started = now();
    }
  }
  await yieldToLoop();
  aborted(signal);
  return checker.finish();
}

