// Shared by the unit tests: read fixtures and contracts from the repo, check them, and locate findings.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { checkText, loadContracts, type CheckOptions, type ContractSet, type Session } from '../../src/core';
import { LineIndex } from '../../src/core/parse/reader';

/** The repository root, whether the tests run from `out/test/unit` or from sources. */
export const ROOT = (() => {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'fixtures', 'traces'))) return dir;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error('cannot find the repository root (a folder with package.json and fixtures/traces)');
})();

export const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');

export function fixture(rel: string): string {
  return readFileSync(path.join(ROOT, 'fixtures', rel), 'utf8');
}

export function fixtureContracts(): ContractSet {
  const dir = path.join(ROOT, 'fixtures', 'contracts');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ path: `fixtures/contracts/${f}`, text: readFileSync(path.join(dir, f), 'utf8') }));
  const loaded = loadContracts(files);
  if (loaded.findings.length) throw new Error(`fixture contracts are broken: ${loaded.findings[0].finding.message}`);
  return loaded.contracts;
}

export interface Located {
  code: string;
  severity: string;
  message: string;
  line: number;
  column: number;
  /** The source text the finding points at. */
  token: string;
}

export function checkAndLocate(text: string, options: CheckOptions): { format?: string; calls: number; findings: Located[] } {
  const result = checkText(text, options);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const index = LineIndex.of(body);
  return {
    format: result.format,
    calls: result.calls,
    findings: result.findings.map((f) => {
      const pos = index.position(f.span.start);
      return { code: f.code, severity: f.severity, message: f.message, line: pos.line, column: pos.column, token: body.slice(f.span.start, f.span.end) };
    }),
  };
}

/** `code@line:column token` — compact enough to compare whole lists of findings at once. */
export function brief(f: Located): string {
  return `${f.code}@${f.line}:${f.column} ${f.token.length > 30 ? f.token.slice(0, 30) + '…' : f.token}`;
}

/** Check a trace keeping its model: the result, its sessions, `line:column` of an offset, and each finding as
 *  `code line:column tool`. The one home of the reading helper the format tests share. */
export function readTrace(text: string, options: CheckOptions = {}) {
  const r = checkText(text, { keepModel: true, ...options });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const index = LineIndex.of(text);
  const pos = (offset: number) => {
    const p = index.position(offset);
    return `${p.line}:${p.column}`;
  };
  return { r, sessions, pos, codes: r.findings.map((f) => `${f.code} ${pos(f.span.start)}${f.tool ? ' ' + f.tool : ''}`) };
}

/** JSONL of the given records, one per line. */
export const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** Trace files under the given folders (repo-relative; `corpus` is ../shared/corpus, skipped when absent) whose
 *  names match, with their text: the sample set the cross-checking tests run over. */
export function traceFilesIn(folders: string[], name: RegExp): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (dir: string, rel: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full, `${rel}/${e.name}`);
      else if (name.test(e.name)) out.push({ name: `${rel}/${e.name}`, text: readFileSync(full, 'utf8') });
    }
  };
  for (const f of folders) walk(f === 'corpus' ? CORPUS : path.join(ROOT, f), f);
  return out;
}

/** The bench's trace generators (test/bench/formats.js), for tests that need large generated traces. */
export interface BenchTraces {
  generateClaudeCode: (file: string, mb: number, seed?: number, options?: { sessionTurns?: number; sidechains?: number }) => { calls: number };
  generateOtlp: (file: string, mb: number) => { calls: number };
}

export function benchTraces(): BenchTraces {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(ROOT, 'test', 'bench', 'formats.js')) as BenchTraces;
}

/** A trace written in a test, read with no built-in packs and its model kept: the result, its sessions, its codes. */
export function readModel(text: string, options: CheckOptions = {}): { r: ReturnType<typeof checkText>; sessions: Session[]; codes: string[] } {
  const r = checkText(text, { keepModel: true, packs: false, ...options });
  return { r, sessions: (r.model ?? []).map((m) => m.session), codes: r.findings.map((f) => f.code) };
}

/** A session's call names, in order. */
export const callNames = (s: Session): string[] => s.calls.map((c) => c.name);
/** What each result of a session answers: the call id, or `#<index>` for a result paired by position. */
export const pairedIds = (s: Session): (string | undefined)[] => s.results.map((x) => x.callId ?? (x.callIndex === undefined ? undefined : `#${x.callIndex}`));
