// Cursor Agent CLI (`cursor-agent` / `agent -p --output-format stream-json`): one event per line `{type, subtype?,
// session_id, ...}`: `system` (`init`), `user`, `thinking` (`delta` / `completed`), `assistant` (`message.content[]`
// text, one line per message between tool calls), `tool_call` and the closing `result`. A call is a `tool_call`
// `started` event `{call_id, tool_call: {<name>ToolCall: {args}}}` (the tool is named by its key: `readToolCall` is
// `read`, `shellToolCall` is `shell`), or `{function: {name, arguments}}` for tools outside the built-in set; its
// result is the `completed` event of the same `call_id`, whose `result` is `{success: {...}}` (a shell's `exitCode`
// is its exit code), `{error: {errorMessage}}` or `{rejected: {reason}}` (the permission policy declined it): both
// honest failures. A `completed` event whose call was never started (a capture cut at its head) is the call too.
// An MCP tool's call is `mcpToolCall {args: {name: "<server>-<tool>", args: {...}, toolName, providerIdentifier}}`:
// it is the server's tool `toolName` (the name its `tools/list` declares) called with the inner `args`.
// Also read: the editor's agent transcripts (`~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`), one
// message per line `{role, message: {content: [...]}}` with Anthropic content blocks (`tool_use`, and `tool_result`
// where the transcript kept one: these exports are partial, most calls have no result recorded).
import { readAnthropicMessage } from './anthropic';
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import { ItemLifecycle } from './item-lifecycle';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, num, str, type Obj } from './util';

const PHASES = new Set(['started', 'completed']);
const OTHER_EVENTS = new Set(['system', 'user', 'assistant', 'thinking', 'result', 'interaction_query']);

/** The one tool of a `tool_call` payload: its name, the key it sits under and its body. */
function toolOf(tc: Obj): { name: string; key: string; body: Obj } | undefined {
  for (const [key, body] of Object.entries(tc)) {
    if (!isPlainObject(body)) continue;
    if (key.endsWith('ToolCall') && key.length > 'ToolCall'.length) return { name: key.slice(0, -'ToolCall'.length), key, body };
    if (key === 'function' && typeof body.name === 'string') return { name: body.name, key, body };
  }
  return undefined;
}

function isToolEvent(v: unknown): v is Obj & { call_id: string; tool_call: Obj } {
  return isPlainObject(v) && v.type === 'tool_call' && typeof v.subtype === 'string' && PHASES.has(v.subtype) && typeof v.call_id === 'string'
    && isPlainObject(v.tool_call) && toolOf(v.tool_call) !== undefined;
}

/** What a completed call's `result` says: which branch, and the transport it implies. */
function outcomeOf(result: unknown): { key?: string; transport: TransportSignals } {
  if (!isPlainObject(result)) return { transport: {} };
  if (isPlainObject(result.success)) {
    const code = num(result.success.exitCode) ?? num(result.success.exit_code);
    return { key: 'success', transport: { isError: false, ...(code === undefined ? {} : { exitCode: code }) } };
  }
  for (const key of ['error', 'rejected']) if (key in result) return { key, transport: { isError: true } };
  return { transport: {} };
}

const ROLES = new Set(['user', 'assistant', 'system']);

/** An agent-transcript line: the role beside the message, which holds only typed content blocks. */
function isTranscriptLine(v: unknown): v is Obj & { message: Obj & { content: unknown[] } } {
  return isPlainObject(v) && typeof v.role === 'string' && ROLES.has(v.role) && !('type' in v) && isPlainObject(v.message)
    && !('role' in v.message) && Array.isArray(v.message.content) && v.message.content.every((b) => isPlainObject(b) && typeof b.type === 'string');
}

/** A transcript line that holds a call or a result: Cursor's beyond doubt. */
function isTranscriptToolLine(v: unknown): boolean {
  return isTranscriptLine(v) && v.message.content.some((b) => (b as Obj).type === 'tool_use' || (b as Obj).type === 'tool_result');
}

/** The events around the calls. They say nothing alone, and Claude Code's `--output-format stream-json` has the same
 *  types: its lines carry `parent_tool_use_id` (messages), `tools` (init) or `num_turns` (result), Cursor's never. */
function isOtherEvent(v: unknown): boolean {
  return isPlainObject(v) && typeof v.type === 'string' && OTHER_EVENTS.has(v.type) && typeof v.session_id === 'string'
    && !('parent_tool_use_id' in v) && !('uuid' in v) && !('tools' in v) && !('num_turns' in v);
}

class CursorLines {
  /** The first event of a call_id is the call, its `completed` event the outcome. */
  private readonly items = new ItemLifecycle();

  constructor(private readonly b: SessionBuilder) {}

  read(doc: Doc): void {
    const v = doc.value;
    if (isTranscriptLine(v)) {
      readAnthropicMessage(this.b, doc, ['message'], { role: v.role, content: v.message.content });
      return;
    }
    if (!isPlainObject(v)) return;
    this.b.session.id ??= str(v.session_id);
    if (!isToolEvent(v)) {
      // the model's words, a new prompt or the end of the run: the calls before them are one turn
      if (v.type === 'assistant' || v.type === 'user' || v.type === 'result') this.b.breakTurn();
      return;
    }
    const tool = toolOf(v.tool_call)!;
    const id = v.call_id;
    if (this.items.isCall(id)) this.call(doc, tool, id);
    if (v.subtype !== 'completed' || !this.items.isOutcome(id)) return;
    const result = tool.body.result;
    const { key, transport } = outcomeOf(result);
    const payloadPath: JsonPath = ['tool_call', tool.key, 'result', ...(key === undefined ? [] : [key])];
    this.b.result({ at: { doc, path: [] }, callId: id, payload: key === undefined ? result : (result as Obj)[key], payloadPath, transport });
    // a call started after a result was seen is the model's next step
    this.b.breakTurn();
  }

  private call(doc: Doc, tool: { name: string; key: string; body: Obj }, id: string): void {
    const mcp = tool.key === 'mcpToolCall' && isPlainObject(tool.body.args) ? tool.body.args : undefined;
    if (mcp) {
      const nameKey = ['toolName', 'tool_name', 'name'].find((k) => typeof mcp[k] === 'string');
      this.b.call({ name: nameKey ? (mcp[nameKey] as string) : tool.name, id, at: { doc, path: ['tool_call', tool.key, 'args'] },
        namePath: nameKey ? [nameKey] : [], argsPath: ['args'], args: mcp.args ?? {}, expect: 'object' });
      return;
    }
    const fn = tool.key === 'function';
    this.b.call({ name: tool.name, id, at: { doc, path: ['tool_call', tool.key] }, namePath: fn ? ['name'] : [], argsPath: [fn ? 'arguments' : 'args'],
      args: fn ? tool.body.arguments : tool.body.args, expect: fn ? 'any' : 'object' });
  }
}

export const cursorAgent: FormatAdapter = {
  id: 'cursor-agent',
  lines: {
    claims: (v) => isToolEvent(v) || isTranscriptToolLine(v),
    accepts: (v) => isOtherEvent(v) || isTranscriptLine(v),
    open({ builder }) {
      const reader = new CursorLines(builder);
      return { read: (doc) => reader.read(doc) };
    },
  },
};
