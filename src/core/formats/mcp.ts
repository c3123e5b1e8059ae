// Model Context Protocol traffic. Two shapes:
// - JSON-RPC 2.0 logs (JSONL, where a line may be a batch: an array of messages; or a JSON array of messages):
//   `tools/call` requests are calls (`params.name`, `params.arguments`), the response with the same `id` is the
//   result (`isError`, or a JSON-RPC `error`, which is an honest failure), and a `tools/list` result's
//   `tools[].inputSchema` are embedded contracts (with their `outputSchema`, and the effects their `annotations`
//   state: readOnlyHint / destructiveHint / idempotentHint).
//   A result with `resultType: "input_required"` answers its request (the server asks for input first); the
//   client's retry is a new `tools/call` (new id, `inputResponses` / `requestState` in its params), read as a call
//   of its own: the checks know it as the retry (src/core/results.ts reads the result type).
// - Client-session captures (a Python client's log): `{type: "request"|"response", count, method, args, kwargs,
//   result, error}` lines, paired by `count`; `call_tool` args are `[name, arguments]`, `list_tools` lists tools.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, type Obj } from './util';
import { behaviourOf } from '../contracts/annotations';

function isJsonRpc(v: unknown): v is Obj {
  return isPlainObject(v) && v.jsonrpc === '2.0' && ('method' in v || 'result' in v || 'error' in v);
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
  const method = memo.pending.get(id);
  if (method === 'tools/list' && isPlainObject(m.result)) readTools(b, { doc, path: [...path, 'result', 'tools'] }, m.result.tools);
  else if (method === 'tools/call' || method === undefined) readResult(b, doc, path, id, m.result, m.error, 'result', 'error');
}

function readCapture(b: SessionBuilder, doc: Doc, path: JsonPath, m: Obj): void {
  const id = `#${m.count as number}`;
  const method = m.method as string;
  const kwargs = isPlainObject(m.kwargs) ? m.kwargs : {};
  if (m.type === 'request') {
    if (method !== 'call_tool') return;
    const args = Array.isArray(m.args) ? m.args : [];
    if (typeof args[0] === 'string') {
      b.call({ name: args[0], id, at: { doc, path }, namePath: ['args', 0], argsPath: ['args', 1], args: args[1], expect: 'object' }, b.newTurn());
    } else if (typeof kwargs.name === 'string') {
      b.call({ name: kwargs.name, id, at: { doc, path }, namePath: ['kwargs', 'name'], argsPath: ['kwargs', 'arguments'], args: kwargs.arguments, expect: 'object' }, b.newTurn());
    }
    return;
  }
  if (method === 'list_tools' && isPlainObject(m.result)) readTools(b, { doc, path: [...path, 'result', 'tools'] }, m.result.tools);
  else if (method === 'call_tool') readResult(b, doc, path, id, m.result, m.error, 'result', 'error');
}

function newMemo(): McpMemo {
  return { pending: new Map() };
}

export const mcp: FormatAdapter = {
  id: 'mcp',
  packs: ['mcp-filesystem', 'mcp-fetch', 'mcp-git'],
  document: {
    claims(v) {
      return Array.isArray(v) && v.length > 0 && (v.every(isJsonRpc) || v.every(isCapture));
    },
    read(doc, emit) {
      const memo = newMemo();
      singleSession((b) => (doc.value as Obj[]).forEach((m, i) => (isJsonRpc(m) ? readRpc(b, doc, [i], m, memo) : readCapture(b, doc, [i], m))), emit);
    },
  },
  lines: {
    claims: (v) => isJsonRpc(v) || isCapture(v) || isRpcBatch(v),
    open({ builder }) {
      const memo = newMemo();
      return {
        read(doc) {
          const m = doc.value as Obj;
          if (isRpcBatch(m)) m.forEach((x, i) => readRpc(builder, doc, [i], x, memo));
          else if (isJsonRpc(m)) readRpc(builder, doc, [], m, memo);
          else readCapture(builder, doc, [], m);
        },
      };
    },
  },
};
