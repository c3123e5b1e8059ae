// Comparing runs (issue 15): what changed between two runs — the key shapes per tool (the decision table's census,
// fed a whole run), findings new / fixed / unchanged by their line-independent fingerprint (src/core/baseline.ts),
// and calls, tools and findings per 100 calls on each side — and mock coverage: the shapes a run shows that no
// fixture (or mock, or recorded test payload) covers. Pure: it takes checked files, never reads the disk; a run is
// collected one file at a time as the engine checks it, so nothing but counts, shapes and findings is kept.
import type { Profile } from '../contracts/compile';
import type { ContractSet } from '../contracts/types';
import { TraceChecker, type CheckedSession, type CheckOptions, type FileResult } from '../engine';
import { fixtureCall } from '../fixtures/replay';
import type { Finding, Span } from '../model';
import { argsText, KeyCensus, shapeId, type CensusShape } from './decision-table';
import { toDiagnostic, type ReportDiagnostic } from './model';

/** The contracts of a run. The census reads each session with the context it was checked with (CheckedSession's),
 *  so shapes break where findings say. */
export interface RunOptions {
  contracts?: ContractSet;
  profile?: Profile;
  volatileTools?: readonly string[];
}

/** 1-based line and column (UTF-16), as editors and the CLI count them. */
export interface Position {
  line: number;
  column: number;
}

/** A call of a run: which file, where (1-based and as an offset span, for reveal and freeze), and its arguments. */
export interface ExampleCall {
  file: string;
  line: number;
  column: number;
  span: Span;
  session: number;
  /** The call's index in its session. */
  index: number;
  turn: number;
  callId?: string;
  /** The arguments as the decision table shows them (short compact JSON). */
  args: string;
}

/** A census shape of the whole run (decision-table.ts's CensusShape), placed in its file. */
export interface RunShape extends Omit<CensusShape, 'first'> {
  /** The first call of this shape in the run. */
  example: ExampleCall;
}

export interface RunTool {
  tool: string;
  calls: number;
  shapes: RunShape[];
}

/** A finding as `check` reports it, with the file it is in. */
export interface RunFinding extends ReportDiagnostic {
  file: string;
  /** The baseline fingerprint (code, tool, call fingerprint, place in the call): no line in it. */
  fingerprint: string;
  /** The file's path within its run (relative to the run's folder): equal findings pair up within the same file
   *  first, so a finding that two files of B share is reported where A did not have it. */
  runPath: string;
}

export interface RunFile {
  path: string;
  format?: string;
  calls: number;
  sessions: number;
  findings: number;
}

/** One run, summarised: everything compare and mock coverage need, nothing of the traces' texts. */
export interface RunSummary {
  files: RunFile[];
  calls: number;
  sessions: number;
  tools: RunTool[];
  findings: RunFinding[];
}

/** One file of a run being collected: hand `onSession` to the engine, then `done` with its result. */
export interface RunFileSink {
  onSession: (checked: CheckedSession, index: number) => void;
  /** `position`: an offset of this file as 1-based line and column (the CLI's LineIndex, an editor's document). */
  done(result: FileResult, position: (offset: number) => Position): void;
}

/** Collects a run file by file, as each is checked (streamed files included): the census grows per session,
 *  findings are kept as small records with positions. */
export class RunCollector {
  private readonly census = new KeyCensus();
  private readonly examples = new Map<CensusShape, ExampleCall>();
  private readonly files: RunFile[] = [];
  private readonly findings: RunFinding[] = [];
  private calls = 0;
  private sessions = 0;
  private open = false;

  /** `options`: kept for callers; the sessions' own contexts carry the contracts. */
  constructor(_options: RunOptions = {}) {}

  /** `runPath`: the file's path within the run, where two runs hold files of the same names (default: `path`). */
  file(path: string, runPath = path): RunFileSink {
    if (this.open) throw new Error('RunCollector: finish the previous file first');
    this.open = true;
    // The shape of each call of this file, by session, so the file's findings can mark them once it is done.
    const shapesOf = new Map<number, CensusShape[]>();
    // Shapes first seen in this file: their example gets its line and column once the file's positions are known.
    const fresh: ExampleCall[] = [];
    return {
      onSession: (checked, s) => {
        const ctx = checked.context;
        const shapes: CensusShape[] = [];
        for (const call of checked.session.calls) {
          const shape = this.census.count(ctx, s, call);
          shapes[call.index] = shape;
          if (!this.examples.has(shape)) {
            const example: ExampleCall = { file: path, line: 0, column: 0, span: shape.first.span, session: s, index: call.index, turn: call.turn, args: argsText(ctx, call) };
            if (call.id !== undefined) example.callId = call.id;
            this.examples.set(shape, example);
            fresh.push(example);
          }
        }
        shapesOf.set(s, shapes);
      },
      done: (result, position) => {
        this.open = false;
        for (const f of result.findings) {
          if (f.session === undefined || f.callIndex === undefined) continue;
          // mark() keeps only the codes that say a shape breaks the contract
          const shape = shapesOf.get(f.session)?.[f.callIndex];
          if (shape) this.census.mark(shape, [f]);
        }
        for (const example of fresh) Object.assign(example, position(example.span.start));
        for (const f of result.findings) this.findings.push(runFinding(path, runPath, f, position));
        this.files.push({ path, format: result.format, calls: result.calls, sessions: result.sessions, findings: result.findings.length });
        this.calls += result.calls;
        this.sessions += result.sessions;
      },
    };
  }

  summary(): RunSummary {
    const tools = this.census.tools().map((t) => ({
      tool: t.tool,
      calls: t.calls,
      shapes: t.shapes.map((sh) => ({ keys: sh.keys, count: sh.count, extra: sh.extra, missing: sh.missing, breaks: sh.breaks, codes: [...sh.codes].sort(), example: this.examples.get(sh)! })),
    }));
    return { files: [...this.files], calls: this.calls, sessions: this.sessions, tools, findings: [...this.findings] };
  }
}

function runFinding(file: string, runPath: string, f: Finding, position: (offset: number) => Position): RunFinding {
  return { ...toDiagnostic(f, { position }), file, fingerprint: f.fingerprint ?? `${f.code}\u0000${f.message}`, runPath };
}

/** A run from files already checked with `keepModel: true` (the editor has them at hand). */
export function summarizeRun(files: readonly { path: string; result: FileResult; position: (offset: number) => Position }[], options: RunOptions = {}): RunSummary {
  const run = new RunCollector(options);
  for (const f of files) {
    const sink = run.file(f.path);
    (f.result.model ?? []).forEach((checked, i) => sink.onSession(checked, i));
    sink.done(f.result, f.position);
  }
  return run.summary();
}

/** A frozen fixture file checked as the one-call trace it is (positions are in the fixture file); a file that is
 *  not a readable fixture reads as no trace (format undefined), like any unknown file. */
export function checkFixture(text: string, options: CheckOptions = {}): FileResult {
  const read = fixtureCall(text);
  const checker = new TraceChecker(options);
  if (read.ok) checker.addSession('fixture', read.value.session, read.value.fixture.packs);
  const result = checker.finish();
  return read.ok ? { ...result, format: 'fixture' } : result;
}

// ---- compare ---------------------------------------------------------------------------------------------------

export interface SideStats {
  files: number;
  calls: number;
  sessions: number;
  tools: number;
  findings: number;
  /** Findings per 100 calls (0 for a run without calls). */
  per100Calls: number;
  error: number;
  warning: number;
  info: number;
}

/** A shape of either run; `example` is B's first call of it (A's when B has none). */
export interface ShapeComparison extends Omit<RunShape, 'count'> {
  countA: number;
  countB: number;
  /** In B, never in A. */
  isNew: boolean;
  /** In A, no longer in B. */
  gone: boolean;
}

export interface ToolComparison {
  tool: string;
  callsA: number;
  callsB: number;
  /** B calls a tool A never called. */
  isNew: boolean;
  shapes: ShapeComparison[];
}

export interface RunComparison {
  version: 1;
  a: SideStats;
  b: SideStats;
  tools: ToolComparison[];
  newShapes: number;
  findings: {
    /** In B, not in A (by fingerprint, counted: a third equal finding where A had two is new). */
    new: RunFinding[];
    /** In A, gone from B. */
    fixed: RunFinding[];
    /** In both (B's copy). */
    unchanged: RunFinding[];
  };
}

export type CompareFailOn = 'new-findings' | 'new-shapes' | 'any' | 'never';

function stats(run: RunSummary): SideStats {
  const s: SideStats = { files: run.files.length, calls: run.calls, sessions: run.sessions, tools: run.tools.length, findings: run.findings.length, per100Calls: 0, error: 0, warning: 0, info: 0 };
  for (const f of run.findings) s[f.severity]++;
  s.per100Calls = run.calls ? Math.round((run.findings.length / run.calls) * 10000) / 100 : 0;
  return s;
}

export function compareRuns(a: RunSummary, b: RunSummary): RunComparison {
  const toolsA = new Map(a.tools.map((t) => [t.tool, t]));
  const toolsB = new Map(b.tools.map((t) => [t.tool, t]));
  const tools: ToolComparison[] = [];
  let newShapes = 0;
  // B's tools in its order of first appearance, then the tools only A called.
  for (const name of [...toolsB.keys(), ...[...toolsA.keys()].filter((t) => !toolsB.has(t))]) {
    const ta = toolsA.get(name);
    const tb = toolsB.get(name);
    const shapesA = new Map((ta?.shapes ?? []).map((s) => [shapeId(s.keys), s]));
    const shapesB = new Map((tb?.shapes ?? []).map((s) => [shapeId(s.keys), s]));
    const shapes: ShapeComparison[] = [];
    for (const id of [...shapesB.keys(), ...[...shapesA.keys()].filter((k) => !shapesB.has(k))]) {
      const sa = shapesA.get(id);
      const sb = shapesB.get(id);
      const s = (sb ?? sa)!;
      const isNew = sa === undefined;
      if (isNew) newShapes++;
      shapes.push({ keys: s.keys, countA: sa?.count ?? 0, countB: sb?.count ?? 0, isNew, gone: sb === undefined, breaks: s.breaks, extra: s.extra, missing: s.missing, codes: s.codes, example: s.example });
    }
    tools.push({ tool: name, callsA: ta?.calls ?? 0, callsB: tb?.calls ?? 0, isNew: ta === undefined, shapes });
  }
  // Findings as multisets of fingerprints, matched like a baseline: lines may move, identity does not. Pairs
  // within the same file of the run first, then across files (a trace renamed or split is still the same run).
  const found: RunComparison['findings'] = { new: [], fixed: [], unchanged: [] };
  const matched = new Set<RunFinding>();
  for (const key of [(f: RunFinding) => f.runPath + '\u0000' + f.fingerprint, (f: RunFinding) => f.fingerprint]) {
    const left = new Map<string, RunFinding[]>();
    for (const f of a.findings) {
      if (matched.has(f)) continue;
      const list = left.get(key(f));
      if (list) list.push(f);
      else left.set(key(f), [f]);
    }
    for (const f of b.findings) {
      if (matched.has(f)) continue;
      const twin = left.get(key(f))?.shift();
      if (twin) matched.add(twin).add(f);
    }
  }
  for (const f of b.findings) (matched.has(f) ? found.unchanged : found.new).push(f);
  for (const f of a.findings) if (!matched.has(f)) found.fixed.push(f);
  return { version: 1, a: stats(a), b: stats(b), tools, newShapes, findings: found };
}

/** Findings that fail a compare: new errors and warnings (a new info, such as no-contract, only informs). */
export function failingNewFindings(c: RunComparison): RunFinding[] {
  return c.findings.new.filter((f) => f.severity !== 'info');
}

/** Whether B brought what `failOn` forbids (`any`, the default: a new error or warning, or a new shape). */
export function compareFails(c: RunComparison, failOn: CompareFailOn = 'any'): boolean {
  if (failOn === 'never') return false;
  const findings = failingNewFindings(c).length > 0;
  const shapes = c.newShapes > 0;
  return failOn === 'new-findings' ? findings : failOn === 'new-shapes' ? shapes : findings || shapes;
}

// ---- mock coverage -------------------------------------------------------------------------------------------

/** A shape of the traces no fixture has (`count`: its calls in the traces). */
export type UncoveredShape = RunShape;

export interface CoverageTool {
  tool: string;
  /** Calls in the traces, and in the fixtures. */
  calls: number;
  fixtureCalls: number;
  /** Distinct shapes the traces show, and how many of them some fixture has. */
  shapes: number;
  covered: number;
  uncovered: UncoveredShape[];
}

export interface MockCoverage {
  version: 1;
  fixtures: { files: number; calls: number; tools: number };
  traces: { files: number; calls: number; tools: number };
  /** Every tool the traces call, in order of first appearance. */
  tools: CoverageTool[];
  shapes: number;
  uncovered: number;
}

/** The shapes `traces` show that no fixture covers: a fixture covers a shape when it calls the same tool with the
 *  same set of top-level keys (values are the replay gate's business, not coverage). */
export function mockCoverage(fixtures: RunSummary, traces: RunSummary): MockCoverage {
  const have = new Map<string, { calls: number; shapes: Set<string> }>();
  for (const t of fixtures.tools) have.set(t.tool, { calls: t.calls, shapes: new Set(t.shapes.map((s) => shapeId(s.keys))) });
  const tools: CoverageTool[] = [];
  let shapes = 0;
  let uncovered = 0;
  for (const t of traces.tools) {
    const fx = have.get(t.tool);
    const missing = t.shapes.filter((s) => !fx?.shapes.has(shapeId(s.keys)));
    shapes += t.shapes.length;
    uncovered += missing.length;
    tools.push({
      tool: t.tool,
      calls: t.calls,
      fixtureCalls: fx?.calls ?? 0,
      shapes: t.shapes.length,
      covered: t.shapes.length - missing.length,
      uncovered: missing,
    });
  }
  return {
    version: 1,
    fixtures: { files: fixtures.files.length, calls: fixtures.calls, tools: fixtures.tools.length },
    traces: { files: traces.files.length, calls: traces.calls, tools: traces.tools.length },
    tools,
    shapes,
    uncovered,
  };
}

/** A shape as people read it: `{building, weekday}`, or `(not an object)`. */
export function shapeLabel(keys: readonly string[] | null): string {
  return keys === null ? '(not an object)' : `{${keys.join(', ')}}`;
}
