// Where each instrumentation's span conventions keep tool calls, results and definitions (one home for each
// convention's keys), and how the message lists they write read as calls and results. spans.ts pairs what is read
// here; this module only finds it.
//
// - OpenTelemetry GenAI: `gen_ai.*` attributes (message parts: `tool_call` / `tool_call_response`, and the
//   provider-run `server_tool_call` / `server_tool_call_response`; `execute_tool` spans, `gen_ai.tool.definitions`); the
//   older event form, as span events or as log records: `gen_ai.assistant.message` `{tool_calls}`,
//   `gen_ai.tool.message` `{id, content}`, `gen_ai.choice` `{message: {tool_calls}}`; its body fields as the event's
//   attributes (JSON strings allowed) or under `gen_ai.event.content`.
// - OpenInference (`tool.*`, `input.value` / `output.value`).
// - OpenLLMetry / Traceloop: a `@tool` span (`traceloop.span.kind: "tool"`, `traceloop.entity.name`,
//   `traceloop.entity.input` `{"args": [...], "kwargs": {...}}`: the keyword arguments are the call's,
//   `traceloop.entity.output`).
// - Vercel AI SDK telemetry: `ai.toolCall` spans (`ai.toolCall.name`, `.id`, `.args`, `.result`); model spans
//   `ai.generateText.doGenerate` / `ai.streamText.doStream` with `ai.response.toolCalls` (JSON list of `{toolCallId,
//   toolName, args | input}`), `ai.prompt.messages` (content parts `tool-call` `{toolCallId, toolName, input | args}`,
//   `tool-result` `{toolCallId, output | result}`, an output `{type: "error-text" | "error-json"}` being a failure)
//   and `ai.prompt.tools` (a list of JSON strings `{name, inputSchema | parameters}`). The outer `ai.generateText` /
//   `ai.streamText` span repeats the last step's calls: a summary.
// - MLflow: `mlflow.spanType` (`TOOL`, `LLM`, `CHAT_MODEL`; every value JSON-encoded, so `"\"TOOL\""`),
//   `mlflow.spanInputs` / `mlflow.spanOutputs`, chat spans' `mlflow.chat.messages` (OpenAI chat messages, the
//   answer included) and `mlflow.chat.tools` (OpenAI tool definitions).
// - Pydantic AI / Logfire: tool spans `tool_arguments` / `tool_response` (v1-v2) or the GenAI keys (v3+); the agent
//   run span's `pydantic_ai.all_messages` (message parts) or `all_messages_events` (the v1 event list), a model
//   span's `events` (the v1 event list as one JSON attribute) and `model_request_parameters.function_tools`.
// - Strands Agents: GenAI events on the spans; a message's `content` (a JSON string of Bedrock Converse blocks,
//   `toolUse` / `toolResult`), an `execute_tool` span's `gen_ai.tool.message` event (`content`: the arguments, `id`)
//   and `gen_ai.choice` event (`message`: the result).
// - Langfuse's OTel SDKs (v3+): `langfuse.observation.type` (`tool`, `generation`), `langfuse.observation.input` /
//   `.output` (a tool's arguments and result; a generation's messages and answer), `langfuse.observation.level`
//   `ERROR` the failure.
// - OpenAI Agents SDK through Logfire (`logfire.instrument_openai_agents`): a tool execution is a `Function: {name}`
//   span (its `logfire.msg_template`) with `name`, `input` (the arguments as the model sent them) and `output`; a
//   `Responses API` span's `response` is the Responses object (`output` function_call items, `tools` definitions).
// - Google ADK: `gcp.vertex.agent.tool_call_args` / `.tool_response` on `execute_tool` spans,
//   `gcp.vertex.agent.llm_request` (`contents`: Gemini `Content`s, `config.tools[].function_declarations`) and
//   `.llm_response` (one `Content`).
import type { NodeRef } from './builder';
import type { JsonPath } from '../parse/doc';
import { isCallBlock, isResultBlock, transportOf } from './anthropic';
import { geminiDeclarations, keyOf } from './gemini';
import { isPlainObject, jsonIn, jsonValue, str, type Located, type Obj } from './util';

/** A located attribute (or event field) value. */
type Attr = { value: unknown; ref: NodeRef };

/** The keys of a tool span (an execution), each list in order of preference. */
export const TOOL_SPAN_KEYS = {
  name: ['gen_ai.tool.name', 'tool.name', 'ai.toolCall.name', 'traceloop.entity.name'],
  id: ['gen_ai.tool.call.id', 'tool.id', 'tool_call.id', 'tool.call.id', 'ai.toolCall.id'],
  args: ['gen_ai.tool.call.arguments', 'tool.parameters', 'input.value', 'tool_arguments', 'ai.toolCall.args', 'gcp.vertex.agent.tool_call_args', 'mlflow.spanInputs', 'langfuse.observation.input', 'input'],
  result: ['gen_ai.tool.call.result', 'output.value', 'tool_response', 'ai.toolCall.result', 'gcp.vertex.agent.tool_response', 'mlflow.spanOutputs', 'traceloop.entity.output', 'langfuse.observation.output', 'output'],
};

/** Attributes that hold a model span's conversation so far (read as a history: calls and results), beyond the
 *  GenAI and OpenInference ones spans.ts reads itself. */
export const HISTORY_KEYS = ['ai.prompt.messages', 'mlflow.chat.messages', 'events'];

/** Attributes that hold a whole run's conversation on its outer span: read after the trace's other spans, so what
 *  they repeat is known by then and only what no other span recorded is added. */
export const SUMMARY_KEYS = ['pydantic_ai.all_messages', 'all_messages_events'];

/** Whether attribute keys follow one of the conventions above that the GenAI test (`gen_ai.*`) does not see. */
export function hasOtherConvention(keys: Iterable<string>): boolean {
  for (const k of keys) {
    if (k.startsWith('ai.toolCall.') || k === 'ai.operationId' || k === 'ai.response.toolCalls' || k === 'ai.prompt.messages') return true;
    if (k === 'mlflow.spanType' || k === 'mlflow.spanInputs' || k === 'mlflow.chat.messages') return true;
    if (k.startsWith('gcp.vertex.agent.') || k === 'langfuse.observation.type') return true;
  }
  return false;
}

/** A Traceloop tool span's arguments: the keyword arguments of `traceloop.entity.input` (the whole input when the
 *  function was called with positional ones, which name no parameter). */
export function traceloopArguments(get: (key: string) => Attr | undefined): Attr | undefined {
  const a = get('traceloop.entity.input');
  if (!a) return undefined;
  const l = inner(a.ref, a.value);
  const v = l.value;
  if (isPlainObject(v) && isPlainObject(v.kwargs) && (!Array.isArray(v.args) || v.args.length === 0)) return { value: v.kwargs, ref: child(l, 'kwargs') };
  return a;
}

/** A span's kind in these conventions: `TOOL`, `LLM`, or undefined. */
export function conventionKind(get: (key: string) => unknown, name: string | undefined): 'TOOL' | 'LLM' | undefined {
  const mlflow = unquote(get('mlflow.spanType'));
  if (mlflow === 'TOOL') return 'TOOL';
  if (mlflow === 'LLM' || mlflow === 'CHAT_MODEL') return 'LLM';
  const op = str(get('ai.operationId')) ?? str(get('operation.name'));
  if (op === 'ai.toolCall' || (op === undefined && name === 'ai.toolCall' && get('ai.toolCall.name') !== undefined)) return 'TOOL';
  if (op !== undefined && /^ai\.\w+\.do(Generate|Stream)$/.test(op)) return 'LLM';
  if (str(get('traceloop.span.kind')) === 'tool') return 'TOOL';
  const langfuse = str(get('langfuse.observation.type'));
  if (langfuse === 'tool') return 'TOOL';
  if (get('logfire.msg_template') === LOGFIRE_AGENTS_FUNCTION) return 'TOOL';
  if (langfuse === 'generation') return 'LLM';
  return undefined;
}

/** Logfire's template of an OpenAI Agents SDK function span. */
const LOGFIRE_AGENTS_FUNCTION = 'Function: {name}';

/** The tool a convention's tool span names without a tool key of its own (Logfire's Agents SDK function span:
 *  `name`). */
export function conventionToolName(get: (key: string) => Attr | undefined): Attr | undefined {
  return get('logfire.msg_template')?.value === LOGFIRE_AGENTS_FUNCTION ? get('name') : undefined;
}

/** `response` attributes decoded: a span's is read for its calls and again for its tool definitions. */
const responses = new WeakMap<Attr, Located | undefined>();

/** A Responses API response recorded whole as an attribute (Logfire's Agents SDK `response`), located. */
function responseObject(get: (key: string) => Attr | undefined): Located | undefined {
  const a = get('response');
  if (!a) return undefined;
  if (responses.has(a)) return responses.get(a);
  const l = inner(a.ref, a.value);
  const r = isPlainObject(l.value) && l.value.object === 'response' ? l : undefined;
  responses.set(a, r);
  return r;
}

/** The function calls of a recorded Responses API response (`output[]` items `{type: "function_call", call_id,
 *  name, arguments}`), as one message. */
export function responseCalls(get: (key: string) => Attr | undefined): ListedMessage[] {
  const r = responseObject(get);
  const output = r && isPlainObject(r.value) ? r.value.output : undefined;
  if (!r || !Array.isArray(output)) return [];
  const out: ListedMessage = [];
  output.forEach((item, i) => {
    if (!isPlainObject(item) || item.type !== 'function_call' || typeof item.name !== 'string') return;
    const at = child(r, 'output', i);
    out.push({ call: { name: item.name, id: str(item.call_id), at, namePath: ['name'], argsAt: 'arguments' in item ? child(at, 'arguments') : undefined, args: item.arguments } });
  });
  return [out];
}

/** A Langfuse generation's input and output (its messages sent and its answer), when the span is one. */
export function langfuseGeneration(get: (key: string) => Attr | undefined): { input?: Attr; output?: Attr } | undefined {
  if (str(get('langfuse.observation.type')?.value) !== 'generation') return undefined;
  return { input: get('langfuse.observation.input'), output: get('langfuse.observation.output') };
}

/** Whether a span is the outer span of a Vercel AI SDK call (`ai.generateText`, `ai.streamText`): its
 *  `ai.response.toolCalls` repeat its last step's. */
export function isVercelOuterSpan(get: (key: string) => unknown): boolean {
  const op = str(get('ai.operationId'));
  return op !== undefined && /^ai\.\w+$/.test(op) && op !== 'ai.toolCall';
}

/** MLflow writes every attribute value as JSON: a string value is quoted. */
function unquote(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      const s: unknown = JSON.parse(v);
      return typeof s === 'string' ? s : undefined;
    } catch {
      return undefined;
    }
  }
  return v;
}

// ---- message lists ------------------------------------------------------------------------------------------

export interface ListedCall {
  name: string;
  id?: string;
  at: NodeRef;
  namePath: JsonPath;
  argsAt?: NodeRef;
  args: unknown;
}

export interface ListedResult {
  id?: string;
  at: NodeRef;
  payload: unknown;
  payloadPath?: JsonPath;
  /** The message itself says the tool failed (a Vercel `error-text` / `error-json` output). */
  isError?: boolean;
  /** The answer of a provider-run tool, given in the model's own output next to its call (read there too). */
  inline?: boolean;
}

/** One message's calls and results, in the order it lists them. */
export type ListedMessage = ({ call: ListedCall } | { result: ListedResult })[];

const child = (ref: NodeRef, ...keys: (string | number)[]): NodeRef => ({ doc: ref.doc, path: [...ref.path, ...keys] });

/** A value that may be a JSON string, located (a string holding JSON gets a document of its own). */
function inner(ref: NodeRef, value: unknown): Located {
  return jsonIn(ref.doc, ref.path, value);
}

/** The calls and results of each message of a list, whatever dialect it is written in: OTel GenAI parts (`parts:
 *  [{type: "tool_call" | "tool_call_response"}]`), OpenAI chat (`tool_calls`, `role: "tool"` with `tool_call_id`
 *  or `id`), an OTel GenAI event (`gen_ai.choice` `{message}`), Vercel AI SDK content parts (`tool-call`,
 *  `tool-result`), Bedrock Converse blocks (`toolUse`, `toolResult`), Anthropic blocks (`tool_use`, `server_tool_use`,
 *  `mcp_tool_use`; `tool_result`, `mcp_tool_result`, `*_tool_result`),
 *  OpenAI tool calls as content items, Responses API items (`function_call`, `function_call_output`) and Gemini
 *  `Content` parts (`functionCall`, `functionResponse`). `where` is the list (or one message, a `{messages}` / `{contents}` object, a Chat
 *  completion's `{choices}`). */
export function listedMessages(where: Located): ListedMessage[] {
  let list = where.value;
  let ref: NodeRef = where;
  if (isPlainObject(list) && Array.isArray(list.messages)) {
    ref = child(ref, 'messages');
    list = list.messages;
  } else if (isPlainObject(list) && Array.isArray(list.choices)) {
    // a Chat completion: its choices' messages
    ref = child(ref, 'choices');
    list = list.choices;
  } else if (isPlainObject(list) && Array.isArray(list.contents)) {
    ref = child(ref, 'contents');
    list = list.contents;
  }
  if (isPlainObject(list)) return [message(list, ref)];
  if (!Array.isArray(list)) return [];
  return list.map((m, i) => (isPlainObject(m) ? message(m, child(ref, i)) : []));
}

function message(m: Obj, ref: NodeRef): ListedMessage {
  const out: ListedMessage = [];
  // an event `gen_ai.choice` holds its message under `message`
  if (isPlainObject(m.message) && m.role === undefined) return message(m.message, child(ref, 'message'));
  // a Responses API input item (the OpenAI Agents SDK's history): `function_call` / `function_call_output`
  if (m.type === 'function_call' && typeof m.name === 'string') {
    return [{ call: { name: m.name, id: str(m.call_id) ?? str(m.id), at: ref, namePath: ['name'], argsAt: 'arguments' in m ? child(ref, 'arguments') : undefined, args: m.arguments } }];
  }
  if (m.type === 'function_call_output') return [{ result: { id: str(m.call_id), at: ref, payload: m.output, payloadPath: ['output'] } }];
  if (Array.isArray(m.parts)) {
    m.parts.forEach((p, j) => part(p, child(ref, 'parts', j), out));
  }
  if (Array.isArray(m.content)) {
    m.content.forEach((p, j) => part(p, child(ref, 'content', j), out));
  }
  if (Array.isArray(m.tool_calls)) {
    m.tool_calls.forEach((tc, j) => {
      if (!isPlainObject(tc)) return;
      const at = child(ref, 'tool_calls', j);
      const fn = isPlainObject(tc.function) ? tc.function : tc;
      const fnAt = fn === tc ? at : child(at, 'function');
      if (typeof fn.name !== 'string') return;
      out.push({ call: { name: fn.name, id: str(tc.id), at, namePath: fn === tc ? ['name'] : ['function', 'name'],
        argsAt: 'arguments' in fn ? child(fnAt, 'arguments') : undefined, args: fn.arguments } });
    });
  }
  // an OpenAI chat tool message (a parts message says its results in its parts)
  if (m.role === 'tool' && !Array.isArray(m.parts) && !Array.isArray(m.content) && ('content' in m || 'tool_call_id' in m)) {
    out.push({ result: { id: str(m.tool_call_id) ?? str(m.id), at: ref, payload: m.content, payloadPath: 'content' in m ? ['content'] : undefined } });
  }
  return out;
}

/** A GenAI part's call id; Microsoft Agent Framework writes it as `[run id, call id]` (a list, or that list as a JSON
 *  string once a trace's input and output have been serialized). */
function partId(id: unknown): string | undefined {
  if (typeof id === 'string' && id.startsWith('["')) {
    const list = jsonValue(id);
    if (Array.isArray(list)) return partId(list);
  }
  return Array.isArray(id) ? str(id[id.length - 1]) : str(id);
}

function part(p: unknown, at: NodeRef, out: ListedMessage): void {
  if (!isPlainObject(p)) return;
  if (p.type === 'tool_call' && typeof p.name === 'string') {
    out.push({ call: { name: p.name, id: partId(p.id), at, namePath: ['name'], argsAt: 'arguments' in p ? child(at, 'arguments') : undefined, args: p.arguments } });
  } else if (p.type === 'tool_call_response') {
    const key = 'response' in p ? 'response' : 'result';
    out.push({ result: { id: partId(p.id), at, payload: p[key], payloadPath: [key] } });
  } else if (p.type === 'server_tool_call' && typeof p.name === 'string') {
    // a provider-run tool (web search, code execution): its details typed by the tool, the arguments under
    // `arguments` when the writer keeps them apart (Pydantic AI), else the details themselves
    const d = p.server_tool_call;
    const argsAt = isPlainObject(d) && 'arguments' in d ? child(at, 'server_tool_call', 'arguments') : 'server_tool_call' in p ? child(at, 'server_tool_call') : undefined;
    out.push({ call: { name: p.name, id: partId(p.id), at, namePath: ['name'], argsAt, args: isPlainObject(d) && 'arguments' in d ? d.arguments : d } });
  } else if (p.type === 'server_tool_call_response') {
    // its details typed by the tool; an Anthropic server tool's error content is typed `*_error`
    const d = p.server_tool_call_response;
    const inner = isPlainObject(d) ? ['response', 'content', 'result'].find((k) => k in d) : undefined;
    const typed = (v: unknown) => isPlainObject(v) && typeof v.type === 'string' && v.type.endsWith('_error');
    const failed = isPlainObject(d) && (typed(d) || (inner !== undefined && typed(d[inner])));
    out.push({ result: { id: partId(p.id), at, payload: inner !== undefined ? (d as Obj)[inner] : d,
      payloadPath: inner !== undefined ? ['server_tool_call_response', inner] : ['server_tool_call_response'], isError: failed || undefined, inline: true } });
  } else if (isCallBlock(p) && typeof p.name === 'string') {
    // Anthropic Messages content blocks (a request's history, recorded whole by an instrumentation): client tools'
    // `tool_use`, the server's `server_tool_use` and `mcp_tool_use`, answered by `tool_result`, `mcp_tool_result`
    // and the server tools' `*_tool_result` blocks (anthropic.ts says which of them failed)
    out.push({ call: { name: p.name, id: str(p.id), at, namePath: ['name'], argsAt: 'input' in p ? child(at, 'input') : undefined, args: p.input } });
  } else if (isResultBlock(p)) {
    out.push({ result: { id: str(p.tool_use_id), at, payload: p.content, payloadPath: ['content'], isError: transportOf(p).isError === true || undefined,
      inline: p.type !== 'tool_result' || undefined } });
  } else if (p.type === 'function' && isPlainObject(p.function) && typeof p.function.name === 'string') {
    // an OpenAI tool call written as a content item (Koog's GenAI messages)
    const fn = p.function;
    out.push({ call: { name: fn.name as string, id: str(p.id), at, namePath: ['function', 'name'], argsAt: 'arguments' in fn ? child(at, 'function', 'arguments') : undefined, args: fn.arguments } });
  } else if (p.type === 'tool-call' && typeof p.toolName === 'string') {
    const key = 'input' in p ? 'input' : 'args';
    out.push({ call: { name: p.toolName, id: str(p.toolCallId), at, namePath: ['toolName'], argsAt: key in p ? child(at, key) : undefined, args: p[key] } });
  } else if (p.type === 'tool-result') {
    const key = 'output' in p ? 'output' : 'result';
    const v = p[key];
    const failed = p.isError === true || (isPlainObject(v) && (v.type === 'error-text' || v.type === 'error-json'));
    out.push({ result: { id: str(p.toolCallId), at, payload: v, payloadPath: [key], isError: failed || undefined } });
  } else if (isPlainObject(p.toolUse) && typeof p.toolUse.name === 'string') {
    // Bedrock Converse blocks (Strands' events)
    const tu = p.toolUse;
    out.push({ call: { name: p.toolUse.name, id: str(tu.toolUseId), at: child(at, 'toolUse'), namePath: ['name'], argsAt: 'input' in tu ? child(at, 'toolUse', 'input') : undefined, args: tu.input } });
  } else if (isPlainObject(p.toolResult)) {
    const tr = p.toolResult;
    out.push({ result: { id: str(tr.toolUseId), at: child(at, 'toolResult'), payload: tr.content, payloadPath: ['content'], isError: tr.status === 'error' || undefined } });
  } else if (keyOf(p, 'functionCall') !== undefined || keyOf(p, 'functionResponse') !== undefined) {
    // Gemini parts, in either spelling (ADK's Python dumps write snake_case)
    const fcKey = keyOf(p, 'functionCall');
    const frKey = keyOf(p, 'functionResponse');
    const fc = fcKey === undefined ? undefined : p[fcKey];
    const fr = frKey === undefined ? undefined : p[frKey];
    if (isPlainObject(fc) && typeof fc.name === 'string') {
      out.push({ call: { name: fc.name, id: str(fc.id), at: child(at, fcKey!), namePath: ['name'], argsAt: 'args' in fc ? child(at, fcKey!, 'args') : undefined, args: fc.args } });
    } else if (isPlainObject(fr)) {
      out.push({ result: { id: str(fr.id), at: child(at, frKey!), payload: fr.response, payloadPath: ['response'] } });
    }
  }
}

/** A list of calls (Vercel `ai.response.toolCalls`: `[{toolCallId, toolName, args | input}]`) as one message. */
export function listedCalls(where: Located): ListedMessage[] {
  if (!Array.isArray(where.value)) return [];
  const out: ListedMessage = [];
  where.value.forEach((c, i) => {
    if (!isPlainObject(c) || typeof c.toolName !== 'string') return;
    const at = child(where, i);
    const key = 'input' in c ? 'input' : 'args';
    out.push({ call: { name: c.toolName, id: str(c.toolCallId), at, namePath: ['toolName'], argsAt: key in c ? child(at, key) : undefined, args: c[key] } });
  });
  return [out];
}

// ---- events -------------------------------------------------------------------------------------------------

/** One event of a span (or one log record), its body fields as attributes. */
export interface EventRecord {
  name: string;
  /** Body fields: the record's `body` or the event's attributes (`gen_ai.event.content` unwrapped). */
  fields: Map<string, Attr>;
}

/** The messages GenAI events make: `gen_ai.assistant.message` (calls), `gen_ai.tool.message` (a result),
 *  `gen_ai.choice` (the output's calls), and the newer `gen_ai.client.inference.operation.details`, whose
 *  `gen_ai.input.messages` / `gen_ai.output.messages` are message lists. `output` says which of them to take:
 *  the span's answer (`gen_ai.choice`, output messages) or its history (the others). */
export function eventMessages(events: EventRecord[], output: boolean): ListedMessage[] {
  const out: ListedMessage[] = [];
  for (const e of events) {
    const f = (k: string) => e.fields.get(k);
    if (e.name === 'gen_ai.client.inference.operation.details') {
      const list = f(output ? 'gen_ai.output.messages' : 'gen_ai.input.messages');
      if (list) out.push(...listedMessages(inner(list.ref, list.value)));
    } else if (output && e.name === 'gen_ai.choice') {
      // the conventions put the calls in `message.tool_calls`; OpenLLMetry's events next to it, in the body's own
      // `tool_calls`
      const m = f('message');
      const msg = m ? contentOf(inner(m.ref, m.value)) : [];
      const tc = f('tool_calls');
      if (tc && !msg.some((item) => 'call' in item)) out.push([...msg, ...toolCallList(tc).flat()]);
      else if (m) out.push(msg);
    } else if (!output && /^gen_ai\.(user|assistant|system|tool)\.message$/.test(e.name)) {
      const tc = f('tool_calls');
      if (tc) out.push(...toolCallList(tc));
      const content = f('content');
      const l = content ? inner(content.ref, content.value) : undefined;
      const id = f('id') ?? f('tool_call_id');
      if (l && typeof l.value === 'object' && l.value !== null && !(e.name === 'gen_ai.tool.message' && id)) {
        // content blocks (Strands writes Bedrock Converse blocks: `toolUse`, `toolResult`)
        out.push(contentOf(l));
      } else if (e.name === 'gen_ai.tool.message') {
        const at = id?.ref ?? content?.ref;
        if (at) out.push([{ result: { id: str(id?.value), at, payload: content?.value, payloadPath: content ? [] : undefined } }]);
      }
    }
  }
  return out;
}

/** What a tool span's events say of its execution (Strands): the arguments (`gen_ai.tool.message` `content`), the
 *  call id and the result (`gen_ai.choice` `message`). */
export function toolSpanEvents(events: EventRecord[]): { args?: Attr; id?: Attr; result?: Attr } {
  const out: { args?: Attr; id?: Attr; result?: Attr } = {};
  for (const e of events) {
    if (e.name === 'gen_ai.tool.message') {
      out.args ??= e.fields.get('content');
      out.id ??= e.fields.get('id');
    } else if (e.name === 'gen_ai.choice') {
      out.result ??= e.fields.get('message');
    }
  }
  return out;
}

/** A message, or a list of content blocks that make one message. */
export function contentOf(l: Located): ListedMessage {
  if (isPlainObject(l.value)) return message(l.value, l);
  const out: ListedMessage = [];
  if (Array.isArray(l.value)) l.value.forEach((p, j) => part(p, child(l, j), out));
  return out;
}

/** An event's `tool_calls` (Chat tool calls, a list or its JSON string) as one message, anchored on the list. */
function toolCallList(tc: Attr): ListedMessage[] {
  const l = inner(tc.ref, tc.value);
  return listedMessages({ doc: l.doc, path: [], value: { role: 'assistant', tool_calls: l.value } }).map((msg) => relocate(msg, l));
}

/** Calls read from a message made up around a located list (`tool_calls` of an event): their anchors are put back
 *  on the list. */
function relocate(msg: ListedMessage, list: Located): ListedMessage {
  const fix = (r: NodeRef): NodeRef => ({ doc: list.doc, path: [...list.path, ...r.path.slice(1)] });
  return msg.map((item) => ('call' in item ? { call: { ...item.call, at: fix(item.call.at), argsAt: item.call.argsAt ? fix(item.call.argsAt) : undefined } } : item));
}

/** The fields of an event object (`{name, attributes}` of a span event; `{body, attributes}` of a log record),
 *  read with the given attribute reader. */
export function eventFields(e: Obj, ref: NodeRef, attrsOf: (path: JsonPath, attrs: unknown) => Map<string, { value: unknown; ref: NodeRef }>): EventRecord | undefined {
  const fields = e.attributes !== undefined ? attrsOf([...ref.path, 'attributes'], e.attributes) : new Map<string, { value: unknown; ref: NodeRef }>();
  const name = str(e.name) ?? str(e.eventName) ?? str(fields.get('event.name')?.value);
  if (name === undefined) return undefined;
  // Azure's and others' events put the body as one JSON attribute
  const wrapped = fields.get('gen_ai.event.content');
  if (wrapped) {
    const l = inner(wrapped.ref, wrapped.value);
    if (isPlainObject(l.value)) for (const [k, v] of Object.entries(l.value)) fields.set(k, { value: v, ref: child(l, k) });
  }
  // a log record's body: an OTLP AnyValue kvlist, or a plain object (its top-level fields)
  const body = e.body;
  if (isPlainObject(body) && isPlainObject(body.kvlistValue) && Array.isArray(body.kvlistValue.values)) {
    for (const [k, v] of attrsOf([...ref.path, 'body', 'kvlistValue', 'values'], body.kvlistValue.values)) fields.set(k, v);
  } else if (isPlainObject(body)) {
    for (const [k, v] of Object.entries(body)) fields.set(k, { value: v, ref: child(ref, 'body', k) });
  }
  return { name, fields };
}

/** Tool definitions a convention writes: Vercel `ai.prompt.tools` (JSON strings), MLflow `mlflow.chat.tools`,
 *  Pydantic AI `model_request_parameters.function_tools`, ADK `llm_request.config.tools[].function_declarations`.
 *  Each is handed to `add` as a definition object (`{name, parameters | inputSchema | parameters_json_schema}`). */
export function conventionDefinitions(get: (key: string) => { value: unknown; ref: NodeRef } | undefined, add: (def: unknown, ref: NodeRef) => void): void {
  const list = (key: string, each: (l: Located) => void) => {
    const a = get(key);
    if (!a) return;
    const l = inner(a.ref, a.value);
    if (Array.isArray(l.value)) l.value.forEach((d, i) => each(inner(child(l, i), d)));
    else each(l);
  };
  list('ai.prompt.tools', (d) => add(d.value, d));
  list('mlflow.chat.tools', (d) => add(d.value, d));
  const mrp = get('model_request_parameters');
  if (mrp) {
    const l = inner(mrp.ref, mrp.value);
    if (isPlainObject(l.value) && Array.isArray(l.value.function_tools)) l.value.function_tools.forEach((d, i) => add(d, child(l, 'function_tools', i)));
  }
  const req = get('gcp.vertex.agent.llm_request');
  if (req) {
    const l = inner(req.ref, req.value);
    const tools = isPlainObject(l.value) && isPlainObject(l.value.config) ? l.value.config.tools : undefined;
    for (const d of geminiDeclarations(tools)) add({ name: d.name, parameters: d.params }, child(l, 'config', 'tools', ...d.path));
  }
  const resp = responseObject(get);
  const tools = resp && isPlainObject(resp.value) ? resp.value.tools : undefined;
  if (resp && Array.isArray(tools)) tools.forEach((d, i) => isPlainObject(d) && d.type === 'function' && add(d, child(resp, 'tools', i)));
}
