// Kiro CLI (and Amazon Q Developer CLI) conversation exports: `{conversation_id, history}` with Rust-enum style keys.
// `history` entries are `{user, assistant, request_metadata}` objects, or — older `/save` files — `[user, assistant]`
// pairs. Calls: `assistant.ToolUse.tool_uses[]` `{id, name, args}` (`args` is what ran; `orig_args` what the model
// first wrote, when Kiro rewrote it). Results: a later `user.content` of `ToolUseResults` (`{tool_use_results: [...]}`,
// or the bare list some exports write) or `CancelledToolUses` (`{prompt, tool_use_results}`: the calls the user
// stopped), each `{tool_use_id, content: [{Text} | {Json}], status}`; a status other than "Success" is an honest
// failure, and a result with a status says success otherwise. A single content block is the payload itself.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, textOf, type Obj } from './util';

/** One history entry as its user and assistant halves, with their paths. */
interface Entry {
  user?: { value: Obj; path: JsonPath };
  assistant?: { value: Obj; path: JsonPath };
}

function entryOf(h: unknown, path: JsonPath): Entry | undefined {
  if (isPlainObject(h)) {
    return {
      user: isPlainObject(h.user) ? { value: h.user, path: [...path, 'user'] } : undefined,
      assistant: isPlainObject(h.assistant) ? { value: h.assistant, path: [...path, 'assistant'] } : undefined,
    };
  }
  if (Array.isArray(h) && h.length > 0 && h.length <= 2 && h.every(isPlainObject)) {
    const [user, assistant] = h;
    return { user: { value: user, path: [...path, 0] }, assistant: assistant ? { value: assistant, path: [...path, 1] } : undefined };
  }
  return undefined;
}

const ASSISTANT_KINDS = ['ToolUse', 'Response'];

function isExport(v: unknown): v is Obj & { history: unknown[] } {
  if (!isPlainObject(v) || !Array.isArray(v.history) || v.history.length === 0) return false;
  const entries = v.history.map((h) => entryOf(h, []));
  if (!entries.every((e) => e !== undefined)) return false;
  if (v.history.every((h) => isPlainObject(h))) {
    // the object layout: every entry names its halves
    if (!v.history.every((h) => 'user' in h || 'assistant' in h)) return false;
    return entries.some((e) => e.assistant !== undefined);
  }
  // the pair layout proves itself by an enum-keyed assistant half
  return entries.some((e) => e.assistant !== undefined && ASSISTANT_KINDS.some((k) => k in e.assistant!.value));
}

/** The result list of a user content: `ToolUseResults` or `CancelledToolUses`, either nesting. */
function resultsOf(content: Obj): { list: unknown[]; path: JsonPath } | undefined {
  for (const kind of ['ToolUseResults', 'CancelledToolUses']) {
    const v = content[kind];
    if (Array.isArray(v)) return { list: v, path: [kind] };
    if (isPlainObject(v) && Array.isArray(v.tool_use_results)) return { list: v.tool_use_results, path: [kind, 'tool_use_results'] };
  }
  return undefined;
}

/** A single `{Text}` / `{Json}` block is what the tool returned; several stay a list. */
function payloadOf(r: Obj): { value: unknown; path: JsonPath } {
  const c = r.content;
  if (Array.isArray(c) && c.length === 1 && isPlainObject(c[0])) {
    const block = c[0];
    for (const k of ['Text', 'Json']) if (k in block) return { value: block[k], path: ['content', 0, k] };
  }
  return { value: c, path: ['content'] };
}

function readEntry(b: SessionBuilder, doc: Doc, e: Entry): void {
  const content = e.user && isPlainObject(e.user.value.content) ? e.user.value.content : undefined;
  const results = content ? resultsOf(content) : undefined;
  if (results && e.user) {
    results.list.forEach((r, j) => {
      if (!isPlainObject(r)) return;
      const status = str(r.status);
      const payload = payloadOf(r);
      b.result({ at: { doc, path: [...e.user!.path, 'content', ...results.path, j] }, callId: str(r.tool_use_id), payload: payload.value,
        payloadPath: payload.path, transport: status === undefined ? {} : { isError: status.toLowerCase() !== 'success' } });
    });
  }
  if (e.user) b.breakTurn();
  const a = e.assistant?.value;
  const use = a && isPlainObject(a.ToolUse) ? a.ToolUse : undefined;
  if (use && Array.isArray(use.tool_uses) && use.tool_uses.length > 0) {
    const turn = b.newTurn();
    use.tool_uses.forEach((u, j) => {
      if (!isPlainObject(u) || typeof u.name !== 'string') return;
      b.call({ name: u.name, id: str(u.id), at: { doc, path: [...e.assistant!.path, 'ToolUse', 'tool_uses', j] }, namePath: ['name'],
        argsPath: ['args'], args: u.args, expect: 'object', messageText: textOf(use.content) }, turn);
    });
    return;
  }
  const said = use ?? (a && isPlainObject(a.Response) ? a.Response : undefined);
  if (said && e.assistant) b.assistantText({ doc, path: [...e.assistant.path, use ? 'ToolUse' : 'Response', 'content'] }, said.content);
  else if (e.assistant) b.breakTurn();
}

export const kiro: FormatAdapter = {
  id: 'kiro',
  document: {
    claims(v) {
      return isExport(v);
    },
    read(doc, emit) {
      const v = doc.value as Obj & { history: unknown[] };
      singleSession((b) => {
        v.history.forEach((h, i) => {
          const e = entryOf(h, ['history', i]);
          if (e) readEntry(b, doc, e);
        });
      }, emit, str(v.conversation_id));
    },
  },
};
