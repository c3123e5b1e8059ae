// Goose (block/goose) conversations. Read: the legacy session JSONL (`~/.local/share/goose/sessions/*.jsonl`: a
// first line of session metadata `{working_dir, description, message_count, ...}`, then one message per line),
// `goose run --output-format stream-json` lines `{type: "message", message}` (and the closing `{type: "complete"}`),
// and as one document: `goose session export` `{id, working_dir, ..., conversation: [messages]}`, a `{messages: [...]}`
// wrapper, or a bare array of messages. A message is `{id?, role, created (unix seconds),
// content: [blocks], metadata?}`. A call is a `toolRequest` (or `frontendToolRequest`, a tool the UI runs) block
// `{id, toolCall: {status: "success", value: {name, arguments}}}`; its result a `toolResponse` block `{id, toolResult}`
// linked by `id`, usually in the next `user` message. `toolResult` is `{status: "success", value}` (value: an MCP
// CallToolResult `{content, structuredContent?, isError}`, or in older sessions a bare content array) or `{status:
// "error", error}`: both `isError: true` and the error status are error signals. A `toolCall` with status "error"
// is a request Goose could not parse (no name, no arguments): it and its response are skipped.
// `toolConfirmationRequest` / `actionRequired` blocks ask the user to approve a request already read: not calls.
// A block whose id was already read (a streamed message sent again) is a copy and is skipped.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj } from './util';

const ROLES = new Set(['user', 'assistant']);
const CALL_BLOCKS = new Set(['toolRequest', 'frontendToolRequest']);

function isToolBlock(p: unknown): boolean {
  if (!isPlainObject(p)) return false;
  return (CALL_BLOCKS.has(p.type as string) && isPlainObject(p.toolCall)) || (p.type === 'toolResponse' && isPlainObject(p.toolResult));
}

/** A Goose message: typed blocks, and either tool blocks or Goose's `created` seconds. */
function isMessage(v: unknown): v is Obj & { content: unknown[] } {
  if (!isPlainObject(v) || !ROLES.has(v.role as string) || !Array.isArray(v.content)) return false;
  if (!v.content.every((p) => isPlainObject(p) && typeof p.type === 'string')) return false;
  return typeof v.created === 'number' || v.content.some(isToolBlock);
}

function hasToolBlocks(m: unknown): boolean {
  return isMessage(m) && m.content.some(isToolBlock);
}

/** The first line of a legacy session file. */
function isSessionMeta(v: unknown): boolean {
  return isPlainObject(v) && typeof v.working_dir === 'string' && !('role' in v) && !('conversation' in v)
    && (typeof v.message_count === 'number' || typeof v.description === 'string');
}

/** A stream-json line's message. */
function streamed(v: unknown): Obj | undefined {
  return isPlainObject(v) && v.type === 'message' && isMessage(v.message) ? v.message : undefined;
}

/** The message list of a document, and the key it is under. */
function messagesOf(v: unknown): { list: unknown[]; key?: string } | undefined {
  if (Array.isArray(v)) return { list: v };
  if (!isPlainObject(v)) return undefined;
  if (Array.isArray(v.conversation)) return { list: v.conversation, key: 'conversation' };
  if (Array.isArray(v.messages)) return { list: v.messages, key: 'messages' };
  return undefined;
}

function transportOf(result: Obj): TransportSignals {
  if (result.status === 'error') return { isError: true };
  const value = result.value;
  if (isPlainObject(value) && typeof value.isError === 'boolean') return { isError: value.isError };
  return result.status === 'success' ? { isError: false } : {};
}

/** Ids read so far in one session: calls, results, and requests Goose could not parse. */
interface Seen {
  called: Set<string>;
  answered: Set<string>;
  unparsed: Set<string>;
}

function newSeen(): Seen {
  return { called: new Set(), answered: new Set(), unparsed: new Set() };
}

function readMessage(b: SessionBuilder, doc: Doc, path: JsonPath, m: Obj & { content: unknown[] }, seen: Seen): void {
  const text = m.content.filter((p) => isPlainObject(p) && p.type === 'text' && typeof p.text === 'string').map((p) => (p as Obj).text as string).join('\n');
  let turn: number | undefined;
  let answers = false;
  m.content.forEach((block, j) => {
    if (!isToolBlock(block)) return;
    const p = block as Obj;
    const id = str(p.id);
    const ref = { doc, path: [...path, 'content', j] };
    if (p.type === 'toolResponse') {
      if (id !== undefined && (seen.unparsed.has(id) || seen.answered.has(id))) return;
      if (id !== undefined) seen.answered.add(id);
      const r = p.toolResult as Obj;
      const failed = r.status === 'error';
      b.result({ at: ref, callId: id, payload: failed ? r.error : r.value, payloadPath: ['toolResult', failed ? 'error' : 'value'], transport: transportOf(r) });
      answers = true;
      return;
    }
    const call = p.toolCall as Obj;
    const value = call.value;
    if (call.status === 'error' || !isPlainObject(value) || typeof value.name !== 'string') {
      if (id !== undefined) seen.unparsed.add(id);
      return;
    }
    if (id !== undefined) {
      if (seen.called.has(id)) return;
      seen.called.add(id);
    }
    turn ??= b.newTurn();
    b.call({ name: value.name, id, at: ref, namePath: ['toolCall', 'value', 'name'], argsPath: ['toolCall', 'value', 'arguments'], args: value.arguments,
      expect: 'object', messageText: text === '' ? undefined : text }, turn);
  });
  // a message with no calls (a user's, an answer, the results) ends the turn
  if (turn === undefined || answers) b.breakTurn();
}

export const goose: FormatAdapter = {
  id: 'goose',
  document: {
    claims(v) {
      if (Array.isArray(v)) return v.length > 0 && v.every(isMessage) && v.some(hasToolBlocks);
      const found = messagesOf(v);
      if (!found || found.list.length === 0 || !found.list.every(isMessage)) return false;
      return found.list.some(hasToolBlocks) || (isPlainObject(v) && typeof v.working_dir === 'string');
    },
    read(doc, emit) {
      const v = doc.value;
      const found = messagesOf(v);
      const seen = newSeen();
      singleSession((b) => {
        found?.list.forEach((m, i) => {
          if (isMessage(m)) readMessage(b, doc, found.key === undefined ? [i] : [found.key, i], m, seen);
        });
      }, emit, isPlainObject(v) ? str(v.id) : undefined);
    },
  },
  lines: {
    claims(v) {
      return hasToolBlocks(v) || hasToolBlocks(streamed(v)) || isSessionMeta(v);
    },
    accepts(v) {
      if (isMessage(v) || streamed(v) !== undefined) return true;
      // the closing line of a stream-json run carries its token counts
      return isPlainObject(v) && v.type === 'complete' && Object.keys(v).some((k) => k.endsWith('tokens'));
    },
    open({ builder }) {
      const seen = newSeen();
      return {
        read(doc) {
          const v = doc.value;
          const inner = streamed(v);
          if (inner) readMessage(builder, doc, ['message'], inner as Obj & { content: unknown[] }, seen);
          else if (isMessage(v)) readMessage(builder, doc, [], v, seen);
        },
      };
    },
  },
};
