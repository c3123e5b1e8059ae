// Hugging Face smolagents: an agent's memory as `agent.memory.get_full_steps()` / `get_succinct_steps()` write it
// (a list of step dicts), a `RunResult` (`return_full_result=True`: `{output, state, steps, token_usage,
// timing}`, `messages` in older versions), or steps one per line (step callbacks). Rules followed
// (src/smolagents/memory.py, agents.py):
// - An `ActionStep` dict has `step_number`, `timing`, `tool_calls` (`[{id, type: "function", function: {name,
//   arguments}}]`), `observations`, `error` (`{type, message}` of the AgentError, or null), `action_output` and
//   `is_final_answer`. A ToolCallingAgent's arguments are what the model sent (an object, or a string); a
//   CodeAgent's one call is `python_interpreter` with the code as its arguments: free text, kept as it is.
// - The step's `observations` answer its calls (the outputs of parallel calls are joined into that one text, so
//   each call of the step gets it); a step with an `error` answers its calls as failed; the final answer's output
//   is `action_output`. `model_input_messages` repeat the history the model saw and are not read again.
// - `TaskStep` (`task`), `PlanningStep` (`plan`) and `SystemPromptStep` dicts are the user's and the planner's
//   turns.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { at, isPlainObject, str, type Obj } from './util';

const CODE_TOOL = 'python_interpreter';

function isActionStep(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.step_number === 'number' && 'tool_calls' in v && 'observations' in v;
}

function isOtherStep(v: unknown): boolean {
  return isPlainObject(v) && ((typeof v.task === 'string' && 'task_images' in v) || (typeof v.plan === 'string' && 'model_output_message' in v)
    || (typeof v.system_prompt === 'string' && Object.keys(v).length === 1) || (Object.keys(v).length === 1 && 'output' in v));
}

function toolCallsOf(step: Obj): unknown[] {
  return Array.isArray(step.tool_calls) ? step.tool_calls : [];
}

function isStepList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every((s) => isActionStep(s) || isOtherStep(s)) && v.some(isActionStep);
}

function stepsOf(v: unknown): { key: string; steps: unknown[] } | undefined {
  if (!isPlainObject(v) || !('output' in v)) return undefined;
  for (const key of ['steps', 'messages']) if (isStepList(v[key])) return { key, steps: v[key] };
  return undefined;
}

function readStep(b: SessionBuilder, ref: NodeRef, step: Obj): void {
  if (!isActionStep(step)) {
    b.breakTurn();
    return;
  }
  const calls = toolCallsOf(step);
  let turn: number | undefined;
  const ids: (string | undefined)[] = [];
  calls.forEach((tc, i) => {
    const fn = isPlainObject(tc) && isPlainObject(tc.function) ? tc.function : undefined;
    const name = fn ? str(fn.name) : undefined;
    if (!fn || name === undefined) return;
    const id = str((tc as Obj).id);
    b.call({ name, id, at: at(ref, 'tool_calls', i), namePath: ['function', 'name'], argsPath: ['function', 'arguments'], args: fn.arguments,
      expect: 'any', freeform: name === CODE_TOOL && typeof fn.arguments === 'string' }, (turn ??= b.newTurn()));
    ids.push(id);
  });
  if (turn === undefined) {
    b.breakTurn();
    return;
  }
  const failed = isPlainObject(step.error);
  const key = step.observations !== null && step.observations !== undefined ? 'observations'
    : failed ? 'error' : step.is_final_answer === true && step.action_output !== undefined ? 'action_output' : undefined;
  if (key === undefined) return;
  const first = b.session.calls.length - ids.length;
  ids.forEach((id, k) => {
    b.result({ at: ref, callId: id, callIndex: id === undefined ? first + k : undefined, payloadPath: [key], payload: step[key], transport: { isError: failed } });
  });
  b.breakTurn();
}

function readSteps(b: SessionBuilder, ref: NodeRef, steps: unknown[]): void {
  steps.forEach((s, i) => { if (isPlainObject(s)) readStep(b, at(ref, i), s); });
}

export const smolagents: FormatAdapter = {
  id: 'smolagents',
  document: {
    claims: (v) => isStepList(v) || stepsOf(v) !== undefined,
    read(doc, emit) {
      const v = doc.value;
      const run = stepsOf(v);
      if (run) singleSession((b) => readSteps(b, { doc, path: [run.key] }, run.steps), emit);
      else if (Array.isArray(v)) singleSession((b) => readSteps(b, { doc, path: [] }, v), emit);
    },
  },
  lines: {
    claims: (v) => isActionStep(v) && toolCallsOf(v).length > 0,
    accepts: (v) => isActionStep(v) || isOtherStep(v),
    open(sink: LineSink) {
      return { read(doc) { if (isPlainObject(doc.value)) readStep(sink.builder, { doc, path: [] }, doc.value); } };
    },
  },
};
