// LangChain messages as LangSmith, Langfuse and LangGraph record them: serialized (`{lc, type: "constructor", kwargs}`)
// or as plain dicts; the calls of an AI message, and a conversation of them (the LangGraph reader's). Shared by the
// readers of all three.
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, textOf, type Obj } from './util';

/** A LangChain message as its fields: a serialized one (`{lc, type: "constructor", kwargs}`, also met with its
 *  `kwargs` only), one as `messages_to_dict` writes it (`{type: "ai", data: {...}}`, chat histories), or a plain
 *  dict. */
export function langChainFields(m: unknown): { value: Obj; path: JsonPath } | undefined {
  if (!isPlainObject(m)) return undefined;
  if (isPlainObject(m.kwargs) && (m.lc !== undefined || (('content' in m.kwargs || 'tool_calls' in m.kwargs) && !('content' in m)))) return { value: m.kwargs, path: ['kwargs'] };
  if (typeof m.type === 'string' && isPlainObject(m.data) && 'content' in m.data && !('content' in m)) return { value: m.data, path: ['data'] };
  return { value: m, path: [] };
}

/** The calls of a LangChain AI message at `path` (a message dict; the kwargs of a serialized one): the provider's
 *  `additional_kwargs.tool_calls` (OpenAI shape, arguments as written), else LangChain's parsed `tool_calls` and
 *  `invalid_tool_calls`. Returns how many calls it read. */
export function readLangChainCalls(b: SessionBuilder, doc: Doc, path: JsonPath, msg: Obj, keep: (id: string | undefined, name: string) => boolean = () => true): number {
  const extra = isPlainObject(msg.additional_kwargs) && Array.isArray(msg.additional_kwargs.tool_calls) ? msg.additional_kwargs.tool_calls : [];
  const messageText = textOf(msg.content);
  let turn: number | undefined;
  let n = 0;
  const add = (name: string, id: string | undefined, at: JsonPath, namePath: JsonPath, argsPath: JsonPath, args: unknown) => {
    if (!keep(id, name)) return;
    turn ??= b.newTurn();
    b.call({ name, id, at: { doc, path: at }, namePath, argsPath, args, expect: 'any', messageText }, turn);
    n++;
  };
  if (extra.length > 0) {
    extra.forEach((tc, i) => {
      const fn = isPlainObject(tc) && isPlainObject(tc.function) ? tc.function : undefined;
      if (fn && typeof fn.name === 'string') add(fn.name, str((tc as Obj).id), [...path, 'additional_kwargs', 'tool_calls', i], ['function', 'name'], ['function', 'arguments'], fn.arguments);
    });
    return n;
  }
  for (const key of ['tool_calls', 'invalid_tool_calls']) {
    const list = Array.isArray(msg[key]) ? msg[key] : [];
    list.forEach((tc, i) => {
      if (isPlainObject(tc) && typeof tc.name === 'string') add(tc.name, str(tc.id), [...path, key, i], ['name'], ['args'], tc.args);
    });
  }
  return n;
}

const MESSAGE_TYPES = new Set(['human', 'ai', 'tool', 'system', 'function', 'chat', 'remove', 'AIMessageChunk', 'HumanMessageChunk', 'ToolMessageChunk']);

/** The `type` of a LangChain message in any of its three forms (`ai`, `tool`, …), or undefined when it is none. */
export function langChainType(m: unknown): string | undefined {
  const f = langChainFields(m);
  if (!f || !('content' in f.value || 'tool_calls' in f.value)) return undefined;
  const t = typeof f.value.type === 'string' ? f.value.type : isPlainObject(m) && typeof m.type === 'string' && m.type !== 'constructor' ? m.type : undefined;
  if (t !== undefined && MESSAGE_TYPES.has(t)) return t;
  // a serialized message names its class in `id` (`["langchain", "schema", "messages", "AIMessage"]`)
  const id = isPlainObject(m) && Array.isArray(m.id) ? m.id[m.id.length - 1] : undefined;
  return id === 'AIMessage' || id === 'AIMessageChunk' ? 'ai' : id === 'ToolMessage' ? 'tool' : id === 'HumanMessage' ? 'human' : id === 'SystemMessage' ? 'system' : undefined;
}

/** One LangChain message of a conversation, at `path`: an AI message's calls, a tool message answering one by
 *  `tool_call_id` (`status: "error"` is the error flag ToolNode sets when a tool raised), any other a turn break. */
export function readLangChainMessage(b: SessionBuilder, doc: Doc, path: JsonPath, m: unknown): void {
  const type = langChainType(m);
  const f = langChainFields(m);
  if (type === undefined || !f) return;
  const at: JsonPath = [...path, ...f.path];
  if (type === 'ai' || type === 'AIMessageChunk') {
    if (readLangChainCalls(b, doc, at, f.value) === 0) b.assistantText({ doc, path: [...at, 'content'] }, f.value.content);
  } else if (type === 'tool' || type === 'ToolMessageChunk') {
    const status = str(f.value.status);
    b.result({ at: { doc, path: at }, callId: str(f.value.tool_call_id), payloadPath: ['content'], payload: f.value.content,
      transport: status === 'error' ? { isError: true } : status === 'success' ? { isError: false } : undefined });
  } else b.breakTurn();
}

/** A conversation of LangChain messages, the list at `path`. */
export function readLangChainMessages(b: SessionBuilder, doc: Doc, path: JsonPath, list: unknown[]): void {
  list.forEach((m, i) => readLangChainMessage(b, doc, [...path, i], m));
}
