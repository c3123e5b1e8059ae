// OpenHands event streams (trajectory exports): a JSON array of events `{id, source, action|observation, args|
// extras, cause, tool_call_metadata}`. An action with `tool_call_metadata` is a call: its arguments are read from
// the model response it carries (`model_response.choices[].message.tool_calls[]` with that id: the JSON string the
// model wrote), else from the action's `args`. Actions of one model response are one turn. An observation whose
// `cause` is an action's id is that action's result (an observation without `cause` answers through its
// `tool_call_metadata.tool_call_id`, a copy of the call's); an `error` or `user_rejected` observation, `success: false`
// and a browser's `extras.error` are honest failures, the exit code of a command comes from `extras.metadata.exit_code`
// (or `extras.exit_code`), an MCP observation's CallToolResult carries its own `isError`, and any other observation
// says the action succeeded.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import type { Doc } from '../parse/doc';
import { isPlainObject, num, ownsErrorFlag, str, type Obj } from './util';

function isEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.id === 'number' && typeof v.source === 'string' && (typeof v.action === 'string' || typeof v.observation === 'string');
}

// Agent actions that run something even when no tool call metadata is recorded (older, text-action agents).
const RUNNABLE = new Set(['run', 'run_ipython', 'read', 'write', 'edit', 'browse', 'browse_interactive', 'delegate', 'call_tool_mcp']);

function toolCallIn(meta: Obj, id: string): { path: (string | number)[]; call: Obj } | undefined {
  const resp = meta.model_response;
  if (!isPlainObject(resp) || !Array.isArray(resp.choices)) return undefined;
  for (let c = 0; c < resp.choices.length; c++) {
    const msg = isPlainObject(resp.choices[c]) ? (resp.choices[c] as Obj).message : undefined;
    if (!isPlainObject(msg) || !Array.isArray(msg.tool_calls)) continue;
    const j = msg.tool_calls.findIndex((tc) => isPlainObject(tc) && tc.id === id);
    if (j >= 0) return { path: ['tool_call_metadata', 'model_response', 'choices', c, 'message', 'tool_calls', j], call: msg.tool_calls[j] as Obj };
  }
  return undefined;
}

// Observations that say the action failed or never ran.
const FAILED = new Set(['error', 'user_rejected']);

function transportOf(e: Obj): TransportSignals {
  const t: TransportSignals = {};
  const extras = isPlainObject(e.extras) ? e.extras : {};
  const code = num(isPlainObject(extras.metadata) ? extras.metadata.exit_code : undefined) ?? num(extras.exit_code);
  // -1: no exit code (the command is still running or was interrupted)
  if (code !== undefined && code !== -1) t.exitCode = code;
  const failed = FAILED.has(e.observation as string) || e.success === false || extras.error === true;
  // an MCP observation's content is the CallToolResult, whose own isError speaks for it
  if (failed || !ownsErrorFlag(e.content)) t.isError = failed;
  return t;
}


function readEvents(b: SessionBuilder, doc: Doc, events: unknown[]): void {
  const callOf = new Map<number, { id?: string; index: number }>();
  let response: string | undefined;
  let turn = 0;
  events.forEach((e, i) => {
    if (!isEvent(e)) return;
    if (typeof e.action === 'string') {
      const meta = isPlainObject(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
      const id = str(meta?.tool_call_id);
      const name = str(meta?.function_name) ?? (e.source === 'agent' && RUNNABLE.has(e.action) ? e.action : undefined);
      if (name === undefined) {
        b.breakTurn();
        response = undefined;
        return;
      }
      const resp = isPlainObject(meta?.model_response) ? str(meta.model_response.id) : undefined;
      if (resp === undefined || resp !== response) turn = b.newTurn();
      response = resp;
      const found = meta && id !== undefined ? toolCallIn(meta, id) : undefined;
      const fn = found && isPlainObject(found.call.function) ? found.call.function : undefined;
      const call = fn && typeof fn.name === 'string'
        ? b.call({ name: fn.name, id, at: { doc, path: [i, ...found!.path] }, namePath: ['function', 'name'], argsPath: ['function', 'arguments'], args: fn.arguments, expect: 'string' }, turn)
        : b.call({ name, id, at: { doc, path: [i] }, namePath: meta ? ['tool_call_metadata', 'function_name'] : ['action'], argsPath: ['args'], args: e.args, expect: 'object' }, turn);
      callOf.set(e.id as number, { id, index: call.index });
      return;
    }
    const cause = typeof e.cause === 'number' ? callOf.get(e.cause) : undefined;
    const meta = isPlainObject(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
    const id = cause ? cause.id : typeof e.cause === 'number' ? undefined : str(meta?.tool_call_id);
    if (cause || id !== undefined) {
      b.result({ at: { doc, path: [i] }, callId: id, callIndex: id === undefined ? cause!.index : undefined, payload: e.content, payloadPath: ['content'], transport: transportOf(e) });
    }
    b.breakTurn();
    response = undefined;
  });
}

export const openhands: FormatAdapter = {
  id: 'openhands',
  packs: ['openhands'],
  document: {
    claims(v) {
      return Array.isArray(v) && v.length > 0 && v.every(isEvent);
    },
    read(doc, emit) {
      singleSession((b) => readEvents(b, doc, doc.value as unknown[]), emit);
    },
  },
};
