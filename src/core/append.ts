// A trace that grows at its end while an agent writes it: complete lines are fed in order and the file's result so
// far can be asked at any time, from the state saved after the lines before, so an appended line costs about what
// that line costs and the lines before it are never read again. A partial last line (no newline yet) is not part
// of the state: `result(tail)` reads it as it stands, and it is fed once its newline arrives. The state is a plain
// value (`save`), so a trace checked on a worker thread is followed on the thread that shows it. Used by the editor
// (a document growing on disk) and `contract-guard watch`.
import { TraceChecker, type CheckOptions, type FileResult } from './engine';
import { lines, readingOf, stripBom } from './parse/reader';

/** A growing trace's saved state: plain data (structured-cloneable). */
export interface GrowingState {
  /** Characters of the file fed so far (complete lines, with their breaks). */
  consumed: number;
  // TEMP until the engine's snapshot()/resume: the text fed so far
  text: string;
}

export class GrowingTrace {
  private fed: number;
  private text: string;

  constructor(
    private readonly options: CheckOptions,
    saved?: GrowingState,
  ) {
    this.fed = saved?.consumed ?? 0;
    this.text = saved?.text ?? '';
  }

  /** Where the next line starts in the file (the characters of the complete lines fed so far). */
  get consumed(): number {
    return this.fed;
  }

  /** Feed complete lines appended to the file: `text` starts at `consumed` and ends with a line break. `onLine`
   *  sees each line as it is fed (with its offset in the file). */
  addLines(text: string, onLine?: (line: string, base: number) => void): void {
    if (text === '') return;
    if (text.charCodeAt(text.length - 1) !== 10) throw new Error('GrowingTrace.addLines takes complete lines (ending with a line break)');
    if (onLine) for (const line of lines(text.slice(0, -1))) onLine(line.text, this.fed + line.base);
    this.text += text;
    this.fed += text.length;
  }

  /** The file's result so far; `tail`, the partial last line after `consumed`, is read as it stands (not kept). */
  result(tail = ''): FileResult {
    const checker = new TraceChecker(this.options);
    for (const line of lines(this.text + tail)) checker.addLine(line.text, line.base);
    return checker.finish();
  }

  /** The state to go on from later, or on another thread (`new GrowingTrace(options, saved)`). */
  save(): GrowingState {
    return { consumed: this.fed, text: this.text };
  }
}

/** Where a line-shaped text's complete lines end: what a growing trace is fed; the rest is its partial last line. */
export function completeLines(text: string): number {
  return text.lastIndexOf('\n') + 1;
}

/** Check a text like checkText; when it is read line by line, through a growing trace, left at its last line
 *  break, ready for what is appended (a document is checked whole and has none). */
export function checkGrowing(text: string, options: CheckOptions): { result: FileResult; trace?: GrowingTrace } {
  const body = stripBom(text);
  const reading = readingOf(body, options.fileName);
  if (reading.shape === 'document') {
    const checker = new TraceChecker(options);
    checker.addReading(body, reading);
    return { result: checker.finish() };
  }
  const trace = new GrowingTrace(options);
  const cut = completeLines(body);
  trace.addLines(body.slice(0, cut));
  return { result: trace.result(body.slice(cut)), trace };
}
