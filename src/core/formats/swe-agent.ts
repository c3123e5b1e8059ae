// SWE-agent trajectories (`.traj`): `{history: [...], trajectory, info}`. `history` holds OpenAI-style messages
// plus SWE-agent's own keys (`agent`, `message_type`, `thought`, `action`). With function calling, assistant
// `tool_calls` are the calls (read by the Chat adapter's reader) and `role: "tool"` messages answer them through
// `tool_call_ids` (a list) or `tool_call_id`. Without it (text actions), the assistant's `action` is a command
// line: the tool is its first word, the rest is free-form input, and the next observation answers it. Observations
// carry no status; SWE-agent's own refusals (the default templates for a command cancelled by its timeout, a bash
// command with syntax errors that was not executed, a blocked command, an edit the linter rejected) are honest
// failures. A trajectory saved without its history (or with an empty one) is read from its `trajectory` steps
// (`{action, observation, thought, response, state, execution_time}`): each step's action is a text action as
// above and its observation answers it.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { readChatMessage } from './openai-chat';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, textOf, type Obj } from './util';

function isTrajectory(v: unknown): v is { history: Obj[] } & Obj {
  if (!isPlainObject(v) || !Array.isArray(v.history) || v.history.length === 0) return false;
  if (!v.history.every((m) => isPlainObject(m) && typeof m.role === 'string')) return false;
  return 'trajectory' in v || 'info' in v || v.history.some((m) => 'agent' in (m as Obj) || 'message_type' in (m as Obj) || 'action' in (m as Obj));
}

function isStep(s: unknown): s is Obj & { action: string } {
  return isPlainObject(s) && typeof s.action === 'string' && 'observation' in s;
}

/** Steps only: no history to read (missing, or empty), a `trajectory` of action/observation steps. */
function isStepsOnly(v: unknown): v is { trajectory: Obj[] } & Obj {
  if (!isPlainObject(v) || (Array.isArray(v.history) && v.history.length > 0)) return false;
  if (!Array.isArray(v.trajectory) || v.trajectory.length === 0 || !v.trajectory.every(isStep)) return false;
  // SWE-agent's own step keys: other tools' `{action, observation}` lists are not SWE-agent's
  return v.trajectory.some((s) => 'thought' in s || 'response' in s || 'execution_time' in s || 'state' in s);
}

/** A text action's tool and its free-form input: `open "x.py" 12` -> open, `"x.py" 12`. */
function splitAction(action: string): { name: string; rest: string } | undefined {
  const m = /^\s*(\S+)[ \t]*([\s\S]*?)\s*$/.exec(action);
  return m ? { name: m[1], rest: m[2] } : undefined;
}

/** SWE-agent's default messages for a command that did not run, or not to completion (after an optional
 *  "OBSERVATION:"). */
const NOT_RUN = /^\s*(?:OBSERVATION:\s*)?(?:The command '[\s\S]*?' was cancelled because it took more than|Your bash command contained syntax errors and was NOT executed|Operation '[\s\S]*?' is not supported by this environment|Your proposed edit has introduced new syntax error\(s\))/;

function transportOf(m: Obj): TransportSignals {
  const text = textOf(m.content);
  return text !== undefined && NOT_RUN.test(text.slice(0, 4000)) ? { isError: true } : {};
}

function readHistory(b: SessionBuilder, doc: Doc, base: JsonPath, history: Obj[]): void {
  let waiting: number | undefined; // a text action still waiting for its observation
  history.forEach((m, i) => {
    const path = [...base, i];
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      readChatMessage(b, doc, path, m);
      waiting = undefined;
      return;
    }
    if (m.role === 'assistant' && typeof m.action === 'string') {
      const a = splitAction(m.action);
      if (a) {
        const call = b.call({ name: a.name, at: { doc, path }, namePath: ['action'], argsPath: ['action'], args: a.rest, expect: 'any', freeform: true }, b.newTurn());
        waiting = call.index;
      }
      return;
    }
    if (m.role === 'tool') {
      const ids = Array.isArray(m.tool_call_ids) ? m.tool_call_ids.filter((x): x is string => typeof x === 'string') : [];
      const transport = transportOf(m);
      if (ids.length === 0) {
        const before = b.session.results.length;
        readChatMessage(b, doc, path, m);
        if (b.session.results[before]) b.session.results[before].transport = transport;
      }
      for (const id of ids) b.result({ at: { doc, path }, callId: id, payload: m.content, payloadPath: ['content'], transport });
      b.breakTurn();
      return;
    }
    if (m.role === 'user' && waiting !== undefined) {
      b.result({ at: { doc, path }, callIndex: waiting, payload: m.content, payloadPath: ['content'], transport: transportOf(m) });
      waiting = undefined;
    }
    if (m.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, m.content);
    else b.breakTurn();
  });
}

function readSteps(b: SessionBuilder, doc: Doc, steps: Obj[]): void {
  steps.forEach((s, i) => {
    const a = isStep(s) ? splitAction(s.action) : undefined;
    if (!a) {
      b.breakTurn();
      return;
    }
    const path = ['trajectory', i];
    const call = b.call({ name: a.name, at: { doc, path }, namePath: ['action'], argsPath: ['action'], args: a.rest, expect: 'any', freeform: true,
      messageText: textOf(s.thought) }, b.newTurn());
    const observation = { content: s.observation };
    b.result({ at: { doc, path }, callIndex: call.index, payload: s.observation, payloadPath: ['observation'], transport: transportOf(observation) });
  });
}

export const sweAgent: FormatAdapter = {
  id: 'swe-agent',
  packs: ['swe-agent'],
  document: {
    claims(v) {
      return isTrajectory(v) || isStepsOnly(v);
    },
    read(doc, emit) {
      const v = doc.value as Obj;
      const id = str(isPlainObject(v.environment) ? undefined : v.environment);
      if (isStepsOnly(v)) singleSession((b) => readSteps(b, doc, v.trajectory), emit, id);
      else singleSession((b) => readHistory(b, doc, ['history'], v.history as Obj[]), emit, id);
    },
  },
};
