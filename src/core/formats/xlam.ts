// Salesforce xLAM / APIGen function-calling data (xlam-function-calling-60k and the sets that merge it): a record
// `{id, query, tools, answers}`, `tools` and `answers` JSON strings (or, once loaded and saved again, JSON). The
// answers are the calls that answer the query, `[{name, arguments}]`, in one turn; nothing ran them, so there are
// no results. Definitions give each parameter as `{type, description, default}` with Python's type names
// (`str`, `List[int]`, `Optional[float]`), read as JSON Schema types (`tool-tags.ts`). Each record is one session.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { callShape, writeCalls, writeDefinitions } from './tool-tags';
import { isPlainObject, jsonIn, jsonValue, keyText, type Obj } from './util';

function isXlam(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.query !== 'string') return false;
  const answers = jsonValue(v.answers);
  const tools = jsonValue(v.tools);
  return Array.isArray(answers) && Array.isArray(tools) && answers.every((a) => callShape(a) !== undefined && isPlainObject(a) && 'arguments' in a);
}

export const xlam: FormatAdapter = {
  id: 'xlam',
  document: {
    claims: isXlam,
    read(doc, emit) {
      const v = doc.value;
      if (!isXlam(v)) return;
      const id = typeof v.id === 'string' || typeof v.id === 'number' ? keyText(v.id) : undefined;
      singleSession((b) => {
        const tools = jsonIn(doc, ['tools'], v.tools);
        writeDefinitions(b, tools.doc, tools.path, tools.value);
        b.breakTurn();
        const answers = jsonIn(doc, ['answers'], v.answers);
        if (Array.isArray(answers.value) && answers.value.length > 0) writeCalls(b, answers.doc, answers.path, answers.value, b.newTurn());
      }, emit, id);
    },
  },
};
