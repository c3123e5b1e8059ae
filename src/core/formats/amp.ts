// Amp (Sourcegraph) threads: `~/.local/share/amp/threads/T-<uuid>.json` (and the VS Code extension's older
// `globalStorage/sourcegraph.amp/threads3/`), one JSON document `{v, id: "T-…", created, title, env, messages}`.
// Messages are `{role: user | assistant | info, messageId, content: [blocks], state, usage}` with Anthropic-like
// blocks: an assistant's `tool_use {id, name, input}` is a call; a user message's `tool_result {toolUseID, run}`
// answers it, and `run.status` says how it ended (what Amp itself sends the model): `done` (the payload is
// `run.result`), `error` (`run.error`, a string or `{message}`), `cancelled` and `rejected-by-user` (both errors,
// `run.reason`); a shell's `run.result.exitCode` is its exit code. Any other status (the tool still queued or running) is no result yet. `info` messages (summaries,
// notices) are not the conversation.
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

export const amp: FormatAdapter = {
  id: 'amp',
  document: {
    claims: isThread,
    read(doc, emit) {
      const v = doc.value as Obj & { messages: unknown[] };
      singleSession((b) => readThread(b, doc, v), emit, str(v.id));
    },
  },
};
