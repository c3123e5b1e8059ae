// Spans, whatever exported them: OTLP JSON (`resourceSpans` -> `scopeSpans` -> `spans`, typed attribute lists),
// span arrays with attribute objects (Phoenix, console exporters), or a single flat attribute map. Both semantic
// conventions are read from the attributes: OpenTelemetry GenAI (`gen_ai.*`: message parts `tool_call` /
// `tool_call_response`, `execute_tool` spans, `gen_ai.tool.definitions`) and OpenInference (`llm.*_messages.N.
// message.tool_calls.M.tool_call.*`, TOOL spans with `tool.name` / `tool.id` / `input.value` / `output.value`,
// `llm.tools.N.tool.json_schema`). Shared by the otel and openinference adapters (and Langfuse's metadata).
//
// Within one trace (spans ordered by start time): calls are what model spans output; tool spans are the
// executions, so a tool span whose id matches a call is its result, and one that matches none is a call and its
// result. Input messages repeat the history: each call id and each answered id is read once, first come first
// kept (an earlier span's output wins over a later span's replay of it). A tool span's result carries the span's
// transport: its status (UNSET, which OTLP JSON writes by leaving the code out, or OK: success) and `error.type`
// (the operation ended in an error: an honest failure). Its `gen_ai.tool.call.arguments` are the call's arguments
// as written: an object, or a JSON string of one; anything else is an arguments-encoding fault.
import { SessionBuilder, type NodeRef } from './builder';
import type { Session, TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { byTime, isPlainObject, jsonIn, num, str, type Located, type Obj } from './util';

export interface Attr {
  value: unknown;
  ref: NodeRef;
}

export interface SpanRecord {
  ref: NodeRef;
  traceId: string;
  spanId?: string;
  parentId?: string;
  name?: string;
  start?: unknown;
  kind?: string;
  status?: string;
  statusMessage?: string;
  attrs: Map<string, Attr>;
}

/** A span whose attribute map is built when first asked for and can be let go once its trace was read, so a large
 *  export holds one trace's maps at a time. */
class LazySpan implements SpanRecord {
  private cache?: Map<string, Attr>;

  constructor(fields: Omit<SpanRecord, 'attrs'>, private readonly load: () => Map<string, Attr>) {
    Object.assign(this, fields);
  }

  declare ref: NodeRef;
  declare traceId: string;

  get attrs(): Map<string, Attr> {
    return (this.cache ??= this.load());
  }

  release(): void {
    this.cache = undefined;
  }
}

// ---- reading attributes -------------------------------------------------------------------------------------

const OTLP_VALUE_KEYS = ['stringValue', 'intValue', 'doubleValue', 'boolValue', 'bytesValue'];

/** An OTLP AnyValue as plain JSON (arrays and kvlists included), with the path of its scalar node. */
function otlpValue(v: unknown, path: JsonPath): { value: unknown; path: JsonPath } {
  if (!isPlainObject(v)) return { value: v, path };
  for (const k of OTLP_VALUE_KEYS) {
    if (k in v) return { value: k === 'intValue' ? num(v[k]) ?? v[k] : v[k], path: [...path, k] };
  }
  if (isPlainObject(v.arrayValue) && Array.isArray(v.arrayValue.values)) {
    return { value: v.arrayValue.values.map((x, i) => otlpValue(x, [...path, 'arrayValue', 'values', i]).value), path: [...path, 'arrayValue'] };
  }
  if (isPlainObject(v.kvlistValue) && Array.isArray(v.kvlistValue.values)) {
    const o: Obj = {};
    for (const kv of v.kvlistValue.values) if (isPlainObject(kv) && typeof kv.key === 'string') o[kv.key] = otlpValue(kv.value, []).value;
    return { value: o, path: [...path, 'kvlistValue'] };
  }
  return { value: v, path };
}

/** Attributes as a typed OTLP list `[{key, value}]`, or an object with flat dotted keys (or nested objects). */
export function readAttributes(doc: Doc, path: JsonPath, attrs: unknown): Map<string, Attr> {
  const out = new Map<string, Attr>();
  if (Array.isArray(attrs)) {
    attrs.forEach((kv, i) => {
      if (!isPlainObject(kv) || typeof kv.key !== 'string') return;
      const { value, path: p } = otlpValue(kv.value, [...path, i, 'value']);
      out.set(kv.key, { value, ref: { doc, path: p } });
    });
    return out;
  }
  const walk = (o: Obj, p: JsonPath, prefix: string) => {
    for (const [k, v] of Object.entries(o)) {
      const key = prefix + k;
      if (isPlainObject(v) && !/\.(value|arguments|result|json_schema)$/.test(key) && Object.keys(v).length > 0 && !KEEP_OBJECT.has(key)) walk(v, [...p, k], key + '.');
      else out.set(key, { value: v, ref: { doc, path: [...p, k] } });
    }
  };
  if (isPlainObject(attrs)) walk(attrs, path, '');
  return out;
}

// Attributes whose value is an object in its own right (not a nesting of dotted keys).
const KEEP_OBJECT = new Set(['input', 'output', 'tool_arguments', 'tool_response', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result', 'gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.definitions']);

export function hasGenAi(keys: Iterable<string>): boolean {
  for (const k of keys) if (k.startsWith('gen_ai.')) return true;
  return false;
}

export function hasOpenInference(keys: Iterable<string>): boolean {
  for (const k of keys) {
    if (k.startsWith('openinference.') || k.startsWith('llm.input_messages') || k.startsWith('llm.output_messages') || k.startsWith('llm.tools.') || k === 'tool.name') return true;
  }
  return false;
}

/** A flat attribute map: most keys dotted, and GenAI or OpenInference keys among them. */
export function isFlatAttributeMap(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.filter((k) => k.includes('.')).length * 2 >= keys.length && (hasGenAi(keys) || hasOpenInference(keys));
}

// ---- span containers ----------------------------------------------------------------------------------------

function statusName(v: unknown): string | undefined {
  if (typeof v === 'number') return v === 2 ? 'ERROR' : v === 1 ? 'OK' : 'UNSET';
  if (typeof v !== 'string') return undefined;
  const s = v.toUpperCase().replace(/^STATUS_CODE_/, '');
  return s === 'ERROR' || s === 'OK' || s === 'UNSET' ? s : undefined;
}

export function isOtlp(v: unknown): v is Obj {
  return isPlainObject(v) && Array.isArray(v.resourceSpans);
}

/** The spans of an OTLP JSON export. */
export function otlpSpans(doc: Doc): SpanRecord[] {
  const out: SpanRecord[] = [];
  ((doc.value as Obj).resourceSpans as unknown[]).forEach((rs, i) => {
    if (!isPlainObject(rs)) return;
    const scopes = Array.isArray(rs.scopeSpans) ? rs.scopeSpans : Array.isArray(rs.instrumentationLibrarySpans) ? rs.instrumentationLibrarySpans : [];
    const scopeKey = Array.isArray(rs.scopeSpans) ? 'scopeSpans' : 'instrumentationLibrarySpans';
    scopes.forEach((ss, j) => {
      if (!isPlainObject(ss) || !Array.isArray(ss.spans)) return;
      ss.spans.forEach((s, k) => {
        if (!isPlainObject(s)) return;
        const path = ['resourceSpans', i, scopeKey, j, 'spans', k];
        const status = isPlainObject(s.status) ? s.status : {};
        out.push(new LazySpan({
          ref: { doc, path },
          traceId: str(s.traceId) ?? '',
          spanId: str(s.spanId),
          parentId: str(s.parentSpanId),
          name: str(s.name),
          start: s.startTimeUnixNano,
          // OTLP JSON leaves out default values: a span without a status code is UNSET
          status: statusName(status.code) ?? 'UNSET',
          statusMessage: str(status.message),
        }, () => readAttributes(doc, [...path, 'attributes'], s.attributes)));
      });
    });
  });
  return out;
}

/** A span object of a JSON span array (Phoenix and similar exports), or undefined. */
export function arraySpan(doc: Doc, path: JsonPath, s: unknown): SpanRecord | undefined {
  if (!isPlainObject(s) || !isPlainObject(s.attributes)) return undefined;
  const ctx = isPlainObject(s.context) ? s.context : s;
  const status = isPlainObject(s.status) ? s.status : undefined;
  const attributes = s.attributes;
  return new LazySpan({
    ref: { doc, path },
    traceId: str(ctx.trace_id) ?? str(ctx.traceId) ?? '',
    spanId: str(ctx.span_id) ?? str(ctx.spanId),
    parentId: str(s.parent_id) ?? str(s.parentId) ?? str(s.parentSpanId),
    name: str(s.name),
    start: s.start_time ?? s.startTime ?? s.startTimeUnixNano,
    kind: str(s.span_kind),
    status: statusName(s.status_code ?? status?.code ?? status?.status_code),
    statusMessage: str(s.status_message) ?? str(status?.message),
  }, () => readAttributes(doc, [...path, 'attributes'], attributes));
}

/** One span object of a span export (a JSONL line of spans), in the given conventions. */
export function isSpanObject(v: unknown, semconv: (keys: string[]) => boolean): boolean {
  return isPlainObject(v) && isPlainObject(v.attributes) && (isPlainObject(v.context) || 'span_id' in v || 'spanId' in v) && semconv(Object.keys(v.attributes));
}

/** Spans arriving line by line (an OTLP request per line, as the Collector's file exporter writes, or one span per
 *  line): kept until the file ends, then read per trace id, in start order, like a whole export. */
export class SpanLines {
  private spans: SpanRecord[] = [];

  constructor(private readonly sink: { sessionFor(key: string): SessionBuilder }) {}

  add(spans: SpanRecord[]): void {
    for (const s of spans) this.spans.push(s);
  }

  finish(): void {
    const all = this.spans;
    this.spans = [];
    for (const [id, list] of byTrace(all)) readTrace(this.sink.sessionFor(id), list);
  }
}

export function isSpanArray(v: unknown, semconv: (keys: string[]) => boolean): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((s) => isPlainObject(s) && isPlainObject(s.attributes) && (isPlainObject(s.context) || 'span_id' in s || 'spanId' in s))
    && v.some((s) => semconv(Object.keys((s as Obj).attributes as Obj)));
}

export function arraySpans(doc: Doc): SpanRecord[] {
  return (doc.value as unknown[]).map((s, i) => arraySpan(doc, [i], s)).filter((s): s is SpanRecord => s !== undefined);
}

/** A flat attribute map as one span. */
export function flatSpan(doc: Doc): SpanRecord {
  return { ref: { doc, path: [] }, traceId: '', attrs: readAttributes(doc, [], doc.value) };
}

// ---- from spans to calls ------------------------------------------------------------------------------------

function attr(s: SpanRecord, ...keys: string[]): Attr | undefined {
  for (const k of keys) {
    const a = s.attrs.get(k);
    if (a !== undefined && a.value !== undefined && a.value !== null) return a;
  }
  return undefined;
}

/** Indexed flat keys `prefix.N.rest` grouped by N (numeric order), each group keyed by `rest`. */
function indexed(s: SpanRecord, prefix: string): Map<number, Map<string, Attr>> {
  const out = new Map<number, Map<string, Attr>>();
  const dotted = prefix + '.';
  let any = false;
  for (const k of s.attrs.keys()) {
    if (k.startsWith(dotted)) {
      any = true;
      break;
    }
  }
  if (!any) return out;
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(\\d+)\\.(.+)$`);
  for (const [k, a] of s.attrs) {
    const m = re.exec(k);
    if (!m) continue;
    const n = Number(m[1]);
    let g = out.get(n);
    if (!g) out.set(n, (g = new Map()));
    g.set(m[2], a);
  }
  return new Map([...out.entries()].sort((x, y) => x[0] - y[0]));
}

function regroup(g: Map<string, Attr>, prefix: string): Map<number, Map<string, Attr>> {
  const fake: SpanRecord = { ref: { doc: undefined as unknown as Doc, path: [] }, traceId: '', attrs: g };
  return indexed(fake, prefix);
}

function isModelSpan(s: SpanRecord): boolean {
  const kind = s.kind ?? str(attr(s, 'openinference.span.kind')?.value);
  const op = str(attr(s, 'gen_ai.operation.name')?.value);
  return kind === 'LLM' || op === 'chat' || op === 'text_completion' || op === 'generate_content';
}

export function isToolSpan(s: SpanRecord): boolean {
  const kind = s.kind ?? str(attr(s, 'openinference.span.kind')?.value);
  if (kind === 'TOOL') return true;
  if (str(attr(s, 'gen_ai.operation.name')?.value) === 'execute_tool') return true;
  return !isModelSpan(s) && (s.attrs.has('gen_ai.tool.name') || s.attrs.has('tool.name')) && !s.attrs.has('llm.input_messages.0.message.role');
}

/** What a trace reader collects before writing calls: ids already called and answered. */
export class TraceCalls {
  private readonly called = new Set<string>();
  private readonly answered = new Set<string>();

  constructor(readonly b: SessionBuilder) {}

  private synced = 0;

  /** Whether a call with this id is in the session (however it got there). */
  hasCall(id: string | undefined): boolean {
    const calls = this.b.session.calls;
    for (; this.synced < calls.length; this.synced++) {
      const c = calls[this.synced].id;
      if (c !== undefined) this.called.add(c);
    }
    return id !== undefined && this.called.has(id);
  }

  hasResult(id: string | undefined): boolean {
    return id !== undefined && this.answered.has(id);
  }

  call(name: string, id: string | undefined, at: NodeRef, namePath: JsonPath, argsAt: NodeRef | undefined, args: unknown, turn?: number): void {
    if (this.hasCall(id)) return;
    this.b.call({ name, id, at, namePath, argsPath: [], argsAt: argsAt ?? at, args: argsAt ? args : undefined, expect: 'any' }, turn);
  }

  result(id: string | undefined, at: NodeRef, payload: unknown, payloadPath: JsonPath | undefined, transport: TransportSignals = {}, callIndex?: number): void {
    if (id !== undefined) {
      if (this.answered.has(id)) return;
      this.answered.add(id);
    }
    this.b.result({ at, callId: id, callIndex, payload, payloadPath, transport });
    this.b.breakTurn();
  }
}

/** Message parts (OTel GenAI): `[{role, parts: [{type: "tool_call", id, name, arguments} | {type:
 *  "tool_call_response", id, response|result}]}]`, as an array or a JSON string. */
export function readPartsMessages(t: TraceCalls, where: Located, calls: boolean, results: boolean): number {
  let n = 0;
  const list = where.value;
  if (!Array.isArray(list)) return 0;
  list.forEach((m, i) => {
    if (!isPlainObject(m) || !Array.isArray(m.parts)) return;
    let turn: number | undefined;
    m.parts.forEach((p, j) => {
      if (!isPlainObject(p)) return;
      const at = { doc: where.doc, path: [...where.path, i, 'parts', j] };
      if (p.type === 'tool_call' && typeof p.name === 'string' && calls) {
        if (t.hasCall(str(p.id))) return;
        turn ??= t.b.newTurn();
        t.call(p.name, str(p.id), at, ['name'], 'arguments' in p ? { doc: at.doc, path: [...at.path, 'arguments'] } : undefined, p.arguments, turn);
        n += 1;
      } else if (p.type === 'tool_call_response' && results) {
        const key = 'response' in p ? 'response' : 'result';
        t.result(str(p.id), at, p[key], [key]);
      }
    });
  });
  return n;
}

/** OpenInference flattened messages `<prefix>.N.message.*` (role, tool_calls.M.tool_call.*, tool_call_id, content). */
function readFlatMessages(t: TraceCalls, s: SpanRecord, prefix: string, calls: boolean, results: boolean): number {
  let n = 0;
  for (const [, g] of indexed(s, prefix)) {
    let turn: number | undefined;
    for (const [, tc] of regroup(g, 'message.tool_calls')) {
      const name = tc.get('tool_call.function.name');
      if (!calls || !name || typeof name.value !== 'string' || t.hasCall(str(tc.get('tool_call.id')?.value))) continue;
      turn ??= t.b.newTurn();
      const args = tc.get('tool_call.function.arguments');
      t.call(name.value, str(tc.get('tool_call.id')?.value), name.ref, [], args?.ref, args?.value, turn);
      n += 1;
    }
    const role = str(g.get('message.role')?.value);
    const answered = g.get('message.tool_call_id');
    if (results && role === 'tool') {
      const content = g.get('message.content');
      const anchor = answered?.ref ?? content?.ref ?? g.get('message.role')!.ref;
      t.result(str(answered?.value), anchor, content?.value, content ? [] : undefined);
    }
  }
  return n;
}

/** OpenLLMetry-style flattened prompt/completion: `gen_ai.completion.N.tool_calls.M.{id,name,arguments}`. */
function readLegacyFlat(t: TraceCalls, s: SpanRecord, prefix: string, calls: boolean, results: boolean): number {
  let n = 0;
  for (const [, g] of indexed(s, prefix)) {
    let turn: number | undefined;
    for (const [, tc] of regroup(g, 'tool_calls')) {
      const name = tc.get('name');
      if (!calls || !name || typeof name.value !== 'string' || t.hasCall(str(tc.get('id')?.value))) continue;
      turn ??= t.b.newTurn();
      const args = tc.get('arguments');
      t.call(name.value, str(tc.get('id')?.value), name.ref, [], args?.ref, args?.value, turn);
      n += 1;
    }
    if (results && str(g.get('role')?.value) === 'tool') {
      const content = g.get('content');
      const id = g.get('tool_call_id');
      t.result(str(id?.value), id?.ref ?? content?.ref ?? g.get('role')!.ref, content?.value, content ? [] : undefined);
    }
  }
  return n;
}

function located(a: Attr | undefined): Located | undefined {
  return a ? jsonIn(a.ref.doc, a.ref.path, a.value) : undefined;
}

/** The calls a model span outputs. */
function readOutputs(t: TraceCalls, s: SpanRecord): number {
  let n = readFlatMessages(t, s, 'llm.output_messages', true, false);
  const out = located(attr(s, 'gen_ai.output.messages'));
  if (out) n += readPartsMessages(t, out, true, false);
  n += readLegacyFlat(t, s, 'gen_ai.completion', true, false);
  return n;
}

/** The history a model span was given (calls and results). */
function readInputs(t: TraceCalls, s: SpanRecord, calls: boolean): void {
  readFlatMessages(t, s, 'llm.input_messages', calls, true);
  const input = located(attr(s, 'gen_ai.input.messages', 'gen_ai.prompt'));
  if (input) readPartsMessages(t, input, calls, true);
  readLegacyFlat(t, s, 'gen_ai.prompt', calls, true);
}

/** Tool definitions: `llm.tools.N.tool.json_schema` and `gen_ai.tool.definitions`. */
export function readDefinitions(b: SessionBuilder, s: SpanRecord, seen: Set<string>): void {
  const add = (def: unknown, ref: NodeRef) => {
    if (!isPlainObject(def)) return;
    const fn = isPlainObject(def.function) ? def.function : def;
    const name = str(fn.name);
    const schema = fn.parameters ?? fn.input_schema ?? fn.inputSchema;
    if (name === undefined || schema === undefined || seen.has(name)) return;
    seen.add(name);
    b.tool(name, schema, ref);
  };
  for (const [, g] of indexed(s, 'llm.tools')) {
    const a = g.get('tool.json_schema');
    if (!a) continue;
    const l = jsonIn(a.ref.doc, a.ref.path, a.value);
    add(l.value, l);
  }
  const defs = located(attr(s, 'gen_ai.tool.definitions'));
  if (defs && Array.isArray(defs.value)) defs.value.forEach((d, i) => add(d, { doc: defs.doc, path: [...defs.path, i] }));
}

/** A tool span's transport: its status (UNSET or OK say success), `error.type` (set when the operation ended in an
 *  error: a failure whatever the status says), an exit code, an HTTP status. */
function spanTransport(s: SpanRecord): TransportSignals {
  const t: TransportSignals = {};
  if (s.status !== undefined) t.spanStatus = s.status;
  const errorType = str(attr(s, 'error.type')?.value);
  if (errorType !== undefined && errorType !== '') t.errorType = errorType;
  const code = num(attr(s, 'process.exit.code', 'gen_ai.tool.exit_code')?.value);
  if (code !== undefined) t.exitCode = code;
  const http = num(attr(s, 'http.response.status_code', 'http.status_code')?.value);
  if (http !== undefined) t.httpStatus = http;
  return t;
}

/** A tool span: the result of the call it names, or a call and its result. */
function readToolSpan(t: TraceCalls, s: SpanRecord): void {
  const nameAttr = attr(s, 'gen_ai.tool.name', 'tool.name');
  const name = str(nameAttr?.value) ?? s.name;
  if (name === undefined) return;
  const id = str(attr(s, 'gen_ai.tool.call.id', 'tool.id', 'tool_call.id', 'tool.call.id')?.value);
  const args = attr(s, 'gen_ai.tool.call.arguments', 'tool.parameters', 'input.value', 'tool_arguments', 'input');
  const out = attr(s, 'gen_ai.tool.call.result', 'output.value', 'tool_response', 'output');
  if (!t.hasCall(id)) {
    const at = nameAttr?.ref ?? s.ref;
    t.call(name, id, at, [], args?.ref, args?.value, t.b.newTurn());
  }
  const callIndex = id === undefined ? t.b.session.calls.length - 1 : undefined;
  t.result(id, out?.ref ?? s.ref, out?.value, out ? [] : undefined, spanTransport(s), callIndex);
}

/** Read one trace's spans (any order) into a session. */
export function readTrace(b: SessionBuilder, spans: SpanRecord[]): void {
  const ordered = byTime(spans, (s) => s.start);
  const t = new TraceCalls(b);
  const seen = new Set<string>();
  for (const s of ordered) readDefinitions(b, s, seen);
  for (const s of ordered) {
    if (isToolSpan(s)) {
      readToolSpan(t, s);
    } else {
      // The history first (it happened before this span's output), then the output; each id once.
      readInputs(t, s, true);
      readOutputs(t, s);
    }
  }
}

/** Read each trace into a session of its own and hand it out at once (traces are independent), letting each
 *  trace's attribute maps go after it was read. */
export function readTraces(spans: SpanRecord[], emit: (s: Session) => void): void {
  for (const [id, list] of byTrace(spans)) {
    const b = new SessionBuilder(id === '' ? undefined : id);
    readTrace(b, list);
    for (const s of list) if (s instanceof LazySpan) s.release();
    emit(b.session);
  }
}

/** Spans grouped by trace id, in order of first appearance. */
export function byTrace(spans: SpanRecord[]): Map<string, SpanRecord[]> {
  const out = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const list = out.get(s.traceId);
    if (list) list.push(s);
    else out.set(s.traceId, [s]);
  }
  return out;
}
