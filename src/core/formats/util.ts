// Small helpers the format adapters share: typed reads of loosely shaped records, and JSON that a format stores
// inside a string (a span attribute, an observation's input), decoded into a Doc whose spans map back to the file.
import { embeddedDoc, type Doc, type JsonPath } from '../parse/doc';
import type { Session, ToolCall, ToolResult } from '../model';
import { SessionBuilder, type CallInput, type NodeRef } from './builder';
import { isPlainObject, type Obj } from '../objects';

export { isPlainObject, type Obj };

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return undefined;
}

export interface Located<T = unknown> extends NodeRef {
  value: T;
}

/** A format's message list with tool traffic in it: the value itself, or its `messages` (a response, a saved thread):
 *  every element one of the format's messages, one at least carrying a call or a result. */
export function messageListIn(v: unknown, isMessage: (m: unknown) => boolean, carriesTools: (m: unknown) => boolean): { list: unknown[]; path: JsonPath } | undefined {
  const ok = (list: unknown, path: JsonPath) =>
    Array.isArray(list) && list.length > 0 && list.every(isMessage) && list.some(carriesTools) ? { list, path } : undefined;
  if (Array.isArray(v)) return ok(v, []);
  return isPlainObject(v) ? ok(v.messages, ['messages']) : undefined;
}

/** The value at `path`; when it is a string holding a JSON object or array, that JSON, in a Doc of its own. */
export function jsonIn(doc: Doc, path: JsonPath, value: unknown): Located {
  if (typeof value !== 'string') return { doc, path, value };
  const t = value.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return { doc, path, value };
  try {
    const parsed: unknown = JSON.parse(value);
    return { doc: embeddedDoc(doc, path, value, 0, value, parsed), path: [], value: parsed };
  } catch {
    return { doc, path, value };
  }
}

/** The JSON object or array a string holds (a value that is not such a string is returned as it is). */
export function jsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** `doc`/`path` extended by `sub`. */
export function at(ref: NodeRef, ...sub: JsonPath): NodeRef {
  return { doc: ref.doc, path: [...ref.path, ...sub] };
}

/** The text of a message content that is a string or a list of text parts. */
export function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.filter((p) => isPlainObject(p) && typeof p.text === 'string').map((p) => (p as Obj).text as string);
    return parts.length ? parts.join('\n') : undefined;
  }
  return undefined;
}

/** Time as milliseconds for ordering records (ISO strings, epoch seconds/ms/ns, OTLP nanosecond strings). */
export function timeOf(v: unknown): number {
  if (typeof v === 'number') return v > 1e17 ? v / 1e6 : v > 1e14 ? v / 1e3 : v > 1e11 ? v : v * 1000;
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return timeOf(Number(v));
    const t = Date.parse(v);
    if (!Number.isNaN(t)) return t;
  }
  return Number.NaN;
}

/** Stable sort by time; records without a time keep their place relative to each other at the end. */
export function byTime<T>(items: T[], time: (t: T) => unknown): T[] {
  const times = items.map((item) => timeOf(time(item)));
  // exports are mostly written in time order: then that order is the answer (no records, no sort; NaN fails >=)
  let sorted = true;
  for (let i = 1; sorted && i < times.length; i++) sorted = times[i] >= times[i - 1];
  if (sorted) return items;
  return items
    .map((item, i) => ({ item, i, t: times[i] }))
    .sort((a, b) => (Number.isNaN(a.t) ? (Number.isNaN(b.t) ? a.i - b.i : 1) : Number.isNaN(b.t) ? -1 : a.t - b.t || a.i - b.i))
    .map((x) => x.item);
}

/** The sessions of one document, by name, in order of first use (a sample, a trace id, a session id). */
export class SessionSet {
  private readonly byKey = new Map<string, SessionBuilder>();

  get(key: string): SessionBuilder {
    let b = this.byKey.get(key);
    if (!b) this.byKey.set(key, (b = new SessionBuilder(key === '' ? undefined : key)));
    return b;
  }

  emitAll(emit: (s: Session) => void): void {
    for (const b of this.byKey.values()) emit(b.session);
  }
}

/** A JSON value as text for keys and labels. String() throws on an object whose own "toString" or "valueOf" is
 *  data ({"toString": {...}} in a hostile trace): objects are printed as JSON instead. */
export function keyText(v: unknown): string {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

/** A payload that is an MCP CallToolResult (or its JSON text), `{content: [...], isError}`: its own flag says
 *  whether the call failed, so a reader that otherwise writes "no error" leaves the flag to it. */
export function ownsErrorFlag(payload: unknown): boolean {
  const v = jsonValue(payload);
  return isPlainObject(v) && Array.isArray(v.content) && typeof v.isError === 'boolean';
}

// ---- pairing: which calls the results so far answer ----------------------------------------------------------

/** The calls of one tool, in order, and how many of the first ones are answered. */
interface Queue {
  at: number[];
  head: number;
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * What a session's results answer so far, kept up as the session grows instead of rescanned per result (that was
 * quadratic on a long log): per call id, how many calls and results carry it; per tool name, its calls in order
 * with the answered ones at the front skipped for good. A result answers the call at its `callIndex` and every call
 * with its `callId`; answers are never taken back, so the earliest waiting call of a tool only moves forward.
 * Builders only append calls and results: arrays that were cut or replaced are read again from the start. A
 * slot a segmented session let go (state.ts) is settled: it is counted as answered and its call left out.
 */
class Pairing {
  private calls: readonly (ToolCall | undefined)[] = [];
  private results: readonly (ToolResult | undefined)[] = [];
  private callsRead = 0;
  private resultsRead = 0;
  private lastCall?: ToolCall;
  private lastResult?: ToolResult;
  private readonly callsById = new Map<string, number>();
  private readonly resultsById = new Map<string, number>();
  private readonly answeredIndexes = new Set<number>();
  private readonly byName = new Map<string, Queue>();
  /** The earliest call of any tool that may still wait. */
  private next = 0;
  /** Calls a reader made under an id that the builder stored under others (a parallel wrapper's inner calls are
   *  `id#k`), by that id: they count as calls with it. The reader's facts, not the session's: kept on a re-read. */
  readonly renamed = new Map<string, number>();

  sync(s: Session): this {
    const { calls, results } = s;
    if (calls !== this.calls || results !== this.results || this.changed(calls, this.callsRead, this.lastCall) || this.changed(results, this.resultsRead, this.lastResult)) this.restart(calls, results);
    for (; this.callsRead < calls.length; this.callsRead++) {
      const c = calls[this.callsRead] as ToolCall | undefined;
      if (c === undefined) continue;
      if (c.id !== undefined) bump(this.callsById, c.id);
      let q = this.byName.get(c.name);
      if (!q) this.byName.set(c.name, (q = { at: [], head: 0 }));
      q.at.push(this.callsRead);
    }
    this.lastCall = calls[calls.length - 1];
    for (; this.resultsRead < results.length; this.resultsRead++) {
      const r = results[this.resultsRead] as ToolResult | undefined;
      if (r === undefined) continue;
      if (r.callIndex !== undefined) this.answeredIndexes.add(r.callIndex);
      if (r.callId !== undefined) bump(this.resultsById, r.callId);
    }
    this.lastResult = results[results.length - 1];
    return this;
  }

  /** The array is no longer the one read: shorter, or another item where the last one read was (cut and grown). */
  private changed(items: readonly unknown[], read: number, last: unknown): boolean {
    return items.length < read || (read > 0 && items[read - 1] !== last);
  }

  private restart(calls: readonly ToolCall[], results: readonly ToolResult[]): void {
    this.calls = calls;
    this.results = results;
    this.callsRead = this.resultsRead = this.next = 0;
    this.lastCall = this.lastResult = undefined;
    this.callsById.clear();
    this.resultsById.clear();
    this.answeredIndexes.clear();
    this.byName.clear();
  }

  private answered(k: number): boolean {
    if (this.answeredIndexes.has(k)) return true;
    const c = this.calls[k];
    return c === undefined || (c.id !== undefined && this.resultsById.has(c.id));
  }

  /** The earliest call named `name` (of any name, without one) that no result answers yet. */
  earliest(name?: string): number | undefined {
    if (name === undefined) {
      while (this.next < this.callsRead && this.answered(this.next)) this.next++;
      return this.next < this.callsRead ? this.next : undefined;
    }
    const q = this.byName.get(name);
    if (!q) return undefined;
    while (q.head < q.at.length && this.answered(q.at[q.head])) q.head++;
    // the answered front is dropped now and then: a long log's queue holds only what may still wait
    if (q.head >= 1024 && q.head * 2 >= q.at.length) {
      q.at = q.at.slice(q.head);
      q.head = 0;
    }
    return q.head < q.at.length ? q.at[q.head] : undefined;
  }

  /** The latest call that no result answers yet; the search stops at a slot a segment let go (all before it are). */
  latest(): number | undefined {
    for (let k = this.callsRead - 1; k >= 0; k--) {
      if (this.calls[k] === undefined) return undefined;
      if (!this.answered(k)) return k;
    }
    return undefined;
  }

  /** Whether a call was made with this id. */
  called(id: string): boolean {
    return this.callsById.has(id) || this.renamed.has(id);
  }

  /** More calls than results carry this id (an id reused by several calls is answered as often as it is used). */
  waiting(id: string): boolean {
    const calls = (this.callsById.get(id) ?? 0) + (this.renamed.get(id) ?? 0);
    return calls > (this.resultsById.get(id) ?? 0);
  }
}

/** One pairing state per builder, shared by every reader and helper that writes to it or asks of it. */
const pairings = new WeakMap<SessionBuilder, Pairing>();

function pairingOf(b: SessionBuilder): Pairing {
  let p = pairings.get(b);
  if (!p) pairings.set(b, (p = new Pairing()));
  return p.sync(b.session);
}

/** Results recorded since result `from` whose call id no call of the session has: the format says their calls were
 *  made outside the file (a stored response the request continues, an earlier response of the same turn), so
 *  they are no orphans. */
export function markCallsElsewhere(b: SessionBuilder, from: number): void {
  const results = b.session.results;
  for (let i = from; i < results.length; i++) {
    const id = results[i].callId;
    if (id !== undefined && !hasCallId(b, id)) results[i].callElsewhere = true;
  }
}

/** The earliest call named `name` (any call, without one) that no result answers yet (by id or by position). */
export function unansweredByName(b: SessionBuilder, name?: string): number | undefined {
  return pairingOf(b).earliest(name);
}

/** The latest call of a session that no result answers yet (by id or by position): a log whose results name no
 *  call answers the call just made. Calls a segment check let go were all answered. */
export function latestUnanswered(b: SessionBuilder): number | undefined {
  return pairingOf(b).latest();
}

/** unansweredByName(b), as an object for a reader that keeps one. */
export class EarliestUnanswered {
  constructor(private readonly b: SessionBuilder) {}

  get(): number | undefined {
    return unansweredByName(this.b);
  }
}

/** Whether a call with this id still waits for a result: more calls than results carry it (an id reused by several
 *  calls is answered as often as it is used). */
export function waitingFor(b: SessionBuilder, id: string): boolean {
  return pairingOf(b).waiting(id);
}

/** Whether the session has a call made with this id (made through `callOnce` when a parallel wrapper stored it as
 *  its inner calls' `id#k`). */
export function hasCallId(b: SessionBuilder, id: string): boolean {
  return pairingOf(b).called(id);
}

/** A call of a format that states a call more than once (a stream's call part, then its result part with the same
 *  input; an event that lists the calls it is about to make): the first sighting of its id is the call, later ones
 *  make nothing (undefined). A call without an id is always made. `turn` is asked only when the call is made. */
export function callOnce(b: SessionBuilder, input: CallInput, turn: () => number): ToolCall | undefined {
  const id = input.id;
  if (id !== undefined && hasCallId(b, id)) return undefined;
  const call = b.call(input, turn());
  if (id !== undefined && call.id !== id) bump(pairingOf(b).renamed, id);
  return call;
}
