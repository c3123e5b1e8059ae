// Comet Opik spans, as the REST API pages them (`{content: [...], page, size, total}`), the SDK's `search_spans`
// dumps (a JSON list) or JSONL: `{id, trace_id, parent_span_id, name, type: "general" | "tool" | "llm" |
// "guardrail", start_time, end_time, input, output, metadata, model, provider, error_info: {exception_type, message,
// traceback}}`. A trace is the spans of one `trace_id`, in start order. A `tool` span is an execution (`input` the
// arguments by name, `output` the result: `{output: X}` when the function returned a non-dict), `error_info` its
// failure; an `llm` span a model call (`input` the request: `{messages, tools}`, `output` the response: a Chat
// completion's `choices`, or messages). Read as spans (span-containers.ts `rowSpan`, spans.ts pairing): a tool
// span answers the earliest unanswered call of its name.
import type { FormatAdapter } from './adapter';
import type { Doc, JsonPath } from '../parse/doc';
import { rowSpan } from './span-containers';
import { readTraces, SpanLines, type SpanRecord } from './spans';
import { isPlainObject, str, type Obj } from './util';

const TYPES = new Set(['general', 'tool', 'llm', 'guardrail']);

function isSpan(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.id === 'string' && typeof v.trace_id === 'string' && typeof v.type === 'string' && TYPES.has(v.type)
    && 'start_time' in v && ('input' in v || 'output' in v);
}

function spanOf(doc: Doc, path: JsonPath, s: Obj): SpanRecord {
  const err = isPlainObject(s.error_info) ? s.error_info : undefined;
  const name = str(s.name);
  return rowSpan(doc, path, s, {
    traceId: s.trace_id as string,
    spanId: s.id as string,
    parentId: str(s.parent_span_id),
    name: name === undefined ? undefined : { value: name, path: ['name'] },
    start: s.start_time,
    kind: s.type === 'tool' ? 'TOOL' : s.type === 'llm' ? 'LLM' : undefined,
    input: ['input'],
    output: ['output'],
    error: err ? { message: str(err.message), type: str(err.exception_type), path: ['error_info'] } : undefined,
    tools: ['input', 'tools'],
  });
}

export const opik: FormatAdapter = {
  id: 'opik',
  document: {
    claims: (v) => Array.isArray(v) && v.length > 0 && v.every(isSpan),
    read(doc, emit) {
      readTraces((doc.value as unknown[]).map((s, i) => spanOf(doc, [i], s as Obj)), emit);
    },
  },
  lines: {
    claims: isSpan,
    open(sink) {
      const spans = new SpanLines(sink);
      return {
        read(doc) {
          if (isSpan(doc.value)) spans.add([spanOf(doc, [], doc.value)]);
        },
        finish: () => spans.finish(),
      };
    },
  },
};
