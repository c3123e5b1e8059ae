// Anthropic Managed Agents (beta sessions API) recordings: JSONL of `[sdkMethod, payload]` pairs as an SDK
// recorder writes them. `sessions.create` carries the agent's custom tools (`input_schema`: embedded contracts);
// streamed events carry the calls (`agent.custom_tool_use` / `agent.tool_use` `{id, name, input}`, the id is an
// event id) and the results (`user.custom_tool_result` `{custom_tool_use_id, content, is_error}` and
// `agent.tool_result` `{tool_use_id, ...}`); a result sent with `events.send` and echoed by the stream is one
// result (the echo adds its `is_error`).
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import type { ToolResult } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj } from './util';

const METHOD = /^client\.(beta\.)?(sessions|agents)\./;

function isRecord(v: unknown): v is [string, unknown] {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && METHOD.test(v[0]);
}

function readTools(b: SessionBuilder, doc: Doc, path: JsonPath, agent: unknown): void {
  if (!isPlainObject(agent) || !Array.isArray(agent.tools)) return;
  agent.tools.forEach((t, i) => {
    if (isPlainObject(t) && typeof t.name === 'string' && 'input_schema' in t) b.tool(t.name, t.input_schema, { doc, path: [...path, 'tools', i] });
  });
}

function readEvent(b: SessionBuilder, doc: Doc, path: JsonPath, e: Obj, results: Map<string, ToolResult>): void {
  if ((e.type === 'agent.custom_tool_use' || e.type === 'agent.tool_use' || e.type === 'agent.mcp_tool_use') && typeof e.name === 'string') {
    b.call({ name: e.name, id: str(e.id), at: { doc, path }, namePath: ['name'], argsPath: ['input'], args: e.input, expect: 'object' });
    return;
  }
  const answers = str(e.custom_tool_use_id) ?? (e.type === 'agent.tool_result' || e.type === 'agent.mcp_tool_result' ? str(e.tool_use_id) : undefined);
  if (answers === undefined || !(typeof e.type === 'string' && e.type.endsWith('_result'))) {
    if (e.type === 'user.message' || e.type === 'agent.message') b.breakTurn();
    return;
  }
  const earlier = results.get(answers);
  if (earlier) {
    if (earlier.transport.isError === undefined && typeof e.is_error === 'boolean') earlier.transport.isError = e.is_error;
    return;
  }
  b.result({ at: { doc, path }, callId: answers, payload: e.content, payloadPath: ['content'], transport: typeof e.is_error === 'boolean' ? { isError: e.is_error } : {} });
  results.set(answers, b.session.results[b.session.results.length - 1]);
  b.breakTurn();
}

function readRecord(doc: Doc, b: SessionBuilder, results: Map<string, ToolResult>): void {
  const [method, payload] = doc.value as [string, unknown];
  if (/sessions\.create$|agents\.(create|update)$/.test(method) && isPlainObject(payload)) {
    if (isPlainObject(payload.agent)) readTools(b, doc, [1, 'agent'], payload.agent);
    else readTools(b, doc, [1], payload);
    b.session.id ??= str(payload.id);
  } else if (method.endsWith('events.stream') && isPlainObject(payload)) {
    readEvent(b, doc, [1], payload, results);
  } else if (method.endsWith('events.send') && Array.isArray(payload)) {
    const body = payload.find(isPlainObject) as Obj | undefined;
    const at = payload.indexOf(body);
    if (body && Array.isArray(body.events)) body.events.forEach((e, i) => isPlainObject(e) && readEvent(b, doc, [1, at, 'events', i], e, results));
  }
}

export const anthropicManaged: FormatAdapter = {
  id: 'anthropic-managed-agents',
  lines: {
    claims: isRecord,
    open({ builder }) {
      // a result sent with events.send and echoed by the stream: the echo only adds its is_error
      const results = new Map<string, ToolResult>();
      return { read: (doc) => readRecord(doc, builder, results) };
    },
  },
};
