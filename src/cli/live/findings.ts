// Findings printed as they are found, by every live command (record, mcp wrap, otlp): one line each, exactly as
// `check` prints a finding (`  file:line:col  severity  code  message`), each finding once. Positions are offsets in
// the recording, turned into line:column by the recording's own LineIndex, so they are what `check FILE` prints.
import { TraceChecker, toDiagnostic, type CheckOptions, type FileResult, type Finding, type ReportDiagnostic } from '../../core';

/** One finding as `check`'s text output prints it (its line within a file's group, without column padding). */
export function findingLine(file: string, d: Pick<ReportDiagnostic, 'line' | 'column' | 'severity' | 'code' | 'message'>): string {
  return `  ${file}:${d.line}:${d.column}  ${d.severity.padEnd(7)}  ${d.code.padEnd(21)}  ${d.message}`;
}

/** Codes only the end of a session settles (a call is an orphan only if no result ever comes). */
const AT_END = new Set(['orphan-call']);

/** The findings that stand while the session may still go on: those only its end settles wait, and the codes
 *  `alsoWaiting` names (a recording whose parts may come out of order: the spans of a trace). */
export function settled(findings: readonly Finding[], ended: boolean, alsoWaiting?: ReadonlySet<string>): readonly Finding[] {
  return ended ? findings : findings.filter((f) => !AT_END.has(f.code) && !alsoWaiting?.has(f.code));
}

export type Position = (offset: number) => { line: number; column: number };

export interface LiveFindingsOptions {
  /** What makes two findings the same: their place in the file (default), or the engine's line-independent
   *  fingerprint and the call's id — for recordings whose every line repeats the conversation so far (a model API
   *  request), where the calls of earlier turns come back in every exchange and their findings were printed. */
  once?: 'place' | 'fingerprint';
}

export class LiveFindings {
  private readonly printed = new Set<string>();
  /** Every finding printed so far, in order. */
  readonly shown: ReportDiagnostic[] = [];

  constructor(
    private readonly write: (line: string) => void,
    private readonly options: LiveFindingsOptions = {},
  ) {}

  /** Print the findings not printed before, as lines of `file`, placed by `position`. */
  report(file: string, findings: readonly Finding[], position: Position): number {
    let fresh = 0;
    for (const f of findings) {
      const d = toDiagnostic(f, { position });
      const key = this.options.once === 'fingerprint' && f.fingerprint !== undefined
        ? `${f.code}\u0000${f.fingerprint}\u0000${f.callId ?? ''}`
        : `${f.code}\u0000${d.line}:${d.column}\u0000${f.fingerprint ?? f.message}`;
      if (this.printed.has(key)) continue;
      this.printed.add(key);
      this.shown.push(d);
      this.write(findingLine(file, d));
      fresh += 1;
    }
    return fresh;
  }
}

/** The lines of one growing session with their offsets in the recording: checked whole, line by line as `check`
 *  reads the file, so findings point where `check FILE` puts them. */
export class SessionLines {
  private readonly lines: { text: string; base: number }[] = [];

  add(text: string, base: number): void {
    this.lines.push({ text, base });
  }

  get size(): number {
    return this.lines.length;
  }

  check(options: CheckOptions): FileResult {
    const checker = new TraceChecker(options);
    for (const l of this.lines) checker.addLine(l.text, l.base);
    return checker.finish();
  }
}

/** A growing session kept in the engine's own state: each line is read once as it comes, and a check peeks at the
 *  findings so far (`TraceChecker.peek`) without ending anything. For readers that read each line as it comes (MCP
 *  JSON-RPC); one that holds its lines until the file ends (OTel spans) shows nothing to a peek: use SessionLines. */
export class PeekedSession {
  private readonly checker: TraceChecker;
  private lines = 0;

  constructor(options: CheckOptions) {
    this.checker = new TraceChecker(options);
  }

  add(text: string, base: number): void {
    this.checker.addLine(text, base);
    this.lines += 1;
  }

  get size(): number {
    return this.lines;
  }

  check(): FileResult {
    return this.checker.peek();
  }
}

/** One run of `task` per burst of `schedule()` calls (on the next turn of the event loop). */
export class Coalesced {
  private pending = false;

  constructor(private readonly task: () => void) {}

  schedule(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.task();
    });
  }
}
