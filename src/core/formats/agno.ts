// Agno (formerly Phidata): run outputs, stored sessions and run event streams. Rules followed (agno/models/message.py,
// agno/models/response.py ToolExecution, agno/run/agent.py and team.py, agno/session/, agno/run/response.py of 1.x):
// - A `Message` dict always writes `from_history` and `stop_after_tool_call`. An assistant's calls are `tool_calls`
//   in OpenAI's shape (`{id, type: "function", function: {name, arguments}}`) whatever the provider. A `tool`
//   message answers one by `tool_call_id` and repeats `tool_name` / `tool_args`; `tool_call_error: true` is the
//   error flag (the tool raised). A model that answers several calls in one message lists them in that message's
//   `tool_calls` as `{tool_call_id, tool_name, content}`.
// - `from_history: true` marks a copy of an earlier run's message put back into the context: it is not read again.
// - A run output (`RunOutput`, 1.x `RunResponse`; the team's `TeamRunOutput`) is `{run_id, content, messages,
//   tools, ...}`: its messages are the conversation; `tools` (ToolExecution `{tool_call_id, tool_name, tool_args,
//   tool_call_error, result}`, 1.x: tool messages with `content`) are read only when the messages carry no call.
//   A team run's `member_responses` are the members' runs: a session each.
// - A stored session is `{session_id, runs: [run]}` (2.x) or `{session_id, memory: {runs: [{response}],
//   messages}}` (1.x): one session, its runs in order.
// - Streamed events (`{event, run_id, session_id, tool}`; 1.x events carry `tools`): `ToolCallStarted` /
//   `TeamToolCallStarted` is a call, `…Completed` its outcome (`result`, `tool_call_error`), paired by
//   `tool_call_id`; a session per `session_id` (a team and each member run in their own).
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { Session } from '../model';
import { at, callOnce, hasCallId, isPlainObject, SessionSet, str, unansweredByName, waitingFor, type Obj } from './util';

function isAgnoMessage(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.role === 'string' && ('from_history' in v || 'stop_after_tool_call' in v || 'tool_call_error' in v);
}

function isToolExecution(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.tool_name === 'string' && 'tool_args' in v && ('tool_call_id' in v || 'tool_call_error' in v);
}

function messageCalls(m: Obj): boolean {
  return (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) || m.role === 'tool';
}

function isMessageList(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isAgnoMessage);
}

/** A run output: Agno messages, or a list of tool executions, under the keys of a run. */
function isRun(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  const msgs = isMessageList(v.messages);
  const tools = Array.isArray(v.tools) && v.tools.length > 0 && v.tools.every(isToolExecution);
  const events = Array.isArray(v.events) && v.events.some(isToolEvent) && 'run_id' in v;
  return (msgs || tools || events) && ('run_id' in v || 'content' in v || 'agent_id' in v || 'team_id' in v || 'session_id' in v || msgs);
}

function runsOf(v: unknown): { path: string[]; runs: unknown[] } | undefined {
  if (!isPlainObject(v) || !('session_id' in v)) return undefined;
  if (Array.isArray(v.runs) && v.runs.some(isRun)) return { path: ['runs'], runs: v.runs };
  const mem = v.memory;
  if (isPlainObject(mem) && Array.isArray(mem.runs) && mem.runs.some((r) => isPlainObject(r) && isRun(r.response))) return { path: ['memory', 'runs'], runs: mem.runs };
  return undefined;
}

/** 1.x session memory without runs: its flat message list. */
function memoryMessages(v: unknown): unknown[] | undefined {
  if (!isPlainObject(v) || !('session_id' in v) || !isPlainObject(v.memory)) return undefined;
  return isMessageList(v.memory.messages) ? v.memory.messages : undefined;
}

class RunReader {
  constructor(readonly b: SessionBuilder) {}

  /** A call id is made once (a run lists its executions after the messages that made them, an event repeats it). */
  private call(ref: NodeRef, name: string, id: string | undefined, namePath: string[], argsPath: string[], args: unknown, turn: number, text?: string): void {
    callOnce(this.b, { name, id, at: ref, namePath, argsPath, args, expect: 'any', messageText: text }, () => turn);
  }

  /** An outcome by id answers its call once; one whose call is not in the run is not read. */
  private answer(ref: NodeRef, id: string | undefined, key: string, payload: unknown, error: unknown): void {
    if (id !== undefined && !waitingFor(this.b, id)) return;
    this.b.result({ at: ref, callId: id, payloadPath: [key], payload, transport: typeof error === 'boolean' ? { isError: error } : undefined });
  }

  message(ref: NodeRef, m: Obj): void {
    if (m.from_history === true) return;
    if (m.role === 'tool') {
      const combined = Array.isArray(m.tool_calls) ? m.tool_calls.filter((t) => isPlainObject(t) && typeof t.tool_call_id === 'string') : [];
      if (combined.length > 0) {
        (m.tool_calls as unknown[]).forEach((t, i) => {
          if (isPlainObject(t) && typeof t.tool_call_id === 'string') this.answer(at(ref, 'tool_calls', i), t.tool_call_id, 'content', t.content, m.tool_call_error);
        });
      } else this.answer(ref, str(m.tool_call_id), 'content', m.content, m.tool_call_error);
      this.b.breakTurn();
      return;
    }
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls) || m.tool_calls.length === 0) {
      if (m.role === 'assistant') this.b.assistantText(at(ref, 'content'), m.content);
      else this.b.breakTurn();
      return;
    }
    const turn = this.b.newTurn();
    const text = typeof m.content === 'string' ? m.content : undefined;
    m.tool_calls.forEach((tc, i) => {
      const fn = isPlainObject(tc) && isPlainObject(tc.function) ? tc.function : undefined;
      if (!fn || typeof fn.name !== 'string') return;
      this.call(at(ref, 'tool_calls', i), fn.name, str((tc as Obj).id), ['function', 'name'], ['function', 'arguments'], fn.arguments, turn, text);
    });
  }

  /** A ToolExecution (or a 1.x tool message in `tools`): the call, and its outcome once it has one. */
  execution(ref: NodeRef, t: Obj, turn: number): void {
    const id = str(t.tool_call_id);
    this.call(ref, t.tool_name as string, id, ['tool_name'], ['tool_args'], t.tool_args, turn);
    const key = 'result' in t ? 'result' : 'content';
    const done = (t[key] !== null && t[key] !== undefined) || t.tool_call_error === true;
    if (done) this.answer(ref, id, key, t[key], t.tool_call_error);
  }

  /** A tool of a run event: a call when it starts (or when its completion is all there is), its outcome when done;
   *  without a `tool_call_id` the outcome answers the earliest open call of that tool. */
  event(ref: NodeRef, t: Obj, done: boolean, failed: boolean): void {
    const id = str(t.tool_call_id);
    const name = t.tool_name as string;
    let callIndex = id === undefined ? unansweredByName(this.b, name) : undefined;
    if (id === undefined ? callIndex === undefined || !done : !hasCallId(this.b, id)) {
      this.call(ref, name, id, ['tool_name'], ['tool_args'], t.tool_args, this.b.currentTurn());
      if (id === undefined) callIndex = this.b.session.calls.length - 1;
    }
    if (!done) return;
    const key = 'result' in t ? 'result' : 'content';
    const error = failed || t.tool_call_error === true ? true : typeof t.tool_call_error === 'boolean' ? false : undefined;
    if (id !== undefined) this.answer(ref, id, key, t[key], error);
    else this.b.result({ at: ref, callIndex, payloadPath: [key], payload: t[key], transport: error === undefined ? undefined : { isError: error } });
  }

  run(ref: NodeRef, r: Obj): void {
    const msgs = isMessageList(r.messages) ? r.messages : [];
    const fromMessages = msgs.some((m) => m.from_history !== true && messageCalls(m));
    if (fromMessages) msgs.forEach((m, i) => this.message(at(ref, 'messages', i), m));
    else if (Array.isArray(r.tools) && r.tools.some(isToolExecution)) {
      const turn = this.b.newTurn();
      r.tools.forEach((t, i) => { if (isToolExecution(t)) this.execution(at(ref, 'tools', i), t, turn); });
      this.b.breakTurn();
    } else if (Array.isArray(r.events)) {
      // a run that stored its events (`store_events`) and no messages
      r.events.forEach((e, i) => {
        if (!isToolEvent(e)) return;
        const { key, list } = eventTools(e);
        list.forEach((t, j) => {
          if (isEventTool(t)) this.event(key === 'tool' ? at(ref, 'events', i, 'tool') : at(ref, 'events', i, 'tools', j), t, DONE_EVENTS.has(e.event as string), e.event === 'ToolCallError');
        });
      });
    }
  }
}

function readRun(ref: NodeRef, r: Obj, emit: (s: Session) => void): void {
  singleSession((b) => new RunReader(b).run(ref, r), emit, str(r.run_id) ?? str(r.session_id));
  if (Array.isArray(r.member_responses)) {
    r.member_responses.forEach((m, i) => { if (isRun(m)) readRun(at(ref, 'member_responses', i), m, emit); });
  }
}

// ---- events ---------------------------------------------------------------------------------------------------

const CALL_EVENTS = new Set(['ToolCallStarted', 'TeamToolCallStarted']);
const DONE_EVENTS = new Set(['ToolCallCompleted', 'TeamToolCallCompleted', 'ToolCallError', 'TeamToolCallError']);

/** An event's tool: a ToolExecution, of which some writers keep only the name and the args or the result. */
function isEventTool(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.tool_name === 'string';
}

function eventTools(v: Obj): { key: string; list: unknown[] } {
  if (isEventTool(v.tool)) return { key: 'tool', list: [v.tool] };
  return { key: 'tools', list: Array.isArray(v.tools) ? v.tools : [] };
}

function isToolEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.event === 'string' && (CALL_EVENTS.has(v.event) || DONE_EVENTS.has(v.event)) && eventTools(v).list.some(isEventTool);
}

/** Any run event (`{event, run_id | session_id}`), the ones that say nothing of tools included. */
function isRunEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.event === 'string' && ('run_id' in v || 'session_id' in v) && ('created_at' in v || 'agent_id' in v || 'team_id' in v);
}

function isEventList(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isRunEvent) && v.some(isToolEvent);
}

class EventReader {
  private readonly readers = new Map<string, RunReader>();

  constructor(readonly sessionFor: (key: string) => SessionBuilder) {}

  read(ref: NodeRef, v: unknown): void {
    if (!isPlainObject(v) || !isToolEvent(v)) return;
    const key = str(v.session_id) ?? str(v.run_id) ?? '';
    let r = this.readers.get(key);
    if (!r) this.readers.set(key, (r = new RunReader(this.sessionFor(key))));
    const { key: field, list } = eventTools(v);
    const done = DONE_EVENTS.has(v.event as string);
    const failed = v.event === 'ToolCallError' || v.event === 'TeamToolCallError';
    list.forEach((t, i) => {
      if (isEventTool(t)) r.event(field === 'tool' ? at(ref, 'tool') : at(ref, 'tools', i), t, done, failed);
    });
  }
}

export const agno: FormatAdapter = {
  id: 'agno',
  document: {
    claims: (v) => isRun(v) || runsOf(v) !== undefined || memoryMessages(v) !== undefined || isEventList(v)
      || (isMessageList(v) && v.some(messageCalls)),
    read(doc, emit) {
      const v = doc.value;
      const root: NodeRef = { doc, path: [] };
      if (isEventList(v)) {
        const sessions = new SessionSet();
        const reader = new EventReader((key) => sessions.get(key));
        v.forEach((e, i) => reader.read(at(root, i), e));
        sessions.emitAll(emit);
        return;
      }
      const runs = runsOf(v);
      if (runs && isPlainObject(v)) {
        singleSession((b) => {
          const r = new RunReader(b);
          runs.runs.forEach((run, i) => {
            const where = at(root, ...runs.path, i);
            if (isRun(run)) r.run(where, run);
            else if (isPlainObject(run) && isRun(run.response)) r.run(at(where, 'response'), run.response);
          });
        }, emit, str(v.session_id));
        return;
      }
      const mem = memoryMessages(v);
      if (mem && isPlainObject(v)) {
        singleSession((b) => { const r = new RunReader(b); mem.forEach((m, i) => { if (isAgnoMessage(m)) r.message(at(root, 'memory', 'messages', i), m); }); }, emit, str(v.session_id));
        return;
      }
      if (isRun(v)) return readRun(root, v, emit);
      if (isMessageList(v)) singleSession((b) => { const r = new RunReader(b); v.forEach((m, i) => r.message(at(root, i), m)); }, emit);
    },
  },
  lines: {
    claims: isToolEvent,
    accepts: isRunEvent,
    open(sink: LineSink) {
      const reader = new EventReader((key) => (key === '' ? sink.builder : sink.sessionFor(key)));
      return { read(doc) { reader.read({ doc, path: [] }, doc.value); } };
    },
  },
};
