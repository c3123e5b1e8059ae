// Ollama's native chat API (`/api/chat`; its OpenAI-compatible `/v1` endpoints are read as OpenAI Chat):
// - a response, and each line of a streamed one (NDJSON): `{model, created_at, message: {role, content,
//   tool_calls?, thinking?}, done, done_reason?}`. `message.tool_calls[]` is `{function: {name, arguments}}` with
//   `arguments` an OBJECT (this format's own encoding, not an OpenAI string); newer servers add `id` ('call_…')
//   and `function.index`. A stream sends each call whole in a `done: false` chunk; `done: true` ends the message,
//   so the calls of one message are one turn, and chunks of one call (same id or index: a repeat, or a later
//   chunk with name "" bringing the arguments) are read as one call. A call that never got a name is skipped.
// - a request `{model, messages, tools, options?, keep_alive?, think?, stream?}`: known as Ollama's (and not an
//   OpenAI request with object arguments) by a tool message's `tool_name`, an assistant call with object
//   arguments and no `type`, message `images`, or an Ollama-only option. A `tool` message answers by
//   `tool_call_id` when it has one, else by `tool_name` (the earliest unanswered call of that tool), else by
//   order. Ollama has no error flag on tool messages.
// - a record `{request, response}` of a request and its (unstreamed) response: one conversation (exchange.ts).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { isChatMessage, isChatRequest, readChatTools } from './openai-chat';
import { EventStream } from './stream';
import { exchangeParts, isExchange } from './exchange';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, textOf, unansweredByName, type Obj } from './util';

function isChunk(v: unknown): v is Obj & { message: Obj } {
  return isPlainObject(v) && typeof v.done === 'boolean' && isPlainObject(v.message)
    && (typeof v.model === 'string' || typeof v.created_at === 'string');
}

const OLLAMA_OPTIONS = ['keep_alive', 'think'];

function isOllamaCall(tc: unknown): boolean {
  return isPlainObject(tc) && !('type' in tc) && isPlainObject(tc.function) && isPlainObject(tc.function.arguments);
}

function isRequest(v: unknown): v is Obj & { messages: Obj[] } {
  if (!isPlainObject(v) || typeof v.model !== 'string' || !Array.isArray(v.messages) || v.messages.length === 0 || !v.messages.every(isChatMessage)) return false;
  const messages = v.messages;
  return messages.some((m) => m.role === 'tool' && typeof m.tool_name === 'string')
    || messages.some((m) => Array.isArray(m.tool_calls) && m.tool_calls.some(isOllamaCall))
    || messages.some((m) => Array.isArray(m.images))
    || OLLAMA_OPTIONS.some((k) => k in v) || isPlainObject(v.options);
}

function readCalls(b: SessionBuilder, doc: Doc, path: JsonPath, msg: Obj, turn: () => number): void {
  if (!Array.isArray(msg.tool_calls)) return;
  const messageText = textOf(msg.content) || undefined;
  msg.tool_calls.forEach((tc, i) => {
    if (!isPlainObject(tc) || !isPlainObject(tc.function) || typeof tc.function.name !== 'string') return;
    b.call({ name: tc.function.name, id: str(tc.id), at: { doc, path: [...path, 'tool_calls', i] }, namePath: ['function', 'name'],
      argsPath: ['function', 'arguments'], args: tc.function.arguments, expect: 'object', messageText }, turn());
  });
}

function readRequest(b: SessionBuilder, doc: Doc, v: Obj & { messages: Obj[] }): void {
  readChatTools(b, doc, ['tools'], v.tools);
  v.messages.forEach((m, i) => {
    const path = ['messages', i];
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      let turn: number | undefined;
      readCalls(b, doc, path, m, () => (turn ??= b.newTurn()));
      if (turn !== undefined) return;
    }
    if (m.role === 'assistant') {
      b.assistantText({ doc, path: [...path, 'content'] }, m.content);
      return;
    }
    if (m.role === 'tool') {
      const id = str(m.tool_call_id);
      const name = str(m.tool_name) ?? str(m.name);
      b.result({ at: { doc, path }, callId: id, callIndex: id === undefined && name !== undefined ? unansweredByName(b, name) : undefined,
        payload: m.content, payloadPath: ['content'] });
    }
    b.breakTurn();
  });
}

/** A stream's chunks (or one response). A message's calls are one turn and `done: true` ends the message; within
 *  it, chunks with the same call id or `function.index` are one call (the first name, the last arguments), so a
 *  call repeated, or named in one chunk and given its arguments in a later one with name "", is read once. */
class ChatStream extends EventStream {
  private message = 0;
  private seq = 0;
  /** Chunks of the current message so far. */
  private chunks = 0;

  event(doc: Doc, path: JsonPath, v: unknown): void {
    if (!isChunk(v)) return;
    this.chunks += 1;
    const list = v.message.tool_calls;
    // a whole message in one chunk (a response not streamed) that made no call: its text is kept
    if (v.done && this.chunks === 1 && !Array.isArray(list)) this.b.assistantText({ doc, path: [...path, 'message', 'content'] }, v.message.content);
    if (Array.isArray(list)) {
      list.forEach((tc, i) => {
        if (!isPlainObject(tc) || !isPlainObject(tc.function)) return;
        const fn = tc.function;
        const id = str(tc.id);
        const which = typeof fn.index === 'number' ? `#${fn.index}` : id ?? `@${this.seq++}`;
        const p = this.calls.start(`${this.message}|${which}`, ['function', 'name']);
        const callPath = [...path, 'message', 'tool_calls', i];
        if (typeof fn.name === 'string' && fn.name !== '' && p.name === undefined) {
          p.name = fn.name;
          p.nameAt = { doc, path: callPath };
        }
        p.id ??= id;
        if (fn.arguments !== undefined) p.whole = { value: fn.arguments, at: { doc, path: [...callPath, 'function', 'arguments'] } };
      });
    }
    if (v.done) this.endMessage();
  }

  finish(): void {
    this.endMessage();
  }

  private endMessage(): void {
    for (const key of this.calls.keys()) this.calls.complete(key, () => (this.turn ??= this.b.newTurn()), 'object');
    this.message += 1;
    this.chunks = 0;
    this.turn = undefined;
  }
}

function isChunkArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isChunk);
}

export const ollama: FormatAdapter = {
  id: 'ollama',
  document: {
    claims(v) {
      // one chunk: a response (also inside an HTTP cassette); a record of a request and its response (exchange.ts)
      return isRequest(v) || isChunk(v) || isChunkArray(v) || isExchange(v, isChatRequest, isChunk);
    },
    read(doc, emit) {
      singleSession((b) => {
        const parts = exchangeParts(doc, isChatRequest, isChunk);
        if (parts.length > 1) {
          const [request, response] = parts;
          readRequest(b, request, request.value as Obj & { messages: Obj[] });
          const s = new ChatStream(b);
          s.event(response, [], response.value);
          s.finish();
          return;
        }
        const v = doc.value;
        if (isRequest(v)) readRequest(b, doc, v);
        else {
          const s = new ChatStream(b);
          if (isChunkArray(v)) s.readEvents(doc, [], v);
          else {
            s.event(doc, [], v);
            s.finish();
          }
        }
      }, emit);
    },
  },
  lines: {
    claims: isChunk,
    open: ({ builder }) => new ChatStream(builder),
  },
};
