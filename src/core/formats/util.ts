// Small helpers the format adapters share: typed reads of loosely shaped records, and JSON that a format stores
// inside a string (a span attribute, an observation's input), decoded into a Doc whose spans map back to the file.
import { embeddedDoc, type Doc, type JsonPath } from '../parse/doc';
import type { Session, ToolCall, ToolResult } from '../model';
import { SessionBuilder, type NodeRef } from './builder';
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

/** What a result answers, by position and by id, added to `answered`. */
function noteAnswer(answered: Set<string | number>, r: ToolResult): void {
  if (r.callIndex !== undefined) answered.add(r.callIndex);
  if (r.callId !== undefined) answered.add(r.callId);
}

function isAnswered(answered: Set<string | number>, c: ToolCall, k: number): boolean {
  return answered.has(k) || (c.id !== undefined && answered.has(c.id));
}

/** The earliest call named `name` (any call, without one) that no result answers yet (by id or by position). */
export function unansweredByName(b: SessionBuilder, name?: string): number | undefined {
  const answered = new Set<string | number>();
  for (const r of b.session.results) noteAnswer(answered, r);
  const i = b.session.calls.findIndex((c, k) => (name === undefined || c.name === name) && !isAnswered(answered, c, k));
  return i >= 0 ? i : undefined;
}

/** unansweredByName(b) for a reader that asks once per result (a log whose results name no call): kept up as the
 *  session grows instead of rescanning it each time (quadratic on a long log). The session's calls and results
 *  are only appended to (not a segmented session's, whose slots are let go). */
export class EarliestUnanswered {
  private readonly answered = new Set<string | number>();
  private results = 0;
  private next = 0;

  constructor(private readonly b: SessionBuilder) {}

  get(): number | undefined {
    const { calls, results } = this.b.session;
    for (; this.results < results.length; this.results++) noteAnswer(this.answered, results[this.results]);
    // answers are never taken back and calls only appended: the earliest waiting call only moves forward
    while (this.next < calls.length && isAnswered(this.answered, calls[this.next], this.next)) this.next++;
    return this.next < calls.length ? this.next : undefined;
  }
}

/** A JSON value as text for keys and labels. String() throws on an object whose own "toString" or "valueOf" is
 *  data ({"toString": {...}} in a hostile trace): objects are printed as JSON instead. */
export function keyText(v: unknown): string {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

/** Whether a call with this id still waits for a result: more calls than results carry it (an id reused by several
 *  calls is answered as often as it is used). */
export function waitingFor(b: SessionBuilder, id: string): boolean {
  let calls = 0;
  for (const c of b.session.calls) if (c.id === id) calls++;
  if (calls === 0) return false;
  let results = 0;
  for (const r of b.session.results) if (r.callId === id) results++;
  return calls > results;
}

/** A payload that is an MCP CallToolResult (or its JSON text), `{content: [...], isError}`: its own flag says
 *  whether the call failed, so a reader that otherwise writes "no error" leaves the flag to it. */
export function ownsErrorFlag(payload: unknown): boolean {
  const v = jsonValue(payload);
  return isPlainObject(v) && Array.isArray(v.content) && typeof v.isError === 'boolean';
}
