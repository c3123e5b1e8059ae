// Pydantic AI message history: what `result.all_messages_json()` / `ModelMessagesTypeAdapter.dump_json()` write (a
// JSON array of messages), a history stored one message per JSONL line, and the agent's event stream
// (`run_stream_events` / `iter`, one event per line). Rules followed (pydantic_ai/messages.py):
// - A message is `{kind: "request" | "response", parts: [...]}`; each part names itself in `part_kind`.
// - Response parts `tool-call` (and `builtin-tool-call`, a tool the provider runs) are calls: `tool_name`, `args`
//   (a JSON string, an object, or null/"" for no arguments: Pydantic AI reads those as `{}`), `tool_call_id`
//   (Pydantic AI makes one up, `pyd_ai_…`, when the model gave none). Arguments the model sent as broken JSON are
//   kept as `{"INVALID_JSON": "<the text>"}`: read as the text, so the encoding is reported. `final_result` is the
//   output tool: a call like any other, its arguments the structured output.
// - Request parts `tool-return` answer a call by `tool_call_id`; newer versions say `outcome`: `failed` (the tool
//   raised) and `denied` (the approval mechanism refused it) are errors, `success` is not. `builtin-tool-return`
//   (in the same response) answers a builtin call. `retry-prompt` with a `tool_name` answers that call as an error
//   (its arguments failed validation, the tool raised ModelRetry, or no tool has that name); without one it asks
//   the model to redo its text output and answers no call. `user-prompt` / `system-prompt` parts are user turns.
// - Events: `{event_kind: "function_tool_call", part}` and `{event_kind: "function_tool_result", result}` carry
//   those same parts; streamed `part_start`/`part_delta` events are the model's output as it forms and are left to
//   the complete call that follows them.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import { at, isPlainObject, str, unansweredByName, type Obj } from './util';

const CALL_PARTS = new Set(['tool-call', 'builtin-tool-call']);
const RETURN_PARTS = new Set(['tool-return', 'builtin-tool-return']);
const REQUEST_PARTS = new Set(['system-prompt', 'user-prompt', 'tool-return', 'retry-prompt']);
const RESPONSE_PARTS = new Set(['text', 'thinking', 'file', 'tool-call', 'builtin-tool-call', 'builtin-tool-return']);
const INVALID_JSON = 'INVALID_JSON';

function partKind(p: unknown): string | undefined {
  return isPlainObject(p) ? str(p.part_kind) : undefined;
}

/** A ModelRequest / ModelResponse: its `kind`, and parts whose kinds belong to that kind of message. */
export function isModelMessage(v: unknown): v is Obj & { parts: unknown[] } {
  if (!isPlainObject(v) || !Array.isArray(v.parts) || (v.kind !== 'request' && v.kind !== 'response')) return false;
  const allowed = v.kind === 'request' ? REQUEST_PARTS : RESPONSE_PARTS;
  let known = 0;
  for (const p of v.parts) {
    const k = partKind(p);
    if (k === undefined) return false;
    if (allowed.has(k)) known++;
  }
  return known > 0 || v.parts.length === 0;
}

function holdsToolParts(m: Obj & { parts: unknown[] }): boolean {
  return m.parts.some((p) => {
    const k = partKind(p);
    return k !== undefined && (CALL_PARTS.has(k) || RETURN_PARTS.has(k) || k === 'retry-prompt');
  });
}

/** A history: an array of messages, at least one of them with parts (an array of `{kind}` objects alone could be
 *  anything). */
function isHistory(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isModelMessage) && v.some((m) => (m as { parts: unknown[] }).parts.length > 0);
}

function isToolEvent(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  if (v.event_kind === 'function_tool_call') return CALL_PARTS.has(partKind(v.part) ?? '');
  if (v.event_kind === 'function_tool_result') {
    const k = partKind(v.result);
    return k !== undefined && (RETURN_PARTS.has(k) || k === 'retry-prompt');
  }
  return false;
}

function isOtherEvent(v: unknown): boolean {
  return isPlainObject(v) && typeof v.event_kind === 'string' && (isPlainObject(v.part) || isPlainObject(v.delta) || isPlainObject(v.result) || v.event_kind === 'final_result');
}

function outcomeSignal(p: Obj): TransportSignals | undefined {
  if (p.outcome === 'failed' || p.outcome === 'denied') return { isError: true };
  if (p.outcome === 'success') return { isError: false };
  return undefined;
}

/** The arguments as written: broken JSON kept in its `INVALID_JSON` wrapper is read as the text it holds. */
function argsOf(p: Obj): { path: string[]; value: unknown } {
  const a = p.args;
  if (a === null || a === '') return { path: ['args'], value: undefined };
  if (isPlainObject(a) && typeof a[INVALID_JSON] === 'string' && Object.keys(a).length === 1) return { path: ['args', INVALID_JSON], value: a[INVALID_JSON] };
  return { path: ['args'], value: a };
}

class HistoryReader {
  constructor(readonly b: SessionBuilder) {}

  private call(ref: NodeRef, p: Obj, turn: number): void {
    const name = str(p.tool_name);
    if (name === undefined) return;
    const args = argsOf(p);
    this.b.call({ name, id: str(p.tool_call_id), at: ref, namePath: ['tool_name'], argsPath: args.path, args: args.value, expect: 'any' }, turn);
  }

  private answer(ref: NodeRef, p: Obj, transport: TransportSignals | undefined): void {
    const id = str(p.tool_call_id);
    const name = str(p.tool_name);
    const linked = id !== undefined && this.b.session.calls.some((c) => c.id === id);
    const callIndex = !linked && name !== undefined ? unansweredByName(this.b, name) : undefined;
    this.b.result({ at: ref, callId: linked || callIndex === undefined ? id : undefined, callIndex, payloadPath: ['content'], payload: p.content, transport });
  }

  /** A request part or a response's builtin return: a result, a user turn, or nothing. */
  private requestPart(ref: NodeRef, p: Obj): void {
    const k = partKind(p);
    if (k !== undefined && RETURN_PARTS.has(k)) this.answer(ref, p, outcomeSignal(p));
    else if (k === 'retry-prompt' && str(p.tool_name) !== undefined) this.answer(ref, p, { isError: true });
    else if (k === 'user-prompt' || k === 'retry-prompt') this.b.breakTurn();
  }

  message(ref: NodeRef, m: Obj & { parts: unknown[] }): void {
    if (m.kind === 'request') {
      m.parts.forEach((p, i) => { if (isPlainObject(p)) this.requestPart(at(ref, 'parts', i), p); });
      return;
    }
    let turn: number | undefined;
    m.parts.forEach((p, i) => {
      if (!isPlainObject(p)) return;
      const k = partKind(p);
      const pref = at(ref, 'parts', i);
      if (k !== undefined && CALL_PARTS.has(k)) this.call(pref, p, (turn ??= this.b.newTurn()));
      else if (k === 'builtin-tool-return') this.requestPart(pref, p);
    });
    if (turn === undefined) {
      const texts = m.parts.filter((p) => partKind(p) === 'text');
      this.b.assistantText(ref, texts.length === 1 && isPlainObject(texts[0]) ? texts[0].content : undefined);
    }
  }

  /** One event of the agent's stream. Calls of one model response come before any of their results. */
  event(ref: NodeRef, e: Obj): void {
    if (e.event_kind === 'function_tool_call' && isPlainObject(e.part)) this.call(at(ref, 'part'), e.part, this.b.currentTurn());
    else if (e.event_kind === 'function_tool_result' && isPlainObject(e.result)) this.requestPart(at(ref, 'result'), e.result);
  }
}

/** A model request as instrumentation records it: `{messages, model_request_parameters}`. */
function isModelRequest(v: unknown): v is Obj & { messages: unknown[] } {
  return isPlainObject(v) && isHistory(v.messages);
}

/** The agent's tools a model request offered (`function_tools: [{name, parameters_json_schema}]`). They describe
 *  the request, and the history's calls were made under earlier ones: the agent's function tools stay the same
 *  from run to run, its `output_tools` follow each run's output type (another agent's history, summarised with a
 *  `summary` output tool, would read as calls of unknown tools), so only the function tools are read. */
function readTools(b: SessionBuilder, ref: NodeRef, params: unknown): void {
  if (!isPlainObject(params) || !Array.isArray(params.function_tools)) return;
  params.function_tools.forEach((t, i) => {
    const name = isPlainObject(t) ? str(t.name) : undefined;
    if (name !== undefined && isPlainObject((t as Obj).parameters_json_schema)) b.tool(name, (t as Obj).parameters_json_schema, at(ref, 'function_tools', i, 'parameters_json_schema'));
  });
}

export const pydanticAi: FormatAdapter = {
  id: 'pydantic-ai',
  document: {
    claims: (v) => isHistory(v) || isModelRequest(v),
    read(doc, emit) {
      const v = doc.value;
      const list = isModelRequest(v) ? v.messages : v;
      if (!Array.isArray(list)) return;
      const base = isModelRequest(v) ? ['messages'] : [];
      singleSession((b) => {
        if (isModelRequest(v)) readTools(b, { doc, path: ['model_request_parameters'] }, v.model_request_parameters);
        const r = new HistoryReader(b);
        list.forEach((m, i) => { if (isModelMessage(m)) r.message({ doc, path: [...base, i] }, m); });
      }, emit);
    },
  },
  lines: {
    claims: (v) => (isModelMessage(v) && holdsToolParts(v)) || isToolEvent(v),
    accepts: (v) => isModelMessage(v) || isOtherEvent(v),
    open(sink: LineSink) {
      const r = new HistoryReader(sink.builder);
      return {
        read(doc) {
          const v = doc.value;
          if (isModelMessage(v)) r.message({ doc, path: [] }, v);
          else if (isPlainObject(v)) r.event({ doc, path: [] }, v);
        },
      };
    },
  },
};
