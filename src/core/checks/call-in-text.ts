// call-in-text: the model wrote a tool call as text in a message that made no call, so nothing ran. The texts come
// from the session (`Session.texts`: assistant messages that made no call, kept by the readers through
// `SessionBuilder.assistantText`). Written forms read:
// - `<tool_call>{"name": ..., "arguments": ...}</tool_call>` (Hermes / Qwen), or with `<function=...>` inside;
// - `<function=name>...</function>` (Llama, Qwen3-Coder);
// - Harmony's `to=functions.name ... <|message|>{...}<|call|>` leaked into the text (gpt-oss);
// - a JSON block on lines of its own, bare or in a fence (an optional `[TOOL_CALLS]` / `<|python_tag|>` before it):
//   `{"name", "arguments"}`, `{"tool", "parameters"}`, `{"type": "function", "function": {...}}`, or an array of them.
// JSON quoted inside a sentence is prose, not a call; so is JSON whose name is no tool's (the known tools when
// contracts apply, else any identifier-like name). The finding spans the written call inside the message string.
import type { Span } from '../model';
import type { Check } from './check';
import { isIdentifierLike, withoutRecipient } from './tool-names';
import { isPlainObject } from '../objects';

export interface WrittenCall extends Span {
  /** The tool it names (as the contracts know it, when they do). */
  name: string;
  /** How it was written, for the message. */
  form: string;
}


/** Longest JSON block tried: a longer one is not a call someone meant to make (and bounds the scan). */
const MAX_BLOCK = 20_000;

const NAME_KEYS = ['name', 'tool'];
const ARGS_KEYS = ['arguments', 'parameters'];
const OTHER_KEYS = new Set(['type', 'id']);

/** The name of a call-shaped object (`{name, arguments}`, `{tool, parameters}`, `{type: "function", function}`). */
function callName(v: unknown): string | undefined {
  if (!isPlainObject(v)) return undefined;
  if (isPlainObject(v.function) && (v.type === 'function' || Object.keys(v).every((k) => k === 'function' || OTHER_KEYS.has(k)))) return callName(v.function);
  const nameKey = NAME_KEYS.find((k) => typeof v[k] === 'string');
  const argsKey = ARGS_KEYS.find((k) => k in v);
  if (nameKey === undefined || argsKey === undefined) return undefined;
  for (const k in v) if (k !== nameKey && k !== argsKey && !OTHER_KEYS.has(k)) return undefined;
  return v[nameKey] as string;
}

/** Position after the bracket that closes the one at `start`, or -1 (unclosed, or longer than MAX_BLOCK). */
function closing(text: string, start: number): number {
  let depth = 0;
  const stop = Math.min(text.length, start + MAX_BLOCK);
  for (let i = start; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < stop && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return i + 1;
  }
  return -1;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The names a JSON value writes as calls (one call, or an array of them), or undefined. */
function jsonCalls(v: unknown): string[] | undefined {
  const one = callName(v);
  if (one !== undefined) return [one];
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const names = v.map(callName);
  return names.every((n) => n !== undefined) ? (names) : undefined;
}

const TOOL_CALL = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;
const FUNCTION = /<function=([^>\s]+)>[\s\S]*?(?:<\/function>|$)/g;
const HARMONY = /(?:<\|start\|>assistant)?(?:<\|channel\|>\w+\s*)?\bto=([\w.:-]+)(?:<\|channel\|>\w+)?[^<\n]*(?:<\|constrain\|>\s*[\w-]+\s*)?<\|message\|>[\s\S]*?(?:<\|call\|>|$)/g;
const LINE_PREFIX = /^[ \t]*(?:\[TOOL_CALLS\]|<\|python_tag\|>)?[ \t]*/y;

/** The tool calls written in `text`, in order. `tool(name)` says whether a name is a tool's (and which). */
export function writtenCalls(text: string, tool: (name: string) => string | undefined): WrittenCall[] {
  const out: WrittenCall[] = [];
  const inside = (at: number) => out.some((w) => at >= w.start && at < w.end);
  const add = (name: string | undefined, form: string, start: number, end: number) => {
    const known = name === undefined ? undefined : tool(name);
    if (known !== undefined) out.push({ name: known, form, start, end });
  };
  if (text.indexOf('<') >= 0) {
    if (text.includes('<tool_call>')) {
      for (const m of text.matchAll(TOOL_CALL)) {
        const body = m[1].trim();
        const name = body.startsWith('{') || body.startsWith('[') ? jsonCalls(parse(body))?.[0] : /^<function=([^>\s]+)>/.exec(body)?.[1];
        add(name, '<tool_call>', m.index, m.index + m[0].length);
      }
    }
    if (text.includes('<function=')) {
      for (const m of text.matchAll(FUNCTION)) {
        // `<function=x>` in backticks is prose about the syntax
        if (!inside(m.index) && text.charCodeAt(m.index - 1) !== 96) add(m[1], '<function=…>', m.index, m.index + m[0].length);
      }
    }
    if (text.includes('<|message|>')) {
      for (const m of text.matchAll(HARMONY)) if (!inside(m.index)) add(m[1], 'a <|message|> block', m.index, m.index + m[0].length);
    }
  }
  if (text.indexOf('{') >= 0) {
    // JSON blocks on lines of their own: each line start whose first character (after a prefix) opens one
    for (let line = 0; line < text.length; ) {
      const next = text.indexOf('\n', line);
      const lineEnd = next < 0 ? text.length : next;
      LINE_PREFIX.lastIndex = line;
      const start = LINE_PREFIX.exec(text) ? LINE_PREFIX.lastIndex : line;
      const c = text.charCodeAt(start);
      let resume = lineEnd + 1;
      if ((c === 123 || c === 91) && !inside(start)) {
        const end = closing(text, start);
        // the block ends its line (only blanks or a closing fence after it): not a quote inside a sentence
        if (end > 0 && /^[ \t]*(?:```)?[ \t]*(?:\r?\n|$)/.test(text.slice(end, end + 8))) {
          const names = jsonCalls(parse(text.slice(start, end)));
          if (names) {
            const known = names.map(tool);
            if (known.every((n) => n !== undefined)) out.push({ name: (known).join(', '), form: names.length > 1 ? 'JSON calls' : 'a JSON call', start, end });
          }
          const after = text.indexOf('\n', end);
          resume = after < 0 ? text.length : after + 1;
        }
      }
      line = resume;
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

export const callInText: Check = {
  code: 'call-in-text',
  severity: 'warning',
  title: 'A tool call written as text, in a message that made no call',
  description: 'An assistant message that made no tool call (its turn ended there, so nothing ran) holds a tool call written as text: `<tool_call>{"name": …, "arguments": …}</tool_call>`, `<function=name>…</function>`, a leaked `to=functions.name … <|message|>{…}` block, or a JSON block on lines of its own (bare or fenced, `{"name", "arguments"}` / `{"tool", "parameters"}`, or a list of them). The model meant to call the tool and printed the call instead: whatever it said next assumed a result that never existed. The name must be a tool\'s: one the contracts declare when any apply, else any identifier-like name. JSON quoted inside a sentence, JSON that names no tool, and messages that also made real calls are left alone. The finding spans the written call inside the message.',
  example: { input: '{"role": "assistant", "content": "<tool_call>{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"Oslo\\"}}</tool_call>"} and no tool_calls', message: 'get_weather was written as text (<tool_call>), not called: the message made no call, so nothing ran' },
  run(ctx) {
    const texts = ctx.session.texts;
    if (!texts || texts.length === 0) return;
    const tool = ctx.closed
      ? (name: string) => (ctx.contractFor(name) ? name : ctx.contractFor(withoutRecipient(name)) ? withoutRecipient(name) : undefined)
      : (name: string) => (isIdentifierLike(name) ? withoutRecipient(name) : undefined);
    for (const t of texts) {
      for (const w of writtenCalls(t.text, tool)) {
        ctx.report({
          code: 'call-in-text',
          message: `${w.name} was written as text (${w.form}), not called: the message made no call, so nothing ran`,
          at: { ...t.at, range: { start: w.start, end: w.end } },
        });
      }
    }
  },
};
