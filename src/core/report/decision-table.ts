// The decision table (DESIGN.md, "The decision table"): for each turn of each session, one row per call and one
// cell per gate — the question a person should ask before trusting the run — plus the key-shape census (per tool,
// each distinct set of argument keys and how often it was seen). Plain data with source offsets, built from a
// checked file (`checkText(..., {keepModel: true})`); the editor's webview only renders it.
import { CHECKS } from '../checks';
import type { GateId, SessionContext } from '../checks/check';
import type { Profile } from '../contracts/compile';
import type { ContractSet } from '../contracts/types';
import type { FileResult } from '../engine';
import { fixtureFingerprint } from '../fixtures/freeze';
import { fixtureCall, replayFixture, type ReplayOutcome } from '../fixtures/replay';
import type { Finding, Span, ToolCall, ToolResult } from '../model';
import { spanOf, type JsonPath } from '../parse/doc';
import { bodyFailure, okExitCodesFor, readResult, transportVerdict } from '../results';
import { isPlainObject } from '../objects';

export type { GateId } from '../checks/check';

/** The gates in column order, with the question each answers (DESIGN.md's table). */
export const GATES: readonly { id: GateId; title: string; question: string }[] = [
  { id: 'envelope', title: 'Envelope', question: 'HTTP 200 / exit 0: does the envelope mean success?' },
  { id: 'keys', title: 'Legal keys', question: 'Are the arguments and the result legal under the contract?' },
  { id: 'args', title: 'Args changed', question: 'Same tool again: did the arguments change?' },
  { id: 'bytes', title: 'Bytes moved', question: '"I wrote the file": did the digest move?' },
  { id: 'replay', title: 'Replays', question: 'Is there a frozen fixture of this call, and does it still pass?' },
];

/** Which gate each finding code belongs to, from the checks' own metadata (codes without a gate are shown on the
 *  row, outside the gates). */
export const GATE_OF_CODE: Readonly<Record<string, GateId>> = Object.fromEntries(CHECKS.flatMap((c) => (c.gate ? [[c.code, c.gate]] : [])));

/** `none`: the gate applies but there is nothing to judge yet (no fixture frozen for this call). */
export type CellStatus = 'pass' | 'fail' | 'na' | 'none';

export interface GateCell {
  status: CellStatus;
  /** On fail: the diagnostic code (or the replay drift: `loosened`, `tightened`, `changed`, `invalid`). */
  code?: string;
  /** What the trace showed: the transport signal, the finding's message, the fixture's replay. One line. */
  signal: string;
}

/** A marked part of a row's short argument text: [start, end) into `args`, and why. */
export interface ArgMark {
  start: number;
  end: number;
  code: string;
}

export interface TableRow {
  session: number;
  /** The call's index in its session. */
  index: number;
  turn: number;
  tool: string;
  callId?: string;
  /** The arguments as short compact JSON (strings and deep values clipped). */
  args: string;
  marks: ArgMark[];
  /** The call in the source (reveal), and its tool name (select). */
  span: Span;
  nameSpan: Span;
  gates: Record<GateId, GateCell>;
  /** Every code of the call's findings, gate or not, sorted. */
  codes: string[];
  /** Any gate failed. */
  failing: boolean;
}

export interface TableTurn {
  session: number;
  /** The session's id when the trace has one (a Claude Code sessionId, an OTel trace id, a run name). */
  sessionId?: string;
  turn: number;
  /** The model message's text, trimmed and shortened (empty when the message had none). */
  text: string;
  calls: number;
  rows: TableRow[];
}

export interface CensusShape {
  /** Sorted top-level argument keys; `null` when the arguments were not an object. */
  keys: string[] | null;
  count: number;
  /** Keys the contract does not declare / required keys absent (from the contract, when there is one). */
  extra: string[];
  missing: string[];
  /** The shape breaks the contract (or its calls got shape findings: extra-key, missing-key, unknown-tool); arguments
   *  that are not an object at all are a breaking shape of their own (`keys: null`). */
  breaks: boolean;
  codes: string[];
  /** Where the shape was first seen. */
  first: { session: number; index: number; turn: number; span: Span };
}

export interface CensusTool {
  tool: string;
  calls: number;
  /** In order of first appearance: the first extra argument to show up is the first breaking shape. */
  shapes: CensusShape[];
}

export interface DecisionTable {
  format?: string;
  calls: number;
  sessions: number;
  turns: TableTurn[];
  census: CensusTool[];
  /** Findings that belong to no call (orphan results, parse errors, recorded tool definitions). */
  other: { code: string; message: string; span: Span }[];
  /** For the filters: the codes and tools present, sorted. */
  codes: string[];
  tools: string[];
  /** How many fixtures were read for the replay gate, and whether they are still being replayed. */
  fixtures: number;
  fixturesPending: boolean;
}

/** A fixture file already replayed against today's contracts, keyed by the fingerprint of the call it froze. */
export interface ReplayedFixture {
  name: string;
  outcome: ReplayOutcome;
}

export type FixtureReplays = Map<string, ReplayedFixture[]>;

/** Replay fixture files (name + text) and index them by the served fingerprint of their call
 *  (`fixtureFingerprint`: tool + canonical arguments), so a trace's call finds the fixtures that froze it. */
export function replayFixturesByCall(files: readonly { name: string; text: string }[], contracts: ContractSet, profile?: Profile): FixtureReplays {
  const out: FixtureReplays = new Map();
  for (const f of files) {
    const read = fixtureCall(f.text);
    if (!read.ok) continue; // unreadable fixtures are the Test Explorer's business, not a call's
    const fp = fixtureFingerprint(read.value.call);
    const outcome = replayFixture(f.name, f.text, { contracts, profile });
    const list = out.get(fp) ?? [];
    list.push({ name: f.name, outcome });
    out.set(fp, list);
  }
  return out;
}

export interface TableOptions {
  /** Contracts and profile for replaying fixtures; a session itself is read with the context it was checked with. */
  contracts?: ContractSet;
  profile?: Profile;
  volatileTools?: readonly string[];
  /** Fixtures replayed with `replayFixturesByCall`; absent: the replay gate says no fixture was looked for. */
  fixtures?: FixtureReplays;
  fixtureCount?: number;
  /** The fixtures are still being replayed (a view shows the table first and the replay gate a moment later). */
  fixturesPending?: boolean;
}

const MAX_ARGS = 160;
const MAX_STRING = 40;
const MAX_TEXT = 160;
/** Codes that say a set of keys breaks the contract (an encoding fault is not a shape: the keys may be fine). */
const SHAPE_CODES = new Set(['extra-key', 'missing-key', 'unknown-tool']);


function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/** Build the table from a file checked with `keepModel: true`. */
export function buildDecisionTable(result: FileResult, options: TableOptions = {}): DecisionTable {
  const byCall = new Map<string, Finding[]>();
  const other: DecisionTable['other'] = [];
  for (const f of result.findings) {
    if (f.callIndex === undefined || f.session === undefined) {
      other.push({ code: f.code, message: f.message, span: f.span });
      continue;
    }
    const key = `${f.session}:${f.callIndex}`;
    const list = byCall.get(key);
    if (list) list.push(f);
    else byCall.set(key, [f]);
  }
  const turns: TableTurn[] = [];
  const census = new KeyCensus();
  const codes = new Set<string>();
  const tools = new Set<string>();
  for (const f of result.findings) codes.add(f.code);
  (result.model ?? []).forEach((checked, s) => {
    const { session } = checked;
    const ctx = checked.context;
    const pairing = ctx.pairing;
    const seen = new Set<string>();
    let current: TableTurn | undefined;
    for (const call of session.calls) {
      tools.add(call.name);
      const findings = byCall.get(`${s}:${call.index}`) ?? [];
      const fp = pairing.fingerprint(call);
      const repeat = seen.has(fp);
      seen.add(fp);
      const row = rowOf(ctx, s, call, findings, pairing.resultOf(call), repeat, options);
      if (!current || current.turn !== call.turn || current.session !== s) {
        current = { session: s, sessionId: session.id, turn: call.turn, text: oneLine(call.messageText ?? '', MAX_TEXT), calls: 0, rows: [] };
        turns.push(current);
      }
      current.rows.push(row);
      current.calls++;
      census.mark(census.count(ctx, s, call), findings);
    }
  });
  return {
    format: result.format,
    calls: result.calls,
    sessions: result.sessions,
    turns,
    census: census.tools(),
    other,
    codes: [...codes].sort(),
    tools: [...tools].sort(),
    fixtures: options.fixtureCount ?? 0,
    fixturesPending: options.fixturesPending === true,
  };
}

/** What a gate's function is given: the call, its findings in that gate, and what the table knows about it. */
interface GateInput {
  ctx: SessionContext;
  call: ToolCall;
  result: ToolResult | undefined;
  /** The call's findings of this gate's codes. */
  findings: readonly Finding[];
  repeat: boolean;
  options: TableOptions;
}

/** The gate failed: its first real finding (an orphan call at the very end of a trace is info, still waiting). */
function failedCell(findings: readonly Finding[]): GateCell | undefined {
  const real = findings.filter((f) => f.severity !== 'info');
  if (!real.length) return undefined;
  const f = real[0];
  return { status: 'fail', code: f.code, signal: real.length > 1 ? `${f.message} (+${real.length - 1} more)` : f.message };
}

/** Envelope: what transport said, and what the body said. */
function envelopeGate({ call, result, findings, ctx }: GateInput): GateCell {
  const failed = failedCell(findings);
  if (failed) return failed;
  if (!result) return { status: 'na', signal: findings.length ? 'no result yet: the trace ends here' : 'no result recorded' };
  const r = readResult(result);
  const t = transportVerdict(r, okExitCodesFor(call.name, ctx.contractFor(call.name)?.contract.okExitCodes));
  const body = bodyFailure(r);
  const said = t.kind === 'silent' ? 'no transport signal' : t.said;
  return t.kind === 'failure'
    ? { status: 'pass', signal: `honest failure: ${said}` }
    : body
      ? { status: 'pass', signal: `${said}; body says ${body.said}` }
      : { status: 'pass', signal: isPlainObject(r.body) && r.body.ok === true ? `${said}; ok: true` : said };
}

/** Legal keys: the arguments (and the result) against the contract. */
function keysGate({ ctx, call, findings }: GateInput): GateCell {
  const failed = failedCell(findings);
  if (failed) return failed;
  const resolved = ctx.contractFor(call.name);
  if (!resolved || resolved.contract.arguments === undefined) return { status: 'na', signal: `no contract for ${call.name}` };
  const eff = ctx.effectiveArgs(call);
  const names = isPlainObject(eff.args) ? Object.keys(eff.args) : [];
  return { status: 'pass', signal: names.length ? `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} declared (${resolved.source} contract)` : `no arguments (${resolved.source} contract)` };
}

/** Arguments changed: the fingerprint. */
function argsGate({ ctx, call, findings, repeat }: GateInput): GateCell {
  const failed = failedCell(findings);
  if (failed) return failed;
  if (ctx.isVolatile(call.name)) return { status: 'na', signal: `${call.name} is volatile: repeats are expected` };
  return { status: 'pass', signal: repeat ? 'same arguments again, after a change in between' : 'first call with these arguments' };
}

/** Bytes moved: the digest before and after, for calls the checks count as mutating (contract `mutates`, MCP
 *  annotations recorded in the trace, the name rule). */
function bytesGate({ ctx, call, findings }: GateInput): GateCell {
  const failed = failedCell(findings);
  if (failed) return failed;
  if (!ctx.pairing.mutating(call)) return { status: 'na', signal: `${call.name} does not mutate` };
  return { status: 'pass', signal: 'mutating: no stale digest reported' };
}

/** Replays: a frozen fixture of this call, replayed against today's contracts. */
function replayGate({ call, options }: GateInput): GateCell {
  if (!options.fixtures) return { status: 'none', signal: options.fixturesPending ? 'replaying the fixtures…' : 'no fixtures folder was read' };
  const frozen = options.fixtures.get(fixtureFingerprint(call));
  if (!frozen?.length) return { status: 'none', signal: 'no frozen fixture of this call' };
  const drifted = frozen.find((f) => f.outcome.status !== 'no-drift');
  return drifted
    ? { status: 'fail', code: drifted.outcome.status, signal: `${drifted.name}: ${drifted.outcome.detail}` }
    : { status: 'pass', signal: `${frozen[0].name}: ${frozen[0].outcome.detail}${frozen.length > 1 ? ` (+${frozen.length - 1} more)` : ''}` };
}

/** One small function per gate, in GATES' order. */
const GATE_CELL: Readonly<Record<GateId, (input: GateInput) => GateCell>> = { envelope: envelopeGate, keys: keysGate, args: argsGate, bytes: bytesGate, replay: replayGate };

function rowOf(ctx: SessionContext, s: number, call: ToolCall, findings: Finding[], result: ToolResult | undefined, repeat: boolean, options: TableOptions): TableRow {
  const byGate = new Map<GateId, Finding[]>();
  for (const f of findings) {
    const g = GATE_OF_CODE[f.code];
    if (!g) continue;
    const list = byGate.get(g);
    if (list) list.push(f);
    else byGate.set(g, [f]);
  }
  const gates = Object.fromEntries(GATES.map((g) => [g.id, GATE_CELL[g.id]({ ctx, call, result, findings: byGate.get(g.id) ?? [], repeat, options })])) as Record<GateId, GateCell>;
  const short = shortArgs(ctx, call, findings);
  return {
    session: s,
    index: call.index,
    turn: call.turn,
    tool: call.name,
    callId: call.id,
    args: short.text,
    marks: short.marks,
    span: spanOf(call.at),
    nameSpan: spanOf(call.nameAt),
    gates,
    codes: [...new Set(findings.map((f) => f.code))].sort(),
    failing: Object.values(gates).some((g) => g.status === 'fail'),
  };
}

// ---- short arguments with marks ---------------------------------------------------------------------------

interface Node {
  path: JsonPath;
  /** Range of the key (for object members) and of the value in the short text. */
  key?: [number, number];
  value: [number, number];
}

/** Compact JSON of the arguments, clipped, with the range of every shown key and value. */
function render(v: unknown, nodes: Node[]): string {
  let out = '';
  const walk = (x: unknown, path: JsonPath, depth: number, key?: [number, number]) => {
    const start = out.length;
    if (typeof x === 'string') {
      const s = JSON.stringify(x);
      out += s.length > MAX_STRING ? s.slice(0, MAX_STRING - 2) + '…"' : s;
    } else if (Array.isArray(x)) {
      if (depth >= 2 && x.length) out += '[…]';
      else {
        out += '[';
        x.forEach((e, i) => {
          if (i) out += ',';
          if (out.length > MAX_ARGS) return;
          walk(e, [...path, i], depth + 1);
        });
        out += ']';
      }
    } else if (isPlainObject(x)) {
      const ks = Object.keys(x);
      if (depth >= 2 && ks.length) out += '{…}';
      else {
        out += '{';
        ks.forEach((k, i) => {
          if (i) out += ', ';
          if (out.length > MAX_ARGS) return;
          const ks0 = out.length;
          const kt = JSON.stringify(k);
          out += kt.length > MAX_STRING ? kt.slice(0, MAX_STRING - 2) + '…"' : kt;
          const kr: [number, number] = [ks0, out.length];
          out += ': ';
          walk(x[k], [...path, k], depth + 1, kr);
        });
        out += '}';
      }
    } else {
      out += JSON.stringify(x) ?? String(x);
    }
    nodes.push({ path, key, value: [start, out.length] });
  };
  walk(v, [], 0);
  return out;
}

/** A call's arguments as the table's short text, without marks (an example call of a shape). */
export function argsText(ctx: SessionContext, call: ToolCall): string {
  return shortArgs(ctx, call, []).text;
}

function shortArgs(ctx: SessionContext, call: ToolCall, findings: Finding[]): { text: string; marks: ArgMark[] } {
  const eff = ctx.effectiveArgs(call);
  const marks: ArgMark[] = [];
  // Findings in the arguments: the keys gate's (not the result's, not the name's), and a stale digest passed in.
  const argFindings = findings.filter((f) => f.code !== 'result-contract' && f.code !== 'unknown-tool' && (GATE_OF_CODE[f.code] === 'keys' || f.code === 'stale-digest'));
  if (eff.args === undefined || eff.encoding === 'invalid') {
    const raw = oneLine(call.argumentsRaw ?? '', MAX_ARGS);
    const text = raw || '(no arguments)';
    for (const f of argFindings) if (f.code !== 'stale-digest') marks.push({ start: 0, end: text.length, code: f.code });
    return { text, marks };
  }
  const nodes: Node[] = [];
  let text = render(eff.args, nodes);
  if (text.length > MAX_ARGS) text = text.slice(0, MAX_ARGS - 1) + '…';
  const clip = (r: [number, number]): [number, number] => [Math.min(r[0], text.length), Math.min(r[1], text.length)];
  const doc = eff.doc ?? call.argsAt.doc;
  const base = eff.doc ? eff.path : call.argsAt.path;
  const spans = new Map<Node, { value: Span; key?: Span }>();
  const spanOfNode = (n: Node) => {
    let sp = spans.get(n);
    if (!sp) {
      sp = { value: spanOf({ doc, path: [...base, ...n.path] }), key: n.key ? spanOf({ doc, path: [...base, ...n.path], part: 'key' }) : undefined };
      spans.set(n, sp);
    }
    return sp;
  };
  for (const f of argFindings) {
    if (f.code === 'missing-key') continue; // marked below, after the text
    if (f.code === 'arguments-encoding') {
      marks.push({ start: 0, end: text.length, code: f.code });
      continue;
    }
    // the deepest shown node whose key or value holds the finding's span
    let best: { range: [number, number]; depth: number } | undefined;
    for (const n of nodes) {
      const sp = spanOfNode(n);
      const inKey = sp.key && n.key && sp.key.start <= f.span.start && f.span.end <= sp.key.end;
      const inValue = sp.value.start <= f.span.start && f.span.end <= sp.value.end;
      if (!inKey && !inValue) continue;
      const depth = n.path.length + (inKey ? 0.5 : 0);
      if (!best || depth > best.depth) best = { range: inKey ? n.key! : n.value, depth };
    }
    if (best && n0(best.range)) {
      const [start, end] = clip(best.range);
      if (end > start) marks.push({ start, end, code: f.code });
    }
  }
  const { missing } = keyFaults(ctx, call);
  if (missing.length && findings.some((f) => f.code === 'missing-key')) {
    const note = `  missing: ${missing.join(', ')}`;
    marks.push({ start: text.length + 2, end: text.length + note.length, code: 'missing-key' });
    text += note;
  }
  marks.sort((a, b) => a.start - b.start || b.end - a.end);
  return { text, marks };
}

function n0(r: [number, number]): boolean {
  return r[1] > r[0];
}

/** The top-level keys a call's arguments lack, and those the contract does not declare, as the compiled contract
 *  says (the same ajv pass the checks report: open schemas, `patternProperties`, the profile's rules). */
function keyFaults(ctx: SessionContext, call: ToolCall): { extra: string[]; missing: string[] } {
  const extra: string[] = [];
  const missing: string[] = [];
  for (const f of ctx.schemaFaults(call)) {
    if (f.key === undefined) continue;
    if (f.code === 'missing-key' && f.path.length === 0) missing.push(f.key);
    else if (f.code === 'extra-key' && f.path.length === 1) extra.push(f.key);
  }
  return { extra: [...new Set(extra)].sort(), missing: [...new Set(missing)] };
}

// ---- the key-shape census -----------------------------------------------------------------------------------

/** The sorted top-level keys of a call's arguments, or null when they are not an object (a shape of its own). */
export function shapeKeys(ctx: SessionContext, call: ToolCall): string[] | null {
  const eff = ctx.effectiveArgs(call);
  // arguments the file never kept (a reader left them undefined) are no shape of their own
  if (eff.args === undefined && eff.encoding === 'absent') return [];
  return isPlainObject(eff.args) && eff.encoding !== 'invalid' && eff.encoding !== 'non-object' ? Object.keys(eff.args).sort() : null;
}

/** One string per shape, for lookups and for comparing runs. */
export function shapeId(keys: readonly string[] | null): string {
  return keys === null ? '!' : JSON.stringify(keys);
}

/** The census, one call at a time: the decision table feeds it a file's sessions, `compare` a whole run's, as
 *  each session is checked. `count` then `mark` (with the call's findings, which may come later). */
export class KeyCensus {
  private readonly byTool = new Map<string, { tool: CensusTool; byId: Map<string, CensusShape> }>();

  /** Count a call under its tool and shape; returns the shape (new shapes record where they were first seen). */
  count(ctx: SessionContext, s: number, call: ToolCall): CensusShape {
    let entry = this.byTool.get(call.name);
    if (!entry) {
      entry = { tool: { tool: call.name, calls: 0, shapes: [] }, byId: new Map() };
      this.byTool.set(call.name, entry);
    }
    entry.tool.calls++;
    const keys = shapeKeys(ctx, call);
    const id = shapeId(keys);
    let shape = entry.byId.get(id);
    if (!shape) {
      const { extra, missing } = keys ? keyFaults(ctx, call) : { extra: [], missing: [] };
      shape = { keys, count: 0, extra, missing, breaks: keys === null || extra.length > 0 || missing.length > 0, codes: [], first: { session: s, index: call.index, turn: call.turn, span: spanOf(call.at) } };
      entry.tool.shapes.push(shape);
      entry.byId.set(id, shape);
    }
    shape.count++;
    return shape;
  }

  /** A call's shape findings (extra-key, missing-key, unknown-tool) mark its shape as breaking. */
  mark(shape: CensusShape, findings: readonly Finding[]): void {
    for (const f of findings) {
      if (!SHAPE_CODES.has(f.code)) continue;
      shape.breaks = true;
      if (!shape.codes.includes(f.code)) shape.codes.push(f.code);
    }
  }

  /** Per tool in order of first appearance; shapes in order of first appearance. */
  tools(): CensusTool[] {
    return [...this.byTool.values()].map((e) => e.tool);
  }
}

/** The row under a source offset: the innermost call whose source holds it. */
export function rowAt(table: DecisionTable, offset: number): TableRow | undefined {
  let best: TableRow | undefined;
  for (const t of table.turns) {
    for (const r of t.rows) {
      if (r.span.start <= offset && offset <= r.span.end && (!best || r.span.end - r.span.start < best.span.end - best.span.start)) best = r;
    }
  }
  return best;
}
