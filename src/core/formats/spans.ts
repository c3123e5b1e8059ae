// Spans, whatever exported them: OTLP JSON (`resourceSpans` -> `scopeSpans` -> `spans`, typed attribute lists),
// span arrays with attribute objects (Phoenix, console exporters), or a single flat attribute map. Both semantic
// conventions are read from the attributes: OpenTelemetry GenAI (`gen_ai.*`: message parts `tool_call` /
// `tool_call_response`, `execute_tool` spans, `gen_ai.tool.definitions`) and OpenInference (`llm.*_messages.N.
// message.tool_calls.M.tool_call.*`, TOOL spans with `tool.name` / `tool.id` / `input.value` / `output.value`,
// `llm.tools.N.tool.json_schema`). Shared by the otel and openinference adapters (and Langfuse's metadata).
//
// Within one trace (spans ordered by start time): calls are what model spans output; tool spans are the
// executions, so a tool span whose id matches a call is its result; one without an id answers the earliest
// unanswered call of its tool; one that matches none is a call and its result. Input messages replay the history:
// a call listed again with the same id, tool and arguments is a copy (first come first kept: an earlier span's
// output wins over a later span's replay of it), and without ids the k-th time a history shows a call (tool and
// arguments) is the session's k-th such call; a result without an id answers the calls of the message before it,
// in order. An id that another tool, or other arguments, uses again is another call (duplicate-call-id). A tool
// span's result carries the span's transport: its status (UNSET, which OTLP JSON writes by leaving the code out,
// or OK: success) and `error.type` (the operation ended in an error: an honest failure). Its
// `gen_ai.tool.call.arguments` are the call's arguments as written: an object, or a JSON string of one; anything
// else is an arguments-encoding fault.
import { decodeArguments, SessionBuilder, type NodeRef } from './builder';
import type { Session, TransportSignals } from '../model';
import type { LineSink } from './adapter';
import { childPath, joinPath, type Doc, type JsonPath } from '../parse/doc';
import { callFingerprint, valueKey } from '../fingerprint';
import { byTime, isPlainObject, jsonIn, num, str, unansweredByName, type Located, type Obj } from './util';
import { contentOf, conventionDefinitions, conventionKind, conventionToolName, responseCalls, eventFields, eventMessages, HISTORY_KEYS, isVercelOuterSpan, listedCalls, listedMessages, SUMMARY_KEYS, TOOL_SPAN_KEYS, toolSpanEvents, traceloopArguments, langfuseGeneration, type EventRecord, type ListedMessage } from './span-conventions';

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
  /** Whether any attribute key has an index segment (`a.N.b`), once asked (see `indexed`). */
  indexes?: boolean;
  /** The span's events (GenAI events carry messages), read when asked. */
  events?: () => EventRecord[];
  /** Made of log records (span-containers.ts): merged into the span of the same id when the trace has it. */
  logs?: boolean;
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

// OTLP is protobuf: its JSON mapping names fields in lowerCamelCase, and parsers accept the proto field names too
// (`string_value`, `resource_spans`, `trace_id`: what a protobuf message dumped with its field names preserved holds).
const OTLP_VALUE_KEYS = ['stringValue', 'intValue', 'doubleValue', 'boolValue', 'bytesValue', 'string_value', 'int_value', 'double_value', 'bool_value', 'bytes_value'];

/** The member of an OTLP AnyValue that holds its value (`stringValue`, ..., `arrayValue`, `kvlistValue`). */
function anyValueKey(v: Obj): string | undefined {
  // a writer that serializes every member of the oneof (Phoenix's OTLP spans: the unset ones null) names its value
  // by the one member that is set
  for (const k of OTLP_VALUE_KEYS) if (k in v && v[k] !== null) return k;
  for (const k of ['arrayValue', 'kvlistValue', 'array_value', 'kvlist_value']) {
    const inner = v[k];
    if (isPlainObject(inner) && Array.isArray(inner.values)) return k;
  }
  return undefined;
}

/** An OTLP AnyValue as plain JSON (arrays and kvlists included); `key`: its anyValueKey. */
function otlpValue(v: unknown, key = isPlainObject(v) ? anyValueKey(v) : undefined): unknown {
  if (key === undefined) return v;
  const any = v as Obj;
  if (key === 'arrayValue' || key === 'array_value') return ((any[key] as Obj).values as unknown[]).map((x) => otlpValue(x));
  if (key === 'kvlistValue' || key === 'kvlist_value') {
    const o: Obj = {};
    for (const kv of (any[key] as Obj).values as unknown[]) if (isPlainObject(kv) && typeof kv.key === 'string') o[kv.key] = otlpValue(kv.value);
    return o;
  }
  return key === 'intValue' || key === 'int_value' ? num(any[key]) ?? any[key] : any[key];
}

/** An attribute of a typed list, whose path (`<list>[i].value.<key>`, the node of its value) is made only when
 *  asked: most attributes are never pointed at, and a span has several (OTLP 20 MB: 4 objects less each). */
class ListAttr implements Attr {
  private where?: NodeRef;

  constructor(readonly value: unknown, private readonly doc: Doc, private readonly list: JsonPath, private readonly i: number, private readonly key: string | undefined) {}

  get ref(): NodeRef {
    return (this.where ??= { doc: this.doc, path: this.key === undefined ? childPath(this.list, this.i, 'value') : joinPath(this.list, [this.i, 'value', this.key]) });
  }
}

/** Attributes as a typed OTLP list `[{key, value}]`, or an object with flat dotted keys (or nested objects). */
export function readAttributes(doc: Doc, path: JsonPath, attrs: unknown): Map<string, Attr> {
  const out = new Map<string, Attr>();
  if (Array.isArray(attrs)) {
    for (let i = 0; i < attrs.length; i++) {
      const kv: unknown = attrs[i];
      if (!isPlainObject(kv) || typeof kv.key !== 'string') continue;
      const key = isPlainObject(kv.value) ? anyValueKey(kv.value) : undefined;
      out.set(kv.key, new ListAttr(otlpValue(kv.value, key), doc, path, i, key));
    }
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
const KEEP_OBJECT = new Set(['input', 'output', 'tool_arguments', 'tool_response', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result', 'gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.definitions',
  'tool.parameters', 'gcp.vertex.agent.tool_call_args', 'gcp.vertex.agent.tool_response', 'gcp.vertex.agent.llm_request', 'gcp.vertex.agent.llm_response']);

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

export function statusName(v: unknown): string | undefined {
  if (typeof v === 'number') return v === 2 ? 'ERROR' : v === 1 ? 'OK' : 'UNSET';
  if (typeof v !== 'string') return undefined;
  const s = v.toUpperCase().replace(/^STATUS_CODE_/, '');
  return s === 'ERROR' || s === 'OK' || s === 'UNSET' ? s : undefined;
}

export function isOtlp(v: unknown): v is Obj {
  return isPlainObject(v) && (Array.isArray(v.resourceSpans) || Array.isArray(v.resource_spans));
}

/** The first of `keys` an object has as an array (a field under its JSON name or its proto name). */
function listKey(o: Obj, keys: readonly string[]): string | undefined {
  return keys.find((k) => Array.isArray(o[k]));
}
const SCOPE_KEYS = ['scopeSpans', 'scope_spans', 'instrumentationLibrarySpans', 'instrumentation_library_spans'];

/** Each span object of an OTLP JSON export, with where it is (`resourceSpans[i].<scopeKey>[j].spans[k]`). */
function eachOtlpSpan(v: Obj, visit: (s: Obj, rsKey: string, i: number, scopeKey: string, j: number, k: number) => void): void {
  const rsKey = Array.isArray(v.resourceSpans) ? 'resourceSpans' : 'resource_spans';
  (v[rsKey] as unknown[]).forEach((rs, i) => {
    if (!isPlainObject(rs)) return;
    const scopeKey = listKey(rs, SCOPE_KEYS);
    if (scopeKey === undefined) return;
    (rs[scopeKey] as unknown[]).forEach((ss, j) => {
      if (!isPlainObject(ss) || !Array.isArray(ss.spans)) return;
      ss.spans.forEach((s, k) => {
        if (isPlainObject(s)) visit(s, rsKey, i, scopeKey, j, k);
      });
    });
  });
}

/** The trace id of each span of an OTLP JSON export, in order (what otlpSpans reads, without reading it). */
export function otlpTraceIds(doc: Doc): string[] {
  const out: string[] = [];
  eachOtlpSpan(doc.value as Obj, (s) => out.push(str(s.traceId) ?? str(s.trace_id) ?? ''));
  return out;
}

/** The spans of an OTLP JSON export. */
export function otlpSpans(doc: Doc): SpanRecord[] {
  const out: SpanRecord[] = [];
  eachOtlpSpan(doc.value as Obj, (s, rsKey, i, scopeKey, j, k) => {
    const path = [rsKey, i, scopeKey, j, 'spans', k];
    const status = isPlainObject(s.status) ? s.status : {};
    out.push(new LazySpan({
      ref: { doc, path },
      traceId: str(s.traceId) ?? str(s.trace_id) ?? '',
      spanId: str(s.spanId) ?? str(s.span_id),
      parentId: str(s.parentSpanId) ?? str(s.parent_span_id),
      name: str(s.name),
      start: s.startTimeUnixNano ?? s.start_time_unix_nano,
      // OTLP JSON leaves out default values: a span without a status code is UNSET
      status: statusName(status.code) ?? 'UNSET',
      statusMessage: str(status.message),
      events: spanEvents(doc, childPath(path, 'events'), s.events),
    }, () => readAttributes(doc, childPath(path, 'attributes'), s.attributes)));
  });
  return out;
}

/** A Jaeger JSON export (the UI's download, the query API: `{data: [{traceID, spans: [...]}]}`) whose spans'
 *  `tags` (`[{key, type, value}]`) follow the given conventions. */
export function isJaeger(v: unknown, semconv: (keys: string[]) => boolean): boolean {
  if (!isPlainObject(v) || !Array.isArray(v.data) || v.data.length === 0) return false;
  const traces = v.data;
  const isTrace = (t: unknown): t is Obj & { spans: unknown[] } => isPlainObject(t) && typeof t.traceID === 'string' && Array.isArray(t.spans);
  if (!traces.every(isTrace)) return false;
  return traces.some((t) => isTrace(t) && t.spans.some((s) => isPlainObject(s) && Array.isArray(s.tags)
    && semconv(s.tags.map((kv) => (isPlainObject(kv) ? String(kv.key) : '')))));
}

/** The spans of a Jaeger export. Jaeger keeps the OTel status in tags (`otel.status_code`, `error: true`). */
export function jaegerSpans(doc: Doc): SpanRecord[] {
  const out: SpanRecord[] = [];
  ((doc.value as Obj).data as Obj[]).forEach((t, i) => {
    (t.spans as unknown[]).forEach((s, j) => {
      if (!isPlainObject(s)) return;
      const path = ['data', i, 'spans', j];
      const tags = Array.isArray(s.tags) ? s.tags.filter(isPlainObject) : [];
      const tag = (key: string) => tags.find((kv) => kv.key === key)?.value;
      const parent = Array.isArray(s.references) ? s.references.find((r) => isPlainObject(r) && r.refType === 'CHILD_OF') : undefined;
      out.push(new LazySpan({
        ref: { doc, path },
        traceId: str(s.traceID) ?? str(t.traceID) ?? '',
        spanId: str(s.spanID),
        parentId: isPlainObject(parent) ? str(parent.spanID) : undefined,
        name: str(s.operationName),
        start: s.startTime,
        status: statusName(tag('otel.status_code')) ?? (tag('error') === true ? 'ERROR' : 'UNSET'),
        statusMessage: str(tag('otel.status_description')),
      }, () => readAttributes(doc, [...path, 'tags'], s.tags)));
    });
  });
  return out;
}

/** The JS SDK's HrTime `[seconds, nanoseconds]` (a `ReadableSpan` serialized as it is, as VS Code Copilot Chat's
 *  file exporter writes it) as milliseconds; any other value as it is. */
function hrMillis(v: unknown): unknown {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number' ? v[0] * 1000 + v[1] / 1e6 : v;
}

/** The attribute keys of a span object whose attributes are an object of keys, or an OTLP typed list `[{key,
 *  value}]` (an OTLP span outside its `resourceSpans`: Phoenix's `/spans/otlpv1` API pages); else undefined. */
function attributeKeys(attrs: unknown): string[] | undefined {
  if (isPlainObject(attrs)) return Object.keys(attrs);
  if (!Array.isArray(attrs) || !attrs.every((kv) => isPlainObject(kv) && typeof kv.key === 'string' && 'value' in kv)) return undefined;
  return attrs.map((kv) => (kv as Obj).key as string);
}

/** A span object of a JSON span array (Phoenix and similar exports; rows of Logfire's `records` table as its query
 *  API returns them: `span_name`, `start_timestamp`, `otel_status_code`, `otel_status_message`, `otel_events`), or
 *  undefined. */
export function arraySpan(doc: Doc, path: JsonPath, s: unknown): SpanRecord | undefined {
  if (!isPlainObject(s) || attributeKeys(s.attributes) === undefined) return undefined;
  const ctx = isPlainObject(s.context) ? s.context : s;
  const status = isPlainObject(s.status) ? s.status : undefined;
  const attributes = s.attributes;
  return new LazySpan({
    ref: { doc, path },
    traceId: str(ctx.trace_id) ?? str(ctx.traceId) ?? '',
    spanId: str(ctx.span_id) ?? str(ctx.spanId),
    parentId: str(s.parent_id) ?? str(s.parentId) ?? str(s.parentSpanId) ?? str(s.parent_span_id),
    name: str(s.name) ?? str(s.span_name),
    // MLflow 3's span dicts write OTLP's field names in snake case
    start: s.start_time ?? hrMillis(s.startTime) ?? s.startTimeUnixNano ?? s.start_time_unix_nano ?? s.start_time_ns ?? s.start_timestamp,
    kind: str(s.span_kind),
    status: statusName(s.status_code ?? status?.code ?? status?.status_code ?? s.otel_status_code),
    statusMessage: str(s.status_message) ?? str(status?.message) ?? str(s.otel_status_message),
    events: 'otel_events' in s && !('events' in s) ? spanEvents(doc, [...path, 'otel_events'], s.otel_events) : spanEvents(doc, [...path, 'events'], s.events),
  }, () => readAttributes(doc, [...path, 'attributes'], attributes));
}

/** A span's event list (`[{name, attributes}]`, typed or plain attributes), read when asked. */
function spanEvents(doc: Doc, path: JsonPath, list: unknown): (() => EventRecord[]) | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return () => list.flatMap((e, i) => {
    const r = isPlainObject(e) ? eventFields(e, { doc, path: [...path, i] }, (p, a) => readAttributes(doc, p, a)) : undefined;
    return r ? [r] : [];
  });
}

/** One span object of a span export (a JSONL line of spans), in the given conventions. */
export function isSpanObject(v: unknown, semconv: (keys: string[]) => boolean): boolean {
  if (!isPlainObject(v) || !(isPlainObject(v.context) || 'span_id' in v || 'spanId' in v)) return false;
  const keys = attributeKeys(v.attributes);
  return keys !== undefined && semconv(keys);
}

/** Spans arriving line by line (an OTLP request per line, as the Collector's file exporter writes, or one span per
 *  line): kept until the file ends, then read per trace id, in start order, like a whole export. When the spans to
 *  come were announced (`expect`: the first pass over a document read in parts), a trace is read and its session
 *  closed as soon as its last span has arrived and every trace that began before it is done: sessions come out in
 *  the order of a whole read, and only the traces still open are held. */
export class SpanLines {
  /** Spans per trace id, in order of first appearance. */
  private traces = new Map<string, SpanRecord[]>();
  /** Per trace id, how many announced spans have not arrived yet. */
  private readonly expected = new Map<string, number>();

  constructor(private readonly sink: Pick<LineSink, 'sessionFor' | 'closeSession' | 'ties'>) {}

  /** The trace ids of spans to come, one per span. */
  expect(traceIds: readonly string[]): void {
    // a trace's spans mostly come together: one count per run of the same id
    for (let i = 0; i < traceIds.length;) {
      const id = traceIds[i];
      let j = i + 1;
      while (j < traceIds.length && traceIds[j] === id) j++;
      this.expected.set(id, (this.expected.get(id) ?? 0) + j - i);
      i = j;
    }
  }

  add(spans: SpanRecord[]): void {
    const ties = this.sink.ties; // read as a slice apart: each span belongs to its trace
    for (let i = 0; i < spans.length;) {
      // a run of spans of one trace: one lookup of its list and its count
      const id = spans[i].traceId;
      ties?.key(id);
      let list = this.traces.get(id);
      if (!list) this.traces.set(id, (list = []));
      let j = i;
      for (; j < spans.length && spans[j].traceId === id; j++) list.push(spans[j]);
      const left = this.expected.get(id);
      if (left !== undefined) this.expected.set(id, left - (j - i));
      i = j;
    }
    if (this.expected.size > 0) this.settle();
  }

  finish(): void {
    const traces = this.traces;
    this.traces = new Map();
    for (const [id, list] of traces) readTrace(this.sink.sessionFor(id), list);
  }

  /** Read and close the complete traces at the head of the order. */
  private settle(): void {
    for (const [id, list] of this.traces) {
      if (this.expected.get(id) !== 0) return;
      this.traces.delete(id);
      this.expected.delete(id);
      readTrace(this.sink.sessionFor(id), list);
      for (const s of list) if (s instanceof LazySpan) s.release();
      this.sink.closeSession(id);
    }
  }
}

export function isSpanArray(v: unknown, semconv: (keys: string[]) => boolean): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((s) => isPlainObject(s) && attributeKeys(s.attributes) !== undefined && (isPlainObject(s.context) || 'span_id' in s || 'spanId' in s))
    && v.some((s) => semconv(attributeKeys((s as Obj).attributes)!));
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

// Whether a key has an index segment (`a.N.b`): most spans have none, and `indexed` is asked of every span for
// five prefixes, so each span says once (SpanRecord.indexes).
const INDEX_SEGMENT = /\.\d+\./;

const NO_GROUPS: ReadonlyMap<number, Map<string, Attr>> = new Map();

function hasIndexes(attrs: Map<string, Attr>): boolean {
  for (const k of attrs.keys()) if (INDEX_SEGMENT.test(k)) return true;
  return false;
}

/** Indexed flat keys `prefix.N.rest` grouped by N (numeric order), each group keyed by `rest`. */
function indexed(s: SpanRecord, prefix: string): ReadonlyMap<number, Map<string, Attr>> {
  if (!(s.indexes ??= hasIndexes(s.attrs))) return NO_GROUPS;
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
    if (!g) out.set(n, (g = new Map<string, Attr>()));
    g.set(m[2], a);
  }
  return new Map([...out.entries()].sort((x, y) => x[0] - y[0]));
}

function regroup(g: Map<string, Attr>, prefix: string): ReadonlyMap<number, Map<string, Attr>> {
  const fake: SpanRecord = { ref: { doc: undefined as unknown as Doc, path: [] }, traceId: '', attrs: g };
  return indexed(fake, prefix);
}

/** The kind a span says it is (OTLP's own, OpenInference's, or another convention's), worked out once per question. */
function spanKind(s: SpanRecord): string | undefined {
  return s.kind ?? str(attr(s, 'openinference.span.kind')?.value) ?? otherKind(s);
}

function isModelSpan(s: SpanRecord, kind = spanKind(s)): boolean {
  const op = str(attr(s, 'gen_ai.operation.name')?.value);
  return kind === 'LLM' || op === 'chat' || op === 'text_completion' || op === 'generate_content';
}

/** The kind the other conventions (Vercel AI SDK, MLflow) give a span. */
function otherKind(s: SpanRecord): string | undefined {
  return conventionKind((k) => s.attrs.get(k)?.value, s.name);
}

export function isToolSpan(s: SpanRecord): boolean {
  const kind = spanKind(s);
  if (kind === 'TOOL') return true;
  if (str(attr(s, 'gen_ai.operation.name')?.value) === 'execute_tool') return true;
  return !isModelSpan(s, kind) && (s.attrs.has('gen_ai.tool.name') || s.attrs.has('tool.name') || s.attrs.has('ai.toolCall.name')) && !s.attrs.has('llm.input_messages.0.message.role');
}

/** Where one history (a model span's input messages, the conversation so far) stands while it is read: how often
 *  it has shown each call and each loose result so far, and the calls of its latest message that made calls
 *  (what its results without an id answer, in order). Each history is a replay of the same conversation, so the
 *  k-th time a history shows a call is the k-th such call of the session. */
export class History {
  readonly shown = new Map<string, number>();
  answering: number[] = [];

  /** Count one more showing of `key` in this history; returns how many times it has been shown. */
  show(key: string): number {
    const k = (this.shown.get(key) ?? 0) + 1;
    this.shown.set(key, k);
    return k;
  }
}

/** What a trace reader knows of the session it writes (whoever wrote the calls and results there): calls by id,
 *  calls without one by what they are (tool and arguments), and which calls are answered. */
export class TraceCalls {
  private calls = 0;
  private results = 0;
  /** Session indices of the calls with each id; of the calls without an id, by fingerprint. */
  private readonly byId = new Map<string, number[]>();
  private readonly byPrint = new Map<string, number[]>();
  private readonly prints: (string | undefined)[] = [];
  /** Results recorded: how many name each call id; which call indices are answered by position. */
  private readonly idResults = new Map<string, number>();
  private readonly indexResults = new Set<number>();
  /** Results without an id or a call to answer, by payload: how many were read. */
  private readonly loose = new Map<string, number>();

  constructor(readonly b: SessionBuilder) {}

  private sync(): void {
    const { calls, results } = this.b.session;
    for (; this.calls < calls.length; this.calls++) {
      const id = calls[this.calls].id;
      if (id !== undefined) push(this.byId, id, this.calls);
      else push(this.byPrint, this.print(this.calls), this.calls);
    }
    for (; this.results < results.length; this.results++) {
      const r = results[this.results];
      if (r.callIndex !== undefined) this.indexResults.add(r.callIndex);
      else if (r.callId !== undefined) this.idResults.set(r.callId, (this.idResults.get(r.callId) ?? 0) + 1);
    }
  }

  private print(i: number): string {
    const c = this.b.session.calls[i];
    return (this.prints[i] ??= callFingerprint(c.name, c.args, c.argumentsRaw));
  }

  /** Whether a call with this id (and this name, when given) is in the session. */
  hasCall(id: string | undefined, name?: string): boolean {
    this.sync();
    const same = id === undefined ? undefined : this.byId.get(id);
    return same !== undefined && (name === undefined || same.some((i) => this.b.session.calls[i].name === name));
  }

  /** Whether a call with this id still waits for a result. */
  waitingFor(id: string): boolean {
    this.sync();
    return (this.idResults.get(id) ?? 0) < (this.byId.get(id)?.length ?? 0);
  }

  /** Whether a result answers call `i` (by position, or by its id: the first calls with an id are answered first). */
  answered(i: number): boolean {
    this.sync();
    if (this.indexResults.has(i)) return true;
    const id = this.b.session.calls[i]?.id;
    return id !== undefined && (this.idResults.get(id) ?? 0) > this.byId.get(id)!.indexOf(i);
  }

  /** The call a listed call is a copy of: one with the same id, tool and arguments (an output recorded by two
   *  spans). In a history, calls without an id too, by tool and arguments: the k-th time a history shows a call is
   *  the session's k-th such call, and one shown more often than the session has it is new. */
  copyOf(name: string, id: string | undefined, argsAt: NodeRef | undefined, args: unknown, history?: History): number | undefined {
    this.sync();
    if (id === undefined ? !history : !history && !this.byId.has(id)) return undefined;
    const decoded = argsAt ? decodeArguments(argsAt.doc, argsAt.path, args, 'any') : { args: {}, raw: undefined };
    const print = callFingerprint(name, decoded.args, decoded.raw);
    const matches = id === undefined ? this.byPrint.get(print) ?? [] : (this.byId.get(id) ?? []).filter((i) => this.print(i) === print);
    if (!history) return matches[0];
    return matches[history.show((id ?? '') + '\u0000' + print) - 1];
  }

  /** Record a call; returns its index in the session. */
  call(name: string, id: string | undefined, at: NodeRef, namePath: JsonPath, argsAt: NodeRef | undefined, args: unknown, turn?: number): number {
    return this.b.call({ name, id, at, namePath, argsPath: [], argsAt: argsAt ?? at, args: argsAt ? args : undefined, expect: 'any' }, turn).index;
  }

  /** Record a result, unless it is one recorded before: by id, once for each call with that id (once when none
   *  has it); by call index, once. */
  result(id: string | undefined, at: NodeRef, payload: unknown, payloadPath: JsonPath | undefined, transport: TransportSignals = {}, callIndex?: number): void {
    this.sync();
    if (id !== undefined ? (this.idResults.get(id) ?? 0) >= Math.max(1, this.byId.get(id)?.length ?? 0) : callIndex !== undefined && this.answered(callIndex)) return;
    this.b.result({ at, callId: id, callIndex, payload, payloadPath, transport });
    this.b.breakTurn();
  }

  /** A result a message lists: by its id; without one, it answers the next call of the history's latest message
   *  with calls; a result no call precedes is read once for as often as a history shows it. */
  listedResult(history: History | undefined, id: string | undefined, at: NodeRef, payload: unknown, payloadPath: JsonPath | undefined, transport: TransportSignals = {}): void {
    if (id !== undefined) return this.result(id, at, payload, payloadPath, transport);
    const index = history?.answering.shift();
    if (index !== undefined) return this.result(undefined, at, payload, payloadPath, transport, index);
    if (history) {
      const key = valueKey(payload);
      const k = history.show('\u0001' + key);
      if (k <= (this.loose.get(key) ?? 0)) return;
      this.loose.set(key, k);
    }
    this.result(undefined, at, payload, payloadPath, transport);
  }

  /** Read one message of a history (or of a span's output, without one). */
  message(history?: History): MessageCalls {
    return new MessageCalls(this, history);
  }
}

/** One message's calls: each is read unless it is a copy (see `TraceCalls.copyOf`); the new ones are one turn. */
export class MessageCalls {
  private turn?: number;
  private listed = false;

  constructor(private readonly t: TraceCalls, private readonly history?: History) {}

  /** Returns whether the call was new. */
  call(name: string, id: string | undefined, at: NodeRef, namePath: JsonPath, argsAt: NodeRef | undefined, args: unknown): boolean {
    let index = this.t.copyOf(name, id, argsAt, args, this.history);
    const fresh = index === undefined;
    if (index === undefined) index = this.t.call(name, id, at, namePath, argsAt, args, (this.turn ??= this.t.b.newTurn()));
    if (this.history) {
      if (!this.listed) this.history.answering = [];
      this.history.answering.push(index);
    }
    this.listed = true;
    return fresh;
  }

  result(id: string | undefined, at: NodeRef, payload: unknown, payloadPath: JsonPath | undefined, transport?: TransportSignals): void {
    this.t.listedResult(this.history, id, at, payload, payloadPath, transport);
  }
}

function push<K>(m: Map<K, number[]>, k: K, i: number): void {
  const list = m.get(k);
  if (list) list.push(i);
  else m.set(k, [i]);
}

/** Message lists (OTel GenAI parts: `[{role, parts: [{type: "tool_call", id, name, arguments} | {type:
 *  "tool_call_response", id, response|result}]}]`, and the other dialects `listedMessages` knows), as an array or a
 *  JSON string. `history`: these messages are a model span's input (then they replay calls and results read
 *  before). Returns how many calls were new. */
export function readPartsMessages(t: TraceCalls, where: Located, calls: boolean, results: boolean, history?: History): number {
  return readListed(t, listedMessages(where), calls, results, history);
}

/** Listed messages into the trace: each message's new calls are one turn. */
function readListed(t: TraceCalls, messages: ListedMessage[], calls: boolean, results: boolean, history?: History): number {
  let n = 0;
  for (const m of messages) {
    if (m.length === 0) continue;
    const msg = t.message(history);
    for (const item of m) {
      if ('call' in item) {
        const c = item.call;
        if (calls && msg.call(c.name, c.id, c.at, c.namePath, c.argsAt, c.args)) n += 1;
      } else if (results || item.result.inline) {
        const r = item.result;
        msg.result(r.id, r.at, r.payload, r.payloadPath, r.isError ? { isError: true } : undefined);
      }
    }
  }
  return n;
}

/** Where flattened messages keep their fields: OpenInference `<prefix>.N.message.*` (role, tool_calls.M.tool_call.*,
 *  tool_call_id, content), and OpenLLMetry-style `gen_ai.prompt|completion.N.*` (tool_calls.M.{id,name,arguments}). */
interface FlatKeys { calls: string; name: string; id: string; args: string; role: string; callId: string; content: string }
const OPENINFERENCE_KEYS: FlatKeys = { calls: 'message.tool_calls', name: 'tool_call.function.name', id: 'tool_call.id', args: 'tool_call.function.arguments',
  role: 'message.role', callId: 'message.tool_call_id', content: 'message.content' };
const LEGACY_KEYS: FlatKeys = { calls: 'tool_calls', name: 'name', id: 'id', args: 'arguments', role: 'role', callId: 'tool_call_id', content: 'content' };

/** Flattened messages under `prefix`: their calls; with a `history` (a model span's input), their results too. */
function readFlatMessages(t: TraceCalls, s: SpanRecord, prefix: string, keys: FlatKeys, history?: History): number {
  let n = 0;
  for (const [, g] of indexed(s, prefix)) {
    const msg = t.message(history);
    const calls = regroup(g, keys.calls);
    for (const [, tc] of calls) {
      const name = tc.get(keys.name);
      if (!name || typeof name.value !== 'string') continue;
      const args = tc.get(keys.args);
      if (msg.call(name.value, str(tc.get(keys.id)?.value), name.ref, [], args?.ref, args?.value)) n += 1;
    }
    const role = g.get(keys.role);
    const content = g.get(keys.content);
    if (history && role && str(role.value) === 'tool') {
      const id = g.get(keys.callId);
      msg.result(str(id?.value), id?.ref ?? content?.ref ?? role.ref, content?.value, content ? [] : undefined);
    } else if (history && content) {
      n += readContentBlocks(msg, content, calls.size === 0);
    }
  }
  return n;
}

/** A flattened message's content that is a list of blocks, as JSON (OpenLLMetry writes an Anthropic or Bedrock
 *  request's content so: `tool_result` / `toolResult` blocks in a user message, `tool_use` blocks in an assistant
 *  message, which newer versions list again as `tool_calls.M`): its results, and its calls when the message lists
 *  none of its own. Returns how many calls were new. */
function readContentBlocks(msg: MessageCalls, content: Attr, calls: boolean): number {
  const l = jsonIn(content.ref.doc, content.ref.path, content.value);
  if (!Array.isArray(l.value)) return 0;
  let n = 0;
  for (const item of contentOf(l)) {
    if ('call' in item) {
      const c = item.call;
      if (calls && msg.call(c.name, c.id, c.at, c.namePath, c.argsAt, c.args)) n += 1;
    } else {
      const r = item.result;
      msg.result(r.id, r.at, r.payload, r.payloadPath, r.isError ? { isError: true } : undefined);
    }
  }
  return n;
}

function located(a: Attr | undefined): Located | undefined {
  return a ? jsonIn(a.ref.doc, a.ref.path, a.value) : undefined;
}

/** The calls a model span outputs. */
function readOutputs(t: TraceCalls, s: SpanRecord): number {
  let n = readFlatMessages(t, s, 'llm.output_messages', OPENINFERENCE_KEYS);
  const out = located(attr(s, 'gen_ai.output.messages'));
  if (out) n += readPartsMessages(t, out, true, false);
  n += readFlatMessages(t, s, 'gen_ai.completion', LEGACY_KEYS);
  // Vercel AI SDK: a step's calls (the outer span's repeat its last step's: read with the summaries)
  const vercel = located(attr(s, 'ai.response.toolCalls'));
  if (vercel && !isVercelOuterSpan((k) => s.attrs.get(k)?.value)) n += readListed(t, listedCalls(vercel), true, false);
  // Google ADK: the model's answer, one Gemini Content
  const adk = located(attr(s, 'gcp.vertex.agent.llm_response'));
  if (adk && isPlainObject(adk.value) && isPlainObject(adk.value.content)) {
    n += readPartsMessages(t, { doc: adk.doc, path: [...adk.path, 'content'], value: adk.value.content }, true, false);
  }
  if (s.events) n += readListed(t, eventMessages(s.events(), true), true, false);
  const langfuse = langfuseGeneration((k) => attr(s, k))?.output;
  if (langfuse) n += readPartsMessages(t, jsonIn(langfuse.ref.doc, langfuse.ref.path, langfuse.value), true, false);
  n += readListed(t, responseCalls((k) => attr(s, k)), true, false);
  return n;
}

/** The history a model span was given (calls and results): each way of writing it replays the same conversation,
 *  so each is a history of its own. */
function readInputs(t: TraceCalls, s: SpanRecord): void {
  readFlatMessages(t, s, 'llm.input_messages', OPENINFERENCE_KEYS, new History());
  const input = located(attr(s, 'gen_ai.input.messages', 'gen_ai.prompt'));
  if (input) readPartsMessages(t, input, true, true, new History());
  readFlatMessages(t, s, 'gen_ai.prompt', LEGACY_KEYS, new History());
  for (const key of HISTORY_KEYS) {
    const list = located(attr(s, key));
    if (list) readPartsMessages(t, list, true, true, new History());
  }
  const adk = located(attr(s, 'gcp.vertex.agent.llm_request'));
  if (adk) readPartsMessages(t, adk, true, true, new History());
  if (s.events) readListed(t, eventMessages(s.events(), false), true, true, new History());
  const langfuse = langfuseGeneration((k) => attr(s, k))?.input;
  if (langfuse) readPartsMessages(t, jsonIn(langfuse.ref.doc, langfuse.ref.path, langfuse.value), true, true, new History());
}

/** What a run's outer span repeats of the whole conversation (`SUMMARY_KEYS`, a Vercel outer span's calls): read
 *  after every other span of the trace. */
function readSummary(t: TraceCalls, s: SpanRecord): void {
  for (const key of SUMMARY_KEYS) {
    const list = located(attr(s, key));
    if (list) readPartsMessages(t, list, true, true, new History());
  }
  const vercel = located(attr(s, 'ai.response.toolCalls'));
  if (vercel && isVercelOuterSpan((k) => s.attrs.get(k)?.value)) readListed(t, listedCalls(vercel), true, false, new History());
}

/** Tool definitions: `llm.tools.N.tool.json_schema` and `gen_ai.tool.definitions`. */
export function readDefinitions(b: SessionBuilder, s: SpanRecord, seen: Set<string>): void {
  const add = (def: unknown, ref: NodeRef) => addDefinition(b, def, ref, seen);
  for (const [, g] of indexed(s, 'llm.tools')) {
    const a = g.get('tool.json_schema');
    if (!a) continue;
    const l = jsonIn(a.ref.doc, a.ref.path, a.value);
    add(l.value, l);
  }
  // OpenLLMetry (Traceloop) writes them as `llm.request.functions.N.{name, description, parameters}` (an Anthropic
  // request's tools with `input_schema`)
  for (const [, g] of indexed(s, 'llm.request.functions')) {
    const name = g.get('name');
    const params = g.get('parameters') ?? g.get('input_schema');
    if (!name || !params) continue;
    const l = jsonIn(params.ref.doc, params.ref.path, params.value);
    add({ name: name.value, parameters: l.value }, l);
  }
  const defs = located(attr(s, 'gen_ai.tool.definitions'));
  if (defs) readDefinitionList(b, defs, seen);
  conventionDefinitions((k) => attr(s, k), add);
}

/** One tool definition (`{name, parameters | input_schema | inputSchema | parameters_json_schema}`, or a Chat
 *  tool's `{function: {...}}`), unless its name was seen. */
function addDefinition(b: SessionBuilder, def: unknown, ref: NodeRef, seen: Set<string>): void {
  if (!isPlainObject(def)) return;
  const fn = isPlainObject(def.function) ? def.function : def;
  const name = str(fn.name);
  const schema = fn.parameters ?? fn.input_schema ?? fn.inputSchema ?? fn.parameters_json_schema;
  if (name === undefined || schema === undefined || seen.has(name)) return;
  seen.add(name);
  b.tool(name, schema, ref);
}

/** A list of tool definitions as `gen_ai.tool.definitions` holds them (a request's `tools` too). */
export function readDefinitionList(b: SessionBuilder, defs: Located, seen: Set<string>): void {
  if (Array.isArray(defs.value)) defs.value.forEach((d, i) => addDefinition(b, d, { doc: defs.doc, path: [...defs.path, i] }, seen));
}

/** A tool span's transport: its status (UNSET or OK say success), `error.type` (set when the operation ended in an
 *  error: a failure whatever the status says), an exit code, an HTTP status. */
function spanTransport(s: SpanRecord): TransportSignals {
  const t: TransportSignals = {};
  if (s.status !== undefined) t.spanStatus = s.status;
  // Langfuse's SDKs flag a failed observation by its level, not always by the span status
  if (str(attr(s, 'langfuse.observation.level')?.value) === 'ERROR') t.spanStatus = 'ERROR';
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
  const nameAttr = attr(s, ...TOOL_SPAN_KEYS.name) ?? conventionToolName((k) => attr(s, k));
  const name = str(nameAttr?.value) ?? s.name;
  if (name === undefined) return;
  // Strands keeps the arguments and the result in the span's events
  const ev = s.events ? toolSpanEvents(s.events()) : {};
  const id = str(attr(s, ...TOOL_SPAN_KEYS.id)?.value ?? ev.id?.value);
  const args = attr(s, ...TOOL_SPAN_KEYS.args) ?? ev.args ?? traceloopArguments((k) => attr(s, k));
  const out = attr(s, ...TOOL_SPAN_KEYS.result) ?? ev.result;
  const result = (callId: string | undefined, callIndex?: number) => t.result(callId, out?.ref ?? s.ref, out?.value, out ? [] : undefined, spanTransport(s), callIndex);
  if (id !== undefined && t.hasCall(id)) {
    if (t.waitingFor(id)) return result(id);
    // every call with this id is answered: the same execution recorded again, unless the span names another tool
    // (then it ran a call of its own that reuses the id)
    if (nameAttr === undefined || t.hasCall(id, name)) return;
  } else if (id === undefined) {
    // without an id it answers the earliest unanswered call of its tool
    const i = unansweredByName(t.b, name);
    if (i !== undefined) {
      const call = t.b.session.calls[i];
      return result(call.id, call.id === undefined ? i : undefined);
    }
  }
  const index = t.call(name, id, nameAttr?.ref ?? s.ref, [], args?.ref, args?.value, t.b.newTurn());
  result(id, id === undefined ? index : undefined);
}

/** Spans made of log records (span-containers.ts) merged into the spans they belong to (same span id): their
 *  events follow the span's own. What matches no span stays a span of its own. The records are not changed. */
function mergeLogSpans(spans: SpanRecord[]): SpanRecord[] {
  if (!spans.some((s) => s.logs)) return spans;
  const real = new Set<string>();
  for (const s of spans) if (!s.logs && s.spanId) real.add(s.spanId);
  const extra = new Map<string, SpanRecord[]>();
  for (const s of spans) if (s.logs && s.spanId && real.has(s.spanId)) extra.set(s.spanId, [...(extra.get(s.spanId) ?? []), s]);
  const out: SpanRecord[] = [];
  for (const s of spans) {
    if (s.logs && s.spanId && real.has(s.spanId)) continue;
    const more = !s.logs && s.spanId ? extra.get(s.spanId) : undefined;
    if (!more) {
      out.push(s);
      continue;
    }
    // the span itself (its attributes stay its own), with the records' events after its own
    const events = [s, ...more].map((x) => x.events);
    out.push(Object.assign(Object.create(s) as SpanRecord, { events: () => events.flatMap((e) => e?.() ?? []) }));
  }
  return out;
}

/** Read one trace's spans (any order) into a session. */
export function readTrace(b: SessionBuilder, spans: SpanRecord[]): void {
  const ordered = byTime(mergeLogSpans(spans), (s) => s.start);
  const t = new TraceCalls(b);
  const seen = new Set<string>();
  for (const s of ordered) readDefinitions(b, s, seen);
  const others: SpanRecord[] = [];
  for (const s of ordered) {
    if (isToolSpan(s)) {
      readToolSpan(t, s);
    } else {
      // The history first (it happened before this span's output), then the output; each call once.
      readInputs(t, s);
      readOutputs(t, s);
      others.push(s);
    }
  }
  for (const s of others) readSummary(t, s);
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
