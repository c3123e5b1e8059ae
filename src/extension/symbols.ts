// Symbols of a trace: sessions → turns → calls for the Outline, breadcrumbs, Go to Symbol in Editor and sticky
// scroll; and the calls of every checked trace, by tool name, for Go to Symbol in Workspace. Both are built from the
// call marks of the last check (the worker sends them for a large trace), never by reading the trace again, and the
// outline is built in slices of a few milliseconds, yielding to the extension host in between.
import * as vscode from 'vscode';
import type { FileResult, CallMark } from '../core';
import { Slices } from './slices';
import { marksOf } from './callMarks';
import { callKey, marker, verdictsByCall, type CallVerdict } from './callFindings';
import type { SeverityMap } from './convert';
import type { TraceIndex } from './traceIndex';

/** What the symbols need from the live check of open documents. */
export interface LiveSymbols {
  state(uri: vscode.Uri): { version: number; result: FileResult; marks?: CallMark[] } | undefined;
  isCandidate(doc: vscode.TextDocument): boolean;
  /** A check is waiting for its debounce or running. */
  readonly busy: boolean;
  onDidCheck: vscode.Event<vscode.Uri>;
}

/** Go to Symbol in Workspace lists at most this many calls. */
const MAX_WORKSPACE_SYMBOLS = 500;
/**
 * The outline lists at most this many calls: VS Code serializes a provider's symbols in one piece, on the host, and a
 * Claude Code session has a turn per call (10,000 calls are 20,000 symbols: hundreds of milliseconds at once).
 */
export const MAX_OUTLINE_CALLS = 2000;
/** How long the outline waits for the check of a document that is still being checked. */
const WAIT_MS = 120000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The current result of an open trace, waiting while a check of it may still be under way (a debounced edit, a
 *  large trace on the worker thread); at once for a document that is not a trace. */
export async function currentState(live: LiveSymbols, doc: vscode.TextDocument, token?: vscode.CancellationToken, ready?: Promise<unknown>): Promise<ReturnType<LiveSymbols['state']>> {
  // before the first contract load nothing is checked (asked then, as when a trace is open at start-up, the check
  // has not begun): it starts once the load is done
  if (ready) await ready;
  const fresh = () => {
    const s = live.state(doc.uri);
    return s && s.version === doc.version ? s : undefined;
  };
  const started = Date.now();
  while (!fresh() && live.busy && live.isCandidate(doc) && !doc.isClosed && !token?.isCancellationRequested && Date.now() - started < WAIT_MS) {
    await new Promise<void>((resolve) => {
      const sub = live.onDidCheck((uri) => {
        if (uri.toString() === doc.uri.toString()) finish();
      });
      const timer = setTimeout(finish, 100);
      function finish() {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      }
    });
  }
  return fresh();
}

export class TraceSymbols implements vscode.DocumentSymbolProvider, vscode.WorkspaceSymbolProvider<CallSymbol> {
  constructor(
    private readonly live: LiveSymbols,
    private readonly severity: () => SeverityMap,
    private readonly index: TraceIndex,
    private readonly ready: Promise<unknown>,
  ) {}

  async provideDocumentSymbols(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.DocumentSymbol[]> {
    const state = await currentState(this.live, doc, token, this.ready);
    if (!state || state.result.format === undefined || token.isCancellationRequested) return [];
    return outline(doc, state.result, marksOf(state.result, state.marks), verdictsByCall(state.result.findings, this.severity()), token);
  }

  async provideWorkspaceSymbols(query: string, token: vscode.CancellationToken): Promise<CallSymbol[]> {
    await this.index.scan(token);
    const q = query.toLowerCase();
    const out: CallSymbol[] = [];
    const map = this.severity();
    const slices = new Slices();
    for (const entry of this.index.entries()) {
      const verdicts = verdictsByCall(entry.findings, map);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.uri.toString() && this.live.state(d.uri)?.version === d.version);
      for (const m of entry.marks) {
        await slices.pass();
        if (q && !matches(m.tool.toLowerCase(), q)) continue;
        out.push(new CallSymbol(m, entry.uri, entry.sessions, verdicts.get(callKey(m.session, m.index)), open));
        if (out.length >= MAX_WORKSPACE_SYMBOLS) return out;
      }
      if (token.isCancellationRequested) return out;
    }
    return out;
  }

  /** A call of a trace that is not open: its place is found when it is chosen. */
  async resolveWorkspaceSymbol(symbol: CallSymbol): Promise<CallSymbol> {
    if (symbol.resolved) return symbol;
    const doc = await vscode.workspace.openTextDocument(symbol.location.uri);
    symbol.location = new vscode.Location(doc.uri, new vscode.Range(doc.positionAt(symbol.offset), doc.positionAt(symbol.end)));
    symbol.resolved = true;
    return symbol;
  }
}

/** The characters of `query` in `name`, in order (what VS Code's own fuzzy filter keeps). */
function matches(name: string, query: string): boolean {
  let at = 0;
  for (const ch of query) {
    at = name.indexOf(ch, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

export class CallSymbol extends vscode.SymbolInformation {
  readonly offset: number;
  readonly end: number;
  resolved: boolean;

  /** The container says where in the trace (VS Code adds the file's path itself). */
  constructor(m: CallMark, uri: vscode.Uri, sessions: number, verdict: CallVerdict | undefined, open: vscode.TextDocument | undefined) {
    const range = open ? new vscode.Range(open.positionAt(m.offset), open.positionAt(m.end)) : new vscode.Range(0, 0, 0, 0);
    super(m.tool || '(no name)', vscode.SymbolKind.Function, `${verdict ? `${marker(verdict)} ${verdict.codes.join(', ')} · ` : ''}${sessions > 1 ? `session ${m.sessionId ?? m.session + 1} · ` : ''}turn ${m.turn}${m.summary ? ` · ${m.summary}` : ''}`, new vscode.Location(uri, range));
    this.offset = m.offset;
    this.end = m.end;
    this.resolved = open !== undefined;
  }
}

/** The symbol tree: a session per session, a turn per turn, a call per call, in file order. */
export async function outline(
  doc: vscode.TextDocument,
  result: FileResult,
  marks: readonly CallMark[],
  verdicts: ReadonlyMap<string, CallVerdict>,
  token?: vscode.CancellationToken,
): Promise<vscode.DocumentSymbol[]> {
  const sessions: vscode.DocumentSymbol[] = [];
  const bySession = new Map<number, { symbol: vscode.DocumentSymbol; turns: Map<number, { symbol: vscode.DocumentSymbol; failing: number }>; calls: number; failing: number }>();
  const range = (start: number, end: number) => new vscode.Range(doc.positionAt(start), doc.positionAt(Math.max(start, end)));
  const grow = (s: vscode.DocumentSymbol, r: vscode.Range) => {
    if (r.end.isAfter(s.range.end)) s.range = new vscode.Range(s.range.start, r.end);
  };
  const slices = new Slices();
  const shown = Math.min(marks.length, MAX_OUTLINE_CALLS);
  for (let i = 0; i < shown; i++) {
    await slices.pass();
    if (token?.isCancellationRequested) return [];
    const m = marks[i];
    const r = range(m.offset, m.end);
    let s = bySession.get(m.session);
    if (!s) {
      const label = m.sessionId !== undefined ? `Session ${m.sessionId}` : `Session ${m.session + 1}`;
      const symbol = new vscode.DocumentSymbol(label, '', vscode.SymbolKind.Namespace, r, new vscode.Range(r.start, r.start));
      s = { symbol, turns: new Map(), calls: 0, failing: 0 };
      bySession.set(m.session, s);
      sessions.push(symbol);
    }
    let turn = s.turns.get(m.turn);
    if (!turn) {
      turn = { symbol: new vscode.DocumentSymbol(`Turn ${m.turn}`, '', vscode.SymbolKind.Event, r, new vscode.Range(r.start, r.start)), failing: 0 };
      s.turns.set(m.turn, turn);
      s.symbol.children.push(turn.symbol);
    }
    const verdict = verdicts.get(callKey(m.session, m.index));
    const detail = verdict ? `${marker(verdict)} ${verdict.codes.join(', ')}${m.summary ? ' · ' + m.summary : ''}` : m.summary;
    const call = new vscode.DocumentSymbol(m.tool || '(no name)', detail, vscode.SymbolKind.Function, r, new vscode.Range(r.start, r.start));
    turn.symbol.children.push(call);
    grow(turn.symbol, r);
    grow(s.symbol, r);
    s.calls++;
    if (verdict) {
      s.failing++;
      turn.failing++;
    }
  }
  // a session's counts are of all its calls the marks hold, listed in the outline or not
  for (let i = shown; i < marks.length; i++) {
    const s = bySession.get(marks[i].session);
    if (!s) continue;
    s.calls++;
    if (verdicts.has(callKey(marks[i].session, marks[i].index))) s.failing++;
  }
  for (const s of bySession.values()) {
    s.symbol.detail = `${plural(s.calls, 'call')}${s.failing ? `, ${s.failing} with findings` : ''}`;
    for (const t of s.turns.values()) t.symbol.detail = `${plural(t.symbol.children.length, 'call')}${t.failing ? `, ${t.failing} with findings` : ''}`;
  }
  if (result.calls > shown && shown) {
    // say so where the outline ends, rather than pretend the trace ends there
    const last = marks[shown - 1];
    const at = range(last.end, last.end);
    sessions.push(new vscode.DocumentSymbol(`… ${result.calls - shown} more calls`, 'the outline lists the first calls; Go to Symbol in Workspace and the decision table have more', vscode.SymbolKind.Null, at, at));
  }
  return sessions;
}
