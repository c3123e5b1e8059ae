// Vercel AI SDK messages and results, as apps persist them (useChat histories, generateText results, stream parts);
// Mastra's memory stores the same messages (`mastra.ts`). Rules followed (ai/ui/ui-messages.ts, ai/prompt, the
// v4 `@ai-sdk/ui-utils` types, the v5 UI message stream protocol):
// - A UI message is `{id, role, parts}`. Its tool parts hold the call and its outcome together: v4 `{type:
//   "tool-invocation", toolInvocation: {state: "partial-call" | "call" | "result", toolCallId, toolName, args,
//   result}}` (older messages list the same in `toolInvocations`, read only when no part does); v5 `{type:
//   "tool-<name>", toolCallId, state, input, output, errorText}` or `{type: "dynamic-tool", toolName, ...}`, where
//   `output-available` is the outcome, `output-error` a failure (`errorText`) and `output-denied` a call the user
//   refused (it never ran). A `step-start` part opens the next model step.
// - A model message (`CoreMessage` v4, `ModelMessage` v5) lists `tool-call` parts `{toolCallId, toolName, args |
//   input}` in an assistant message and `tool-result` parts `{toolCallId, result | output}` in a tool message
//   (`isError`, or a v5 output `{type: "error-text" | "error-json"}`, is the failure); read by `listedMessages`.
// - A `generateText` result `{text, toolCalls, toolResults, steps, response: {messages}}`: the response messages
//   are the whole exchange; else each step's calls and results; else the top-level ones (the last step's).
// - Stream parts, one per line (`fullStream`, the v5 UI message stream as SSE): `tool-call` / `tool-input-available`
//   is a call, `tool-result` / `tool-output-available` its outcome, `tool-error` / `tool-output-error` a failure,
//   `tool-output-denied` (v6 tool approval refused) a failure without payload; deltas are not read. Mastra wraps
//   each part's fields in `payload` (`{type, runId, from, payload}`).
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { listedMessages } from './span-conventions';
import { at, callOnce, hasCallId, isPlainObject, str, waitingFor, type Obj } from './util';

const ROLES = new Set(['system', 'user', 'assistant', 'tool', 'data']);

/** The tool name of a UI message part that records a tool invocation, or undefined. */
function uiToolName(p: unknown): string | undefined {
  if (!isPlainObject(p) || typeof p.type !== 'string') return undefined;
  if (p.type === 'tool-invocation') return isPlainObject(p.toolInvocation) ? str(p.toolInvocation.toolName) : undefined;
  if (p.type === 'dynamic-tool') return str(p.toolName);
  if (p.type.startsWith('tool-') && typeof p.toolCallId === 'string' && typeof p.state === 'string') return p.type.slice(5);
  return undefined;
}

function isInvocation(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.toolName === 'string' && typeof v.state === 'string' && 'toolCallId' in v;
}

/** Whether a UI message (or a Mastra v2 content `{format: 2, parts}`) records a tool invocation. */
export function uiToolParts(m: Obj): boolean {
  return (Array.isArray(m.parts) && m.parts.some((p) => uiToolName(p) !== undefined))
    || (Array.isArray(m.toolInvocations) && m.toolInvocations.some(isInvocation));
}

function modelToolParts(m: Obj): boolean {
  return Array.isArray(m.content) && m.content.some((p) => isPlainObject(p) && (p.type === 'tool-call' || p.type === 'tool-result') && 'toolCallId' in p);
}

/** A message of the AI SDK, UI or model: a role, UI `parts` or a `content`, and none of OpenAI's `tool_calls`. */
export function isAiSdkMessage(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.role === 'string' && ROLES.has(v.role) && (Array.isArray(v.parts) || 'content' in v)
    && !('tool_calls' in v) && !('tool_call_id' in v);
}

export function carriesTools(m: Obj): boolean {
  return uiToolParts(m) || modelToolParts(m);
}

/** One tool invocation of a UI message: its call, and its outcome when it has one. */
function readInvocation(b: SessionBuilder, ref: NodeRef, name: string, inv: Obj, v5: boolean, turn: number, text: string | undefined): void {
  const id = str(inv.toolCallId);
  const argsKey = v5 ? 'input' : 'args';
  const call = b.call({ name, id, at: ref, namePath: v5 ? (inv.type === 'dynamic-tool' ? ['toolName'] : ['type']) : ['toolName'], argsPath: [argsKey], args: inv[argsKey], expect: 'object', messageText: text }, turn);
  // the outcome sits in the call's own part: without an id, it answers that call
  const answer = (key: string, isError?: boolean) => b.result({ at: ref, callId: id, callIndex: id === undefined ? call.index : undefined, payloadPath: [key], payload: inv[key],
    transport: isError === undefined ? undefined : { isError } });
  const state = inv.state;
  if (!v5) {
    if (state === 'result') answer('result');
  } else if (state === 'output-available') answer('output', false);
  else if (state === 'output-error') answer('errorText', true);
  else if (state === 'output-denied') answer('approval', true);
}

/** A UI message (`ref` at the object that holds `parts`): its tool parts, a turn per model step. */
export function readUiMessage(b: SessionBuilder, ref: NodeRef, m: Obj): void {
  if (m.role !== 'assistant') {
    b.breakTurn();
    return;
  }
  const text = typeof m.content === 'string' ? m.content : undefined;
  let turn: number | undefined;
  const parts = Array.isArray(m.parts) ? m.parts : [];
  let read = 0;
  parts.forEach((p, i) => {
    if (isPlainObject(p) && p.type === 'step-start') turn = undefined;
    const name = uiToolName(p);
    if (name === undefined || !isPlainObject(p)) return;
    turn ??= b.newTurn();
    read++;
    if (p.type === 'tool-invocation') readInvocation(b, at(ref, 'parts', i, 'toolInvocation'), name, p.toolInvocation as Obj, false, turn, text);
    else readInvocation(b, at(ref, 'parts', i), name, p, true, turn, text);
  });
  if (read === 0 && Array.isArray(m.toolInvocations)) {
    m.toolInvocations.forEach((inv, i) => {
      if (!isInvocation(inv)) return;
      turn ??= b.newTurn();
      read++;
      readInvocation(b, at(ref, 'toolInvocations', i), inv.toolName as string, inv, false, turn, text);
    });
  }
  if (read === 0) b.assistantText(at(ref, Array.isArray(m.parts) ? 'parts' : 'content'), Array.isArray(m.parts) ? m.parts : m.content);
  else b.breakTurn();
}

/** A model message's calls and results, as `listedMessages` reads their parts. */
export function readModelMessage(b: SessionBuilder, ref: NodeRef, m: Obj): void {
  const [listed] = listedMessages({ doc: ref.doc, path: ref.path, value: m });
  let turn: number | undefined;
  for (const entry of listed ?? []) {
    if ('call' in entry) {
      const c = entry.call;
      b.call({ name: c.name, id: c.id, at: c.at, namePath: c.namePath, argsPath: [], argsAt: c.argsAt, args: c.args, expect: 'object' }, (turn ??= b.newTurn()));
    } else {
      const r = entry.result;
      b.result({ at: r.at, callId: r.id, payloadPath: r.payloadPath, payload: r.payload, transport: r.isError ? { isError: true } : undefined });
    }
  }
  if (listed === undefined || listed.length === 0) {
    if (m.role === 'assistant') b.assistantText(at(ref, 'content'), m.content);
    else b.breakTurn();
  } else if (turn === undefined) b.breakTurn();
}

/** A message either way: UI parts first (a v4 UI message also keeps its text as `content`). */
export function readMessage(b: SessionBuilder, ref: NodeRef, m: Obj): void {
  if (uiToolParts(m) || (Array.isArray(m.parts) && !modelToolParts(m))) readUiMessage(b, ref, m);
  else readModelMessage(b, ref, m);
}

export function isMessageList(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isAiSdkMessage) && v.some(carriesTools);
}

// ---- results and stream parts ---------------------------------------------------------------------------------

const CALL_PARTS = new Set(['tool-call', 'tool-input-available']);
const RESULT_PARTS = new Set(['tool-result', 'tool-output-available']);
const ERROR_PARTS = new Set(['tool-error', 'tool-output-error']);
/** A call the user refused (v6 tool approval: `{type: "tool-output-denied", toolCallId}`, no payload). It never ran,
 *  yet it is a result, not an unanswered call: the UI stream turns it into the part state `output-denied` (read as
 *  a failure by `readInvocation`) and convertToModelMessages into a tool result `{type: "execution-denied"}` that
 *  the model is given. So it answers its call, as a failure. */
const DENIED_PART = 'tool-output-denied';

/** A stream part's fields and where they are (Mastra keeps them in `payload`). */
function partFields(v: unknown): { f: Obj; path: string[] } | undefined {
  if (!isPlainObject(v) || typeof v.type !== 'string') return undefined;
  if (isPlainObject(v.payload) && typeof v.payload.toolCallId === 'string') return { f: v.payload, path: ['payload'] };
  return typeof v.toolCallId === 'string' ? { f: v, path: [] } : undefined;
}

/** The stream's other part types (v4 / v5 `fullStream`, the v5 UI message stream): lines that carry no tool
 *  traffic but belong with the ones that do. Named, not any `{type}`: a line a reader accepts is no longer searched
 *  for a wrapped record or read by shape. */
const OTHER_PARTS = new Set(['start', 'finish', 'abort', 'error', 'raw', 'start-step', 'finish-step', 'step-start', 'step-finish',
  'text', 'text-start', 'text-delta', 'text-end', 'reasoning', 'reasoning-start', 'reasoning-delta', 'reasoning-end',
  'reasoning-signature', 'redacted-reasoning', 'source', 'source-url', 'source-document', 'file', 'message-metadata',
  'tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-input-error', 'tool-output-denied', 'tool-approval-request',
  'tool-call-streaming-start', 'tool-call-delta']);

function isStreamPart(v: unknown): boolean {
  if (!isPlainObject(v) || typeof v.type !== 'string' || Object.keys(v).length > 8) return false;
  return OTHER_PARTS.has(v.type) || v.type.startsWith('data-') || isToolPart(v);
}

export function isToolPart(v: unknown): boolean {
  const p = partFields(v);
  const type = isPlainObject(v) ? v.type as string : '';
  return p !== undefined && (CALL_PARTS.has(type) || RESULT_PARTS.has(type) || ERROR_PARTS.has(type));
}

/** Reads stream parts and result lists: the first sighting of a call id is the call, a result answers it once. */
export class PartReader {
  constructor(readonly b: SessionBuilder) {}

  read(ref: NodeRef, v: unknown, turn?: number): void {
    const p = partFields(v);
    if (!p || !isPlainObject(v)) return;
    const type = v.type as string;
    const f = p.f;
    const where = at(ref, ...p.path);
    const id = f.toolCallId as string;
    const name = str(f.toolName);
    const argsKey = 'input' in f ? 'input' : 'args';
    if (name !== undefined && (CALL_PARTS.has(type) || argsKey in f)) {
      callOnce(this.b, { name, id, at: where, namePath: ['toolName'], argsPath: [argsKey], args: f[argsKey], expect: 'object' }, () => turn ?? this.b.currentTurn());
    }
    if (!RESULT_PARTS.has(type) && !ERROR_PARTS.has(type) && type !== DENIED_PART) return;
    // a call answers once (a result part read again is no second answer); a result whose call is not (yet) in the
    // stream is kept: it is the orphan
    if (hasCallId(this.b, id) && !waitingFor(this.b, id)) return;
    if (type === DENIED_PART) return this.b.result({ at: where, callId: id, transport: { isError: true } });
    const key = ERROR_PARTS.has(type) ? ('errorText' in f ? 'errorText' : 'error') : 'output' in f ? 'output' : 'result';
    const out = f[key];
    const failed = ERROR_PARTS.has(type) || f.isError === true || (isPlainObject(out) && (out.type === 'error-text' || out.type === 'error-json'));
    this.b.result({ at: where, callId: id, payloadPath: [key], payload: out, transport: { isError: failed } });
  }
}

/** A generate result: `toolCalls` / `toolResults` lists, or `steps` of them, or the response's messages. */
export function isGenerateResult(v: unknown): v is Obj {
  if (!isPlainObject(v) || !('text' in v || 'finishReason' in v || 'steps' in v)) return false;
  const lists = (o: unknown) => isPlainObject(o) && ((Array.isArray(o.toolCalls) && o.toolCalls.some(isToolPart)) || (Array.isArray(o.toolResults) && o.toolResults.some(isToolPart)));
  return lists(v) || (Array.isArray(v.steps) && v.steps.some(lists)) || (isPlainObject(v.response) && isMessageList(v.response.messages));
}

export function readGenerateResult(b: SessionBuilder, ref: NodeRef, v: Obj): void {
  if (isPlainObject(v.response) && isMessageList(v.response.messages)) {
    v.response.messages.forEach((m, i) => readMessage(b, at(ref, 'response', 'messages', i), m));
    return;
  }
  const r = new PartReader(b);
  const step = (sref: NodeRef, s: Obj) => {
    const turn = b.newTurn();
    for (const key of ['toolCalls', 'toolResults']) {
      const list = s[key];
      if (Array.isArray(list)) list.forEach((p, i) => r.read(at(sref, key, i), p, turn));
    }
    b.breakTurn();
  };
  const steps = Array.isArray(v.steps) ? v.steps : [];
  if (steps.some((s) => isPlainObject(s) && Array.isArray(s.toolCalls) && s.toolCalls.length > 0)) steps.forEach((s, i) => { if (isPlainObject(s)) step(at(ref, 'steps', i), s); });
  else step(ref, v);
}

export const aiSdk: FormatAdapter = {
  id: 'ai-sdk',
  document: {
    claims: (v) => isMessageList(v) || (isAiSdkMessage(v) && uiToolParts(v)) || isGenerateResult(v),
    read(doc, emit) {
      const v = doc.value;
      const root: NodeRef = { doc, path: [] };
      if (isMessageList(v)) singleSession((b) => v.forEach((m, i) => readMessage(b, at(root, i), m)), emit);
      else if (isGenerateResult(v)) singleSession((b) => readGenerateResult(b, root, v), emit);
      else if (isPlainObject(v)) singleSession((b) => readUiMessage(b, root, v), emit);
    },
  },
  lines: {
    claims: isToolPart,
    accepts: isStreamPart,
    open(sink: LineSink) {
      const r = new PartReader(sink.builder);
      return { read(doc) { r.read({ doc, path: [] }, doc.value); } };
    },
  },
};
