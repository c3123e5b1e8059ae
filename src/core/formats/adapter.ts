// The shape of a format adapter. A trace arrives either as one JSON document, or as JSONL whose lines are
// whole conversations (read like documents) or events of one conversation spread over many lines. An adapter says
// which of the two it reads: `document` (claims a parsed value, reads it into sessions) and/or `lines` (claims a
// line, and opens a reader that owns its state across the file's lines, the way an ESLint rule's `create()` owns
// its own). Nothing is shared between adapters or between files: a new adapter is one file that cannot break another.
import type { Session } from '../model';
import type { Doc } from '../parse/doc';
import { SessionBuilder } from './builder';

/** Where a line reader writes: the file's session, and sessions the format names itself. */
export interface LineSink {
  /** The session the lines of this file are building. */
  readonly builder: SessionBuilder;
  /** The builder of a named session of this file (a Claude Code `sessionId`, a sidechain): created on first use,
   *  checked when the file ends. The first name used takes over `builder` while it is still empty. */
  sessionFor(key: string): SessionBuilder;
  /** The named session is complete: check it now and let it go (a later line with that name opens a new one). */
  closeSession(key: string): void;
  /** Present when these lines are one slice of a file, read apart from the rest (CheckOptions.apart): a reader that
   *  can tell says what each line belongs to. */
  readonly ties?: SliceTies;
}

/** What the lines of a slice owe to lines outside it. `key`: the line belongs to this independent unit (a Claude
 *  Code `sessionId`, an OTel trace id); slices that share no key read as the whole file would. `tie`: some line
 *  may read otherwise in the whole file (it looks back past the slice's start): the file is read whole. */
export interface SliceTies {
  key(key: string): void;
  has(key: string): boolean;
  tie(): void;
}

/** One file's lines in one format: made by `LineFormat.open`, given every line of the file this format reads. */
export interface LineReader {
  /** Read one event line. */
  read(doc: Doc): void;
  /** The file ended: write out what is still pending (a stream's unfinished tool calls). */
  finish?(): void;
  /** A unit this reader will be given later (the first pass over a document read in parts): note what it holds, so
   *  that a session can be checked once its last unit is read rather than when the file ends. Never changes what
   *  is read, only when. */
  preview?(doc: Doc): void;
}

export interface DocumentFormat {
  /** Whether a parsed JSON document (or a JSONL line that is a whole conversation) is in this format. */
  claims(value: unknown): boolean;
  /** Read a claimed document into sessions. */
  read(doc: Doc, emit: (session: Session) => void): void;
  /** Whether a value it claims is also read where it sits inside a document no reader claims (a capture's
   *  `response`, an export's `data`); yes when absent. No for a claim only a whole file or line proves: BFCL's bare
   *  answer lines, a list of strings, are anyone's list of strings inside another document. */
  nested?(value: unknown): boolean;
}

export interface LineFormat {
  /** Whether a JSONL line is, beyond doubt, one event of a conversation in this format (it carries tool traffic). */
  claims(value: unknown): boolean;
  /** Whether a line that proves nothing by itself (a plain text message) may belong to this format: asked first of
   *  the format the file's lines already belong to, so that such lines land in the same session. */
  accepts?(value: unknown): boolean;
  /** Whether a line another format claims belongs to this one once this format is the file's (its line came first):
   *  asked of the file's format before any claim. A layout whose lines are another format's items under a header of
   *  its own (a pre-envelope Codex rollout: bare Responses items after its session header) keeps them. */
  keeps?(value: unknown): boolean;
  /** A reader for one file, with state of its own. */
  open(sink: LineSink): LineReader;
  /** Its reader never looks back at a call (or result, or text) of a turn before the latest once every call
   *  before that turn has its result: the engine may then check a long session in segments and let those go
   *  (src/core/state.ts). Their array slots stay, emptied. `'settled'`: a call's result, if it has one, is read
   *  with it (a record holding both), so every call before the latest turn is settled already. */
  segments?: true | 'settled';
}

export interface FormatAdapter {
  /** The name reported in the CLI's `format` field, and given to `--read-as`. */
  readonly id: string;
  /** Built-in contract packs for the agent this format recognises (ids in contracts/packs): a Claude Code log
   *  gets the Claude Code pack. */
  readonly packs?: readonly string[];
  readonly document?: DocumentFormat;
  readonly lines?: LineFormat;
}

/** Whether `value` is claimed by `adapter`, whole or as a line. */
export function claims(adapter: FormatAdapter, value: unknown): boolean {
  return (adapter.document?.claims(value) ?? false) || (adapter.lines?.claims(value) ?? false);
}

/** A sink whose named sessions are kept in order of first use, the first name taking over `builder` while it is
 *  still empty; `done` gets a session its format closed. The engine's line readers and `readAsLines` write here. */
export class SessionSink implements LineSink {
  readonly builder = new SessionBuilder();
  private readonly byKey = new Map<string, SessionBuilder>();
  private named?: SessionBuilder[];

  constructor(
    private readonly done: (s: Session) => void,
    readonly ties?: SliceTies,
  ) {}

  readonly sessionFor = (key: string): SessionBuilder => {
    let b = this.byKey.get(key);
    if (b) return b;
    const s = this.builder.session;
    const fresh = this.byKey.size === 0 && s.calls.length === 0 && s.results.length === 0 && s.tools.length === 0;
    b = fresh ? this.builder : new SessionBuilder(key);
    b.session.id = key === '' ? undefined : key;
    this.byKey.set(key, b);
    (this.named ??= fresh ? [] : [this.builder]).push(b);
    this.open = undefined;
    return b;
  };

  readonly closeSession = (key: string): void => {
    const b = this.byKey.get(key);
    if (!b) return;
    this.byKey.delete(key);
    this.named = (this.named ?? []).filter((x) => x !== b);
    this.open = undefined;
    this.done(b.session);
  };

  /** openSessions, until a session opens or closes (the engine asks after every line). */
  private open?: readonly Session[];

  /** The sessions still open, in order of first use (a list the caller does not change). */
  openSessions(): readonly Session[] {
    return (this.open ??= (this.named ?? [this.builder]).map((b) => b.session));
  }
}

/** Feed units a document holds (the events of a recorded stream body) to a line format, as the engine feeds a
 *  file's lines, and emit the sessions it built. */
export function readAsLines(format: LineFormat, units: Doc[], emit: (s: Session) => void): void {
  const sink = new SessionSink(emit);
  const reader = format.open(sink);
  for (const u of units) reader.read(u);
  reader.finish?.();
  for (const s of sink.openSessions()) emit(s);
}

/** Read a document's sessions through a single fresh builder (the common case: one document, one session). */
export function singleSession(read: (b: SessionBuilder) => void, emit: (s: Session) => void, id?: string): void {
  const b = new SessionBuilder(id);
  read(b);
  emit(b.session);
}
