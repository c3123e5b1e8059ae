// The end of `check`: report entries, as they come (src/cli/check-files.ts), through the baseline and into the
// chosen format's writer, written out at once (src/cli/output.ts): nothing waits for the last file but the summary.
// With --update-baseline the entries become the baseline instead (its fingerprints are all kept, nothing else).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { addToSummary, applyBaseline, baselineMarker, buildBaseline, emptySummary, parseBaseline, renderBaseline, summaryFails, type Baseline, type ReportDiagnostic, type ReportEntry, type ReportFile, type ReportWriter, type Severity } from '../core';
import { writeFileAtomic } from './atomic';
import { displayPath, UsageError } from './files';
import type { FileReport } from './entry';
import { ReportOutput } from './output';
import { removeSpool, SpooledDiagnostics } from './spool';

export interface ReportRun {
  writer: ReportWriter;
  /** A file to write in place, or stdout (undefined or `-`). */
  output?: string;
  failOn: Severity | 'never';
  baselineFile?: string;
  updateBaseline: boolean;
}

/** Read the baseline before the run (a bad one stops it before any checking), grouped by trace path. */
export async function readBaseline(file: string): Promise<Map<string, Baseline>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new UsageError(`${file}: cannot read the baseline (write one with --update-baseline)`);
  }
  const baseline = parseBaseline(text);
  if (typeof baseline === 'string') throw new UsageError(`${file}: ${baseline}`);
  const byPath = new Map<string, Baseline>();
  for (const e of baseline.findings) {
    let b = byPath.get(e.path);
    if (!b) byPath.set(e.path, (b = { version: baseline.version, findings: [] }));
    b.findings.push(e);
  }
  return byPath;
}

/** Write the report of `entries`; the exit code (0, or 1 for findings at or above failOn). */
export async function writeReport(entries: AsyncIterable<FileReport>, run: ReportRun): Promise<number> {
  if (run.updateBaseline) return updateBaseline(entries, run);
  const baseline = run.baselineFile !== undefined ? await readBaseline(run.baselineFile) : undefined;
  const out = ReportOutput.open(run.output);
  const summary = emptySummary();
  try {
    await out.write(run.writer.start());
    for await (const checked of entries) {
      try {
        const accepted = baseline?.get(checked.path);
        const entry = reportEntry(checked, accepted);
        // a spool's counts are known without reading it again (unless the baseline marks some of its findings)
        addToSummary(summary, entry, 'spool' in checked && !accepted ? checked.spool.counts : undefined);
        for (const piece of run.writer.file(entry)) {
          const wait = out.write(piece);
          if (wait) await wait;
        }
      } finally {
        if ('spool' in checked) removeSpool(checked.spool);
      }
    }
    if (baseline) summary.baselined ??= 0;
    await out.write(run.writer.end(summary));
    await out.close();
  } catch (e) {
    await out.abort();
    const code = (e as { code?: string }).code;
    // the reader of stdout went away (`| head`): nobody wants the rest; stop quietly
    if (code === 'EPIPE' && (run.output === undefined || run.output === '-')) return summaryFails(summary, run.failOn) ? 1 : 0;
    if (code && /^E[A-Z]+$/.test(code) && run.output !== undefined && run.output !== '-') throw new UsageError(`${run.output}: cannot write the report (${code})`);
    throw e;
  }
  return summaryFails(summary, run.failOn) ? 1 : 0;
}

/** A checked file as the writer takes it, the baseline's marks on its diagnostics (a spool's, as they are read). */
function reportEntry(checked: FileReport, accepted: Baseline | undefined): ReportEntry {
  if (!('spool' in checked)) {
    if (accepted) applyBaseline([checked], accepted);
    return checked;
  }
  const all = new SpooledDiagnostics(checked.spool);
  const diagnostics: Iterable<ReportDiagnostic> = accepted ? { *[Symbol.iterator]() {
    const mark = baselineMarker(checked.path, accepted);
    for (const d of all) {
      mark(d);
      yield d;
    }
  } } : all;
  // printed on the threads as the JSON report prints them (EntrySettings.json): written as they are
  const jsonText = accepted ? undefined : all.jsonText();
  return { path: checked.path, format: checked.format, calls: checked.calls, diagnostics, ...(jsonText && { jsonText }) };
}

async function updateBaseline(entries: AsyncIterable<FileReport>, run: ReportRun): Promise<number> {
  if (!run.baselineFile) throw new UsageError('--update-baseline needs --baseline FILE (or "baseline" in the config)');
  // only what a baseline entry keeps, so a large run's messages and positions are not all held
  const kept: ReportFile[] = [];
  for await (const entry of entries) {
    const diagnostics = [...reportEntry(entry, undefined).diagnostics].filter((d) => d.fingerprint);
    if ('spool' in entry) removeSpool(entry.spool);
    if (diagnostics.length) kept.push({ path: entry.path, calls: 0, diagnostics });
  }
  const baseline = buildBaseline(kept);
  await writeFileAtomic(run.baselineFile, renderBaseline(baseline));
  const n = baseline.findings.reduce((sum, f) => sum + (f.count ?? 1), 0);
  process.stderr.write(`contract-guard: wrote ${n} finding${n === 1 ? '' : 's'} to the baseline ${displayPath(path.resolve(run.baselineFile))}\n`);
  return 0;
}
