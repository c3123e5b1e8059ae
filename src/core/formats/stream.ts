// Streamed model output, assembled into calls:
// - OpenAI Chat completion chunks (`chat.completion.chunk`): tool calls grow from `delta.tool_calls[]` fragments
//   merged by `index` (also chunks that leave `object` out, and DashScope's own stream, whose
//   `output.choices[].message` is the delta and whose `finish_reason` is "null" until the end); the first
//   non-empty `id` and `name` win (an empty-string `id` in a later chunk does not
//   overwrite the real one); arguments are the concatenated fragments.
//   A provider that resends the call (the whole arguments again, a final chunk repeating the calls, arguments so
//   far resent with more) is read once; a new id under an index already used is another call. The legacy
//   `delta.function_call` (name, then argument fragments) is the message's one call. Groq's
//   `delta.executed_tools` (server-side tools, sent with their arguments and again with their output) are calls
//   with their results (openai-chat.ts `ExecutedTools`).
// - OpenAI Responses streaming events (`response.output_item.added/done`, `response.function_call_arguments.*`,
//   `response.custom_tool_call_input.*`): every item (calls, hosted calls with their outcome, messages) is read
//   from `output_item.done`, or from the final `response.completed`/`incomplete`/`failed` when no done event
//   came, once: the final response repeats the items. `response.created` carries the definitions (`tools`).
//   Servers that speak the API (and early streams) may leave `sequence_number` out: the event names then say it.
// - OpenAI Realtime API events (a realtime or voice agent's event log; server events carry `event_id`, not a
//   `sequence_number`): the Responses names for the model's calls (`response.output_item.*`,
//   `response.function_call_arguments.*`), `response.done` for `response.completed`; definitions in
//   `session.update`/`session.created`/`session.updated` (`session.tools`, one per name); results are the
//   `function_call_output` items the client sends (`conversation.item.create`) or the server echoes
//   (`conversation.item.created`/`added`/`done`), read once per `call_id`; a `function_call` item the client
//   creates (history it injects) is a call unless the model's own events brought that `call_id` already.
// - Anthropic Messages SSE events: `content_block_start` opens a `tool_use` (`server_tool_use`, `mcp_tool_use`)
//   block, `input_json_delta` fragments (`partial_json`) are concatenated, `content_block_stop` completes it; a
//   server tool's result block arrives whole in its `content_block_start` (one for a server tool called in an
//   earlier response of the turn answers a call made outside the stream).
// A call's name points at the chunk that named it; its arguments at the chunk that completed them (when they came
// in one piece, findings point inside them as usual). JSONL of events, a JSON array of them, or SSE text (through
// the HTTP cassette adapter) are all read by the same assembler.
import type { FormatAdapter, LineReader } from './adapter';
import { singleSession } from './adapter';
import type { ArgsExpectation, NodeRef, SessionBuilder } from './builder';
import { ItemLifecycle } from './item-lifecycle';
import { makesCall, readResponsesItem, readResponsesTools } from './openai-responses';
import { isAnthropicRequest, isCallBlock, isResultBlock, readAnthropicDocument, readAnthropicResult } from './anthropic';
import { ExecutedTools, isChatRequest, readChatDocument } from './openai-chat';
import { exchangeParts, isExchange } from './exchange';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, markCallsElsewhere, str, type Obj, keyText } from './util';

const ANTHROPIC_EVENTS = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping']);

export function isChatChunk(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  if (v.object === 'chat.completion.chunk') return Array.isArray(v.choices);
  // servers that leave `object` out: every choice is a `delta`, none a whole `message`
  if (v.object === undefined && Array.isArray(v.choices) && v.choices.length > 0) return v.choices.every((c) => isPlainObject(c) && isPlainObject(c.delta) && !('message' in c));
  return isDashScopeChunk(v);
}

/** A chunk of DashScope's own streaming API (Qwen, not its OpenAI-compatible mode): `{output: {choices: [{message,
 *  finish_reason}]}, request_id}`, the message a fragment (`incremental_output`) or all so far (resent, read once). */
function isDashScopeChunk(v: unknown): v is Obj & { request_id: string; output: { choices: unknown[] } } {
  return isPlainObject(v) && typeof v.request_id === 'string' && isPlainObject(v.output) && Array.isArray(v.output.choices)
    && v.output.choices.length > 0 && v.output.choices.every((c) => isPlainObject(c) && isPlainObject(c.message));
}

/** The Responses stream events that say what the model called; servers that speak the API (and its early
 *  streams) may leave `sequence_number` out. */
const RESPONSES_EVENTS = new Set(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done',
  'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.custom_tool_call_input.delta',
  'response.custom_tool_call_input.done', 'response.completed', 'response.incomplete', 'response.failed']);

export function isResponsesEvent(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.type !== 'string' || !v.type.startsWith('response.')) return false;
  if (typeof v.sequence_number === 'number') return true;
  // without it: a Responses event name and its payload, and no Realtime `event_id`
  return RESPONSES_EVENTS.has(v.type) && !('event_id' in v) && (isPlainObject(v.item) || isPlainObject(v.response) || typeof v.item_id === 'string');
}

export function isAnthropicEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && ANTHROPIC_EVENTS.has(v.type) && v.type !== 'ping';
}

const REALTIME_EVENTS = new Set(['session.created', 'session.updated', 'session.update', 'response.created', 'response.done',
  'response.output_item.added', 'response.output_item.done', 'response.function_call_arguments.delta', 'response.function_call_arguments.done',
  'conversation.item.create', 'conversation.item.created', 'conversation.item.added', 'conversation.item.done', 'conversation.item.retrieved']);

/** A Realtime API event this reader uses: a server event (`event_id`), or a client event by what it carries. */
export function isRealtimeEvent(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.type !== 'string' || !REALTIME_EVENTS.has(v.type) || 'sequence_number' in v) return false;
  if (v.type.startsWith('conversation.item.')) return isPlainObject(v.item);
  if (v.type.startsWith('session.')) return isPlainObject(v.session);
  return typeof v.event_id === 'string';
}

export function isStreamEvent(v: unknown): v is Obj {
  return isChatChunk(v) || isResponsesEvent(v) || isAnthropicEvent(v) || isRealtimeEvent(v);
}

/** A call whose parts are still arriving. */
export interface Pending {
  id?: string;
  name?: string;
  nameAt?: NodeRef;
  namePath: JsonPath;
  /** The arguments text so far, and how many non-empty fragments made it. */
  text: string;
  pieces: number;
  /** The node of the fragment that completed the arguments so far. */
  argsAt?: NodeRef;
  /** Arguments given whole (an Anthropic block's `input` object before any delta), and how the format sends
   *  them when not its own way (a Chat chunk's arguments are a string: an object there is reported). */
  whole?: { value: unknown; at: NodeRef; expect?: ArgsExpectation };
  /** Free-form text input (a custom tool's): kept as text, never read as JSON. */
  freeform?: boolean;
  /** Where a scan of the text as JSON stands: nesting depth, inside a string, after a backslash; `closed` once
   *  the text is one complete JSON object or array. */
  scan: { depth: number; inString: boolean; escaped: boolean; closed: boolean };
}

/** Scan `text` on from where `p.scan` stands: is the arguments text one complete JSON object or array yet? */
function scanJson(p: Pending, text: string): void {
  const s = p.scan;
  for (let i = 0; i < text.length && !s.closed && s.depth >= 0; i++) {
    const c = text.charCodeAt(i);
    if (s.inString) {
      if (s.escaped) s.escaped = false;
      else if (c === 92) s.escaped = true; // backslash
      else if (c === 34) s.inString = false; // quote
    } else if (c === 34) s.inString = true;
    else if (c === 123 || c === 91) s.depth++; // { [
    else if (c === 125 || c === 93) { // } ]
      if (s.depth > 0 && --s.depth === 0) s.closed = true;
      else if (s.depth === 0) s.depth = -1;
    } else if (s.depth === 0 && c > 32) s.depth = -1; // text before any bracket: not JSON, never "complete"
  }
}

/** Calls being assembled from streamed fragments, under keys the stream chooses (message|block). The one home of
 *  how fragments become a call: the chunk that named the tool is the call, the fragments are concatenated (an
 *  empty fragment adds nothing: a call without arguments streams ""), arguments given whole count when no fragment
 *  came. Copies are not concatenated: once the text is one complete JSON value, later fragments repeat it (some
 *  providers resend the whole call in a final chunk) and are dropped; a fragment that starts with the whole text
 *  so far is a cumulative resend and replaces it. Used by StreamAssembler and by the stream readers of other
 *  providers (Bedrock, Cohere, Ollama). */
export class PendingCalls {
  private readonly open = new Map<string, Pending>();

  constructor(private readonly b: SessionBuilder) {}

  /** The call open under `key`, opened when new. */
  start(key: string, namePath: JsonPath): Pending {
    let p = this.open.get(key);
    if (!p) this.open.set(key, (p = { namePath, text: '', pieces: 0, scan: { depth: 0, inString: false, escaped: false, closed: false } }));
    return p;
  }

  get(key: string): Pending | undefined {
    return this.open.get(key);
  }

  /** Forget the call open under `key` (a stream item written out whole by other means). */
  drop(key: string): void {
    this.open.delete(key);
  }

  keys(): string[] {
    return [...this.open.keys()];
  }

  /** Add an arguments fragment found at `at`. */
  fragment(p: Pending, text: string, at: NodeRef): void {
    if (text === '') return;
    if (!p.freeform && p.scan.closed) return; // the arguments are complete: a repeat of them
    if (!p.freeform && p.text !== '' && text.length >= p.text.length && text.startsWith(p.text)) {
      // the arguments so far, resent with more: the fragment holds them whole
      p.text = text;
      p.pieces = 1;
      p.scan = { depth: 0, inString: false, escaped: false, closed: false };
    } else {
      p.text += text;
      p.pieces++;
    }
    if (!p.freeform) scanJson(p, p.pieces === 1 ? p.text : text);
    p.argsAt = at;
  }

  /** The arguments given whole by the event that ends them (`arguments.done`), at `at`. */
  replace(p: Pending, text: string, at: NodeRef): void {
    p.text = text;
    p.pieces = 1;
    p.argsAt = at;
  }

  /** Write out the call open under `key`; `turn` is asked only when there is a call to write. `expect`: how the
   *  format sends arguments given whole (fragments are always text). */
  complete(key: string, turn: () => number, expect: ArgsExpectation = 'any'): void {
    const p = this.open.get(key);
    this.open.delete(key);
    if (!p || p.name === undefined || !p.nameAt) return;
    const whole = p.pieces === 0 ? p.whole : undefined;
    this.b.call({
      name: p.name,
      id: p.id,
      at: p.nameAt,
      namePath: p.namePath,
      argsPath: [],
      argsAt: whole ? whole.at : p.argsAt ?? p.nameAt,
      args: whole ? whole.value : p.text,
      expect: whole ? whole.expect ?? expect : 'any',
      assembled: !whole && p.pieces > 1,
      freeform: p.freeform,
    }, turn());
  }
}

/** A provider's event stream, read line by line or from a document's list of events: the calls being assembled
 *  and the current turn. `event` reads one event found at `path` of `doc`. The one home of that frame, for the
 *  Bedrock, Cohere and Ollama stream readers. */
export abstract class EventStream implements LineReader {
  protected readonly calls: PendingCalls;
  protected turn?: number;

  constructor(protected readonly b: SessionBuilder) {
    this.calls = new PendingCalls(b);
  }

  read(doc: Doc): void {
    this.event(doc, [], doc.value);
  }

  /** A document's list of events (at `path`), read in order as the stream's lines would be, then finished. */
  readEvents(doc: Doc, path: JsonPath, events: unknown[]): void {
    events.forEach((e, i) => this.event(doc, [...path, i], e));
    this.finish();
  }

  abstract event(doc: Doc, path: JsonPath, v: unknown): void;

  abstract finish(): void;
}


/** Assembles one stream's calls into a session; `flush` writes out what is still open. */
export class StreamAssembler {
  private readonly calls: PendingCalls;
  /** Responses output items written out (by item id, else `#output_index`): `response.completed` repeats them. */
  private readonly emittedItems = new Set<string>();
  /** Chat tool calls completed, by key: the id each had (a later delta under that key repeats it). */
  private readonly doneChat = new Map<string, string | undefined>();
  /** The Responses stream's response (its id), and whether its tool definitions were read. */
  private response = 'responses:';
  private toolsRead = false;
  private turn?: number;
  private turnKey?: string;
  /** Realtime: tool names defined, and the calls (by `call_id`) and their results read: later copies are echoes. */
  private readonly realtimeTools = new Set<string>();
  private readonly realtimeItems = new ItemLifecycle();
  /** The first Anthropic server tool result read: a stream's results for calls it does not hold answer server
   *  tools called in an earlier response of the turn. */
  private serverResultsFrom?: number;
  /** Groq's server-side tools, by choice and index (openai-chat.ts): made only when a chunk has one. */
  private executed?: ExecutedTools;

  constructor(private readonly b: SessionBuilder) {
    this.calls = new PendingCalls(b);
  }

  event(doc: Doc, path: JsonPath, v: Obj): void {
    if (isChatChunk(v)) this.chatChunk(doc, path, v);
    else if (isResponsesEvent(v)) this.responsesEvent(doc, path, v);
    else if (isAnthropicEvent(v)) this.anthropicEvent(doc, path, v);
    else if (isRealtimeEvent(v)) this.realtimeEvent(doc, path, v);
  }

  flush(): void {
    for (const key of this.calls.keys()) this.complete(key);
    if (this.serverResultsFrom !== undefined) markCallsElsewhere(this.b, this.serverResultsFrom);
  }

  private turnFor(key: string | undefined): number {
    if (this.turn === undefined || key !== this.turnKey) {
      this.turn = this.b.newTurn();
      this.turnKey = key;
    }
    return this.turn;
  }

  private pending(key: string, namePath: JsonPath): Pending {
    return this.calls.start(key, namePath);
  }

  private complete(key: string): void {
    this.calls.complete(key, () => this.turnFor(key.split('|')[0]));
  }

  /** Chat chunks: tool calls merged by `index`. A new id (or another name) under an index that already has a
   *  call is a new call there (providers that send every call at index 0); a delta under the index of a call
   *  already completed, with its id or none, repeats it (a final chunk that resends the calls). */
  private chatChunk(doc: Doc, path: JsonPath, v: Obj): void {
    if (isDashScopeChunk(v)) this.chatChoices(doc, [...path, 'output', 'choices'], v.request_id, v.output.choices, 'message');
    else this.chatChoices(doc, [...path, 'choices'], str(v.id) ?? '', v.choices as unknown[], 'delta');
  }

  private chatChoices(doc: Doc, choicesPath: JsonPath, response: string, choices: unknown[], deltaKey: 'delta' | 'message'): void {
    choices.forEach((c, ci) => {
      if (!isPlainObject(c)) return;
      const choice = typeof c.index === 'number' ? c.index : ci;
      const delta = c[deltaKey];
      const prefix = `${response}|${choice}|`;
      // a message starts: the calls of the one before are no longer repeated by this choice
      if (isPlainObject(delta) && delta.role === 'assistant') {
        for (const k of [...this.doneChat.keys()]) if (k.startsWith(prefix)) this.doneChat.delete(k);
        this.executed?.forget(String(choice));
      }
      // Groq's executed tools: keyed by the choice alone (a compound system's chunks each have an id of their own)
      if (isPlainObject(delta) && Array.isArray(delta.executed_tools)) {
        (this.executed ??= new ExecutedTools(this.b)).read(doc, [...choicesPath, ci, deltaKey, 'executed_tools'], delta.executed_tools, String(choice),
          () => this.turnFor(`executed|${choice}`), false);
      }
      if (isPlainObject(delta) && Array.isArray(delta.tool_calls)) {
        delta.tool_calls.forEach((tc, ti) => {
          if (!isPlainObject(tc)) return;
          const key = `${prefix}${typeof tc.index === 'number' ? tc.index : ti}`;
          const id = typeof tc.id === 'string' && tc.id !== '' ? tc.id : undefined;
          const fn = isPlainObject(tc.function) ? tc.function : undefined;
          const name = fn && typeof fn.name === 'string' && fn.name !== '' ? fn.name : undefined;
          if (this.doneChat.has(key)) {
            const doneId = this.doneChat.get(key);
            if (id === undefined || id === doneId) return; // a repeat of the completed call
            this.doneChat.delete(key);
          }
          const open = this.calls.get(key);
          if (open && open.name !== undefined && ((id !== undefined && open.id !== undefined && id !== open.id) || (name !== undefined && name !== open.name))) {
            this.complete(key); // another call under the same index
          }
          const p = this.pending(key, ['function', 'name']);
          const tcPath = [...choicesPath, ci, deltaKey, 'tool_calls', ti];
          if (id !== undefined && p.id === undefined) p.id = id;
          if (name !== undefined && p.name === undefined) {
            p.name = name;
            p.nameAt = { doc, path: tcPath };
          }
          if (fn && typeof fn.arguments === 'string') this.calls.fragment(p, fn.arguments, { doc, path: [...tcPath, 'function', 'arguments'] });
          // servers that send the arguments as an object (not the format's string) send them whole
          else if (fn && isPlainObject(fn.arguments)) p.whole ??= { value: fn.arguments, at: { doc, path: [...tcPath, 'function', 'arguments'] }, expect: 'string' };
        });
      }
      // the legacy `function_call` (one call per message, before `tool_calls`): its name, then its arguments' fragments
      const legacy = isPlainObject(delta) ? delta.function_call : undefined;
      if (isPlainObject(legacy)) {
        const key = `${prefix}function_call`;
        const p = this.pending(key, ['name']);
        const fcPath = [...choicesPath, ci, deltaKey, 'function_call'];
        if (typeof legacy.name === 'string' && legacy.name !== '' && p.name === undefined) {
          p.name = legacy.name;
          p.nameAt = { doc, path: fcPath };
        }
        if (typeof legacy.arguments === 'string') this.calls.fragment(p, legacy.arguments, { doc, path: [...fcPath, 'arguments'] });
      }
      // DashScope sends the text "null" until the last chunk
      if (typeof c.finish_reason === 'string' && c.finish_reason !== 'null') {
        this.executed?.forget(String(choice));
        for (const key of this.calls.keys()) {
          if (!key.startsWith(prefix)) continue;
          this.doneChat.set(key, this.calls.get(key)?.id);
          this.complete(key);
        }
      }
    });
  }

  /** Responses streaming events. Function and custom tool calls are assembled from their deltas (a stream cut off
   *  still has them); every item is read whole from `output_item.done`, or from the final response's `output`
   *  when no such event came, once. The response's `tools` are its definitions. */
  private responsesEvent(doc: Doc, path: JsonPath, v: Obj): void {
    const item = isPlainObject(v.item) ? v.item : undefined;
    const itemId = str(item?.id) ?? str(v.item_id) ?? `#${keyText(v.output_index)}`;
    const r = isPlainObject(v.response) ? v.response : undefined;
    if (r) {
      const id = str(r.id);
      if (id !== undefined && `responses:${id}` !== this.response) {
        this.response = `responses:${id}`;
        this.toolsRead = false;
      }
      if (!this.toolsRead && Array.isArray(r.tools)) {
        this.toolsRead = true;
        readResponsesTools(this.b, doc, [...path, 'response', 'tools'], r.tools);
      }
    }
    const key = `${this.response}|${itemId}`;
    switch (v.type) {
      case 'response.output_item.added':
        if ((item?.type === 'function_call' || item?.type === 'custom_tool_call') && typeof item.name === 'string') {
          const p = this.pending(key, ['item', 'name']);
          p.name = item.name;
          p.id = str(item.call_id) ?? str(item.id);
          p.nameAt = { doc, path };
          p.freeform = item.type === 'custom_tool_call';
        }
        return;
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
        const p = this.calls.get(key);
        if (p && typeof v.delta === 'string') this.calls.fragment(p, v.delta, { doc, path: [...path, 'delta'] });
        return;
      }
      case 'response.function_call_arguments.done':
      case 'response.custom_tool_call_input.done': {
        const p = this.calls.get(key);
        const whole = v.type === 'response.function_call_arguments.done' ? 'arguments' : 'input';
        if (p && typeof v[whole] === 'string') this.calls.replace(p, v[whole], { doc, path: [...path, whole] });
        return;
      }
      case 'response.output_item.done':
        if (item) this.readItem(doc, [...path, 'item'], item, itemId);
        return;
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed': {
        const output = Array.isArray(r?.output) ? r.output : [];
        output.forEach((it, i) => {
          if (isPlainObject(it)) this.readItem(doc, [...path, 'response', 'output', i], it, str(it.id) ?? `#${i}`);
        });
        return;
      }
      default:
    }
  }

  /** Realtime events: the model's calls arrive as Responses events do; definitions and results come apart. */
  private realtimeEvent(doc: Doc, path: JsonPath, v: Obj): void {
    const type = String(v.type);
    if (type.startsWith('session.')) {
      const tools = (v.session as Obj).tools;
      if (!Array.isArray(tools)) return;
      tools.forEach((t, i) => {
        if (!isPlainObject(t) || t.type !== 'function' || typeof t.name !== 'string' || this.realtimeTools.has(t.name)) return;
        this.realtimeTools.add(t.name); // every session update repeats the list
        this.b.tool(t.name, t.parameters, { doc, path: [...path, 'session', 'tools', i] });
      });
      return;
    }
    if (isPlainObject(v.item) && type.startsWith('conversation.item.')) {
      const item = v.item;
      const callId = str(item.call_id);
      // the server's copies of the model's calls are read from the response events; a result is read once
      const wanted = item.type === 'function_call_output' || (item.type === 'function_call' && type === 'conversation.item.create');
      if (!wanted || callId === undefined) return;
      const call = item.type === 'function_call';
      if (!(call ? this.realtimeItems.isCall(callId) : this.realtimeItems.isOutcome(callId))) return;
      if (call) this.turnFor(`item ${callId}`);
      readResponsesItem(this.b, doc, [...path, 'item'], item);
      return;
    }
    this.responsesEvent(doc, path, type === 'response.done' ? { ...v, type: 'response.completed' } : v);
  }

  /** A Responses output item, whole: read once (its deltas, if any, are dropped). */
  private readItem(doc: Doc, path: JsonPath, item: Obj, itemId: string): void {
    this.calls.drop(`${this.response}|${itemId}`);
    const key = `${this.response}|${itemId}`;
    if (this.emittedItems.has(key)) return;
    this.emittedItems.add(key);
    // a Realtime call read from the response events: this is its first copy, a conversation item of it an echo
    if (item.type === 'function_call') this.realtimeItems.isCall(str(item.call_id));
    if (makesCall(item.type)) this.turnFor(this.response);
    readResponsesItem(this.b, doc, path, item);
  }

  private anthropicEvent(doc: Doc, path: JsonPath, v: Obj): void {
    const index = typeof v.index === 'number' ? v.index : -1;
    if (v.type === 'message_start') {
      const m = isPlainObject(v.message) ? v.message : undefined;
      this.turnKey = undefined;
      this.turn = undefined;
      this.turnFor(str(m?.id) ?? 'message');
      return;
    }
    const key = `${this.turnKey ?? 'message'}|${index}`;
    if (v.type === 'content_block_start') {
      const block = isPlainObject(v.content_block) ? v.content_block : undefined;
      if (block && isCallBlock(block) && typeof block.name === 'string') {
        const p = this.pending(key, ['name']);
        p.name = block.name;
        p.id = str(block.id);
        p.nameAt = { doc, path: [...path, 'content_block'] };
        if ('input' in block) p.whole = { value: block.input, at: { doc, path: [...path, 'content_block', 'input'] } };
      } else if (block && isResultBlock(block)) {
        // a server tool's result (web search, code execution, MCP) streams whole in its start event; the model saw
        // it, so its next call is a new turn
        this.serverResultsFrom ??= this.b.session.results.length;
        readAnthropicResult(this.b, doc, [...path, 'content_block'], block);
        this.turn = undefined;
      }
      return;
    }
    if (v.type === 'content_block_delta') {
      const d = isPlainObject(v.delta) ? v.delta : undefined;
      const p = this.calls.get(key);
      if (p && d?.type === 'input_json_delta' && typeof d.partial_json === 'string') this.calls.fragment(p, d.partial_json, { doc, path: [...path, 'delta', 'partial_json'] });
      return;
    }
    if (v.type === 'content_block_stop') this.complete(key);
  }
}

function isEventList(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isStreamEvent);
}

interface RequestReader {
  /** The request half, and the answer half: events of the stream that answers such a request. */
  isRequest: (v: unknown) => boolean;
  isAnswer: (v: unknown) => boolean;
  read: (b: SessionBuilder, doc: Doc) => void;
}

/** Requests a streamed answer is logged beside: a Chat request for chunks, a Messages request for Anthropic events. */
const REQUEST_READERS: readonly RequestReader[] = [
  { isRequest: isChatRequest, isAnswer: (v) => isEventList(v) && v.some(isChatChunk), read: readChatDocument },
  { isRequest: isAnthropicRequest, isAnswer: (v) => isEventList(v) && v.some(isAnthropicEvent), read: readAnthropicDocument },
];

/** A logger's record of a request and the events of its streamed answer (`{request, response: [chunk, ...]}`,
 *  exchange.ts): one conversation, the request's tools applying to the streamed calls. */
function streamExchange(v: unknown): RequestReader | undefined {
  return isPlainObject(v) ? REQUEST_READERS.find((r) => isExchange(v, r.isRequest, r.isAnswer)) : undefined;
}

export const stream: FormatAdapter = {
  id: 'stream',
  document: {
    claims(v) {
      return isEventList(v) || streamExchange(v) !== undefined;
    },
    read(doc, emit) {
      const exchange = streamExchange(doc.value);
      singleSession((b) => {
        const a = new StreamAssembler(b);
        if (exchange) {
          const [request, response] = exchangeParts(doc, exchange.isRequest, exchange.isAnswer);
          exchange.read(b, request);
          (response.value as Obj[]).forEach((e, i) => a.event(response, [i], e));
        } else {
          (doc.value as Obj[]).forEach((e, i) => a.event(doc, [i], e));
        }
        a.flush();
      }, emit);
    },
  },
  lines: {
    claims: isStreamEvent,
    accepts: (v) => isPlainObject(v) && v.type === 'ping',
    open({ builder }) {
      const a = new StreamAssembler(builder);
      return { read: (doc) => a.event(doc, [], doc.value as Obj), finish: () => a.flush() };
    },
  },
};
