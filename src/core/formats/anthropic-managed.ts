// Anthropic Managed Agents (beta sessions API) recordings: JSONL of `[sdkMethod, payload]` pairs as an SDK
// recorder writes them. `sessions.create` (or `agents.create`/`update`) carries the agent's tools: custom tools
// with `input_schema` (embedded contracts), the built-in agent toolset (`agent_toolset_*`: bash, read, write,
// edit, glob, grep, web_fetch, web_search, less those its `configs` disable) and MCP toolsets (their tools are
// named by the calls made to the server). Streamed events (`events.stream`, or a page of `events.list`) carry
// the calls, whose id is the event id: `agent.custom_tool_use`, `agent.tool_use`, `agent.mcp_tool_use`
// `{id, name, input}`; and the results, linked each by its own key: `user.custom_tool_result`
// `{custom_tool_use_id}`, `agent.tool_result` `{tool_use_id}`, `agent.mcp_tool_result` `{mcp_tool_use_id}`
// (`is_error` on each). Copies are read once: a result sent with `events.send` and echoed by the stream is one
// result (the echo adds its `is_error`); an event met again (same event id) is not read again.
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import type { ToolResult } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, keyText, str, type Obj } from './util';

const METHOD = /^client\.(beta\.)?(sessions|agents)\./;

/** The tools of the agent toolset, by the names their calls get. */
const TOOLSET = ['bash', 'read', 'write', 'edit', 'glob', 'grep', 'web_fetch', 'web_search'];

const CALLS = new Set(['agent.custom_tool_use', 'agent.tool_use', 'agent.mcp_tool_use']);

/** Result event types and the key that names the call each answers. */
const RESULTS = new Map([
  ['user.custom_tool_result', 'custom_tool_use_id'],
  ['agent.tool_result', 'tool_use_id'],
  ['agent.mcp_tool_result', 'mcp_tool_use_id'],
]);

function isRecord(v: unknown): v is [string, unknown] {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && METHOD.test(v[0]);
}

/** Where an event came from: sent by the client, or read back from the session (stream, list). */
type Channel = 'sent' | 'session';

class ManagedReader {
  /** Results by `type:call id`, with the channel that brought them: the other channel's copy is an echo. */
  private readonly results = new Map<string, { result: ToolResult; channel: Channel }>();
  /** Event ids read, with what each call event said (a stream and a list page may both hold an event: the same
   *  id saying the same is that event again; another call under a used id is a call of its own). */
  private readonly events = new Map<string, string>();
  private readonly defined = new Set<string>();
  /** MCP toolsets the agent has, by server name: where they are declared. */
  private readonly mcpToolsets = new Map<string, { doc: Doc; path: JsonPath }>();

  constructor(private readonly b: SessionBuilder) {}

  record(doc: Doc): void {
    const [method, payload] = doc.value as [string, unknown];
    const b = this.b;
    if (/sessions\.create$|agents\.(create|update)$/.test(method) && isPlainObject(payload)) {
      if (isPlainObject(payload.agent)) this.tools(doc, [1, 'agent'], payload.agent);
      else this.tools(doc, [1], payload);
      b.session.id ??= str(payload.id);
    } else if (method.endsWith('events.stream') && isPlainObject(payload)) {
      this.event(doc, [1], payload, 'session');
    } else if (method.endsWith('events.list')) {
      const page = isPlainObject(payload) && Array.isArray(payload.data) ? { list: payload.data, path: [1, 'data'] } : Array.isArray(payload) ? { list: payload, path: [1] } : undefined;
      page?.list.forEach((e, i) => isPlainObject(e) && this.event(doc, [...page.path, i], e, 'session'));
    } else if (method.endsWith('events.send') && Array.isArray(payload)) {
      const body = payload.find(isPlainObject);
      const at = payload.indexOf(body);
      if (body && Array.isArray(body.events)) body.events.forEach((e, i) => isPlainObject(e) && this.event(doc, [1, at, 'events', i], e, 'sent'));
    }
  }

  private tools(doc: Doc, path: JsonPath, agent: unknown): void {
    if (!isPlainObject(agent) || !Array.isArray(agent.tools)) return;
    agent.tools.forEach((t, i) => {
      if (!isPlainObject(t)) return;
      const at = { doc, path: [...path, 'tools', i] };
      if (typeof t.name === 'string' && 'input_schema' in t) this.tool(t.name, t.input_schema, at);
      else if (typeof t.type === 'string' && t.type.startsWith('agent_toolset_')) {
        const byDefault = !(isPlainObject(t.default_config) && t.default_config.enabled === false);
        const configs = Array.isArray(t.configs) ? t.configs.filter(isPlainObject) : [];
        for (const name of TOOLSET) {
          const config = configs.find((c) => c.name === name);
          if (config ? config.enabled !== false : byDefault) this.tool(name, undefined, at);
        }
      } else if (t.type === 'mcp_toolset' && typeof t.mcp_server_name === 'string') this.mcpToolsets.set(t.mcp_server_name, at);
    });
  }

  private tool(name: string, schema: unknown, at: { doc: Doc; path: JsonPath }): void {
    if (this.defined.has(name)) return;
    this.defined.add(name);
    this.b.tool(name, schema, at);
  }

  private event(doc: Doc, path: JsonPath, e: Obj, channel: Channel): void {
    const b = this.b;
    const type = str(e.type) ?? '';
    const id = str(e.id);
    if (id !== undefined) {
      const said = CALLS.has(type) ? `${type}|${keyText(e.name)}|${JSON.stringify(e.input)}` : type;
      if (this.events.get(id) === said) return; // the same event, recorded twice
      this.events.set(id, said);
    }
    if (CALLS.has(type) && typeof e.name === 'string') {
      b.call({ name: e.name, id, at: { doc, path }, namePath: ['name'], argsPath: ['input'], args: e.input, expect: 'object' });
      // an MCP toolset's tools are known by the calls made to it
      const server = type === 'agent.mcp_tool_use' ? str(e.mcp_server_name) : undefined;
      const toolset = server === undefined ? undefined : this.mcpToolsets.get(server);
      if (toolset) this.tool(e.name, undefined, toolset);
      return;
    }
    const key = RESULTS.get(type);
    const answers = key === undefined ? undefined : str(e[key]) ?? str(e.tool_use_id);
    if (answers === undefined) {
      if (type === 'agent.message') b.assistantText({ doc, path: [...path, 'content'] }, e.content);
      else if (type === 'user.message') b.breakTurn();
      return;
    }
    const seen = this.results.get(`${type}:${answers}`);
    if (seen && seen.channel !== channel) {
      // the echo of a result sent (or the sent copy of one streamed): it only adds what the other lacked
      if (seen.result.transport.isError === undefined && typeof e.is_error === 'boolean') seen.result.transport.isError = e.is_error;
      return;
    }
    b.result({ at: { doc, path }, callId: answers, payload: e.content, payloadPath: ['content'], transport: typeof e.is_error === 'boolean' ? { isError: e.is_error } : {} });
    this.results.set(`${type}:${answers}`, { result: b.session.results[b.session.results.length - 1], channel });
    b.breakTurn();
  }
}

export const anthropicManaged: FormatAdapter = {
  id: 'anthropic-managed-agents',
  lines: {
    claims: isRecord,
    open({ builder }) {
      const reader = new ManagedReader(builder);
      return { read: (doc) => reader.record(doc) };
    },
  },
};
