// CrewAI: a crew's kickoff output and its tasks' outputs, as `model_dump()` writes them. Rules followed
// (crewai/crews/crew_output.py, tasks/task_output.py, agents/crew_agent_executor.py, utilities/agent_utils.py,
// translations/en.json):
// - `CrewOutput` is `{raw, pydantic, json_dict, tasks_output: [TaskOutput], token_usage}`; a `TaskOutput` is
//   `{description, name, expected_output, raw, agent, output_format, messages}`; `kickoff_for_each` gives a list
//   of crew outputs. Each task is run by its own agent with a fresh conversation: a session per task.
// - A task's `messages` are chat messages. With native function calling an assistant message lists `tool_calls`
//   (OpenAI's shape) answered by `tool` messages: read as Chat Completions messages. Otherwise the agent follows the
//   ReAct text protocol: an assistant message "Thought: … Action: <tool> Action Input: <JSON>" to which the
//   executor appends "Observation: <result>" (`handle_agent_action_core`), so a message holds a call and its
//   outcome. CrewAI parses the input leniently (JSON, then Python literals): input that is not JSON is kept as text.
// - A failed tool leaves one of CrewAI's error texts as the observation ("I encountered an error…", "Error
//   executing tool…", "Error: the Action Input is not a valid key, value dictionary.", "You tried to use the tool
//   …, but it doesn't exist…", "Error executing task with agent…").
// - Event bus events (`crewai_event_bus`, dumped one per line or as a list): `tool_usage_started` `{tool_name,
//   tool_args, event_id, agent_role}` is a call; `tool_usage_finished` (`output`) its outcome and
//   `tool_usage_error` (`error`) a failure, paired by `started_event_id` where the version writes it, else with the
//   earliest unanswered call of that tool. A session per `agent_role`.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { readChatMessage } from './openai-chat';
import { reactSteps, writeReactCall } from './react-text';
import { at, isPlainObject, SessionSet, str, unansweredByName, type Obj } from './util';

const ERRORS = /^(?:I encountered an error|Error executing tool|Error: the Action Input is not a valid|You tried to use the tool .*, but it doesn't exist|Error executing task with agent)/;

function isTaskOutput(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.description === 'string' && typeof v.agent === 'string' && 'raw' in v
    && ('expected_output' in v || 'output_format' in v || 'messages' in v);
}

function isCrewOutput(v: unknown): v is Obj & { tasks_output: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.tasks_output) && v.tasks_output.length > 0 && v.tasks_output.every(isTaskOutput)
    && ('raw' in v || 'token_usage' in v);
}

function isCrewOutputList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isCrewOutput);
}

/** An assistant message in the ReAct protocol: each step a call, its observation the outcome. */
function readReactMessage(b: SessionBuilder, ref: NodeRef, content: string): boolean {
  const steps = reactSteps(content);
  if (steps.length === 0) return false;
  const turn = b.newTurn();
  const where = at(ref, 'content');
  for (const s of steps) {
    const call = writeReactCall(b, ref, content, s, turn);
    if (s.observation !== undefined) {
      b.result({ at: where, callIndex: call.index, payload: s.observation, transport: { isError: ERRORS.test(s.observation) } });
    }
  }
  b.breakTurn();
  return true;
}

function readTask(b: SessionBuilder, ref: NodeRef, task: Obj): void {
  const messages = Array.isArray(task.messages) ? task.messages : [];
  messages.forEach((m, i) => {
    if (!isPlainObject(m) || typeof m.role !== 'string') return;
    const mref = at(ref, 'messages', i);
    const native = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (m.role === 'assistant' && !native && typeof m.content === 'string' && readReactMessage(b, mref, m.content)) return;
    readChatMessage(b, mref.doc, mref.path, m);
  });
}

function taskId(task: Obj, i: number): string {
  return `${str(task.agent) ?? 'agent'} #${i + 1}`;
}

function readCrew(ref: NodeRef, crew: Obj & { tasks_output: unknown[] }, emit: Parameters<NonNullable<FormatAdapter['document']>['read']>[1]): void {
  crew.tasks_output.forEach((t, i) => {
    if (isTaskOutput(t)) singleSession((b) => readTask(b, at(ref, 'tasks_output', i), t), emit, taskId(t, i));
  });
}

// ---- event bus events ----------------------------------------------------------------------------------------

const TOOL_EVENTS = new Set(['tool_usage_started', 'tool_usage_finished', 'tool_usage_error']);

function isToolEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && TOOL_EVENTS.has(v.type) && typeof v.tool_name === 'string';
}

/** An event of the bus by its type (`crew_kickoff_started`, `llm_call_completed`, …): enough in a list that holds a
 *  tool event, whose type and `tool_name` are CrewAI's own. */
function isBusType(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && /^(crew|agent|task|tool|llm|flow|method|memory|knowledge)_/.test(v.type);
}

/** An event of the bus on a line of its own: its type and one of CrewAI's event fields (a `timestamp` proves
 *  nothing: any log line has one, and a line this reader accepts is no longer searched or read by shape). */
function isBusEvent(v: unknown): v is Obj {
  return isBusType(v) && ('event_id' in v || 'source_type' in v || 'source_fingerprint' in v || 'agent_role' in v || 'task_name' in v || 'crew_name' in v);
}

function isEventList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isBusType) && v.some(isToolEvent);
}

class EventReader {
  /** Call index by the id of the event that started it. */
  private readonly started = new Map<string, number>();

  constructor(readonly sessionFor: (agent: string) => SessionBuilder) {}

  read(ref: NodeRef, e: unknown): void {
    if (!isToolEvent(e)) return;
    const b = this.sessionFor(str(e.agent_role) ?? '');
    const name = e.tool_name as string;
    if (e.type === 'tool_usage_started') {
      const call = b.call({ name, at: ref, namePath: ['tool_name'], argsPath: ['tool_args'], args: e.tool_args, expect: 'any' }, b.currentTurn());
      const id = str(e.event_id);
      if (id !== undefined) this.started.set(id, call.index);
      return;
    }
    const from = str(e.started_event_id);
    const callIndex = (from !== undefined ? this.started.get(from) : undefined) ?? unansweredByName(b, name);
    const failed = e.type === 'tool_usage_error';
    const key = failed ? 'error' : 'output';
    b.result({ at: ref, callIndex, payloadPath: [key], payload: e[key], transport: { isError: failed } });
    b.breakTurn();
  }
}

export const crewai: FormatAdapter = {
  id: 'crewai',
  document: {
    claims: (v) => isCrewOutput(v) || isCrewOutputList(v) || (isTaskOutput(v) && Array.isArray(v.messages)) || isEventList(v),
    read(doc, emit) {
      const v = doc.value;
      const root: NodeRef = { doc, path: [] };
      if (isEventList(v)) {
        const sessions = new SessionSet();
        const r = new EventReader((agent) => sessions.get(agent));
        v.forEach((e, i) => r.read(at(root, i), e));
        sessions.emitAll(emit);
      } else if (isCrewOutput(v)) readCrew(root, v, emit);
      else if (isCrewOutputList(v)) v.forEach((c, i) => { if (isCrewOutput(c)) readCrew(at(root, i), c, emit); });
      else if (isTaskOutput(v)) singleSession((b) => readTask(b, root, v), emit, taskId(v, 0));
    },
  },
  lines: {
    claims: isToolEvent,
    accepts: isBusEvent,
    open(sink: LineSink) {
      const r = new EventReader((agent) => (agent === '' ? sink.builder : sink.sessionFor(agent)));
      return { read(doc) { r.read({ doc, path: [] }, doc.value); } };
    },
  },
};
