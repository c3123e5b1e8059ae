// Harbor's Agent Trajectory Interchange Format (ATIF, `trajectory.json`): `{schema_version: "ATIF-v1.x",
// session_id, agent: {name, tool_definitions?}, steps: [...]}`. An agent step's `tool_calls[]` `{tool_call_id,
// function_name, arguments (an object)}` are one turn; its `observation.results[]` `{source_call_id, content}`
// answer them by id, or, when the id is left out (terminus-2 writes none), by their place in the step. Results in a
// step that made no call (a parser's complaint about the reply, a system step) answer nothing and are not read.
// `agent.tool_definitions` (OpenAI function shape) are the embedded contracts. A result's `extra.is_error` or
// `extra.exit_code`, where a writer puts one, is its transport. One trajectory is one session; since v1.7 a
// trajectory may embed its sub-agents' own (`subagent_trajectories[]`, each with its `trajectory_id`, nested in
// turn), each a session of its own. Writers that leave out `schema_version` (or write a bare "1.4") are still
// ATIF when the shape is: an `agent` with a name and steps of ATIF's sources, one of them calling a tool ATIF's way.
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc } from '../parse/doc';
import type { JsonPath } from '../parse/doc';
import { isPlainObject, keyText, num, SessionSet, str, type Obj } from './util';

const SOURCES = new Set(['system', 'user', 'agent']);

function isStep(s: unknown): s is Obj {
  return isPlainObject(s) && typeof s.source === 'string' && SOURCES.has(s.source);
}

function callsLikeAtif(s: unknown): boolean {
  if (!isPlainObject(s)) return false;
  return Array.isArray(s.tool_calls) && s.tool_calls.some((c) => isPlainObject(c) && typeof c.function_name === 'string');
}

function isTrajectory(v: unknown): v is Obj & { steps: unknown[] } {
  if (!isPlainObject(v) || !Array.isArray(v.steps)) return false;
  if (typeof v.schema_version === 'string' && /^ATIF-v\d/.test(v.schema_version)) return true;
  return isPlainObject(v.agent) && typeof v.agent.name === 'string' && v.steps.length > 0 && v.steps.every(isStep) && v.steps.some(callsLikeAtif);
}

/** An embedded sub-agent trajectory: the same shape, its version and session id optional. */
function isEmbedded(v: unknown): v is Obj & { steps: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.steps);
}

function readTools(b: SessionBuilder, doc: Doc, base: JsonPath, agent: unknown): void {
  if (!isPlainObject(agent) || !Array.isArray(agent.tool_definitions)) return;
  agent.tool_definitions.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const fn = isPlainObject(t.function) ? t.function : t;
    const name = str(fn.name);
    if (name !== undefined) b.tool(name, fn.parameters ?? fn.input_schema, { doc, path: [...base, 'agent', 'tool_definitions', i] });
  });
}

function readStep(b: SessionBuilder, doc: Doc, base: JsonPath, i: number, step: Obj): void {
  const calls = Array.isArray(step.tool_calls) ? step.tool_calls : [];
  const made: number[] = [];
  if (calls.length > 0) {
    const turn = b.newTurn();
    calls.forEach((c, j) => {
      if (!isPlainObject(c) || typeof c.function_name !== 'string') return;
      const call = b.call({ name: c.function_name, id: str(c.tool_call_id), at: { doc, path: [...base, 'steps', i, 'tool_calls', j] }, namePath: ['function_name'],
        argsPath: ['arguments'], args: c.arguments, expect: 'object', messageText: str(step.message) }, turn);
      made.push(call.index);
    });
  }
  const results = isPlainObject(step.observation) && Array.isArray(step.observation.results) ? step.observation.results : [];
  results.forEach((r, k) => {
    if (!isPlainObject(r)) return;
    const callId = str(r.source_call_id);
    // without an id, a result answers the call at its own place in the step; a step without calls has none to answer
    const callIndex = callId === undefined ? made[k] : undefined;
    if (callId === undefined && callIndex === undefined) return;
    const extra = isPlainObject(r.extra) ? r.extra : {};
    const exitCode = num(extra.exit_code);
    b.result({ at: { doc, path: [...base, 'steps', i, 'observation', 'results', k] }, callId, callIndex, payload: r.content, payloadPath: ['content'],
      transport: { ...(typeof extra.is_error === 'boolean' ? { isError: extra.is_error } : {}), ...(exitCode === undefined ? {} : { exitCode }) } });
  });
  if (made.length === 0) b.breakTurn();
}

/** One trajectory as a session, then the sub-agent trajectories it embeds (nested ones too, to a depth). */
function readTrajectory(sessions: SessionSet, doc: Doc, base: JsonPath, v: Obj & { steps: unknown[] }, key: string, depth = 0): void {
  const b = sessions.get(key);
  readTools(b, doc, base, v.agent);
  v.steps.forEach((s, i) => {
    if (isPlainObject(s)) readStep(b, doc, base, i, s);
  });
  if (!Array.isArray(v.subagent_trajectories) || depth >= 8) return;
  v.subagent_trajectories.forEach((t, k) => {
    if (!isEmbedded(t)) return;
    const id = t.trajectory_id ?? t.session_id;
    readTrajectory(sessions, doc, [...base, 'subagent_trajectories', k], t, `${key}/${id === undefined ? k : keyText(id)}`, depth + 1);
  });
}

export const atif: FormatAdapter = {
  id: 'atif',
  document: {
    claims: isTrajectory,
    read(doc, emit) {
      const v = doc.value as Obj & { steps: unknown[] };
      const sessions = new SessionSet();
      readTrajectory(sessions, doc, [], v, str(v.session_id) ?? '');
      sessions.emitAll(emit);
    },
  },
};
