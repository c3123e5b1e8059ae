// Anthropic Messages: a request or transcript `{messages, tools[].input_schema}`, a response `{type: "message",
// content}`, an array of messages, or JSONL of messages. Calls are `tool_use` blocks whose `input` is an object,
// and the server's: `server_tool_use` (web search and fetch, code execution, tool search) and `mcp_tool_use` (the
// MCP connector). Results name the call's `tool_use_id`: `tool_result` (`is_error`), `mcp_tool_result`
// (`is_error`) and every server tool's `*_tool_result` block, whose content is an error when its type is a
// `*_error` (`web_fetch_tool_result_error`, `code_execution_tool_result_error`, ...): an honest failure; any other
// content is the server's success (a code execution's `return_code` is its exit code). Definitions: `tools[]`
// with `input_schema`; server tools declared by type (`web_search_20250305`, `code_execution_20250825`, ...) by
// the names their calls get; tools of the request's `mcp_servers`, by the calls made to them. A record of a
// request and its response (`{request, response}`, exchange.ts) is one conversation. A response's result for a
// server tool called in an earlier response (a turn that paused, or went on after a client tool's result) answers a
// call made outside the file: no orphan.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { isPlainObject, type Obj } from '../objects';
import { markCallsElsewhere } from './util';
import type { TransportSignals } from '../model';
import { childPath, type Doc, type JsonPath } from '../parse/doc';
import { isClineHistory } from './cline-shape';
import { exchangeParts, isExchange } from './exchange';

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

export function isCallBlock(block: Obj): boolean {
  return CALL_BLOCKS.has(block.type as string);
}

export function isResultBlock(block: Obj): boolean {
  return block.type === 'tool_result' || (typeof block.type === 'string' && block.type.endsWith('_tool_result') && typeof block.tool_use_id === 'string');
}

/** What a result block's envelope says: `is_error`; a server tool's content typed `*_error` (a failure) or
 *  otherwise (its success, with the exit code a code execution reports in `return_code`). */
export function transportOf(block: Obj): TransportSignals {
  const t: TransportSignals = typeof block.is_error === 'boolean' ? { isError: block.is_error } : {};
  if (block.type === 'tool_result' || block.type === 'mcp_tool_result') return t;
  const c = block.content;
  const kind = isPlainObject(c) && typeof c.type === 'string' ? c.type : undefined;
  if (t.isError === undefined) t.isError = kind !== undefined && kind.endsWith('_error');
  if (isPlainObject(c) && typeof c.return_code === 'number') t.exitCode = c.return_code;
  return t;
}

/** A result block at `path` of `doc`, answering the call its `tool_use_id` names. Shared with the stream reader,
 *  where a server tool's result arrives whole in its `content_block_start`. */
export function readAnthropicResult(b: SessionBuilder, doc: Doc, path: JsonPath, block: Obj): void {
  b.result({ at: { doc, path }, callId: typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined,
    payload: block.content, payloadPath: ['content'], transport: transportOf(block) });
}

/** The text of a message's `text` blocks, one per line ('' when it has none). */
export function blockText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  let out: string | undefined;
  for (const c of content) {
    if (isPlainObject(c) && c.type === 'text' && typeof c.text === 'string') out = out === undefined ? c.text : `${out}\n${c.text}`;
  }
  return out ?? '';
}

// Paths relative to a call block (never changed once made: shared by every call)
const NAME_PATH: JsonPath = ['name'];
const INPUT_PATH: JsonPath = ['input'];

/** Read one message's content blocks. Shared with adapters whose lines wrap an Anthropic message; `turn` continues
 *  a turn already begun (Claude Code writes one API message over several lines). */
export function readAnthropicMessage(b: SessionBuilder, doc: Doc, path: JsonPath, msg: Obj, continueTurn?: number): void {
  const content = msg.content;
  if (!isBlockList(content)) {
    if (msg.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, content);
    else b.breakTurn();
    return;
  }
  const text = blockText(content);
  let turn: number | undefined;
  let called = false;
  // a plain loop, and a block's path made only for a call or a result: a log has a message (often of one block)
  // per line
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (!isPlainObject(block)) continue;
    if (CALL_BLOCKS.has(block.type as string) && typeof block.name === 'string') {
      turn ??= continueTurn ?? b.newTurn();
      called = true;
      b.call(
        { name: block.name, id: typeof block.id === 'string' ? block.id : undefined, at: { doc, path: childPath(path, 'content', i) }, namePath: NAME_PATH,
          argsPath: INPUT_PATH, args: block.input, expect: 'object', messageText: text || undefined },
        turn,
      );
    } else if (isResultBlock(block)) {
      readAnthropicResult(b, doc, childPath(path, 'content', i), block);
      // a server tool's result inside the model's message: the model saw it, so its next call is a new turn
      if (msg.role === 'assistant' && turn !== undefined) {
        turn = undefined;
        continueTurn = undefined;
      }
    }
  }
  // A message without calls; an assistant's keeps its text blocks (a record of a message whose calls follow in
  // later records, as Claude Code writes them, loses them again at the first such call).
  if (!called) {
    if (msg.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, content);
    else b.breakTurn();
  }
}

export function readAnthropicTools(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (!isPlainObject(t) || typeof t.name !== 'string') return;
    const at = { doc, path: [...path, i] };
    if ('input_schema' in t) b.tool(t.name, t.input_schema, at);
    else if (typeof t.type === 'string' && t.type !== 'custom') {
      // a server (or Anthropic-defined) tool, declared by type: its input is the platform's
      b.tool(t.name, undefined, at);
      if (t.type.startsWith('code_execution_')) for (const n of CODE_EXECUTION_CALLS) b.tool(n, undefined, at);
    }
  });
}

/** The calls a `code_execution_*` tool's newer versions make, besides `code_execution`. */
const CODE_EXECUTION_CALLS = ['bash_code_execution', 'text_editor_code_execution'];

/** Tools of the request's `mcp_servers` are not listed: the `mcp_tool_use` calls made to a declared server name
 *  them (after the listed definitions, which win). */
function declareMcpTools(b: SessionBuilder, doc: Doc, list: unknown[], base: JsonPath, servers: unknown): void {
  if (!Array.isArray(servers)) return;
  const defined = new Set(b.session.tools.map((t) => t.name));
  for (const m of list) {
    const content = isPlainObject(m) && Array.isArray(m.content) ? m.content : [];
    for (const block of content) {
      if (!isPlainObject(block) || block.type !== 'mcp_tool_use' || typeof block.name !== 'string' || defined.has(block.name)) continue;
      const i = servers.findIndex((s) => isPlainObject(s) && s.name === block.server_name);
      if (i < 0) continue;
      defined.add(block.name);
      b.tool(block.name, undefined, { doc, path: [...base, i] });
    }
  }
}

function isResponse(v: unknown): v is Obj {
  return isPlainObject(v) && v.type === 'message' && v.role === 'assistant' && isBlockList(v.content);
}

function messagesOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v) && Array.isArray(v.messages)) return v.messages;
  return undefined;
}

/** A request body: `messages` that are all Anthropic messages. */
export function isAnthropicRequest(v: unknown): boolean {
  return isPlainObject(v) && Array.isArray(v.messages) && v.messages.length > 0 && v.messages.every(isAnthropicMessage) && !isClineHistory(v);
}

/** A response, or a request or transcript. */
export function readAnthropicDocument(b: SessionBuilder, doc: Doc): void {
  const v = doc.value;
  if (isResponse(v)) {
    const before = b.session.results.length;
    readAnthropicMessage(b, doc, [], v);
    // a response holds only the server's results: one for a server tool called in an earlier response of the turn
    // (the turn paused, or a client tool was answered in between) answers a call made there
    markCallsElsewhere(b, before);
    return;
  }
  if (isPlainObject(v)) readAnthropicTools(b, doc, ['tools'], v.tools);
  const inRequest = isPlainObject(v);
  const list = messagesOf(v) ?? [];
  list.forEach((m, i) => readAnthropicMessage(b, doc, inRequest ? ['messages', i] : [i], m as Obj));
  if (inRequest) declareMcpTools(b, doc, list, ['mcp_servers'], v.mcp_servers);
}

export const anthropic: FormatAdapter = {
  id: 'anthropic',
  document: {
    claims(v) {
      if (isResponse(v) || isExchange(v, isAnthropicRequest, isResponse)) return true;
      const list = messagesOf(v);
      if (!list || list.length === 0 || !list.every(isAnthropicMessage) || isClineHistory(v)) return false;
      const tools = isPlainObject(v) ? v.tools : undefined;
      const declaresAnthropicTools = Array.isArray(tools) && tools.some((t) => isPlainObject(t) && 'input_schema' in t);
      return declaresAnthropicTools || list.some((m) => hasToolBlocks(m.content));
    },
    read(doc, emit) {
      singleSession((b) => {
        for (const part of exchangeParts(doc, isAnthropicRequest, isResponse)) readAnthropicDocument(b, part);
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
