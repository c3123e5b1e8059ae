// tau-bench and tau2-bench result files.
// tau-bench: a JSON array of `{task_id, reward, info, traj, trial}`. Each entry is a session whose `traj` is an
// OpenAI Chat conversation (read by the Chat adapter's reader). A crashed run has an empty `traj` and its
// `info.error`: no calls, nothing to pair. The environment answers every call with a `role: "tool"` message whose
// content is the tool's return; a tool that raised (or refused) answers `"Error: ..."` — tau-bench's only error
// signal, so such a result is an honest failure and any other says success.
// Its ReAct and Act agents (`--agent-strategy react|act`) call no API tools: each assistant text ends in `Action:`
// and the JSON action `{name, arguments}` (the `respond` action is the reply to the user, not a call), and the
// environment's answer comes back as the next user message, `API output: <observation>`. Their system prompt
// lists the tools after `#Available tools` as JSON (the definitions; the instruction's example tool after it is not).
// tau2-bench: one object `{timestamp, info, tasks, simulations: [...]}` (or a single simulation). Each simulation
// (`task_id`, `trial`) is a session of tau2's own messages: assistant and user messages carry `tool_calls`
// `[{id, name, arguments (an object), requestor}]` (the user simulator calls tools too), and each `role: "tool"`
// message answers one by its `id`, with an `error` boolean (a `MultiToolMessage` holds several in
// `tool_messages`). The tasks' `evaluation_criteria.actions` are expected calls, not calls made: not read.
// A full-duplex (voice) simulation keeps `messages` empty (null) and records `ticks` instead: each tick's
// `agent_tool_calls` / `user_tool_calls` (tau2's calls) and `agent_tool_results` / `user_tool_results` (its tool
// messages), in that order, the calls of one tick one turn.
// tau2's task files (`tasks.json`, a list; `tasks/<id>.json`, one task: `{id, user_scenario, evaluation_criteria}`)
// hold only the expected actions: recognised, nothing read (the shape reader would take them for calls made).
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { readChatMessage, isChatMessage } from './openai-chat';
import { jsonBody, valueDoc, writeCalls, writeDefinitions, callShape } from './tool-tags';
import { firstValue, type TextValue } from './text-values';
import { isPlainObject, SessionSet, str, textOf, type Obj, keyText } from './util';

function isEntry(v: unknown): v is Obj & { traj: unknown[] } {
  return isPlainObject(v) && 'task_id' in v && 'reward' in v && Array.isArray(v.traj);
}

/** The environment's error answer (`f"Error: {e}"` and the tools' own `"Error: ..."` returns). */
const ERROR_ANSWER = /^Error:/;

const ACTION = 'Action:';
const API_OUTPUT = 'API output: ';
const TOOLS_MARK = '#Available tools';
/** The action that answers the user: a reply, not a tool call. */
const RESPOND = 'respond';

/** A ReAct / Act step's action: the text after its last `Action:`, whole, a JSON `{name, arguments}`. */
function reactAction(text: string): TextValue | undefined {
  const at = text.lastIndexOf(ACTION);
  if (at < 0) return undefined;
  const raw = text.slice(at + ACTION.length);
  const start = at + ACTION.length + (raw.length - raw.trimStart().length);
  const v = jsonBody(text, start, raw.trim());
  return v && callShape(v.value) && isPlainObject(v.value) && 'arguments' in v.value ? v : undefined;
}

/** Read a ReAct / Act agent's message (a system prompt's tool list, an action, an `API output:` answer); false
 *  when the message is not one, for the Chat reader to read. `state.pending`: the call waiting for its answer. */
function readReactMessage(b: SessionBuilder, doc: Doc, path: JsonPath, m: Obj, state: { pending?: number }): boolean {
  const text = typeof m.content === 'string' ? m.content : undefined;
  if (text === undefined || (Array.isArray(m.tool_calls) && m.tool_calls.length > 0)) return false;
  const at = [...path, 'content'];
  if (m.role === 'system') {
    const mark = text.indexOf(TOOLS_MARK);
    const v = mark >= 0 ? firstValue(text, mark + TOOLS_MARK.length) : undefined;
    if (v && Array.isArray(v.value)) writeDefinitions(b, valueDoc(doc, at, text, v), [], v.value);
    return false;
  }
  if (m.role === 'assistant') {
    const v = reactAction(text);
    if (!v) return false;
    state.pending = undefined;
    if ((v.value as Obj).name === RESPOND) b.assistantText({ doc, path: at }, undefined);
    else state.pending = writeCalls(b, valueDoc(doc, at, text, v), [], v.value, b.newTurn())[0];
    return true;
  }
  if (m.role === 'user' && state.pending !== undefined && text.startsWith(API_OUTPUT)) {
    const answer = text.slice(API_OUTPUT.length);
    b.result({ at: { doc, path }, callIndex: state.pending, payload: answer, payloadPath: ['content'], transport: { isError: ERROR_ANSWER.test(answer) } });
    state.pending = undefined;
    return true;
  }
  return false;
}

/** A ReAct / Act agent's trajectory: its system prompt lists the tools as text. */
function isReactRun(traj: unknown[]): boolean {
  const first = traj[0];
  return isPlainObject(first) && first.role === 'system' && typeof first.content === 'string' && first.content.includes(TOOLS_MARK);
}

function isSimulation(v: unknown): v is Obj {
  return isPlainObject(v) && 'task_id' in v && (Array.isArray(v.messages) || Array.isArray(v.ticks)) && ('termination_reason' in v || 'reward_info' in v);
}

/** A tau2 task: a user scenario and what a run is judged by (its `actions` are expected calls, not calls made). */
function isTask(v: unknown): boolean {
  return isPlainObject(v) && (typeof v.id === 'string' || typeof v.id === 'number') && isPlainObject(v.user_scenario) && 'evaluation_criteria' in v;
}

function isTaskFile(v: unknown): boolean {
  return isTask(v) || (Array.isArray(v) && v.length > 0 && v.every(isTask));
}

function isTau2Results(v: unknown): v is Obj & { simulations: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.simulations) && v.simulations.length > 0 && (Array.isArray(v.tasks) || isPlainObject(v.info))
    && v.simulations.every(isSimulation);
}

/** One tau2 message; `callsKey` is where its calls sit under `path` (a tick keeps them in its own lists). */
function readTau2Message(b: SessionBuilder, doc: Doc, path: JsonPath, m: Obj, callsKey = 'tool_calls'): void {
  if (m.role === 'tool' && Array.isArray(m.tool_messages)) {
    m.tool_messages.forEach((t, k) => { if (isPlainObject(t)) readTau2Message(b, doc, [...path, 'tool_messages', k], t); });
    return;
  }
  if (m.role === 'tool') {
    const failed = m.error === true || (m.error !== false && typeof m.content === 'string' && ERROR_ANSWER.test(m.content));
    b.result({ at: { doc, path }, callId: str(m.id), payload: m.content, payloadPath: ['content'], transport: { isError: failed } });
    return;
  }
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  if (calls.length === 0) {
    if (m.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, m.content);
    else b.breakTurn();
    return;
  }
  const turn = b.newTurn();
  const messageText = textOf(m.content);
  calls.forEach((tc, j) => {
    if (!isPlainObject(tc) || typeof tc.name !== 'string') return;
    b.call({ name: tc.name, id: str(tc.id) || undefined, at: { doc, path: [...path, callsKey, j] }, namePath: ['name'], argsPath: ['arguments'],
      args: tc.arguments, expect: 'object', messageText }, turn);
  });
}

/** A tick's calls and results, as the messages a half-duplex run would have held. */
function readTick(b: SessionBuilder, doc: Doc, path: JsonPath, t: Obj): void {
  for (const side of ['agent', 'user']) {
    const calls = t[`${side}_tool_calls`];
    if (Array.isArray(calls) && calls.length > 0) {
      readTau2Message(b, doc, path, { role: side === 'agent' ? 'assistant' : 'user', tool_calls: calls }, `${side}_tool_calls`);
    }
    const results = t[`${side}_tool_results`];
    if (Array.isArray(results)) results.forEach((r, k) => { if (isPlainObject(r)) readTau2Message(b, doc, [...path, `${side}_tool_results`, k], r); });
  }
  b.breakTurn();
}

function readSimulation(b: SessionBuilder, doc: Doc, path: JsonPath, s: Obj): void {
  if (Array.isArray(s.messages) && s.messages.length > 0) {
    s.messages.forEach((m, j) => { if (isPlainObject(m)) readTau2Message(b, doc, [...path, 'messages', j], m); });
  } else if (Array.isArray(s.ticks)) {
    s.ticks.forEach((t, j) => { if (isPlainObject(t)) readTick(b, doc, [...path, 'ticks', j], t); });
  }
}

export const tauBench: FormatAdapter = {
  id: 'tau-bench',
  document: {
    claims(v) {
      return (Array.isArray(v) && v.length > 0 && v.every(isEntry)) || isTau2Results(v) || isSimulation(v) || isTaskFile(v);
    },
    read(doc, emit) {
      const sessions = new SessionSet();
      const v = doc.value;
      if (isTaskFile(v)) return;
      if (isTau2Results(v)) {
        v.simulations.forEach((s, i) => {
          const sim = s as Obj;
          readSimulation(sessions.get(`${keyText(sim.task_id)}#${keyText(sim.trial ?? sim.id ?? i)}`), doc, ['simulations', i], sim);
        });
      } else if (isSimulation(v)) {
        readSimulation(sessions.get(''), doc, [], v);
      } else {
        (v as (Obj & { traj: unknown[] })[]).forEach((e, i) => {
          const b = sessions.get(`${keyText(e.task_id)}#${keyText(e.trial ?? i)}`);
          // a ReAct / Act run, by its prompt: a tool-calling run's texts are replies, whatever they hold
          const react = isReactRun(e.traj) ? {} : undefined;
          e.traj.forEach((m, j) => {
            if (!isChatMessage(m) || (react && readReactMessage(b, doc, [i, 'traj', j], m, react))) return;
            const before = b.session.results.length;
            readChatMessage(b, doc, [i, 'traj', j], m);
            const r = b.session.results[before];
            if (r && m.role === 'tool') r.transport = { isError: typeof m.content === 'string' && ERROR_ANSWER.test(m.content) };
          });
        });
      }
      sessions.emitAll(emit);
    },
  },
};
