// Haystack 2.x chat messages, as `ChatMessage.to_dict()` writes them (haystack/dataclasses/chat_message.py): an
// agent's `messages`, a saved history, a list or one message per JSONL line.
// - A pipeline snapshot (a breakpoint's JSON file) holds the agent's messages in `agent_snapshot.component_inputs`.
// - A message is `{role, content: [part], name, meta}` (2.12 and later) or `{_role, _content, _name, _meta}`
//   (2.9-2.11, the dataclass fields as they are); a part is one key, no `type`: `text`, `tool_call`,
//   `tool_call_result`, `reasoning`, `image`, `file`. Before 2.9 `content` was a string and there were no tool parts.
// - A call is an assistant's `{tool_call: {tool_name, arguments, id, extra?}}`, its arguments an object (the JSON the
//   model sent, parsed); `id` may be null (local models). Several in one message are one turn.
// - A result is a `role: tool` message's `{tool_call_result: {result, origin, error}}`: `origin` is the call it
//   answers (a copy of its `tool_call`), paired by `origin.id`, else with the earliest call of `origin.tool_name`
//   still waiting; `error` is the error flag (ToolInvoker sets it when the tool raised). `result` is a string, or in
//   newer versions a list of text / image parts.
// - Tool definitions beside the messages (a snapshot's chat generator `tools`): `Tool.to_dict()` is `{type:
//   "haystack.tools.tool.Tool", data: {name, description, parameters}}` (a ComponentTool's too; a Toolset lists its
//   tools in `data.tools`).
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { at, isPlainObject, messageListIn, str, textOf, unansweredByName, type Obj } from './util';

const ROLES = new Set(['user', 'system', 'assistant', 'tool']);
const PART_KEYS = new Set(['text', 'tool_call', 'tool_call_result', 'reasoning', 'image', 'file']);

/** The message's role and parts, with the key that holds them (`content` or `_content`). */
function partsOf(m: unknown): { role: string; key: string; parts: unknown[] } | undefined {
  if (!isPlainObject(m)) return undefined;
  const old = '_content' in m && !('content' in m);
  const role = old ? m._role : m.role;
  const parts = old ? m._content : m.content;
  if (typeof role !== 'string' || !ROLES.has(role) || !Array.isArray(parts)) return undefined;
  return { role, key: old ? '_content' : 'content', parts };
}

/** A part of Haystack's own: an object without `type` whose one key names its kind. */
function isPart(p: unknown): p is Obj {
  if (!isPlainObject(p) || 'type' in p) return false;
  const keys = Object.keys(p);
  return keys.length === 1 && PART_KEYS.has(keys[0]);
}

function isMessage(m: unknown): boolean {
  const p = partsOf(m);
  return p !== undefined && p.parts.every(isPart);
}

function hasTools(m: unknown): boolean {
  const p = partsOf(m);
  return p !== undefined && p.parts.some((x) => isPlainObject(x) && (isPlainObject(x.tool_call) || isPlainObject(x.tool_call_result)));
}

function listOf(v: unknown): { list: unknown[]; path: JsonPath } | undefined {
  return messageListIn(v, isMessage, hasTools) ?? (isPlainObject(v) ? snapshotOf(v) : undefined);
}

/** A pipeline snapshot's agent conversation: the chat generator's `messages` input (the agent's whole state),
 *  else the tool invoker's (the message whose calls it was about to run), each `{serialization_schema,
 *  serialized_data}`. */
function snapshotOf(v: Obj): { list: unknown[]; path: JsonPath } | undefined {
  const inputs = isPlainObject(v.agent_snapshot) ? v.agent_snapshot.component_inputs : undefined;
  if (!isPlainObject(inputs)) return undefined;
  for (const component of ['chat_generator', 'tool_invoker']) {
    const c = inputs[component];
    const data = isPlainObject(c) ? c.serialized_data : undefined;
    const found = isPlainObject(data) ? listOf(data.messages) : undefined;
    if (found) return { list: found.list, path: ['agent_snapshot', 'component_inputs', component, 'serialized_data', 'messages'] };
  }
  return undefined;
}

function readMessage(b: SessionBuilder, ref: NodeRef, m: unknown): void {
  const p = partsOf(m);
  if (!p) return;
  if (p.role === 'user' || p.role === 'system') {
    b.breakTurn();
    return;
  }
  const messageText = textOf(p.parts);
  let turn: number | undefined;
  let results = 0;
  p.parts.forEach((part, i) => {
    if (!isPlainObject(part)) return;
    const pref = at(ref, p.key, i);
    const tc = part.tool_call;
    if (isPlainObject(tc) && typeof tc.tool_name === 'string') {
      b.call({ name: tc.tool_name, id: str(tc.id), at: at(pref, 'tool_call'), namePath: ['tool_name'], argsPath: ['arguments'],
        args: tc.arguments, expect: 'object', messageText }, (turn ??= b.newTurn()));
      return;
    }
    const r = part.tool_call_result;
    if (!isPlainObject(r)) return;
    const origin = isPlainObject(r.origin) ? r.origin : undefined;
    const callId = str(origin?.id);
    const name = str(origin?.tool_name);
    const callIndex = callId === undefined ? unansweredByName(b, name) : undefined;
    b.result({ at: at(pref, 'tool_call_result'), callId, callIndex, payload: r.result, payloadPath: ['result'],
      transport: typeof r.error === 'boolean' ? { isError: r.error } : {} });
    results++;
  });
  if (turn === undefined && results === 0) b.assistantText(at(ref, p.key), p.parts);
  else if (results > 0) b.breakTurn();
}

/** The tools beside the messages (a snapshot's chat generator inputs, `{messages, tools}`): `Tool.to_dict()`'s
 *  `{type, data: {name, description, parameters}}`, a Toolset's `{type, data: {tools: [...]}}`. */
function readTools(b: SessionBuilder, doc: Doc, parent: JsonPath): void {
  let v: unknown = doc.value;
  for (const k of parent) v = isPlainObject(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[k] : undefined;
  const visit = (list: unknown, path: JsonPath) => {
    if (!Array.isArray(list)) return;
    list.forEach((t, i) => {
      const data = isPlainObject(t) && typeof t.type === 'string' && t.type.startsWith('haystack') && isPlainObject(t.data) ? t.data : undefined;
      if (!data) return;
      if (Array.isArray(data.tools)) visit(data.tools, [...path, i, 'data', 'tools']);
      else if (typeof data.name === 'string' && isPlainObject(data.parameters)) b.tool(data.name, data.parameters, { doc, path: [...path, i, 'data', 'parameters'] });
    });
  };
  if (isPlainObject(v)) visit(v.tools, [...parent, 'tools']);
}

export const haystack: FormatAdapter = {
  id: 'haystack',
  document: {
    claims: (v) => listOf(v) !== undefined,
    read(doc, emit) {
      const l = listOf(doc.value);
      if (!l) return;
      singleSession((b) => {
        if (l.path.length > 0) readTools(b, doc, l.path.slice(0, -1));
        l.list.forEach((m, i) => readMessage(b, { doc, path: [...l.path, i] }, m));
      }, emit);
    },
  },
  lines: {
    claims: (v) => isMessage(v) && hasTools(v),
    accepts: isMessage,
    open(sink: LineSink) {
      return { read(doc) { readMessage(sink.builder, { doc, path: [] }, doc.value); } };
    },
  },
};
