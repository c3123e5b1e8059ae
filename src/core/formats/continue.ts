// Continue (continuedev/continue) sessions: the IDE extensions' and the `cn` CLI's `~/.continue/sessions/<id>.json`
// `{sessionId, title, workspaceDirectory, history: [ChatHistoryItem]}` (core/index.d.ts); Kiro IDE writes the same
// history under `{sessionId, title, workspacePath, history}`. An item is `{message, contextItems, toolCallStates?}`
// (older builds: one `toolCallState`). A call is an assistant message's `toolCalls[]` entry `{id, type: "function",
// function: {name, arguments}}` (arguments: the JSON string the model wrote); a state without that message's entry
// holds the call in its own `toolCall`. A state `{toolCallId, status, output: [ContextItem {name, content}]}` is the
// call's result once its status is final: `done`, `errored` (an error signal) or `canceled` (the tool never ran,
// an error too); `generating` / `generated` / `calling` never got one. A `role: "tool"` message `{content,
// toolCallId}` is the result the model was sent, read when no state answered that call.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { lonePayload } from './lone-block';
import { isPlainObject, str, textOf, type Obj } from './util';

function isItem(v: unknown): v is Obj & { message: Obj } {
  return isPlainObject(v) && isPlainObject(v.message) && typeof v.message.role === 'string';
}

function statesOf(item: Obj): { state: Obj; path: JsonPath }[] {
  if (Array.isArray(item.toolCallStates)) {
    return item.toolCallStates.flatMap((s, i) => (isPlainObject(s) ? [{ state: s, path: ['toolCallStates', i] }] : []));
  }
  return isPlainObject(item.toolCallState) ? [{ state: item.toolCallState, path: ['toolCallState'] }] : [];
}

function isSession(v: unknown): v is Obj & { history: unknown[] } {
  if (!isPlainObject(v) || !Array.isArray(v.history) || !v.history.every(isItem)) return false;
  // a session's own envelope (an empty one too: a chat opened and never used)
  if (typeof v.sessionId === 'string' && (typeof v.workspaceDirectory === 'string' || typeof v.workspacePath === 'string' || typeof v.title === 'string')) return true;
  return v.history.some((h) => isPlainObject(h) && (Array.isArray(h.contextItems) || 'toolCallStates' in h || 'toolCallState' in h));
}

const FINAL = new Set(['done', 'errored', 'canceled']);

/** One ContextItem is the payload itself (its `content`); several stay the list. */
function outputPayload(state: Obj): { value: unknown; path: JsonPath } {
  const p = lonePayload(state.output, ['content']);
  return { value: p.value, path: ['output', ...p.path] };
}

/** The call a tool-call state is about. */
function stateId(state: Obj): string | undefined {
  return str(state.toolCallId) ?? (isPlainObject(state.toolCall) ? str(state.toolCall.id) : undefined);
}

function readSession(b: SessionBuilder, doc: Doc, v: Obj & { history: unknown[] }): void {
  const answered = new Set<string>();
  v.history.forEach((h, i) => {
    if (!isItem(h)) return;
    const msg = h.message;
    const base: JsonPath = ['history', i];
    if (msg.role === 'tool') {
      const id = str(msg.toolCallId);
      if (id !== undefined && !answered.has(id)) {
        answered.add(id);
        b.result({ at: { doc, path: [...base, 'message'] }, callId: id, payload: msg.content, payloadPath: ['content'], transport: {} });
      }
      return;
    }
    if (msg.role !== 'assistant') {
      b.breakTurn();
      return;
    }
    const states = statesOf(h);
    const text = textOf(msg.content);
    let turn: number | undefined;
    const listed = new Set<string>();
    /** The call a state without an id made (paired by position). */
    const made = new Map<Obj, number>();
    if (Array.isArray(msg.toolCalls)) {
      msg.toolCalls.forEach((tc, k) => {
        if (!isPlainObject(tc) || !isPlainObject(tc.function) || typeof tc.function.name !== 'string') return;
        const id = str(tc.id);
        if (id !== undefined) listed.add(id);
        b.call({ name: tc.function.name, id, at: { doc, path: [...base, 'message', 'toolCalls', k] }, namePath: ['function', 'name'],
          argsPath: ['function', 'arguments'], args: tc.function.arguments, expect: 'string', messageText: text || undefined }, (turn ??= b.newTurn()));
      });
    }
    for (const { state, path } of states) {
      const tc = state.toolCall;
      const id = stateId(state);
      if (id !== undefined && listed.has(id)) continue;
      if (!isPlainObject(tc) || !isPlainObject(tc.function) || typeof tc.function.name !== 'string') continue;
      if (id !== undefined) listed.add(id);
      const call = b.call({ name: tc.function.name, id, at: { doc, path: [...base, ...path, 'toolCall'] }, namePath: ['function', 'name'],
        argsPath: ['function', 'arguments'], args: tc.function.arguments, expect: 'string', messageText: text || undefined }, (turn ??= b.newTurn()));
      if (id === undefined) made.set(state, call.index);
    }
    if (turn === undefined) {
      b.assistantText({ doc, path: [...base, 'message', 'content'] }, msg.content);
      return;
    }
    for (const { state, path } of states) {
      const id = stateId(state);
      const callIndex = id === undefined ? made.get(state) : undefined;
      const status = str(state.status);
      if ((id === undefined ? callIndex === undefined : answered.has(id)) || (status === undefined ? state.output === undefined : !FINAL.has(status))) continue;
      if (id !== undefined) answered.add(id);
      const payload = outputPayload(state);
      b.result({ at: { doc, path: [...base, ...path] }, callId: id, callIndex, payload: payload.value, payloadPath: payload.path,
        transport: status === undefined ? {} : { isError: status !== 'done' } });
    }
  });
}

export const continueDev: FormatAdapter = {
  id: 'continue',
  document: {
    claims: isSession,
    read(doc, emit) {
      const v = doc.value as Obj & { history: unknown[] };
      singleSession((b) => readSession(b, doc, v), emit, str(v.sessionId));
    },
  },
};
