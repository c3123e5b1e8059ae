// Anthropic Messages: a request or transcript `{messages, tools[].input_schema}`, a response `{type: "message",
// content}`, an array of messages, or JSONL of messages. Calls are `tool_use` blocks whose `input` is an object;
// results are `tool_result` blocks with `is_error`.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { isPlainObject, type SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isClineHistory } from './cline';

type Obj = Record<string, unknown>;

function isBlockList(v: unknown): v is unknown[] {
  return Array.isArray(v);
}

export function hasToolBlocks(content: unknown): boolean {
  return isBlockList(content) && content.some((p) => isPlainObject(p) && (CALL_BLOCKS.has(p.type as string) || isResultBlock(p)));
}

function isAnthropicMessage(v: unknown): v is Obj {
  return isPlainObject(v) && (v.role === 'user' || v.role === 'assistant') && (typeof v.content === 'string' || isBlockList(v.content));
}

// Client tool calls, MCP connector calls and server tools (code execution, web search) are all calls; their
// results are `tool_result`, `mcp_tool_result` or a `*_tool_result` block naming the `tool_use_id`.
const CALL_BLOCKS = new Set(['tool_use', 'mcp_tool_use', 'server_tool_use']);

function isResultBlock(block: Obj): boolean {
  return block.type === 'tool_result' || (typeof block.type === 'string' && block.type.endsWith('_tool_result') && typeof block.tool_use_id === 'string');
}

/** A server tool's exit code, where its result reports one (`code_execution_tool_result.content.return_code`). */
function exitCodeOf(block: Obj): number | undefined {
  const c = block.content;
  return isPlainObject(c) && typeof c.return_code === 'number' ? c.return_code : undefined;
}

/** Read one message's content blocks. Shared with adapters whose lines wrap an Anthropic message; `turn` continues
 *  a turn already begun (Claude Code writes one API message over several lines). */
export function readAnthropicMessage(b: SessionBuilder, doc: Doc, path: JsonPath, msg: Obj, continueTurn?: number): void {
  const content = msg.content;
  if (!isBlockList(content)) {
    if (msg.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, content);
    else b.breakTurn();
    return;
  }
  const text = content
    .filter((p) => isPlainObject(p) && p.type === 'text' && typeof p.text === 'string')
    .map((p) => (p as Obj).text as string)
    .join('\n');
  let turn: number | undefined;
  content.forEach((block, i) => {
    if (!isPlainObject(block)) return;
    const at = { doc, path: [...path, 'content', i] };
    if (CALL_BLOCKS.has(block.type as string) && typeof block.name === 'string') {
      turn ??= continueTurn ?? b.newTurn();
      b.call(
        { name: block.name, id: typeof block.id === 'string' ? block.id : undefined, at, namePath: ['name'],
          argsPath: ['input'], args: block.input, expect: 'object', messageText: text || undefined },
        turn,
      );
    } else if (isResultBlock(block)) {
      const exitCode = exitCodeOf(block);
      b.result({
        at,
        callId: typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined,
        payload: block.content,
        payloadPath: ['content'],
        transport: { ...(typeof block.is_error === 'boolean' ? { isError: block.is_error } : {}), ...(exitCode === undefined ? {} : { exitCode }) },
      });
    }
  });
  // A message without calls; an assistant's keeps its text blocks (a record of a message whose calls follow in
  // later records, as Claude Code writes them, loses them again at the first such call).
  if (turn === undefined) {
    if (msg.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, content);
    else b.breakTurn();
  }
}

export function readAnthropicTools(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (isPlainObject(t) && typeof t.name === 'string' && 'input_schema' in t) b.tool(t.name, t.input_schema, { doc, path: [...path, i] });
  });
}

function isResponse(v: unknown): v is Obj {
  return isPlainObject(v) && v.type === 'message' && v.role === 'assistant' && isBlockList(v.content);
}

function messagesOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v) && Array.isArray(v.messages)) return v.messages;
  return undefined;
}

export const anthropic: FormatAdapter = {
  id: 'anthropic',
  document: {
    claims(v) {
      if (isResponse(v)) return true;
      const list = messagesOf(v);
      if (!list || list.length === 0 || !list.every(isAnthropicMessage) || isClineHistory(v)) return false;
      const tools = isPlainObject(v) ? v.tools : undefined;
      const declaresAnthropicTools = Array.isArray(tools) && tools.some((t) => isPlainObject(t) && 'input_schema' in t);
      return declaresAnthropicTools || list.some((m) => hasToolBlocks((m as Obj).content));
    },
    read(doc, emit) {
      const v = doc.value;
      singleSession((b) => {
        if (isResponse(v)) {
          readAnthropicMessage(b, doc, [], v);
          return;
        }
        if (isPlainObject(v)) readAnthropicTools(b, doc, ['tools'], v.tools);
        const inRequest = isPlainObject(v);
        (messagesOf(v) ?? []).forEach((m, i) => readAnthropicMessage(b, doc, inRequest ? ['messages', i] : [i], m as Obj));
      }, emit);
    },
  },
  lines: {
    claims(v) {
      return (isAnthropicMessage(v) && hasToolBlocks(v.content)) || isResponse(v);
    },
    accepts(v) {
      return isAnthropicMessage(v) && !('type' in v && v.type !== 'message');
    },
    open: ({ builder }) => ({ read: (doc) => readAnthropicMessage(builder, doc, [], doc.value as Obj) }),
  },
};
