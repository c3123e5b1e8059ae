// Mistral's Conversations API (Agents API, `/v1/conversations`; its chat completions are read as OpenAI Chat).
// A conversation is a list of entries `{object: "entry", type, id, created_at, completed_at, ...}`:
// `message.input` / `message.output` (text), `function.call` `{tool_call_id, name, arguments (JSON string or
// object), confirmation_status?}` (a call the client runs), `function.result` `{tool_call_id, result (string)}`
// (its answer, paired by `tool_call_id`), `tool.execution` `{name, arguments, info}` (a built-in connector —
// web_search, code_interpreter, ... — that the server ran: the call and its outcome in one entry) and
// `agent.handoff`. Documents: a response `{object: "conversation.response", conversation_id, outputs}`, a history
// `{object: "conversation.history", entries}`, a request `{inputs (text or entries), tools?}` (start, append,
// restart), or a list of entries; JSONL of entries or of stream events. A stream sends `function.call.delta`
// events `{id, tool_call_id, name, arguments}` whose `arguments` fragments are concatenated per entry `id`, and
// `tool.execution.started`/`done`; `conversation.response.done` ends the response. Definitions: `tools[]` of the
// request or the agent, `{type: "function", function: {name, parameters}}` as in Chat. A call whose
// confirmation was denied (`confirmation_status: "denied"`) never ran: an honest failure. The API has no error
// flag on a function result.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { readChatTools } from './openai-chat';
import { EventStream } from './stream';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj } from './util';

const ENTRY_TYPES = new Set(['message.input', 'message.output', 'function.call', 'function.result', 'tool.execution', 'agent.handoff']);
const TOOL_ENTRIES = new Set(['function.call', 'function.result', 'tool.execution']);

function isEntry(v: unknown): v is Obj & { type: string } {
  if (!isPlainObject(v) || typeof v.type !== 'string' || !ENTRY_TYPES.has(v.type)) return false;
  if (v.object === 'entry') return true;
  // entries a client writes leave `object` out: known by their fields
  if (v.type === 'function.call') return typeof v.tool_call_id === 'string' && typeof v.name === 'string' && 'arguments' in v;
  if (v.type === 'function.result') return typeof v.tool_call_id === 'string' && 'result' in v;
  if (v.type === 'tool.execution') return typeof v.name === 'string' && 'arguments' in v;
  return typeof v.role === 'string' && 'content' in v;
}

const STREAM_EVENTS = new Set(['conversation.response.started', 'conversation.response.done', 'conversation.response.error',
  'message.output.delta', 'function.call.delta', 'tool.execution.started', 'tool.execution.delta', 'tool.execution.done',
  'agent.handoff.started', 'agent.handoff.done']);

function isStreamEvent(v: unknown): v is Obj & { type: string } {
  return isPlainObject(v) && typeof v.type === 'string' && STREAM_EVENTS.has(v.type) && !('sequence_number' in v);
}

/** An event that is this stream's beyond doubt: a response frame with its conversation id, or a call fragment. */
function isTellingEvent(v: unknown): boolean {
  if (!isStreamEvent(v)) return false;
  if (v.type === 'function.call.delta') return typeof v.tool_call_id === 'string' && typeof v.name === 'string';
  return v.type === 'conversation.response.started' ? typeof v.conversation_id === 'string' : v.type.startsWith('tool.execution.');
}

/** The entries of a document, with the path of their list, and where its definitions are. */
function entriesOf(v: unknown): { list: unknown[]; base: JsonPath } | undefined {
  if (Array.isArray(v)) return v.length > 0 && v.every(isEntry) && v.some((e) => TOOL_ENTRIES.has(e.type)) ? { list: v, base: [] } : undefined;
  if (!isPlainObject(v)) return undefined;
  if (v.object === 'conversation.response' && Array.isArray(v.outputs)) return { list: v.outputs, base: ['outputs'] };
  if (v.object === 'conversation.history' && Array.isArray(v.entries)) return { list: v.entries, base: ['entries'] };
  // a request: `inputs` entries (text inputs carry no calls)
  if (Array.isArray(v.inputs) && v.inputs.length > 0 && v.inputs.every(isEntry)) return { list: v.inputs, base: ['inputs'] };
  return undefined;
}

function readEntry(b: SessionBuilder, doc: Doc, path: JsonPath, e: Obj): void {
  const at = { doc, path };
  if (e.type === 'function.call' && typeof e.name === 'string') {
    const id = str(e.tool_call_id);
    b.call({ name: e.name, id, at, namePath: ['name'], argsPath: ['arguments'], args: e.arguments, expect: 'any' });
    if (e.confirmation_status === 'denied') b.result({ at, callId: id, payloadPath: ['confirmation_status'], payload: e.confirmation_status, transport: { isError: true } });
  } else if (e.type === 'function.result') {
    b.result({ at, callId: str(e.tool_call_id), payload: e.result, payloadPath: ['result'] });
  } else if (e.type === 'tool.execution' && typeof e.name === 'string') {
    // a built-in connector the server ran: its outcome (`info`) comes in the same entry
    const id = str(e.id);
    b.call({ name: e.name, id, at, namePath: ['name'], argsPath: ['arguments'], args: e.arguments, expect: 'any' });
    b.result({ at, callId: id, payload: e.info, payloadPath: ['info'] });
  } else if (e.type === 'message.output') {
    b.assistantText({ doc, path: [...path, 'content'] }, e.content);
  } else {
    b.breakTurn();
  }
}

function readDocument(b: SessionBuilder, doc: Doc): void {
  const v = doc.value;
  if (isPlainObject(v)) {
    readChatTools(b, doc, ['tools'], v.tools);
    if (isPlainObject(v.agent)) readChatTools(b, doc, ['agent', 'tools'], v.agent.tools);
  }
  const found = entriesOf(v);
  found?.list.forEach((e, i) => isEntry(e) && readEntry(b, doc, [...found.base, i], e));
}

/** A streamed response: call fragments by entry id, written out when the response (or the file) ends. */
class ConversationStream extends EventStream {
  /** Built-in tool runs started (by entry id): the arguments come with the start, the outcome with the end. */
  private readonly started = new Map<string, { doc: Doc; path: JsonPath; args: unknown }>();

  event(doc: Doc, path: JsonPath, v: unknown): void {
    if (isEntry(v)) {
      readEntry(this.b, doc, path, v);
      return;
    }
    if (!isStreamEvent(v)) return;
    if (v.type === 'function.call.delta') {
      const key = str(v.id) ?? str(v.tool_call_id) ?? '';
      const p = this.calls.start(key, ['name']);
      if (p.name === undefined && typeof v.name === 'string' && v.name !== '') {
        p.name = v.name;
        p.nameAt = { doc, path };
      }
      p.id ??= str(v.tool_call_id);
      if (typeof v.arguments === 'string') this.calls.fragment(p, v.arguments, { doc, path: [...path, 'arguments'] });
    } else if (v.type === 'tool.execution.started' && 'arguments' in v) {
      this.started.set(str(v.id) ?? '', { doc, path, args: v.arguments });
    } else if (v.type === 'tool.execution.done' && typeof v.name === 'string') {
      const id = str(v.id);
      const start = 'arguments' in v ? undefined : this.started.get(id ?? '');
      this.b.call({ name: v.name, id, at: { doc, path }, namePath: ['name'], argsPath: ['arguments'], args: start ? start.args : v.arguments,
        argsAt: start ? { doc: start.doc, path: start.path } : undefined, expect: 'any' }, this.turnNow());
      this.b.result({ at: { doc, path }, callId: id, payload: v.info, payloadPath: ['info'] });
    } else if (v.type === 'conversation.response.done' || v.type === 'conversation.response.error') {
      this.finish();
    }
  }

  finish(): void {
    for (const key of this.calls.keys()) this.calls.complete(key, () => this.turnNow());
    this.turn = undefined;
  }

  private turnNow(): number {
    return (this.turn ??= this.b.newTurn());
  }
}

export const mistralConversations: FormatAdapter = {
  id: 'mistral-conversations',
  document: {
    claims(v) {
      const found = entriesOf(v);
      if (found) return true;
      return Array.isArray(v) && v.length > 0 && v.every(isStreamEvent) && v.some(isTellingEvent);
    },
    read(doc, emit) {
      singleSession((b) => {
        const v = doc.value;
        if (Array.isArray(v) && v.every(isStreamEvent)) new ConversationStream(b).readEvents(doc, [], v);
        else readDocument(b, doc);
      }, emit);
    },
  },
  lines: {
    claims: (v) => (isEntry(v) && (v.object === 'entry' || TOOL_ENTRIES.has(v.type))) || isTellingEvent(v),
    accepts: (v) => isEntry(v) || isStreamEvent(v),
    open: ({ builder }) => new ConversationStream(builder),
  },
};
