// Baselines: findings a team has accepted (an existing trace's known drift) do not fail a run; new ones do.
// A finding is matched by its fingerprint (findingFingerprint, src/core/fingerprint.ts), which survives lines
// moving. Matching counts: a baseline entry seen twice accepts two equal findings, a third is new.
import type { ReportDiagnostic, ReportFile } from './report/model';

export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  path: string;
  fingerprint: string;
  code: string;
  tool?: string;
  /** The message when the baseline was written: for the person reviewing the file, not for matching. */
  message: string;
  /** How many equal findings the baseline accepts (absent: 1). */
  count?: number;
}

export interface Baseline {
  version: 1;
  findings: BaselineEntry[];
}

/** A baseline accepting every finding of the report (what `--update-baseline` writes). */
export function buildBaseline(files: ReportFile[]): Baseline {
  const byKey = new Map<string, BaselineEntry>();
  for (const file of files) {
    for (const d of file.diagnostics) {
      if (!d.fingerprint) continue;
      const key = file.path + '\u0000' + d.fingerprint;
      const e = byKey.get(key);
      if (e) e.count = (e.count ?? 1) + 1;
      else byKey.set(key, { path: file.path, fingerprint: d.fingerprint, code: d.code, ...(d.tool !== undefined ? { tool: d.tool } : {}), message: d.message });
    }
  }
  const findings = [...byKey.values()].sort((a, b) => a.path.localeCompare(b.path) || a.code.localeCompare(b.code) || a.fingerprint.localeCompare(b.fingerprint));
  return { version: BASELINE_VERSION, findings };
}

/** The baseline file's text: one entry per line, sorted, so that a diff of it reads like a review. */
export function renderBaseline(b: Baseline): string {
  const lines = b.findings.map((f) => '    ' + JSON.stringify(f));
  return `{\n  "version": ${b.version},\n  "findings": [\n${lines.join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`;
}

/** Read a baseline file; a string is the reason it is not one. */
export function parseBaseline(text: string): Baseline | string {
  let v: unknown;
  try {
    v = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    return `not valid JSON (${(e as Error).message})`;
  }
  const o = v as { version?: unknown; findings?: unknown };
  if (typeof v !== 'object' || v === null || !Array.isArray(o.findings)) return 'expected {"version": 1, "findings": [...]}';
  if (o.version !== BASELINE_VERSION) return `unsupported baseline version ${JSON.stringify(o.version)} (expected ${BASELINE_VERSION})`;
  for (const [i, f] of o.findings.entries()) {
    const e = f as Partial<BaselineEntry>;
    if (typeof e !== 'object' || e === null || typeof e.path !== 'string' || typeof e.fingerprint !== 'string') return `findings[${i}] needs a "path" and a "fingerprint"`;
  }
  return v as Baseline;
}

/** Mark the diagnostics the baseline accepts (`baselined: true`); returns how many were marked. */
export function applyBaseline(files: ReportFile[], baseline: Baseline): number {
  const left = acceptedCounts(baseline);
  let marked = 0;
  for (const file of files) for (const d of file.diagnostics) if (mark(left, file.path, d)) marked++;
  return marked;
}

/** What applyBaseline does to one file's diagnostics, one at a time in report order (for diagnostics read from a
 *  spool, src/cli/spool.ts): a fresh marker for each pass over them. */
export function baselineMarker(path: string, baseline: Baseline): (d: ReportDiagnostic) => void {
  const left = acceptedCounts(baseline);
  return (d) => void mark(left, path, d);
}

function acceptedCounts(baseline: Baseline): Map<string, number> {
  const left = new Map<string, number>();
  for (const e of baseline.findings) {
    const key = e.path + '\u0000' + e.fingerprint;
    left.set(key, (left.get(key) ?? 0) + (e.count ?? 1));
  }
  return left;
}

function mark(left: Map<string, number>, path: string, d: ReportDiagnostic): boolean {
  if (!d.fingerprint) return false;
  const key = path + '\u0000' + d.fingerprint;
  const n = left.get(key) ?? 0;
  if (n <= 0) return false;
  left.set(key, n - 1);
  d.baselined = true;
  return true;
}
