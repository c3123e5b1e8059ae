// Berkeley Function Calling Leaderboard data (JSONL, whatever the extension): question lines `{id, question,
// function: [definitions]}` and answer-key lines `{id, ground_truth: [{name: {param: [acceptable values]}}]}`.
// Each question is a session holding its tool definitions (embedded contracts), with BFCL's Python type names
// mapped to JSON Schema (`dict` -> object, `float` -> number, `tuple` -> array, `any` -> no type). An answer key
// lists acceptable values, not calls a model made: it is recognised and nothing in it is checked.
// Result files (`result/<model>/BFCL_*_result.json`, JSONL too) hold the calls a model made: lines
// `{id, result, input_token_count, output_token_count, latency}`, one session each. A function-calling model's
// `result` is a list of `{function_name: arguments}` (arguments a JSON string, or an object); a prompting model's
// is its text, calls in Python syntax (`[f(a=1), g(b="x")]`, read by `python-calls.ts`); a multi-turn entry nests
// those per turn and per step (each step a turn of its own here). Text that is not a call list (a refusal, an
// inference error) holds no call. Nothing executed them: there are no results, and the definitions are in the
// question file, so a result file is checked against the workspace's contracts.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { pythonCalls } from './python-calls';
import { PYTHON_TYPES } from './python-types';
import { isPlainObject, str, type Obj } from './util';

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

function isQuestion(v: unknown): v is Obj & { function: unknown[] } {
  return isPlainObject(v) && typeof v.id === 'string' && Array.isArray(v.question) && Array.isArray(v.function);
}

function isAnswerKey(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.id === 'string' && Array.isArray(v.ground_truth) && !('question' in v);
}

/** BFCL's test categories, the start of every entry id (`simple_python_0`, `live_parallel_3-0-3`, `multi_turn_base_7`). */
const BFCL_ID = /^(?:simple|multiple|parallel|irrelevance|live_|multi_turn_|java|javascript|exec|rest|sql|chatable|memory|web_search|format_sensitivity)[\w-]*_\d+(?:-\d+)*$/;

function isResultEntry(v: unknown): v is Obj & { id: string } {
  if (!isPlainObject(v) || typeof v.id !== 'string' || !('result' in v) || 'question' in v || 'ground_truth' in v || 'jsonrpc' in v) return false;
  // an id of BFCL's categories, or the token counts its result writer adds (a bare `latency` is any API log's)
  return BFCL_ID.test(v.id) || ('input_token_count' in v && 'output_token_count' in v);
}

/** One step's answer: `{name: args}` objects (function calling) or Python-syntax text (prompting). */
function readStep(b: SessionBuilder, doc: Doc, path: JsonPath, step: unknown): void {
  if (typeof step === 'string') {
    const calls = pythonCalls(step);
    if (!calls) return;
    const turn = b.newTurn();
    // the calls live inside the answer's text: findings in their arguments point at it
    for (const c of calls) b.call({ name: c.name, at: { doc, path }, namePath: [], argsPath: [], args: c.argsJson, expect: 'any', assembled: true }, turn);
    return;
  }
  if (!Array.isArray(step)) return;
  let turn: number | undefined;
  step.forEach((item, i) => {
    if (!isPlainObject(item)) return;
    for (const [name, args] of Object.entries(item)) {
      turn ??= b.newTurn();
      b.call({ name, at: { doc, path: [...path, i] }, namePath: [], argsPath: [name], args, expect: 'any' }, turn);
    }
  });
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
      return isQuestion(v) || isAnswerKey(v) || isResultEntry(v);
    },
    read(doc, emit) {
      const v = doc.value;
      if (isResultEntry(v)) {
        singleSession((b) => readAnswer(b, doc, ['result'], v.result), emit, v.id);
        return;
      }
      if (!isQuestion(v)) return;
      singleSession((b) => {
        v.function.forEach((f, i) => {
          if (isPlainObject(f) && typeof f.name === 'string' && 'parameters' in f) b.tool(f.name, bfclSchema(f.parameters), { doc, path: ['function', i] });
        });
      }, emit, str(v.id));
    },
  },
};
