// Incremental re-checking of JSONL traces whose lines are checked on their own: each line a whole conversation
// (fine-tune `{messages, tools}` lines, one run per line, ...), a parse error, or nothing a format adapter reads.
// After an edit only the lines that changed are parsed and checked again; the findings of the other lines are
// kept and moved with their line. A file with lines that are events of one conversation spread over many lines
// (cross-call rules span lines) is not line-independent and is always checked whole.
import { ADAPTERS, TraceChecker, type CheckOptions, type FileResult, type Finding } from '../core';

const JSONL_NAME = /\.(jsonl|ndjson|jsonlines)$/i;

/** Above this many changed lines a whole check is as cheap as patching. */
const MAX_CHANGED_LINES = 500;

export function isJsonlName(fileName: string): boolean {
  return JSONL_NAME.test(fileName);
}

interface Line {
  text: string;
  base: number;
}

/** Lines split as the core splits them (LF or CRLF, without the breaks). */
export function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (;;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    out.push({ text: text.slice(start, lineEnd), base: start });
    if (end === text.length) break;
    start = end + 1;
  }
  return out;
}

/** Whether a JSONL line is read on its own by the engine (see TraceChecker.readLine). */
export function independentLine(text: string): boolean {
  if (text.trim() === '') return true;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return true; // a parse error is a finding on that line alone
  }
  if (ADAPTERS.some((a) => a.claimsLine?.(value))) return false;
  if (ADAPTERS.some((a) => a.claimsDocument?.(value))) return true;
  return !ADAPTERS.some((a) => a.acceptsLine?.(value));
}

interface LineEntry {
  text: string;
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

export interface PatchStats {
  /** Lines parsed and checked again. */
  checked: number;
  lines: number;
}

export class LineIndependentTrace {
  private constructor(
    private entries: LineEntry[],
    private format: string | undefined,
    private calls: number,
    private sessions: number,
    private readonly options: CheckOptions,
  ) {}

  /**
   * The line table of a file just checked whole, or undefined when its lines are not independent.
   * Costs one JSON.parse per line.
   */
  static from(text: string, full: FileResult, options: CheckOptions): LineIndependentTrace | undefined {
    if (!isJsonlName(options.fileName ?? '') || full.format === undefined) return undefined;
    const lines = splitLines(text);
    for (const l of lines) if (!independentLine(l.text)) return undefined;
    const entries: LineEntry[] = lines.map((l) => ({ text: l.text }));
    // bucket the findings by line
    let i = 0;
    for (const f of full.findings) {
      while (i + 1 < lines.length && lines[i + 1].base <= f.span.start) i++;
      while (i > 0 && lines[i].base > f.span.start) i--;
      (entries[i].findings ??= []).push(shift(f, -lines[i].base));
    }
    return new LineIndependentTrace(entries, full.format, full.calls, full.sessions, options);
  }

  private checkLine(text: string): { findings?: Finding[]; calls: number; sessions: number; format?: string } {
    const checker = new TraceChecker(this.options);
    checker.addLine(text, 0);
    const r = checker.finish();
    return { findings: r.findings.length ? r.findings : undefined, calls: r.calls, sessions: r.sessions, format: r.format };
  }

  /**
   * Brings the table up to `text` by checking only the lines that differ; undefined when that is not possible
   * (a changed line is an event line, or too much changed): check the file whole then.
   */
  update(text: string, stats?: PatchStats): FileResult | undefined {
    const lines = splitLines(text);
    const old = this.entries;
    let prefix = 0;
    const max = Math.min(old.length, lines.length);
    while (prefix < max && old[prefix].text === lines[prefix].text) prefix++;
    let suffix = 0;
    while (suffix < max - prefix && old[old.length - 1 - suffix].text === lines[lines.length - 1 - suffix].text) suffix++;
    const removed = old.slice(prefix, old.length - suffix);
    const added = lines.slice(prefix, lines.length - suffix);
    if (removed.length > MAX_CHANGED_LINES || added.length > MAX_CHANGED_LINES) return undefined;
    for (const l of added) if (!independentLine(l.text)) return undefined;

    let calls = this.calls;
    let sessions = this.sessions;
    for (const e of removed) {
      if (e.calls === undefined) {
        const r = this.checkLine(e.text);
        e.calls = r.calls;
        e.sessions = r.sessions;
      }
      calls -= e.calls;
      sessions -= e.sessions ?? 0;
    }
    const fresh: LineEntry[] = added.map((l) => {
      const r = this.checkLine(l.text);
      calls += r.calls;
      sessions += r.sessions;
      if (this.format === undefined && r.format !== undefined) this.format = r.format;
      return { text: l.text, findings: r.findings, calls: r.calls, sessions: r.sessions };
    });
    this.entries = [...old.slice(0, prefix), ...fresh, ...old.slice(old.length - suffix)];
    this.calls = calls;
    this.sessions = sessions;
    if (stats) {
      stats.checked = added.length;
      stats.lines = lines.length;
    }
    return this.result(lines);
  }

  private result(lines: Line[]): FileResult {
    const findings: Finding[] = [];
    for (let i = 0; i < this.entries.length; i++) {
      const fs = this.entries[i].findings;
      if (fs) for (const f of fs) findings.push(shift(f, lines[i].base));
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
