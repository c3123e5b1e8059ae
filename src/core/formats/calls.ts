// Plain call records: `{name, arguments}` or `{tool, args}` (either spelling of each), one per JSONL line, a
// single object, or an array of them. A `result` on the same record is that call's result (by the record's `id`
// or `call_id` when it has one, else the record itself); an `error` there (with no result) is its failure. Error
// signals on the record: `is_error`/`isError`, `exit_code`/`exitCode`; an `error` beside a result is left to the
// result's reading (a body that says failure under a success flag is theater).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { isPlainObject, type Obj } from '../objects';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';

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

/** The record's own error signals. */
function signalsOf(rec: Obj): TransportSignals {
  const t: TransportSignals = {};
  const flag = rec.is_error ?? rec.isError;
  if (typeof flag === 'boolean') t.isError = flag;
  const code = rec.exit_code ?? rec.exitCode;
  if (typeof code === 'number' && Number.isInteger(code)) t.exitCode = code;
  return t;
}

function readRecord(b: SessionBuilder, doc: Doc, path: JsonPath, rec: Obj): void {
  const nk = nameKey(rec)!;
  const ak = argsKey(rec)!;
  const id = typeof rec.id === 'string' ? rec.id : typeof rec.call_id === 'string' ? rec.call_id : undefined;
  const call = b.call({ name: rec[nk] as string, id, at: { doc, path }, namePath: [nk], argsPath: [ak], args: rec[ak], expect: 'any' }, b.newTurn());
  const failed = !('result' in rec) && rec.error !== undefined && rec.error !== null;
  if ('result' in rec || failed) {
    const key = failed ? 'error' : 'result';
    b.result({ at: { doc, path: [...path, key] }, callId: id, callIndex: id ? undefined : call.index, payload: rec[key], payloadPath: [],
      transport: failed ? { isError: true, ...signalsOf(rec) } : signalsOf(rec) });
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
    // a record holds its call and its result: every call is settled once its line is read
    segments: 'settled',
    claims: isCallRecord,
    open: ({ builder }) => ({ read: (doc) => readRecord(builder, doc, [], doc.value as Obj) }),
  },
};
