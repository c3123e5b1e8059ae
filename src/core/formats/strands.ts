// Strands Agents sessions: what a session manager stores (strands/types/session.py, session/file_session_manager.py).
// - A `SessionMessage` is `{message, message_id, redact_message, created_at, updated_at}`; `message` is a Bedrock
//   Converse message (`{role, content: [{text} | {toolUse: {toolUseId, name, input}} | {toolResult: {toolUseId,
//   status, content}}]}`, read by bedrock.ts's message reader: `status: "error"` is the error flag).
// - The file session manager writes one message per file (`session_<id>/agents/agent_<id>/messages/
//   message_<n>.json`): a call's result is in a later file, so a lone file's calls are read and its tool results,
//   whose calls are elsewhere, are not. A list of SessionMessages (the repository's `list_messages`, an export) or
//   one per line is a whole conversation, read in `message_id` order. `agent.messages` itself, a bare list of
//   Converse messages, is read by bedrock.ts.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { isConverseMessage, readMessage } from './bedrock';
import type { Doc } from '../parse/doc';
import { isPlainObject, type Obj } from './util';

type SessionMessage = Obj & { message: Obj & { content: unknown[] }; message_id: number };

function isSessionMessage(v: unknown): v is SessionMessage {
  return isPlainObject(v) && typeof v.message_id === 'number' && isConverseMessage(v.message);
}

function hasTools(m: SessionMessage): boolean {
  return m.message.content.some((c) => isPlainObject(c) && (isPlainObject(c.toolUse) || isPlainObject(c.toolResult)));
}

function isMessageList(v: unknown): v is SessionMessage[] {
  return Array.isArray(v) && v.length > 0 && v.every(isSessionMessage) && v.some(hasTools);
}

function read(b: SessionBuilder, doc: Doc, path: (string | number)[], m: SessionMessage): void {
  readMessage(b, doc, [...path, 'message'], m.message);
}

/** A lone message file: its calls (its results answer calls of other files). */
function readLone(b: SessionBuilder, doc: Doc, m: SessionMessage): void {
  if (!m.message.content.some((c) => isPlainObject(c) && isPlainObject(c.toolUse))) return;
  readMessage(b, doc, ['message'], { ...m.message, content: m.message.content.map((c) => (isPlainObject(c) && isPlainObject(c.toolResult) ? {} : c)) });
}

export const strands: FormatAdapter = {
  id: 'strands',
  document: {
    claims: (v) => (isSessionMessage(v) && hasTools(v)) || isMessageList(v),
    read(doc, emit) {
      const v = doc.value;
      if (isSessionMessage(v)) return singleSession((b) => readLone(b, doc, v), emit);
      if (!isMessageList(v)) return;
      const order = v.map((m, i) => ({ m, i })).sort((a, b) => a.m.message_id - b.m.message_id || a.i - b.i);
      singleSession((b) => { for (const { m, i } of order) read(b, doc, [i], m); }, emit);
    },
  },
  lines: {
    claims: (v) => isSessionMessage(v) && hasTools(v),
    accepts: isSessionMessage,
    open(sink: LineSink) {
      return { read(doc) { if (isSessionMessage(doc.value)) read(sink.builder, doc, [], doc.value); } };
    },
  },
};
