// OTLP/protobuf for `contract-guard otlp`: the trace export messages (opentelemetry-proto's collector/trace/v1,
// trace/v1, common/v1, resource/v1; and google.rpc.Status for refusals), written as a protobufjs JSON descriptor
// from the public field numbers, decoded by protobufjs. A request comes out as OTLP JSON (the protobuf JSON
// mapping with OTLP's rules: trace and span ids in hex, 64-bit integers as decimal strings, enums as numbers), the
// form the otel reader takes, so both encodings are recorded alike.
import * as protobuf from 'protobufjs/light';

// ---- the messages ---------------------------------------------------------------------------------------------

type Fields = Record<string, { type: string; id: number; rule?: 'repeated' }>;
const msg = (fields: Fields) => ({ fields });
const many = (type: string, id: number) => ({ type, id, rule: 'repeated' as const });

const DESCRIPTOR = {
  nested: {
    otlp: {
      nested: {
        ExportTraceServiceRequest: msg({ resourceSpans: many('ResourceSpans', 1) }),
        ExportTraceServiceResponse: msg({ partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 } }),
        ExportTracePartialSuccess: msg({ rejectedSpans: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } }),
        ResourceSpans: msg({ resource: { type: 'Resource', id: 1 }, scopeSpans: many('ScopeSpans', 2), schemaUrl: { type: 'string', id: 3 } }),
        Resource: msg({ attributes: many('KeyValue', 1), droppedAttributesCount: { type: 'uint32', id: 2 } }),
        ScopeSpans: msg({ scope: { type: 'InstrumentationScope', id: 1 }, spans: many('Span', 2), schemaUrl: { type: 'string', id: 3 } }),
        InstrumentationScope: msg({ name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 }, attributes: many('KeyValue', 3), droppedAttributesCount: { type: 'uint32', id: 4 } }),
        Span: msg({
          traceId: { type: 'bytes', id: 1 }, spanId: { type: 'bytes', id: 2 }, traceState: { type: 'string', id: 3 }, parentSpanId: { type: 'bytes', id: 4 },
          flags: { type: 'fixed32', id: 16 }, name: { type: 'string', id: 5 }, kind: { type: 'int32', id: 6 },
          startTimeUnixNano: { type: 'fixed64', id: 7 }, endTimeUnixNano: { type: 'fixed64', id: 8 },
          attributes: many('KeyValue', 9), droppedAttributesCount: { type: 'uint32', id: 10 },
          events: many('Event', 11), droppedEventsCount: { type: 'uint32', id: 12 },
          links: many('Link', 13), droppedLinksCount: { type: 'uint32', id: 14 }, status: { type: 'Status', id: 15 },
        }),
        Event: msg({ timeUnixNano: { type: 'fixed64', id: 1 }, name: { type: 'string', id: 2 }, attributes: many('KeyValue', 3), droppedAttributesCount: { type: 'uint32', id: 4 } }),
        Link: msg({
          traceId: { type: 'bytes', id: 1 }, spanId: { type: 'bytes', id: 2 }, traceState: { type: 'string', id: 3 },
          attributes: many('KeyValue', 4), droppedAttributesCount: { type: 'uint32', id: 5 }, flags: { type: 'fixed32', id: 6 },
        }),
        // the span status: code 0 UNSET, 1 OK, 2 ERROR (field 1 is reserved)
        Status: msg({ message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } }),
        KeyValue: msg({ key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } }),
        // a oneof on the wire; each field is written only when set, so plain optional fields decode it
        AnyValue: msg({
          stringValue: { type: 'string', id: 1 }, boolValue: { type: 'bool', id: 2 }, intValue: { type: 'int64', id: 3 },
          doubleValue: { type: 'double', id: 4 }, arrayValue: { type: 'ArrayValue', id: 5 }, kvlistValue: { type: 'KeyValueList', id: 6 },
          bytesValue: { type: 'bytes', id: 7 },
        }),
        ArrayValue: msg({ values: many('AnyValue', 1) }),
        KeyValueList: msg({ values: many('KeyValue', 1) }),
        // google.rpc.Status, what a collector answers a refused request with
        RpcStatus: msg({ code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } }),
      },
    },
  },
};

// protobufjs reads 64-bit fields (the nanosecond times) through long.js, so they come out exact.
const root = protobuf.Root.fromJSON(DESCRIPTOR);
const REQUEST = root.lookupType('otlp.ExportTraceServiceRequest');
const RPC_STATUS = root.lookupType('otlp.RpcStatus');

// ---- decoding -------------------------------------------------------------------------------------------------

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** Ids as OTLP JSON writes them (hex), from the base64 protobufjs gives bytes as; other bytes stay base64. */
function hexIds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(hexIds);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = ID_FIELDS.has(k) && typeof x === 'string' ? Buffer.from(x, 'base64').toString('hex') : hexIds(x);
  return out;
}

/** An ExportTraceServiceRequest in protobuf as OTLP JSON; throws (a message to answer 400 with) when it is not one. */
export function decodeTraceRequest(bytes: Uint8Array): Record<string, unknown> {
  const message = REQUEST.decode(bytes);
  return hexIds(REQUEST.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false })) as Record<string, unknown>;
}

/** A google.rpc.Status in protobuf (code 3 is INVALID_ARGUMENT). */
export function encodeRpcStatus(code: number, message: string): Uint8Array {
  return RPC_STATUS.encode(RPC_STATUS.fromObject({ code, message })).finish();
}
