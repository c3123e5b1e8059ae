// Inspect AI evaluation logs: the `.json` log (`{version, eval, samples: [...]}`), a single sample, a bare event
// list (`{events: [...]}`), and the samples of an `.eval` zip (unpacked by `containerText` into
// `{header, samples}`). Each sample (id and epoch) is a session. Calls come from the sample's messages
// (assistant `tool_calls` with `function` and object `arguments`; `role: "tool"` messages answer them). The events
// record the same calls again (a model event's output `tool_calls`, then a `tool` event with call and result): each
// id read from the messages is read once, however often it is reused, and the events add what the messages lack (a
// sub-agent's calls, a trimmed conversation, an event list without messages). A tool event whose id no call has is
// its own call. `error` (`{type, message}`; early logs: a tool message's `tool_error` text) on a tool message or
// event is an honest failure; without it the tool succeeded. Tool definitions: the `tools` of model events. Inspect stores an event's strings over 100 characters
// once, in the sample's `attachments`, and writes `attachment://<hash>` in their place (`tc://` in older logs): the
// arguments and results read from events are checked with the text those stand for. A tool call with a
// `parse_error` had arguments Inspect could not parse: they are invalid JSON (its `arguments` are a stand-in).
// Messages hold references too (an image's data, since Inspect moves those out of messages as well): resolved the same.
// A provider's server-side tools (web search, a remote MCP call, code execution) are `tool_use` parts of the
// assistant's content `{tool_type, id, name, arguments (a JSON string), result, error}`: a call with its result
// inline, `error` its failure; read once, from the message or else from the model event's output.
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import type { ToolCall } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, keyText, SessionSet, str, textOf, type Obj } from './util';

const EVENT_KINDS = new Set(['model', 'tool', 'span_begin', 'span_end', 'sample_init', 'sample_limit', 'state', 'store', 'sandbox', 'info', 'score',
  'score_edit', 'logger', 'input', 'error', 'approval', 'subtask', 'step', 'anchor', 'branch', 'compaction', 'checkpoint', 'interrupt']);

function isEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.event === 'string';
}

/** A model or tool event in Inspect's own shape (a model's `input` messages and `output`; a tool's `function`). */
function isCallEvent(e: Obj): boolean {
  if (e.event === 'model') return Array.isArray(e.input) && isPlainObject(e.output);
  return e.event === 'tool' && typeof e.function === 'string' && isPlainObject(e.arguments);
}

/** Every element an event; all of kinds Inspect writes, or (a newer version adds kinds) most of them, with a model
 *  or tool event of Inspect's shape among them. */
function isEventList(v: unknown): v is unknown[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every(isEvent)) return false;
  const known = v.filter((e) => EVENT_KINDS.has(e.event as string)).length;
  return known === v.length || (known * 2 >= v.length && v.some(isCallEvent));
}

function isSample(v: unknown): v is Obj {
  return isPlainObject(v) && 'epoch' in v && 'id' in v && (Array.isArray(v.messages) || Array.isArray(v.events));
}

function isLog(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.version === 'number' && isPlainObject(v.eval) && typeof v.status === 'string';
}

/** A chunked sample as `containerText` joins it: the shell (the sample without messages, events and attachments;
 *  `message_refs` ranges into the messages sequence) and the chunks of its sequences. */
function isChunkedSample(v: unknown): v is Obj & { chunked_sample: Obj } {
  return isPlainObject(v) && isPlainObject(v.chunked_sample) && 'id' in v.chunked_sample && 'epoch' in v.chunked_sample && Array.isArray(v.event_chunks);
}

/** What `containerText` makes of an `.eval` zip. */
function isContainer(v: unknown): v is Obj {
  return isPlainObject(v) && isPlainObject(v.header) && isPlainObject(v.header.eval) && Array.isArray(v.samples);
}

/** A value and where it is: a chunked sample's messages and events are spread over chunks. */
type Entry = [JsonPath, unknown];

const entriesOf = (path: JsonPath, list: unknown[]): Entry[] => list.map((v, i) => [[...path, i], v]);

function readTools(b: SessionBuilder, doc: Doc, events: Entry[], seen: Set<string>): void {
  for (const [at, e] of events) {
    if (!isPlainObject(e) || e.event !== 'model' || !Array.isArray(e.tools)) continue;
    e.tools.forEach((t, j) => {
      if (!isPlainObject(t) || typeof t.name !== 'string' || seen.has(t.name) || !('parameters' in t)) return;
      seen.add(t.name);
      b.tool(t.name, t.parameters, { doc, path: [...at, 'tools', j] });
    });
  }
}

/** Ids read so far, counted: a reused id is as many calls as it is written, and a copy takes one count. */
class IdCount {
  private readonly n = new Map<string, number>();

  add(id: string | undefined): void {
    if (id !== undefined) this.n.set(id, (this.n.get(id) ?? 0) + 1);
  }

  /** Take one count of `id`, if there is one left. */
  take(id: string | undefined): boolean {
    const k = id === undefined ? 0 : this.n.get(id) ?? 0;
    if (k === 0) return false;
    this.n.set(id!, k - 1);
    return true;
  }

  get(id: string): number {
    return this.n.get(id) ?? 0;
  }
}

/** What the messages of a sample recorded: the events repeat these calls and results. */
interface Seen {
  /** Calls read from messages, not yet met again in a model event. */
  messageCalls: IdCount;
  /** Results read from messages, not yet met again in a tool event. */
  messageResults: IdCount;
  /** Every call and result read, by id (to tell a tool event that answers a call from one that is its own call). */
  calls: IdCount;
  results: IdCount;
  /** The sample's `attachments` (hash -> text): events hold long strings as `attachment://<hash>`. */
  attachments?: Obj;
}

function newSeen(attachments?: unknown): Seen {
  return { messageCalls: new IdCount(), messageResults: new IdCount(), calls: new IdCount(), results: new IdCount(),
    attachments: isPlainObject(attachments) ? attachments : undefined };
}

const ATTACHMENT = /^(?:attachment|tc):\/\//;

/** `v` with its attachment references replaced by the text they stand for (unknown ones are left as written). */
function resolved(v: unknown, seen: Seen, depth = 0): unknown {
  const att = seen.attachments;
  if (!att || depth > 16) return v;
  if (typeof v === 'string') {
    if (!ATTACHMENT.test(v)) return v;
    const text = att[v.replace(ATTACHMENT, '')];
    return typeof text === 'string' ? text : v;
  }
  if (Array.isArray(v)) return v.map((x) => resolved(x, seen, depth + 1));
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolved(x, seen, depth + 1)]));
  return v;
}

/** Inspect records a tool's failure in `error` (`{type, message}`; early logs: a tool message's
 *  `tool_error` text); without one the tool succeeded. */
function errorTransport(v: Obj): { isError: boolean } {
  return { isError: (v.error !== undefined && v.error !== null) || v.failed === true || (typeof v.tool_error === 'string' && v.tool_error !== '') };
}

/** Inspect could not parse the arguments the model sent (`parse_error`): the call's arguments are not JSON, and
 *  the `arguments` it records instead are a stand-in, not what the model wrote. */
function markParseError(call: ToolCall, tc: Obj): void {
  if (typeof tc.parse_error !== 'string' || tc.parse_error === '') return;
  call.encoding = 'invalid';
  call.encodingDetail = tc.parse_error.split('\n').find((l) => /error/i.test(l))?.trim().slice(0, 200) ?? 'Inspect could not parse them';
}

/** A server-side tool's use: a part of the assistant's content. */
function isToolUse(p: unknown): p is Obj & { name: string } {
  return isPlainObject(p) && p.type === 'tool_use' && typeof p.name === 'string';
}

function toolUses(m: Obj): number[] {
  return Array.isArray(m.content) ? m.content.flatMap((p, j) => (isToolUse(p) ? [j] : [])) : [];
}

/** A server-side tool's call and its inline result. */
function readToolUse(b: SessionBuilder, doc: Doc, at: JsonPath, p: Obj & { name: string }, seen: Seen, turn: number, messageText?: string): void {
  const id = str(p.id);
  const failed = typeof p.error === 'string' && p.error !== '';
  b.call({ name: p.name, id, at: { doc, path: at }, namePath: ['name'], argsPath: ['arguments'], args: resolved(p.arguments, seen), expect: 'string', messageText }, turn);
  b.result({ at: { doc, path: [...at, failed ? 'error' : 'result'] }, callId: id, payload: resolved(failed ? p.error : p.result, seen), payloadPath: [], transport: { isError: failed } });
  seen.calls.add(id);
  seen.results.add(id);
}

function readMessages(b: SessionBuilder, doc: Doc, messages: Entry[], seen: Seen): void {
  messages.forEach(([at, m]) => {
    if (!isPlainObject(m)) return;
    const uses = m.role === 'assistant' ? toolUses(m) : [];
    if (m.role === 'assistant' && ((Array.isArray(m.tool_calls) && m.tool_calls.length > 0) || uses.length > 0)) {
      const turn = b.newTurn();
      const messageText = textOf(m.content);
      for (const j of uses) {
        readToolUse(b, doc, [...at, 'content', j], (m.content as Obj[])[j] as Obj & { name: string }, seen, turn, messageText);
        seen.messageCalls.add(str((m.content as Obj[])[j].id));
      }
      (Array.isArray(m.tool_calls) ? m.tool_calls : []).forEach((tc, j) => {
        if (!isPlainObject(tc) || typeof tc.function !== 'string') return;
        markParseError(b.call({ name: tc.function, id: str(tc.id), at: { doc, path: [...at, 'tool_calls', j] }, namePath: ['function'], argsPath: ['arguments'],
          args: resolved(tc.arguments, seen), expect: 'any', messageText }, turn), tc);
        seen.messageCalls.add(str(tc.id));
        seen.calls.add(str(tc.id));
      });
      return;
    }
    if (m.role === 'tool') {
      b.result({ at: { doc, path: at }, callId: str(m.tool_call_id), payload: resolved(m.content, seen), payloadPath: ['content'], transport: errorTransport(m) });
      seen.messageResults.add(str(m.tool_call_id));
      seen.results.add(str(m.tool_call_id));
    }
    if (m.role === 'assistant') b.assistantText({ doc, path: [...at, 'content'] }, m.content);
    else b.breakTurn();
  });
}

/** The calls a model event's output made (those the messages did not already hold). */
function readModelEvent(b: SessionBuilder, doc: Doc, path: JsonPath, e: Obj, seen: Seen, texts: boolean): void {
  const out = isPlainObject(e.output) ? e.output : undefined;
  if (!out || !Array.isArray(out.choices)) return;
  out.choices.forEach((c, k) => {
    const msg = isPlainObject(c) && isPlainObject(c.message) ? c.message : undefined;
    if (!msg) return;
    const msgPath = [...path, 'output', 'choices', k, 'message'];
    const calls = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
    let turn: number | undefined;
    const uses = toolUses(msg).filter((j) => !seen.messageCalls.take(str((msg.content as Obj[])[j].id)));
    for (const j of uses) {
      turn ??= b.newTurn();
      readToolUse(b, doc, [...msgPath, 'content', j], (msg.content as Obj[])[j] as Obj & { name: string }, seen, turn, textOf(msg.content));
    }
    calls.forEach((tc, j) => {
      if (!isPlainObject(tc) || typeof tc.function !== 'string') return;
      const id = str(tc.id);
      if (seen.messageCalls.take(id)) return; // the messages hold this call
      turn ??= b.newTurn();
      markParseError(b.call({ name: tc.function, id, at: { doc, path: [...msgPath, 'tool_calls', j] }, namePath: ['function'], argsPath: ['arguments'],
        args: resolved(tc.arguments, seen), expect: 'any', messageText: textOf(msg.content) }, turn), tc);
      seen.calls.add(id);
    });
    if (calls.length === 0 && turn === undefined && texts) b.assistantText({ doc, path: [...msgPath, 'content'] }, msg.content);
  });
}

/** A tool event: the execution of a call (the call itself when no message or model event recorded it). */
function readToolEvent(b: SessionBuilder, doc: Doc, path: JsonPath, e: Obj, seen: Seen): void {
  const id = str(e.id);
  if (seen.messageResults.take(id)) return; // the messages hold this result
  const failed = e.error !== undefined && e.error !== null;
  const answers = id !== undefined && seen.calls.get(id) > seen.results.get(id);
  let index: number | undefined;
  if (!answers) index = b.call({ name: e.function as string, id, at: { doc, path }, namePath: ['function'], argsPath: ['arguments'], args: resolved(e.arguments, seen), expect: 'any' }, b.newTurn()).index;
  if (!answers) seen.calls.add(id);
  if ('result' in e || failed) {
    b.result({ at: { doc, path: [...path, failed ? 'error' : 'result'] }, callId: id, callIndex: id === undefined ? index : undefined,
      payload: resolved(failed ? e.error : e.result, seen), payloadPath: [], transport: errorTransport(e) });
    seen.results.add(id);
  }
  b.breakTurn();
}

/** A sample's events in order (and the events a tool event holds, an older log's sub-agent transcript). */
function readEvents(b: SessionBuilder, doc: Doc, events: Entry[], seen: Seen, texts: boolean, depth = 0): void {
  for (const [at, e] of events) {
    if (!isPlainObject(e)) continue;
    if (e.event === 'model') readModelEvent(b, doc, at, e, seen, texts);
    else if (e.event === 'tool' && typeof e.function === 'string') {
      readToolEvent(b, doc, at, e, seen);
      if (Array.isArray(e.events) && depth < 8) readEvents(b, doc, entriesOf([...at, 'events'], e.events), seen, texts, depth + 1);
    }
  }
}

/** A sample's conversation: its final messages (when it has them), then what its events add. */
function readConversation(b: SessionBuilder, doc: Doc, messages: Entry[] | undefined, events: Entry[], attachments: unknown): void {
  readTools(b, doc, events, new Set());
  const seen = newSeen(attachments);
  if (messages) readMessages(b, doc, messages, seen);
  // the events repeat what the messages hold, and add what they do not (a sub-agent's calls, trimmed messages)
  readEvents(b, doc, events, seen, !messages || messages.length === 0);
}

function readSample(b: SessionBuilder, doc: Doc, path: JsonPath, s: Obj): void {
  // logs of late 2024 kept the events and their texts in `transcript: {events, content}` (references `tc://`)
  const transcript = isPlainObject(s.transcript) && Array.isArray(s.transcript.events) && !Array.isArray(s.events) ? s.transcript : undefined;
  const events = (transcript ? transcript.events : Array.isArray(s.events) ? s.events : []) as unknown[];
  const eventsPath = transcript ? [...path, 'transcript', 'events'] : [...path, 'events'];
  const messages = Array.isArray(s.messages) ? entriesOf([...path, 'messages'], s.messages) : undefined;
  readConversation(b, doc, messages, entriesOf(eventsPath, events), s.attachments ?? transcript?.content);
}

/** The items of a sequence's chunks, in order, each where it is. */
function chunkEntries(path: JsonPath, chunks: unknown): Entry[] {
  if (!Array.isArray(chunks)) return [];
  return chunks.flatMap((c, i) => (Array.isArray(c) ? entriesOf([...path, i], c) : []));
}

/** A chunked sample: the final conversation is `message_refs` (`[start, end)` ranges) into the messages sequence,
 *  and references are `attachment://<index>` into the attachments sequence. */
function readChunkedSample(b: SessionBuilder, doc: Doc, path: JsonPath, v: Obj & { chunked_sample: Obj }): void {
  const pool = chunkEntries([...path, 'message_chunks'], v.message_chunks);
  const refs = v.chunked_sample.message_refs;
  // each message is in the conversation once: the ranges take no more than the pool holds (a file of many ranges
  // over the whole pool would otherwise multiply it out of memory)
  let messages: Entry[] | undefined;
  if (Array.isArray(refs)) {
    messages = [];
    for (const r of refs) {
      if (!Array.isArray(r) || typeof r[0] !== 'number' || typeof r[1] !== 'number') continue;
      for (const m of pool.slice(r[0], r[1])) if (messages.length < pool.length) messages.push(m);
      if (messages.length >= pool.length) break;
    }
  }
  const texts = chunkEntries([...path, 'attachment_chunks'], v.attachment_chunks).map(([, t]) => t);
  readConversation(b, doc, messages, chunkEntries([...path, 'event_chunks'], v.event_chunks), Object.fromEntries(texts.map((t, i) => [String(i), t])));
}

/** The session of a sample (monolith or chunked), by id and epoch. */
function readAnySample(sessions: SessionSet, doc: Doc, path: JsonPath, s: unknown): void {
  if (isChunkedSample(s)) readChunkedSample(sessions.get(`${keyText(s.chunked_sample.id)}#${keyText(s.chunked_sample.epoch)}`), doc, path, s);
  else if (isSample(s)) readSample(sessions.get(`${keyText(s.id)}#${keyText(s.epoch)}`), doc, path, s);
}

export const inspect: FormatAdapter = {
  id: 'inspect',
  document: {
    claims(v) {
      if (isLog(v) || isContainer(v) || isSample(v) || isChunkedSample(v) || isEventList(v)) return true;
      return isPlainObject(v) && isEventList(v.events) && !('epoch' in v);
    },
    read(doc, emit) {
      const v = doc.value;
      const sessions = new SessionSet();
      if (isLog(v) || isContainer(v)) {
        const samples = Array.isArray(v.samples) ? v.samples : [];
        samples.forEach((s, i) => readAnySample(sessions, doc, ['samples', i], s));
      } else if (isSample(v) || isChunkedSample(v)) {
        readAnySample(sessions, doc, [], v);
      } else {
        const events = (Array.isArray(v) ? v : (v as Obj).events) as unknown[];
        const b = sessions.get('');
        const path = Array.isArray(v) ? [] : ['events'];
        readTools(b, doc, entriesOf(path, events), new Set());
        readEvents(b, doc, entriesOf(path, events), newSeen(), true);
      }
      sessions.emitAll(emit);
    },
  },
};
