// OpenAI Chat Completions: a messages array, a request or fine-tune line `{messages, tools}`, a completion
// response with `choices`, or JSONL of single messages. Arguments are JSON strings (`function.arguments`).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { isPlainObject, type SessionBuilder } from './builder';
import { isMiniSweTrajectory } from './mini-swe-agent';
import { isLettaAgentFile } from './letta';
import type { Doc, JsonPath } from '../parse/doc';

type Obj = Record<string, unknown>;

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

export function isChatMessage(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.role === 'string' && ROLES.has(v.role);
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.filter((p) => isPlainObject(p) && typeof p.text === 'string').map((p) => (p as Obj).text as string);
    return parts.length ? parts.join('\n') : undefined;
  }
  return undefined;
}

/** Read one chat message at `path` of `doc`. Shared by every document shape and by JSONL lines. */
export function readChatMessage(b: SessionBuilder, doc: Doc, path: JsonPath, msg: Obj): void {
  const calls = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
  if (msg.role === 'assistant' && (calls.length > 0 || isPlainObject(msg.function_call))) {
    const turn = b.newTurn();
    const messageText = textOf(msg.content);
    calls.forEach((tc, i) => {
      if (!isPlainObject(tc)) return;
      const fn = isPlainObject(tc.function) ? tc.function : undefined;
      if (!fn || typeof fn.name !== 'string') return;
      b.call(
        {
          name: fn.name,
          id: typeof tc.id === 'string' ? tc.id : undefined,
          at: { doc, path: [...path, 'tool_calls', i] },
          namePath: ['function', 'name'],
          argsPath: ['function', 'arguments'],
          args: fn.arguments,
          expect: 'string',
          messageText,
        },
        turn,
      );
    });
    const legacy = msg.function_call;
    if (isPlainObject(legacy) && typeof legacy.name === 'string') {
      b.call(
        { name: legacy.name, at: { doc, path: [...path, 'function_call'] }, namePath: ['name'], argsPath: ['arguments'],
          args: legacy.arguments, expect: 'string', messageText },
        turn,
      );
    }
    return;
  }
  if (msg.role === 'tool' || msg.role === 'function') {
    const id = typeof msg.tool_call_id === 'string' ? msg.tool_call_id : undefined;
    b.result({ at: { doc, path }, callId: id, payload: msg.content, payloadPath: ['content'],
      callIndex: id === undefined ? lastUnansweredCall(b) : undefined });
  }
  // an assistant message without calls: its text is kept (a call written as text is a fault of its own)
  if (msg.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, msg.content);
  else b.breakTurn();
}

/** Legacy `function` role messages carry no id: they answer the most recent call. */
function lastUnansweredCall(b: SessionBuilder): number | undefined {
  const n = b.session.calls.length;
  return n ? n - 1 : undefined;
}

export function readChatTools(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const fn = isPlainObject(t.function) ? t.function : t; // `tools[].function` or legacy `functions[]`
    if (typeof fn.name === 'string' && 'parameters' in fn) b.tool(fn.name, fn.parameters, { doc, path: [...path, i] });
  });
}

function messagesOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v) && Array.isArray(v.messages)) return v.messages;
  if (isPlainObject(v) && isPlainObject(v.conversation) && Array.isArray(v.conversation.messages)) return v.conversation.messages; // app exports
  return undefined;
}

function messagesPath(v: unknown): JsonPath {
  if (Array.isArray(v)) return [];
  return isPlainObject(v) && Array.isArray(v.messages) ? ['messages'] : ['conversation', 'messages'];
}

function hasChatToolTraffic(list: unknown[]): boolean {
  return list.some((m) => isChatMessage(m) && (Array.isArray(m.tool_calls) || m.role === 'tool' || isPlainObject(m.function_call)));
}

export const openaiChat: FormatAdapter = {
  id: 'openai-chat',
  document: {
    claims(v) {
      if (isPlainObject(v) && Array.isArray(v.choices)) {
        return v.choices.some((c) => isPlainObject(c) && isChatMessage(c.message));
      }
      const list = messagesOf(v);
      if (!list || list.length === 0 || !list.every(isChatMessage) || isMiniSweTrajectory(v) || isLettaAgentFile(v)) return false;
      // An array of messages with no tool traffic of either dialect is still a (call-less) chat transcript.
      return hasChatToolTraffic(list) || !list.some((m) => Array.isArray((m as Obj).content) && (m.content as unknown[]).some((p) => isPlainObject(p) && (p.type === 'tool_use' || p.type === 'tool_result')));
    },
    read(doc, emit) {
      const v = doc.value;
      singleSession((b) => {
        if (isPlainObject(v) && Array.isArray(v.choices)) {
          v.choices.forEach((c, i) => {
            if (isPlainObject(c) && isChatMessage(c.message)) readChatMessage(b, doc, ['choices', i, 'message'], c.message);
          });
          return;
        }
        const inRequest = isPlainObject(v);
        if (inRequest) {
          readChatTools(b, doc, ['tools'], v.tools);
          readChatTools(b, doc, ['functions'], v.functions);
        }
        const list = messagesOf(v) ?? [];
        const base = messagesPath(v);
        list.forEach((m, i) => readChatMessage(b, doc, [...base, i], m as Obj));
      }, emit);
    },
  },
  lines: {
    claims(v) {
      return isChatMessage(v) && !('type' in v) && (Array.isArray(v.tool_calls) || v.role === 'tool' || v.role === 'function' || isPlainObject(v.function_call));
    },
    accepts(v) {
      return isChatMessage(v) && !('type' in v) && !(Array.isArray(v.content) && v.content.some((p) => isPlainObject(p) && (p.type === 'tool_use' || p.type === 'tool_result')));
    },
    open: ({ builder }) => ({ read: (doc) => readChatMessage(builder, doc, [], doc.value as Obj) }),
  },
};
