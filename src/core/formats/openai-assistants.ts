// OpenAI Assistants API run steps (`GET /v1/threads/{thread}/runs/{run}/steps`, and the `thread.run.step.*`
// events of a streamed run): `{object: "thread.run.step", status, step_details: {type: "tool_calls", tool_calls:
// [{id, type: "function", function: {name, arguments (JSON string), output}}]}}`. A function call carries its own
// result: `output` is what the app submitted (null until then). A list (`{object: "list", data}`, newest first by
// default) is read oldest first, by `created_at`. A code interpreter call `{type: "code_interpreter",
// code_interpreter: {input, outputs}}` ran on OpenAI's side: a call of the hosted tool (named as the Responses
// reader names it), its input the code as written, its `outputs` its result once the step finished (a `failed`
// step's a failure); a file search records no input and is not read. A step `failed` or `expired` with no output
// got none. A stream sends a step when it is
// created and again when it completes: a call met again is read once, and its output when it first has one; the
// run's own events (`thread.run.created`, ...) carry its `tools`, the definitions of its calls.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { ItemLifecycle } from './item-lifecycle';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj } from './util';
import { HOSTED_CALLS } from './openai-responses';
import { readChatTools } from './openai-chat';

const CODE_INTERPRETER = HOSTED_CALLS.get('code_interpreter_call')!.name;

function isRunStep(v: unknown): v is Obj & { step_details: Obj } {
  return isPlainObject(v) && v.object === 'thread.run.step' && isPlainObject(v.step_details);
}

/** The steps of a document, with their paths: one step, a list page, an array, or a streamed event's `data`. */
function stepsOf(v: unknown): { step: Obj & { step_details: Obj }; path: JsonPath }[] | undefined {
  if (isRunStep(v)) return [{ step: v, path: [] }];
  if (isPlainObject(v) && isRunStep(v.data)) return [{ step: v.data, path: ['data'] }];
  const list = isPlainObject(v) && v.object === 'list' && Array.isArray(v.data) ? { items: v.data, base: ['data'] } : Array.isArray(v) ? { items: v, base: [] } : undefined;
  if (!list || list.items.length === 0 || !list.items.every(isRunStep)) return undefined;
  const steps = list.items.map((step, i) => ({ step, path: [...list.base, i] }));
  const time = (s: Obj) => (typeof s.created_at === 'number' ? s.created_at : 0);
  return steps.sort((a, b) => time(a.step) - time(b.step));
}

function readStep(b: SessionBuilder, doc: Doc, path: JsonPath, step: Obj & { step_details: Obj }, items: ItemLifecycle): void {
  const calls = step.step_details.tool_calls;
  if (step.step_details.type !== 'tool_calls' || !Array.isArray(calls)) {
    b.breakTurn();
    return;
  }
  let turn: number | undefined;
  calls.forEach((tc, i) => {
    if (!isPlainObject(tc)) return;
    const at = { doc, path: [...path, 'step_details', 'tool_calls', i] };
    const id = str(tc.id);
    if (tc.type === 'code_interpreter' && isPlainObject(tc.code_interpreter)) {
      const run = tc.code_interpreter;
      if (typeof run.input === 'string' && run.input !== '' && items.isCall(id)) {
        turn ??= b.newTurn();
        b.call({ name: CODE_INTERPRETER, id, at, namePath: ['type'], argsPath: ['code_interpreter', 'input'], args: run.input, expect: 'any', freeform: true }, turn);
      }
      const done = step.status === 'completed' || step.status === 'failed';
      if (!done || !Array.isArray(run.outputs) || !items.isOutcome(id)) return;
      b.result({ at, callId: id, payload: run.outputs, payloadPath: ['code_interpreter', 'outputs'], transport: { isError: step.status === 'failed' } });
      return;
    }
    if (tc.type !== 'function' || !isPlainObject(tc.function) || typeof tc.function.name !== 'string') return;
    if (items.isCall(id)) {
      turn ??= b.newTurn();
      b.call({ name: tc.function.name, id, at, namePath: ['function', 'name'], argsPath: ['function', 'arguments'], args: tc.function.arguments, expect: 'string' }, turn);
    }
    // the step's output arrives with a later copy of the step: the first copy that has one is the outcome
    if (typeof tc.function.output !== 'string' || !items.isOutcome(id)) return;
    b.result({ at, callId: id, payload: tc.function.output, payloadPath: ['function', 'output'] });
  });
}

/** A streamed run's own events (`thread.run.created`, `...requires_action`, ...): the run, whose `tools` (Chat's
 *  layout) are the definitions of the calls its steps make. */
function runOf(v: unknown): Obj | undefined {
  const isRun = (r: unknown): r is Obj => isPlainObject(r) && r.object === 'thread.run';
  return isPlainObject(v) && typeof v.event === 'string' && v.event.startsWith('thread.run.') && isRun(v.data) ? v.data : undefined;
}

export const openaiAssistants: FormatAdapter = {
  id: 'openai-assistants',
  document: {
    claims: (v) => stepsOf(v) !== undefined,
    read(doc, emit) {
      const items = new ItemLifecycle();
      singleSession((b) => {
        for (const { step, path } of stepsOf(doc.value) ?? []) readStep(b, doc, path, step, items);
      }, emit);
    },
  },
  lines: {
    claims: (v) => isRunStep(v) || (isPlainObject(v) && typeof v.event === 'string' && v.event.startsWith('thread.run.step.') && isRunStep(v.data)),
    accepts: (v) => runOf(v) !== undefined,
    open({ builder }) {
      const items = new ItemLifecycle();
      // every event of a run repeats its tools: they are read once per run
      const runsRead = new Set<string>();
      return {
        read(doc) {
          const run = runOf(doc.value);
          if (run) {
            const id = str(run.id) ?? '';
            if (!runsRead.has(id) && Array.isArray(run.tools) && run.tools.length > 0) {
              runsRead.add(id);
              readChatTools(builder, doc, ['data', 'tools'], run.tools);
              // the hosted code interpreter it enables, without a schema (its input is the platform's)
              const hosted = run.tools.findIndex((t) => isPlainObject(t) && t.type === 'code_interpreter');
              if (hosted >= 0) builder.tool(CODE_INTERPRETER, undefined, { doc, path: ['data', 'tools', hosted] });
            }
            return;
          }
          for (const { step, path } of stepsOf(doc.value) ?? []) readStep(builder, doc, path, step, items);
        },
      };
    },
  },
};
