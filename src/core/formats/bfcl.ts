// Berkeley Function Calling Leaderboard data (JSONL, whatever the extension): question lines `{id, question,
// function: [definitions]}` and answer-key lines `{id, ground_truth: [{name: {param: [acceptable values]}}]}`.
// Each question is a session holding its tool definitions (embedded contracts), with BFCL's Python type names
// mapped to JSON Schema (`dict` -> object, `float` -> number, `tuple` -> array, `any` -> no type). A multi-turn or
// memory question names `involved_classes` instead, whose definitions are lines of their own in
// `multi_turn_func_doc/<class>.json` (`{name, description, parameters, response}`): each read as a definition. An answer key
// lists acceptable values, not calls a model made: it is recognised and nothing in it is checked.
// Result files (`result/<model>/BFCL_*_result.json`, JSONL too) hold the calls a model made: lines
// `{id, result, input_token_count, output_token_count, latency}`, one session each. A function-calling model's
// `result` is a list of `{function_name: arguments}` (arguments a JSON string, or an object; early files: `{name,
// arguments}`, alone or in a list, on lines numbered `idx`); a prompting model's
// is its text, calls in Python syntax (`[f(a=1), g(b="x")]`, read by `python-calls.ts`); a multi-turn entry nests
// those per turn and per step (each step a turn of its own here). Text that is not a call list (a refusal, an
// inference error) holds no call. A single-turn answer was never executed: no results. A multi-turn (or agentic:
// memory, web search) run executed each step's calls against BFCL's classes and logged it in `inference_log`: a
// list of turn entries `{begin_of_turn_query, step_0: [assistant, handler_log, tool…], …}` (early logs: one list
// per turn) between `state_info` snapshots; its `role: "tool"` entries answer the step's calls in order, an
// `Error during execution: …` answer or a tool's `{"error": …}` return a failure. The definitions are in the
// question file, so a result file is checked against the workspace's contracts.
// Score files (`score/<model>/BFCL_*_score.json`, JSONL) open with a summary line `{accuracy, correct_count,
// total_count}` and then hold one line per failed entry `{id, valid: false, error, error_type, prompt: {question,
// function} (an agentic entry: the question's messages alone), model_result_raw (older: model_result),
// model_result_decoded, possible_answer, inference_log (multi-turn)}`: a session of the
// calls the model wrote (the raw answer, read as a result file's; the decoded copy is BFCL's parse of it) checked
// against the question's own definitions. A multi-turn question holds none (its tools come from the classes it
// names) but those it held back for a later turn (`missed_function`): a partial list, not read, or every other
// tool would look unknown.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { pythonCalls, writePythonCalls } from './python-calls';
import { PYTHON_TYPES } from './python-types';
import { isPlainObject, keyText, str, type Obj } from './util';

/** A BFCL parameter schema as JSON Schema (a copy; the source is untouched). */
export function bfclSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(bfclSchema);
  if (!isPlainObject(s)) return s;
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type' && typeof v === 'string' && PYTHON_TYPES.has(v)) {
      const t = PYTHON_TYPES.get(v);
      if (t !== undefined) out.type = t;
    } else if (k === 'properties' && isPlainObject(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, bfclSchema(p)]));
    } else {
      out[k] = k === 'items' || k === 'additionalProperties' ? bfclSchema(v) : v;
    }
  }
  return out;
}

/** A question line. A multi-turn or memory question holds no definitions (`involved_classes` names the classes
 *  whose functions it may call): recognised, nothing to check. */
function isQuestion(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.id === 'string' && Array.isArray(v.question) && (Array.isArray(v.function) || Array.isArray(v.involved_classes));
}

const DOC_KEYS = new Set(['name', 'description', 'parameters', 'response']);

/** A line of a multi-turn class's function docs (`multi_turn_func_doc/<class>.json`): one definition in BFCL's
 *  Python types (`dict` parameters), nothing else on the line. */
function isFunctionDoc(v: unknown): v is Obj & { name: string } {
  return isPlainObject(v) && typeof v.name === 'string' && isPlainObject(v.parameters) && v.parameters.type === 'dict'
    && Object.keys(v).every((k) => DOC_KEYS.has(k));
}

function isAnswerKey(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.id === 'string' && Array.isArray(v.ground_truth) && !('question' in v);
}

/** BFCL's test categories, the start of every entry id (`simple_python_0`, `live_parallel_3-0-3`, `multi_turn_base_7`,
 *  memory entries named after their scenario: `memory_0-customer-0`). */
const BFCL_ID = /^(?:simple|multiple|parallel|irrelevance|live_|multi_turn_|java|javascript|exec|rest|sql|chatable|memory|web_search|format_sensitivity)[\w-]*_\d+(?:-\w+)*$/;

function isResultEntry(v: unknown): v is Obj {
  if (!isPlainObject(v) || !('result' in v) || 'question' in v || 'ground_truth' in v || 'jsonrpc' in v) return false;
  const counted = 'input_token_count' in v && 'output_token_count' in v;
  // an id of BFCL's categories, or the token counts its result writer adds (a bare `latency` is any API log's);
  // early result files numbered their lines (`idx`) instead
  // (or a bare answer under an id of another naming: the model's texts, one a Python call list)
  if (typeof v.id === 'string') return BFCL_ID.test(v.id) || counted || isBareAnswer(v.result);
  return v.id === undefined && typeof v.idx === 'number' && counted;
}

/** A result line some pipelines wrote bare: the answer alone, a list of the model's texts (`["[f(a=1)]"]`; `[]` or
 *  a refusal when it called nothing). Claimed only when one of the texts is a Python call list. */
function isBareAnswer(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')
    && v.some((x) => /^\s*\[/.test(x) && pythonCalls(x) !== undefined);
}

/** An early function-calling answer's call: `{name, arguments}` (not a `{name: arguments}` map). */
function isNamedCall(item: Obj): item is Obj & { name: string } {
  return typeof item.name === 'string' && 'arguments' in item && Object.keys(item).every((k) => k === 'name' || k === 'arguments' || k === 'id' || k === 'type');
}

/** A score file's failed entry: the model's answer beside the question it answered (an agentic entry keeps only
 *  the question's messages, a list). */
function isScoreEntry(v: unknown): v is Obj & { id: string } {
  return isPlainObject(v) && typeof v.id === 'string' && typeof v.valid === 'boolean' && (isPlainObject(v.prompt) || Array.isArray(v.prompt))
    && ('model_result_raw' in v || 'model_result' in v || 'model_result_decoded' in v);
}

/** A score file's first line. */
function isScoreSummary(v: unknown): boolean {
  return isPlainObject(v) && typeof v.accuracy === 'number' && typeof v.correct_count === 'number' && typeof v.total_count === 'number'
    && Object.keys(v).length <= 6;
}

function readDefinitions(b: SessionBuilder, doc: Doc, path: JsonPath, fns: unknown): void {
  if (!Array.isArray(fns)) return;
  fns.forEach((f, i) => {
    if (isPlainObject(f) && typeof f.name === 'string' && 'parameters' in f) b.tool(f.name, bfclSchema(f.parameters), { doc, path: [...path, i] });
  });
}

/** One step's answer: `{name: args}` objects (function calling) or Python-syntax text (prompting). The indices
 *  of its calls. */
function readStep(b: SessionBuilder, doc: Doc, path: JsonPath, step: unknown): number[] {
  if (typeof step === 'string') {
    const calls = pythonCalls(step);
    return calls ? writePythonCalls(b, doc, path, calls, b.newTurn()) : [];
  }
  // an early answer holds one call as an object of its own (any other object is not an answer)
  const items = isPlainObject(step) ? (isNamedCall(step) ? [step] : undefined) : Array.isArray(step) ? step : undefined;
  if (!items) return [];
  let turn: number | undefined;
  const out: number[] = [];
  items.forEach((item, i) => {
    if (!isPlainObject(item)) return;
    const at = items === step ? [...path, i] : path;
    if (isNamedCall(item)) {
      turn ??= b.newTurn();
      out.push(b.call({ name: item.name, at: { doc, path: at }, namePath: ['name'], argsPath: ['arguments'], args: item.arguments, expect: 'any' }, turn).index);
      return;
    }
    for (const [name, args] of Object.entries(item)) {
      turn ??= b.newTurn();
      out.push(b.call({ name, at: { doc, path: at }, namePath: [], argsPath: [name], args, expect: 'any' }, turn).index);
    }
  });
  return out;
}

/** What BFCL's executor answers for a call that raised (`Error during execution: …`), or a tool's own error
 *  return (`{"error": …}`, dumped as JSON). */
function failedExecution(content: unknown): boolean {
  if (typeof content !== 'string') return false;
  if (content.startsWith('Error during execution:')) return true;
  if (!content.startsWith('{"error"')) return false;
  try {
    const v: unknown = JSON.parse(content);
    return isPlainObject(v) && 'error' in v;
  } catch {
    return false;
  }
}

/** The `role: "tool"` entries of a step's log (or an early log's turn), each the execution of the step's calls in
 *  order: written as their results. */
function readExecutions(b: SessionBuilder, doc: Doc, path: JsonPath, entries: unknown[], calls: number[]): void {
  let k = 0;
  entries.forEach((e, j) => {
    if (!isPlainObject(e) || e.role !== 'tool') return;
    b.result({ at: { doc, path: [...path, j] }, callIndex: calls[k++], payload: e.content, payloadPath: ['content'], transport: { isError: failedExecution(e.content) } });
  });
}

/** A turn's entry of an `inference_log`: `{begin_of_turn_query, step_0: [...], …}` (early logs: one list that
 *  opens with `{begin_of_turn_query}`); the state snapshots between turns are lists of `state_info` entries. */
function isTurnLog(e: unknown): boolean {
  if (isPlainObject(e)) return 'begin_of_turn_query' in e;
  return Array.isArray(e) && isPlainObject(e[0]) && 'begin_of_turn_query' in e[0];
}

/** A multi-turn answer (turns of steps) beside the `inference_log` its run wrote: each step's calls, answered by
 *  the executions the log records for that step (BFCL ran them against its own classes). */
function readLoggedTurns(b: SessionBuilder, doc: Doc, key: string, turns: unknown[][], log: unknown[]): void {
  const logged = log.flatMap((e, i) => (isTurnLog(e) ? [i] : []));
  turns.forEach((turn, t) => {
    const li = logged[t];
    const entry = li === undefined ? undefined : log[li];
    if (Array.isArray(entry)) {
      const calls = turn.flatMap((step, s) => readStep(b, doc, [key, t, s], step));
      readExecutions(b, doc, ['inference_log', li], entry, calls);
      return;
    }
    turn.forEach((step, s) => {
      const calls = readStep(b, doc, [key, t, s], step);
      const steps = isPlainObject(entry) ? entry[`step_${s}`] : undefined;
      if (Array.isArray(steps)) readExecutions(b, doc, ['inference_log', li, `step_${s}`], steps, calls);
    });
  });
}

/** An entry's answer under `key`: with the run's `inference_log`, a multi-turn answer's executions are read too. */
function readEntryAnswer(b: SessionBuilder, doc: Doc, v: Obj, key: string): void {
  const answer = v[key];
  if (Array.isArray(v.inference_log) && Array.isArray(answer) && answer.length > 0 && answer.every(Array.isArray)) {
    readLoggedTurns(b, doc, key, answer, v.inference_log);
    return;
  }
  readAnswer(b, doc, [key], answer);
}

/** A list is one step of calls when it holds call objects; otherwise (multi-turn) a list of turns or steps. */
function readAnswer(b: SessionBuilder, doc: Doc, path: JsonPath, v: unknown, depth = 0): void {
  if (Array.isArray(v) && depth < 3 && !v.some(isPlainObject)) {
    v.forEach((x, i) => readAnswer(b, doc, [...path, i], x, depth + 1));
    return;
  }
  readStep(b, doc, path, v);
}

export const bfcl: FormatAdapter = {
  id: 'bfcl',
  document: {
    claims(v) {
      return isQuestion(v) || isAnswerKey(v) || isResultEntry(v) || isScoreEntry(v) || isScoreSummary(v) || isFunctionDoc(v) || isBareAnswer(v);
    },
    // a bare answer line is BFCL's only as a line of its own: inside another document it is anyone's list of strings
    nested: (v) => !isBareAnswer(v),
    read(doc, emit) {
      const v = doc.value;
      if (isScoreEntry(v)) {
        const prompt = v.prompt as Obj;
        const key = 'model_result_raw' in v ? 'model_result_raw' : 'model_result' in v ? 'model_result' : 'model_result_decoded';
        singleSession((b) => {
          if (isPlainObject(prompt)) readDefinitions(b, doc, ['prompt', 'function'], prompt.function);
          readEntryAnswer(b, doc, v, key);
        }, emit, v.id);
        return;
      }
      if (isResultEntry(v)) {
        singleSession((b) => readEntryAnswer(b, doc, v, 'result'), emit, str(v.id) ?? `idx ${keyText(v.idx)}`);
        return;
      }
      if (isBareAnswer(v)) {
        singleSession((b) => readAnswer(b, doc, [], v), emit);
        return;
      }
      if (isFunctionDoc(v)) {
        singleSession((b) => b.tool(v.name, bfclSchema(v.parameters), { doc, path: [] }), emit, v.name);
        return;
      }
      if (!isQuestion(v)) return;
      singleSession((b) => readDefinitions(b, doc, ['function'], v.function), emit, str(v.id));
    },
  },
};
