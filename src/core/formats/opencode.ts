// OpenCode (sst/opencode) sessions. Read: the `opencode export` document `{info, messages: [{info, parts}]}`, a bare
// array of `{info, parts}` messages (the server's message list), and the storage layout's single-object files
// (`storage/part/<message>/<part>.json`: one part, so a tool part alone is a one-call trace; a message's or a
// session's info file holds no calls and is only recognised). As lines: `opencode run --format json` events
// `{type: "tool_use" | "step_start" | "text" | ..., sessionID, part}` and the server's bus events
// `{type: "message.part.updated", properties: {part}}` (also wrapped as `{directory, payload}`).
// A call is a part `{type: "tool", callID, tool, state}`; its result is the same part's state: `completed`
// `{output, metadata}` (a shell's exit code in `metadata.exit`) or `error` `{error}` (an error signal; with
// `metadata.interrupted` the partial `metadata.output` is what the model saw). `pending` / `running` parts never got a
// result. The bus re-sends a part on every state change: each part is read once, in its last state, where it first
// appeared. Each step of an assistant message (`step-start` .. `step-finish`) is one turn. Old exports' AI SDK parts
// `{type: "tool-invocation", toolInvocation: {toolCallId, toolName, args, state, result}}` are read too.
import type { FormatAdapter } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { at, isPlainObject, num, SessionSet, str, type Obj } from './util';

/** What a session's parts say, in order: a tool part (its last copy), text, a step boundary, a user's message. */
type Item = { kind: 'tool'; ref: NodeRef; part: Obj } | { kind: 'text'; text: string } | { kind: 'step' } | { kind: 'user' };

function isToolPart(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  if (v.type === 'tool') return typeof v.tool === 'string' && isPlainObject(v.state) && typeof v.state.status === 'string';
  return v.type === 'tool-invocation' && isPlainObject(v.toolInvocation) && typeof v.toolInvocation.toolName === 'string';
}

function isPart(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string';
}

const ROLES = new Set(['user', 'assistant']);

/** `{info: {role}, parts}`, or an old export's message with `role` and `parts` side by side and an OpenCode id. */
function isMessage(v: unknown): v is Obj & { parts: unknown[] } {
  if (!isPlainObject(v) || !Array.isArray(v.parts) || !v.parts.every(isPart)) return false;
  if (isPlainObject(v.info)) return ROLES.has(v.info.role as string);
  return ROLES.has(v.role as string) && (str(v.id)?.startsWith('msg_') ?? false);
}

function roleOf(m: Obj): unknown {
  return isPlainObject(m.info) ? m.info.role : m.role;
}

function isExport(v: unknown): v is Obj & { messages: unknown[] } {
  if (!isPlainObject(v) || !isPlainObject(v.info) || !Array.isArray(v.messages) || !v.messages.every(isMessage)) return false;
  return v.messages.length > 0 || (str(v.info.id)?.startsWith('ses_') ?? false);
}

/** A storage file holding one part, one message's info, or one session's info. */
function isStorageObject(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  const id = str(v.id) ?? '';
  if (isToolPart(v)) return true;
  if (id.startsWith('prt_')) return isPart(v) && (str(v.messageID)?.startsWith('msg_') ?? false);
  if (id.startsWith('msg_')) return ROLES.has(v.role as string) && (str(v.sessionID)?.startsWith('ses_') ?? false) && isPlainObject(v.time);
  return id.startsWith('ses_') && typeof v.projectID === 'string' && typeof v.directory === 'string' && isPlainObject(v.time);
}

function textOfPart(p: Obj): string | undefined {
  return p.type === 'text' && typeof p.text === 'string' && p.synthetic !== true && p.text.trim() !== '' ? p.text : undefined;
}

/** A message's parts as items (steps split by `step-start` / `step-finish`). */
function* itemsOf(doc: Doc, path: JsonPath, m: Obj): Generator<Item> {
  if (roleOf(m) === 'user') {
    yield { kind: 'user' };
    return;
  }
  const parts = m.parts as unknown[];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as Obj;
    if (isToolPart(p)) yield { kind: 'tool', ref: { doc, path: [...path, 'parts', i] }, part: p };
    else if (p.type === 'step-start' || p.type === 'step-finish') yield { kind: 'step' };
    else {
      const text = textOfPart(p);
      if (text !== undefined) yield { kind: 'text', text };
    }
  }
  yield { kind: 'step' };
}

function transportOf(state: Obj): TransportSignals {
  const t: TransportSignals = { isError: state.status === 'error' };
  const exit = isPlainObject(state.metadata) ? num(state.metadata.exit) : undefined;
  if (exit !== undefined) t.exitCode = exit;
  return t;
}

function readCall(b: SessionBuilder, ref: NodeRef, p: Obj, turn: number, messageText: string | undefined): void {
  if (p.type === 'tool-invocation') {
    const inv = p.toolInvocation as Obj;
    b.call({ name: inv.toolName as string, id: str(inv.toolCallId), at: at(ref, 'toolInvocation'), namePath: ['toolName'], argsPath: ['args'],
      args: inv.args, expect: 'object', messageText }, turn);
    return;
  }
  const state = p.state as Obj;
  b.call({ name: p.tool as string, id: str(p.callID), at: ref, namePath: ['tool'], argsPath: ['state', 'input'], args: state.input, expect: 'object', messageText }, turn);
}

function readResult(b: SessionBuilder, ref: NodeRef, p: Obj): void {
  if (p.type === 'tool-invocation') {
    const inv = p.toolInvocation as Obj;
    if (inv.state === 'result') b.result({ at: at(ref, 'toolInvocation'), callId: str(inv.toolCallId), payload: inv.result, payloadPath: ['result'] });
    return;
  }
  const state = p.state as Obj;
  const callId = str(p.callID);
  if (state.status === 'completed') {
    b.result({ at: at(ref, 'state'), callId, payload: state.output, payloadPath: ['output'], transport: transportOf(state) });
  } else if (state.status === 'error') {
    const meta = isPlainObject(state.metadata) ? state.metadata : undefined;
    const partial = meta?.interrupted === true && typeof meta.output === 'string';
    b.result({ at: at(ref, 'state'), callId, payload: partial ? meta.output : state.error, payloadPath: partial ? ['metadata', 'output'] : ['error'],
      transport: transportOf(state) });
  }
}

/** Write a session's items: each step's tool parts are one turn's calls, then their results. */
function readItems(b: SessionBuilder, items: Iterable<Item>): void {
  let tools: { ref: NodeRef; part: Obj }[] = [];
  let texts: string[] = [];
  const flush = () => {
    if (tools.length > 0) {
      const turn = b.newTurn();
      const text = texts.length ? texts.join('\n') : undefined;
      for (const t of tools) readCall(b, t.ref, t.part, turn, text);
      for (const t of tools) readResult(b, t.ref, t.part);
      b.breakTurn();
    }
    tools = [];
    texts = [];
  };
  for (const item of items) {
    if (item.kind === 'tool') {
      tools.push(item);
    } else if (item.kind === 'text') {
      // text after a step's calls is the model going on; text before them is the message that made them
      if (tools.length > 0) flush();
      texts.push(item.text);
      b.breakTurn();
    } else {
      flush();
      if (item.kind === 'user') b.breakTurn();
    }
  }
  flush();
}

/** Parts are read once: a copy of a part already read (same part id, or same call id) is skipped. */
function* once(items: Iterable<Item>): Generator<Item> {
  const seen = new Set<string>();
  for (const item of items) {
    if (item.kind === 'tool') {
      const key = str(item.part.id) ?? str(item.part.callID);
      if (key !== undefined) {
        if (seen.has(key)) continue;
        seen.add(key);
      }
    }
    yield item;
  }
}

function sessionIdOf(m: Obj): string | undefined {
  return str(isPlainObject(m.info) ? m.info.sessionID : undefined) ?? str(m.sessionID) ?? (isPlainObject(m.metadata) ? str(m.metadata.sessionID) : undefined);
}

function readDocument(doc: Doc, emit: Parameters<NonNullable<FormatAdapter['document']>['read']>[1]): void {
  const v = doc.value;
  const sessions = new SessionSet();
  if (isExport(v)) {
    const b = sessions.get(str((v.info as Obj).id) ?? '');
    readItems(b, once(v.messages.flatMap((m, i) => [...itemsOf(doc, ['messages', i], m as Obj)])));
  } else if (Array.isArray(v)) {
    const bySession = new Map<string, Item[]>();
    v.forEach((m, i) => {
      const key = sessionIdOf(m as Obj) ?? '';
      let list = bySession.get(key);
      if (!list) bySession.set(key, (list = []));
      list.push(...itemsOf(doc, [i], m as Obj));
    });
    for (const [key, list] of bySession) readItems(sessions.get(key), once(list));
  } else if (isMessage(v)) {
    readItems(sessions.get(sessionIdOf(v) ?? ''), once(itemsOf(doc, [], v)));
  } else if (isToolPart(v)) {
    const part = v as Obj;
    readItems(sessions.get(str(part.sessionID) ?? ''), [{ kind: 'tool', ref: { doc, path: [] }, part }]);
  }
  sessions.emitAll(emit);
}

const RUN_EVENTS = new Set(['tool_use', 'step_start', 'step_finish', 'text', 'reasoning', 'error', 'done']);

/** A bus event, unwrapped from the global stream's `{directory, payload}`. */
function busEvent(v: unknown): { event: Obj; path: JsonPath } | undefined {
  if (!isPlainObject(v)) return undefined;
  if (typeof v.type === 'string' && v.type.includes('.') && isPlainObject(v.properties)) return { event: v, path: [] };
  if (isPlainObject(v.payload) && typeof v.payload.type === 'string' && isPlainObject(v.payload.properties)) return { event: v.payload, path: ['payload'] };
  return undefined;
}

/** The part a line carries, and where: a run event's `part`, a bus event's `properties.part`. */
function partOfLine(v: unknown): { part: Obj; path: JsonPath; sessionID?: string } | undefined {
  if (isPlainObject(v) && RUN_EVENTS.has(v.type as string) && isPart(v.part)) return { part: v.part, path: ['part'], sessionID: str(v.sessionID) };
  const bus = busEvent(v);
  const props = bus?.event.properties as Obj | undefined;
  if (bus && props && bus.event.type === 'message.part.updated' && isPart(props.part)) {
    return { part: props.part, path: [...bus.path, 'properties', 'part'], sessionID: str(props.sessionID) };
  }
  return undefined;
}

/** Streamed events, held until the file ends so that each part is read in its last state. */
class EventReader {
  private readonly sessions = new Map<string, { items: Item[]; tools: Map<string, Item & { kind: 'tool' }>; texts: Set<string> }>();

  constructor(private readonly sessionFor: (key: string) => SessionBuilder) {}

  private session(key: string) {
    let s = this.sessions.get(key);
    if (!s) this.sessions.set(key, (s = { items: [], tools: new Map(), texts: new Set() }));
    return s;
  }

  read(doc: Doc): void {
    const v = doc.value;
    const found = partOfLine(v);
    if (!found) {
      const bus = busEvent(v);
      const info = bus?.event.type === 'message.updated' ? (bus.event.properties as Obj).info : undefined;
      if (isPlainObject(info) && info.role === 'user') this.session(str(info.sessionID) ?? '').items.push({ kind: 'user' });
      return;
    }
    const { part, path } = found;
    const s = this.session(str(part.sessionID) ?? found.sessionID ?? '');
    const id = str(part.id) ?? str(part.callID);
    if (isToolPart(part)) {
      const item = { kind: 'tool' as const, ref: { doc, path }, part };
      const earlier = id !== undefined ? s.tools.get(id) : undefined;
      if (earlier) {
        earlier.ref = item.ref;
        earlier.part = part;
        return;
      }
      if (id !== undefined) s.tools.set(id, item);
      s.items.push(item);
    } else if (part.type === 'step-start') {
      s.items.push({ kind: 'step' });
    } else {
      const text = textOfPart(part);
      // a streamed text part is re-sent as it grows: it counts once
      if (text === undefined || (id !== undefined && s.texts.has(id))) return;
      if (id !== undefined) s.texts.add(id);
      s.items.push({ kind: 'text', text });
    }
  }

  finish(): void {
    for (const [key, s] of this.sessions) readItems(this.sessionFor(key), s.items);
  }
}

export const opencode: FormatAdapter = {
  id: 'opencode',
  document: {
    claims(v) {
      return isExport(v) || (Array.isArray(v) && v.length > 0 && v.every(isMessage) && v.some((m) => (m as { parts: unknown[] }).parts.some(isToolPart)))
        || (isMessage(v) && v.parts.some(isToolPart)) || isStorageObject(v);
    },
    read: readDocument,
  },
  lines: {
    claims(v) {
      const found = partOfLine(v);
      return found !== undefined && isToolPart(found.part);
    },
    accepts(v) {
      return partOfLine(v) !== undefined || busEvent(v) !== undefined;
    },
    open(sink) {
      const reader = new EventReader((key) => sink.sessionFor(key));
      return { read: (doc) => reader.read(doc), finish: () => reader.finish() };
    },
  },
};
