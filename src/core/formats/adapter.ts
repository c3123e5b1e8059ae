// The shape of a format adapter. A trace arrives either as one JSON document, or as JSONL whose lines are
// whole conversations (read like documents) or events of one conversation spread over many lines.
import type { Session } from '../model';
import type { Doc } from '../parse/doc';
import { SessionBuilder } from './builder';

export interface LineState {
  /** The session the lines of this file are building. */
  builder: SessionBuilder;
  /** Adapter-private memory across lines (e.g. the id of the last assistant message). */
  memo: Record<string, unknown>;
  /** The builder of a named session of this file (a Claude Code `sessionId`, a sidechain): created on first use,
   *  checked when the file ends. The first name used takes over `builder` while it is still empty. */
  sessionFor(key: string): SessionBuilder;
  /** The named session is complete: check it now and let it go (a later line with that name opens a new one). */
  closeSession(key: string): void;
}

export interface FormatAdapter {
  /** The name reported in the CLI's `format` field. */
  readonly id: string;
  /** Built-in contract packs for the agent this format recognises (ids in contracts/packs): a Claude Code log
   *  gets the Claude Code pack. */
  readonly packs?: readonly string[];
  /** Whether a parsed JSON document (or a JSONL line that is a whole conversation) is in this format. */
  claimsDocument?(value: unknown): boolean;
  /** Read a claimed document into sessions. */
  readDocument?(doc: Doc, emit: (session: Session) => void): void;
  /** Whether a JSONL line is, beyond doubt, one event of a conversation in this format (it carries tool traffic). */
  claimsLine?(value: unknown): boolean;
  /** Whether this adapter can read a line that proves nothing by itself (a plain text message): asked first of
   *  the adapter the file's lines already belong to, so that such lines land in the same session. */
  acceptsLine?(value: unknown): boolean;
  /** Read one event line into the file's open session. */
  readLine?(doc: Doc, state: LineState): void;
  /** The file ended: write out what is still pending (a stream's unfinished tool calls). */
  finishLines?(state: LineState): void;
}

/** Read a document's sessions through a single fresh builder (the common case: one document, one session). */
export function singleSession(read: (b: SessionBuilder) => void, emit: (s: Session) => void, id?: string): void {
  const b = new SessionBuilder(id);
  read(b);
  emit(b.session);
}
