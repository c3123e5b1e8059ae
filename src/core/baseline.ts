// Baselines: findings a team has accepted (an existing trace's known drift) do not fail a run; new ones do.
// A finding is matched by a fingerprint that survives lines moving: its code, its tool, the call's fingerprint
// (tool + canonical arguments, src/core/fingerprint.ts) and where in the call it points (an argument path, the
// name, ...), never a line or an offset. Findings with no call (parse errors, orphan results) use their message.
// Matching counts: a baseline entry seen twice accepts two equal findings, a third is new.
import { callFingerprint, hash64 } from './fingerprint';
import type { ToolCall } from './model';
import { RecentCache } from './recent';
import type { Anchor, JsonPath } from './parse/doc';
import type { ReportFile } from './report/model';

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

function after(path: JsonPath, prefix: JsonPath): JsonPath | undefined {
  if (path.length < prefix.length) return undefined;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return undefined;
  return path.slice(prefix.length);
}

/** Where in its call a finding points, independent of the call's position in the file. */
function placeInCall(at: Anchor, call: ToolCall): string {
  const part = at.part === 'key' ? '#key' : '';
  if (call.argsDoc && at.doc === call.argsDoc) {
    const rel = after(at.path, call.argsPath ?? []);
    if (rel) return 'args/' + rel.join('/') + part;
  }
  if (at.doc === call.nameAt.doc && after(at.path, call.nameAt.path)?.length === 0) return 'name';
  if (at.doc === call.argsAt.doc) {
    const rel = after(at.path, call.argsAt.path);
    if (rel) return 'args/' + rel.join('/') + part;
  }
  return 'other' + part;
}

/** The fingerprint of a finding: 16 hex digits. */
// One call can carry thousands of findings (every item of a long array mistyped): its fingerprint is computed once
// while its findings are emitted (the last few calls are remembered).
const callPrints = new RecentCache<ToolCall, string>(8);

function printOf(c: ToolCall): string {
  return callFingerprint(c.name, c.args, c.argumentsRaw);
}

function callPrint(c: ToolCall): string {
  return callPrints.get(c, printOf);
}

export function findingFingerprint(p: { code: string; message: string; at?: Anchor; call?: ToolCall }): string {
  const c = p.call;
  const key = c && p.at ? [p.code, c.name, callPrint(c), placeInCall(p.at, c)].join('\u0000') : [p.code, p.message].join('\u0000');
  return hash64(key);
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
  for (const [i, f] of (o.findings as unknown[]).entries()) {
    const e = f as Partial<BaselineEntry>;
    if (typeof e !== 'object' || e === null || typeof e.path !== 'string' || typeof e.fingerprint !== 'string') return `findings[${i}] needs a "path" and a "fingerprint"`;
  }
  return v as Baseline;
}

/** Mark the diagnostics the baseline accepts (`baselined: true`); returns how many were marked. */
export function applyBaseline(files: ReportFile[], baseline: Baseline): number {
  const left = new Map<string, number>();
  for (const e of baseline.findings) {
    const key = e.path + '\u0000' + e.fingerprint;
    left.set(key, (left.get(key) ?? 0) + (e.count ?? 1));
  }
  let marked = 0;
  for (const file of files) {
    for (const d of file.diagnostics) {
      if (!d.fingerprint) continue;
      const key = file.path + '\u0000' + d.fingerprint;
      const n = left.get(key) ?? 0;
      if (n > 0) {
        left.set(key, n - 1);
        d.baselined = true;
        marked++;
      }
    }
  }
  return marked;
}

/** For editors: which findings of one file a baseline accepts, by fingerprint (a multiset, as for reports). */
export function baselinedIn(path: string, fingerprints: (string | undefined)[], baseline: Baseline): boolean[] {
  const file: ReportFile = { path, calls: 0, diagnostics: fingerprints.map((fingerprint) => ({ code: '', severity: 'info', message: '', line: 1, column: 1, endLine: 1, endColumn: 1, fingerprint })) };
  applyBaseline([file], baseline);
  return file.diagnostics.map((d) => d.baselined === true);
}
