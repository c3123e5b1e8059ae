// Microsoft Semantic Kernel chat history, as its two SDKs serialize it.
// - Python (`ChatHistory.serialize()` / `model_dump`): `{messages: [{role, items: [...]}]}`; an item names its kind
//   in `content_type`: `function_call {id, name, function_name, plugin_name, arguments}` (arguments a JSON string
//   or an object; `name` is the full name the model called, `<plugin>-<function>`), `function_result {id, name,
//   result}`, `text`, ...
// - .NET (System.Text.Json of `ChatHistory`): a list of `{Role: {Label}, Items: [...]}` (camelCase with web
//   defaults); an item names its class in `$type`: `FunctionCallContent {Id, PluginName, FunctionName,
//   Arguments}` (an object), `FunctionResultContent {CallId, PluginName, FunctionName, Result}`, `TextContent`.
//   The model saw `<plugin>-<function>`; without a plugin, the function name.
// A result is paired by its id (`id` / `CallId`); SK records no error flag of its own (a failed function's
// exception text is the result).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { at, isPlainObject, str, type Obj } from './util';

/** `o[name]` in any of the spellings SK writes (Pascal, camel, snake). */
function keyIn(o: Obj, ...names: string[]): string | undefined {
  return names.find((n) => n in o);
}

function itemsOf(m: unknown): { key: string; items: unknown[] } | undefined {
  if (!isPlainObject(m)) return undefined;
  const key = keyIn(m, 'items', 'Items');
  const items = key !== undefined ? m[key] : undefined;
  return key !== undefined && Array.isArray(items) && ('role' in m || 'Role' in m) ? { key, items } : undefined;
}

function kindOf(item: unknown): 'call' | 'result' | 'other' | undefined {
  if (!isPlainObject(item)) return undefined;
  const k = item.content_type ?? item.$type;
  if (typeof k !== 'string') return undefined;
  if (k === 'function_call' || k === 'FunctionCallContent') return 'call';
  if (k === 'function_result' || k === 'FunctionResultContent') return 'result';
  return 'other';
}

function isMessage(m: unknown): boolean {
  const it = itemsOf(m);
  return it !== undefined && it.items.every((i) => kindOf(i) !== undefined);
}

function isHistory(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isMessage) && v.some((m) => itemsOf(m)!.items.some((i) => kindOf(i) === 'call' || kindOf(i) === 'result'));
}

function historyOf(v: unknown): { path: string[]; list: unknown[] } | undefined {
  if (isHistory(v)) return { path: [], list: v };
  if (isPlainObject(v)) {
    const key = keyIn(v, 'messages', 'Messages');
    if (key !== undefined && isHistory(v[key])) return { path: [key], list: v[key] };
  }
  return undefined;
}

/** The name the model called: Python's full `name`, else `<plugin>-<function>`, else the function. */
function callName(item: Obj): { name: string; path: string } | undefined {
  if (typeof item.name === 'string' && item.name !== '') return { name: item.name, path: 'name' };
  const fk = keyIn(item, 'function_name', 'FunctionName', 'functionName');
  const fn = fk !== undefined ? str(item[fk]) : undefined;
  if (fk === undefined || fn === undefined) return undefined;
  const pk = keyIn(item, 'plugin_name', 'PluginName', 'pluginName');
  const plugin = pk !== undefined ? str(item[pk]) : undefined;
  return { name: plugin ? `${plugin}-${fn}` : fn, path: fk };
}

function readMessage(b: SessionBuilder, ref: NodeRef, m: unknown): void {
  const it = itemsOf(m);
  if (!it) return;
  let turn: number | undefined;
  let results = 0;
  it.items.forEach((item, i) => {
    if (!isPlainObject(item)) return;
    const iref = at(ref, it.key, i);
    const kind = kindOf(item);
    if (kind === 'call') {
      const n = callName(item);
      if (!n) return;
      const ak = keyIn(item, 'arguments', 'Arguments') ?? 'arguments';
      const ik = keyIn(item, 'id', 'Id');
      b.call({ name: n.name, id: ik !== undefined ? str(item[ik]) : undefined, at: iref, namePath: [n.path], argsPath: [ak], args: item[ak] ?? undefined, expect: 'any' }, (turn ??= b.newTurn()));
    } else if (kind === 'result') {
      const ik = keyIn(item, 'id', 'CallId', 'callId');
      const rk = keyIn(item, 'result', 'Result') ?? 'result';
      b.result({ at: iref, callId: ik !== undefined ? str(item[ik]) : undefined, payloadPath: [rk], payload: item[rk] });
      results++;
    }
  });
  if (turn === undefined || results > 0) b.breakTurn();
}

export const semanticKernel: FormatAdapter = {
  id: 'semantic-kernel',
  document: {
    claims: (v) => historyOf(v) !== undefined,
    read(doc, emit) {
      const h = historyOf(doc.value);
      if (!h) return;
      singleSession((b) => h.list.forEach((m, i) => readMessage(b, { doc, path: [...h.path, i] }, m)), emit);
    },
  },
};
