// LangGraph agent state: what a graph keeps in its `messages` channel, as the LangGraph API and checkpointers write
// it. Read: a state's values `{messages: [...]}` (`graph.get_state().values`, `/threads/{id}/state`'s `values`), a
// thread state `{values, next, checkpoint, ...}`, a thread's history (a list of states, newest first: each
// snapshot repeats the ones before it, so only the one with the most messages is read), and a checkpoint
// (`channel_values.messages`, also under `checkpoint`). The messages are LangChain's (langchain.ts): model dumps
// `{type: "ai", tool_calls: [{name, args, id}]}`, serialized `{lc, type: "constructor", kwargs}`, or
// `messages_to_dict`'s `{type, data}`; a `tool` message answers a call by `tool_call_id`, its `status: "error"`
// (ToolNode's flag for a tool that raised) is the error.
// Streams, one event per line (`graph.stream()` printed as JSONL, the API's SSE `data:` lines): `values` events are
// whole snapshots that repeat the messages before them (so are a `debug` stream's `{type: "checkpoint", step,
// payload: {values}}` events, whose `task` / `task_result` events are passed over), `updates` events (`{<node>:
// {messages}}`, or the new messages alone) and `messages` events (`{message, metadata}` / `[message, metadata]`,
// `metadata.langgraph_node`) carry new ones. Each message is read once, known by its `id` (LangGraph gives every message in state one); a
// snapshot whose first message is another one starts another conversation. Token chunks (`AIMessageChunk`) of
// `messages` events are pieces of one message (same `id`): its calls are their `tool_call_chunks` joined by
// `index` (name and id from the first piece that has them, the argument text in order), read when another message
// begins or the stream ends.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { PendingCalls } from './stream';
import { langChainFields, langChainType, readLangChainMessage, readLangChainMessages } from './langchain';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj } from './util';

/** A `messages` channel of LangChain messages with tool traffic. */
function isMessages(v: unknown): v is unknown[] {
  if (!Array.isArray(v) || v.length === 0) return false;
  // asked of every `{messages}` line of a chat JSONL: the first message that is not LangChain's ends it
  let tool = false;
  let ai = false;
  for (const m of v) {
    const t = langChainType(m);
    if (t === undefined) return false;
    tool ||= t === 'tool';
    ai ||= t === 'ai' || t === 'AIMessageChunk';
  }
  return tool && ai;
}

/** Where a value keeps its messages: the values themselves, a thread state, a checkpoint (tuple). */
function messagesAt(v: unknown): { path: JsonPath; list: unknown[] } | undefined {
  if (!isPlainObject(v)) return undefined;
  if (isMessages(v.messages)) return { path: ['messages'], list: v.messages };
  for (const key of ['values', 'channel_values']) {
    const inner = v[key];
    if (isPlainObject(inner) && isMessages(inner.messages)) return { path: [key, 'messages'], list: inner.messages };
  }
  if (isPlainObject(v.checkpoint)) {
    const c = messagesAt(v.checkpoint);
    if (c && c.path[0] === 'channel_values') return { path: ['checkpoint', ...c.path], list: c.list };
  }
  // a `debug` stream's checkpoint event: the state after a step, in its payload
  if (v.type === 'checkpoint' && isPlainObject(v.payload) && isPlainObject(v.payload.values)) {
    const c = messagesAt(v.payload);
    if (c) return { path: ['payload', ...c.path], list: c.list };
  }
  return undefined;
}

/** The other events of a `debug` stream (a task starting, its result): their messages are in the checkpoints. */
function isDebugEvent(v: unknown): boolean {
  return isPlainObject(v) && (v.type === 'task' || v.type === 'task_result') && typeof v.step === 'number' && isPlainObject(v.payload);
}

/** A thread's history: states, the fullest read. */
function fullestState(v: unknown): { index: number; at: { path: JsonPath; list: unknown[] } } | undefined {
  if (!Array.isArray(v) || v.length === 0 || !v.every((s) => isPlainObject(s) && ('values' in s || 'channel_values' in s || 'checkpoint' in s))) return undefined;
  let best: { index: number; at: { path: JsonPath; list: unknown[] } } | undefined;
  v.forEach((s, index) => {
    const at = messagesAt(s);
    if (at && (!best || at.list.length > best.at.list.length)) best = { index, at };
  });
  return best;
}


type Located = { path: JsonPath; m: unknown };

const each = (base: JsonPath, list: unknown[]): Located[] => list.map((m, i) => ({ path: [...base, i], m }));

/** The new messages an `updates` or `messages` event carries, each with its path. */
function newMessages(v: unknown): Located[] | undefined {
  if (Array.isArray(v) && v.length === 2 && isPlainObject(v[1]) && langChainType(v[0]) !== undefined && 'langgraph_node' in v[1]) return [{ path: [0], m: v[0] }];
  if (Array.isArray(v) && v.length > 0 && v.every((m) => langChainType(m) !== undefined)) return each([], v);
  if (!isPlainObject(v)) return undefined;
  if (isPlainObject(v.metadata) && 'langgraph_node' in v.metadata && langChainType(v.message) !== undefined) return [{ path: ['message'], m: v.message }];
  const keys = Object.keys(v);
  if (keys.length === 1 && isPlainObject(v[keys[0]])) {
    const update = v[keys[0]] as Obj;
    if (Array.isArray(update.messages) && update.messages.length > 0 && update.messages.every((m) => langChainType(m) !== undefined)) return each([keys[0], 'messages'], update.messages);
  }
  return undefined;
}

function carriesTools(list: Located[]): boolean {
  return list.some(({ m }) => {
    const t = langChainType(m);
    const f = langChainFields(m);
    return t === 'tool' || (t === 'ai' && f !== undefined && ((Array.isArray(f.value.tool_calls) && f.value.tool_calls.length > 0)
      || (isPlainObject(f.value.additional_kwargs) && Array.isArray(f.value.additional_kwargs.tool_calls))));
  });
}

function messageId(m: unknown): string | undefined {
  const f = langChainFields(m);
  return f ? str(f.value.id) : undefined;
}

class StreamReader {
  private readonly seen = new Set<string>();
  /** The streamed AI message being pieced together: its id, and its calls (stream.ts's PendingCalls, by index). */
  private pieces: { id: string; calls: PendingCalls; b: SessionBuilder } | undefined;
  private readonly counts = new Map<string, number>();
  private key = '';

  constructor(private readonly sink: LineSink) {}

  /** The messages not read yet: by id, else (a snapshot's messages without ids) by position. */
  private readNew(b: SessionBuilder, doc: Doc, list: Located[], from: number): void {
    list.forEach(({ path, m }, i) => {
      const id = messageId(m);
      if (langChainType(m) === 'AIMessageChunk') return this.piece(b, doc, path, m, id);
      if (id !== undefined ? this.seen.has(id) : i < from) return;
      if (id !== undefined) this.seen.add(id);
      this.flush();
      readLangChainMessage(b, doc, path, m);
    });
  }

  /** One token chunk of a streamed AI message: its tool call pieces kept until the message is whole. */
  private piece(b: SessionBuilder, doc: Doc, path: JsonPath, m: unknown, id: string | undefined): void {
    const f = langChainFields(m);
    if (!f) return;
    if (!this.pieces || this.pieces.id !== (id ?? '')) {
      this.flush();
      this.pieces = { id: id ?? '', calls: new PendingCalls(b), b };
    }
    const chunks = f.value.tool_call_chunks;
    if (!Array.isArray(chunks)) return;
    chunks.forEach((c, k) => {
      if (!isPlainObject(c)) return;
      const at = { doc, path: [...path, ...f.path, 'tool_call_chunks', k] };
      const pending = this.pieces!.calls.start(String(typeof c.index === 'number' ? c.index : k), ['name']);
      if (pending.name === undefined && str(c.name)) { pending.name = str(c.name); pending.nameAt = at; }
      pending.id ??= str(c.id) || undefined;
      if (typeof c.args === 'string') this.pieces!.calls.fragment(pending, c.args, { doc, path: [...at.path, 'args'] });
    });
  }

  /** The streamed message is whole: its calls, one turn. */
  flush(): void {
    const p = this.pieces;
    this.pieces = undefined;
    if (!p) return;
    let turn: number | undefined;
    for (const key of p.calls.keys()) p.calls.complete(key, () => (turn ??= p.b.newTurn()), 'string');
  }

  /** The conversation being read: named by its first message's id once a snapshot says it. */
  private session(): SessionBuilder {
    return this.key === '' ? this.sink.builder : this.sink.sessionFor(this.key);
  }

  read(doc: Doc): void {
    const v = doc.value;
    const snapshot = isPlainObject(v) ? messagesAt(v) : undefined;
    if (snapshot) {
      // a snapshot of another conversation: its first message is not the one this conversation began with
      const first = messageId(snapshot.list[0]) ?? '';
      if (this.counts.size === 0 || !this.counts.has(first)) this.key = first;
      const b = this.session();
      this.readNew(b, doc, each(snapshot.path, snapshot.list), this.counts.get(this.key) ?? 0);
      this.counts.set(this.key, Math.max(this.counts.get(this.key) ?? 0, snapshot.list.length));
      return;
    }
    const update = newMessages(v);
    if (update) this.readNew(this.session(), doc, update, 0);
  }
}

function claimsLine(v: unknown): boolean {
  if (isPlainObject(v) && messagesAt(v) !== undefined) return true;
  const update = newMessages(v);
  return update !== undefined && carriesTools(update);
}

/** A snapshot or an update without tool traffic: part of a stream once its other lines are claimed. */
function acceptsLine(v: unknown): boolean {
  return newMessages(v) !== undefined || isDebugEvent(v) || (isPlainObject(v) && Array.isArray(v.messages) && v.messages.every((m) => langChainType(m) !== undefined));
}

export const langgraph: FormatAdapter = {
  id: 'langgraph',
  document: {
    claims: (v) => messagesAt(v) !== undefined || fullestState(v) !== undefined,
    read(doc, emit) {
      const v = doc.value;
      const one = messagesAt(v);
      const h = one ? { index: undefined, at: one } : fullestState(v);
      if (!h) return;
      const base: JsonPath = h.index === undefined ? h.at.path : [h.index, ...h.at.path];
      singleSession((b) => readLangChainMessages(b, doc, base, h.at.list), emit);
    },
  },
  lines: {
    claims: claimsLine,
    accepts: acceptsLine,
    open: (sink: LineSink) => {
      const r = new StreamReader(sink);
      return { read: (doc: Doc) => r.read(doc), finish: () => r.flush() };
    },
  },
};
