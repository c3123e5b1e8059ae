// Goose (block/goose) conversations. Read: the legacy session JSONL (`~/.local/share/goose/sessions/*.jsonl`: a
// first line of session metadata `{working_dir, description, message_count, ...}`, then one message per line),
// `goose run --output-format stream-json` lines `{type: "message", message}` (and the closing `{type: "complete"}`),
// and as one document: `goose session export` `{id, working_dir, ..., conversation: [messages]}`, a `{messages: [...]}`
// wrapper, or a bare array of messages. A message is `{id?, role, created (unix seconds),
// content: [blocks], metadata?}`. A call is a `toolRequest` (or `frontendToolRequest`, a tool the UI runs) block
// `{id, toolCall: {status: "success", value: {name, arguments}}}`; its result a `toolResponse` block `{id, toolResult}`
// linked by `id`, usually in the next `user` message. `toolResult` is `{status: "success", value}` (value: an MCP
// CallToolResult `{content, structuredContent?, isError}`, or in older sessions a bare content array) or `{status:
// "error", error}`: both `isError: true` and the error status are error signals. Builds that serialize these
// Results with serde's default write `{Ok: …}` / `{Err: …}` instead (read the same way). A `toolCall` with status "error"
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
  return (CALL_BLOCKS.has(p.type as string) && isPlainObject(p.toolCall)) || (p.type === 'toolResponse' && p.toolResult !== undefined && p.toolResult !== null);
}

/** A Rust `Result` as Goose wrote it: `{status: "success", value}` / `{status: "error", error}` (its own serde), or
 *  serde's default `{Ok: value}` / `{Err: error}` (builds that dropped it); `key` is where the payload is. A value
 *  with neither (a bare request `{name, arguments}`, a bare result) is the success itself. */
function outcome(r: unknown): { ok: boolean; value: unknown; key?: string; said?: boolean } {
  if (isPlainObject(r)) {
    if (r.status === 'error') return { ok: false, value: r.error, key: 'error' };
    // live databases also hold `{value}` with no status
    if (r.status === 'success' || 'value' in r) return { ok: true, value: r.value, key: 'value', said: r.status === 'success' };
    const keys = Object.keys(r);
    if (keys.length === 1 && keys[0] === 'Ok') return { ok: true, value: r.Ok, key: 'Ok', said: true };
    if (keys.length === 1 && keys[0] === 'Err') return { ok: false, value: r.Err, key: 'Err' };
  }
  return { ok: true, value: r };
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

function transportOf(result: ReturnType<typeof outcome>): TransportSignals {
  if (!result.ok) return { isError: true };
  const value = result.value;
  if (isPlainObject(value) && typeof value.isError === 'boolean') return { isError: value.isError };
  // success said by the envelope itself (a bare `{value}` says nothing)
  return result.said ? { isError: false } : {};
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
      const r = outcome(p.toolResult);
      b.result({ at: ref, callId: id, payload: r.value, payloadPath: r.key === undefined ? ['toolResult'] : ['toolResult', r.key], transport: transportOf(r) });
      answers = true;
      return;
    }
    const call = outcome(p.toolCall);
    const value = call.value;
    if (!call.ok || !isPlainObject(value) || typeof value.name !== 'string') {
      if (id !== undefined) seen.unparsed.add(id);
      return;
    }
    if (id !== undefined) {
      if (seen.called.has(id)) return;
      seen.called.add(id);
    }
    turn ??= b.newTurn();
    const at: JsonPath = call.key === undefined ? ['toolCall'] : ['toolCall', call.key];
    b.call({ name: value.name, id, at: ref, namePath: [...at, 'name'], argsPath: [...at, 'arguments'], args: value.arguments,
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
