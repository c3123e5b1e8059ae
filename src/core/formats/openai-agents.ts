// OpenAI Agents SDK run states: a serialized `RunState` (`$schemaVersion` 1.x) from the Python SDK (snake_case:
// `generated_items`, `raw_item`, `call_id`, `model_responses`, `last_model_response`) or the JS SDK (camelCase:
// `generatedItems`, `rawItem`, `callId`, `modelResponses`, `lastModelResponse`, results as `function_call_result`
// with a `status`). A state may be the whole file, a JSON string, or sit in an envelope ({state: ...}, a list of
// saved states): each such state is a session. States nested in a state (an agent-as-tool run awaiting approval,
// `pendingAgentToolRuns`, stored as JSON strings) belong to the session of the state that holds them.
// The items are Responses API items: which are calls, what their tools are named, which are outputs and how they
// pair come from the Responses reader's tables (openai-responses.ts). Calls: function_call, custom_tool_call
// (free-form input), the built-in calls (computer_call, shell_call, local_shell_call, apply_patch_call, program:
// programmatic tool calling, free-form code), MCP calls and approval requests, hosted tool calls (web search as
// `web_search`, file search, code interpreter, image generation, tool search; the JS SDK wraps them as
// `hosted_tool_call`, MCP ones with the real tool in `providerData`); a hosted call carries its own result (a tool
// search's is its output item). Results pair by call id: the Responses output items, and the JS SDK's
// function_call_result / computer_call_result; local_shell_call_output is linked by `id`; shell outputs carry exit
// codes and timeouts; `status` completed is a success (the SDKs write it once the tool returned), failed /
// incomplete an error.
// Quirks: one call is recorded in several places (original input, generated and session items, the items held
// for the session store (`pending_session_write.items`, raw items of a turn whose tools ran), the processed
// response, interruptions, every model response): it is read once, where it first appears, so an approval's
// argument override does not replace what the model sent (a durable override rewrites the stored items: its
// `session_history_mutations` entry keeps the original call as `expected`, read first). Tool definitions (the processed response's function
// tools, MCP tool lists) cover only some tools: they are kept only when they name every tool the session calls,
// or a tool merely absent from them would be reported as unknown.
// The SDK's trace exports (JSONL of spans, an ingest batch) are read too: see "traces" below.
import { readAsLines, type FormatAdapter, type LineFormat, type LineSink } from './adapter';
import { SessionBuilder, type CallInput, type NodeRef } from './builder';
import { HOSTED_CALLS, itemCall, mcpOutcome, OUTPUT_ITEMS, outputCallId, outputKey, outputSignals, statusSignal, type HostedCall } from './openai-responses';
import type { TransportSignals } from '../model';
import { nodeDoc, type Doc, type JsonPath } from '../parse/doc';
import { at, isPlainObject, jsonIn, str, type Located, type Obj } from './util';

/** How far into an envelope, and into a state, states are looked for; and how many nodes a search visits (the
 *  envelope search runs on every document and JSONL line no other reader took: it stays small). */
const ENVELOPE_DEPTH = 3;
const ENVELOPE_BUDGET = 300;
const NESTED_DEPTH = 5;
const NESTED_BUDGET = 4000;

function isState(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.$schemaVersion === 'string'
    && (Array.isArray(v.generatedItems) || Array.isArray(v.generated_items) || Array.isArray(v.modelResponses) || Array.isArray(v.model_responses));
}

/** A string that may hold a serialized state (`RunState.toString()` writes `$schemaVersion` first). */
function mayHoldState(v: unknown): v is string {
  return typeof v === 'string' && v.length > 20 && v.trimStart().startsWith('{') && v.slice(0, 400).includes('"$schemaVersion"');
}

function stateAt(ref: NodeRef, v: unknown): Located<Obj> | undefined {
  if (isState(v)) return { ...ref, value: v };
  if (!mayHoldState(v)) return undefined;
  const inner = jsonIn(ref.doc, ref.path, v);
  return isState(inner.value) ? { doc: inner.doc, path: inner.path, value: inner.value } : undefined;
}

/** The states at or under `ref` (not inside a state found: those are read with it). */
function findStates(ref: NodeRef, v: unknown, depth: number, out: Located<Obj>[], budget: { left: number }): Located<Obj>[] {
  if (--budget.left < 0) return out;
  const state = stateAt(ref, v);
  if (state) {
    out.push(state);
    return out;
  }
  if (depth === 0) return out;
  if (Array.isArray(v)) v.forEach((x, i) => findStates(at(ref, i), x, depth - 1, out, budget));
  else if (isPlainObject(v)) for (const k of Object.keys(v)) findStates(at(ref, k), v[k], depth - 1, out, budget);
  return out;
}

/** `o[camel]` or `o[snake]`, with the key that held it (the JS / .NET and the Python spellings of one field). */
export function field(o: unknown, camel: string, snake: string): { key: string; value: unknown } | undefined {
  if (!isPlainObject(o)) return undefined;
  if (camel in o) return { key: camel, value: o[camel] };
  if (snake in o) return { key: snake, value: o[snake] };
  return undefined;
}

function callIdOf(item: Obj): string | undefined {
  return str(item.callId) ?? str(item.call_id);
}

/** The JS SDK's names of result items, by the Responses output type they stand for. */
const JS_RESULTS = new Map([['function_call_result', 'function_call_output'], ['computer_call_result', 'computer_call_output']]);

/** One session's reading: every place a state records items, each call and result read once. */
class StateReader {
  readonly b = new SessionBuilder();
  private readonly seen = new Set<string>();
  /** MCP approval requests read as calls; requests an mcp_call already answered (their copies are not calls). */
  private readonly requests = new Set<string>();
  private readonly approved = new Set<string>();
  private readonly tools: { name: string; schema: unknown; at: NodeRef }[] = [];

  readState(state: Located<Obj>, depth: number): void {
    const s = state.value;
    const ref: NodeRef = { doc: state.doc, path: state.path };
    const input = field(s, 'originalInput', 'original_input');
    if (input && Array.isArray(input.value)) this.readList(at(ref, input.key), input.value, false);
    // a durable approval override rewrites the stored call; its mutation keeps the call the model sent (`expected`)
    const mutations = field(s, 'sessionHistoryMutations', 'session_history_mutations');
    if (mutations && Array.isArray(mutations.value)) {
      mutations.value.forEach((m, i) => {
        if (isPlainObject(m) && isPlainObject(m.expected)) this.readItem(at(ref, mutations.key, i, 'expected'), m.expected);
      });
    }
    for (const [camel, snake] of [['generatedItems', 'generated_items'], ['sessionItems', 'session_items']]) {
      const f = field(s, camel, snake);
      if (f && Array.isArray(f.value)) this.readList(at(ref, f.key), f.value, true);
    }
    // items held for the session store (a turn whose calls ran, not yet written) and input queued for the next turn
    const pending = field(s, 'pendingSessionWrite', 'pending_session_write');
    const held = pending && isPlainObject(pending.value) ? pending.value : undefined;
    if (pending && held && Array.isArray(held.items)) this.readList(at(ref, pending.key, 'items'), held.items, false);
    const queued = field(s, 'pendingInput', 'pending_input');
    if (queued && Array.isArray(queued.value)) this.readList(at(ref, queued.key), queued.value, false);
    const f = field(s, 'lastProcessedResponse', 'last_processed_response');
    const processed = f && isPlainObject(f.value) ? { ref: at(ref, f.key), value: f.value } : undefined;
    const newItems = field(processed?.value, 'newItems', 'new_items');
    if (processed && newItems && Array.isArray(newItems.value)) this.readList(at(processed.ref, newItems.key), newItems.value, true);
    if (depth < NESTED_DEPTH) {
      for (const k of Object.keys(s)) {
        for (const nested of findStates(at(ref, k), s[k], NESTED_DEPTH, [], { left: NESTED_BUDGET })) this.readState(nested, depth + 1);
      }
    }
    const step = field(s, 'currentStep', 'current_step');
    const data = step && isPlainObject(step.value) && isPlainObject(step.value.data) ? step.value.data : undefined;
    if (step && data && Array.isArray(data.interruptions)) this.readList(at(ref, step.key, 'data', 'interruptions'), data.interruptions, true);
    if (processed && Array.isArray(processed.value.interruptions)) this.readList(at(processed.ref, 'interruptions'), processed.value.interruptions, true);
    const responses = field(s, 'modelResponses', 'model_responses');
    if (responses && Array.isArray(responses.value)) responses.value.forEach((r, i) => this.readResponse(at(ref, responses.key, i), r));
    const last = field(s, 'lastModelResponse', 'last_model_response');
    if (last) this.readResponse(at(ref, last.key), last.value);
    if (processed) this.readProcessed(processed.ref, processed.value);
  }

  private readResponse(ref: NodeRef, r: unknown): void {
    if (isPlainObject(r) && Array.isArray(r.output)) this.readList(at(ref, 'output'), r.output, false);
  }

  /** The processed response's action groups: each entry's tool call, and the function tools' definitions. */
  private readProcessed(ref: NodeRef, p: Obj): void {
    for (const [key, list] of Object.entries(p)) {
      if (!Array.isArray(list) || key === 'newItems' || key === 'new_items' || key === 'interruptions') continue;
      list.forEach((entry, i) => {
        if (!isPlainObject(entry)) return;
        const e = at(ref, key, i);
        const call = field(entry, 'toolCall', 'tool_call');
        if (call && isPlainObject(call.value)) this.readItem(at(e, call.key), call.value);
        const request = field(entry, 'requestItem', 'request_item');
        const raw = field(request?.value, 'rawItem', 'raw_item');
        if (request && raw && isPlainObject(raw.value)) this.readItem(at(e, request.key, raw.key), raw.value);
        const tool = entry.tool;
        if (key === 'functions' && isPlainObject(tool) && typeof tool.name === 'string') {
          const schema = tool.parameters ?? tool.paramsJsonSchema ?? tool.params_json_schema;
          if (isPlainObject(schema)) this.tools.push({ name: tool.name, schema, at: at(e, 'tool') });
        }
      });
    }
  }

  /** Items as the model wrote them, or run items wrapping them (`rawItem` / `raw_item`). */
  private readList(ref: NodeRef, list: unknown[], wrapped: boolean): void {
    list.forEach((x, i) => {
      if (!isPlainObject(x)) return;
      const raw = wrapped ? field(x, 'rawItem', 'raw_item') : undefined;
      if (raw && isPlainObject(raw.value)) this.readItem(at(ref, i, raw.key), raw.value);
      else if (!wrapped || typeof x.role === 'string') this.readItem(at(ref, i), x);
    });
  }

  /** True the first time a call (or result) is met; its copies elsewhere in the state are not read again. */
  private first(key: string | undefined): boolean {
    if (key === undefined) return true;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  private call(ref: NodeRef, name: string, namePath: JsonPath, argsPath: JsonPath, args: unknown,
    expect: 'string' | 'any', id: string | undefined, freeform = false): boolean {
    return this.callOnce({ name, id, at: ref, namePath, argsPath, args, expect, freeform: freeform && typeof args === 'string' });
  }

  private callOnce(input: CallInput): boolean {
    if (!this.first(input.id === undefined ? undefined : 'call:' + input.id)) return false;
    this.b.call(input);
    return true;
  }

  private result(ref: NodeRef, callId: string | undefined, payloadPath: JsonPath, payload: unknown, transport: TransportSignals): void {
    if (!this.first(callId === undefined ? undefined : 'result:' + callId)) return;
    this.b.result({ at: ref, callId, payload, payloadPath, transport });
    this.b.breakTurn();
  }

  private readItem(ref: NodeRef, item: Obj): void {
    const type = str(item.type);
    if (type === undefined || type === 'message') {
      if (typeof item.role === 'string') this.b.breakTurn();
      return;
    }
    const call = itemCall(item, ref, 'string');
    if (call) {
      this.callOnce(call);
    } else if (OUTPUT_ITEMS.has(type) || JS_RESULTS.has(type)) {
      this.readResult(ref, item, JS_RESULTS.get(type) ?? type);
    } else if (type === 'hosted_tool_call') {
      this.readHosted(ref, item);
    } else if (type === 'mcp_call' || type === 'mcp_approval_request') {
      this.readMcp(ref, item, [], item);
    } else if (type === 'mcp_list_tools') {
      this.readMcpTools(ref, item.tools);
    } else if (HOSTED_CALLS.has(type)) {
      this.readHostedCall(ref, item, type, [], item);
    }
  }

  /** An output: it answers the call with its call id; the SDKs write `completed` on a result once the tool
   *  returned, so there it says success. */
  private readResult(ref: NodeRef, item: Obj, type: string): void {
    const key = outputKey(item, type);
    this.result(ref, outputCallId(item, type), [key], item[key], outputSignals(item, type, type !== 'shell_call_output'));
  }

  /** JS `hosted_tool_call`: the item kind is its name (or `providerData.type`), the original item in `providerData`. */
  private readHosted(ref: NodeRef, item: Obj): void {
    const pd = isPlainObject(item.providerData) ? item.providerData : {};
    const kind = str(pd.type) ?? str(item.name) ?? '';
    if (kind === 'mcp_list_tools') this.readMcpTools(at(ref, 'providerData'), pd.tools);
    else if (kind === 'mcp_call' || kind === 'mcp_approval_request') this.readMcp(ref, item, ['providerData'], pd);
    else if (typeof item.name === 'string') this.readHostedCall(ref, item, item.name, ['providerData'], pd);
  }

  /** A hosted call and, once it finished, its result: both in the one item. */
  private readHostedCall(ref: NodeRef, item: Obj, type: string, sub: JsonPath, original: Obj): void {
    const spec: Partial<HostedCall> = HOSTED_CALLS.get(type) ?? {};
    const name = spec.name ?? type;
    // one answered by an output item pairs with it by call id; the others carry their outcome
    const id = spec.answeredBy ? callIdOf(item) ?? callIdOf(original) : str(item.id) ?? str(original.id);
    const stringArgs = typeof item.arguments === 'string';
    const argsPath: JsonPath = stringArgs ? ['arguments'] : spec.args ? [...sub, spec.args] : [];
    let args = stringArgs ? item.arguments : spec.args ? original[spec.args] : undefined;
    const freeform = spec.freeform === true && !stringArgs && typeof args === 'string';
    if (!stringArgs && !freeform && !isPlainObject(args)) args = undefined;
    if (!this.call(ref, name, sub.length ? ['name'] : ['type'], argsPath, args, stringArgs ? 'string' : 'any', id, freeform) || spec.answeredBy) return;
    const status = str(item.status) ?? str(original.status);
    let output: { path: JsonPath; value: unknown } | undefined;
    if (item.output !== undefined && item.output !== null) output = { path: ['output'], value: item.output };
    else if (spec.output && original[spec.output] !== undefined) output = { path: [...sub, spec.output], value: original[spec.output] };
    if (status !== 'completed' && status !== 'failed' && !output) return; // still running
    this.result(ref, id, output?.path ?? [], output?.value, statusSignal(status, true));
  }

  /** An MCP call (its output or error in the same item) or an approval request (the call awaiting approval). An
   *  mcp_call made after an approval request is that request's call: its result answers the request. */
  private readMcp(ref: NodeRef, item: Obj, sub: JsonPath, original: Obj): void {
    const ownName = str(original.name);
    const name = ownName ?? str(item.name);
    if (name === undefined) return;
    const id = str(item.id) ?? str(original.id);
    const namePath = ownName !== undefined ? [...sub, 'name'] : ['name'];
    const [argsPath, args]: [JsonPath, unknown] = typeof original.arguments === 'string' ? [[...sub, 'arguments'], original.arguments]
      : typeof item.arguments === 'string' ? [['arguments'], item.arguments] : [[], undefined];
    if ((str(original.type) ?? item.name) === 'mcp_approval_request') {
      if (id !== undefined && this.approved.has(id)) return;
      if (this.call(ref, name, namePath, argsPath, args, 'string', id) && id !== undefined) this.requests.add(id);
      return;
    }
    const request = str(original.approval_request_id) ?? str(original.approvalRequestId);
    const answers = request !== undefined && this.requests.has(request) ? request : undefined;
    if (request !== undefined) this.approved.add(request);
    if (answers === undefined && !this.call(ref, name, namePath, argsPath, args, 'string', id)) return;
    // the JS SDK's wrapper may hold the output and the status, its providerData the rest of the item
    const view: Obj = item === original ? original : { ...original };
    if (view !== original) {
      if (item.output !== undefined) view.output = item.output;
      if (view.status === undefined && item.status !== undefined) view.status = item.status;
    }
    const outcome = mcpOutcome(view);
    if (!outcome) return;
    const outer = outcome.key === 'output' && view !== original && item.output !== undefined;
    this.result(ref, answers ?? id, outer ? ['output'] : [...sub, outcome.key], view[outcome.key], outcome.transport);
  }

  private readMcpTools(ref: NodeRef, tools: unknown): void {
    if (!Array.isArray(tools)) return;
    tools.forEach((t, i) => {
      const schema = isPlainObject(t) ? t.input_schema ?? t.inputSchema : undefined;
      if (isPlainObject(t) && typeof t.name === 'string' && isPlainObject(schema)) this.tools.push({ name: t.name, schema, at: at(ref, 'tools', i) });
    });
  }

  /** The recorded definitions, when they name every tool called (see the header). */
  finish(): SessionBuilder {
    const defined = new Set(this.tools.map((t) => t.name));
    if (this.b.session.calls.every((c) => defined.has(c.name))) {
      const kept = new Set<string>();
      for (const t of this.tools) {
        if (kept.has(t.name)) continue;
        kept.add(t.name);
        this.b.tool(t.name, t.schema, t.at);
      }
    }
    return this.b;
  }
}

function statesOf(doc: Doc): Located<Obj>[] {
  return findStates({ doc, path: [] }, doc.value, ENVELOPE_DEPTH, [], { left: ENVELOPE_BUDGET });
}

// ---- traces: what the SDK's tracing exports (`Span.export()`), written by a processor as JSONL or sent as
// `{data: [...]}`: `{object: "trace"}` records and `{object: "trace.span", id, trace_id, parent_id, span_data, error}`
// spans. A `function` span is one tool execution, call and result at once: `span_data.name`, `input` (the
// arguments as the model sent them, a JSON string), `output` (the tool's return, as text); the span's `error`
// (`{message, data}`) is the SDK's failure flag; a copy exported at the span's start (`ended_at: null`) is the same
// execution as its end's. One session per `trace_id`. Agent, response, generation, handoff
// and guardrail spans hold no tool traffic of their own (a generation span repeats the model's messages): not read.

function isSpan(v: unknown): v is Obj & { span_data: Obj } {
  return isPlainObject(v) && v.object === 'trace.span' && isPlainObject(v.span_data);
}

function isTraceRecord(v: unknown): boolean {
  return isSpan(v) || (isPlainObject(v) && v.object === 'trace' && typeof v.id === 'string');
}

/** A list of exported records (a processor's batch, the ingest payload's `data`, a dump's `spans`). */
function recordList(v: unknown): { list: unknown[]; path: JsonPath } | undefined {
  const ok = (list: unknown, path: JsonPath) =>
    Array.isArray(list) && list.length > 0 && list.every(isTraceRecord) && list.some(isSpan) ? { list, path } : undefined;
  if (Array.isArray(v)) return ok(v, []);
  if (!isPlainObject(v)) return undefined;
  return ok(v.data, ['data']) ?? ok(v.spans, ['spans']);
}

/** A function span as a call, and its result once the span ended. */
function readFunctionSpan(sink: LineSink, doc: Doc, span: Obj & { span_data: Obj }, ended: boolean): void {
  const b = sink.sessionFor(str(span.trace_id) ?? '');
  const id = str(span.id) ?? str(span.span_id);
  const data = span.span_data;
  const failed = span.error !== undefined && span.error !== null;
  b.call({ name: data.name as string, id, at: { doc, path: ['span_data'] }, namePath: ['name'], argsPath: ['input'],
    args: data.input ?? undefined, expect: 'string' }, b.newTurn());
  if (ended && ('output' in data || failed)) {
    b.result({ at: { doc, path: failed ? ['error'] : ['span_data'] }, callId: id, payload: failed ? span.error : data.output,
      payloadPath: failed ? [] : ['output'], transport: { isError: failed } });
  }
  b.breakTurn();
}

const traceLines: LineFormat = {
  claims: isSpan,
  accepts: isTraceRecord,
  open(sink) {
    // A processor may export a span when it starts (`ended_at: null`, no input or output yet) and again when it
    // ends, or twice at its end: one span id is one execution. A span seen only started is a call still running.
    const started = new Map<string, { doc: Doc; span: Obj & { span_data: Obj } }>();
    const done = new Set<string>();
    return {
      read(doc) {
        const span = doc.value;
        if (!isSpan(span) || span.span_data.type !== 'function' || typeof span.span_data.name !== 'string') return;
        const id = str(span.id) ?? str(span.span_id);
        if (id !== undefined) {
          if (done.has(id)) return;
          if (span.ended_at === null && (span.error === undefined || span.error === null)) {
            if (!started.has(id)) started.set(id, { doc, span });
            return;
          }
          started.delete(id);
          done.add(id);
        }
        readFunctionSpan(sink, doc, span, true);
      },
      finish() {
        for (const { doc, span } of started.values()) readFunctionSpan(sink, doc, span, false);
        started.clear();
      },
    };
  },
};

export const openaiAgents: FormatAdapter = {
  id: 'openai-agents',
  lines: traceLines,
  document: {
    claims(v) {
      return isState(v) || recordList(v) !== undefined || statesOf({ text: '', base: 0, value: v }).length > 0;
    },
    read(doc, emit) {
      const records = recordList(doc.value);
      if (records) {
        readAsLines(traceLines, records.list.map((r, i) => nodeDoc(doc, [...records.path, i], r)), emit);
        return;
      }
      for (const state of statesOf(doc)) {
        const reader = new StateReader();
        reader.readState(state, 0);
        emit(reader.finish().session);
      }
    },
  },
};
