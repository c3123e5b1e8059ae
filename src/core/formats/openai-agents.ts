// OpenAI Agents SDK run states (a serialized `RunState`, `$schemaVersion` 1.x): `generated_items[]` wrap Responses
// items (`raw_item`) as `tool_call_item` / `tool_call_output_item`. Calls: `function_call` (JSON-string arguments,
// read by the Responses adapter's reader) and `custom_tool_call` (free-form input); results: their outputs. The
// same items are repeated in `last_model_response` and `model_responses`: those are read only when
// `generated_items` holds no calls, and each call id once.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { readCustomToolCall, readResponsesItem } from './openai-responses';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj } from './util';

const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

function isRunState(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.$schemaVersion === 'string' && Array.isArray(v.generated_items);
}

function readItems(b: SessionBuilder, doc: Doc, items: { item: Obj; path: JsonPath }[]): void {
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const { item, path } of items) {
    const id = str(item.call_id);
    if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      if (id !== undefined && called.has(id)) continue;
      if (id !== undefined) called.add(id);
      if (item.type === 'function_call') readResponsesItem(b, doc, path, item);
      else readCustomToolCall(b, doc, path, item);
    } else if (OUTPUTS.has(item.type as string)) {
      if (id !== undefined && answered.has(id)) continue;
      if (id !== undefined) answered.add(id);
      b.result({ at: { doc, path }, callId: id, payload: item.output, payloadPath: ['output'] });
      b.breakTurn();
    }
  }
}

export const openaiAgents: FormatAdapter = {
  id: 'openai-agents',
  document: {
    claims(v) {
      return isRunState(v);
    },
    read(doc, emit) {
      const v = doc.value as Obj;
      const items: { item: Obj; path: JsonPath }[] = [];
      (v.generated_items as unknown[]).forEach((g, i) => {
        if (isPlainObject(g) && isPlainObject(g.raw_item)) items.push({ item: g.raw_item, path: ['generated_items', i, 'raw_item'] });
      });
      if (!items.some(({ item }) => item.type === 'function_call' || item.type === 'custom_tool_call')) {
        const responses: { r: unknown; path: JsonPath }[] = [{ r: v.last_model_response, path: ['last_model_response'] }];
        if (Array.isArray(v.model_responses)) v.model_responses.forEach((r, i) => responses.push({ r, path: ['model_responses', i] }));
        for (const { r, path } of responses) {
          if (isPlainObject(r) && Array.isArray(r.output)) r.output.forEach((it, j) => isPlainObject(it) && items.push({ item: it, path: [...path, 'output', j] }));
        }
      }
      singleSession((b) => readItems(b, doc, items), emit);
    },
  },
};
