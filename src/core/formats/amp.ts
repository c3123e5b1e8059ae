// Amp (Sourcegraph) threads: `~/.local/share/amp/threads/T-<uuid>.json` (and the VS Code extension's older
// `globalStorage/sourcegraph.amp/threads3/`), one JSON document `{v, id: "T-…", created, title, env, messages}`.
// Messages are `{role: user | assistant | info, messageId, content: [blocks], state, usage}` with Anthropic-like
// blocks: an assistant's `tool_use {id, name, input}` is a call; a user message's `tool_result {toolUseID, run}`
// answers it, and `run.status` says how it ended (what Amp itself sends the model): `done` (the payload is
// `run.result`), `error` (`run.error`, a string or `{message}`), `cancelled` and `rejected-by-user` (both errors,
// `run.reason`); a shell's `run.result.exitCode` is its exit code. Any other status (the tool still queued or running) is no result yet. `info` messages (summaries,
// notices) are not the conversation.
// As lines: `amp -x --stream-json` (and the SDKs over it) prints Claude Code's stream-json layout with Amp's thread
// id as `session_id`: `{type: "system", subtype: "init", session_id: "T-…", tools}`, then `{type: "assistant" |
// "user", message, parent_tool_use_id, session_id}` lines whose messages are Anthropic messages (calls `tool_use
// {id, name, input}`, results `tool_result {tool_use_id, content, is_error}`), and a closing `{type: "result",
// is_error}`. Amp's tools are its own (`Bash {cmd}`, `edit_file`), so these lines are not Claude Code's; a
// sub-agent's messages (`parent_tool_use_id` set) are a session of their own.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { readAnthropicMessage } from './anthropic';
import type { SessionBuilder } from './builder';
import type { Doc } from '../parse/doc';
import { isPlainObject, num, str, type Obj } from './util';

const ROLES = new Set(['user', 'assistant', 'info']);

function isThread(v: unknown): v is Obj & { messages: unknown[] } {
  if (!isPlainObject(v) || !/^T-[0-9a-f-]{8,}$/i.test(str(v.id) ?? '') || !Array.isArray(v.messages)) return false;
  return v.messages.every((m) => isPlainObject(m) && ROLES.has(m.role as string) && Array.isArray(m.content));
}

/** What a run's status says: the payload's key and whether it failed; undefined for a run that has not ended. */
const ENDED: Record<string, { key: string; isError: boolean }> = {
  done: { key: 'result', isError: false },
  error: { key: 'error', isError: true },
  cancelled: { key: 'reason', isError: true },
  'rejected-by-user': { key: 'reason', isError: true },
};

function readResults(b: SessionBuilder, doc: Doc, i: number, content: unknown[]): boolean {
  let any = false;
  content.forEach((block, j) => {
    if (!isPlainObject(block) || block.type !== 'tool_result') return;
    any = true;
    const run = isPlainObject(block.run) ? block.run : undefined;
    const ended = run ? ENDED[str(run.status) ?? ''] : undefined;
    if (!run || !ended) return;
    // a shell's result states its exit code
    const code = ended.key === 'result' && isPlainObject(run.result) ? num(run.result.exitCode) : undefined;
    b.result({ at: { doc, path: ['messages', i, 'content', j] }, callId: str(block.toolUseID) ?? str(block.tool_use_id),
      payload: run[ended.key], payloadPath: ['run', ended.key], transport: code === undefined ? { isError: ended.isError } : { isError: ended.isError, exitCode: code } });
  });
  return any;
}

function readThread(b: SessionBuilder, doc: Doc, v: Obj & { messages: unknown[] }): void {
  v.messages.forEach((m, i) => {
    if (!isPlainObject(m) || !Array.isArray(m.content)) return;
    if (m.role === 'assistant') readAnthropicMessage(b, doc, ['messages', i], m);
    else if (m.role === 'user' && !readResults(b, doc, i, m.content)) b.breakTurn();
  });
}

// ---- `--stream-json` lines ----------------------------------------------------------------------------------

const THREAD_ID = /^T-[0-9a-z-]{3,}$/i;

/** An Amp thread id (`T-…`): what tells Amp's stream-json lines from Claude Code's (claude-code.ts asks too). */
export function isAmpThreadId(v: unknown): boolean {
  return typeof v === 'string' && THREAD_ID.test(v);
}

/** A stream line that carries a message: `{type: "assistant" | "user", message: {content}}`. */
function isStreamMessage(v: unknown): v is Obj & { message: Obj } {
  return isPlainObject(v) && (v.type === 'assistant' || v.type === 'user') && isPlainObject(v.message)
    && (typeof v.message.content === 'string' || Array.isArray(v.message.content));
}

/** A line of Amp's stream beyond doubt: its envelope names an Amp thread. */
function isStreamLine(v: unknown): boolean {
  if (!isPlainObject(v) || !isAmpThreadId(v.session_id)) return false;
  return isStreamMessage(v) || (v.type === 'system' && v.subtype === 'init') || v.type === 'result';
}

export const amp: FormatAdapter = {
  id: 'amp',
  document: {
    claims: isThread,
    read(doc, emit) {
      const v = doc.value as Obj & { messages: unknown[] };
      singleSession((b) => readThread(b, doc, v), emit, str(v.id));
    },
  },
  lines: {
    claims: isStreamLine,
    // some builds leave `session_id` off the message lines
    accepts: isStreamMessage,
    open(sink) {
      let thread: string | undefined;
      const builder = (line: Obj): SessionBuilder => {
        thread ??= str(line.session_id);
        const parent = str(line.parent_tool_use_id);
        const key = parent === undefined ? '' : `#task:${parent}`;
        const b = sink.sessionFor(key);
        if (thread !== undefined) b.session.id = `${thread}${key}`;
        return b;
      };
      return {
        read(doc) {
          const line = doc.value;
          if (!isPlainObject(line)) return;
          if (isStreamMessage(line)) readAnthropicMessage(builder(line), doc, ['message'], line.message);
          else if (line.type === 'system') builder(line);
        },
      };
    },
  },
};
