// Berkeley Function Calling Leaderboard data (JSONL, whatever the extension): question lines `{id, question,
// function: [definitions]}` and answer-key lines `{id, ground_truth: [{name: {param: [acceptable values]}}]}`.
// Each question is a session holding its tool definitions (embedded contracts), with BFCL's Python type names
// mapped to JSON Schema (`dict` -> object, `float` -> number, `tuple` -> array, `any` -> no type). An answer key
// lists acceptable values, not calls a model made: it is recognised and nothing in it is checked.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { isPlainObject, str, type Obj } from './util';

const TYPES: Record<string, string | undefined> = { dict: 'object', float: 'number', tuple: 'array', any: undefined, list: 'array', int: 'integer', bool: 'boolean', str: 'string' };

/** A BFCL parameter schema as JSON Schema (a copy; the source is untouched). */
export function bfclSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(bfclSchema);
  if (!isPlainObject(s)) return s;
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type' && typeof v === 'string' && v in TYPES) {
      const t = TYPES[v];
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

export const bfcl: FormatAdapter = {
  id: 'bfcl',
  document: {
    claims(v) {
      return isQuestion(v) || isAnswerKey(v);
    },
    read(doc, emit) {
      const v = doc.value;
      if (!isQuestion(v)) return;
      singleSession((b) => {
        v.function.forEach((f, i) => {
          if (isPlainObject(f) && typeof f.name === 'string' && 'parameters' in f) b.tool(f.name, bfclSchema(f.parameters), { doc, path: ['function', i] });
        });
      }, emit, str(v.id));
    },
  },
};
