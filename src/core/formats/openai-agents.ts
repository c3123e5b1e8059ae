// OpenAI Agents SDK run states: a serialized `RunState` (`$schemaVersion` 1.x) from the Python SDK (snake_case:
// `generated_items`, `raw_item`, `call_id`, `model_responses`, `last_model_response`) or the JS SDK (camelCase:
// `generatedItems`, `rawItem`, `callId`, `modelResponses`, `lastModelResponse`, results as `function_call_result`
// with a `status`). A state may be the whole file, a JSON string, or sit in an envelope ({state: ...}, a list of
// saved states): each such state is a session. States nested in a state (an agent-as-tool run awaiting approval,
// `pendingAgentToolRuns`, stored as JSON strings) belong to the session of the state that holds them.
// Calls: function_call, custom_tool_call (free-form input), computer_call, shell_call, local_shell_call,
// apply_patch_call, program (programmatic tool calling, free-form code), MCP calls and approval requests, hosted
// tool calls (web/file search, code interpreter, image generation; the JS SDK wraps them as `hosted_tool_call`,
// MCP ones with the real tool in `providerData`); a hosted call carries its own result. Results pair by call id:
// function_call_output / function_call_result, custom_tool_call_output, computer_call_output / _result,
// local_shell_call_output (linked by `id`), shell_call_output (exit codes, timeouts), apply_patch_call_output and
// program_output (`status` failed / incomplete is an error).
// Quirks: one call is recorded in several places (original input, generated and session items, the processed
// response, interruptions, every model response): it is read once, where it first appears, so an approval's
// argument override does not replace what the model sent. Tool definitions (the processed response's function
// tools, MCP tool lists) cover only some tools: they are kept only when they name every tool the session calls,
// or a tool merely absent from them would be reported as unknown.
import type { FormatAdapter } from './adapter';
import { SessionBuilder, type NodeRef } from './builder';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { at, isPlainObject, jsonIn, num, str, type Located, type Obj } from './util';

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

/** `o[camel]` or `o[snake]`, with the key that held it. */
function field(o: unknown, camel: string, snake: string): { key: string; value: unknown } | undefined {
  if (!isPlainObject(o)) return undefined;
  if (camel in o) return { key: camel, value: o[camel] };
  if (snake in o) return { key: snake, value: o[snake] };
  return undefined;
}

function callIdOf(item: Obj): string | undefined {
  return str(item.callId) ?? str(item.call_id);
}

const FAILED = new Set(['failed', 'incomplete']);

function statusSignal(status: unknown): TransportSignals {
  if (status === 'completed') return { isError: false };
  return typeof status === 'string' && FAILED.has(status) ? { isError: true } : {};
}

/** A shell call's outcomes: the first non-zero exit code (else 0), a timeout as an error. */
function shellSignal(output: unknown): TransportSignals {
  if (!Array.isArray(output)) return {};
  let exitCode: number | undefined;
  for (const o of output) {
    const outcome = isPlainObject(o) && isPlainObject(o.outcome) ? o.outcome : undefined;
    if (outcome?.type === 'timeout') return { isError: true };
    const code = num(outcome?.exitCode ?? outcome?.exit_code);
    if (code !== undefined && (exitCode === undefined || exitCode === 0)) exitCode = code;
  }
  return exitCode === undefined ? {} : { exitCode };
}

/** Calls the Responses API defines by item type (no `name`): the tool name the SDKs give them. */
const BUILT_IN = new Map<string, { name: string; args: string; freeform?: boolean }>([
  ['computer_call', { name: 'computer_call', args: 'action' }],
  ['shell_call', { name: 'shell', args: 'action' }],
  ['local_shell_call', { name: 'local_shell_call', args: 'action' }],
  ['apply_patch_call', { name: 'apply_patch', args: 'operation' }],
  ['program', { name: 'program', args: 'code', freeform: true }],
]);

/** Hosted tools the platform runs (Python items; the JS SDK names a `hosted_tool_call` after them). */
const HOSTED = new Map<string, { args?: string; freeform?: boolean; output?: string }>([
  ['web_search_call', { args: 'action' }],
  ['file_search_call', { output: 'results' }],
  ['code_interpreter_call', { args: 'code', freeform: true, output: 'outputs' }],
  ['image_generation_call', { output: 'result' }],
]);

const RESULT_TYPES = new Set([
  'function_call_output', 'function_call_result', 'custom_tool_call_output', 'computer_call_output', 'computer_call_result',
  'local_shell_call_output', 'shell_call_output', 'apply_patch_call_output', 'program_output',
]);

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
    for (const [camel, snake] of [['generatedItems', 'generated_items'], ['sessionItems', 'session_items']]) {
      const f = field(s, camel, snake);
      if (f && Array.isArray(f.value)) this.readList(at(ref, f.key), f.value, true);
    }
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
    if (!this.first(id === undefined ? undefined : 'call:' + id)) return false;
    this.b.call({ name, id, at: ref, namePath, argsPath, args, expect, freeform: freeform && typeof args === 'string' });
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
    const id = callIdOf(item);
    if (type === 'function_call' && typeof item.name === 'string') {
      this.call(ref, item.name, ['name'], ['arguments'], item.arguments, 'string', id ?? str(item.id));
    } else if (type === 'custom_tool_call' && typeof item.name === 'string') {
      this.call(ref, item.name, ['name'], ['input'], item.input, 'any', id ?? str(item.id), true);
    } else if (BUILT_IN.has(type)) {
      this.readBuiltIn(ref, item, type, id ?? str(item.id));
    } else if (RESULT_TYPES.has(type)) {
      this.readResult(ref, item, type, id);
    } else if (type === 'hosted_tool_call') {
      this.readHosted(ref, item);
    } else if (type === 'mcp_call' || type === 'mcp_approval_request') {
      this.readMcp(ref, item, [], item);
    } else if (type === 'mcp_list_tools') {
      this.readMcpTools(ref, item.tools);
    } else if (HOSTED.has(type)) {
      this.readHostedCall(ref, item, type, [], item);
    }
  }

  /** A call the item type names (a shell command, a patch, a program): its action object, or its code as text. */
  private readBuiltIn(ref: NodeRef, item: Obj, type: string, id: string | undefined): void {
    const spec = BUILT_IN.get(type);
    if (!spec) return;
    const args = item[spec.args];
    const usable = isPlainObject(args) || (spec.freeform === true && typeof args === 'string');
    this.call(ref, spec.name, ['type'], [spec.args], usable ? args : undefined, 'any', id, spec.freeform);
  }

  private readResult(ref: NodeRef, item: Obj, type: string, id: string | undefined): void {
    const callId = id ?? (type === 'local_shell_call_output' ? str(item.id) : undefined);
    const key = 'output' in item || type !== 'program_output' ? 'output' : 'result';
    const transport = type === 'shell_call_output' ? shellSignal(item.output) : statusSignal(item.status);
    this.result(ref, callId, [key], item[key], transport);
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
  private readHostedCall(ref: NodeRef, item: Obj, name: string, sub: JsonPath, original: Obj): void {
    const spec = HOSTED.get(name) ?? {};
    const id = str(item.id) ?? str(original.id);
    const stringArgs = typeof item.arguments === 'string';
    const argsPath: JsonPath = stringArgs ? ['arguments'] : spec.args ? [...sub, spec.args] : [];
    let args = stringArgs ? item.arguments : spec.args ? original[spec.args] : undefined;
    const freeform = spec.freeform === true && !stringArgs && typeof args === 'string';
    if (!stringArgs && !freeform && !isPlainObject(args)) args = undefined;
    if (!this.call(ref, name, sub.length ? ['name'] : ['type'], argsPath, args, stringArgs ? 'string' : 'any', id, freeform)) return;
    const status = str(item.status) ?? str(original.status);
    let output: { path: JsonPath; value: unknown } | undefined;
    if (item.output !== undefined && item.output !== null) output = { path: ['output'], value: item.output };
    else if (spec.output && original[spec.output] !== undefined) output = { path: [...sub, spec.output], value: original[spec.output] };
    if (status !== 'completed' && status !== 'failed' && !output) return; // still running
    this.result(ref, id, output?.path ?? [], output?.value, statusSignal(status));
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
    const callId = answers ?? id;
    const error = original.error ?? undefined;
    const failed = (error !== undefined && error !== null) || original.status === 'failed' || item.status === 'failed';
    if (error !== undefined && error !== null) this.result(ref, callId, [...sub, 'error'], error, { isError: true });
    else if (item.output !== undefined) this.result(ref, callId, ['output'], item.output, { isError: failed });
    else if (original.output !== undefined) this.result(ref, callId, [...sub, 'output'], original.output, { isError: failed });
    else if ('error' in original || failed) this.result(ref, callId, [], undefined, { isError: failed });
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

export const openaiAgents: FormatAdapter = {
  id: 'openai-agents',
  document: {
    claims(v) {
      return isState(v) || statesOf({ text: '', base: 0, value: v }).length > 0;
    },
    read(doc, emit) {
      for (const state of statesOf(doc)) {
        const reader = new StateReader();
        reader.readState(state, 0);
        emit(reader.finish().session);
      }
    },
  },
};
