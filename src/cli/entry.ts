// One checked file as the report shows it, made the same way on the main thread and on a worker (src/cli/worker.ts):
// the config's ignore rules applied to its findings, positions as lines and columns, and the `unknown-format`
// warning for a file the user named that no reader understood. A file checked here or on a thread from disk has its
// diagnostics in a spool (src/cli/spool.ts) rather than an array: `checkedEntry`.
import { isIgnored, toDiagnostic, type CheckOptions, type Finding, type IgnoreRule, type LineIndex, type ReportDiagnostic, type ReportFile, type Severity } from '../core';
import { DiagnosticSpool, spoolSink, type SpoolData } from './spool';
import { checkFile } from './stream';

/** What turns a file's findings into its report entry (plain data: it is sent to every worker). */
export interface EntrySettings {
  ignore?: IgnoreRule[];
  /** The severity of `unknown-format`, or off. */
  unknownSeverity: Severity | 'off';
  readAs?: string;
  /** The report is `--format json` with no baseline: a thread prints a slice's diagnostics as that report does
   *  (spool.ts SpoolText.json), so the main thread's part at the end is writing them, not printing them. */
  json?: boolean;
}

/** The diagnostic of a finding, or undefined when the ignore rules drop it (`rel`: the trace's path relative to the
 *  config's folder). */
export function diagnosticOf(f: Finding, index: Pick<LineIndex, 'position'>, rel: string, s: EntrySettings): ReportDiagnostic | undefined {
  return isIgnored(s.ignore, f, rel) ? undefined : toDiagnostic(f, index);
}

/** The diagnostics of findings the ignore rules keep. */
export function diagnosticsOf(findings: readonly Finding[], index: Pick<LineIndex, 'position'>, rel: string, s: EntrySettings): ReportDiagnostic[] {
  const out: ReportDiagnostic[] = [];
  for (const f of findings) {
    const d = diagnosticOf(f, index, rel, s);
    if (d) out.push(d);
  }
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

/** A file's report entry as checking makes it: its diagnostics in an array, or in a spool. */
export type FileReport = ReportFile | SpooledFile;

/** A file's entry whose diagnostics wait in a spool (plain data: a thread sends it to the main thread). */
export interface SpooledFile {
  path: string;
  format?: string;
  calls: number;
  spool: SpoolData;
}

/** Check a file from disk into its entry, its findings spooled as they are made (never all held). */
export async function checkedEntry(t: { file: string; shown: string; rel: string; wanted: boolean }, options: CheckOptions, s: EntrySettings): Promise<SpooledFile> {
  let spool: DiagnosticSpool | undefined;
  const out = (index: LineIndex) => spoolSink((spool = new DiagnosticSpool()), (f) => diagnosticOf(f, index, t.rel, s));
  const { result, index } = await checkFile(t.file, options, out);
  if (result.findings.length && spool) spool.discard(); // the result was replaced (a gzip stream broken midway)
  if (!spool || result.findings.length) {
    spool = new DiagnosticSpool();
    for (const d of diagnosticsOf(result.findings, index, t.rel, s)) spool.addInOrder(d);
  }
  return spooledEntry(t.shown, result.format, result.calls, spool, t.wanted, s);
}

/** fileEntry, for diagnostics in a spool. */
export function spooledEntry(shown: string, format: string | undefined, calls: number, spool: DiagnosticSpool, wanted: boolean, s: EntrySettings): SpooledFile {
  const entry = fileEntry(shown, format, calls, [], wanted && spool.length === 0, s);
  for (const d of entry.diagnostics) spool.addInOrder(d); // the unknown-format warning, when the file has no other
  return { path: entry.path, format: entry.format, calls: entry.calls, spool: spool.done() };
}
