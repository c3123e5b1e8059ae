// ToolBench (ToolLLaMA) answer files, as its inference pipeline writes them (`data/answer/G1_answer/<query
// id>_DFS_woFilter_w2.json`, `…_CoT@1.json`, and StableToolBench's): `{answer_generation: {valid_data,
// final_answer, function: [definitions], query, query_count, total_tokens, train_messages: [[messages]], chain},
// compare_candidates, forward_args, tree | trys}`. `train_messages` holds one training prefix per assistant step
// of the path that found the answer, each a list of the 0613 function-calling API's messages (an assistant
// `function_call: {name, arguments (a JSON string)}`, answered by the `role: "function"` message after it, which
// names the tool; read by the Chat reader). The last list is the whole path: it is the session (the others are its
// prefixes, not read again). A run with no valid answer keeps `train_messages: []`: no calls. An observation is the
// RapidAPI server's `{error, response}` as JSON text: a non-empty `error` is a failure. Definitions: `function`
// (`{name, description, parameters}` in JSON Schema, with ToolBench's own `optional` list beside `required`).
// The other branches the search explored (`tree`, `compare_candidates`) are not read: they are not the answer.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { isChatMessage, readChatMessage } from './openai-chat';
import { observationTransport } from './tool-tags';
import { isPlainObject, jsonValue, str, type Obj } from './util';

function answerOf(v: unknown): (Obj & { train_messages: unknown[] }) | undefined {
  if (!isPlainObject(v) || !isPlainObject(v.answer_generation)) return undefined;
  const a = v.answer_generation;
  return Array.isArray(a.train_messages) && Array.isArray(a.function) && 'valid_data' in a ? (a as Obj & { train_messages: unknown[] }) : undefined;
}

export const toolbench: FormatAdapter = {
  id: 'toolbench',
  document: {
    claims: (v) => answerOf(v) !== undefined,
    read(doc, emit) {
      const a = answerOf(doc.value);
      if (!a) return;
      singleSession((b) => {
        const fns = a.function as unknown[];
        fns.forEach((f, i) => {
          if (isPlainObject(f) && typeof f.name === 'string') b.tool(f.name, f.parameters ?? {}, { doc, path: ['answer_generation', 'function', i] });
        });
        const k = a.train_messages.length - 1;
        const path = a.train_messages[k];
        if (!Array.isArray(path)) return;
        path.forEach((m, j) => {
          if (!isChatMessage(m)) return;
          const before = b.session.results.length;
          readChatMessage(b, doc, ['answer_generation', 'train_messages', k, j], m);
          const r = b.session.results[before];
          if (r && m.role === 'function') r.transport = observationTransport(jsonValue(m.content));
        });
      }, emit, str(a.query));
    },
  },
};
