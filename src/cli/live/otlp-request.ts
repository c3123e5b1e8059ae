// One OTLP trace export request, as OTLP JSON (decoded from protobuf or parsed), cut into one request per trace id:
// each becomes a line of the recording, so a trace's lines can be re-checked as its session without the others'.
// The resource and scope of each span are kept around it.

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface TraceLine {
  traceId: string;
  /** An ExportTraceServiceRequest holding only this trace's spans, as one line of JSON. */
  line: string;
  spans: number;
  /** It holds the trace's root span (no parent), which usually ends, and so is exported, last. */
  root: boolean;
}

/** Where a resource keeps its scopes: `scopeSpans`, or `instrumentationLibrarySpans` before OTLP 0.15 (JSON only). */
function scopeKey(rs: Obj): string {
  return rs.scopeSpans === undefined && rs.instrumentationLibrarySpans !== undefined ? 'instrumentationLibrarySpans' : 'scopeSpans';
}

/** Why this is not an ExportTraceServiceRequest, or undefined when it is one. */
export function requestFault(v: unknown): string | undefined {
  if (!isObj(v)) return 'the body is not a JSON object';
  if (v.resourceSpans === undefined) return undefined; // an empty request is a request
  if (!Array.isArray(v.resourceSpans)) return 'resourceSpans is not an array';
  for (const rs of v.resourceSpans) {
    if (!isObj(rs)) return 'a resourceSpans entry is not an object';
    const scopes = rs[scopeKey(rs)];
    if (scopes !== undefined && !Array.isArray(scopes)) return `${scopeKey(rs)} is not an array`;
    for (const ss of scopes ?? []) {
      if (!isObj(ss)) return 'a scopeSpans entry is not an object';
      if (ss.spans !== undefined && !Array.isArray(ss.spans)) return 'spans is not an array';
      for (const s of ss.spans ?? []) if (!isObj(s)) return 'a span is not an object';
    }
  }
  return undefined;
}

/** The request's spans grouped by trace id (in order of first appearance), each group a request of its own. */
export function splitByTrace(request: Obj): TraceLine[] {
  interface Group { resourceSpans: Obj[]; built: Map<Obj, Obj>; spans: number; root: boolean }
  const traces = new Map<string, Group>();
  for (const rs of (request.resourceSpans as Obj[] | undefined) ?? []) {
    const key = scopeKey(rs);
    const { [key]: scopes, ...resource } = rs;
    for (const ss of (scopes as Obj[] | undefined) ?? []) {
      const { spans, ...scope } = ss;
      for (const span of (spans as Obj[] | undefined) ?? []) {
        const id = typeof span.traceId === 'string' ? span.traceId : '';
        let t = traces.get(id);
        if (!t) traces.set(id, (t = { resourceSpans: [], built: new Map(), spans: 0, root: false }));
        t.spans += 1;
        if (typeof span.parentSpanId !== 'string' || span.parentSpanId === '') t.root = true;
        // the trace's copy of this resource and of this scope, made when its first span is met
        let r = t.built.get(rs);
        if (!r) {
          t.built.set(rs, (r = { ...resource, [key]: [] }));
          t.resourceSpans.push(r);
        }
        let s = t.built.get(ss);
        if (!s) {
          t.built.set(ss, (s = { ...scope, spans: [] }));
          (r[key] as Obj[]).push(s);
        }
        (s.spans as Obj[]).push(span);
      }
    }
  }
  return [...traces].map(([traceId, t]) => ({ traceId, spans: t.spans, root: t.root, line: JSON.stringify({ resourceSpans: t.resourceSpans }) }));
}
