// The end of `check`: report entries, as they come (src/cli/check-files.ts), through the baseline and into the
// chosen format's writer, written out at once (src/cli/output.ts): nothing waits for the last file but the summary.
// With --update-baseline the entries become the baseline instead (its fingerprints are all kept, nothing else).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { addToSummary, applyBaseline, buildBaseline, emptySummary, hasFindingsAtOrAbove, parseBaseline, renderBaseline, type Baseline, type ReportFile, type ReportWriter, type Severity } from '../core';
import { writeFileAtomic } from './atomic';
import { displayPath, UsageError } from './files';
import { ReportOutput } from './output';

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
export async function writeReport(entries: AsyncIterable<ReportFile>, run: ReportRun): Promise<number> {
  if (run.updateBaseline) return updateBaseline(entries, run);
  const baseline = run.baselineFile !== undefined ? await readBaseline(run.baselineFile) : undefined;
  const out = ReportOutput.open(run.output);
  const summary = emptySummary();
  let failing = false;
  try {
    await out.write(run.writer.start());
    for await (const entry of entries) {
      const accepted = baseline?.get(entry.path);
      if (accepted) applyBaseline([entry], accepted);
      addToSummary(summary, entry);
      failing ||= hasFindingsAtOrAbove({ files: [entry] }, run.failOn);
      for (const piece of run.writer.file(entry)) {
        const wait = out.write(piece);
        if (wait) await wait;
      }
    }
    if (baseline) summary.baselined ??= 0;
    await out.write(run.writer.end(summary));
    await out.close();
  } catch (e) {
    await out.abort();
    const code = (e as { code?: string }).code;
    // the reader of stdout went away (`| head`): nobody wants the rest; stop quietly
    if (code === 'EPIPE' && (run.output === undefined || run.output === '-')) return failing ? 1 : 0;
    if (code && /^E[A-Z]+$/.test(code) && run.output !== undefined && run.output !== '-') throw new UsageError(`${run.output}: cannot write the report (${code})`);
    throw e;
  }
  return failing ? 1 : 0;
}

async function updateBaseline(entries: AsyncIterable<ReportFile>, run: ReportRun): Promise<number> {
  if (!run.baselineFile) throw new UsageError('--update-baseline needs --baseline FILE (or "baseline" in the config)');
  // only what a baseline entry keeps, so a large run's messages and positions are not all held
  const kept: ReportFile[] = [];
  for await (const entry of entries) {
    const diagnostics = entry.diagnostics.filter((d) => d.fingerprint);
    if (diagnostics.length) kept.push({ path: entry.path, calls: 0, diagnostics });
  }
  const baseline = buildBaseline(kept);
  await writeFileAtomic(run.baselineFile, renderBaseline(baseline));
  const n = baseline.findings.reduce((sum, f) => sum + (f.count ?? 1), 0);
  process.stderr.write(`contract-guard: wrote ${n} finding${n === 1 ? '' : 's'} to the baseline ${displayPath(path.resolve(run.baselineFile))}\n`);
  return 0;
}
