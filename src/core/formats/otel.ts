// OpenTelemetry GenAI traces: OTLP JSON exports (`resourceSpans`, whatever conventions their attributes follow;
// also JSONL of them, one request per line, as the Collector's file exporter writes),
// OTLP log exports (`resourceLogs`: GenAI events as log records), Zipkin v2 JSON, the Go SDK's stdout exporter's
// spans and rows of the Collector's ClickHouse exporter (span-containers.ts), Jaeger JSON exports (`{data: [{traceID, spans}]}`, attributes as `tags`), span arrays (MLflow's trace JSON
// `{info, data: {spans}}` among them) and flat attribute maps whose attributes follow the GenAI semantic conventions
// (`gen_ai.*`) or the Vercel AI SDK's, MLflow's or Google ADK's (span-conventions.ts). Each
// trace id is a session, its spans ordered by start time. The reading itself is shared (spans.ts).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { Doc } from '../parse/doc';
import type { Obj } from './util';
import { arraySpan, arraySpans, flatSpan, hasGenAi, hasOpenInference, isFlatAttributeMap, isJaeger, isOtlp, isSpanArray, isSpanObject, jaegerSpans, otlpSpans, otlpTraceIds, readTrace, readTraces, SpanLines } from './spans';
import { hasOtherConvention } from './span-conventions';
import { clickHouseSpan, goStdoutSpan, isClickHouseRow, isClickHouseRows, isGoStdoutSpan, isOtlpLogs, isZipkin, otlpLogSpans, zipkinSpans } from './span-containers';

// GenAI keys, or a convention that writes tool spans without them (Vercel AI SDK, MLflow, Google ADK)
const genAiOnly = (keys: string[]) => (hasGenAi(keys) || hasOtherConvention(keys)) && !hasOpenInference(keys);

export const otel: FormatAdapter = {
  id: 'otel',
  document: {
    claims(v) {
      if (isOtlp(v) || isOtlpLogs(v) || isJaeger(v, genAiOnly) || isZipkin(v, genAiOnly) || isGoStdoutSpan(v, genAiOnly)) return true;
      if (isClickHouseRows(v, genAiOnly) || isClickHouseRow(v, genAiOnly)) return true;
      if (isSpanArray(v, genAiOnly) && !isSpanArray(v, hasOpenInference)) return true;
      return isFlatAttributeMap(v) && genAiOnly(Object.keys(v));
    },
    read(doc, emit) {
      if (isFlatAttributeMap(doc.value)) {
        singleSession((b) => readTrace(b, [flatSpan(doc)]), emit);
        return;
      }
      const v = doc.value;
      if (isJaeger(v, genAiOnly)) readTraces(jaegerSpans(doc), emit);
      else if (isZipkin(v, genAiOnly)) readTraces(zipkinSpans(doc), emit);
      else if (isOtlpLogs(v)) readTraces(otlpLogSpans(doc), emit);
      else if (isGoStdoutSpan(v, genAiOnly)) readTraces([goStdoutSpan(doc, [], v)], emit);
      else if (isClickHouseRow(v, genAiOnly)) readTraces([clickHouseSpan(doc, [], v)], emit);
      else if (isClickHouseRows(v, genAiOnly)) readTraces((v as Obj[]).map((r, i) => clickHouseSpan(doc, [i], r)), emit);
      else readTraces(isOtlp(v) ? otlpSpans(doc) : arraySpans(doc), emit);
    },
  },
  lines: {
    claims: (v) => isOtlp(v) || isOtlpLogs(v) || isSpanObject(v, genAiOnly) || isGoStdoutSpan(v, genAiOnly) || isZipkin(v, genAiOnly) || isClickHouseRow(v, genAiOnly),
    // a row without GenAI attributes (a plain HTTP span) belongs to the file's traces all the same
    accepts: (v) => isClickHouseRow(v, () => true),
    open(sink) {
      const spans = new SpanLines(sink);
      const spansOf = (doc: Doc) => {
        const v = doc.value;
        if (isOtlpLogs(v)) return otlpLogSpans(doc);
        if (isGoStdoutSpan(v, () => true)) return [goStdoutSpan(doc, [], v)];
        if (isClickHouseRow(v, () => true)) return [clickHouseSpan(doc, [], v)];
        if (Array.isArray(v)) return zipkinSpans(doc);
        const span = isOtlp(v) ? undefined : arraySpan(doc, [], v);
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
