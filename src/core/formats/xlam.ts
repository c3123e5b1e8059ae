// Salesforce xLAM / APIGen function-calling data (xlam-function-calling-60k and the sets that merge it): a record
// `{id, query, tools, answers}`, `tools` and `answers` JSON strings (or, once loaded and saved again, JSON). The
// answers are the calls that answer the query, `[{name, arguments}]`, in one turn; nothing ran them, so there are
// no results. Definitions give each parameter as `{type, description, default}` with Python's type names
// (`str`, `List[int]`, `Optional[float]`), read as JSON Schema types (`tool-tags.ts`). Each record is one session.
// The two strings are parsed once per record: what `claims` parsed, `read` takes.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { embeddedDoc, type Doc } from '../parse/doc';
import { callShape, writeCalls, writeDefinitions } from './tool-tags';
import { isPlainObject, jsonValue, keyText, type Located, type Obj } from './util';

interface Parts { tools: unknown[]; answers: unknown[] }

const parsed = new WeakMap<Obj, Parts | undefined>();

/** A record's tools and answers, parsed (undefined when it is no xLAM record). */
function partsOf(v: unknown): Parts | undefined {
  if (!isPlainObject(v) || typeof v.query !== 'string') return undefined;
  if (parsed.has(v)) return parsed.get(v);
  const answers = jsonValue(v.answers);
  const tools = jsonValue(v.tools);
  const ok = Array.isArray(answers) && Array.isArray(tools) && answers.every((a) => callShape(a) !== undefined && isPlainObject(a) && 'arguments' in a);
  const parts = ok ? { tools, answers } : undefined;
  parsed.set(v, parts);
  return parts;
}

/** A column where it is: in the record, or (a JSON string) a doc of its own pointing into that string. */
function located(doc: Doc, key: string, raw: unknown, value: unknown): Located {
  return typeof raw === 'string' ? { doc: embeddedDoc(doc, [key], raw, 0, raw, value), path: [], value } : { doc, path: [key], value };
}

export const xlam: FormatAdapter = {
  id: 'xlam',
  document: {
    claims: (v) => partsOf(v) !== undefined,
    read(doc, emit) {
      const v = doc.value as Obj;
      const parts = partsOf(v);
      if (!parts) return;
      const id = typeof v.id === 'string' || typeof v.id === 'number' ? keyText(v.id) : undefined;
      singleSession((b) => {
        const tools = located(doc, 'tools', v.tools, parts.tools);
        writeDefinitions(b, tools.doc, tools.path, tools.value);
        b.breakTurn();
        const answers = located(doc, 'answers', v.answers, parts.answers);
        if (parts.answers.length > 0) writeCalls(b, answers.doc, answers.path, answers.value, b.newTurn());
      }, emit, id);
    },
  },
};
