// Factory Droid sessions (`~/.factory/sessions/<workspace-slug>/<session-id>.jsonl`, beside a `<session-id>
// .settings.json` of model and token use; Entire keeps them as a checkpoint's `full.jsonl`): a `session_start`
// header `{type, id, title, sessionTitle, owner, version, cwd}` (a subagent's names its `callingSessionId`), then one
// record per message, `{type: "message", id, parentId?, timestamp, message: {role: user | assistant, model?,
// content}}`, whose `content` is Anthropic blocks (or a string): an assistant's `tool_use {id, name, input}` is a
// call, a user message's `tool_result {tool_use_id, content, is_error}` its result (a result block inside the
// assistant's own message pairs the same way). Other records (`todo_state`, `compaction_state`, `session_event`)
// hold no calls. A subagent's session is a file of its own. The envelope is Droid's own: a Responses API item of
// type `message` keeps its role and content at the top, never under `message`, and Goose's stream-json lines
// (`{type: "message", message}` too) carry no `id` or `timestamp` of their own.
import type { FormatAdapter } from './adapter';
import { readAnthropicMessage } from './anthropic';
import { isPlainObject, type Obj } from './util';

const ROLES = new Set(['user', 'assistant']);

/** A Droid message record, beyond doubt: the `message` envelope around a role and its content, under the record's
 *  own `id` and `timestamp` (Goose's stream-json writes the same `{type: "message", message}` without them). */
export function isDroidMessage(v: unknown): v is Obj & { message: Obj } {
  if (!isPlainObject(v) || v.type !== 'message' || !isPlainObject(v.message) || typeof v.id !== 'string' || typeof v.timestamp !== 'string') return false;
  const m = v.message;
  return ROLES.has(m.role as string) && (typeof m.content === 'string' || Array.isArray(m.content));
}

/** Where a record's message is (paths are not changed once made: one is shared). */
const MESSAGE_PATH = ['message'];

export const droid: FormatAdapter = {
  id: 'droid',
  lines: {
    claims: isDroidMessage,
    open: ({ builder }) => ({
      read(doc) {
        const v = doc.value;
        if (isDroidMessage(v)) readAnthropicMessage(builder, doc, MESSAGE_PATH, v.message);
      },
    }),
  },
};
