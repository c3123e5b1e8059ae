// Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`): one record per line with `type`,
// `uuid`, `parentUuid`, `sessionId`, `isSidechain` and an Anthropic `message`. One API message may be written over
// several lines sharing `message.id` (one content block each): those lines are one turn. Each `sessionId` is a
// session, and each sidechain (a subagent's conversation, rooted where its `parentUuid` chain starts) is a
// session of its own: keyed by its `agentId` where the line names one (2.x subagent transcripts, `agent-<id>.jsonl`
// and `<session>/subagents/agent-<id>.jsonl`, whose lines carry the parent's `sessionId`), else by the root of its
// `parentUuid` chain (every line of the chain counts, `progress` records included: later lines hang off them).
// 2.x writes one content block per line and runs a tool while the rest of the message streams, so a call's result
// may come before the next call of the same message, and parallel results come in any order: the `message.id`
// keeps the calls one turn and their message's text, and ids pair the results. A `tool_result` block answers its
// `tool_use_id`; a user line that carries only the top-level `toolUseResult` (no readable block) answers the
// latest unanswered call; a result line whose `sourceToolAssistantUUID` (else `parentUuid`) names a line the file
// never read answers a call made before the file began (a session continued from another, a transcript kept from
// a later point), so it is no orphan. `progress` records (hooks, a subagent's `agent_progress` copies of the lines
// its own transcript holds) are no calls. A line whose `uuid` was already read in its session is a replayed copy
// and is skipped. A session no line has touched for 2000 lines is checked and let go (bounded memory on logs of
// many sessions). Also read: `{loglines: [...]}` exports, and claude.ai / Claude Desktop data exports
// (`conversations.json`: an array of conversations, or one conversation `{uuid, name, chat_messages: [...]}`), one
// session per conversation, whose messages `{uuid, sender: human | assistant, text, content: [...]}` hold Anthropic
// content blocks: the tools the app ran (web_search, web_fetch, MCP integrations) are `tool_use` blocks answered
// by a `tool_result` in the same message (`tool_use_id`, `is_error`).
import type { FormatAdapter, LineReader, LineSink, SliceTies } from './adapter';
import { isAmpThreadId } from './amp';
import { blockText, readAnthropicMessage } from './anthropic';
import { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { IdSet } from '../id-table';
import { isPlainObject, latestUnanswered, markCallsElsewhere, SessionSet, str, type Obj } from './util';

function isMessageLine(v: Obj): boolean {
  return (v.type === 'user' || v.type === 'assistant') && isPlainObject(v.message);
}

/** A `--output-format stream-json` message (the Agent SDK's SDKMessage), which older versions wrote without `uuid`
 *  (and captures keep without `session_id`): the `parent_tool_use_id` of the Task call whose subagent speaks, null
 *  in the main conversation. A `stream_event` (`--include-partial-messages`) is a piece of a message whose complete
 *  copy follows: it is this format's, and not read again. Amp's `--stream-json` writes the same envelope under its
 *  thread id (`T-…`), for tools of its own. */
function isStreamMessage(v: Obj): boolean {
  return 'parent_tool_use_id' in v && !isAmpThreadId(v.session_id)
    && (isMessageLine(v) || (v.type === 'stream_event' && isPlainObject(v.event)));
}

/** A record of a Claude Code log, beyond doubt: the log envelope, or a summary pointing at its leaf. */
export function isClaudeCodeLine(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.type !== 'string') return false;
  if (v.type === 'summary') return typeof v.leafUuid === 'string';
  if (typeof v.uuid !== 'string' && typeof v.sessionId !== 'string') return isStreamMessage(v);
  return isMessageLine(v) || (typeof v.uuid === 'string' && typeof v.sessionId === 'string') || isStreamMessage(v);
}

function isLoglines(v: unknown): v is { loglines: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.loglines) && v.loglines.some((l) => isPlainObject(l) && isMessageLine(l));
}

const SENDERS = new Set(['human', 'assistant']);

/** A claude.ai conversation: its `chat_messages` are sender-tagged messages of content blocks. */
function isChatConversation(v: unknown): v is Obj & { chat_messages: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.chat_messages) && v.chat_messages.length > 0
    && v.chat_messages.every((m) => isPlainObject(m) && typeof m.sender === 'string' && SENDERS.has(m.sender) && (Array.isArray(m.content) || typeof m.text === 'string'));
}

/** A claude.ai data export: one conversation, or the array of them `conversations.json` holds. */
function isChatExport(v: unknown): boolean {
  return isChatConversation(v) || (Array.isArray(v) && v.length > 0 && v.every((c) => isPlainObject(c) && Array.isArray(c.chat_messages)) && v.some(isChatConversation));
}

function readChatConversation(doc: Doc, path: JsonPath, conv: Obj, emit: Parameters<NonNullable<FormatAdapter['document']>['read']>[1]): void {
  const b = new SessionBuilder(str(conv.uuid));
  (conv.chat_messages as unknown[]).forEach((m, i) => {
    if (!isPlainObject(m)) return;
    const role = m.sender === 'human' ? 'user' : 'assistant';
    // a message without blocks (older exports) has its `text` only: words, no tool traffic
    readAnthropicMessage(b, doc, [...path, 'chat_messages', i], { role, content: Array.isArray(m.content) ? m.content : m.text });
  });
  emit(b.session);
}

const IDLE_LINES = 2000;

/** Where a line's message is, for a line that is the unit (paths are not changed once made: one is shared). */
const MESSAGE_PATH: JsonPath = ['message'];

class ClaudeCodeReader {
  /** The uuids read per session key, as hashes (a long session has one per line). */
  private readonly seen = new Map<string, IdSet>();
  private readonly roots = new Map<string, string>();
  private readonly lastMessage = new WeakMap<SessionBuilder, { id: string; turn?: number; text: string }>();

  /** Open main sessions and the line number each was last seen on. */
  private readonly lastSeen = new Map<string, number>();
  private lineNo = 0;

  constructor(
    private readonly sessionFor: (key: string) => SessionBuilder,
    private readonly close?: (key: string) => void,
    private readonly ties?: SliceTies,
  ) {}

  /** Read as a slice apart (LineSink.ties), per sessionId: sidechain roots whose parent is not in the slice. */
  private outside?: Map<string, number>;

  /** A slice's line belongs to its sessionId. A session touched again after the idle span may have been closed in
   *  between in the whole file (whose idle checks fall on other lines): that ties the slice. */
  private tieLine(ties: SliceTies, sid: string): void {
    const last = this.lastSeen.get(sid);
    if (last === undefined ? ties.has(sid) : this.lineNo - last > IDLE_LINES) ties.tie();
    ties.key(sid);
  }

  /** A sidechain line whose parent this slice has not read may hang off a chain read before the slice: harmless
   *  for one such root per session (it only names the session), but two could be one chain in the whole file. */
  private outsideParent(ties: SliceTies, sid: string, parent: string): void {
    if (this.seen.get(sid)?.has(parent)) return; // a main line of the session, read in this slice
    const n = ((this.outside ??= new Map<string, number>()).get(sid) ?? 0) + 1;
    this.outside.set(sid, n);
    if (n > 1) ties.tie();
  }

  /** A session no line has touched for IDLE_LINES lines is complete: it and its sidechains are checked and let go,
   *  so a large log of many sessions is checked in bounded memory, while a stray line of another session in
   *  between (seen in real logs) does not split anything. */
  private touch(sid: string): void {
    this.lineNo += 1;
    if (this.ties) this.tieLine(this.ties, sid);
    this.lastSeen.set(sid, this.lineNo);
    if (!this.close || this.lineNo % 64 !== 0) return;
    for (const [done, last] of this.lastSeen) {
      if (this.lineNo - last <= IDLE_LINES) continue;
      this.lastSeen.delete(done);
      for (const key of [...this.seen.keys()]) {
        if (key === done || key.startsWith(`${done}#`)) {
          this.close(key);
          this.seen.delete(key);
        }
      }
      this.close(done);
    }
  }

  /** The session of the last line that named one: a line without `sessionId` (some writers leave it off the
   *  assistant lines) continues it rather than opening a session of its own. */
  private lastSid?: string;

  private sidOf(line: Obj): string {
    const sid = str(line.sessionId) ?? str(line.session_id); // the log's name, or stream-json's
    if (sid !== undefined) this.lastSid = sid;
    else if (this.lastSid === undefined) this.ties?.tie(); // it may continue a session named before the slice
    return sid ?? this.lastSid ?? '';
  }

  private keyOf(line: Obj): string {
    const sid = this.sidOf(line);
    if (line.isSidechain !== true) {
      // a stream-json message of a subagent names the Task call that runs it: the subagent's own conversation
      const task = str(line.parent_tool_use_id);
      return task === undefined ? sid : `${sid}#task:${task}`;
    }
    const agent = str(line.agentId);
    if (agent !== undefined) return `${sid}#agent:${agent}`;
    const uuid = str(line.uuid);
    const parent = str(line.parentUuid);
    if (this.ties && parent !== undefined && !this.roots.has(parent)) this.outsideParent(this.ties, sid, parent);
    const root = (parent !== undefined ? this.roots.get(parent) : undefined) ?? uuid ?? '';
    if (uuid !== undefined) this.roots.set(uuid, root);
    return `${sid}#sidechain:${root}`;
  }

  /** A flattened log some tools write under the same envelope: one line per call (`type: tool_call`, the tool's
   *  name in `message.tool`, its arguments in `message.input`) and one per result (`type: tool_result`), which
   *  answers by `tool_use_id` when it names one, else the latest unanswered call. */
  private readFlat(doc: Doc, path: JsonPath, line: Obj): void {
    const msg = line.message as Obj;
    const b = this.sessionFor(this.keyOf(line));
    const at = { doc, path: path.length ? [...path, 'message'] : MESSAGE_PATH };
    if (line.type === 'tool_call') {
      const name = str(msg.tool) ?? str(msg.name);
      if (name === undefined) return;
      b.call({ name, id: str(msg.id) ?? str(msg.tool_use_id), at, namePath: [str(msg.tool) ? 'tool' : 'name'], argsPath: ['input'], args: msg.input, expect: 'object' });
      return;
    }
    const callId = str(msg.tool_use_id);
    b.result({ at, callId, callIndex: callId === undefined ? latestUnanswered(b) : undefined, payload: msg.content, payloadPath: ['content'] });
  }

  read(doc: Doc, path: JsonPath, line: Obj): void {
    if (!isMessageLine(line)) {
      if ((line.type === 'tool_call' || line.type === 'tool_result') && isPlainObject(line.message)) {
        this.touch(this.sidOf(line));
        this.readFlat(doc, path, line);
        return;
      }
      if (line.isSidechain === true) this.keyOf(line); // a sidechain's chain runs through its progress records too
      return;
    }
    this.touch(this.sidOf(line));
    const key = this.keyOf(line);
    const b = this.sessionFor(key);
    const uuid = str(line.uuid);
    if (uuid !== undefined) {
      let seen = this.seen.get(key);
      if (!seen) this.seen.set(key, (seen = new IdSet()));
      const known = seen.size;
      if (seen.add(uuid) < known) return;
    }
    const msg = line.message as Obj;
    const id = str(msg.id);
    const prev = this.lastMessage.get(b);
    const same = line.type === 'assistant' && id !== undefined && prev?.id === id ? prev : undefined;
    const calls = b.session.calls.length;
    const results = b.session.results.length;
    readAnthropicMessage(b, doc, path.length ? [...path, 'message'] : MESSAGE_PATH, msg, same?.turn);
    if (line.type === 'assistant' && id !== undefined) {
      // the message's text came on lines of its own: its calls still carry it
      const own = blockText(msg.content);
      const text = same?.text && own ? `${same.text}\n${own}` : same?.text || own;
      const all = b.session.calls;
      for (let i = calls; i < all.length; i++) all[i].messageText ??= text || undefined;
      const turn = all.length > calls ? all[all.length - 1].turn : same?.turn;
      if (prev) {
        prev.id = id;
        prev.turn = turn;
        prev.text = text;
      } else this.lastMessage.set(b, { id, turn, text });
    }
    if (line.type === 'user' && 'toolUseResult' in line && b.session.results.length === results) {
      b.result({ at: { doc, path: [...path, 'toolUseResult'] }, callIndex: latestUnanswered(b), payload: line.toolUseResult, payloadPath: [] });
    }
    if (line.type === 'user' && b.session.results.length > results) this.answeredOutside(b, key, line, results);
  }

  /** A result line names the assistant line of its call (`sourceToolAssistantUUID`, 2.x; before it, its
   *  `parentUuid` is that line). When the file has not read that line, the call was made outside it: a session
   *  continued from another (a plan accepted into a cleared context starts with the answer to the plan's call) or
   *  a transcript kept from a later point, as Entire's checkpoints keep them. Its results whose id no call has are
   *  then no orphans. */
  private answeredOutside(b: SessionBuilder, key: string, line: Obj, from: number): void {
    const source = str(line.sourceToolAssistantUUID) ?? str(line.parentUuid);
    if (source === undefined || this.seen.get(key)?.has(source)) return;
    markCallsElsewhere(b, from);
  }
}

/** The reader of Claude Code's lines; Qwen Code's stream-json, the same layout, is read by it too. */
export function openClaudeCodeLines(sink: LineSink): LineReader {
  const reader = new ClaudeCodeReader((key) => sink.sessionFor(key), (key) => sink.closeSession(key), sink.ties);
  return { read: (doc) => reader.read(doc, [], doc.value as Obj) };
}

export const claudeCode: FormatAdapter = {
  id: 'claude-code',
  packs: ['claude-code'],
  document: {
    claims: (v) => isLoglines(v) || isChatExport(v),
    read(doc, emit) {
      const v = doc.value;
      if (isChatExport(v)) {
        if (Array.isArray(v)) v.forEach((c, i) => isChatConversation(c) && readChatConversation(doc, [i], c, emit));
        else readChatConversation(doc, [], v as Obj, emit);
        return;
      }
      const sessions = new SessionSet();
      const reader = new ClaudeCodeReader((key) => sessions.get(key));
      (doc.value as { loglines: unknown[] }).loglines.forEach((l, i) => {
        if (isPlainObject(l)) reader.read(doc, ['loglines', i], l);
      });
      sessions.emitAll(emit);
    },
  },
  lines: {
    segments: true,
    claims: isClaudeCodeLine,
    // a message line with no envelope left (captures trimmed by hand) continues the log it sits in
    accepts: (v) => isPlainObject(v) && isMessageLine(v),
    open: openClaudeCodeLines,
  },
};
