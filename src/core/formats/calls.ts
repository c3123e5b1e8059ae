// Plain call records: `{name, arguments}` or `{tool, args}` (either spelling of each), one per JSONL line, a
// single object, or an array of them. A `result` (or `output`) on the same record is that call's result.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { isPlainObject, type SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';

type Obj = Record<string, unknown>;

const NAME_KEYS = ['name', 'tool'] as const;
const ARGS_KEYS = ['arguments', 'args'] as const;
// Keys that mark a record of some richer format, which this adapter must leave to its own adapter.
const FOREIGN = ['role', 'type', 'messages', 'content', 'choices', 'output', 'input'];

function nameKey(v: Obj): string | undefined {
  return NAME_KEYS.find((k) => typeof v[k] === 'string');
}

function argsKey(v: Obj): string | undefined {
  return ARGS_KEYS.find((k) => k in v);
}

export function isCallRecord(v: unknown): v is Obj {
  return isPlainObject(v) && nameKey(v) !== undefined && argsKey(v) !== undefined && !FOREIGN.some((k) => k in v);
}

function readRecord(b: SessionBuilder, doc: Doc, path: JsonPath, rec: Obj): void {
  const nk = nameKey(rec)!;
  const ak = argsKey(rec)!;
  const id = typeof rec.id === 'string' ? rec.id : typeof rec.call_id === 'string' ? rec.call_id : undefined;
  const call = b.call({ name: rec[nk] as string, id, at: { doc, path }, namePath: [nk], argsPath: [ak], args: rec[ak], expect: 'any' }, b.newTurn());
  if ('result' in rec) {
    b.result({ at: { doc, path: [...path, 'result'] }, callId: id, callIndex: id ? undefined : call.index, payload: rec.result, payloadPath: [] });
  }
  b.breakTurn();
}

export const calls: FormatAdapter = {
  id: 'calls',
  document: {
    claims(v) {
      if (isCallRecord(v)) return false; // a single record is read as a line event, so a JSONL of them is one session
      return Array.isArray(v) && v.length > 0 && v.every(isCallRecord);
    },
    read(doc, emit) {
      singleSession((b) => (doc.value as Obj[]).forEach((rec, i) => readRecord(b, doc, [i], rec)), emit);
    },
  },
  lines: {
    claims: isCallRecord,
    open: ({ builder }) => ({ read: (doc) => readRecord(builder, doc, [], doc.value as Obj) }),
  },
};
