// OpenTelemetry GenAI traces: OTLP JSON exports (`resourceSpans`, whatever conventions their attributes follow;
// also JSONL of them, one request per line, as the Collector's file exporter writes),
// Jaeger JSON exports (`{data: [{traceID, spans}]}`, attributes as `tags`), span arrays and flat attribute maps whose attributes follow the GenAI semantic conventions (`gen_ai.*`). Each
// trace id is a session, its spans ordered by start time. The reading itself is shared (spans.ts).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { Doc } from '../parse/doc';
import { arraySpan, arraySpans, flatSpan, hasGenAi, hasOpenInference, isFlatAttributeMap, isJaeger, isOtlp, isSpanArray, isSpanObject, jaegerSpans, otlpSpans, otlpTraceIds, readTrace, readTraces, SpanLines } from './spans';

const genAiOnly = (keys: string[]) => hasGenAi(keys) && !hasOpenInference(keys);

export const otel: FormatAdapter = {
  id: 'otel',
  document: {
    claims(v) {
      if (isOtlp(v) || isJaeger(v, genAiOnly)) return true;
      if (isSpanArray(v, genAiOnly) && !isSpanArray(v, hasOpenInference)) return true;
      return isFlatAttributeMap(v) && genAiOnly(Object.keys(v));
    },
    read(doc, emit) {
      if (isFlatAttributeMap(doc.value)) {
        singleSession((b) => readTrace(b, [flatSpan(doc)]), emit);
        return;
      }
      if (isJaeger(doc.value, genAiOnly)) readTraces(jaegerSpans(doc), emit);
      else readTraces(isOtlp(doc.value) ? otlpSpans(doc) : arraySpans(doc), emit);
    },
  },
  lines: {
    claims: (v) => isOtlp(v) || isSpanObject(v, genAiOnly),
    open(sink) {
      const spans = new SpanLines(sink);
      const spansOf = (doc: Doc) => {
        const span = isOtlp(doc.value) ? undefined : arraySpan(doc, [], doc.value);
        return span ? [span] : otlpSpans(doc);
      };
      return {
        read: (doc) => spans.add(spansOf(doc)),
        finish: () => spans.finish(),
        // the first pass over a document read in parts: only the trace ids are needed (no span is read)
        preview: (doc) => spans.expect(isOtlp(doc.value) ? otlpTraceIds(doc) : spansOf(doc).map((s) => s.traceId)),
      };
    },
  },
};
