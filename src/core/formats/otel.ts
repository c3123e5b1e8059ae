// OpenTelemetry GenAI traces: OTLP JSON exports (`resourceSpans`, whatever conventions their attributes follow;
// also JSONL of them, one request per line, as the Collector's file exporter writes),
// span arrays and flat attribute maps whose attributes follow the GenAI semantic conventions (`gen_ai.*`). Each
// trace id is a session, its spans ordered by start time. The reading itself is shared (spans.ts).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { arraySpan, arraySpans, collectSpanLine, finishSpanLines, flatSpan, hasGenAi, hasOpenInference, isFlatAttributeMap, isOtlp, isSpanArray, isSpanObject, otlpSpans, readTrace, readTraces } from './spans';

const genAiOnly = (keys: string[]) => hasGenAi(keys) && !hasOpenInference(keys);

export const otel: FormatAdapter = {
  id: 'otel',
  claimsDocument(v) {
    if (isOtlp(v)) return true;
    if (isSpanArray(v, genAiOnly) && !isSpanArray(v, hasOpenInference)) return true;
    return isFlatAttributeMap(v) && genAiOnly(Object.keys(v));
  },
  readDocument(doc, emit) {
    if (isFlatAttributeMap(doc.value)) {
      singleSession((b) => readTrace(b, [flatSpan(doc)]), emit);
      return;
    }
    readTraces(isOtlp(doc.value) ? otlpSpans(doc) : arraySpans(doc), emit);
  },
  claimsLine(v) {
    return isOtlp(v) || isSpanObject(v, genAiOnly);
  },
  readLine(doc, state) {
    const span = isOtlp(doc.value) ? undefined : arraySpan(doc, [], doc.value);
    collectSpanLine(state.memo, span ? [span] : otlpSpans(doc));
  },
  finishLines(state) {
    finishSpanLines(state);
  },
};
