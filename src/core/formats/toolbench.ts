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
// A run that found no answer (`valid_data: false`, no `train_messages`) still made calls: they are read from its
// search record, CoT's `trys[].chain` (a list of nodes) or DFS's `tree.tree` (nested `children`). A node is
// `{node_type: "Thought" | "Action" | "Action Input", description, observation, observation_code}`: an `Action`
// (the tool's name) followed by its `Action Input` (the arguments' JSON text, the observation its answer) is one
// call; `observation_code` 1 (no such API) or 2 (bad input) is a failure, as is an `{error, response}` with an error.
// The other branches of a run that did answer (`tree`, `compare_candidates`) are not read: they are not the answer.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isChatMessage, readChatMessage } from './openai-chat';
import { observationTransport } from './tool-tags';
import { isPlainObject, jsonValue, str, type Obj } from './util';

function answerOf(v: unknown): (Obj & { train_messages: unknown[] }) | undefined {
  if (!isPlainObject(v) || !isPlainObject(v.answer_generation)) return undefined;
  const a = v.answer_generation;
  return Array.isArray(a.train_messages) && Array.isArray(a.function) && 'valid_data' in a ? (a as Obj & { train_messages: unknown[] }) : undefined;
}

/** An `Action` node and its `Action Input` (where each is): one call, its observation the result. */
function readNodeCall(b: SessionBuilder, doc: Doc, actionAt: JsonPath, name: string, inputAt: JsonPath, input: Obj): void {
  const call = b.call({ name, at: { doc, path: actionAt }, namePath: ['description'], argsPath: [], argsAt: { doc, path: [...inputAt, 'description'] },
    args: input.description, expect: 'string' }, b.newTurn());
  if (!('observation' in input)) return;
  const code = input.observation_code;
  const failed = code === 1 || code === 2 || observationTransport(jsonValue(input.observation)).isError === true;
  b.result({ at: { doc, path: inputAt }, callIndex: call.index, payload: input.observation, payloadPath: ['observation'], transport: { isError: failed } });
}

/** The calls of a search record's nodes: a chain (each Action's input the node after it) or a tree (its children). */
function readNodes(b: SessionBuilder, doc: Doc, path: JsonPath, nodes: unknown[], depth = 0): void {
  nodes.forEach((n, i) => {
    if (!isPlainObject(n)) return;
    const at = [...path, i];
    if (n.node_type === 'Action' && typeof n.description === 'string') {
      const inputs: [JsonPath, unknown][] = Array.isArray(n.children)
        ? n.children.map((c, k) => [[...at, 'children', k], c])
        : [[[...path, i + 1], nodes[i + 1]]];
      for (const [inputAt, input] of inputs) {
        if (isPlainObject(input) && input.node_type === 'Action Input') readNodeCall(b, doc, at, n.description, inputAt, input);
      }
    }
    if (Array.isArray(n.children) && depth < 256) readNodes(b, doc, [...at, 'children'], n.children, depth + 1);
  });
}

/** A run without an answer: its attempts (`trys`) or its search tree. */
function readSearch(b: SessionBuilder, doc: Doc, v: Obj): void {
  if (Array.isArray(v.trys)) {
    v.trys.forEach((t, i) => { if (isPlainObject(t) && Array.isArray(t.chain)) readNodes(b, doc, ['trys', i, 'chain'], t.chain); });
  } else if (isPlainObject(v.tree) && isPlainObject(v.tree.tree) && Array.isArray(v.tree.tree.children)) {
    readNodes(b, doc, ['tree', 'tree', 'children'], v.tree.tree.children);
  }
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
        if (!Array.isArray(path)) {
          readSearch(b, doc, doc.value as Obj);
          return;
        }
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
