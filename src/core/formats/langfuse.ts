// Langfuse trace exports: `{trace, observations}` (or a list of them; `{traces: [...], observations}` with several),
// a trace as the public API returns it (its fields with `observations` inside), a page of observations (`{data:
// [...], meta}`), or the observations table's batch export (a JSON list, or JSONL: one observation per line); flat
// lists are grouped by `traceId`. Observations are ordered by start time.
// What the model called comes from GENERATION outputs, in whatever shape the instrumentation stored them (a
// Responses API object, OTel GenAI message parts, a list of messages, an Anthropic message, a Chat completion, a
// `gen_ai.choice` event, a Google ADK LlmResponse, a LangChain message with `additional_kwargs.tool_calls`, the
// Vercel AI SDK's list of `{toolCallId, toolName, input}`; objects or JSON strings). A result that only the next
// GENERATION's input shows answers a call still waiting, standing in until the execution's own observation is read
// (observations out of time order). A call read again with the same id and name while it waits (a second GENERATION
// of the same model call) is read once; another name under that id, or the id reused after its call was answered, is
// a call of its own. Executions: TOOL observations, observations of another type whose span attributes name a tool
// (older Langfuse types every span SPAN), and any observation whose output is a LangChain ToolMessage (the LangChain
// handler traces tools as SPANs; a graph node's `{messages: [...]}` output is state, not an execution). An execution
// answers the call with its id (`gen_ai.tool.call.id`, Vercel's `ai.toolCall.id` and friends in
// `metadata.attributes`, the ToolMessage's `tool_call_id`), else (no id, or one no call carries) the earliest
// unanswered call of its name; one that answers nothing is a call and its result (arguments from `input`, else the
// span's argument attributes). `level: "ERROR"` is the span status ERROR (its `statusMessage` the payload when there
// is no output), any other level a span that ended without error; a ToolMessage `status: "error"` is an honest
// failure too. Tool definitions: `llm.tools.*` / `gen_ai.tool.definitions` attributes, a Responses object's `tools`,
// a recorded request's `tools`, and the `{role: "tool", content: {type: "function", function}}` entries the
// LangChain handler puts in a GENERATION's input.
import type { FormatAdapter } from './adapter';
import { isCallBlock, readAnthropicMessage } from './anthropic';
import type { SessionBuilder } from './builder';
import { readChatMessage, isChatMessage } from './openai-chat';
import { readResponsesItem, readResponsesTools } from './openai-responses';
import { isToolSpan, readAttributes, readDefinitionList, readDefinitions, readPartsMessages, TraceCalls, type Attr } from './spans';
import { listedCalls, listedMessages, TOOL_SPAN_KEYS, type ListedCall } from './span-conventions';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { langChainFields, readLangChainCalls } from './langchain';
import { byTime, hasCallId, isPlainObject, jsonIn, SessionSet, str, unansweredByName, waitingFor, type Located, type Obj } from './util';

function isExport(v: unknown): v is { trace: Obj; observations: unknown[] } {
  return isPlainObject(v) && isPlainObject(v.trace) && Array.isArray(v.observations)
    && v.observations.every((o) => isPlainObject(o) && typeof o.type === 'string' && 'id' in o);
}

interface Observation {
  o: Obj;
  doc: Doc;
  path: JsonPath;
  attrs: Map<string, Attr>;
}

function attrStr(ob: Observation, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = str(ob.attrs.get(k)?.value);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** A call already read with this id and this name, still waiting for its result: the same call recorded again (a
 *  nested or second instrumentation's GENERATION), read once. Another name under the same id is a different call;
 *  so is the same name once every call with the id is answered (an id reused: Microsoft.Extensions.AI names
 *  Gemini's calls by their tool). */
function isCopy(b: SessionBuilder, id: string | undefined, name: unknown): boolean {
  // hasCallId first (O(1)): the name scan runs only for an id already seen
  return id !== undefined && hasCallId(b, id) && waitingFor(b, id) && b.session.calls.some((c) => c.id === id && c.name === name);
}

/** Every call of a Chat message is a copy (then the message is not read again). */
function chatCopies(b: SessionBuilder, msg: Obj): boolean {
  const calls = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
  return calls.length > 0 && calls.every((tc) => isPlainObject(tc) && isPlainObject(tc.function) && isCopy(b, str(tc.id), tc.function.name));
}

/** A LangChain message (Langfuse's LangChain handler writes `{role, content, additional_kwargs}`; a serialized
 *  AIMessage has `kwargs`; a plain one `type: "ai"`). */
function isLangChainMessage(v: unknown): v is Obj {
  return isPlainObject(v) && (isPlainObject(v.additional_kwargs) || v.type === 'ai' || (v.lc !== undefined && isPlainObject(v.kwargs)));
}

/** The calls a GENERATION's output holds. */
function readOutput(t: TraceCalls, out: Located, responsesTools: Set<string>): void {
  const v = out.value;
  const b = t.b;
  if (isPlainObject(v) && isPlainObject(v.message) && v.role === undefined && !Array.isArray(v.output)) {
    // a GenAI `gen_ai.choice` event (Pydantic AI before v3 records its answer so): the message inside
    readOutput(t, { doc: out.doc, path: [...out.path, 'message'], value: v.message }, responsesTools);
    return;
  }
  if (isPlainObject(v) && Array.isArray(v.output)) {
    readResponsesToolsOnce(b, out, v.tools, responsesTools);
    let turn: number | undefined;
    v.output.forEach((item, i) => {
      if (!isPlainObject(item) || item.type !== 'function_call' || isCopy(b, str(item.call_id) ?? str(item.id), item.name)) return;
      turn ??= b.newTurn();
      readResponsesItem(b, out.doc, [...out.path, 'output', i], item, 'any');
    });
    b.breakTurn();
    return;
  }
  const vercel = vercelCalls(out);
  if (vercel) {
    let turn: number | undefined;
    for (const c of vercel) {
      if (!isCopy(b, c.id, c.name)) t.call(c.name, c.id, c.at, c.namePath, c.argsAt, c.args, (turn ??= b.newTurn()));
    }
    b.breakTurn();
    return;
  }
  if (Array.isArray(v) && v.some((m) => isPlainObject(m) && (Array.isArray(m.parts) || Array.isArray(m.content) || Array.isArray(m.tool_calls)))) {
    // a list of messages: GenAI parts, content items, Chat messages' tool_calls
    readPartsMessages(t, out, true, false);
    return;
  }
  if (isPlainObject(v) && isPlainObject(v.content) && Array.isArray(v.content.parts)) {
    // a Google ADK LlmResponse: the model's answer is one Gemini Content
    readPartsMessages(t, { doc: out.doc, path: [...out.path, 'content'], value: v.content }, true, false);
    return;
  }
  if (isLangChainMessage(v) && v.role !== 'user') {
    const m = langChainFields(v)!;
    const at = [...out.path, ...m.path];
    if (readLangChainCalls(b, out.doc, at, m.value, (id, name) => !isCopy(b, id, name)) === 0 && !hasCalls(m.value)) b.assistantText({ doc: out.doc, path: [...at, 'content'] }, m.value.content);
    return;
  }
  if (isPlainObject(v) && Array.isArray(v.content) && v.role !== 'user') {
    const uses = v.content.filter((c) => isPlainObject(c) && isCallBlock(c)) as Obj[];
    if (uses.length > 0 && !uses.every((c) => isCopy(b, str(c.id), c.name))) readAnthropicMessage(b, out.doc, out.path, v);
    return;
  }
  if (isPlainObject(v) && Array.isArray(v.choices)) {
    v.choices.forEach((c, i) => {
      if (isPlainObject(c) && isChatMessage(c.message) && !chatCopies(b, c.message)) readChatMessage(b, out.doc, [...out.path, 'choices', i, 'message'], c.message);
    });
    return;
  }
  if (isChatMessage(v) && v.role === 'assistant' && !chatCopies(b, v)) readChatMessage(b, out.doc, out.path, v);
}

/** The Vercel AI SDK's `ai.response.toolCalls` as a GENERATION output: a list whose every entry is a call with
 *  its id (`{toolCallId, toolName, input}` in v5, `args` in v4; listedCalls reads them). */
function vercelCalls(out: Located): ListedCall[] | undefined {
  if (!Array.isArray(out.value) || out.value.length === 0) return undefined;
  const items = listedCalls(out)[0];
  const calls = items.flatMap((item) => ('call' in item && item.call.id !== undefined ? [item.call] : []));
  return calls.length === out.value.length ? calls : undefined;
}

/** A LangChain message names calls (all of them copies when none was read). */
function hasCalls(m: Obj): boolean {
  return (isPlainObject(m.additional_kwargs) && Array.isArray(m.additional_kwargs.tool_calls) && m.additional_kwargs.tool_calls.length > 0)
    || (Array.isArray(m.tool_calls) && m.tool_calls.length > 0);
}

/** Tool definitions Langfuse's LangChain handler writes into a GENERATION's input: `{role: "tool", content: {type:
 *  "function", function: {name, parameters}}}`. */
function readInputTools(b: SessionBuilder, { doc, path, value: input }: Located, seen: Set<string>): void {
  if (isPlainObject(input) && Array.isArray(input.tools)) {
    // a request recorded whole (Anthropic Messages, Chat Completions, Responses): its `tools`, read as GenAI
    // definitions are
    readDefinitionList(b, { doc, path: [...path, 'tools'], value: input.tools }, seen);
    return;
  }
  if (!Array.isArray(input)) return;
  input.forEach((m, i) => {
    const c = isPlainObject(m) && m.role === 'tool' && isPlainObject(m.content) && m.content.type === 'function' ? m.content : undefined;
    const fn = c && isPlainObject(c.function) ? c.function : undefined;
    if (!fn || typeof fn.name !== 'string' || !('parameters' in fn) || seen.has(fn.name)) return;
    seen.add(fn.name);
    b.tool(fn.name, fn.parameters, { doc, path: [...path, i, 'content', 'function'] });
  });
}

function readResponsesToolsOnce(b: SessionBuilder, out: Located, tools: unknown, seen: Set<string>): void {
  if (!Array.isArray(tools)) return;
  const fresh = tools.map((tool, i) => ({ tool, i })).filter(({ tool }) => isPlainObject(tool) && typeof tool.name === 'string' && !seen.has(tool.name));
  for (const { tool, i } of fresh) {
    const before = b.session.tools.length;
    readResponsesTools(b, out.doc, [...out.path, 'tools'], [tool]);
    const added = b.session.tools[before];
    if (added) {
      added.at = { doc: out.doc, path: [...out.path, 'tools', i] };
      seen.add(added.name);
    }
  }
}

/** A LangChain ToolMessage an observation output (a LangChain tool run traced as a SPAN): its fields. */
function toolMessageOf(output: unknown): { value: Obj; path: JsonPath } | undefined {
  const m = langChainFields(output);
  return m && typeof m.value.tool_call_id === 'string' && (m.value.type === 'tool' || m.path.length > 0) ? m : undefined;
}

const isEmpty = (v: unknown) => v === null || v === undefined || (isPlainObject(v) && Object.keys(v).length === 0);

/** A tool span's arguments or result as its attributes hold them (OpenInference's `tool.parameters` / `output.value`,
 *  Google ADK's `gcp.vertex.agent.tool_response`, ...), for an observation whose `input` / `output` Langfuse left
 *  empty. */
function attrValue(ob: Observation, keys: readonly string[]): Located | undefined {
  for (const k of keys) {
    const a = ob.attrs.get(k);
    if (a && !isEmpty(a.value)) return jsonIn(a.ref.doc, a.ref.path, a.value);
  }
  return undefined;
}

/** What an execution returned: the ToolMessage's content, the observation's output, else the span's own result
 *  attribute (Langfuse left the output empty), else the status message of a failed span. */
function toolOutput(doc: Doc, ob: Observation, out: Located | undefined, message: { value: Obj; path: JsonPath } | undefined): Located | undefined {
  if (message && out) return { doc: out.doc, path: [...out.path, ...message.path, 'content'], value: message.value.content };
  if (out && !isEmpty(out.value)) return out;
  const own = attrValue(ob, TOOL_SPAN_KEYS.result);
  if (own) return own;
  if (ob.o.level === 'ERROR' && typeof ob.o.statusMessage === 'string') return { doc, path: [...ob.path, 'statusMessage'], value: ob.o.statusMessage };
  return out && out.value !== null ? out : undefined;
}

/** A tool execution: a TOOL observation, or any observation whose output is a ToolMessage. */
function readTool(t: TraceCalls, doc: Doc, ob: Observation, out: Located | undefined, message: { value: Obj; path: JsonPath } | undefined, early: EarlyResults): void {
  const o = ob.o;
  const b = t.b;
  const name = attrStr(ob, 'gen_ai.tool.name', 'tool.name', 'ai.toolCall.name') ?? str(message?.value.name) ?? str(o.name)?.replace(/^running tool: /, '');
  if (name === undefined) return;
  const id = attrStr(ob, 'gen_ai.tool.call.id', 'tool.call.id', 'tool_call.id', 'tool.id', 'tool_call_id', 'ai.toolCall.id') ?? str(message?.value.tool_call_id);
  // level ERROR is Langfuse's span status ERROR (any other level: the span ended without one)
  const transport: TransportSignals = typeof o.level === 'string' ? { spanStatus: o.level === 'ERROR' ? 'ERROR' : 'UNSET' } : {};
  if (message?.value.status === 'error') transport.isError = true;
  const output = toolOutput(doc, ob, out, message);
  const result = (callId: string | undefined, callIndex: number | undefined) => {
    b.result({ at: { doc, path: ob.path }, callId, callIndex, payload: output?.value, transport });
    if (output) b.session.results[b.session.results.length - 1].payloadAt = { doc: output.doc, path: output.path };
    b.breakTurn();
  };
  if (id !== undefined && waitingFor(b, id)) return result(id, undefined);
  // without an id, or with one no call carries (the model's output recorded none: Google ADK makes its ids
  // itself), the earliest waiting call of its name; a call that has another id is another call
  const byName = id === undefined || !hasCallId(b, id) ? unansweredByName(b, name) : undefined;
  const named = byName === undefined ? undefined : b.session.calls[byName];
  if (named && (id === undefined || named.id === undefined)) return result(named.id, named.id === undefined ? byName : undefined);
  // the call is answered only by a later request's copy of this result (read first: observations out of time
  // order): the execution's own result takes that copy's place
  const copy = early.take(id, name);
  if (copy !== undefined) {
    const callId = b.session.results[copy].callId;
    return early.replace(copy, () => result(callId, undefined));
  }
  if (id !== undefined && hasCallId(b, id)) return; // every call with this id is answered: the same execution recorded again
  // an execution no model output recorded: its own call, arguments from `input`
  const nameRef = ob.attrs.get('gen_ai.tool.name')?.ref ?? ob.attrs.get('tool.name')?.ref ?? { doc, path: [...ob.path, 'name'] };
  const given = 'input' in o ? jsonIn(doc, [...ob.path, 'input'], o.input) : undefined;
  const input = given && !isEmpty(given.value) ? given : attrValue(ob, TOOL_SPAN_KEYS.args) ?? given;
  t.call(name, id, nameRef, [], input ? { doc: input.doc, path: input.path } : undefined, input?.value, b.newTurn());
  result(id, id === undefined ? b.session.calls.length - 1 : undefined);
}

/** Results read from GENERATION inputs: copies of the conversation, standing in for an execution until its own
 *  observation is read (observations out of time order, or sharing one start time, can put it after the next
 *  request). Pairing then does not depend on the order observations are listed in. Stand-ins are kept by the call
 *  id they answer (each as its index in the session's results), and call ids by tool name: finding one is a look-up. */
class EarlyResults {
  /** Per call id, the stand-ins answering it (indices in the session's results, in the order noted). */
  private readonly byId = new Map<string, number[]>();
  /** Per tool name, the ids of the session's calls of that tool (the calls up to `synced`). */
  private readonly idsByName = new Map<string, Set<string>>();
  private synced = 0;

  constructor(private readonly b: SessionBuilder) {}

  /** The result just added to the session at index `at`, when one was. */
  note(at: number): void {
    const id = this.b.session.results[at]?.callId;
    if (id === undefined) return;
    const list = this.byId.get(id);
    if (list) list.push(at);
    else this.byId.set(id, [at]);
  }

  /** The first stand-in answering the call with this id (with no id: a call of this tool), no longer a stand-in;
   *  its index in the session's results. */
  take(id: string | undefined, name: string): number | undefined {
    if (this.byId.size === 0) return undefined;
    if (id !== undefined) return this.shift(id);
    const calls = this.b.session.calls;
    for (; this.synced < calls.length; this.synced++) {
      const c = calls[this.synced];
      if (c.id === undefined) continue;
      const ids = this.idsByName.get(c.name);
      if (ids) ids.add(c.id);
      else this.idsByName.set(c.name, new Set([c.id]));
    }
    let first: string | undefined;
    for (const cid of this.idsByName.get(name) ?? []) {
      const at = this.byId.get(cid)?.[0];
      if (at !== undefined && (first === undefined || at < this.byId.get(first)![0])) first = cid;
    }
    return first === undefined ? undefined : this.shift(first);
  }

  private shift(id: string): number | undefined {
    const list = this.byId.get(id);
    const at = list?.shift();
    if (list?.length === 0) this.byId.delete(id);
    return at;
  }

  /** Put the result `record` adds in the place of the stand-in at `at` (its place and turn in the session kept). */
  replace(at: number, record: () => void): void {
    const results = this.b.session.results;
    const copy = results[at];
    const before = results.length;
    record();
    if (results.length > before) results[at] = { ...results.pop()!, turn: copy.turn };
  }
}

/** The results a GENERATION's input (the conversation so far) shows for calls still waiting: a tool whose execution
 *  no observation recorded (only its message in the next model request). Results of calls the trace does not hold
 *  (an earlier trace's) are left alone. */
function readInputResults(t: TraceCalls, input: Located, early: EarlyResults): void {
  for (const m of listedMessages(input)) {
    for (const item of m) {
      if (!('result' in item)) continue;
      const r = item.result;
      if (r.id === undefined || !t.waitingFor(r.id)) continue;
      const at = t.b.session.results.length;
      t.result(r.id, r.at, r.payload, r.payloadPath, r.isError ? { isError: true } : {});
      early.note(at);
    }
  }
}

/** The observations of one trace, each with its document (a whole export's, or its own line's) and its path there. */
type Entries = { o: unknown; doc: Doc; path: JsonPath }[];

function entriesOf(doc: Doc, list: unknown[], base: JsonPath): Entries {
  return list.map((o, i) => ({ o, doc, path: [...base, i] }));
}

/** Observations grouped by `traceId`, in order of first appearance. */
function byTraceId(entries: Entries): Map<string, Entries> {
  const out = new Map<string, Entries>();
  for (const e of entries) {
    const key = (isPlainObject(e.o) ? str(e.o.traceId) : undefined) ?? '';
    const list = out.get(key);
    if (list) list.push(e);
    else out.set(key, [e]);
  }
  return out;
}

function readExport(b: SessionBuilder, entries: Entries): void {
  const observations: Observation[] = [];
  entries.forEach(({ o, doc, path }) => {
    if (!isPlainObject(o)) return;
    const md = jsonIn(doc, [...path, 'metadata'], o.metadata);
    const attrs = isPlainObject(md.value) && isPlainObject(md.value.attributes) ? readAttributes(md.doc, [...md.path, 'attributes'], md.value.attributes) : new Map<string, Attr>();
    observations.push({ o, doc, path, attrs });
  });
  const t = new TraceCalls(b);
  const early = new EarlyResults(b);
  const seen = new Set<string>();
  for (const ob of observations) readDefinitions(b, { ref: { doc: ob.doc, path: ob.path }, traceId: '', attrs: ob.attrs }, seen);
  for (const ob of observations) if (ob.o.type === 'GENERATION') readInputTools(b, jsonIn(ob.doc, [...ob.path, 'input'], ob.o.input), seen);
  for (const ob of byTime(observations, (x) => x.o.startTime)) {
    const doc = ob.doc;
    if (ob.o.type === 'GENERATION') {
      if ('input' in ob.o) readInputResults(t, jsonIn(doc, [...ob.path, 'input'], ob.o.input), early);
      if ('output' in ob.o) readOutput(t, jsonIn(doc, [...ob.path, 'output'], ob.o.output), seen);
      continue;
    }
    const out = 'output' in ob.o ? jsonIn(doc, [...ob.path, 'output'], ob.o.output) : undefined;
    const message = out ? toolMessageOf(out.value) : undefined;
    if (ob.o.type === 'TOOL' || message || isToolObservation(doc, ob)) readTool(t, doc, ob, out, message, early);
  }
}

/** An observation that is not typed TOOL but whose span attributes make it a tool execution (older Langfuse
 *  versions type every non-model span SPAN: Koog's `tool.<name>` spans with `gen_ai.tool.name`). */
function isToolObservation(doc: Doc, ob: Observation): boolean {
  // it must name its tool: a span named only by itself (BeeAI's `tool.search.wikipedia.success-12`) is an event of
  // an execution another span records with the tool's name
  const named = ob.attrs.has('gen_ai.tool.name') || ob.attrs.has('tool.name') || ob.attrs.has('ai.toolCall.name');
  return ob.o.type !== 'GENERATION' && ob.o.type !== 'AGENT' && named && isToolSpan({ ref: { doc, path: ob.path }, traceId: '', name: str(ob.o.name), attrs: ob.attrs });
}

const OBSERVATION_TYPES = new Set(['GENERATION', 'SPAN', 'EVENT', 'TOOL', 'AGENT', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL']);

/** An observation as the public API returns it (`traceId`, `startTime`, one of Langfuse's types). */
function isApiObservation(o: unknown): o is Obj {
  return isPlainObject(o) && typeof o.type === 'string' && OBSERVATION_TYPES.has(o.type) && typeof o.traceId === 'string' && 'startTime' in o;
}

/** A trace as the public API returns it (`GET /api/public/traces/{id}`): the trace's fields and its observations. */
function isApiTrace(v: unknown): v is Obj & { id: string; observations: unknown[] } {
  return isPlainObject(v) && typeof v.id === 'string' && !('trace' in v) && Array.isArray(v.observations) && v.observations.length > 0
    && v.observations.every(isApiObservation);
}

/** A page of observations (`GET /api/public/observations`: `{data, meta}`): one session per trace. */
function isObservationPage(v: unknown): v is Obj & { data: Obj[] } {
  return isPlainObject(v) && Array.isArray(v.data) && v.data.length > 0 && v.data.every(isApiObservation);
}

/** Traces and their observations side by side (`{traces: [...], observations: [...]}`, as Langfuse's seeder
 *  fixtures hold several traces): one session per trace. */
function isTracesExport(v: unknown): v is Obj & { observations: Obj[] } {
  return isPlainObject(v) && Array.isArray(v.traces) && v.traces.every(isPlainObject) && Array.isArray(v.observations) && v.observations.length > 0
    && v.observations.every((o) => isPlainObject(o) && typeof o.type === 'string' && OBSERVATION_TYPES.has(o.type) && 'id' in o);
}

export const langfuse: FormatAdapter = {
  id: 'langfuse',
  document: {
    claims(v) {
      if (isExport(v) || isApiTrace(v) || isObservationPage(v) || isTracesExport(v)) return true;
      return Array.isArray(v) && v.length > 0 && (v.every(isExport) || v.every(isApiTrace) || v.every(isApiObservation));
    },
    read(doc, emit) {
      const sessions = new SessionSet();
      const v = doc.value;
      // flat lists of observations (an API page, the seeder's layout, the UI's JSON export): one session per trace
      const flat = isObservationPage(v) ? entriesOf(doc, v.data, ['data']) : isTracesExport(v) ? entriesOf(doc, v.observations, ['observations'])
        : Array.isArray(v) && v.every(isApiObservation) ? entriesOf(doc, v, []) : undefined;
      if (flat) {
        for (const [key, entries] of byTraceId(flat)) readExport(sessions.get(key), entries);
        sessions.emitAll(emit);
        return;
      }
      const list = Array.isArray(v) ? v : [v];
      list.forEach((e, i) => {
        const base = Array.isArray(v) ? [i] : [];
        if (isApiTrace(e)) readExport(sessions.get(e.id), entriesOf(doc, e.observations, [...base, 'observations']));
        else {
          const ex = e as { trace: Obj; observations: unknown[] };
          readExport(sessions.get(str(ex.trace.id) ?? String(i)), entriesOf(doc, ex.observations, [...base, 'observations']));
        }
      });
      sessions.emitAll(emit);
    },
  },
  // the JSONL export (one observation per line): kept until the file ends, then read per trace like a flat list
  lines: {
    claims: isApiObservation,
    open(sink) {
      const entries: Entries = [];
      return {
        read(doc) {
          if (isApiObservation(doc.value)) entries.push({ o: doc.value, doc, path: [] });
        },
        finish() {
          for (const [key, list] of byTraceId(entries)) readExport(sink.sessionFor(key), list);
        },
      };
    },
  },
};
