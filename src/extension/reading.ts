// Which open documents are worth reading, and whether one that no reader read still looks like a trace. Pure (no
// `vscode` import), so the unit tests run it as it is. Documents of the JSON languages always go to the core; a
// plain-text document (`.txt`, `.log`, `.chunks`, `.af`, no extension) goes only when its first bytes start like
// JSON, JSONL, a recorded SSE stream or a log of JSON messages (core parse/log-lines.ts). Whether it is JSONL or one document is then the core's call (textShape).
import { parse } from 'jsonc-parser';
import { isPlainObject, LOG_LINE, textShape } from '../core';

/** Languages whose documents are always given to the core (it decides whether they are traces). */
export const JSON_LANGUAGES: ReadonlySet<string> = new Set(['json', 'jsonc', 'jsonl']);

/** Languages a trace saved under another name gets (`.txt`, `.log`, unknown extensions, no extension). */
export const TEXT_LANGUAGES: ReadonlySet<string> = new Set(['plaintext', 'log']);

/** The documents the providers (hovers, lenses, quick fixes) serve, as a DocumentSelector; they answer only for
 *  the checked traces among them. */
export const TRACE_SELECTOR: readonly { language: string }[] = [...JSON_LANGUAGES, ...TEXT_LANGUAGES].map((language) => ({ language }));

/** How much of a text document's start the cheap look reads. */
export const SNIFF_CHARS = 4096;

/** How much of an unread document's start is looked at to tell whether it is a trace after all. */
export const TRACE_HEAD_CHARS = 64 * 1024;

const SSE_FIELD = /^(data|event|id|retry):|^:/;
const SSE_DATA_JSON = /^data: ?[{[]/m;

/** The text after a BOM and leading whitespace. */
function lead(head: string): string {
  return head.replace(/^\ufeff?\s*/, '');
}

/**
 * Whether the start of a plain-text document looks like JSON, JSONL or a recorded Server-Sent Events stream: an
 * object (`{` then a key or `}`), an array of objects or arrays, or SSE fields with a `data:` line carrying JSON.
 * A log line such as `[2024-05-01 10:00] INFO` or `{{template}}` does not.
 */
export function startsLikeJson(head: string): boolean {
  const t = lead(head);
  if (t.startsWith('{') || t.startsWith('[')) {
    const next = t.slice(1).trimStart().charAt(0);
    if (t.startsWith('{')) return next === '"' || next === '}' || next === '';
    return next === '{' || next === '[' || next === '';
  }
  // a log that frames JSON messages in lines of text (Claude Desktop's MCP logs): the core reads the messages
  if (LOG_LINE.test(t)) return true;
  return SSE_FIELD.test(t) && SSE_DATA_JSON.test(t);
}

/** Keys that only tool traffic has. */
const TOOL_KEYS = new Set([
  'tool_calls', 'toolCalls', 'tool_call', 'toolCall', 'tool_call_id', 'toolCallId', 'tool_use', 'toolUse', 'tool_use_id',
  'toolUseId', 'tool_result', 'toolResult', 'function_call', 'functionCall', 'functionResponse', 'function_response',
  'tool_name', 'toolName', 'tool_input', 'toolInput',
]);

/** `type` values of tool traffic (content blocks, response items, stream events). */
const TOOL_TYPES = /^(tool[_-]?(use|call|result|calls?)|function[_-]?call(_output)?|server_tool_use|mcp_call|tool-call|tool-result)$/i;

/** Keys whose value, an array of objects, is the body of a conversation or a run. */
const CONTAINER_KEYS = new Set([
  'messages', 'events', 'spans', 'resourceSpans', 'scopeSpans', 'steps', 'turns', 'trajectory', 'history',
  'conversation', 'conversations', 'observations', 'contents', 'chat_history', 'interactions',
]);

/** Files that are configuration, never traces: they get no "not read" notice whatever keys they hold. */
const CONFIG_NAME =
  /(^|\/)(package(-lock)?\.json|npm-shrinkwrap\.json|composer\.(json|lock)|bun\.lock|(ts|js)config[^/]*\.json|[^/]*\.code-(workspace|snippets)|\.vscode\/[^/]*|\.devcontainer(\.json|\/[^/]*)|\.(eslintrc|babelrc|prettierrc|swcrc|jshintrc)[^/]*|(settings|launch|tasks|keybindings|extensions|devcontainer|renovate|vercel|firebase|turbo|lerna|nx|deno|biome)\.jsonc?|[^/]*\.schema\.json|[^/]*\.(contract|fixture)\.jsonc?|contract-guard\.config\.json)$/i;

export function isConfigName(path: string): boolean {
  return CONFIG_NAME.test(path);
}

/** What made a value look like a trace: a key, a `type`, or a message with a role. Undefined when nothing did. */
export function traceSign(value: unknown, budget = 4000): string | undefined {
  const queue: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  for (let i = 0; i < queue.length && i < budget; i++) {
    const { v, depth } = queue[i];
    if (depth > 8 || v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      // the first few items show the shape of all of them
      for (const item of v.slice(0, 8)) queue.push({ v: item, depth: depth + 1 });
      continue;
    }
    const o = v as Record<string, unknown>;
    for (const [k, child] of Object.entries(o)) {
      if (TOOL_KEYS.has(k)) return k;
      if (k === 'type' && typeof child === 'string' && TOOL_TYPES.test(child)) return `type: ${child}`;
      if (CONTAINER_KEYS.has(k) && Array.isArray(child) && child.length > 0 && isPlainObject(child[0])) return k;
      queue.push({ v: child, depth: depth + 1 });
    }
    if (typeof o.role === 'string' && ('content' in o || 'parts' in o)) return 'role';
  }
  return undefined;
}

/**
 * For a document that no reader read: what in its first `TRACE_HEAD_CHARS` says it is a trace after all (a tool key,
 * a role, an array of messages or events or spans), or undefined. JSONL is judged by its first lines, an SSE stream
 * by its first `data:` payloads, a document by a tolerant parse of its head (it may be cut, or broken further on).
 */
export function traceLike(head: string, path: string): string | undefined {
  if (isConfigName(path)) return undefined;
  const text = head.replace(/^\ufeff/, '');
  if (textShape(text, path, false) === 'lines') {
    let seen = 0;
    for (const raw of text.split('\n')) {
      let line = raw.trim();
      if (line === '') continue;
      if (SSE_FIELD.test(line)) {
        if (!line.startsWith('data:')) continue;
        line = line.slice(5).trim();
      }
      if (++seen > 20) break;
      try {
        const sign = traceSign(JSON.parse(line));
        if (sign) return sign;
      } catch {
        // a broken or cut line proves nothing either way
      }
    }
    return undefined;
  }
  try {
    // jsonc-parser keeps what it read before an error or the cut
    return traceSign(parse(text, [], { allowTrailingComma: true, disallowComments: false }));
  } catch {
    return undefined; // absurd nesting
  }
}
