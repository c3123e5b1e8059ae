// LlamaIndex (Python): chat messages, chat stores and agent workflow events. Rules followed
// (llama_index/core/base/llms/types.py, storage/chat_store/simple_chat_store.py, memory/chat_memory_buffer.py,
// agent/workflow/workflow_events.py, tools/types.py):
// - A `ChatMessage` is `{role, additional_kwargs, blocks}` (older versions: `content` instead of `blocks`). An
//   assistant's calls are the provider's, kept in `additional_kwargs.tool_calls` (OpenAI `{id, function: {name,
//   arguments}}`, arguments as the model wrote them; Anthropic `{id, name, input, type: "tool_use"}`); newer
//   versions also write them as `{block_type: "tool_call", tool_call_id, tool_name, tool_kwargs}` blocks, read
//   when `additional_kwargs` holds none (the same calls otherwise). A `tool` message answers one by
//   `additional_kwargs.tool_call_id`; its text is its `content` or its text blocks. No error flag is kept there.
// - A `SimpleChatStore` persists `{store: {<key>: [ChatMessage]}}`: one session per key; a `ChatMemoryBuffer`
//   holds one under `chat_store`.
// - Agent workflow events (`handler.stream_events()`), as dicts or in the `{__is_pydantic, value,
//   qualified_name}` envelope the workflow server writes: `ToolCall {tool_name, tool_kwargs, tool_id}` is a call,
//   `ToolCallResult` repeats it with `tool_output {content, raw_output, is_error}`: the outcome, paired by
//   `tool_id`, `is_error` the flag (set when the tool raised). `AgentOutput.tool_calls` (ToolSelection
//   `{tool_id, tool_name, tool_kwargs}`) lists the same calls earlier: the first sighting of an id is the call.
//   `AgentStream` deltas are partial and not read.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { Session } from '../model';
import { at, callOnce, isPlainObject, str, textOf, waitingFor, type Obj } from './util';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'function', 'tool', 'chatbot', 'model']);

/** A LlamaIndex ChatMessage: a role, and its `additional_kwargs` or typed `blocks`. */
function isChatMessage(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.role !== 'string' || !ROLES.has(v.role)) return false;
  const typedBlocks = Array.isArray(v.blocks) && v.blocks.every((b) => isPlainObject(b) && typeof b.block_type === 'string');
  return typedBlocks || (isPlainObject(v.additional_kwargs) && ('content' in v || Array.isArray(v.blocks)));
}

function kwargs(m: Obj): Obj {
  return isPlainObject(m.additional_kwargs) ? m.additional_kwargs : {};
}

function callBlocks(m: Obj): Obj[] {
  return Array.isArray(m.blocks) ? m.blocks.filter((b): b is Obj => isPlainObject(b) && b.block_type === 'tool_call' && typeof b.tool_name === 'string') : [];
}

function kwargCalls(m: Obj): unknown[] {
  const k = kwargs(m);
  return Array.isArray(k.tool_calls) ? k.tool_calls : [];
}

function carriesTools(m: Obj): boolean {
  return m.role === 'tool' || kwargCalls(m).length > 0 || callBlocks(m).length > 0;
}

function isMessageList(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isChatMessage) && v.some(carriesTools);
}

/** The `store` of a SimpleChatStore (`{key: [ChatMessage]}`), itself or inside a ChatMemoryBuffer. */
function storeOf(v: unknown): { path: string[]; store: Obj } | undefined {
  if (!isPlainObject(v)) return undefined;
  // a store is LlamaIndex's beyond doubt even when no tool was called (typed messages under keys)
  const holds = (s: unknown): s is Obj => isPlainObject(s) && Object.values(s).some((l) => Array.isArray(l) && l.length > 0)
    && Object.values(s).every((l) => Array.isArray(l) && l.every(isChatMessage));
  if (holds(v.store)) return { path: ['store'], store: v.store };
  if (isPlainObject(v.chat_store) && holds(v.chat_store.store)) return { path: ['chat_store', 'store'], store: v.chat_store.store };
  return undefined;
}

/** A message's text: its text blocks; without any (`blocks: []`, a message whose content is None, or only other
 *  blocks), the older `content` field when the message has one. */
function messageText(m: Obj): string | undefined {
  const blocks = Array.isArray(m.blocks) ? textOf(m.blocks.filter((b) => isPlainObject(b) && b.block_type === 'text')) : undefined;
  return blocks ?? textOf(m.content);
}

function readMessage(b: SessionBuilder, ref: NodeRef, m: Obj): void {
  if (m.role === 'tool' || m.role === 'function') {
    const k = kwargs(m);
    const callId = str(k.tool_call_id) ?? str(m.tool_call_id);
    const own = 'content' in m;
    b.result({ at: ref, callId, payloadPath: [own ? 'content' : 'blocks'], payload: own ? m.content : messageText(m) });
    return;
  }
  if (m.role !== 'assistant' && m.role !== 'model' && m.role !== 'chatbot') {
    b.breakTurn();
    return;
  }
  const text = messageText(m);
  let turn: number | undefined;
  const listed = kwargCalls(m);
  listed.forEach((tc, i) => {
    if (!isPlainObject(tc)) return;
    const fn = isPlainObject(tc.function) ? tc.function : undefined;
    const name = fn ? str(fn.name) : str(tc.name);
    if (name === undefined) return;
    const where = at(ref, 'additional_kwargs', 'tool_calls', i);
    if (fn) b.call({ name, id: str(tc.id), at: where, namePath: ['function', 'name'], argsPath: ['function', 'arguments'], args: fn.arguments, expect: 'any', messageText: text }, (turn ??= b.newTurn()));
    else b.call({ name, id: str(tc.id), at: where, namePath: ['name'], argsPath: ['input'], args: tc.input, expect: 'object', messageText: text }, (turn ??= b.newTurn()));
  });
  if (turn === undefined && Array.isArray(m.blocks)) {
    m.blocks.forEach((blk, i) => {
      if (!isPlainObject(blk) || blk.block_type !== 'tool_call' || typeof blk.tool_name !== 'string') return;
      b.call({ name: blk.tool_name, id: str(blk.tool_call_id), at: at(ref, 'blocks', i), namePath: ['tool_name'], argsPath: ['tool_kwargs'], args: blk.tool_kwargs, expect: 'any', messageText: text }, (turn ??= b.newTurn()));
    });
  }
  if (turn === undefined) b.assistantText(at(ref, 'content' in m ? 'content' : 'blocks'), text ?? '');
}

function readMessages(b: SessionBuilder, ref: NodeRef, list: unknown[]): void {
  list.forEach((m, i) => { if (isChatMessage(m)) readMessage(b, at(ref, i), m); });
}

// ---- workflow events ------------------------------------------------------------------------------------------

const EVENT_NAMES = new Set(['ToolCall', 'ToolCallResult', 'AgentOutput', 'AgentInput', 'AgentStream', 'AgentSetup', 'StartEvent', 'StopEvent', 'InputRequiredEvent', 'HumanResponseEvent']);

/** An event as its fields, with the path to them: a bare dict, or the `{value, qualified_name}` envelope. */
function eventFields(v: unknown): { e: Obj; path: string[]; kind?: string } | undefined {
  if (!isPlainObject(v)) return undefined;
  if (isPlainObject(v.value) && (typeof v.qualified_name === 'string' || v.__is_pydantic !== undefined)) {
    const q = str(v.qualified_name) ?? '';
    const kind = q.slice(q.lastIndexOf('.') + 1);
    return { e: v.value, path: ['value'], kind: EVENT_NAMES.has(kind) ? kind : str(v.type) };
  }
  return { e: v, path: [] };
}

function isToolEvent(e: Obj): boolean {
  return typeof e.tool_name === 'string' && 'tool_kwargs' in e && 'tool_id' in e;
}

function isToolOutput(v: unknown): v is Obj {
  return isPlainObject(v) && ('raw_output' in v || 'is_error' in v || 'content' in v) && ('tool_name' in v || 'raw_input' in v || 'is_error' in v);
}

/** A workflow event that carries a tool call or its result. */
function isToolCallEvent(v: unknown): boolean {
  const f = eventFields(v);
  return f !== undefined && isToolEvent(f.e) && (f.path.length > 0 || 'tool_output' in f.e || Object.keys(f.e).length <= 4);
}

/** An envelope LlamaIndex's serializer wrote (`__is_pydantic`, a `llama_index.` / `workflows.` class or a known
 *  event's name), not any `{value, qualified_name}`. */
function isOwnEnvelope(v: Obj): boolean {
  const q = str(v.qualified_name) ?? '';
  return v.__is_pydantic !== undefined || /^(?:llama_index|workflows)\./.test(q) || EVENT_NAMES.has(q.slice(q.lastIndexOf('.') + 1));
}

/** Any workflow event this reader knows (its envelope, or an agent's output / input / stream event). */
function isWorkflowEvent(v: unknown): boolean {
  const f = eventFields(v);
  if (!f) return false;
  if (f.path.length > 0) return isOwnEnvelope(v as Obj);
  return isToolEvent(f.e) || (typeof f.e.current_agent_name === 'string' && ('response' in f.e || 'input' in f.e || 'delta' in f.e));
}

function isEventList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isWorkflowEvent) && v.some(isToolCallEvent);
}

class EventReader {
  constructor(readonly b: SessionBuilder) {}

  /** The first sighting of a tool id is the call (AgentOutput lists it, ToolCall and ToolCallResult repeat it). */
  private call(ref: NodeRef, e: Obj, namePath: string[], argsPath: string[], turn: () => number): void {
    callOnce(this.b, { name: e.tool_name as string, id: str(e.tool_id), at: ref, namePath, argsPath, args: e.tool_kwargs, expect: 'object' }, turn);
  }

  read(ref: NodeRef, v: unknown): void {
    const f = eventFields(v);
    if (!f) return;
    const e = f.e;
    const where = at(ref, ...f.path);
    if (isToolEvent(e)) {
      let turn: number | undefined;
      this.call(where, e, ['tool_name'], ['tool_kwargs'], () => (turn ??= this.b.currentTurn()));
      if (isToolOutput(e.tool_output)) {
        const out = e.tool_output;
        const id = str(e.tool_id);
        const key = out.raw_output !== undefined && out.raw_output !== null ? 'raw_output' : 'content';
        // answer the call once: a result event read twice (a log and its copy) is not a second answer
        if (id === undefined || waitingFor(this.b, id)) {
          this.b.result({ at: at(where, 'tool_output'), callId: id, payloadPath: [key], payload: out[key], transport: typeof out.is_error === 'boolean' ? { isError: out.is_error } : undefined });
        }
      }
      return;
    }
    // an agent's output lists the calls it is about to make
    if (Array.isArray(e.tool_calls) && 'response' in e && !('delta' in e)) {
      const turn = this.b.newTurn();
      e.tool_calls.forEach((tc, i) => {
        if (isPlainObject(tc) && typeof tc.tool_name === 'string') this.call(at(where, 'tool_calls', i), tc, ['tool_name'], ['tool_kwargs'], () => turn);
      });
      if (e.tool_calls.length === 0) this.b.breakTurn();
    } else if ('input' in e && !('delta' in e)) this.b.breakTurn();
  }
}

function readEvents(b: SessionBuilder, ref: NodeRef, list: unknown[]): void {
  const r = new EventReader(b);
  list.forEach((v, i) => r.read(at(ref, i), v));
}

export const llamaIndex: FormatAdapter = {
  id: 'llamaindex',
  document: {
    claims: (v) => isMessageList(v) || storeOf(v) !== undefined || isEventList(v),
    read(doc, emit: (s: Session) => void) {
      const v = doc.value;
      const root: NodeRef = { doc, path: [] };
      if (isMessageList(v)) return singleSession((b) => readMessages(b, root, v), emit);
      if (isEventList(v)) return singleSession((b) => readEvents(b, root, v), emit);
      const s = storeOf(v);
      if (!s) return;
      for (const [key, list] of Object.entries(s.store)) {
        if (Array.isArray(list) && list.length > 0) singleSession((b) => readMessages(b, at(root, ...s.path, key), list), emit, key);
      }
    },
  },
  lines: {
    claims: isToolCallEvent,
    accepts: isWorkflowEvent,
    open(sink: LineSink) {
      const r = new EventReader(sink.builder);
      return { read(doc) { r.read({ doc, path: [] }, doc.value); } };
    },
  },
};
