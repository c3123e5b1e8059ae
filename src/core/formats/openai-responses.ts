// OpenAI Responses: a response object with `output`, a request with `input` items (or only messages, when it declares
// tools the Responses way), a log of both (`input` and `output`; or a record `{request, response}` of the two,
// exchange.ts), or a list (or JSONL) of items. A request
// that continues `previous_response_id` (or a `conversation`) answers calls made in that stored response: its
// outputs for calls the file does not hold are no orphans; nor are the server's outputs in a response's `output`
// (a `program_output` closing a program that an earlier response started).
// Calls: `function_call` (JSON-string `arguments`), `custom_tool_call` (free-form `input`), the built-in tools the
// item type names (`local_shell_call`, `shell_call`, `apply_patch_call`, `computer_call` with its `action`, or the
// GA tool's batch `actions`, `program`), MCP calls and approval requests, and hosted tools that run on the server and carry their own outcome (`web_search_call`,
// named `web_search` like its `tools[]` entry, `code_interpreter_call`, `tool_search_call`, `file_search_call` whose
// input is its `queries`, `image_generation_call` whose input is the prompt it ran with; one whose input is not
// recorded is not read, or every such call would look like the same call again). xAI writes its hosted calls
// (`web_search_call`, `code_interpreter_call`, `x_search_call`, ...) as function calls: the `name` of the tool it
// ran and JSON-string `arguments`; they get that name, declared by the `tools[]` entry that enabled them. It writes
// the steps of its built-in tools as `custom_tool_call`s named by no `tools[]` entry: once a `tools[]` enabling a
// built-in tool was read, such a call is the server's, run (its `completed` status the outcome); a search action
// that records only its kind (`query: ""`, no sources) is no input. The item tables (which items
// are calls, the tool names they get, which are outputs and how they pair) live here for every reader of
// Responses items (Codex rollouts, Agents SDK run states).
// Results pair by `call_id`: `function_call_output`, `custom_tool_call_output`, `computer_call_output`,
// `local_shell_call_output` (its `id` when it has no `call_id`), `shell_call_output` (exit codes, timeouts),
// `apply_patch_call_output`, `program_output`, `tool_search_output`. Error signals: `status: "failed"` or
// `"incomplete"` on any of them; `"completed"` says success only where the status reports the tool's outcome (a
// patch, a hosted or MCP call); an MCP call's `error`.
// Quirks: an `mcp_call` made after an `mcp_approval_request` (linked by `approval_request_id`) is that request's
// call, run: its outcome answers the request, it is not a second call; a refused approval (`mcp_approval_response`
// with `approve: false`) is an honest failure. An item met again (same type and `id`: a request that echoes the
// previous response's items, a stream's `done` event and its `response.completed`) is read once. Definitions:
// `tools[]` function tools, `mcp_list_tools`, and the built-in tools `tools[]` enables (by the name their calls
// get), so that a declared built-in is not an unknown tool.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { type ArgsExpectation, type CallInput, type NodeRef, type SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, markCallsElsewhere, num, str, unansweredByName, type Obj } from './util';
import { exchangeParts, isExchange } from './exchange';

// ---- the item tables: one home for every reader of Responses items (this adapter, Codex, the Agents SDK) ----------

export interface BuiltInCall {
  /** The tool name the call gets. */
  name: string;
  /** The item field holding its arguments. */
  args: string;
  /** Or, without that field, the item fields that together are its input (a GA computer call's batch `actions`). */
  inputs?: readonly string[];
  /** Its arguments are text by design (code), not JSON. */
  freeform?: boolean;
}

/** Calls the item type names (no `name` field): the tool name they get, and where their arguments are. */
export const BUILT_IN_CALLS: ReadonlyMap<string, BuiltInCall> = new Map([
  ['local_shell_call', { name: 'local_shell_call', args: 'action' }],
  ['shell_call', { name: 'shell', args: 'action' }],
  ['apply_patch_call', { name: 'apply_patch', args: 'operation' }],
  ['computer_call', { name: 'computer_call', args: 'action', inputs: ['actions'] }],
  ['program', { name: 'program', args: 'code', freeform: true }],
]);

export interface HostedCall {
  /** The tool name the call gets (the search is `web_search`, as its `tools[]` entry and Codex's tool name it). */
  name: string;
  /** The item field holding its input, when the item records one. */
  args?: string;
  /** Or the item fields that together are its input (no one field holds it): read as an object of those present. */
  inputs?: readonly string[];
  freeform?: boolean;
  /** The item field holding its outcome. */
  output?: string;
  /** The output item type that answers it by `call_id` (then the call item carries no outcome of its own). */
  answeredBy?: string;
}

/** Hosted tools: the server runs them, so the call item also carries the outcome (in `output` when it records
 *  one), except a tool search, answered by its own output item. */
export const HOSTED_CALLS: ReadonlyMap<string, HostedCall> = new Map<string, HostedCall>([
  ['web_search_call', { name: 'web_search', args: 'action' }],
  ['file_search_call', { name: 'file_search_call', inputs: ['queries'], output: 'results' }],
  ['code_interpreter_call', { name: 'code_interpreter_call', args: 'code', freeform: true, output: 'outputs' }],
  // the prompt and the settings the image was made with (the item echoes them; `result` is the image)
  ['image_generation_call', { name: 'image_generation_call', inputs: ['revised_prompt', 'size', 'quality', 'background', 'output_format'], output: 'result' }],
  ['tool_search_call', { name: 'tool_search_call', args: 'arguments', answeredBy: 'tool_search_output' }],
  // xAI's X search: its items name the search they ran (`x_semantic_search`, `x_keyword_search`)
  ['x_search_call', { name: 'x_search', args: 'arguments' }],
]);

/** The `tools[]` entry types of built-in and hosted tools, by the name their calls get. */
const TOOL_TYPES = new Map<string, string>([
  ['local_shell', 'local_shell_call'], ['shell', 'shell'], ['apply_patch', 'apply_patch'],
  ['computer', 'computer_call'], ['computer_use', 'computer_call'], ['computer_use_preview', 'computer_call'],
  ['programmatic_tool_calling', 'program'], ['code_interpreter', 'code_interpreter_call'], ['tool_search', 'tool_search_call'],
  ['file_search', 'file_search_call'], ['image_generation', 'image_generation_call'], ['x_search', 'x_search'],
]);

/** Output items: each answers the call with its `call_id`. */
export const OUTPUT_ITEMS: ReadonlySet<string> = new Set([
  'function_call_output', 'custom_tool_call_output', 'computer_call_output', 'local_shell_call_output', 'shell_call_output',
  'apply_patch_call_output', 'program_output', 'tool_search_output',
]);

/** Outputs whose `status: "completed"` reports the tool's outcome (elsewhere it is the item's own lifecycle). */
const OUTCOME_STATUS = new Set(['apply_patch_call_output']);

/** The call id an output answers: its `call_id` (`callId` in the JS SDK); a local shell output without one names
 *  the call by its `id`. */
export function outputCallId(item: Obj, type: string): string | undefined {
  return str(item.call_id) ?? str(item.callId) ?? (type === 'local_shell_call_output' ? str(item.id) : undefined);
}

/** The field holding an output's payload. */
export function outputKey(item: Obj, type: string): string {
  if ('output' in item) return 'output';
  if (type === 'program_output' && 'result' in item) return 'result';
  return type === 'tool_search_output' ? 'tools' : 'output';
}

/** An output's transport: a shell output's exit codes, else its `status` (`completed` says success where the status
 *  reports the tool's outcome; `completedIsOutcome` for a producer whose results get `completed` once the tool
 *  returned, as the Agents SDKs write it). */
export function outputSignals(item: Obj, type: string, completedIsOutcome = OUTCOME_STATUS.has(type)): TransportSignals {
  if (type === 'shell_call_output') return { ...shellSignal(item.output), ...statusSignal(item.status, false) };
  return statusSignal(item.status, completedIsOutcome);
}

/** What an `mcp_call` item says of its outcome: its `error` (a failure), else its `output`, with `status` failed or
 *  incomplete a failure (an `error` field or a status present: their word on success); undefined while it says
 *  nothing yet. */
export function mcpOutcome(item: Obj): { key: 'error' | 'output'; transport: TransportSignals } | undefined {
  if (item.error !== undefined && item.error !== null) return { key: 'error', transport: { isError: true } };
  const failed = item.status === 'failed' || item.status === 'incomplete';
  if (!('output' in item) && !failed && item.status !== 'completed') return undefined;
  return { key: 'output', transport: 'error' in item || item.status !== undefined ? { isError: failed } : {} };
}

/** The call an item makes by its own fields (a function call, a custom tool call with its free-form `input`, a
 *  built-in call with its arguments object, or its code as text), linked by its call id, else its id. */
export function itemCall(item: Obj, at: NodeRef, expect: ArgsExpectation): CallInput | undefined {
  const type = str(item.type);
  const id = str(item.call_id) ?? str(item.callId) ?? str(item.id);
  if (type === 'function_call' && typeof item.name === 'string') {
    return { name: item.name, id, at, namePath: ['name'], argsPath: ['arguments'], args: item.arguments, expect };
  }
  if (type === 'custom_tool_call' && typeof item.name === 'string') {
    return { name: item.name, id, at, namePath: ['name'], argsPath: ['input'], args: item.input, expect: 'any', freeform: typeof item.input === 'string' };
  }
  const spec = type === undefined ? undefined : BUILT_IN_CALLS.get(type);
  if (!spec) return undefined;
  const args = item[spec.args];
  const freeform = spec.freeform === true && typeof args === 'string';
  const fields = isPlainObject(args) || freeform ? undefined : fieldsInput(item, spec.inputs);
  if (fields) return { name: spec.name, id, at, namePath: ['type'], argsPath: [], args: fields, expect: 'any' };
  return { name: spec.name, id, at, namePath: ['type'], argsPath: [spec.args], args: isPlainObject(args) || freeform ? args : undefined, expect: 'any', freeform };
}

/** The item fields that together are a call's input, as an object of those present (located at the item: each is
 *  where the item has it); undefined when none is. */
function fieldsInput(item: Obj, keys: readonly string[] | undefined): Obj | undefined {
  if (keys === undefined) return undefined;
  const args: Obj = {};
  for (const k of keys) if (item[k] !== undefined && item[k] !== null) args[k] = item[k];
  return Object.keys(args).length > 0 ? args : undefined;
}

/** The call a hosted tool's output answers when it names none (a server-run tool search: by position). */
function hostedAnsweredBy(type: string): HostedCall | undefined {
  for (const spec of HOSTED_CALLS.values()) if (spec.answeredBy === type) return spec;
  return undefined;
}

const CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'mcp_call', 'mcp_approval_request', ...BUILT_IN_CALLS.keys(),
  ...[...HOSTED_CALLS].filter(([, spec]) => spec.args !== undefined || spec.inputs !== undefined).map(([type]) => type), ...OUTPUT_ITEMS]);
const ITEM_TYPES = new Set([...CALL_ITEMS, ...HOSTED_CALLS.keys(), 'message', 'reasoning', 'mcp_list_tools', 'mcp_approval_response', 'item_reference',
  'compaction']);

/** An item, or a request's message written without `type` (`{role, content}`). */
export function isResponsesItem(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  return typeof v.type === 'string' ? ITEM_TYPES.has(v.type) : typeof v.role === 'string' && 'content' in v;
}

/** An item type that makes a call (not a result). */
export function makesCall(type: unknown): boolean {
  return typeof type === 'string' && CALL_ITEMS.has(type) && !OUTPUT_ITEMS.has(type);
}

function isCallItem(v: unknown): boolean {
  return isPlainObject(v) && CALL_ITEMS.has(v.type as string);
}

function isWebSearch(type: string): boolean {
  return type === 'web_search' || type.startsWith('web_search_');
}

/** `status` as transport: failed or incomplete is a failure; completed a success where `outcome` says it is one. */
export function statusSignal(status: unknown, outcome: boolean): TransportSignals {
  if (status === 'failed' || status === 'incomplete') return { isError: true };
  return outcome && status === 'completed' ? { isError: false } : {};
}

/** A shell call's outcomes: the first non-zero exit code (else 0); a timeout is a failure. */
function shellSignal(output: unknown): TransportSignals {
  if (!Array.isArray(output)) return {};
  let exitCode: number | undefined;
  for (const o of output) {
    const outcome = isPlainObject(o) && isPlainObject(o.outcome) ? o.outcome : undefined;
    if (outcome?.type === 'timeout') return { isError: true };
    const code = num(outcome?.exit_code ?? outcome?.exitCode);
    if (code !== undefined && (exitCode === undefined || exitCode === 0)) exitCode = code;
  }
  return exitCode === undefined ? {} : { exitCode };
}

/** An action that records only its kind (`{type: "search", query: "", sources: []}`, xAI's searches): no input. */
function onlyKind(v: Obj): boolean {
  if (typeof v.type !== 'string') return false;
  for (const [k, x] of Object.entries(v)) {
    if (k !== 'type' && x !== null && x !== '' && !(Array.isArray(x) && x.length === 0)) return false;
  }
  return true;
}

interface HostedInput {
  /** The call's name: the tool the item names (xAI), else the table's. */
  name: string;
  named: boolean;
  args: unknown;
  argsPath: JsonPath;
  expect: ArgsExpectation;
  freeform: boolean;
}

/** A hosted call's input, undefined when the item records none: xAI's function-call layout (the tool's `name`,
 *  JSON-string `arguments`); the field the table names (an object, or code as text); or the fields that together
 *  are its input, as an object of those present (located at the item: each is where the item has it). */
function hostedInput(item: Obj, spec: HostedCall): HostedInput | undefined {
  if (typeof item.name === 'string' && item.name !== '' && typeof item.arguments === 'string') {
    return { name: item.name, named: true, args: item.arguments, argsPath: ['arguments'], expect: 'string', freeform: false };
  }
  if (spec.args !== undefined) {
    const v = item[spec.args];
    const freeform = spec.freeform === true && typeof v === 'string';
    if (freeform || isPlainObject(v) && !onlyKind(v)) return { name: spec.name, named: false, args: v, argsPath: [spec.args], expect: 'any', freeform };
  }
  const args = fieldsInput(item, spec.inputs);
  return args ? { name: spec.name, named: false, args, argsPath: [], expect: 'any', freeform: false } : undefined;
}

/** One session's Responses items: the items read so far (copies are read once) and the MCP approval requests. */
class ResponsesItems {
  private readonly seen = new Set<string>();
  /** Approval requests read as calls (by request id); an mcp_call that runs one answers it. */
  private readonly requests = new Set<string>();
  /** Outputs without an item id, by call id: an output met again with the very same payload is a copy. */
  private readonly outputs = new Map<string, unknown[]>();
  /** MCP calls by server, for servers `tools[]` declares without listing their tools. */
  readonly mcpCalls: { name: string; server: string }[] = [];
  /** The `tools[]` entries of built-in and hosted tools, by the name their calls get; `toolsRead` once a `tools[]`
   *  was read (then a custom tool it does not declare is no client's). */
  readonly enabled = new Map<string, NodeRef>();
  toolsRead = false;

  constructor(private readonly b: SessionBuilder) {}

  item(doc: Doc, path: JsonPath, item: Obj, expect: ArgsExpectation): void {
    const type = str(item.type) ?? (typeof item.role === 'string' ? 'message' : '');
    const id = str(item.id);
    if (id !== undefined) {
      const key = `${type}:${id}`;
      if (this.seen.has(key)) return; // a copy of an item already read
      this.seen.add(key);
    }
    const b = this.b;
    const at: NodeRef = { doc, path };
    const call = itemCall(item, at, expect);
    if (call && type === 'custom_tool_call' && this.serverRuns(call.name)) {
      this.serverCustomCall(at, item, call);
    } else if (call) {
      b.call(call);
    } else if (HOSTED_CALLS.has(type)) {
      this.hosted(at, item, type, HOSTED_CALLS.get(type)!);
    } else if (type === 'mcp_approval_request' && typeof item.name === 'string') {
      b.call({ name: item.name, id, at, namePath: ['name'], argsPath: ['arguments'], args: item.arguments, expect });
      if (id !== undefined) this.requests.add(id);
      this.noteServer(item);
    } else if (type === 'mcp_call' && typeof item.name === 'string') {
      this.mcpCall(at, item, expect);
    } else if (type === 'mcp_list_tools' && Array.isArray(item.tools)) {
      item.tools.forEach((t, i) => {
        if (isPlainObject(t) && typeof t.name === 'string' && 'input_schema' in t) b.tool(t.name, t.input_schema, { doc, path: [...path, 'tools', i] });
      });
    } else if (OUTPUT_ITEMS.has(type)) {
      this.output(at, item, type);
    } else if (type === 'mcp_approval_response') {
      // a refused approval: the requested call never ran, an honest failure; an approval is answered by its mcp_call
      const request = str(item.approval_request_id);
      if (item.approve === false && request !== undefined) {
        b.result({ at, callId: request, payload: item.reason, payloadPath: ['reason'], transport: { isError: true } });
      }
      b.breakTurn();
    } else if (type === 'message') {
      // an assistant `message` keeps its `output_text` parts: a call item after it (the same response) drops them
      if (item.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, item.content);
      else b.breakTurn();
    }
    // reasoning, item references, compaction: not messages of their own
  }

  private output(at: NodeRef, item: Obj, type: string): void {
    const callId = outputCallId(item, type);
    const key = outputKey(item, type);
    if (callId !== undefined && item.id === undefined) {
      const seen = this.outputs.get(`${type}:${callId}`);
      if (seen?.includes(item[key])) return; // the same output again (a request that echoes the earlier input)
      if (seen) seen.push(item[key]);
      else this.outputs.set(`${type}:${callId}`, [item[key]]);
    }
    // a server-run tool search has no call ids: its output answers the search before it
    const answers = callId === undefined ? hostedAnsweredBy(type) : undefined;
    const callIndex = answers ? unansweredByName(this.b, answers.name) : undefined;
    this.b.result({ at, callId, callIndex, payload: item[key], payloadPath: [key], transport: outputSignals(item, type) });
    this.b.breakTurn();
  }

  /** A hosted call: its outcome is in the item once it finished (`completed`, `failed`); still running, no result.
   *  Without its input it is not read (every such call would fingerprint alike). */
  private hosted(at: NodeRef, item: Obj, type: string, spec: HostedCall): void {
    const input = hostedInput(item, spec);
    if (!input) return;
    // one answered by an output item pairs with it by call_id (null for both when the server ran it: by position)
    const id = spec.answeredBy ? str(item.call_id) : str(item.id);
    if (input.named) this.declare(input.name, this.enabled.get(spec.name));
    this.b.call({ name: input.name, id, at, namePath: input.named ? ['name'] : ['type'], argsPath: input.argsPath, args: input.args,
      expect: input.expect, freeform: input.freeform });
    const status = str(item.status);
    if (spec.answeredBy || (status !== 'completed' && status !== 'failed' && status !== 'incomplete')) return;
    const output = spec.output !== undefined && item[spec.output] !== undefined && item[spec.output] !== null ? spec.output : undefined;
    this.b.result({ at, callId: id, callIndex: id === undefined ? this.b.session.calls.length - 1 : undefined,
      payload: output === undefined ? undefined : item[output], payloadPath: output === undefined ? undefined : [output],
      transport: statusSignal(status, true) });
    this.b.breakTurn();
  }

  /** Whether a custom tool call is the server's own: xAI writes the steps of its built-in tools (X search's
   *  `x_keyword_search`, `view_x_video`) as custom tool calls, named by no `tools[]` entry while one enables a
   *  built-in tool (a client's custom tool is always declared there). */
  private serverRuns(name: string): boolean {
    return this.toolsRead && this.enabled.size > 0 && !this.b.session.tools.some((t) => t.name === name);
  }

  /** A custom tool call the server ran: declared by the entry that enabled it, finished (`completed`) it ran. */
  private serverCustomCall(at: NodeRef, item: Obj, call: CallInput): void {
    this.declare(call.name, this.enabled.values().next().value);
    this.b.call(call);
    const status = str(item.status);
    if (status !== 'completed' && status !== 'failed' && status !== 'incomplete') return;
    this.b.result({ at, callId: call.id, transport: statusSignal(status, true) });
    this.b.breakTurn();
  }

  /** Declare a tool known only by its calls, by the `tools[]` entry at `by` (none: not declared). */
  private declare(name: string, by: NodeRef | undefined): void {
    if (by && !this.b.session.tools.some((t) => t.name === name)) this.b.tool(name, undefined, by);
  }

  /** An MCP call and its outcome (`output`, or `error`), in one item; run after an approval request, it answers it. */
  private mcpCall(at: NodeRef, item: Obj, expect: ArgsExpectation): void {
    const b = this.b;
    const id = str(item.id);
    const request = str(item.approval_request_id);
    const answers = request !== undefined && this.requests.has(request) ? request : undefined;
    if (answers === undefined) {
      b.call({ name: item.name as string, id, at, namePath: ['name'], argsPath: ['arguments'], args: item.arguments, expect });
      this.noteServer(item);
    }
    const outcome = mcpOutcome(item);
    if (outcome) b.result({ at, callId: answers ?? id, payload: item[outcome.key], payloadPath: [outcome.key], transport: outcome.transport });
    b.breakTurn();
  }

  private noteServer(item: Obj): void {
    const server = str(item.server_label);
    if (server !== undefined) this.mcpCalls.push({ name: item.name as string, server });
  }
}

const readers = new WeakMap<SessionBuilder, ResponsesItems>();

function itemsFor(b: SessionBuilder): ResponsesItems {
  let r = readers.get(b);
  if (!r) readers.set(b, (r = new ResponsesItems(b)));
  return r;
}

/** Read one Responses item into `b`'s session (which remembers the items read, so a copy is read once).
 *  Consecutive call items are one turn. `expect` is how arguments are sent (exporters that decoded them already
 *  pass 'any'). */
export function readResponsesItem(b: SessionBuilder, doc: Doc, path: JsonPath, item: Obj, expect: ArgsExpectation = 'string'): void {
  itemsFor(b).item(doc, path, item, expect);
}

/** Definitions in a request's `tools[]`: function tools with their parameters (also inside a `namespace` entry's
 *  `tools`); custom tools (free-form, no schema); the built-in and hosted tools it enables, by the name their calls get (no schema: their input is the
 *  platform's). */
export function readResponsesTools(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  const items = itemsFor(b);
  items.toolsRead = true;
  tools.forEach((t, i) => {
    if (!isPlainObject(t) || typeof t.type !== 'string') return;
    const at = { doc, path: [...path, i] };
    const enabled = enabledName(t.type);
    if (t.type === 'function' && typeof t.name === 'string') b.tool(t.name, t.parameters, at);
    else if (t.type === 'custom' && typeof t.name === 'string') b.tool(t.name, undefined, at);
    // a namespace groups tools (its calls name the tool and the `namespace`): they are declared by their names
    else if (t.type === 'namespace' && Array.isArray(t.tools)) readResponsesTools(b, doc, [...path, i, 'tools'], t.tools);
    else if (enabled !== undefined) {
      b.tool(enabled, undefined, at);
      if (!items.enabled.has(enabled)) items.enabled.set(enabled, at);
    }
  });
}

/** The name the calls of a `tools[]` entry's built-in or hosted tool get. */
function enabledName(type: string): string | undefined {
  return isWebSearch(type) ? HOSTED_CALLS.get('web_search_call')!.name : TOOL_TYPES.get(type);
}

/** MCP servers `tools[]` declares: their tools, known only by the calls made to them when no `mcp_list_tools`
 *  listed them, are declared by that entry. */
function declareMcpTools(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  const calls = readers.get(b)?.mcpCalls;
  if (!Array.isArray(tools) || !calls?.length) return;
  const defined = new Set(b.session.tools.map((t) => t.name));
  for (const { name, server } of calls) {
    if (defined.has(name)) continue;
    const i = tools.findIndex((t) => isPlainObject(t) && t.type === 'mcp' && t.server_label === server);
    if (i < 0) continue;
    defined.add(name);
    b.tool(name, undefined, { doc, path: [...path, i] });
  }
}

/** The item lists of a document: a request's `input`, then a response's (or a log's) `output`. */
function itemsOf(v: unknown): { list: unknown[]; key?: string }[] {
  if (Array.isArray(v)) return [{ list: v }];
  if (!isPlainObject(v)) return [];
  const out: { list: unknown[]; key?: string }[] = [];
  if (Array.isArray(v.input) && v.input.some(isCallItem)) out.push({ list: v.input, key: 'input' });
  if (Array.isArray(v.output) && (v.object === 'response' || v.output.some(isCallItem))) out.push({ list: v.output, key: 'output' });
  return out;
}

function isResponseObject(v: unknown): boolean {
  return isPlainObject(v) && v.object === 'response' && Array.isArray(v.output);
}

/** A request body: `input` text or items (and the model or tools it asks with). */
function isResponsesRequest(v: unknown): boolean {
  if (!isPlainObject(v) || !('model' in v || 'tools' in v)) return false;
  return typeof v.input === 'string' || (Array.isArray(v.input) && v.input.every(isResponsesItem));
}

/** A request that makes no call yet but declares its tools the Responses way (a function tool's `name` on the entry
 *  itself, not under `function` as Chat Completions writes it): its definitions are the conversation's (the first
 *  request of a recorded exchange). */
function declaresResponsesTools(v: unknown): boolean {
  if (!isResponsesRequest(v) || !Array.isArray((v as Obj).tools)) return false;
  const tools = (v as Obj).tools as unknown[];
  return tools.length > 0 && tools.every((t) => isPlainObject(t) && typeof t.type === 'string' && !('function' in t))
    && tools.some((t) => isPlainObject(t) && (t.type === 'function' && typeof t.name === 'string' || enabledName(t.type as string) !== undefined));
}

/** A response, a request, or a log of both. */
function readResponsesDocument(b: SessionBuilder, doc: Doc): void {
  const v = doc.value;
  const resultsBefore = b.session.results.length;
  if (isPlainObject(v)) readResponsesTools(b, doc, ['tools'], v.tools);
  for (const found of itemsOf(v)) {
    found.list.forEach((item, i) => {
      if (isResponsesItem(item)) readResponsesItem(b, doc, found.key ? [found.key, i] : [i], item);
    });
  }
  if (isPlainObject(v)) declareMcpTools(b, doc, ['tools'], v.tools);
  // a request that continues a stored response (or conversation) sends outputs for calls made there, not here;
  // a response's own `output` holds only the server's outputs (a `program_output` after the client ran the
  // program's tool calls), for calls it made in an earlier turn when not in this one
  const continues = isPlainObject(v) && (typeof v.previous_response_id === 'string' || v.conversation !== undefined && v.conversation !== null);
  if (continues || isResponseObject(v) && !('input' in (v as Obj))) markCallsElsewhere(b, resultsBefore);
}

export const openaiResponses: FormatAdapter = {
  id: 'openai-responses',
  document: {
    claims(v) {
      if (isResponseObject(v) || isExchange(v, isResponsesRequest, isResponseObject) || declaresResponsesTools(v)) return true;
      const found = itemsOf(v);
      return found.length > 0 && found.every((f) => f.list.length > 0 && f.list.every(isResponsesItem)) && found.some((f) => f.list.some(isCallItem));
    },
    read(doc, emit) {
      singleSession((b) => {
        for (const part of exchangeParts(doc, isResponsesRequest, isResponseObject)) readResponsesDocument(b, part);
      }, emit);
    },
  },
  lines: {
    claims: isCallItem,
    accepts: isResponsesItem,
    open: ({ builder }) => ({ read: (doc) => readResponsesItem(builder, doc, [], doc.value as Obj) }),
  },
};

/** A `custom_tool_call`: its `input` is free-form text (a grammar's language, e.g. a patch), not JSON. */
export function readCustomToolCall(b: SessionBuilder, doc: Doc, path: JsonPath, item: Obj): void {
  const call = item.type === 'custom_tool_call' ? itemCall(item, { doc, path }, 'any') : undefined;
  if (call) b.call(call);
}
