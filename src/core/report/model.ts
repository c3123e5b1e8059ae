// The report every output format renders: per file, findings with 1-based line/column (UTF-16 columns, as
// editors and SARIF count them), plus totals. Built from FileResults by the CLI (or anyone with a LineIndex).
import type { FileResult } from '../engine';
import type { Finding, Severity } from '../model';
import type { LineIndex } from '../parse/reader';

export interface ReportDiagnostic {
  code: string;
  severity: Severity;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  tool?: string;
  callId?: string;
  turn?: number;
  /** Line-independent identity of the finding (baselines, SARIF partialFingerprints). */
  fingerprint?: string;
  /** The baseline accepts this finding: it is reported but does not fail the run. */
  baselined?: boolean;
}

export interface ReportFile {
  path: string;
  format?: string;
  calls: number;
  diagnostics: ReportDiagnostic[];
}

/** A file as a writer takes it: its diagnostics may be read from where they wait (src/cli/spool.ts), in order, as
 *  often as the writer needs (never all held). */
export type ReportEntry = Omit<ReportFile, 'diagnostics'> & {
  diagnostics: Iterable<ReportDiagnostic>;
  /** The same diagnostics as `--format json` prints them (jsonDiagnosticText), when they were printed where they
   *  were found (a check thread): that writer then writes these, not the diagnostics again. */
  jsonText?: Iterable<string>;
};

export interface Report {
  version: 1;
  files: ReportFile[];
  /** Severity counts leave out baselined findings; `baselined` counts those (present when a baseline was used);
   *  `notRead`, files no reader understood (present when there are any). */
  summary: { files: number; calls: number; error: number; warning: number; info: number; baselined?: number; notRead?: number };
}

export function toDiagnostic(f: Finding, index: Pick<LineIndex, 'position'>): ReportDiagnostic {
  const start = index.position(f.span.start);
  const end = index.position(Math.max(f.span.end, f.span.start));
  const d: ReportDiagnostic = { code: f.code, severity: f.severity, message: f.message, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  if (f.tool !== undefined) d.tool = f.tool;
  if (f.callId !== undefined) d.callId = f.callId;
  if (f.turn !== undefined) d.turn = f.turn;
  if (f.fingerprint !== undefined) d.fingerprint = f.fingerprint;
  return d;
}

export function reportFile(path: string, result: FileResult, index: LineIndex): ReportFile {
  return { path, format: result.format, calls: result.calls, diagnostics: result.findings.map((f) => toDiagnostic(f, index)) };
}

export function emptySummary(): Report['summary'] {
  return { files: 0, calls: 0, error: 0, warning: 0, info: 0 };
}

/** Count one file into the totals (a report written file by file counts as it goes). `counts`: its diagnostics'
 *  counts by severity when they are known (none baselined), so they are not read again. */
export function addToSummary(summary: Report['summary'], f: ReportEntry, counts?: Record<Severity, number>): void {
  summary.files += 1;
  summary.calls += f.calls;
  if (f.format === undefined) summary.notRead = (summary.notRead ?? 0) + 1;
  if (counts) {
    for (const s of ['error', 'warning', 'info'] as const) summary[s] += counts[s];
    return;
  }
  for (const d of f.diagnostics) {
    if (d.baselined) summary.baselined = (summary.baselined ?? 0) + 1;
    else summary[d.severity] += 1;
  }
}

export function buildReport(files: ReportFile[]): Report {
  const summary = emptySummary();
  for (const f of files) addToSummary(summary, f);
  return { version: 1, files, summary };
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** Whether totals count a finding at or above `threshold` (baselined findings are not counted by severity). */
export function summaryFails(summary: Report['summary'], threshold: Severity | 'never'): boolean {
  if (threshold === 'never') return false;
  return (Object.keys(RANK) as Severity[]).some((s) => RANK[s] >= RANK[threshold] && summary[s] > 0);
}

/** Whether the report has a finding at or above `threshold` (CI's pass/fail). */
export function hasFindingsAtOrAbove(report: Pick<Report, 'files'>, threshold: Severity | 'never'): boolean {
  if (threshold === 'never') return false;
  return report.files.some((f) => f.diagnostics.some((d) => !d.baselined && RANK[d.severity] >= RANK[threshold]));
}
