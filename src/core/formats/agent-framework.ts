// Microsoft Agent Framework (and Microsoft.Extensions.AI, which its .NET side uses) chat messages, as their SDKs
// serialize them: an agent response's `messages`, a thread's message store (`chat_message_store_state`,
// `storeState`, found by the engine's search below a wrapper), a saved history list, one message per JSONL line.
// - Python (`Message.to_dict()`, formerly `ChatMessage`): `{type: "message" | "chat_message", role, contents,
//   author_name, message_id}`, `role` a string (older versions: `{type: "role", value}`); a content names itself in
//   `type`: `function_call {call_id, name, arguments}` (arguments a JSON string or an object), `function_result
//   {call_id, result, exception, items?}`, `function_approval_request {id, function_call}` (a call waiting for a
//   person's approval: the same call, by `call_id`, as the one run once approved), `mcp_server_tool_call {call_id,
//   tool_name, server_name, arguments}` / `mcp_server_tool_result {call_id, output}`, `text`, `text_reasoning`, ...
// - .NET (System.Text.Json of `ChatMessage`): `{role, contents}`, a content's kind in `$type`: `functionCall
//   {callId, name, arguments}` (an object), `functionResult {callId, result, exception?}`,
//   `functionApprovalRequest {functionCall}`, `text`, ...
// A result is paired by its call id; `exception` (the message of what the function raised) is the error flag, its
// `result` then the text the model was given ("Error: Function failed."). A call's id may be met again (its approval
// request, then the call): read once.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { JsonPath } from '../parse/doc';
import { at, callOnce, isPlainObject, messageListIn, str, textOf, type Obj } from './util';
import { field } from './openai-agents';

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);
const CALLS = new Set(['function_call', 'functionCall', 'mcp_server_tool_call', 'mcpServerToolCall']);
const RESULTS = new Set(['function_result', 'functionResult', 'mcp_server_tool_result', 'mcpServerToolResult']);
const APPROVALS = new Set(['function_approval_request', 'functionApprovalRequest']);

function kindOf(c: unknown): string | undefined {
  if (!isPlainObject(c)) return undefined;
  return str(c.type) ?? str(c.$type);
}

function roleOf(m: Obj): string | undefined {
  const r = isPlainObject(m.role) ? m.role.value : m.role;
  return typeof r === 'string' && ROLES.has(r) ? r : undefined;
}

function contentsOf(m: unknown): unknown[] | undefined {
  if (!isPlainObject(m) || !Array.isArray(m.contents) || roleOf(m) === undefined) return undefined;
  if (m.type !== undefined && m.type !== 'message' && m.type !== 'chat_message') return undefined;
  return m.contents.every((c) => kindOf(c) !== undefined) ? m.contents : undefined;
}

function hasTools(m: unknown): boolean {
  return contentsOf(m)?.some((c) => { const k = kindOf(c)!; return CALLS.has(k) || RESULTS.has(k) || APPROVALS.has(k); }) ?? false;
}

function listOf(v: unknown): { list: unknown[]; path: JsonPath } | undefined {
  return messageListIn(v, (m) => contentsOf(m) !== undefined, hasTools);
}

const callIdOf = (c: Obj): string | undefined => str(field(c, 'callId', 'call_id')?.value);

function readCall(b: SessionBuilder, ref: NodeRef, c: Obj, messageText: string | undefined, turn: () => number): void {
  const nameKey = ['name', 'tool_name', 'toolName'].find((k) => str(c[k]) !== undefined);
  if (nameKey === undefined) return;
  callOnce(b, { name: c[nameKey] as string, id: callIdOf(c), at: ref, namePath: [nameKey], argsPath: ['arguments'],
    args: c.arguments ?? undefined, expect: 'any', messageText }, turn);
}

function readResult(b: SessionBuilder, ref: NodeRef, c: Obj): void {
  const id = callIdOf(c);
  const key = 'result' in c ? 'result' : 'output' in c ? 'output' : 'items';
  const exception = c.exception;
  b.result({ at: ref, callId: id, payload: c[key], payloadPath: [key],
    transport: typeof exception === 'string' && exception !== '' ? { isError: true } : {} });
}

function readMessage(b: SessionBuilder, ref: NodeRef, m: unknown): void {
  const contents = contentsOf(m);
  if (!contents) return;
  const role = roleOf(m as Obj);
  if (role === 'user' || role === 'system') {
    if (!contents.some((c) => RESULTS.has(kindOf(c)!))) {
      b.breakTurn();
      return;
    }
  }
  const messageText = textOf(contents.filter((c) => kindOf(c) === 'text'));
  let turn: number | undefined;
  const newTurn = () => (turn ??= b.newTurn());
  let results = 0;
  contents.forEach((c, i) => {
    const kind = kindOf(c);
    if (!isPlainObject(c) || kind === undefined) return;
    const cref = at(ref, 'contents', i);
    if (CALLS.has(kind)) readCall(b, cref, c, messageText, newTurn);
    else if (APPROVALS.has(kind)) {
      const f = field(c, 'functionCall', 'function_call');
      if (f && isPlainObject(f.value)) readCall(b, at(cref, f.key), f.value, messageText, newTurn);
    } else if (RESULTS.has(kind)) {
      readResult(b, cref, c);
      results++;
    }
  });
  if (turn === undefined && results === 0) b.assistantText(at(ref, 'contents'), contents);
  else if (results > 0) b.breakTurn();
}

export const agentFramework: FormatAdapter = {
  id: 'agent-framework',
  document: {
    claims: (v) => listOf(v) !== undefined,
    read(doc, emit) {
      const l = listOf(doc.value);
      if (!l) return;
      singleSession((b) => l.list.forEach((m, i) => readMessage(b, { doc, path: [...l.path, i] }, m)), emit);
    },
  },
  lines: {
    claims: hasTools,
    accepts: (v) => contentsOf(v) !== undefined,
    open(sink: LineSink) {
      return { read(doc) { readMessage(sink.builder, { doc, path: [] }, doc.value); } };
    },
  },
};
