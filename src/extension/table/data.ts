// The decision table of an open trace: the live check's model when it is current (else one check of the text, on
// a worker thread when the text is large), the workspace contracts, and the fixtures folder's files replayed
// against those contracts (cached until a fixture file or the contracts change).
import * as vscode from 'vscode';
import { buildDecisionTable, FIXTURE_SUFFIX, GATES, GATE_OF_CODE, replayFixturesByCall, type CheckOptions, type ContractSet, type DecisionTable, type FileResult, type Finding, type FixtureReplays, type GateId, type Profile, type CallMark } from '../../core';
import { BACKGROUND_CHECK_SIZE, checkOptions, runCheck } from '../diagnostics';
import { decode, documentLength } from '../lines';
import type { BackgroundResult, CheckJob } from '../background';
import { fixturesFolderFor } from '../fixtures/freeze';
import { readSettings } from '../settings';
import type { Item, PageGateCell, TableMeta, TurnItem } from '../../webview/protocol';
import { marksOf } from '../callMarks';
import { Slices } from '../slices';

export interface LiveModel {
  state(uri: vscode.Uri): { version: number; result: FileResult; marks?: readonly CallMark[] } | undefined;
  /** A whole check (and table) on a worker thread; absent or undefined where none can run. */
  backgroundCheck?(text: string, options: CheckOptions, signal?: AbortSignal, table?: CheckJob['table']): Promise<BackgroundResult> | undefined;
}


/** Fixture files replayed against one contract set, per fixtures folder. */
export class FixtureCache implements vscode.Disposable {
  private cache = new Map<string, { contracts: ContractSet; profile: string; replays: FixtureReplays; count: number }>();
  private running = new Map<string, { contracts: ContractSet; profile: string; promise: Promise<{ replays: FixtureReplays; count: number }> }>();
  private readonly watcher: vscode.FileSystemWatcher;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor() {
    this.watcher = vscode.workspace.createFileSystemWatcher(`**/*${FIXTURE_SUFFIX}`);
    const drop = () => {
      this.cache.clear();
      this.changed.fire();
    };
    this.watcher.onDidCreate(drop);
    this.watcher.onDidChange(drop);
    this.watcher.onDidDelete(drop);
  }

  /** The replays when they are cached for these contracts; `pending` when they are not (yet). */
  peek(trace: vscode.Uri, contracts: ContractSet): { replays: FixtureReplays; count: number } | 'pending' | undefined {
    const folder = fixturesFolderFor(trace);
    if (!folder) return undefined;
    const hit = this.cache.get(folder.toString());
    return hit && hit.contracts === contracts && hit.profile === readSettings(trace).profile ? hit : 'pending';
  }

  async replays(trace: vscode.Uri, contracts: ContractSet): Promise<{ replays: FixtureReplays; count: number } | undefined> {
    const folder = fixturesFolderFor(trace);
    if (!folder) return undefined;
    const profile = readSettings(trace).profile;
    const key = folder.toString();
    const hit = this.cache.get(key);
    if (hit && hit.contracts === contracts && hit.profile === profile) return hit;
    const running = this.running.get(key);
    if (running && running.contracts === contracts && running.profile === profile) return running.promise;
    const promise = this.replay(key, folder, contracts, profile);
    this.running.set(key, { contracts, profile, promise });
    try {
      return await promise;
    } finally {
      if (this.running.get(key)?.promise === promise) this.running.delete(key);
    }
  }

  private async replay(key: string, folder: vscode.Uri, contracts: ContractSet, profile: string): Promise<{ replays: FixtureReplays; count: number }> {
    const ws = vscode.workspace.getWorkspaceFolder(folder);
    const rel = ws && folder.path.startsWith(ws.uri.path) ? folder.path.slice(ws.uri.path.length).replace(/^\//, '') : undefined;
    const uris = ws ? await vscode.workspace.findFiles(new vscode.RelativePattern(ws, `${rel ? rel + '/' : ''}**/*${FIXTURE_SUFFIX}`)) : [];
    uris.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const files: { name: string; text: string }[] = [];
    for (const uri of uris) {
      try {
        files.push({ name: vscode.workspace.asRelativePath(uri, false), text: decode(await vscode.workspace.fs.readFile(uri)) });
      } catch {
        // gone since the search: skip
      }
    }
    const entry = { contracts, profile, replays: replayFixturesByCall(files, contracts, profile as Profile), count: files.length };
    this.cache.set(key, entry);
    return entry;
  }

  dispose(): void {
    this.watcher.dispose();
    this.changed.dispose();
  }
}

/** Check (or reuse the live check of) a document and build its table: on the worker thread when the document is
 *  large and its live check kept no model here, so opening the table never holds the extension host for the check. */
export async function tableFor(doc: vscode.TextDocument, contracts: ContractSet, live: LiveModel, fixtures: FixtureCache, timings: Record<string, number> = {}, onFixtures?: () => void): Promise<DecisionTable> {
  let t = Date.now();
  const settings = readSettings(doc.uri);
  // Replaying the fixtures can take a while the first time: without them at hand, the table comes first (replay
  // gate pending) and `onFixtures` is called when they are ready, for a second build.
  const peek = fixtures.peek(doc.uri, contracts);
  const fx = peek === 'pending' ? undefined : peek;
  if (peek === 'pending') void fixtures.replays(doc.uri, contracts).then(() => onFixtures?.(), () => undefined);
  timings.fixtures = Date.now() - t;
  const tableOptions = { profile: settings.profile, volatileTools: settings.volatileTools, fixtures: fx?.replays, fixtureCount: fx?.count ?? 0, fixturesPending: peek === 'pending' };

  t = Date.now();
  const state = live.state(doc.uri);
  const reuse = !!state && state.version === doc.version && !!state.result.model;
  if (!reuse && documentLength(doc) > BACKGROUND_CHECK_SIZE) {
    const off = live.backgroundCheck?.(doc.getText(), checkOptions(doc.uri, contracts), undefined, tableOptions);
    if (off) {
      const { table } = await off;
      timings.worker = Date.now() - t;
      if (table) return table;
    }
  }
  const result = reuse && state ? state.result : runCheck(doc.getText(), doc.uri, contracts, true);
  timings[reuse ? 'reusedCheck' : 'check'] = Date.now() - t;
  t = Date.now();
  const table = buildDecisionTable(result, { contracts, ...tableOptions });
  timings.table = Date.now() - t;
  return table;
}

/** The table as the page's list: a header item per turn, then its calls (in slices: 10,000 rows take a while). */
export async function toItems(table: DecisionTable): Promise<Item[]> {
  const items: Item[] = [];
  const slices = new Slices();
  for (const t of table.turns) {
    await slices.pass();
    items.push({ kind: 'turn', key: `t:${t.session}:${t.turn}`, session: t.session, sessionId: t.sessionId, turn: t.turn, text: t.text, calls: t.calls, failing: t.rows.filter((r) => r.failing).length });
    for (const r of t.rows) {
      items.push({ kind: 'row', key: `${r.session}:${r.index}`, session: r.session, index: r.index, turn: r.turn, tool: r.tool, callId: r.callId, args: r.args, marks: r.marks, gates: r.gates, codes: r.codes, failing: r.failing });
    }
  }
  return items;
}

export function metaOf(uri: string, name: string, table: DecisionTable, total: number, generation: number, timings: Record<string, number> = {}): TableMeta {
  return {
    timings,
    uri,
    name,
    format: table.format,
    calls: table.calls,
    sessions: table.sessions,
    fixtures: table.fixtures,
    fixturesPending: table.fixturesPending,
    codes: table.codes,
    tools: table.tools,
    gates: GATES.map((g) => ({ ...g })),
    census: table.census,
    other: table.other.map((o) => ({ code: o.code, message: o.message })),
    total,
    generation,
  };
}

/**
 * The first screens of a large trace's table from its last check (its call marks and findings), while the table
 * itself is built on the worker thread: every call's tool, arguments and failing gates are known from the check, the
 * gates that did not fail wait for the table (`pending`). Undefined when the last check kept its model here (the
 * table is then built at once) or is not current.
 */
export function provisionalTable(doc: vscode.TextDocument, live: LiveModel, limit = Infinity): { table: DecisionTable; items: Item[]; total: number } | undefined {
  const state = provisionalState(doc, live);
  if (!state?.marks) return undefined;
  const { result } = state;
  const byCall = new Map<string, Finding[]>();
  const other: DecisionTable['other'] = [];
  for (const f of result.findings) {
    if (f.callIndex === undefined) {
      other.push({ code: f.code, message: f.message, span: f.span });
      continue;
    }
    const key = `${f.session ?? 0}:${f.callIndex}`;
    const list = byCall.get(key);
    if (list) list.push(f);
    else byCall.set(key, [f]);
  }
  const items: Item[] = [];
  const tools = new Set<string>();
  let turn: TurnItem | undefined;
  const marks = marksOf(result, state.marks);
  for (const m of marks) tools.add(m.tool);
  for (const m of marks) {
    if (items.length >= limit) break;
    if (!turn || turn.session !== m.session || turn.turn !== m.turn) {
      turn = { kind: 'turn', key: `t:${m.session}:${m.turn}`, session: m.session, sessionId: m.sessionId, turn: m.turn, text: '', calls: 0, failing: 0 };
      items.push(turn);
    }
    const findings = byCall.get(`${m.session}:${m.index}`) ?? [];
    const gates = {} as Record<GateId, PageGateCell>;
    for (const g of GATES) {
      // as the table does: a gate fails on its first finding that is not info
      const real = findings.filter((f) => GATE_OF_CODE[f.code] === g.id && f.severity !== 'info');
      gates[g.id] = real.length ? { status: 'fail', code: real[0].code, signal: real.length > 1 ? `${real[0].message} (+${real.length - 1} more)` : real[0].message } : { status: 'pending', signal: 'checking…' };
    }
    const failing = Object.values(gates).some((c) => c.status === 'fail');
    turn.calls++;
    if (failing) turn.failing++;
    items.push({ kind: 'row', key: `${m.session}:${m.index}`, session: m.session, index: m.index, turn: m.turn, tool: m.tool, args: m.summary, marks: [], gates, codes: [...new Set(findings.map((f) => f.code))].sort(), failing, provisional: true });
  }
  const table: DecisionTable = {
    format: result.format,
    calls: result.calls,
    sessions: result.sessions,
    turns: [],
    census: [],
    other,
    codes: [...new Set(result.findings.map((f) => f.code))].sort(),
    tools: [...tools].sort(),
    fixtures: 0,
    fixturesPending: true,
  };
  // a header per turn and a row per call: what the whole list would hold
  return { table, items, total: marks.length + new Set(marks.map((m) => `${m.session}:${m.turn}`)).size };
}

/** The live state a provisional table is made from: current, checked on the worker thread (no model), with marks. */
function provisionalState(doc: vscode.TextDocument, live: LiveModel): ReturnType<LiveModel['state']> {
  const state = live.state(doc.uri);
  return state && state.version === doc.version && !state.result.model && state.marks?.length ? state : undefined;
}

/** Whether the first screens of the table can come from the last check (see provisionalTable). */
export function hasProvisional(doc: vscode.TextDocument, live: LiveModel): boolean {
  return provisionalState(doc, live) !== undefined;
}
