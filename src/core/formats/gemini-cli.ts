// Gemini CLI's own records (~/.gemini/tmp/<project>/...):
// - Chat recordings, `chats/session-*.json` (one ConversationRecord `{sessionId, projectHash, startTime,
//   lastUpdated, messages[], kind?}`) and, in newer versions, `session-*.jsonl`: a header line with the same
//   metadata, then message records appended as they change (the same message `id` is written again when its
//   tokens or tool calls are updated: the last copy wins), `{$set: {...}}` metadata updates (once in a while a
//   whole `messages` list: copies, read only for ids no line of their own holds) and `{$rewindTo: id}` (the
//   messages from `id` on were rewound: they ran, so they are kept, as a session of their own).
//   Messages are `{id, timestamp, type: user|gemini|info|error|warning, content}`; a `gemini` message carries
//   `toolCalls[] {id, name, args, result, status, ...}` whose results are inside the call:
//   `result` is a part list (`[{functionResponse: {id, name, response: {output} | {error}}}]`), a single part or
//   a string. `status` is the transport: `success`, or `error`/`cancelled` (an honest failure); a call still
//   `scheduled`/`executing` has no result; one that finished without a recorded `result` (`cli_help`, a subagent)
//   has its `resultDisplay` as its result. A user message may repeat the function responses as parts, and a model
//   message synced from history may repeat its calls as `functionCall` parts: copies of what `toolCalls` holds.
//   A subagent's progress in `resultDisplay` is a display summary, not its calls (its own recording has those).
// - Saved chats and checkpoints (`/chat save`: `checkpoint-<tag>.json`): `{history: Content[]}` or a bare
//   `Content[]` (older); restorable tool checkpoints `{history, clientHistory: Content[], toolCall, ...}`
//   (`toolCall` is the call also found in `clientHistory`). Content is read as Gemini API contents.
// - `--output-format stream-json` output: JSONL events `init`, `message`, `tool_use {tool_name, tool_id,
//   parameters}`, `tool_result {tool_id, status, output | error}`, `error`, `result`.
// - `logs.json` (the prompts typed, no tool traffic) is recognised and has nothing to check.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Session, TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isContent, readCallParts, readContents, readFunctionResponse, readResponseParts } from './gemini';
import { isPlainObject, str, textOf, unansweredByName, type Obj } from './util';

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);
const FAILED = new Set(['error', 'cancelled']);
/** Statuses of a call that ran to its end (or was stopped): it has a result, recorded or not. */
const FINISHED = new Set(['success', ...FAILED]);

function isMessage(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && MESSAGE_TYPES.has(v.type) && ('content' in v || 'toolCalls' in v);
}

function isRecording(v: unknown): v is Obj & { messages: unknown[] } {
  // a message type this reader does not know (a newer CLI's) is skipped, not a reason to refuse the file
  return isPlainObject(v) && typeof v.sessionId === 'string' && typeof v.projectHash === 'string' && Array.isArray(v.messages)
    && v.messages.every((m) => isPlainObject(m) && typeof m.type === 'string') && (v.messages.length === 0 || v.messages.some(isMessage));
}

/** The first line of a `.jsonl` recording. */
function isHeader(v: unknown): boolean {
  return isPlainObject(v) && typeof v.sessionId === 'string' && typeof v.projectHash === 'string' && !('messages' in v) && !('type' in v);
}

function isContentList(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every((c) => isContent(c) && typeof c.role === 'string');
}

function isCheckpoint(v: unknown): v is Obj {
  if (isContentList(v)) return true;
  return isPlainObject(v) && (isContentList(v.history) || isContentList(v.clientHistory));
}

function isPromptLog(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((e) => isPlainObject(e) && typeof e.sessionId === 'string' && typeof e.messageId === 'number'
    && typeof e.message === 'string' && typeof e.type === 'string');
}

const STREAM_EVENTS = new Set(['init', 'message', 'tool_use', 'tool_result', 'error', 'result']);

function isStreamToolEvent(v: unknown): boolean {
  return isPlainObject(v) && typeof v.tool_id === 'string'
    && ((v.type === 'tool_use' && typeof v.tool_name === 'string') || (v.type === 'tool_result' && typeof v.status === 'string'));
}

function isStreamEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && STREAM_EVENTS.has(v.type) && typeof v.timestamp === 'string'
    && (isStreamToolEvent(v) || (v.type === 'init' && typeof v.session_id === 'string') || (v.type === 'message' && typeof v.role === 'string')
      || (v.type === 'result' && typeof v.status === 'string') || (v.type === 'error' && typeof v.severity === 'string'));
}

// ---- recordings ------------------------------------------------------------------------------------------

/** One message record and where it is (its own line, or an element of a document's or a `$set`'s list). */
interface Located {
  doc: Doc;
  path: JsonPath;
  value: Obj;
}

/** The parts of a message's `content` (a string content has none). */
function contentParts(m: Obj): unknown[] {
  return Array.isArray(m.content) ? m.content : isPlainObject(m.content) ? [m.content] : [];
}

/** The lines Gemini CLI's shell tool writes after a command's output, each only when it says something. */
const SHELL_TAIL = /^(?:Signal|Background PIDs|Process Group PGID): /;
const EXIT_LINE = /^Exit Code: (-?\d+)\s*$/;

/** The exit code a shell call's response reports. Gemini CLI's `run_shell_command` (Qwen Code's too) answers
 *  `Command: … / Directory: … / Output: … / Error: … / Exit Code: N / Signal: … / Background PIDs: … / Process Group
 *  PGID: …`: older builds write every line (`(none)` when empty), newer ones only those that say something (no
 *  `Exit Code` line: it exited 0, left unsaid here). The line is read after the output, below it only the lines
 *  that follow it, and only for a call that runs a shell (the shell tool, or arguments that are a command line):
 *  any other tool's output is text it read. */
export function shellExitCode(name: unknown, args: unknown, response: unknown): number | undefined {
  const shell = name === 'run_shell_command' || (isPlainObject(args) && typeof args.command === 'string' && !('path' in args) && !('file_path' in args));
  if (!shell || !isPlainObject(response)) return undefined;
  const text = typeof response.output === 'string' ? response.output : typeof response.error === 'string' ? response.error : undefined;
  if (text === undefined) return undefined;
  const lines = text.trimEnd().split('\n');
  let i = lines.length - 1;
  while (i > 0 && SHELL_TAIL.test(lines[i])) i--;
  const m = EXIT_LINE.exec(lines[i]);
  return m ? Number(m[1]) : undefined;
}

/** A tool call's inline result: the function response part(s), a lone part, or a string. Returns whether the call
 *  has one. */
function readInlineResult(b: SessionBuilder, doc: Doc, path: JsonPath, tc: Obj, link: { callId?: string; callIndex?: number }): boolean {
  const status = str(tc.status);
  const transport: TransportSignals | undefined = status === undefined ? undefined : { isError: FAILED.has(status) };
  const result = tc.result;
  const list = Array.isArray(result) ? result : isPlainObject(result) ? [result] : undefined;
  const first = list?.findIndex((p) => isPlainObject(p) && isPlainObject(p.functionResponse)) ?? -1;
  if (list && first >= 0) {
    const at = Array.isArray(result) ? [...path, 'result', first] : [...path, 'result'];
    const fr = (list[first] as Obj).functionResponse as Obj;
    const exitCode = shellExitCode(tc.name, tc.args, fr.response);
    // the exit code joins the call's status (without one, the response's own error flag stands alone)
    readFunctionResponse(b, doc, at, 'functionResponse', fr, link, exitCode === undefined || !transport ? transport : { ...transport, exitCode });
    return true;
  }
  if (result !== undefined && result !== null) {
    b.result({ at: { doc, path: [...path, 'result'] }, ...link, payload: result, payloadPath: [], transport: transport ?? {} });
    return true;
  }
  if (status !== undefined && FINISHED.has(status)) {
    // a call that finished recorded without a response (an error, a cancellation, or a tool such as `cli_help` or
    // a subagent that records only what it showed) still has its result: what the user saw
    b.result({ at: { doc, path }, ...link, payload: tc.resultDisplay, payloadPath: ['resultDisplay'], transport: transport ?? {} });
    return true;
  }
  return false;
}

/** The ids of a recording's tool calls, and of those whose result is inside the call: what copies repeat. */
interface Recorded {
  calls: Set<string>;
  answered: Set<string>;
}

function recordedIn(messages: Located[]): Recorded {
  const r: Recorded = { calls: new Set(), answered: new Set() };
  for (const { value: m } of messages) {
    if (!Array.isArray(m.toolCalls)) continue;
    for (const tc of m.toolCalls) {
      if (!isPlainObject(tc) || typeof tc.id !== 'string') continue;
      r.calls.add(tc.id);
      if ((tc.result !== undefined && tc.result !== null) || FINISHED.has(str(tc.status) ?? '')) r.answered.add(tc.id);
    }
  }
  return r;
}

/** Read recorded messages, in order, into a session. `recorded` covers the whole file (a rewound branch's user
 *  message may repeat a response of the main line). */
function readMessages(b: SessionBuilder, messages: Located[], recorded: Recorded = recordedIn(messages)): void {
  const answered = new Set<string>();
  for (const { doc, path, value: m } of messages) {
    if (m.type === 'gemini') {
      const calls = Array.isArray(m.toolCalls) ? m.toolCalls : [];
      const valid = calls.map((tc, j) => ({ tc, j })).filter((x) => isPlainObject(x.tc) && typeof x.tc.name === 'string');
      if (valid.length > 0) {
        const turn = b.newTurn();
        const messageText = textOf(m.content);
        const made = valid.map(({ tc, j }) => {
          const t = tc as Obj;
          return { t, j, call: b.call({ name: t.name as string, id: str(t.id), at: { doc, path: [...path, 'toolCalls', j] }, namePath: ['name'],
            argsPath: ['args'], args: t.args, expect: 'object', messageText }, turn) };
        });
        let answers = 0;
        for (const { t, j, call } of made) {
          const link = call.id === undefined ? { callIndex: call.index } : { callId: call.id };
          if (!readInlineResult(b, doc, [...path, 'toolCalls', j], t, link)) continue;
          answers++;
          if (call.id !== undefined) answered.add(call.id);
        }
        if (answers > 0) b.breakTurn(); // the results are part of this message: what comes next is a new message
      } else {
        // a message synced from the model's history holds its calls as parts; copies when `toolCalls` has them
        const parts = contentParts(m);
        const copies = parts.some((p) => isPlainObject(p) && isPlainObject(p.functionCall) && typeof p.functionCall.id === 'string' && recorded.calls.has(p.functionCall.id));
        if (!copies && readCallParts(b, doc, [...path, 'content'], parts) > 0) continue;
        b.breakTurn();
      }
      continue;
    }
    if (m.type === 'user') {
      // function responses repeated from the calls' own results are copies
      readResponseParts(b, doc, [...path, 'content'], contentParts(m), (fr) => {
        const id = str(fr.id);
        if (id !== undefined && id !== '') return !answered.has(id) && !recorded.answered.has(id);
        return typeof fr.name === 'string' && unansweredByName(b, fr.name) !== undefined;
      });
    }
    b.breakTurn();
  }
}

function readRecording(doc: Doc, emit: (s: Session) => void): void {
  const v = doc.value as Obj & { messages: unknown[] };
  const messages = v.messages.flatMap((m, i) => (isMessage(m) ? [{ doc, path: ['messages', i], value: m }] : []));
  singleSession((b) => readMessages(b, messages), emit, str(v.sessionId));
}

function readCheckpoint(doc: Doc, emit: (s: Session) => void): void {
  const v = doc.value;
  singleSession((b) => {
    if (isContentList(v)) readContents(b, doc, [], v);
    else if (isPlainObject(v) && isContentList(v.clientHistory)) readContents(b, doc, ['clientHistory'], v.clientHistory);
    else if (isPlainObject(v) && isContentList(v.history)) readContents(b, doc, ['history'], v.history);
  }, emit);
}

/** A `.jsonl` recording: message records by id (the last copy wins), in order of first appearance. */
class RecordingLines {
  private sessionId?: string;
  private current: string[] = [];
  private readonly rewound: string[][] = [];
  private readonly byId = new Map<string, Located & { own: boolean }>();
  private unnamed = 0;

  constructor(private readonly sink: LineSink) {}

  read(doc: Doc): void {
    const v = doc.value;
    if (!isPlainObject(v)) return;
    if (isHeader(v)) {
      this.sessionId ??= v.sessionId as string;
      return;
    }
    if (typeof v.$rewindTo === 'string') {
      const at = this.current.indexOf(v.$rewindTo);
      const cut = this.current.splice(at < 0 ? 0 : at);
      if (cut.length) this.rewound.push(cut);
      return;
    }
    if (isPlainObject(v.$set)) {
      const list = v.$set.messages;
      if (Array.isArray(list)) list.forEach((m, i) => isMessage(m) && this.keep(doc, ['$set', 'messages', i], m, false));
      return;
    }
    if (isMessage(v)) this.keep(doc, [], v, true);
  }

  private keep(doc: Doc, path: JsonPath, m: Obj, own: boolean): void {
    const id = typeof m.id === 'string' ? m.id : `#${this.unnamed++}`;
    const before = this.byId.get(id);
    if (before?.own && !own) return; // a `$set` copy never replaces a record's own line
    this.byId.set(id, { doc, path, value: m, own });
    if (!before) this.current.push(id);
  }

  finish(): void {
    const sid = this.sessionId ?? '';
    const pick = (ids: string[]) => ids.flatMap((id) => this.byId.get(id) ?? []);
    const recorded = recordedIn([...this.byId.values()]);
    readMessages(this.sink.sessionFor(sid), pick(this.current), recorded);
    this.rewound.forEach((ids, i) => readMessages(this.sink.sessionFor(`${sid}#rewound-${i + 1}`), pick(ids), recorded));
  }
}

// ---- stream-json -----------------------------------------------------------------------------------------

function streamJsonReader(sink: LineSink): { read(doc: Doc): void } {
  let b = sink.builder;
  let turn: number | undefined;
  return {
    read(doc) {
      const v = doc.value as Obj;
      if (v.type === 'init' && typeof v.session_id === 'string') {
        b = sink.sessionFor(v.session_id);
        turn = undefined;
      } else if (v.type === 'tool_use' && typeof v.tool_name === 'string') {
        turn ??= b.newTurn();
        b.call({ name: v.tool_name, id: str(v.tool_id), at: { doc, path: [] }, namePath: ['tool_name'], argsPath: ['parameters'], args: v.parameters, expect: 'object' }, turn);
      } else if (v.type === 'tool_result' && typeof v.tool_id === 'string') {
        const failed = v.status === 'error';
        const payloadKey = 'output' in v || !failed ? 'output' : 'error';
        b.result({ at: { doc, path: [] }, callId: v.tool_id, payload: v[payloadKey], payloadPath: [payloadKey], transport: { isError: failed } });
        turn = undefined;
        b.breakTurn();
      } else {
        turn = undefined;
        b.breakTurn();
      }
    },
  };
}

export const geminiCli: FormatAdapter = {
  id: 'gemini-cli',
  document: {
    claims(v) {
      return isRecording(v) || isCheckpoint(v) || isPromptLog(v);
    },
    read(doc, emit) {
      if (isRecording(doc.value)) readRecording(doc, emit);
      else if (isCheckpoint(doc.value)) readCheckpoint(doc, emit);
    },
  },
  lines: {
    claims(v) {
      return isHeader(v) || isStreamToolEvent(v) || (isStreamEvent(v) && v.type === 'init')
        || (isMessage(v) && typeof v.id === 'string' && (v.type === 'gemini' || contentParts(v).some((p) => isPlainObject(p) && isPlainObject(p.functionResponse))));
    },
    accepts(v) {
      return (isMessage(v) && typeof v.id === 'string') || (isPlainObject(v) && (isPlainObject(v.$set) || typeof v.$rewindTo === 'string')) || isStreamEvent(v);
    },
    open(sink) {
      // one file is either a recording or stream-json output: decided by its first line
      let reader: { read(doc: Doc): void; finish?(): void } | undefined;
      return {
        read(doc) {
          reader ??= isStreamEvent(doc.value) ? streamJsonReader(sink) : new RecordingLines(sink);
          reader.read(doc);
        },
        finish: () => reader?.finish?.(),
      };
    },
  },
};
