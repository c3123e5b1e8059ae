// OpenInference spans (Arize Phoenix exports, OpenInference-instrumented apps): a JSON array of spans
// (`context.trace_id`, `span_kind`, `status_code`, flat dotted `attributes`; or OTLP spans outside a `resourceSpans`,
// attributes a typed list, as Phoenix's `/spans/otlpv1` API pages hold them), JSONL of such spans, Phoenix / Arize
// span dataframes written as JSON records (`context.span_id` and `attributes.*` columns, span-containers.ts), or a single flat
// attribute map with `openinference.span.kind` / `llm.*` / `tool.*` keys. Calls come from
// `llm.output_messages.N.message.tool_calls`,
// executions from TOOL spans (`tool.name`, `tool.id`, `input.value`, `output.value`, span status), definitions
// from `llm.tools.N.tool.json_schema`. Each trace id is a session. The reading itself is shared (spans.ts).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { arraySpan, arraySpans, flatSpan, hasOpenInference, isFlatAttributeMap, isSpanArray, isSpanObject, readTrace, readTraces, SpanLines } from './spans';
import { dataframeSpan, dataframeSpans, isDataframe, isDataframeRow } from './span-containers';

export const openinference: FormatAdapter = {
  id: 'openinference',
  document: {
    claims(v) {
      if (isSpanArray(v, hasOpenInference) || isDataframe(v, hasOpenInference)) return true;
      return isFlatAttributeMap(v) && hasOpenInference(Object.keys(v));
    },
    read(doc, emit) {
      if (!Array.isArray(doc.value)) {
        singleSession((b) => readTrace(b, [flatSpan(doc)]), emit);
        return;
      }
      readTraces(isDataframe(doc.value, hasOpenInference) ? dataframeSpans(doc) : arraySpans(doc), emit);
    },
  },
  lines: {
    claims: (v) => isSpanObject(v, hasOpenInference) || isDataframeRow(v, hasOpenInference),
    open(sink) {
      const spans = new SpanLines(sink);
      return {
        read(doc) {
          const v = doc.value;
          const span = isDataframeRow(v, () => true) ? dataframeSpan(doc, [], v) : arraySpan(doc, [], v);
          if (span) spans.add([span]);
        },
        finish: () => spans.finish(),
      };
    },
  },
};
