// Incremental re-checking of JSONL traces whose lines are checked on their own: each line a whole conversation
// (fine-tune `{messages, tools}` lines, one run per line, ...), a parse error, or nothing a format adapter reads.
// After an edit only the lines that changed are parsed and checked again; the findings of the other lines are
// kept and moved with their line. A file with lines that are events of one conversation spread over many lines
// (cross-call rules span lines) is not line-independent and is always checked whole. No editor API: the editor
// feeds it its edits (LineChange) and its document (LineSource).
import { lineStandsAlone, TraceChecker, type CheckOptions, type FileResult } from './engine';
import type { Finding } from './model';
import { lines as textLines, readsAsLines } from './parse/reader';

/** Above this many changed lines a whole check is as cheap as patching. */
const MAX_CHANGED_LINES = 500;

interface LineEntry {
  /** The line's text when it was last checked; undefined for a line changed since (to be checked again). */
  text?: string;
  /** Findings with spans relative to the line's start (related places in other files untouched). */
  findings?: Finding[];
  /** Calls and sessions the line holds; undefined until needed (lines that came from a whole check). */
  calls?: number;
  sessions?: number;
}

function shift(f: Finding, by: number): Finding {
  if (by === 0) return f;
  const out: Finding = { ...f, span: { start: f.span.start + by, end: f.span.end + by } };
  if (f.related) out.related = f.related.map((r) => (r.file ? r : { ...r, span: { start: r.span.start + by, end: r.span.end + by } }));
  return out;
}

/** A change as the editor reports it: lines [startLine, endLine] replaced by `text`. */
export interface LineChange {
  startLine: number;
  endLine: number;
  text: string;
}

/** The document the table follows: its lines, and where each starts. */
export interface LineSource {
  readonly lineCount: number;
  lineText(line: number): string;
  lineStart(line: number): number;
}

export interface PatchStats {
  /** Lines parsed and checked again. */
  checked: number;
  lines: number;
}

export class LineIndependentTrace {
  /** Removed since the last update: their calls and sessions leave the totals. */
  private removed: LineEntry[] = [];
  private dirty = 0;

  private constructor(
    private entries: LineEntry[],
    private format: string | undefined,
    private calls: number,
    private sessions: number,
    private readonly options: CheckOptions,
    /** The document version the table is at. */
    public version: number,
  ) {}

  /**
   * The line table of a file just checked whole, or undefined when its lines are not independent.
   * Costs one JSON.parse per line.
   */
  static async from(
    text: string,
    full: FileResult,
    options: CheckOptions,
    version: number,
    stale: () => boolean = () => false,
    /** Set when the caller already made sure every line is independent (while reading it). */
    knownIndependent = false,
  ): Promise<LineIndependentTrace | undefined> {
    if (!readsAsLines(text, options.fileName) || full.format === undefined) return undefined;
    const lines = [...textLines(text)];
    // one JSON.parse per line: in slices, so that a large file does not hold up the extension host
    let slice = Date.now();
    if (!knownIndependent) for (const l of lines) {
      if (!lineStandsAlone(l.text)) return undefined;
      if (Date.now() - slice > 25) {
        await new Promise((r) => setTimeout(r, 0));
        if (stale()) return undefined;
        slice = Date.now();
      }
    }
    const entries: LineEntry[] = lines.map((l) => ({ text: l.text }));
    // bucket the findings by line
    let i = 0;
    for (const f of full.findings) {
      while (i + 1 < lines.length && lines[i + 1].base <= f.span.start) i++;
      while (i > 0 && lines[i].base > f.span.start) i--;
      (entries[i].findings ??= []).push(shift(f, -lines[i].base));
    }
    return new LineIndependentTrace(entries, full.format, full.calls, full.sessions, options, version);
  }

  /** Follow one edit (in the order the editor reports them): the touched lines will be checked again. */
  applyChange(change: LineChange, version: number): void {
    let added = 1;
    for (let i = change.text.indexOf('\n'); i !== -1; i = change.text.indexOf('\n', i + 1)) added++;
    const gone = this.entries.splice(change.startLine, change.endLine - change.startLine + 1, ...Array.from({ length: added }, () => ({})));
    for (const e of gone) if (e.text !== undefined) this.removed.push(e);
    this.dirty += added;
    this.version = version;
  }

  private checkLine(text: string): { findings?: Finding[]; calls: number; sessions: number; format?: string } {
    const checker = new TraceChecker(this.options);
    checker.addLine(text, 0);
    const r = checker.finish();
    return { findings: r.findings.length ? r.findings : undefined, calls: r.calls, sessions: r.sessions, format: r.format };
  }

  /**
   * Checks the lines changed since the last update and returns the file's result; undefined when that is not
   * possible (a changed line is an event line, too much changed, or the table lost track): check whole then.
   */
  update(doc: LineSource, stats?: PatchStats): FileResult | undefined {
    if (doc.lineCount !== this.entries.length) return undefined;
    if (this.dirty > MAX_CHANGED_LINES || this.removed.length > MAX_CHANGED_LINES) return undefined;
    // a text with one line of content or none may read as one document (readingOf asks its first line): whole
    let content = 0;
    for (let i = 0; i < this.entries.length && content < 2; i++) if ((this.entries[i].text ?? doc.lineText(i)).trim() !== '') content++;
    if (content < 2) return undefined;
    const changed: number[] = [];
    for (let i = 0; i < this.entries.length; i++) {
      if (this.entries[i].text === undefined) {
        if (!lineStandsAlone(doc.lineText(i))) return undefined;
        changed.push(i);
      }
    }
    let calls = this.calls;
    let sessions = this.sessions;
    for (const e of this.removed) {
      if (e.calls === undefined) {
        const r = this.checkLine(e.text!);
        e.calls = r.calls;
        e.sessions = r.sessions;
      }
      calls -= e.calls;
      sessions -= e.sessions ?? 0;
    }
    for (const i of changed) {
      const text = doc.lineText(i);
      const r = this.checkLine(text);
      calls += r.calls;
      sessions += r.sessions;
      if (this.format === undefined && r.format !== undefined) this.format = r.format;
      this.entries[i] = { text, findings: r.findings, calls: r.calls, sessions: r.sessions };
    }
    this.removed = [];
    this.dirty = 0;
    this.calls = calls;
    this.sessions = sessions;
    if (stats) {
      stats.checked = changed.length;
      stats.lines = this.entries.length;
    }
    const findings: Finding[] = [];
    for (let i = 0; i < this.entries.length; i++) {
      const fs = this.entries[i].findings;
      if (fs) {
        const base = doc.lineStart(i);
        for (const f of fs) findings.push(shift(f, base));
      }
    }
    const format = this.calls > 0 || findings.length > 0 ? this.format : undefined;
    return { format, calls: this.calls, sessions: this.sessions, findings };
  }
}

/** The model of the single line at `base` (for hovers on a file whose whole model was not kept). */
export function lineModel(text: string, base: number, options: CheckOptions): FileResult {
  const checker = new TraceChecker({ ...options, keepModel: true });
  checker.addLine(text, base);
  return checker.finish();
}
