// Model Context Protocol traffic. Two shapes:
// - JSON-RPC 2.0 logs (JSONL, where a line may be a batch: an array of messages; or a JSON array of messages):
//   `tools/call` requests are calls (`params.name`, `params.arguments`), the response with the same `id` is the
//   result (`isError`, or a JSON-RPC `error`, which is an honest failure), and a `tools/list` result's
//   `tools[].inputSchema` are embedded contracts (with their `outputSchema`, and the effects their `annotations`
//   state: readOnlyHint / destructiveHint / idempotentHint).
//   A proxy's capture may drop the `jsonrpc` member (`{ts, dir, id, method, params}`): a `tools/call` or
//   `tools/list` request is still MCP, and the bare responses after it are read as the rest of the log.
//   Request ids are unique within one connection only: an `initialize` request after other messages opens a new
//   connection (a host's log spans restarts of the server), read as a session of its own.
//   A result with `resultType: "input_required"` answers its request (the server asks for input first); the
//   client's retry is a new `tools/call` (new id, `inputResponses` / `requestState` in its params), read as a call
//   of its own: the checks know it as the retry (src/core/results.ts reads the result type).
// - Client-session captures (a Python client's log): `{type: "request"|"response", count, method, args, kwargs,
//   result, error}` lines, paired by `count`; `call_tool` args are `[name, arguments]`, `list_tools` lists tools.
//   The same client may write one record per session instead: `{session_id, server_info, calls: [{request:
//   {method, args, kwargs}, response: {success, result, error}}]}`, a request and its response side by side.
import type { FormatAdapter } from './adapter';
import { SessionBuilder, type NodeRef } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, type Obj } from './util';
import { behaviourOf } from '../contracts/annotations';

function isJsonRpc(v: unknown): v is Obj {
  return isPlainObject(v) && v.jsonrpc === '2.0' && ('method' in v || 'result' in v || 'error' in v);
}

/** A capture that dropped the `jsonrpc` member (a proxy's record of the message): MCP's own methods say what it
 *  is; the responses that follow (`{id, result | error}`) are taken once the file is MCP. */
const MCP_METHODS = new Set(['tools/call', 'tools/list']);
function isBareRequest(v: unknown): v is Obj {
  return isPlainObject(v) && !('jsonrpc' in v) && typeof v.method === 'string' && MCP_METHODS.has(v.method) && (v.params === undefined || isPlainObject(v.params));
}
function isBareResponse(v: unknown): v is Obj {
  return isPlainObject(v) && !('jsonrpc' in v) && idOf(v.id) !== undefined && ('result' in v || 'error' in v) && !('method' in v);
}

/** A JSON-RPC batch (an array of messages sent as one; MCP 2025-03-26): in a log, one line of the conversation. */
function isRpcBatch(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isJsonRpc);
}

function isCapture(v: unknown): v is Obj {
  return isPlainObject(v) && (v.type === 'request' || v.type === 'response') && typeof v.count === 'number' && typeof v.method === 'string';
}

interface McpMemo {
  /** Request id -> method, so a response knows what it answers. */
  pending: Map<string, string>;
}

function idOf(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

function readTools(b: SessionBuilder, ref: NodeRef, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (isPlainObject(t) && typeof t.name === 'string' && 'inputSchema' in t) {
      b.tool(t.name, t.inputSchema, { doc: ref.doc, path: [...ref.path, i] }, isPlainObject(t.outputSchema) ? t.outputSchema : undefined, behaviourOf(t.annotations));
    }
  });
}

/** A `CallToolResult` (or a JSON-RPC error) as a result: `isError` and the error are its transport. */
function readResult(b: SessionBuilder, doc: Doc, path: JsonPath, callId: string, result: unknown, error: unknown, resultKey: string, errorKey: string): void {
  const failed = error !== undefined && error !== null;
  const isError = failed ? true : isPlainObject(result) && typeof result.isError === 'boolean' ? result.isError : undefined;
  b.result({ at: { doc, path }, callId, payload: failed ? error : result, payloadPath: [failed ? errorKey : resultKey],
    transport: isError === undefined ? {} : { isError } });
  b.breakTurn();
}

function readRpc(b: SessionBuilder, doc: Doc, path: JsonPath, m: Obj, memo: McpMemo): void {
  const id = idOf(m.id);
  if (typeof m.method === 'string') {
    if (id !== undefined) memo.pending.set(id, m.method);
    const params = m.params;
    if (m.method === 'tools/call' && isPlainObject(params) && typeof params.name === 'string') {
      b.call({ name: params.name, id, at: { doc, path }, namePath: ['params', 'name'], argsPath: ['params', 'arguments'],
        args: params.arguments, expect: 'object' }, b.newTurn());
    }
    return;
  }
  if (id === undefined) return;
  const method = memo.pending.get(id) ?? answered(m);
  if (method === 'tools/list' && isPlainObject(m.result)) readTools(b, { doc, path: [...path, 'result', 'tools'] }, m.result.tools);
  else if (method === 'tools/call' || method === undefined) readResult(b, doc, path, id, m.result, m.error, 'result', 'error');
}

/** What a response whose request the log does not hold answers, by its result's shape (a log rotated, or begun
 *  after the connection was): a tool list, some other method's result (`{prompts}`, `{resources}`), or, for a
 *  `CallToolResult` or an error, undefined: read as a tool call's result. */
function answered(m: Obj): string | undefined {
  const r = m.result;
  if (m.error !== undefined && m.error !== null) return undefined;
  if (!isPlainObject(r) || Array.isArray(r.content) || 'structuredContent' in r || typeof r.isError === 'boolean') return undefined;
  return Array.isArray(r.tools) ? 'tools/list' : 'other';
}

/** A client-session request: `call_tool` args are `[name, arguments]` (or kwargs `{name, arguments}`). */
function readClientRequest(b: SessionBuilder, doc: Doc, path: JsonPath, id: string, m: Obj): void {
  if (m.method !== 'call_tool') return;
  const args = Array.isArray(m.args) ? m.args : [];
  const kwargs = isPlainObject(m.kwargs) ? m.kwargs : {};
  if (typeof args[0] === 'string') {
    b.call({ name: args[0], id, at: { doc, path }, namePath: ['args', 0], argsPath: ['args', 1], args: args[1], expect: 'object' }, b.newTurn());
  } else if (typeof kwargs.name === 'string') {
    b.call({ name: kwargs.name, id, at: { doc, path }, namePath: ['kwargs', 'name'], argsPath: ['kwargs', 'arguments'], args: kwargs.arguments, expect: 'object' }, b.newTurn());
  }
}

/** A client-session response to `method`: a tool list, or a call's result (`success: false` is a failure too). */
function readClientResponse(b: SessionBuilder, doc: Doc, path: JsonPath, id: string, method: unknown, m: Obj): void {
  if (method === 'list_tools' && isPlainObject(m.result)) readTools(b, { doc, path: [...path, 'result', 'tools'] }, m.result.tools);
  else if (method === 'call_tool') {
    const error = m.error ?? (m.success === false ? (m.result ?? 'failed') : undefined);
    readResult(b, doc, path, id, m.result, error, 'result', m.error !== undefined && m.error !== null ? 'error' : 'result');
  }
}

function readCapture(b: SessionBuilder, doc: Doc, path: JsonPath, m: Obj): void {
  const id = `#${m.count as number}`;
  if (m.type === 'request') readClientRequest(b, doc, path, id, m);
  else readClientResponse(b, doc, path, id, m.method, m);
}

/** One session record: each `calls[i]` holds a request and its response. */
function isSessionRecord(v: unknown): v is Obj {
  return isPlainObject(v) && Array.isArray(v.calls) && v.calls.length > 0 && v.calls.every((c) =>
    isPlainObject(c) && isPlainObject(c.request) && typeof c.request.method === 'string' && (c.response === undefined || c.response === null || isPlainObject(c.response)));
}

function readSessionRecord(b: SessionBuilder, doc: Doc, path: JsonPath, rec: Obj): void {
  (rec.calls as Obj[]).forEach((c, i) => {
    const request = c.request as Obj;
    const id = `#${i + 1}`;
    readClientRequest(b, doc, [...path, 'calls', i, 'request'], id, request);
    if (isPlainObject(c.response)) readClientResponse(b, doc, [...path, 'calls', i, 'response'], id, request.method, c.response);
  });
}

function newMemo(): McpMemo {
  return { pending: new Map() };
}

/** The connections of a log, one session each: `next` gives the session a message belongs to. */
class Connections {
  private count = 1;
  private read = false;
  readonly memo = newMemo();

  constructor(private b: SessionBuilder, private readonly open: (n: number) => SessionBuilder) {}

  next(m: Obj): SessionBuilder {
    if (m.method === 'initialize' && this.read) {
      this.b = this.open(++this.count);
      this.memo.pending.clear();
    }
    this.read = true;
    return this.b;
  }
}

export const mcp: FormatAdapter = {
  id: 'mcp',
  packs: ['mcp-filesystem', 'mcp-fetch', 'mcp-git'],
  document: {
    claims(v) {
      return isSessionRecord(v) || (Array.isArray(v) && v.length > 0 && (v.every(isJsonRpc) || v.every(isCapture) || v.every(isSessionRecord)));
    },
    read(doc, emit) {
      if (isSessionRecord(doc.value) || (doc.value as unknown[]).every(isSessionRecord)) {
        const records = isSessionRecord(doc.value) ? [{ rec: doc.value, path: [] as JsonPath }] : (doc.value as Obj[]).map((rec, i) => ({ rec, path: [i] as JsonPath }));
        for (const { rec, path } of records) {
          const b = new SessionBuilder();
          readSessionRecord(b, doc, path, rec);
          emit(b.session);
        }
        return;
      }
      const sessions = [new SessionBuilder()];
      const c = new Connections(sessions[0], () => sessions[sessions.push(new SessionBuilder()) - 1]);
      (doc.value as Obj[]).forEach((m, i) => (isJsonRpc(m) ? readRpc(c.next(m), doc, [i], m, c.memo) : readCapture(sessions[0], doc, [i], m)));
      for (const b of sessions) emit(b.session);
    },
  },
  lines: {
    claims: (v) => isJsonRpc(v) || isCapture(v) || isRpcBatch(v) || isBareRequest(v) || isSessionRecord(v),
    // the bare responses and other requests of such a capture prove nothing alone: taken once the file is MCP's
    keeps: (v) => isBareResponse(v) || (isPlainObject(v) && !('jsonrpc' in v) && typeof v.method === 'string' && !isCapture(v)),
    open(sink) {
      const c = new Connections(sink.builder, (n) => sink.sessionFor(`connection ${n}`));
      return {
        read(doc) {
          const m = doc.value as Obj;
          if (isRpcBatch(m)) m.forEach((x, i) => readRpc(c.next(x), doc, [i], x, c.memo));
          else if (isCapture(m)) readCapture(sink.builder, doc, [], m);
          else if (isSessionRecord(m)) {
            // a record is a whole session: checked as soon as it is read
            const sessionId = (doc.value as Obj).session_id;
            const key = `session ${typeof sessionId === 'string' ? sessionId : doc.base}`;
            sink.ties?.key(key);
            readSessionRecord(sink.sessionFor(key), doc, [], m);
            sink.closeSession(key);
          }
          else readRpc(c.next(m), doc, [], m, c.memo);
        },
      };
    },
  },
};
