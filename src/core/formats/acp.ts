// Agent Client Protocol (ACP: Zed's editor-agent protocol, spoken by Zed, Gemini CLI `--experimental-acp`, the
// Claude Code and Codex ACP adapters, Goose, Cline, Kimi CLI...) captured as JSONL: one JSON-RPC 2.0 message per line,
// as they cross the agent's stdio. Also read: the same messages in a capture's envelope (`{ts, dir, msg}` lines,
// found through the engine's wrapper search), a notification's bare `params` (`{sessionId, update}`) and bare
// updates (`{sessionUpdate, toolCallId, ...}`), as clients log them.
// Rules followed (agentclientprotocol.com, protocol/tool-calls and the schema):
// - A tool call is reported by a `session/update` notification whose `update.sessionUpdate` is `tool_call`
//   (`toolCallId`, `title`, `kind`, `status`, `rawInput`, `rawOutput`, `content`), then changed by
//   `tool_call_update` notifications of the same `toolCallId` that carry only the fields that change. So the call's
//   input may arrive in a later update: the call is made by the first message that carries a non-empty `rawInput`,
//   else by its terminal update, else when the file ends (then with what was seen, or no arguments).
//   `session/request_permission` (agent → client) carries a `toolCall` update too.
// - The terminal update (`status` `completed` or `failed`) is its result: `rawOutput` if present, else `content`;
//   `failed` is an honest failure. A call whose first message is already terminal is call and result at once.
// - ACP names no tool: `title` is for people ("Run `npm test`", or the tool's name as some agents write it). The
//   name is the agent's own where its `_meta` states one (the Claude Code adapter's `_meta.claudeCode.toolName`),
//   else the one Gemini CLI puts in its call ids (`<name>-<Date.now()>`: its titles are the invocation's
//   description, a path or a command), else a title that reads as a name, else the tool `kind` (`read`, `edit`,
//   `execute`, ...), else the title.
// - Sessions are `params.sessionId`; a `session/prompt` request is the user's turn. `session/load` replays the
//   history as updates with the ids already seen: read once.
// - Other JSON-RPC lines of the connection (`initialize` with its numeric `protocolVersion`, `session/new`, the
//   responses, `fs/*` and `terminal/*` requests) are the file's too: MCP's reader, which takes JSON-RPC, leaves them.
import type { FormatAdapter, LineSink } from './adapter';
import type { SessionBuilder } from './builder';
import { ItemLifecycle } from './item-lifecycle';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj } from './util';

const TOOL_UPDATES = new Set(['tool_call', 'tool_call_update']);
const TERMINAL = new Set(['completed', 'failed']);
const ACP_METHOD = /^(session|fs|terminal)\//;
/** A title that reads as a tool's name (a path or a sentence does not). */
const NAME_LIKE = /^[A-Za-z_][\w:-]*$/;
/** Gemini CLI's (and its forks') call ids: `<tool name>-<Date.now()>`. */
const NAMED_ID = /^([A-Za-z_][\w-]*?)-\d{13}$/;

/** A tool call update (or the `toolCall` of a permission request): its id, at least. */
function isToolUpdate(v: unknown): v is Obj & { toolCallId: string } {
  return isPlainObject(v) && typeof v.toolCallId === 'string';
}

/** Where a message's tool call update is, relative to the message: a notification, its bare params, a bare update. */
function updatePath(v: Obj): JsonPath | undefined {
  const params = isPlainObject(v.params) ? v.params : undefined;
  if (v.method === 'session/update' && params && isToolUpdate(params.update) && TOOL_UPDATES.has(params.update.sessionUpdate as string)) return ['params', 'update'];
  if (v.method === 'session/request_permission' && params && isToolUpdate(params.toolCall)) return ['params', 'toolCall'];
  if (!('method' in v) && !('jsonrpc' in v)) {
    if (isToolUpdate(v.update) && TOOL_UPDATES.has(v.update.sessionUpdate as string)) return ['update'];
    if (isToolUpdate(v) && TOOL_UPDATES.has(v.sessionUpdate as string)) return [];
  }
  return undefined;
}

function isAcpRpc(v: Obj): boolean {
  if (v.jsonrpc !== '2.0') return false;
  if (typeof v.method === 'string') {
    if (ACP_METHOD.test(v.method)) return true;
    // MCP's protocolVersion is a date string, ACP's an integer
    return v.method === 'initialize' && isPlainObject(v.params) && typeof v.params.protocolVersion === 'number';
  }
  const r = v.result;
  return isPlainObject(r) && (typeof r.stopReason === 'string' || isPlainObject(r.agentCapabilities) || (typeof r.sessionId === 'string' && Object.keys(r).length <= 4));
}

function claimsAcp(v: unknown): boolean {
  return isPlainObject(v) && (updatePath(v) !== undefined || isAcpRpc(v));
}

/** The tool's name as the update states it: the path of the name (relative to the update) and the name. */
function nameOf(u: Obj): { name: string; path: JsonPath } | undefined {
  if (isPlainObject(u._meta)) {
    const meta = u._meta;
    if (typeof meta.toolName === 'string') return { name: meta.toolName, path: ['_meta', 'toolName'] };
    for (const [vendor, body] of Object.entries(meta)) {
      if (isPlainObject(body) && typeof body.toolName === 'string') return { name: body.toolName, path: ['_meta', vendor, 'toolName'] };
    }
  }
  const named = NAMED_ID.exec(u.toolCallId as string);
  if (named) return { name: named[1], path: ['toolCallId'] };
  const title = str(u.title);
  if (title !== undefined && NAME_LIKE.test(title)) return { name: title, path: ['title'] };
  if (typeof u.kind === 'string') return { name: u.kind, path: ['kind'] };
  if (title !== undefined) return { name: title, path: ['title'] };
  return undefined;
}

interface Sighting {
  doc: Doc;
  path: JsonPath;
  update: Obj;
}

/** One ACP session: the calls waiting for their input, and which updates were already read. */
class AcpSession {
  private readonly items = new ItemLifecycle();
  /** Calls seen but not made yet: where their name is, and the latest input seen. */
  private readonly waiting = new Map<string, { named?: Sighting; input?: Sighting; first: Sighting }>();
  private readonly made = new Set<string>();

  constructor(readonly b: SessionBuilder) {}

  update(s: Sighting): void {
    const u = s.update;
    const id = u.toolCallId as string;
    const terminal = typeof u.status === 'string' && TERMINAL.has(u.status);
    if (!this.made.has(id)) {
      let w = this.waiting.get(id);
      if (!w) this.waiting.set(id, (w = { first: s }));
      if (!w.named && nameOf(u)) w.named = s;
      if (u.rawInput !== undefined && u.rawInput !== null) w.input = s;
      const full = isPlainObject(u.rawInput) ? Object.keys(u.rawInput).length > 0 : u.rawInput !== undefined && u.rawInput !== null;
      if (full || terminal) this.make(id);
    }
    if (!terminal || !this.items.isOutcome(id)) return;
    const output = u.rawOutput !== undefined ? 'rawOutput' : u.content !== undefined ? 'content' : undefined;
    this.b.result({ at: { doc: s.doc, path: s.path }, callId: id, payload: output === undefined ? undefined : u[output],
      payloadPath: output === undefined ? undefined : [output], transport: { isError: u.status === 'failed' } });
    // a call after a result is the model's next step
    this.b.breakTurn();
  }

  /** Make the call `id` from what its updates said. */
  make(id: string): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    this.made.add(id);
    const at = w.named ?? w.first;
    const name = nameOf(at.update);
    const input = w.input;
    this.b.call({ name: name?.name ?? 'unknown', id, at: { doc: at.doc, path: at.path }, namePath: name?.path ?? [],
      argsPath: ['rawInput'], args: input?.update.rawInput,
      argsAt: input ? { doc: input.doc, path: [...input.path, 'rawInput'] } : undefined, expect: 'object' });
  }

  finish(): void {
    for (const id of [...this.waiting.keys()]) this.make(id);
  }
}

class AcpLines {
  private readonly sessions = new Map<string, AcpSession>();

  constructor(private readonly sink: LineSink) {}

  private session(key: string | undefined): AcpSession {
    const k = key ?? '';
    let s = this.sessions.get(k);
    if (!s) this.sessions.set(k, (s = new AcpSession(key === undefined ? this.sink.builder : this.sink.sessionFor(key))));
    return s;
  }

  read(doc: Doc): void {
    const v = doc.value;
    if (!isPlainObject(v)) return;
    const path = updatePath(v);
    const params = isPlainObject(v.params) ? v.params : path?.length === 1 ? v : undefined;
    const key = str(params?.sessionId);
    if (path !== undefined) {
      let update: unknown = v;
      for (const k of path) update = (update as Obj)[k as string];
      this.session(key).update({ doc, path, update: update as Obj });
      return;
    }
    if (v.method === 'session/prompt') this.session(key).b.breakTurn();
    else if (isPlainObject(params?.update) && params.update.sessionUpdate === 'agent_message_chunk' && key !== undefined) this.session(key).b.breakTurn();
  }

  finish(): void {
    for (const s of this.sessions.values()) s.finish();
  }
}

export const acp: FormatAdapter = {
  id: 'acp',
  lines: {
    claims: claimsAcp,
    // the connection's other JSON-RPC messages (responses without a telling result, `session/update` of other kinds)
    accepts: (v) => isPlainObject(v) && v.jsonrpc === '2.0',
    keeps: (v) => isPlainObject(v) && v.jsonrpc === '2.0' && v.method !== 'tools/call' && v.method !== 'tools/list',
    open(sink) {
      const reader = new AcpLines(sink);
      return { read: (doc) => reader.read(doc), finish: () => reader.finish() };
    },
  },
};
