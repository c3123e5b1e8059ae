// Span exports other than OTLP traces, Jaeger and span arrays (spans.ts), read into the same span records:
// - OTLP log records (`resourceLogs[].scopeLogs[].logRecords[]`): GenAI events emitted as logs, named by `eventName`
//   or the `event.name` attribute, their fields in `body` (an AnyValue kvlist, or a plain object). The records of
//   one span id are that span's events: merged into the span when the file has it (spans.ts `readTrace`), else a
//   span of their own.
// - Zipkin v2 JSON (`[{traceId, id, parentId, name, timestamp (µs), localEndpoint, tags}]`): attributes are `tags`
//   (all strings); the OTel status is `otel.status_code`, an `error` tag an error.
// - The OpenTelemetry Go SDK's stdout exporter (`stdouttrace`, one span per line): `{Name, SpanContext: {TraceID,
//   SpanID}, Parent, StartTime, Attributes: [{Key, Value: {Type, Value}}], Events: [{Name, Attributes, Time}],
//   Status: {Code: "Unset" | "Error" | "Ok", Description}}`.
// - Rows of the OpenTelemetry Collector's ClickHouse exporter (its `otel_traces` table, as `FORMAT JSONEachRow` or
//   a query's `data` writes them): `{Timestamp, TraceId, SpanId, ParentSpanId, SpanName, SpanAttributes: {flat},
//   StatusCode: "Error" | "STATUS_CODE_ERROR" | …, StatusMessage}`, events as the nested columns `Events.Name`,
//   `Events.Attributes` (or an `Events` list of `{Name, Attributes}`).
import type { Attr, SpanRecord } from './spans';
import { readAttributes, statusName } from './spans';
import type { Doc, JsonPath } from '../parse/doc';
import { eventFields, type EventRecord } from './span-conventions';
import { isPlainObject, str, type Obj } from './util';

// ---- OTLP log records ---------------------------------------------------------------------------------------

export function isOtlpLogs(v: unknown): v is Obj {
  return isPlainObject(v) && Array.isArray(v.resourceLogs);
}

interface LogRecord { traceId: string; spanId?: string; time: unknown; event: EventRecord; path: JsonPath }

function logRecords(doc: Doc): LogRecord[] {
  const out: LogRecord[] = [];
  ((doc.value as Obj).resourceLogs as unknown[]).forEach((rl, i) => {
    if (!isPlainObject(rl) || !Array.isArray(rl.scopeLogs)) return;
    rl.scopeLogs.forEach((sl, j) => {
      if (!isPlainObject(sl) || !Array.isArray(sl.logRecords)) return;
      sl.logRecords.forEach((r, k) => {
        if (!isPlainObject(r)) return;
        const path = ['resourceLogs', i, 'scopeLogs', j, 'logRecords', k];
        const event = eventFields(r, { doc, path }, (p, a) => readAttributes(doc, p, a));
        if (event) out.push({ traceId: str(r.traceId) ?? '', spanId: str(r.spanId), time: r.timeUnixNano ?? r.observedTimeUnixNano, event, path });
      });
    });
  });
  return out;
}

/** The log records of an OTLP logs export as spans: one per span id (records without one: one each), whose events
 *  are its records in order. `logs` marks them, so a trace that has the real span merges them into it. */
export function otlpLogSpans(doc: Doc): SpanRecord[] {
  const bySpan = new Map<string, SpanRecord & { list: EventRecord[] }>();
  const out: SpanRecord[] = [];
  for (const r of logRecords(doc)) {
    const key = r.spanId ? `${r.traceId}/${r.spanId}` : undefined;
    let span = key ? bySpan.get(key) : undefined;
    if (!span) {
      const list: EventRecord[] = [];
      span = { ref: { doc, path: r.path }, traceId: r.traceId, spanId: r.spanId, start: r.time, attrs: new Map(), logs: true, list, events: () => list };
      if (key) bySpan.set(key, span);
      out.push(span);
    }
    span.list.push(r.event);
  }
  return out;
}

// ---- Zipkin v2 ----------------------------------------------------------------------------------------------

function isZipkinSpan(s: unknown): s is Obj {
  return isPlainObject(s) && typeof s.traceId === 'string' && typeof s.id === 'string' && (isPlainObject(s.tags) || isPlainObject(s.localEndpoint)) && !('attributes' in s);
}

/** A Zipkin v2 span list whose tags follow the given conventions. */
export function isZipkin(v: unknown, semconv: (keys: string[]) => boolean): boolean {
  return Array.isArray(v) && v.length > 0 && v.every(isZipkinSpan) && v.some((s) => isPlainObject(s.tags) && semconv(Object.keys(s.tags)));
}

export function zipkinSpan(doc: Doc, path: JsonPath, s: unknown): SpanRecord | undefined {
  if (!isZipkinSpan(s)) return undefined;
  const tags = isPlainObject(s.tags) ? s.tags : {};
  const attrs = readAttributes(doc, [...path, 'tags'], tags);
  const status = statusName(tags['otel.status_code']);
  return {
    ref: { doc, path },
    traceId: s.traceId as string,
    spanId: s.id as string,
    parentId: str(s.parentId),
    name: str(s.name),
    start: s.timestamp,
    status: status === 'ERROR' || status === 'OK' ? status : 'error' in tags ? 'ERROR' : 'UNSET',
    statusMessage: str(tags['otel.status_description']) ?? str(tags.error),
    attrs,
  };
}

export function zipkinSpans(doc: Doc): SpanRecord[] {
  return (doc.value as unknown[]).flatMap((s, i) => zipkinSpan(doc, [i], s) ?? []);
}

// ---- Go stdouttrace -----------------------------------------------------------------------------------------

/** A span as the Go SDK's stdout exporter writes it, with attribute keys that follow the given conventions. */
export function isGoStdoutSpan(v: unknown, semconv: (keys: string[]) => boolean): v is Obj {
  return isPlainObject(v) && isPlainObject(v.SpanContext) && typeof v.Name === 'string' && Array.isArray(v.Attributes)
    && semconv(v.Attributes.map((kv) => (isPlainObject(kv) ? String(kv.Key) : '')));
}

/** `[{Key, Value: {Type, Value}}]` as attributes. */
function goAttributes(doc: Doc, path: JsonPath, list: unknown): Map<string, Attr> {
  const out = new Map<string, Attr>();
  if (!Array.isArray(list)) return out;
  list.forEach((kv, i) => {
    if (!isPlainObject(kv) || typeof kv.Key !== 'string' || !isPlainObject(kv.Value)) return;
    out.set(kv.Key, { value: kv.Value.Value, ref: { doc, path: [...path, i, 'Value', 'Value'] } });
  });
  return out;
}

export function goStdoutSpan(doc: Doc, path: JsonPath, s: Obj): SpanRecord {
  const ctx = s.SpanContext as Obj;
  const parent = isPlainObject(s.Parent) ? s.Parent : {};
  const status = isPlainObject(s.Status) ? statusName(s.Status.Code) : undefined;
  const events = Array.isArray(s.Events) ? s.Events : [];
  const parentId = str(parent.SpanID);
  return {
    ref: { doc, path },
    traceId: str(ctx.TraceID) ?? '',
    spanId: str(ctx.SpanID),
    parentId: parentId && !/^0+$/.test(parentId) ? parentId : undefined,
    name: str(s.Name),
    start: s.StartTime,
    status: status ?? 'UNSET',
    statusMessage: isPlainObject(s.Status) ? str(s.Status.Description) : undefined,
    attrs: goAttributes(doc, [...path, 'Attributes'], s.Attributes),
    events: events.length === 0 ? undefined : () => events.flatMap((e, i) => {
      if (!isPlainObject(e)) return [];
      const at = [...path, 'Events', i];
      const r = eventFields({ name: e.Name, attributes: e.Attributes }, { doc, path: at }, (_p, a) => goAttributes(doc, [...at, 'Attributes'], a));
      return r ? [r] : [];
    }),
  };
}

// ---- ClickHouse exporter rows -------------------------------------------------------------------------------

/** A row of the ClickHouse exporter's span table whose attribute keys follow the given conventions. */
export function isClickHouseRow(v: unknown, semconv: (keys: string[]) => boolean): v is Obj {
  return isPlainObject(v) && typeof v.TraceId === 'string' && typeof v.SpanId === 'string' && isPlainObject(v.SpanAttributes) && semconv(Object.keys(v.SpanAttributes));
}

/** A list of such rows, some following the conventions. */
export function isClickHouseRows(v: unknown, semconv: (keys: string[]) => boolean): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((r) => isClickHouseRow(r, () => true)) && v.some((r) => isClickHouseRow(r, semconv));
}

/** ClickHouse writes a DateTime64 as `2025-01-02 03:04:05.123456789` (UTC): as an ISO time. */
function clickHouseTime(v: unknown): unknown {
  const m = typeof v === 'string' ? /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d{1,3})?\d*$/.exec(v) : null;
  return m ? `${m[1]}T${m[2]}${m[3] ?? ''}Z` : v;
}

export function clickHouseSpan(doc: Doc, path: JsonPath, r: Obj): SpanRecord {
  const names = Array.isArray(r['Events.Name']) ? r['Events.Name'] : undefined;
  const list = Array.isArray(r.Events) ? r.Events : undefined;
  const events = (): EventRecord[] => {
    if (names) {
      const attrs = Array.isArray(r['Events.Attributes']) ? r['Events.Attributes'] : [];
      return names.flatMap((name, i) => {
        const at = [...path, 'Events.Attributes', i];
        const e = eventFields({ name, attributes: attrs[i] }, { doc, path: at }, () => readAttributes(doc, at, attrs[i]));
        return e ? [e] : [];
      });
    }
    return (list ?? []).flatMap((e, i) => {
      if (!isPlainObject(e)) return [];
      const at = [...path, 'Events', i];
      const r2 = eventFields({ name: e.Name, attributes: e.Attributes }, { doc, path: at }, (_p, a) => readAttributes(doc, [...at, 'Attributes'], a));
      return r2 ? [r2] : [];
    });
  };
  const parentId = str(r.ParentSpanId);
  return {
    ref: { doc, path },
    traceId: r.TraceId as string,
    spanId: r.SpanId as string,
    parentId: parentId === '' ? undefined : parentId,
    name: str(r.SpanName),
    start: clickHouseTime(r.Timestamp),
    status: statusName(r.StatusCode) ?? 'UNSET',
    statusMessage: str(r.StatusMessage) || undefined,
    attrs: readAttributes(doc, [...path, 'SpanAttributes'], r.SpanAttributes),
    events: (names?.length ?? list?.length ?? 0) > 0 ? events : undefined,
  };
}

// ---- platform span rows -------------------------------------------------------------------------------------

/** What a platform's span row says (Braintrust, Opik): its ids, kind, name, start, and where its input, output,
 *  error and tool definitions are. Read as a span whose attributes are the GenAI ones these stand for. */
export interface RowFields {
  traceId: string;
  spanId?: string;
  parentId?: string;
  name?: { value: string; path: JsonPath };
  start?: unknown;
  kind?: 'TOOL' | 'LLM';
  input?: JsonPath;
  output?: JsonPath;
  /** The error the row records (a message, or an object with one), and its type when named. */
  error?: { message?: string; type?: string; path: JsonPath };
  tools?: JsonPath;
}

/** A platform's span row as a span: a tool row's input and output are the execution's arguments and result, a
 *  model row's are its history and answer (message lists, `{messages}`, `{choices}`), `tools` its definitions. */
export function rowSpan(doc: Doc, path: JsonPath, row: Obj, f: RowFields): SpanRecord {
  const attrs = new Map<string, Attr>();
  const at = (p: JsonPath, value: unknown) => ({ value, ref: { doc, path: [...path, ...p] } });
  const get = (p: JsonPath): unknown => p.reduce<unknown>((v, k) => (isPlainObject(v) ? v[k as string] : Array.isArray(v) ? v[k as number] : undefined), row);
  const put = (key: string, p: JsonPath | undefined) => {
    if (p === undefined) return;
    const v = get(p);
    if (v !== undefined && v !== null) attrs.set(key, at(p, v));
  };
  if (f.kind === 'TOOL') {
    if (f.name) attrs.set('gen_ai.tool.name', at(f.name.path, f.name.value));
    put('gen_ai.tool.call.arguments', f.input);
    put('gen_ai.tool.call.result', f.output);
  } else if (f.kind === 'LLM') {
    put('gen_ai.input.messages', f.input);
    put('gen_ai.output.messages', f.output);
    put('gen_ai.tool.definitions', f.tools);
  }
  if (f.error?.type) attrs.set('error.type', at(f.error.path, f.error.type));
  return {
    ref: { doc, path },
    traceId: f.traceId,
    spanId: f.spanId,
    parentId: f.parentId,
    name: f.name?.value,
    start: f.start,
    kind: f.kind ?? 'CHAIN',
    status: f.error ? 'ERROR' : 'UNSET',
    statusMessage: f.error?.message,
    attrs,
  };
}

// ---- Phoenix / Arize span dataframes ------------------------------------------------------------------------

// `get_spans_dataframe()` / `query_spans()` rows written out as JSON records (`to_json(orient="records")`, one per
// line with `lines=True`): flat columns `context.trace_id`, `context.span_id`, `parent_id`, `name`, `span_kind`,
// `start_time`, `status_code`, `status_message`, and `attributes.<key>`, where the message lists are lists of dicts
// (`attributes.llm.output_messages: [{"message.role", "message.tool_calls": [{"tool_call.function.name", ...}]}]`)
// and missing values are null.

/** A span dataframe record whose attribute columns follow the given conventions. */
export function isDataframeRow(v: unknown, semconv: (keys: string[]) => boolean): v is Obj {
  if (!isPlainObject(v) || typeof v['context.span_id'] !== 'string' || typeof v['context.trace_id'] !== 'string') return false;
  const keys = Object.keys(v).filter((k) => k.startsWith('attributes.') && v[k] !== null).map((k) => k.slice('attributes.'.length));
  return semconv(keys);
}

/** The attribute columns as flat attributes: a list column's elements (and their nested lists) get index segments,
 *  as the exporters write them (`llm.output_messages.0.message.tool_calls.0.tool_call.function.name`). */
function dataframeAttributes(doc: Doc, path: JsonPath, row: Obj): Map<string, Attr> {
  const out = new Map<string, Attr>();
  const walk = (key: string, v: unknown, p: JsonPath, inList: boolean) => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v) && v.some(isPlainObject)) v.forEach((x, i) => walk(`${key}.${i}`, x, [...p, i], true));
    else if (inList && isPlainObject(v)) for (const [k, x] of Object.entries(v)) walk(`${key}.${k}`, x, [...p, k], true);
    else out.set(key, { value: v, ref: { doc, path: p } });
  };
  for (const [k, v] of Object.entries(row)) if (k.startsWith('attributes.')) walk(k.slice('attributes.'.length), v, [...path, k], false);
  return out;
}

export function dataframeSpan(doc: Doc, path: JsonPath, row: Obj): SpanRecord {
  const status = statusName(row.status_code);
  return {
    ref: { doc, path },
    traceId: row['context.trace_id'] as string,
    spanId: row['context.span_id'] as string,
    parentId: str(row.parent_id),
    name: str(row.name),
    start: row.start_time,
    kind: str(row.span_kind) ?? str(row['attributes.openinference.span.kind']),
    status: status ?? 'UNSET',
    statusMessage: str(row.status_message),
    attrs: dataframeAttributes(doc, path, row),
  };
}

export function isDataframe(v: unknown, semconv: (keys: string[]) => boolean): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((r) => isPlainObject(r) && typeof r['context.span_id'] === 'string') && v.some((r) => isDataframeRow(r, semconv));
}

export function dataframeSpans(doc: Doc): SpanRecord[] {
  return (doc.value as unknown[]).map((r, i) => dataframeSpan(doc, [i], r as Obj));
}
