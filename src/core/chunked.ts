// Checking a large document without holding the thread: the same work as checkText, cut into slices of lines
// that each run for about `sliceMs`, with a yield to the event loop between slices and a cancellation check
// after each yield. The result equals checkText's (one TraceChecker is fed the same lines in the same order, so
// sessions that span lines are kept across slices). What cannot be cut: a document that is one JSON value (it is
// parsed and read at once) and one very long line; for JSONL, `finish` checks the sessions of line formats at
// the end in one go. Pure: runs in Node, the extension host and a browser worker (setImmediate or setTimeout).
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
}


const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** Let the event loop run (timers, I/O, the editor's messages) before the next slice. */
export function yieldToLoop(): Promise<void> {
  const g = globalThis as { setImmediate?: (f: () => void) => unknown };
  return new Promise((resolve) => (g.setImmediate ? g.setImmediate(resolve) : setTimeout(resolve, 0)));
}

function aborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason = (signal as { reason?: unknown }).reason;
  throw reason instanceof Error ? reason : Object.assign(new Error('the check was cancelled'), { name: 'AbortError' });
}

/** Check one file's text like checkText, yielding to the event loop between slices; cancellable. */
export async function checkTextChunked(text: string, options: CheckOptions = {}, chunk: ChunkOptions = {}): Promise<FileResult> {
  const { signal, onProgress, onLine } = chunk;
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

