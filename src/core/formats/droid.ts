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
// Also read: `droid exec --output-format stream-json` (and the SDKs over it), one event per line under the run's
// `session_id`: `{type: "system", subtype: "init", tools, model}`, `{type: "message", role, id, text, timestamp}`,
// `{type: "tool_call", id, messageId, toolId, toolName, parameters}` (a call: `parameters` are its arguments; the
// calls of one `messageId` are one turn), `{type: "tool_result", id?, messageId, toolId, isError, value | error}` (its
// result, by `id`, else the earliest unanswered call of that `toolId`; `isError` is the transport), and a closing
// `{type: "completion", finalText, numTurns}` (or `error`).
import type { FormatAdapter } from './adapter';
import { readAnthropicMessage } from './anthropic';
import type { SessionBuilder } from './builder';
import type { Doc } from '../parse/doc';
import { isPlainObject, str, unansweredByName, waitingFor, type Obj } from './util';

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

/** A `droid exec` stream-json event that holds a call or a result, or a message of one (role and text at the top,
 *  a numeric timestamp: a Responses item of type `message` has `content`, Droid's session records a `message`). */
function isExecEvent(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.session_id !== 'string' || (typeof v.toolId !== 'string' && v.type !== 'message')) return false;
  if (v.type === 'tool_call') return typeof v.toolName === 'string' && 'parameters' in v;
  if (v.type === 'tool_result') return typeof v.isError === 'boolean';
  return v.type === 'message' && ROLES.has(v.role as string) && typeof v.text === 'string' && typeof v.timestamp === 'number' && !('content' in v);
}

/** The run's other events: its init line, the closing completion or error. */
function isExecOther(v: unknown): boolean {
  return isPlainObject(v) && typeof v.session_id === 'string' && (v.type === 'system' || v.type === 'completion' || v.type === 'error');
}

class ExecLines {
  private lastMessage?: string;
  /** toolId -> the name its calls were made under, for a result without an `id`. */
  private readonly names = new Map<string, string>();

  constructor(private readonly b: SessionBuilder) {}

  read(doc: Doc, v: Obj): void {
    this.b.session.id ??= str(v.session_id);
    if (v.type === 'message') {
      if (v.role === 'assistant') this.b.assistantText({ doc, path: ['text'] }, v.text);
      else this.b.breakTurn();
      this.lastMessage = undefined;
      return;
    }
    if (v.type === 'tool_call') {
      const message = str(v.messageId);
      if (message === undefined || message !== this.lastMessage) this.b.breakTurn();
      this.lastMessage = message;
      this.names.set(v.toolId as string, v.toolName as string);
      this.b.call({ name: v.toolName as string, id: str(v.id), at: { doc, path: [] }, namePath: ['toolName'], argsPath: ['parameters'], args: v.parameters, expect: 'any' });
      return;
    }
    const id = str(v.id);
    const payloadKey = 'value' in v ? 'value' : 'error' in v ? 'error' : undefined;
    const callIndex = id !== undefined && waitingFor(this.b, id) ? undefined : unansweredByName(this.b, this.names.get(v.toolId as string));
    this.b.result({ at: { doc, path: [] }, callId: callIndex === undefined ? id : undefined, callIndex, payload: payloadKey === undefined ? undefined : v[payloadKey],
      payloadPath: payloadKey === undefined ? undefined : [payloadKey], transport: { isError: v.isError as boolean } });
  }
}

export const droid: FormatAdapter = {
  id: 'droid',
  lines: {
    claims: (v) => isDroidMessage(v) || isExecEvent(v),
    accepts: isExecOther,
    open: ({ builder }) => {
      const exec = new ExecLines(builder);
      return {
        read(doc) {
          const v = doc.value;
          if (isDroidMessage(v)) readAnthropicMessage(builder, doc, MESSAGE_PATH, v.message);
          else if (isExecEvent(v)) exec.read(doc, v);
        },
      };
    },
  },
};
