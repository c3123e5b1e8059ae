// A trace that grows at its end while an agent writes it: complete lines are fed in order to one checker that is
// never finished, and the file's result so far is asked of it at any time (the engine's `peek`), so an appended line
// costs about what that line costs (long sessions are checked in segments: only the part since the last segment is
// checked again) and the lines before it are never read again. A partial last line (no newline yet) is not fed:
// it waits for its newline, and meanwhile counts only when it stands alone (a line cut short is a parse error on
// that line). Used by the editor (a document growing on disk, also on its worker thread) and `contract-guard watch`.
import { yieldToLoop } from './chunked';
import { lineStandsAlone, TraceChecker, type CheckOptions, type FileResult } from './engine';
import type { Finding } from './model';
import { lines, readsAsLines } from './parse/reader';

/** What follows a growing trace: in this thread (GrowingTrace), or on the thread that checked it (the editor). */
export interface Growing {
  /** Where the next line starts in the file: the characters of the complete lines fed so far, with their breaks. */
  readonly consumed: number;
  /** Feed `lines` (complete lines, starting at `consumed`, ending with a line break) and answer the file's result
   *  so far, `tail` being the partial last line after them. */
  append(lines: string, tail?: string): FileResult | Promise<FileResult>;
  dispose?(): void;
}

export class GrowingTrace implements Growing {
  private readonly checker: TraceChecker;
  private fed = 0;

  /** `options` with neither `keepModel` nor `onSession`, so that long sessions are checked in segments. */
  constructor(private readonly options: CheckOptions) {
    this.checker = new TraceChecker(options);
  }

  get consumed(): number {
    return this.fed;
  }

  /** Feed complete lines appended to the file: `text` starts at `consumed` and ends with a line break. `onLine`
   *  sees each line as it is fed (with its offset in the file). */
  addLines(text: string, onLine?: (line: string, base: number) => void): void {
    if (text === '') return;
    if (text.charCodeAt(text.length - 1) !== 10) throw new Error('GrowingTrace.addLines takes complete lines (ending with a line break)');
    for (const line of lines(text.slice(0, -1))) {
      onLine?.(line.text, this.fed + line.base);
      this.checker.addLine(line.text, this.fed + line.base);
    }
    this.fed += text.length;
  }

  /**
   * The file's result as if it ended here (a reader's unfinished stream fragments are not calls yet). `tail`, a
   * partial last line, is read only when it stands alone (a parse error, a whole conversation) and is not kept.
   */
  result(tail = ''): FileResult {
    const now = this.checker.peek();
    const text = tail.endsWith('\r') ? tail.slice(0, -1) : tail;
    if (text.trim() === '' || !lineStandsAlone(text)) return now;
    const alone = new TraceChecker(this.options);
    alone.addLine(text, this.fed);
    const r = alone.finish();
    const shifted = r.findings.map((f) => (f.session === undefined ? f : { ...f, session: f.session + now.sessions }));
    return { ...now, format: now.format ?? r.format, calls: now.calls + r.calls, sessions: now.sessions + r.sessions, findings: [...now.findings, ...shifted] };
  }

  append(text: string, tail = ''): FileResult {
    this.addLines(text);
    return this.result(tail);
  }
}

/** Where a text's complete lines end: what a growing trace is fed; the rest is its partial last line. */
export function completeLines(text: string): number {
  return text.lastIndexOf('\n') + 1;
}

/** How many characters are fed between looks at the clock. */
const STEP = 1 << 16;

/**
 * A growing trace fed the complete lines of `text` (as the editor holds it: no BOM), in slices that yield to the
 * event loop; undefined when the text is not read line by line. Its results follow what is appended from there.
 */
export async function growingTrace(text: string, options: CheckOptions, chunk: { sliceMs?: number; signal?: AbortSignal } = {}): Promise<GrowingTrace | undefined> {
  if (!readsAsLines(text, options.fileName)) return undefined;
  const { keepModel: _model, onSession: _each, ...plain } = options;
  const trace = new GrowingTrace(plain);
  const cut = completeLines(text);
  const sliceMs = chunk.sliceMs ?? 10;
  let started = Date.now();
  while (trace.consumed < cut) {
    if (chunk.signal?.aborted) return undefined;
    const next = trace.consumed + STEP >= cut ? cut : text.indexOf('\n', trace.consumed + STEP) + 1;
    trace.addLines(text.slice(trace.consumed, next));
    if (Date.now() - started >= sliceMs) {
      await yieldToLoop();
      started = Date.now();
    }
  }
  return chunk.signal?.aborted ? undefined : trace;
}

/** The findings of a result as a change of those before: how many leading ones stay, and what follows them. A trace
 *  that grows at its end mostly adds findings at its end, so a thread that follows it sends this, not them all. */
export interface FindingsDelta {
  keep: number;
  add: Finding[];
}

function same(a: Finding, b: Finding): boolean {
  return a === b || (a.code === b.code && a.span.start === b.span.start && a.span.end === b.span.end && a.message === b.message && a.severity === b.severity && a.fingerprint === b.fingerprint && a.session === b.session);
}

export function findingsDelta(before: readonly Finding[], next: readonly Finding[]): FindingsDelta {
  let keep = 0;
  while (keep < before.length && keep < next.length && same(before[keep], next[keep])) keep++;
  return { keep, add: next.slice(keep) };
}

export function applyDelta(before: readonly Finding[], delta: FindingsDelta): Finding[] {
  return [...before.slice(0, delta.keep), ...delta.add];
}
