// The shape reader of last resort (`generic`): asked only when no format adapter claims anything in a file (or when
// forced with `--read-as generic`). It walks the JSON of a document, or of each JSONL line, at any depth (strings
// that hold JSON are walked too, through docs that map back to the file), for the shapes every format uses:
// - a CALL: an object with a tool name (`name`, `toolName`, `tool_name`, `tool`, `recipient_name`, `function` as a
//   string, `function.name`, `functionCall.name`, `type: "tool-<name>"`, ...) and arguments (`arguments`, `args`,
//   `input`, `parameters`, `toolInput`, `kwargs`, `state.input`, ...). A definition (a name with a JSON Schema) and
//   prose (`{"name": "Ada Lovelace", "input": "hello"}`) are not calls: a bare `name` needs an identifier-like name
//   and object arguments, and no record type that says it is something else (a span, a generation, a message);
// - a RESULT: an object that names its call through an explicit key (`tool_call_id`, `tool_use_id`, `toolUseId`,
//   `call_id`, `callId`, `toolCallId`, `tool_call_ids[]`, `source_call_id`, `id` of a `functionResponse` or of a
//   `tool_result`-typed block, ...) and carries a payload or an error signal; or a payload nested in its call
//   (`result`, `output`, `state.output`, `response`, ...). Error signals (`is_error`, `isError`, `error`, `status`
//   "error"/"failed", `success: false`, `exit_code`) become transport;
// - a DEFINITION: a name with a schema (`input_schema`, `inputSchema` (`.json`), `parametersJsonSchema`,
//   `json_schema`, or `parameters` that is a JSON Schema).
// Copies of one call count once. The same call id for the same tool again (a call in `messages` and again in
// `events`, a run state's snapshots, a streamed "added" item and its "done", which completes arguments the first
// copy did not have yet) is one call; the same id for another tool is another call. Without a shared id, the same
// tool with the same canonical arguments is a copy when it sits in another structure (a path of another shape: an
// events mirror, an observation beside its generation) or at the same place in another copy of one structure (the
// history each request repeats: same shape, same message and call index), and a new call otherwise (a repeat
// within one history is what duplicate-fingerprint is for).
// Pairing is only what the file states: a result is read when its link names a call the walk saw, or when it sits
// inside its call. A call without a result may have been answered in a way the walk cannot see (by position, by
// a key of its own format), so the session says its links are only those stated (`linksStated`): the results it
// linked are kept, orphan-call stays quiet, and orphan-result cannot fire (only linked results are recorded).
// Sessions: one per document or per JSONL file, split by the conversation records name (`sessionId`, `thread_id`,
// failing those `traceId`); a JSONL line that is a whole conversation (`{messages: [...]}`) is a session of its own.
// The walk is linear: one visit per node (the claim's walk is kept for the read that follows), no copies of paths
// except where a find is recorded, canonical arguments only for tools called more than once, and a depth limit
// against hostile nesting.
import type { FormatAdapter, LineSink } from './adapter';
import { decodeArguments, SessionBuilder } from './builder';
import { valueKey } from '../fingerprint';
import type { Session, ToolCall, ToolResult, TransportSignals } from '../model';
import { embeddedDoc, topDoc, type Doc, type JsonPath } from '../parse/doc';
import { isPlainObject, type Obj } from './util';

/** Containers deeper than this are not walked (hostile nesting; real traces stay far below). */
const MAX_DEPTH = 128;
/** Strings holding JSON are walked to this many levels of encoding. */
const MAX_STRING_DEPTH = 4;

// Names of a call's tool, by strength: these keys say "tool" by themselves; a bare `name` needs more evidence.
const STRONG_NAME_KEYS = ['toolName', 'tool_name', 'functionName', 'function_name', 'recipient_name', 'gen_ai.tool.name', 'tool', 'function'];
/** Objects that hold a call's name (and maybe its arguments and id) one level down. */
const NAME_HOLDERS = ['function', 'functionCall', 'function_call', 'toolCall', 'tool_call'];
// `gen_ai.tool.call.arguments` and `tool_arguments` are OTel GenAI span attributes (flat keys)
const ARG_KEYS = ['arguments', 'args', 'input', 'parameters', 'toolInput', 'tool_input', 'tool_args', 'tool_arguments', 'gen_ai.tool.call.arguments', 'inputParams', 'kwargs'];
/** Argument keys that take only an object (or a string holding one): common words elsewhere. */
const OBJECT_ARG_KEYS = new Set(['input', 'parameters', 'inputParams', 'kwargs']);
/** A call's own id (on a call), or the id of the call it answers (on anything else). */
const CALL_ID_KEYS = ['call_id', 'callId', 'callID', 'tool_call_id', 'toolCallId', 'toolCallID', 'tool_use_id', 'toolUseId', 'toolUseID', 'gen_ai.tool.call.id'];
const LINK_KEYS = [...CALL_ID_KEYS, 'source_call_id', 'custom_tool_use_id'];
/** Keys whose array elements are calls. */
const CALL_LISTS = new Set(['tool_calls', 'toolCalls', 'tool_uses', 'toolUses', 'function_calls', 'functionCalls', 'calls', 'toolRequests']);
/** Keys whose object answers a call by its `id`. */
const RESULT_HOLDERS = new Set(['functionResponse', 'function_response', 'toolResponse', 'tool_response', 'functionResult', 'function_result']);
/** A call's result, when it is recorded inside the call. */
const NESTED_RESULT_KEYS = ['result', 'output', 'response', 'toolResult', 'tool_result', 'functionResponse', 'observation', 'return_value', 'tool_response', 'gen_ai.tool.call.result'];
/** A result's payload. */
const PAYLOAD_KEYS = ['content', 'output', 'result', 'response', 'toolResult', 'observation', 'return_value', 'stdout', 'parts'];
/** Keys of a record (a span, an observation, an event): an `id` beside them names the record, not the call. */
const RECORD_KEYS = ['traceId', 'trace_id', 'parentObservationId', 'parent_id', 'parentId', 'span_id', 'spanId', 'startTime', 'start_time', 'projectId'];
/** Keys that may hold a definition's result schema. */
const RESULT_SCHEMA_KEYS = ['outputSchema', 'output_schema', 'resultSchema'];
/** Text a model wrote: JSON in it is a call written as text (call-in-text), not a call that ran. */
const TEXT_KEYS = new Set(['text', 'content', 'thinking', 'reasoning', 'signature', 'encrypted_content']);

/** Keys by which records name their conversation (a Claude Code line's `sessionId`, a thread), and, failing those,
 *  their trace (an OTel span's `traceId`): the outermost such record around a find says which session it is in. */
const SESSION_KEYS = ['sessionId', 'session_id', 'conversationId', 'conversation_id', 'threadId', 'thread_id'];
const TRACE_KEYS = ['traceId', 'trace_id'];

const TOOLISH = /tool|function|call|mcp|command/i;
const RESULT_TYPE = /(tool|function|call).?(result|response|return|output)/i;
/** Record kinds that are not tool calls, though they have a name and an input (spans, observations, messages). */
const NOT_A_TOOL = /^(generation|span|agent|chain|llm|retriever|embedding|reranker|guardrail|evaluator|event|trace|workflow|message|text|user|assistant|system|human|ai|chat|prompt|completion|thinking|reasoning|model|task)$/i;
const IDENTIFIER = /^[A-Za-z_$][\w$.:/@-]{0,127}$/;
const FAILED = /^(error|errored|failed|failure|fail)$/i;
const SUCCEEDED = /^(success|succeeded|successful|ok|completed|complete|done)$/i;

/** Where a walk is: the doc chain's path shape and last array indices (for copies), as a prefix. */
interface Chain {
  /** The path shape of the nodes that lead to this doc (indices as `#`, string boundaries as `>`). */
  readonly shape: string;
  /** The last (up to two) array indices on the way to this doc, outermost first. */
  readonly slots: readonly number[];
}

const TOP: Chain = { shape: '', slots: [] };

/** What a call object says of itself: its name and arguments (paths relative to it), its id. */
interface CallFields {
  name: string;
  namePath: JsonPath;
  argsPath: JsonPath;
  args: unknown;
  id?: string;
  /** The id is the call's own (a call-id key, or `id` of a call block); a weak id may be a record's. */
  strongId: boolean;
  freeform: boolean;
}

interface CallSite extends CallFields {
  order: number;
  doc: Doc;
  path: JsonPath;
  nested?: ResultSite;
  /** The path shape and the last array indices of the nodes that lead to the call's doc (see Chain). */
  chainShape: string;
  chainSlots: readonly number[];
  /** The JSONL line the call is on (0-based), as the outermost index. */
  line?: number;
  /** The conversation the call belongs to, as the records around it name it ('' when none does). */
  session: string;
  /** The id of an earlier record of this very call (a hosted MCP call names the approval request it ran after). */
  earlierId?: string;
}

interface ResultSite {
  order: number;
  session: string;
  doc: Doc;
  path: JsonPath;
  links: string[];
  payloadPath?: JsonPath;
  payload?: unknown;
  transport: TransportSignals;
}

interface ToolSite {
  session: string;
  doc: Doc;
  path: JsonPath;
  name: string;
  schema: unknown;
  resultSchema?: unknown;
}

/** What a walk found. */
interface Finds {
  calls: CallSite[];
  results: ResultSite[];
  tools: ToolSite[];
}

function idOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function firstKey(o: Obj, keys: readonly string[]): string | undefined {
  for (const k of keys) if (o[k] !== undefined) return k;
  return undefined;
}

/** The key of an object's arguments: `parameters` that is a schema, or sits beside a description, is a definition's. */
function argsKeyOf(o: Obj): string | undefined {
  for (const k of ARG_KEYS) {
    if (o[k] === undefined) continue;
    if (k === 'parameters' && (schemaLike(o.parameters) || o.description !== undefined)) continue;
    return k;
  }
  return undefined;
}

/** The record kind an object states (`type`, `kind`, `role`, `event`, a span kind ...), if any. */
function kindOf(o: Obj): string | undefined {
  const k = o.type ?? o.kind ?? o.part_kind ?? o.event ?? o.role ?? o.run_type ?? o.span_kind ?? o.observationType;
  return typeof k === 'string' ? k : undefined;
}

function hasRecordKeys(o: Obj): boolean {
  for (const k of RECORD_KEYS) if (o[k] !== undefined) return true;
  return false;
}

/** A JSON Schema of an object's properties (OpenAI/Gemini `parameters`, BFCL's `dict`). */
function schemaLike(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  return v.type === 'object' || v.type === 'dict' || isPlainObject(v.properties) || typeof v.$schema === 'string' || Array.isArray(v.anyOf) || Array.isArray(v.oneOf);
}

/** A string that may hold a JSON object: as written, fenced, or encoded twice (cheap test; the decoder decides). */
function objectText(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const t = v.trim();
  if (t === '') return true;
  const a = t.charCodeAt(0);
  const z = t.charCodeAt(t.length - 1);
  return (a === 123 && z === 125) || (a === 34 && z === 34 && t.length > 2 && t.charCodeAt(1) === 123) || (t.startsWith('```') && t.includes('{'));
}

/** A string that may hold JSON worth walking. */
function jsonText(v: string): boolean {
  let i = 0;
  while (i < v.length && v.charCodeAt(i) <= 32) i++;
  const c = v.charCodeAt(i);
  if (c !== 123 && c !== 91) return false;
  let j = v.length - 1;
  while (j > i && v.charCodeAt(j) <= 32) j--;
  const d = v.charCodeAt(j);
  return (c === 123 && d === 125) || (c === 91 && d === 93);
}

/** Transport signals an object states about a result. */
function signalsOf(o: Obj, into: TransportSignals): void {
  if (typeof o.is_error === 'boolean') into.isError ??= o.is_error;
  if (typeof o.isError === 'boolean') into.isError ??= o.isError;
  if (typeof o.success === 'boolean') into.isError ??= !o.success;
  const status = o.status;
  if (typeof status === 'string') {
    if (FAILED.test(status)) into.isError ??= true;
    else if (SUCCEEDED.test(status)) into.isError ??= false;
  } else if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status < 600) {
    into.httpStatus ??= status;
  }
  if (o.state === 'output-error') into.isError ??= true; // an AI SDK tool part
  const err = o.error ?? o.errorText;
  if (err !== undefined && err !== null && err !== false && err !== '' && !(isPlainObject(err) && Object.keys(err).length === 0)) into.isError = true;
  for (const k of ['exit_code', 'exitCode', 'returncode', 'return_code']) {
    const code = o[k];
    if (typeof code === 'number' && Number.isInteger(code)) {
      into.exitCode ??= code;
      break;
    }
  }
  for (const k of ['status_code', 'statusCode']) {
    const code = o[k];
    if (typeof code === 'number' && Number.isInteger(code)) into.httpStatus ??= code;
  }
}

function hasErrorSignal(o: Obj): boolean {
  const t: TransportSignals = {};
  signalsOf(o, t);
  return t.isError === true || (t.exitCode !== undefined && t.exitCode !== 0);
}

interface CallShape extends CallFields {
  /** The object the call's result would sit in (the call, or its `state`). */
  resultHolder: Obj;
  resultHolderPath: JsonPath;
  argsKey: string;
}

/** A definition's schema key, when the object is a tool definition. */
function schemaKey(o: Obj): string | undefined {
  if (isPlainObject(o.input_schema)) return 'input_schema';
  if (isPlainObject(o.inputSchema)) return 'inputSchema';
  if (isPlainObject(o.parametersJsonSchema)) return 'parametersJsonSchema';
  if (isPlainObject(o.parameters_json_schema)) return 'parameters_json_schema';
  if (isPlainObject(o.json_schema) || (typeof o.json_schema === 'string' && jsonText(o.json_schema))) return 'json_schema';
  if (schemaLike(o.parameters)) return 'parameters';
  return undefined;
}

/** The call an object is, or undefined. `listKey`: the key of the array (or object) it sits under. */
function callShape(o: Obj, listKey: string | undefined): CallShape | undefined {
  if (o.lc !== undefined) return undefined; // a LangChain serialized constructor: its `kwargs` are not arguments
  const kind = kindOf(o);
  const toolish = (kind !== undefined && TOOLISH.test(kind)) || (listKey !== undefined && CALL_LISTS.has(listKey));
  // A holder one level down: OpenAI/Letta `{id, function: {name, arguments}}`, Gemini `{functionCall: {name, args}}`.
  for (const h of NAME_HOLDERS) {
    const holder = o[h];
    if (!isPlainObject(holder) || typeof holder.name !== 'string' || holder.name === '') continue;
    const innerArgs = argsKeyOf(holder);
    if (innerArgs === undefined && schemaKey(holder) !== undefined) return undefined; // `{type: "function", function: {name, parameters: schema}}`
    const outerArgs = innerArgs === undefined ? firstKey(o, ['arguments', 'args']) : undefined;
    const gemini = h === 'functionCall' || h === 'function_call';
    if (innerArgs === undefined && outerArgs === undefined && !gemini) continue;
    if (!validName(holder.name, true)) return undefined;
    const innerId = idKey(holder) ?? idOf(holder.id);
    const explicit = idKey(o);
    const outerId = explicit ?? (o.role === undefined && o.content === undefined && o.parts === undefined ? idOf(o.id) : undefined);
    const id = innerId ?? outerId;
    const argsPath = innerArgs !== undefined ? [h, innerArgs] : outerArgs !== undefined ? [outerArgs] : [h, 'args'];
    const args = innerArgs !== undefined ? holder[innerArgs] : outerArgs !== undefined ? o[outerArgs] : undefined;
    if (!argumentsValue(innerArgs ?? outerArgs ?? 'args', args, true, false)) return undefined;
    const strongId = id !== undefined && (innerId !== undefined || explicit !== undefined || ((toolish || gemini) && !hasRecordKeys(o)));
    return { name: holder.name, namePath: [h, 'name'], argsPath, args, id, strongId, freeform: false, resultHolder: o, resultHolderPath: [], argsKey: argsPath[argsPath.length - 1] };
  }
  // A name on the object itself.
  let nameKey: string | undefined;
  for (const k of STRONG_NAME_KEYS) {
    if (typeof o[k] === 'string' && o[k] !== '') {
      nameKey = k;
      break;
    }
  }
  let name: string | undefined = nameKey !== undefined ? (o[nameKey] as string) : undefined;
  let strongName = nameKey !== undefined;
  if (name === undefined && typeof o.name === 'string' && o.name !== '') {
    nameKey = 'name';
    name = o.name;
  }
  // AI SDK UI message parts: `{type: "tool-<name>", toolCallId, state, input, output}`
  if (name === undefined && typeof o.type === 'string' && o.type.startsWith('tool-') && idOf(o.toolCallId) !== undefined) {
    nameKey = 'type';
    name = o.type.slice(5);
    strongName = true;
  }
  if (name === undefined || nameKey === undefined) return undefined;
  let argsKey = argsKeyOf(o);
  let argsPath: JsonPath | undefined = argsKey !== undefined ? [argsKey] : undefined;
  let args: unknown = argsKey !== undefined ? o[argsKey] : undefined;
  let resultHolder = o;
  let resultHolderPath: JsonPath = [];
  // OpenCode tool parts: `{tool, callID, state: {input, output, status}}`
  if (argsKey === undefined && isPlainObject(o.state) && o.state.input !== undefined) {
    argsKey = 'input';
    argsPath = ['state', 'input'];
    args = o.state.input;
    resultHolder = o.state;
    resultHolderPath = ['state'];
  }
  if (argsKey === undefined || argsPath === undefined) return undefined;
  if (schemaKey(o) !== undefined && argsKey !== 'arguments' && argsKey !== 'args') return undefined; // a definition
  const explicit = idKey(o);
  const strong = strongName || toolish || explicit !== undefined;
  // A bare name is a tool's only on an object that holds nothing but a call: not on a message, a record (a trace,
  // a span), nor on the events of a profiler's trace (`{name, cat, ph, ts, args}`).
  if (!strong && !bareCall(o)) return undefined;
  // a label such as "running tool: search" is a record's title, not a tool name, unless a tool key or call id says so
  if (!validName(name, strongName || explicit !== undefined)) return undefined;
  const freeform = typeof args === 'string' && !objectText(args) && kind !== undefined && /custom/i.test(kind);
  if (!freeform && !argumentsValue(argsKey, args, strong, kind !== undefined && TOOLISH.test(kind))) return undefined;
  const id = explicit ?? idOf(o.id);
  const strongId = id !== undefined && (explicit !== undefined || (toolish && !hasRecordKeys(o)));
  return { name, namePath: [nameKey], argsPath, args, id, strongId, freeform, resultHolder, resultHolderPath, argsKey };
}

/** Keys an object holding nothing but a call may have beside its name and arguments. */
const BARE_CALL_KEYS = new Set([...ARG_KEYS, 'name', 'id', 'type', 'index', 'status', 'result', 'output', 'response', 'error', 'thought_signature', 'thoughtSignature']);

function bareCall(o: Obj): boolean {
  if (o.role !== undefined) return false;
  for (const k in o) if (!BARE_CALL_KEYS.has(k)) return false;
  const kind = kindOf(o);
  return kind === undefined || !NOT_A_TOOL.test(kind);
}

/** The first call-id key's value. */
function idKey(o: Obj): string | undefined {
  for (const k of CALL_ID_KEYS) {
    const id = idOf(o[k]);
    if (id !== undefined) return id;
  }
  return undefined;
}

/** A tool name: any short one-line text with strong evidence, an identifier otherwise. */
function validName(name: string, strong: boolean): boolean {
  if (name.length > 256 || /[\r\n]/.test(name)) return false;
  return strong || IDENTIFIER.test(name);
}

/** Whether `args` can be a call's arguments under `key`. `strong`: other evidence says this is a call. */
function argumentsValue(key: string, args: unknown, strong: boolean, typed: boolean): boolean {
  if (args === undefined) return key === 'args'; // a Gemini functionCall without args
  if (isPlainObject(args)) return true;
  if (typeof args !== 'string') return false;
  // an object's text; with other evidence, also one fenced or encoded twice (reported as such)
  if (strong ? objectText(args) : /^\s*(\{[\s\S]*\})?\s*$/.test(args)) return true;
  // text that is not an object: broken arguments worth reporting only where the key and the record say "call"
  return !OBJECT_ARG_KEYS.has(key) && strong && typed;
}

/** The result an object is (it names its call and carries a payload or an error), or undefined. */
function resultShape(o: Obj, listKey: string | undefined): Omit<ResultSite, 'order' | 'session' | 'doc' | 'path'> | undefined {
  const plural = o.tool_call_ids ?? o.toolCallIds;
  const kind = kindOf(o);
  const byId = (listKey !== undefined && RESULT_HOLDERS.has(listKey)) || (kind !== undefined && RESULT_TYPE.test(kind)) ? idOf(o.id) : undefined;
  let linkKey = false;
  for (const k of LINK_KEYS) {
    if (o[k] !== undefined) {
      linkKey = true;
      break;
    }
  }
  // most objects name no call: nothing is allocated for them
  if (!linkKey && byId === undefined && !Array.isArray(plural)) return undefined;
  const links: string[] = [];
  for (const k of LINK_KEYS) {
    const id = idOf(o[k]);
    if (id !== undefined && !links.includes(id)) links.push(id);
  }
  if (Array.isArray(plural)) for (const x of plural) if (typeof x === 'string' && x !== '' && !links.includes(x)) links.push(x);
  if (byId !== undefined && !links.includes(byId)) links.push(byId);
  if (links.length === 0) return undefined;
  const payloadKey = firstKey(o, PAYLOAD_KEYS);
  if (payloadKey === undefined && !hasErrorSignal(o)) return undefined;
  const transport: TransportSignals = {};
  signalsOf(o, transport);
  if (payloadKey !== undefined && isPlainObject(o[payloadKey])) signalsOf(o[payloadKey], transport);
  return { links, payloadPath: payloadKey !== undefined ? [payloadKey] : undefined, payload: payloadKey !== undefined ? o[payloadKey] : undefined, transport };
}

/** The tool definition an object is, or undefined. */
function toolShape(o: Obj): { name: string; schemaPath: JsonPath; schema: unknown; resultSchema?: unknown } | undefined {
  if (typeof o.name !== 'string' || o.name === '' || !validName(o.name, true)) return undefined;
  const key = schemaKey(o);
  if (key === undefined) return undefined;
  let schema = o[key];
  let schemaPath: JsonPath = [key];
  if (key === 'json_schema' && typeof schema === 'string') {
    try {
      schema = JSON.parse(schema) as unknown;
    } catch {
      return undefined;
    }
  }
  // Letta `json_schema: {name, parameters}`; Bedrock `inputSchema: {json: schema}`
  if (isPlainObject(schema) && schemaLike(schema.parameters)) {
    schema = schema.parameters;
    schemaPath = [key, 'parameters'];
  } else if (isPlainObject(schema) && isPlainObject(schema.json) && !schemaLike(schema)) {
    schema = schema.json;
    schemaPath = [key, 'json'];
  }
  if (typeof o[key] === 'string') schemaPath = [key];
  const rk = firstKey(o, RESULT_SCHEMA_KEYS);
  return { name: o.name, schemaPath, schema, resultSchema: rk !== undefined && isPlainObject(o[rk]) ? o[rk] : undefined };
}

function shapeOf(path: JsonPath): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? '#' : '.' + seg;
  return s;
}

/** The chain's slots followed by the path's array indices: the last two. */
function slotsOf(chain: Chain, path: JsonPath): number[] {
  const out = chain.slots.slice();
  for (const seg of path) if (typeof seg === 'number') out.push(seg);
  return out.length > 2 ? out.slice(out.length - 2) : out;
}

/** Keys without one of which an object is neither a call, a result nor a definition: one pass over an object's
 *  keys spares the many lookups of the classifiers for the objects most of a trace is made of. */
const TELLING_KEYS = new Set([
  'name', 'id', 'tool_call_ids', 'toolCallIds',
  ...STRONG_NAME_KEYS, ...NAME_HOLDERS, ...LINK_KEYS,
]);

function telling(o: Obj): boolean {
  for (const k in o) if (TELLING_KEYS.has(k)) return true;
  return false;
}

/** The last two array indices on the way to a call (its line first): the message and the call's place in it. */
function slotsKey(c: CallSite): string {
  const all: number[] = c.line !== undefined ? [c.line, ...c.chainSlots] : [...c.chainSlots];
  for (const seg of c.path) if (typeof seg === 'number') all.push(seg);
  return all.slice(-2).join(',');
}

const SESSION_KEY_GROUPS = [SESSION_KEYS, TRACE_KEYS];

/** The walk: one visit per node; what it finds, in the order it was written. */
class ShapeWalker {
  readonly finds: Finds = { calls: [], results: [], tools: [] };
  private order = 0;
  /** The objects that enclose the node being visited, innermost last. */
  private readonly stack: Obj[] = [];

  walk(doc: Doc): Finds {
    this.node(doc, doc.value, [], TOP, 0, 0, undefined);
    return this.finds;
  }

  private node(doc: Doc, v: unknown, path: JsonPath, chain: Chain, depth: number, strings: number, key: string | undefined): void {
    if (depth > MAX_DEPTH || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (x === null || typeof x !== 'object') {
          if (typeof x === 'string') this.string(doc, x, path, i, chain, depth, strings, key);
          continue;
        }
        path.push(i);
        this.node(doc, x, path, chain, depth + 1, strings, key);
        path.pop();
      }
      return;
    }
    const o = v as Obj;
    if (this.object(doc, o, path, chain, key)) return;
    const message = o.role !== undefined || o.type === 'text' || o.type === 'output_text' || o.type === 'input_text';
    this.stack.push(o);
    for (const k in o) {
      const x = o[k];
      if (x === null || typeof x !== 'object') {
        if (typeof x === 'string' && !(message && TEXT_KEYS.has(k))) this.string(doc, x, path, k, chain, depth, strings, k);
        continue;
      }
      path.push(k);
      this.node(doc, x, path, chain, depth + 1, strings, k);
      path.pop();
    }
    this.stack.pop();
  }

  /** The session a find in `o` belongs to: the outermost record around it (or `o` itself) that names one. */
  private sessionOf(o: Obj): string {
    for (const keys of SESSION_KEY_GROUPS) {
      for (let i = 0; i <= this.stack.length; i++) {
        const a = i < this.stack.length ? this.stack[i] : o;
        for (const k of keys) {
          const v = a[k];
          if (typeof v === 'string' && v !== '') return v;
        }
      }
    }
    return '';
  }

  /** The id of a call block that wraps a call found one or two levels down (Goose `{type: "toolRequest", id,
   *  toolCall: {value: {name, arguments}}}`). */
  private inheritedId(): string | undefined {
    for (let i = this.stack.length - 1; i >= 0 && i >= this.stack.length - 2; i--) {
      const a = this.stack[i];
      const kind = kindOf(a);
      if (kind !== undefined && TOOLISH.test(kind) && !RESULT_TYPE.test(kind)) return idKey(a) ?? idOf(a.id);
    }
    return undefined;
  }

  /** JSON inside a string: walked in a doc of its own that maps back through the string's escapes. */
  private string(doc: Doc, s: string, path: JsonPath, seg: string | number, chain: Chain, depth: number, strings: number, key: string | undefined): void {
    if (strings >= MAX_STRING_DEPTH || s.length < 2 || !jsonText(s)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(s) as unknown;
    } catch {
      return;
    }
    if (parsed === null || typeof parsed !== 'object') return;
    path.push(seg);
    const at = path.slice();
    path.pop();
    const inner = embeddedDoc(doc, at, s, 0, s, parsed);
    const slots = slotsOf(chain, at);
    this.node(inner, parsed, [], { shape: chain.shape + shapeOf(at) + '>', slots }, depth + 1, strings + 1, key);
  }

  /** Record what the object is; true when it is a leaf for the walk (a call, a result, a definition). */
  private object(doc: Doc, o: Obj, path: JsonPath, chain: Chain, key: string | undefined): boolean {
    if (!telling(o)) return false;
    const call = callShape(o, key);
    if (call) {
      if (call.id === undefined) {
        call.id = this.inheritedId();
        call.strongId = call.id !== undefined;
      }
      const at = path.slice();
      const order = this.order++;
      let nested: ResultSite | undefined;
      const holder = call.resultHolder;
      const rk = NESTED_RESULT_KEYS.find((k) => k !== call.argsKey && holder[k] !== undefined && holder[k] !== null);
      if (rk !== undefined || hasErrorSignal(holder)) {
        const transport: TransportSignals = {};
        signalsOf(holder, transport);
        if (holder !== o) signalsOf(o, transport);
        nested = {
          order: this.order++, session: '', doc, path: at, links: [], transport,
          payloadPath: rk !== undefined ? [...call.resultHolderPath, rk] : undefined, payload: rk !== undefined ? holder[rk] : undefined,
        };
      }
      this.finds.calls.push({
        order, doc, path: at, name: call.name, namePath: call.namePath, argsPath: call.argsPath, args: call.args, id: call.id,
        strongId: call.strongId, freeform: call.freeform, nested, chainShape: chain.shape, chainSlots: chain.slots, session: this.sessionOf(o),
        earlierId: idOf(o.approval_request_id),
      });
      return true;
    }
    const tool = toolShape(o);
    if (tool) {
      this.finds.tools.push({ session: this.sessionOf(o), doc, path: [...path, ...tool.schemaPath], name: tool.name, schema: tool.schema, resultSchema: tool.resultSchema });
      return true;
    }
    const result = resultShape(o, key);
    if (result) {
      this.finds.results.push({ ...result, order: this.order++, session: this.sessionOf(o), doc, path: path.slice() });
      return true;
    }
    return false;
  }
}


/** Canonical arguments of a call site (decoded the way the builder decodes them), for telling copies apart. */
function siteKey(c: CallSite): string {
  if (c.freeform) return '~' + valueKey(c.args);
  const d = decodeArguments(topDoc('', 0, c.args), [], c.args, 'any');
  return d.args === undefined ? '!' + valueKey(d.raw ?? '') : valueKey(d.args);
}

/** The same for a call already read. */
function callKey(call: ToolCall): string {
  if (call.encoding === 'freeform') return '~' + valueKey(call.args);
  return call.args === undefined ? '!' + valueKey(call.argumentsRaw ?? '') : valueKey(call.args);
}

/** A call read into the session, and what telling its copies apart needs. */
interface Entry {
  call: ToolCall;
  /** The tool name as read (a parallel wrapper's call is read as its first inner call). */
  name: string;
  shape: string;
  slots: string;
  strongId: boolean;
  /** Its result, once one is read. */
  result?: ToolResult;
}

/** Arguments that say nothing yet: absent, empty text, an empty object. */
function emptyArguments(call: ToolCall): boolean {
  return call.encoding !== 'invalid' && isPlainObject(call.args) && Object.keys(call.args).length === 0;
}

function emptySite(c: CallSite): boolean {
  const a = c.args;
  return a === undefined || (typeof a === 'string' && /^\s*(\{\s*\})?\s*$/.test(a)) || (isPlainObject(a) && Object.keys(a).length === 0);
}

/** Calls of one tool with one canonical arguments, indexed so that finding the one a new call copies is constant
 *  time however often the call repeats. A call `c` copies an earlier call `e` unless both have call ids of their
 *  own (two ids: two calls); then it copies it when `e` sits in another structure (a path of another shape: a
 *  mirror), or at the same place of another copy of one structure (same shape, same message and call index: two
 *  distinct nodes there differ in an outer index, as the history a next request repeats). */
class CopyBucket {
  /** Per path shape: the first entry with and without an id of its own, and the entries by slots. */
  private readonly shapes = new Map<string, { anyOwn?: Entry; anyOther?: Entry; own: Map<string, Entry>; other: Map<string, Entry> }>();

  find(shape: string, slots: string, ownId: boolean): Entry | undefined {
    for (const [s, x] of this.shapes) {
      if (s === shape) continue;
      const e = x.anyOther ?? (ownId ? undefined : x.anyOwn);
      if (e) return e;
    }
    const here = this.shapes.get(shape);
    if (!here) return undefined;
    return here.other.get(slots) ?? (ownId ? undefined : here.own.get(slots));
  }

  add(e: Entry): void {
    let x = this.shapes.get(e.shape);
    if (!x) this.shapes.set(e.shape, (x = { own: new Map(), other: new Map() }));
    const own = e.strongId && e.call.id !== undefined;
    if (own) x.anyOwn ??= e;
    else x.anyOther ??= e;
    const bySlots = own ? x.own : x.other;
    if (!bySlots.has(e.slots)) bySlots.set(e.slots, e);
  }
}

/** The turn key of a call: the list it sits in (the calls of one message share a turn). */
function groupOf(c: CallSite): string {
  const p = c.path;
  let last = p.length - 1;
  while (last >= 0 && typeof p[last] !== 'number') last--;
  return last < 0 ? '' : c.chainShape + '|' + c.chainSlots.join(',') + '|' + p.slice(0, last).join('\u0001');
}

/** Reads what walks found into one session, as they come: copies merged, results linked, definitions once. */
class SessionReader {
  private readonly byId = new Map<string, Entry>();
  /** The calls read, by tool name and then by canonical arguments: the arguments of a tool's calls are made
   *  canonical only once a second call of that tool comes (a tool called once has no copy to find). */
  private readonly byName = new Map<string, { first: Entry; byKey?: Map<string, CopyBucket> }>();
  private readonly entries: Entry[] = [];
  /** Results whose call has not been seen (yet), by the ids they name. */
  private readonly pending = new Map<string, ResultSite[]>();
  /** Definitions read, by name (schemas compared only when a name comes again). */
  private readonly tools = new Map<string, unknown[]>();
  private group?: string;
  private groupDoc?: Doc;
  private turn = 0;

  constructor(private readonly b: SessionBuilder) {}

  add(finds: Finds): void {
    for (const t of finds.tools) {
      const seen = this.tools.get(t.name);
      if (seen) {
        const k = valueKey(t.schema);
        if (seen.some((x) => valueKey(x) === k)) continue; // the same definition again (each request repeats it)
        seen.push(t.schema);
      } else {
        this.tools.set(t.name, [t.schema]);
      }
      this.b.tool(t.name, t.schema, { doc: t.doc, path: t.path }, t.resultSchema);
    }
    // calls and results in the order they were written
    const { calls, results } = finds;
    let i = 0;
    let j = 0;
    while (i < calls.length || j < results.length) {
      if (j >= results.length || (i < calls.length && calls[i].order < results[j].order)) this.addCall(calls[i++]);
      else this.addResult(results[j++]);
    }
  }

  private addCall(c: CallSite): void {
    // The same id again, for the same tool, is a copy of one call (a mirror, a run state's snapshots, a streamed
    // "added" item with no arguments yet and its "done"): the first copy is read, completed by a later one when it
    // had no arguments. The same id for another tool is another call (duplicate-call-id says so).
    const same = (c.id !== undefined ? this.byId.get(c.id) : undefined) ?? (c.earlierId !== undefined ? this.byId.get(c.earlierId) : undefined);
    if (same && same.name === c.name) {
      if (c.id !== undefined && !this.byId.has(c.id)) this.byId.set(c.id, same);
      if (emptyArguments(same.call) && !emptySite(c)) this.complete(same, c);
      if (c.nested) this.answer(same, c.nested);
      return;
    }
    const named = this.byName.get(c.name);
    let key: string | undefined;
    let copy: Entry | undefined;
    const shape = c.chainShape + shapeOf(c.path);
    const slots = slotsKey(c);
    if (named) {
      if (!named.byKey) {
        const bucket = new CopyBucket();
        bucket.add(named.first);
        named.byKey = new Map([[callKey(named.first.call), bucket]]);
      }
      key = siteKey(c);
      const own = c.strongId && c.id !== undefined;
      copy = named.byKey.get(key)?.find(shape, slots, own);
      if (copy && own && copy.strongId && copy.call.id !== undefined) copy = undefined; // it took a call id of its own since
    }
    if (copy) {
      if (c.id !== undefined) {
        this.byId.set(c.id, copy);
        // the call's own id names it better than a record's id
        if (copy.call.id === undefined || (!copy.strongId && c.strongId)) {
          copy.call.id = c.id;
          copy.strongId = c.strongId;
          if (copy.result) copy.result.callId = c.id;
        }
      }
      if (c.nested) this.answer(copy, c.nested);
      return;
    }
    const group = groupOf(c);
    if (this.turn === 0 || group !== this.group || c.doc !== this.groupDoc) {
      this.turn = this.b.newTurn();
      this.group = group;
      this.groupDoc = c.doc;
    }
    const call = this.b.call({ name: c.name, id: c.id, at: { doc: c.doc, path: c.path }, namePath: c.namePath, argsPath: c.argsPath,
      args: c.args, expect: 'any', freeform: c.freeform }, this.turn);
    const entry: Entry = { call, name: c.name, shape, slots, strongId: c.strongId };
    this.entries.push(entry);
    if (call.id !== undefined && !this.byId.has(call.id)) this.byId.set(call.id, entry);
    if (c.id !== undefined && !this.byId.has(c.id)) this.byId.set(c.id, entry); // a parallel wrapper's own id
    if (!named) this.byName.set(c.name, { first: entry });
    else if (named.byKey && key !== undefined) {
      let bucket = named.byKey.get(key);
      if (!bucket) named.byKey.set(key, (bucket = new CopyBucket()));
      bucket.add(entry);
    }
    if (c.nested) this.answer(entry, c.nested);
    if (c.id !== undefined && this.pending.size > 0) {
      const waiting = this.pending.get(c.id);
      if (waiting) {
        this.pending.delete(c.id);
        for (const r of waiting) this.answer(entry, r);
      }
    }
  }

  /** A call first seen with empty arguments (a streamed "added" item) gets them from a later copy (its "done"). */
  private complete(e: Entry, c: CallSite): void {
    const scratch = new SessionBuilder();
    const fresh = scratch.call({ name: c.name, id: c.id, at: { doc: c.doc, path: c.path }, namePath: c.namePath, argsPath: c.argsPath,
      args: c.args, expect: 'any', freeform: c.freeform }, e.call.turn);
    if (scratch.session.calls.length !== 1) return;
    const { at, nameAt, argsAt, encoding, args, argsDoc, argsPath, argsLexemes, argumentsRaw, encodingDetail } = fresh;
    Object.assign(e.call, { at, nameAt, argsAt, encoding, args, argsDoc, argsPath, argsLexemes, argumentsRaw, encodingDetail });
  }

  private addResult(r: ResultSite): void {
    for (const id of r.links) {
      const e = this.byId.get(id);
      if (e) {
        this.answer(e, r);
        return;
      }
    }
    // a result may come before its call (a document that lists results first)
    for (const id of r.links) {
      const list = this.pending.get(id);
      if (list) list.push(r);
      else this.pending.set(id, [r]);
    }
  }

  private answer(e: Entry, r: ResultSite): void {
    if (e.result) {
      // a copy of the result (a mirror, an echo, an end event): it may add a signal the first did not carry
      const t = e.result.transport;
      t.isError ??= r.transport.isError;
      t.exitCode ??= r.transport.exitCode;
      t.httpStatus ??= r.transport.httpStatus;
      return;
    }
    const id = e.call.id;
    this.b.result({ at: { doc: r.doc, path: r.path }, callId: id, callIndex: id === undefined ? e.call.index : undefined,
      payload: r.payload, payloadPath: r.payloadPath, transport: r.transport });
    e.result = this.b.session.results[this.b.session.results.length - 1];
    this.group = undefined; // the next call is a new message
  }

  /** The session is complete. Pairing the reader cannot see stays out: a call without a result may have been
   *  answered in a way the walk does not know (by position, by a key of its own format), or the trace may simply
   *  end there; the walk cannot tell which. So the session says its links are only those stated: every result it
   *  linked is kept (status-theater and result contracts see them), and no call is an orphan. */
  finish(): void {
    this.pending.clear();
    this.b.session.linksStated = true;
  }
}

/** What a walk found, per session it names, in order of first use. */
function bySession(finds: Finds): Map<string, Finds> {
  const out = new Map<string, Finds>();
  const part = (key: string): Finds => {
    let f = out.get(key);
    if (!f) out.set(key, (f = { calls: [], results: [], tools: [] }));
    return f;
  };
  // first use in the order things were written: definitions (often first), then calls and results
  for (const t of finds.tools) part(t.session).tools.push(t);
  for (const c of finds.calls) part(c.session).calls.push(c);
  for (const r of finds.results) part(r.session).results.push(r);
  return out;
}

// A claim walks the whole value (a find can be anywhere), so what it found is kept for the read that follows: the
// engine asks whether a unit is claimed, then reads it, in one synchronous step. The walk's top doc is a stand-in
// until the read names the real one; finds inside strings holding JSON hang off docs made from the stand-in, so
// those units are walked again. The memo is let go once the current task ends, so no unit outlives its check.
let memo: { value: unknown; standIn: Doc; finds: Finds } | undefined;
let forgetting = false;

function findsOf(value: unknown): Finds {
  if (memo && memo.value === value) return memo.finds;
  const standIn = topDoc('', 0, value);
  const finds = new ShapeWalker().walk(standIn);
  memo = { value, standIn, finds };
  if (!forgetting) {
    forgetting = true;
    queueMicrotask(() => {
      memo = undefined;
      forgetting = false;
    });
  }
  return finds;
}

/** What a walk of `doc` finds, from the claim's walk when it was of this very value. */
function walkDoc(doc: Doc): Finds {
  const m = memo;
  memo = undefined; // the memo would keep the unit alive
  if (m && m.value === doc.value) {
    const f = m.finds;
    let own = true;
    for (const c of f.calls) own &&= c.doc === m.standIn && (c.nested === undefined || c.nested.doc === m.standIn);
    for (const r of f.results) own &&= r.doc === m.standIn;
    for (const t of f.tools) own &&= t.doc === m.standIn;
    if (own) {
      for (const c of f.calls) {
        c.doc = doc;
        if (c.nested) c.nested.doc = doc;
      }
      for (const r of f.results) r.doc = doc;
      for (const t of f.tools) t.doc = doc;
      return f;
    }
  }
  return new ShapeWalker().walk(doc);
}

function hasAny(f: Finds): boolean {
  return f.calls.length > 0 || f.results.length > 0 || f.tools.length > 0;
}

/** Keys of a list of messages: a JSONL line with its calls in such a list is a whole conversation. */
const CONVERSATION_KEYS = new Set(['messages', 'conversation', 'conversations', 'contents', 'history', 'turns', 'dialog', 'chat']);

/** A JSONL line that is a whole conversation (a fine-tune line `{messages: [...]}`, an array of messages): read as a
 *  session of its own. An event line holds its calls in one message (`{message: {content: [...]}}`), not in a
 *  list of messages. */
function wholeConversation(value: unknown, finds: Finds): boolean {
  if (finds.calls.length === 0) return false;
  return finds.calls.every((c) => {
    const p = c.path;
    if (c.doc.parent !== undefined || p.length < 2) return false;
    if (Array.isArray(value)) return value.length >= 2 && isPlainObject(value[0]) && value[0].role !== undefined && typeof p[0] === 'number';
    const list = typeof p[0] === 'string' && CONVERSATION_KEYS.has(p[0]) && isPlainObject(value) ? value[p[0]] : undefined;
    return Array.isArray(list) && list.length >= 2 && typeof p[1] === 'number' && p.length >= 3;
  });
}

function readLines(sink: LineSink): { read(doc: Doc): void; finish(): void } {
  // one reader per conversation the event lines name, in order of first use
  const sessions = new Map<string, SessionReader>();
  let line = 0;
  return {
    read(doc) {
      const n = line++;
      const finds = walkDoc(doc);
      if (!hasAny(finds)) return;
      // each line's indices start with its line number: the same place in two lines is two places
      for (const c of finds.calls) c.line = n;
      if (wholeConversation(doc.value, finds)) {
        const key = `line ${n + 1}`;
        const r = new SessionReader(sink.sessionFor(key));
        r.add(finds);
        r.finish();
        sink.closeSession(key);
        return;
      }
      for (const [key, part] of bySession(finds)) {
        let reader = sessions.get(key);
        if (!reader) sessions.set(key, (reader = new SessionReader(sink.sessionFor(key))));
        reader.add(part);
      }
    },
    finish() {
      for (const r of sessions.values()) r.finish();
    },
  };
}

export const generic: FormatAdapter = {
  id: 'generic',
  document: {
    claims: (value) => findsOf(value).calls.length > 0,
    read(doc, emit: (s: Session) => void) {
      for (const [key, part] of bySession(walkDoc(doc))) {
        const b = new SessionBuilder(key === '' ? undefined : key);
        const r = new SessionReader(b);
        r.add(part);
        r.finish();
        emit(b.session);
      }
    },
  },
  lines: {
    // a line of definitions alone (a session header listing tools) proves nothing: it is read when the file's
    // other lines are; a document of definitions alone is a contract file, not a trace
    claims: (value) => {
      const f = findsOf(value);
      return f.calls.length > 0 || f.results.length > 0;
    },
    accepts: (value) => hasAny(findsOf(value)),
    open: readLines,
  },
};
