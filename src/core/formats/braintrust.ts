// Braintrust logs and experiment spans, as the API's `fetch` returns them (`{events: [...]}`), BTQL (`{data}`), the
// UI's download (a JSON list) or JSONL (one row per line): `{id, span_id, root_span_id, span_parents,
// span_attributes: {name, type}, input, output, error, metadata, metrics: {start, end}, created}`. A trace is the rows
// of one `root_span_id`, in start order. A `tool` row is an execution (its `input` the arguments, its `output` the
// result, a non-empty `error` the failure); an `llm` row a model call (`input` the messages sent, `output` the
// answer: the choices of a Chat completion, or messages; `metadata.tools` the definitions). Rows of other types
// (task, function, eval, score) hold no call. Read as spans (span-containers.ts `rowSpan`, spans.ts pairing): a tool
// row answers the earliest unanswered call of its name.
import type { FormatAdapter } from './adapter';
import type { Doc, JsonPath } from '../parse/doc';
import { rowSpan } from './span-containers';
import { readTraces, SpanLines, type SpanRecord } from './spans';
import { isPlainObject, str, type Obj } from './util';

function isRow(v: unknown): v is Obj & { span_attributes: Obj } {
  return isPlainObject(v) && typeof v.span_id === 'string' && typeof v.root_span_id === 'string' && isPlainObject(v.span_attributes);
}

function rowOf(doc: Doc, path: JsonPath, r: Obj & { span_attributes: Obj }): SpanRecord {
  const type = str(r.span_attributes.type);
  const name = str(r.span_attributes.name);
  const error = r.error;
  const metrics = isPlainObject(r.metrics) ? r.metrics : {};
  return rowSpan(doc, path, r, {
    traceId: r.root_span_id as string,
    spanId: r.span_id as string,
    parentId: Array.isArray(r.span_parents) ? str(r.span_parents[0]) : undefined,
    name: name === undefined ? undefined : { value: name, path: ['span_attributes', 'name'] },
    start: metrics.start ?? r.created,
    kind: type === 'tool' ? 'TOOL' : type === 'llm' ? 'LLM' : undefined,
    input: ['input'],
    output: ['output'],
    error: error === undefined || error === null || error === '' ? undefined
      : { message: typeof error === 'string' ? error : str(isPlainObject(error) ? error.message : undefined), path: ['error'] },
    tools: ['metadata', 'tools'],
  });
}

export const braintrust: FormatAdapter = {
  id: 'braintrust',
  document: {
    claims: (v) => Array.isArray(v) && v.length > 0 && v.every(isRow),
    read(doc, emit) {
      readTraces((doc.value as unknown[]).map((r, i) => rowOf(doc, [i], r as Obj & { span_attributes: Obj })), emit);
    },
  },
  lines: {
    claims: isRow,
    open(sink) {
      const spans = new SpanLines(sink);
      return {
        read(doc) {
          if (isRow(doc.value)) spans.add([rowOf(doc, [], doc.value)]);
        },
        finish: () => spans.finish(),
      };
    },
  },
};
