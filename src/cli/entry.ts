// One checked file as the report shows it, made the same way on the main thread and on a worker (src/cli/worker.ts):
// the config's ignore rules applied to its findings, positions as lines and columns, and the `unknown-format`
// warning for a file the user named that no reader understood.
import { isIgnored, toDiagnostic, type Finding, type IgnoreRule, type LineIndex, type ReportDiagnostic, type ReportFile, type Severity } from '../core';

/** What turns a file's findings into its report entry (plain data: it is sent to every worker). */
export interface EntrySettings {
  ignore?: IgnoreRule[];
  /** The severity of `unknown-format`, or off. */
  unknownSeverity: Severity | 'off';
  readAs?: string;
}

/** The diagnostics of findings the ignore rules keep (`rel`: the trace's path relative to the config's folder). */
export function diagnosticsOf(findings: readonly Finding[], index: Pick<LineIndex, 'position'>, rel: string, s: EntrySettings): ReportDiagnostic[] {
  const out: ReportDiagnostic[] = [];
  for (const f of findings) if (!isIgnored(s.ignore, f, rel)) out.push(toDiagnostic(f, index));
  return out;
}

/** A file's entry; `wanted`: the user named the file, so not being a trace is a warning. */
export function fileEntry(shown: string, format: string | undefined, calls: number, diagnostics: ReportDiagnostic[], wanted: boolean, s: EntrySettings): ReportFile {
  const entry: ReportFile = { path: shown, format, calls, diagnostics };
  if (format === undefined && diagnostics.length === 0 && wanted && s.unknownSeverity !== 'off') {
    const message = s.readAs
      ? `the ${s.readAs} reader found no trace in this file; nothing was checked`
      : 'not a trace in any known format; nothing was checked (force a reader with --read-as, e.g. --read-as generic)';
    diagnostics.push({ code: 'unknown-format', severity: s.unknownSeverity, message, line: 1, column: 1, endLine: 1, endColumn: 1 });
  }
  return entry;
}
