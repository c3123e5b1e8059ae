// Cohere Chat API v2 (`/v2/chat`):
// - a response `{id, message: {role: 'assistant', tool_plan?, tool_calls?: [{id, type, function: {name, arguments
//   (JSON string)}}], content?}, finish_reason: 'TOOL_CALL' | 'COMPLETE' | ...}` (finish reasons are upper case;
//   a tool-calling message may have no `content` at all);
// - a request `{model, messages, tools: [{type: 'function', function: {name, parameters}}]}` whose messages are
//   Chat-shaped (assistant `tool_calls`, `tool` messages with `tool_call_id`), known as Cohere by an assistant's
//   `tool_plan`, a `document` part in a tool message, a Cohere-only option or a Command model; a tool message's
//   content is a string or parts, and a lone `{type: 'document', document: {data}}` part is what the tool returned;
// - the stream, JSONL (or SSE data lines) of `{type, index?, delta}` events: `message-start` (the message id),
//   `tool-plan-delta`, `tool-call-start` (`delta.message.tool_calls` is ONE call object, with the name and often
//   an empty first `arguments` fragment), `tool-call-delta` (arguments fragments, concatenated), `tool-call-end`,
//   `content-*`, `citation-*`, `message-end` (`delta.finish_reason`). `index` and `tool-call-end` may be missing:
//   a fragment then belongs to the call started last, and `message-end` completes what is open. A call that got
//   no fragment at all has no arguments (`{}`).
// Cohere Chat API v1 (`/v1/chat`, still what many SDK versions and Bedrock's Command R send):
// - a request `{message, chat_history?: [{role: 'USER' | 'CHATBOT' | 'SYSTEM' | 'TOOL', message?, tool_calls?,
//   tool_results?}], tools?: [{name, parameter_definitions: {p: {type, description, required}}}], tool_results?}`;
// - a response `{response_id | generation_id, text, tool_calls?, chat_history?, finish_reason}`, whose
//   `chat_history` (when returned) already ends with the CHATBOT turn that holds `tool_calls`.
//   A call is `{name, parameters}` (an object; no id). A result `{call: {name, parameters}, outputs: [...]}` names
//   its call again: it answers the earliest unanswered call of that name, or, when the conversation holds no such
//   call (a request that sends the results without the turn that asked for them), its `call` is read as the call.
//   `parameter_definitions` (Python type names: str, int, float, bool, List[...], Dict[...]) become JSON Schema.
// Cohere's tool messages carry no error flag. A record `{request, response}` whose response is Cohere's is one
// conversation (exchange.ts), whatever the request alone would prove.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { isChatMessage, isChatRequest, readChatMessage, readChatTools } from './openai-chat';
import { schemaType } from './python-types';
import { EventStream } from './stream';
import { exchangeParts, isExchange } from './exchange';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, unansweredByName, type Obj } from './util';

function isResponse(v: unknown): v is Obj & { message: Obj } {
  return isPlainObject(v) && isPlainObject(v.message) && v.message.role === 'assistant' && typeof v.finish_reason === 'string'
    && /^[A-Z_]+$/.test(v.finish_reason) && !('choices' in v);
}

const COHERE_OPTIONS = ['citation_options', 'safety_mode', 'strict_tools', 'documents'];

function isDocumentPart(p: unknown): boolean {
  return isPlainObject(p) && p.type === 'document' && isPlainObject(p.document);
}

function isRequest(v: unknown): v is Obj & { messages: Obj[] } {
  if (!isPlainObject(v) || !Array.isArray(v.messages) || v.messages.length === 0 || !v.messages.every(isChatMessage)) return false;
  const messages = v.messages;
  return messages.some((m) => m.role === 'assistant' && 'tool_plan' in m)
    || messages.some((m) => m.role === 'tool' && Array.isArray(m.content) && m.content.some(isDocumentPart))
    || COHERE_OPTIONS.some((k) => k in v)
    || (typeof v.model === 'string' && /^(command|c4ai-)/.test(v.model) && (Array.isArray(v.tools) || messages.some((m) => m.role === 'tool')));
}

/** What a tool message returned: a lone document's `data` (or a lone text), else the content as it is. */
function payloadOf(content: unknown): { value: unknown; path: JsonPath } {
  if (Array.isArray(content) && content.length === 1 && isPlainObject(content[0])) {
    const only = content[0];
    if (isPlainObject(only.document) && 'data' in only.document) return { value: only.document.data, path: [0, 'document', 'data'] };
  }
  return { value: content, path: [] };
}

function readRequest(b: SessionBuilder, doc: Doc, v: Obj & { messages: Obj[] }): void {
  readChatTools(b, doc, ['tools'], v.tools);
  v.messages.forEach((m, i) => {
    if (m.role !== 'tool') {
      readChatMessage(b, doc, ['messages', i], m);
      return;
    }
    const payload = payloadOf(m.content);
    b.result({ at: { doc, path: ['messages', i] }, callId: str(m.tool_call_id), payload: payload.value, payloadPath: ['content', ...payload.path] });
    b.breakTurn();
  });
}

// ---- API v1

const V1_ROLES = new Set(['USER', 'CHATBOT', 'SYSTEM', 'TOOL']);

function isV1Turn(m: unknown): m is Obj {
  return isPlainObject(m) && typeof m.role === 'string' && V1_ROLES.has(m.role);
}

function isV1Call(c: unknown): c is Obj & { name: string } {
  return isPlainObject(c) && typeof c.name === 'string' && 'parameters' in c;
}

function isV1Request(v: unknown): boolean {
  if (!isPlainObject(v) || typeof v.message !== 'string') return false;
  const history = Array.isArray(v.chat_history) ? v.chat_history : [];
  if (!history.every(isV1Turn)) return false;
  return history.some((m) => Array.isArray(m.tool_calls) || Array.isArray(m.tool_results))
    || (Array.isArray(v.tool_results) && v.tool_results.length > 0)
    || (Array.isArray(v.tools) && v.tools.some((t) => isPlainObject(t) && isPlainObject(t.parameter_definitions)));
}

function isV1Response(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.text === 'string' && ('generation_id' in v || 'response_id' in v) && !('choices' in v)
    && (Array.isArray(v.tool_calls) || (Array.isArray(v.chat_history) && v.chat_history.every(isV1Turn)));
}

/** A v1 `parameter_definitions` map as JSON Schema (a type it does not know constrains nothing). */
function v1Schema(defs: Obj): Obj {
  const properties: Obj = {};
  const required: string[] = [];
  for (const [name, d] of Object.entries(defs)) {
    if (!isPlainObject(d)) continue;
    const base = typeof d.type === 'string' ? d.type.replace(/\[.*$/, '').trim().toLowerCase() : '';
    const type = schemaType(base);
    properties[name] = { ...(type ? { type } : {}), ...(typeof d.description === 'string' ? { description: d.description } : {}) };
    if (d.required === true) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function readV1Tools(b: SessionBuilder, doc: Doc, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (isPlainObject(t) && typeof t.name === 'string') b.tool(t.name, isPlainObject(t.parameter_definitions) ? v1Schema(t.parameter_definitions) : { type: 'object' }, { doc, path: ['tools', i] });
  });
}

function readV1Calls(b: SessionBuilder, doc: Doc, path: JsonPath, calls: unknown, messageText?: string): void {
  if (!Array.isArray(calls) || !calls.some(isV1Call)) return;
  const turn = b.newTurn();
  calls.forEach((c, i) => {
    if (isV1Call(c)) b.call({ name: c.name, at: { doc, path: [...path, i] }, namePath: ['name'], argsPath: ['parameters'], args: c.parameters, expect: 'object', messageText }, turn);
  });
}

function readV1Results(b: SessionBuilder, doc: Doc, path: JsonPath, results: unknown): void {
  if (!Array.isArray(results)) return;
  results.forEach((r, i) => {
    if (!isPlainObject(r) || !isV1Call(r.call)) return;
    let index = unansweredByName(b, r.call.name);
    if (index === undefined) {
      // the result carries its call: the conversation sent here does not hold the turn that asked for it
      b.call({ name: r.call.name, at: { doc, path: [...path, i, 'call'] }, namePath: ['name'], argsPath: ['parameters'], args: r.call.parameters, expect: 'object' }, b.newTurn());
      index = b.session.calls.length - 1;
    }
    b.result({ at: { doc, path: [...path, i] }, callIndex: index, payload: r.outputs, payloadPath: ['outputs'] });
  });
  b.breakTurn();
}

function readV1History(b: SessionBuilder, doc: Doc, history: unknown): void {
  if (!Array.isArray(history)) return;
  history.forEach((m, i) => {
    if (!isV1Turn(m)) return;
    if (Array.isArray(m.tool_calls) && m.tool_calls.some(isV1Call)) readV1Calls(b, doc, ['chat_history', i, 'tool_calls'], m.tool_calls, str(m.message));
    else if (Array.isArray(m.tool_results)) readV1Results(b, doc, ['chat_history', i, 'tool_results'], m.tool_results);
    else if (m.role === 'CHATBOT') b.assistantText({ doc, path: ['chat_history', i, 'message'] }, m.message);
    else b.breakTurn();
  });
}

function readV1(b: SessionBuilder, doc: Doc, v: Obj): void {
  readV1Tools(b, doc, v.tools);
  readV1History(b, doc, v.chat_history);
  if (isV1Request(v)) {
    readV1Results(b, doc, ['tool_results'], v.tool_results);
    return;
  }
  // a response's own history already ends with the turn of its calls
  const history = Array.isArray(v.chat_history) ? v.chat_history : [];
  const last = history[history.length - 1];
  if (!(isV1Turn(last) && last.role === 'CHATBOT' && Array.isArray(last.tool_calls) && last.tool_calls.length > 0)) readV1Calls(b, doc, ['tool_calls'], v.tool_calls, str(v.text));
}

// ---- stream

const EVENTS = new Set(['message-start', 'content-start', 'content-delta', 'content-end', 'tool-plan-delta', 'tool-call-start',
  'tool-call-delta', 'tool-call-end', 'citation-start', 'citation-end', 'message-end', 'debug']);

function isEvent(v: unknown): v is Obj & { type: string } {
  if (!isPlainObject(v) || typeof v.type !== 'string' || !EVENTS.has(v.type)) return false;
  if (v.type === 'message-end') return isPlainObject(v.delta);
  if (v.type.endsWith('-end')) return Object.keys(v).every((k) => k === 'type' || k === 'index' || k === 'delta');
  return isPlainObject(v.delta) && isPlainObject(v.delta.message);
}

/** An event that is Cohere's beyond doubt (the bare `*-end` events are only accepted within a Cohere stream). */
function isTellingEvent(v: unknown): boolean {
  if (!isEvent(v)) return false;
  if (v.type === 'message-end') return isPlainObject(v.delta) && typeof v.delta.finish_reason === 'string';
  return !v.type.endsWith('-end');
}

/** The call object of a `tool-call-*` event (one object; some relays send a one-element list) and its path. */
function toolCallOf(v: Obj): { call: Obj; path: JsonPath } | undefined {
  const message = isPlainObject(v.delta) && isPlainObject(v.delta.message) ? v.delta.message : undefined;
  const calls = message?.tool_calls;
  if (isPlainObject(calls)) return { call: calls, path: ['delta', 'message', 'tool_calls'] };
  if (Array.isArray(calls) && isPlainObject(calls[0])) return { call: calls[0], path: ['delta', 'message', 'tool_calls', 0] };
  return undefined;
}

class CohereStream extends EventStream {
  private message = 0;
  private started = 0;
  /** The key of the call started last: where fragments without an index go. */
  private current?: string;

  event(doc: Doc, path: JsonPath, v: unknown): void {
    if (!isEvent(v)) return;
    switch (v.type) {
      case 'message-start':
      case 'message-end':
        this.endMessage();
        return;
      case 'tool-call-start': {
        const tc = toolCallOf(v);
        if (!tc) return;
        const key = typeof v.index === 'number' ? `${this.message}|${v.index}` : `${this.message}|#${this.started}`;
        this.started += 1;
        this.current = key;
        const p = this.calls.start(key, ['function', 'name']);
        const fn = isPlainObject(tc.call.function) ? tc.call.function : undefined;
        const callPath = [...path, ...tc.path];
        if (typeof fn?.name === 'string' && fn.name !== '' && p.name === undefined) {
          p.name = fn.name;
          p.nameAt = { doc, path: callPath };
        }
        p.id ??= str(tc.call.id);
        if (typeof fn?.arguments === 'string') this.calls.fragment(p, fn.arguments, { doc, path: [...callPath, 'function', 'arguments'] });
        return;
      }
      case 'tool-call-delta': {
        const tc = toolCallOf(v);
        const p = this.calls.get(this.keyOf(v));
        const fn = tc && isPlainObject(tc.call.function) ? tc.call.function : undefined;
        if (p && tc && typeof fn?.arguments === 'string') this.calls.fragment(p, fn.arguments, { doc, path: [...path, ...tc.path, 'function', 'arguments'] });
        return;
      }
      case 'tool-call-end':
        this.calls.complete(this.keyOf(v), () => this.turnNow());
        return;
      default:
    }
  }

  finish(): void {
    this.endMessage();
  }

  private keyOf(v: Obj): string {
    return typeof v.index === 'number' ? `${this.message}|${v.index}` : this.current ?? '';
  }

  private turnNow(): number {
    return (this.turn ??= this.b.newTurn());
  }

  private endMessage(): void {
    for (const key of this.calls.keys()) this.calls.complete(key, () => this.turnNow());
    this.message += 1;
    this.started = 0;
    this.current = undefined;
    this.turn = undefined;
  }
}

function isEventArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isEvent) && v.some(isTellingEvent);
}

export const cohere: FormatAdapter = {
  id: 'cohere',
  document: {
    claims(v) {
      return isResponse(v) || isRequest(v) || isEventArray(v) || isV1Request(v) || isV1Response(v) || isExchange(v, isChatRequest, isResponse);
    },
    read(doc, emit) {
      singleSession((b) => {
        const parts = exchangeParts(doc, isChatRequest, isResponse);
        if (parts.length > 1) {
          // a request and its response (exchange.ts): the response proves the request Cohere's
          const [request, response] = parts;
          readRequest(b, request, request.value as Obj & { messages: Obj[] });
          readChatMessage(b, response, ['message'], (response.value as Obj).message as Obj);
          return;
        }
        const v = doc.value;
        if (isResponse(v)) readChatMessage(b, doc, ['message'], v.message);
        else if (isRequest(v)) readRequest(b, doc, v);
        else if (isEventArray(v)) new CohereStream(b).readEvents(doc, [], v);
        else if (isV1Request(v) || isV1Response(v)) readV1(b, doc, v as Obj);
      }, emit);
    },
  },
  lines: {
    claims: isTellingEvent,
    accepts: isEvent,
    open: ({ builder }) => new CohereStream(builder),
  },
};
