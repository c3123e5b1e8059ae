// LangChain messages as LangSmith and Langfuse record them: serialized (`{lc, type: "constructor", kwargs}`) or as
// plain dicts; the calls of an AI message. Shared by the readers of both.
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
