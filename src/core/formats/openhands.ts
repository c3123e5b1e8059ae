// OpenHands event streams (trajectory exports): a JSON array of events `{id, source, action|observation, args|
// extras, cause, tool_call_metadata}`. An action with `tool_call_metadata` is a call: its arguments are read from
// the model response it carries (`model_response.choices[].message.tool_calls[]` with that id: the JSON string the
// model wrote), else from the action's `args`. Actions of one model response are one turn. An observation whose
// `cause` is an action's id is that action's result (an observation without `cause` answers through its
// `tool_call_metadata.tool_call_id`, a copy of the call's); an `error` or `user_rejected` observation, `success: false`
// and a browser's `extras.error` are honest failures, the exit code of a command comes from `extras.metadata.exit_code`
// (or `extras.exit_code`), an MCP observation's CallToolResult carries its own `isError`, and any other observation
// says the action succeeded.
// OpenHands V1 (the software-agent-sdk, agent-server and CLI: `~/.openhands/conversations/<id>/events/event-*.json`,
// one event per file, and the API's event lists) writes typed events `{kind, id (a UUID), timestamp, source, ...}`:
// an `ActionEvent` `{tool_name, tool_call_id, tool_call: {id, name, arguments (the JSON string the model wrote)},
// action, llm_response_id}` is a call (actions of one `llm_response_id` are one turn); its result is the
// `ObservationEvent` `{tool_call_id, action_id, observation: {content[], is_error, exit_code?, metadata?}}`, an
// `AgentErrorEvent` `{error}` or a `UserRejectObservation` `{rejection_reason}` (both honest failures) of that
// `tool_call_id`. Read as a JSON array, JSONL, or one event file alone.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
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

// ---- V1 events ---------------------------------------------------------------------------------------------

const V1_RESULTS = new Set(['ObservationEvent', 'AgentErrorEvent', 'UserRejectObservation']);

function isV1Event(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.kind === 'string' && typeof v.id === 'string' && typeof v.source === 'string' && typeof v.timestamp === 'string';
}

/** A V1 call or result event: what makes a file OpenHands V1's beyond doubt. */
function isV1ToolEvent(v: unknown): v is Obj {
  return isV1Event(v) && typeof v.tool_call_id === 'string' && typeof v.tool_name === 'string' && (v.kind === 'ActionEvent' || V1_RESULTS.has(v.kind as string));
}

/** What a V1 result event says of how its call went, and where its payload is. */
function v1Outcome(e: Obj): { payloadPath: JsonPath; transport: TransportSignals } {
  if (e.kind === 'AgentErrorEvent') return { payloadPath: ['error'], transport: { isError: true } };
  if (e.kind === 'UserRejectObservation') return { payloadPath: ['rejection_reason'], transport: { isError: true } };
  const obs = isPlainObject(e.observation) ? e.observation : {};
  const t: TransportSignals = {};
  const code = num(obs.exit_code) ?? num(isPlainObject(obs.metadata) ? obs.metadata.exit_code : undefined);
  if (code !== undefined && code !== -1) t.exitCode = code;
  if (typeof obs.is_error === 'boolean') t.isError = obs.is_error;
  return { payloadPath: 'content' in obs ? ['observation', 'content'] : ['observation'], transport: t };
}

class V1Events {
  private response?: string;
  private turn?: number;

  constructor(private readonly b: SessionBuilder) {}

  read(doc: Doc, path: JsonPath, e: Obj): void {
    const b = this.b;
    if (typeof e.tool_call_id !== 'string' || typeof e.tool_name !== 'string') return;
    if (e.kind === 'ActionEvent') {
      const resp = str(e.llm_response_id);
      if (this.turn === undefined || resp === undefined || resp !== this.response) this.turn = b.newTurn();
      this.response = resp;
      // `{id, name, arguments}`, or (early SDK versions) a Chat completion's `{id, type, function: {name, arguments}}`
      const tc = isPlainObject(e.tool_call) ? e.tool_call : undefined;
      const fnPath = tc && isPlainObject(tc.function) ? ['tool_call', 'function'] : ['tool_call'];
      const fn = tc && isPlainObject(tc.function) ? tc.function : tc;
      if (fn && typeof fn.arguments === 'string') {
        b.call({ name: str(fn.name) ?? e.tool_name, id: e.tool_call_id, at: { doc, path: [...path, ...fnPath] }, namePath: ['name'], argsPath: ['arguments'],
          args: fn.arguments, expect: 'string' }, this.turn);
      } else if (isPlainObject(e.action)) {
        // the parsed action: its `kind` is the SDK's class name, not an argument
        const { kind: _kind, ...args } = e.action;
        b.call({ name: e.tool_name, id: e.tool_call_id, at: { doc, path }, namePath: ['tool_name'], argsPath: ['action'], args, expect: 'object' }, this.turn);
      }
      return;
    }
    if (!V1_RESULTS.has(e.kind as string)) return;
    const { payloadPath, transport } = v1Outcome(e);
    let payload: unknown = e;
    for (const k of payloadPath) payload = isPlainObject(payload) ? payload[k as string] : undefined;
    b.result({ at: { doc, path }, callId: e.tool_call_id, payload, payloadPath, transport });
  }
}

export const openhands: FormatAdapter = {
  id: 'openhands',
  packs: ['openhands'],
  document: {
    claims(v) {
      return Array.isArray(v) && v.length > 0 && (v.every(isEvent) || (v.every(isV1Event) && v.some(isV1ToolEvent)));
    },
    read(doc, emit) {
      const events = doc.value as unknown[];
      singleSession((b) => {
        if (events.every(isEvent)) readEvents(b, doc, events);
        else {
          const v1 = new V1Events(b);
          events.forEach((e, i) => v1.read(doc, [i], e as Obj));
        }
      }, emit);
    },
  },
  lines: {
    claims: isV1ToolEvent,
    accepts: isV1Event,
    open({ builder }) {
      const v1 = new V1Events(builder);
      return { read: (doc) => v1.read(doc, [], doc.value as Obj) };
    },
  },
};
