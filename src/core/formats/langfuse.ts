// Langfuse trace exports: `{trace, observations}` (or a list of them). Observations are ordered by start time.
// What the model called comes from GENERATION outputs, in whatever shape the instrumentation stored them (a
// Responses API object, OTel GenAI message parts, an Anthropic message, a Chat completion; objects or JSON
// strings). TOOL observations are the executions: a TOOL observation answers the call with its id
// (`gen_ai.tool.call.id` and friends in `metadata.attributes`), else the earliest unanswered call of its name;
// one that answers nothing is a call and its result (arguments from `input`). `level: "ERROR"` is the span
// status. Tool definitions: `llm.tools.*` / `gen_ai.tool.definitions` attributes and a Responses object's `tools`.
import type { FormatAdapter } from './adapter';
import { readAnthropicMessage } from './anthropic';
import type { SessionBuilder } from './builder';
import { readChatMessage, isChatMessage } from './openai-chat';
import { readResponsesItem, readResponsesTools } from './openai-responses';
import { readAttributes, readDefinitions, readPartsMessages, TraceCalls, type SpanRecord } from './spans';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { byTime, isPlainObject, jsonIn, SessionSet, str, unansweredByName, type Located, type Obj } from './util';

function isExport(v: unknown): v is { trace: Obj; observations: unknown[] } {
  return isPlainObject(v) && isPlainObject(v.trace) && Array.isArray(v.observations)
    && v.observations.every((o) => isPlainObject(o) && typeof o.type === 'string' && 'id' in o);
}

interface Observation {
  o: Obj;
  path: JsonPath;
  attrs: Map<string, { value: unknown; ref: { doc: Doc; path: JsonPath } }>;
}

function attrStr(ob: Observation, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = str(ob.attrs.get(k)?.value);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The calls a GENERATION's output holds. */
function readOutput(t: TraceCalls, out: Located, responsesTools: Set<string>): void {
  const v = out.value;
  const b = t.b;
  if (isPlainObject(v) && Array.isArray(v.output)) {
    readResponsesToolsOnce(b, out, v.tools, responsesTools);
    let turn: number | undefined;
    v.output.forEach((item, i) => {
      if (!isPlainObject(item) || item.type !== 'function_call' || t.hasCall(str(item.call_id) ?? str(item.id))) return;
      turn ??= b.newTurn();
      readResponsesItem(b, out.doc, [...out.path, 'output', i], item, 'any');
    });
    b.breakTurn();
    return;
  }
  if (Array.isArray(v) && v.some((m) => isPlainObject(m) && Array.isArray(m.parts))) {
    readPartsMessages(t, out, true, false);
    return;
  }
  if (isPlainObject(v) && Array.isArray(v.content) && v.role !== 'user') {
    if (v.content.some((c) => isPlainObject(c) && c.type === 'tool_use' && !t.hasCall(str(c.id)))) readAnthropicMessage(b, out.doc, out.path, v);
    return;
  }
  if (isPlainObject(v) && Array.isArray(v.choices)) {
    v.choices.forEach((c, i) => {
      if (isPlainObject(c) && isChatMessage(c.message)) readChatMessage(b, out.doc, [...out.path, 'choices', i, 'message'], c.message);
    });
    return;
  }
  if (isChatMessage(v) && v.role === 'assistant') readChatMessage(b, out.doc, out.path, v);
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

function readTool(t: TraceCalls, doc: Doc, ob: Observation): void {
  const o = ob.o;
  const name = attrStr(ob, 'gen_ai.tool.name', 'tool.name') ?? str(o.name)?.replace(/^running tool: /, '');
  if (name === undefined) return;
  const id = attrStr(ob, 'gen_ai.tool.call.id', 'tool.call.id', 'tool_call.id', 'tool.id', 'tool_call_id');
  const transport: TransportSignals = o.level === 'ERROR' ? { spanStatus: 'ERROR' } : {};
  const output = 'output' in o ? jsonIn(doc, [...ob.path, 'output'], o.output) : undefined;
  const resultAt = output ? { doc: output.doc, path: output.path } : { doc, path: ob.path };
  if (id !== undefined && t.hasCall(id)) {
    t.result(id, { doc, path: ob.path }, output?.value, output ? [] : undefined, transport);
    if (output) t.b.session.results[t.b.session.results.length - 1].payloadAt = resultAt;
    return;
  }
  const byName = id === undefined ? unansweredByName(t.b, name) : undefined;
  if (byName !== undefined) {
    const call = t.b.session.calls[byName];
    t.b.result({ at: { doc, path: ob.path }, callId: call.id, callIndex: call.id === undefined ? byName : undefined, payload: output?.value,
      payloadPath: output ? [] : undefined, transport });
    if (output) t.b.session.results[t.b.session.results.length - 1].payloadAt = resultAt;
    t.b.breakTurn();
    return;
  }
  const nameRef = ob.attrs.get('gen_ai.tool.name')?.ref ?? ob.attrs.get('tool.name')?.ref ?? { doc, path: [...ob.path, 'name'] };
  const input = 'input' in o ? jsonIn(doc, [...ob.path, 'input'], o.input) : undefined;
  t.call(name, id, nameRef, [], input ? { doc: input.doc, path: input.path } : undefined, input?.value, t.b.newTurn());
  const index = t.b.session.calls.length - 1;
  t.b.result({ at: { doc, path: ob.path }, callId: id, callIndex: id === undefined ? index : undefined, payload: output?.value,
    payloadPath: output ? [] : undefined, transport });
  if (output) t.b.session.results[t.b.session.results.length - 1].payloadAt = resultAt;
  t.b.breakTurn();
}

function readExport(b: SessionBuilder, doc: Doc, base: JsonPath, v: { trace: Obj; observations: unknown[] }): void {
  const observations: Observation[] = [];
  v.observations.forEach((o, i) => {
    if (!isPlainObject(o)) return;
    const path = [...base, 'observations', i];
    const md = jsonIn(doc, [...path, 'metadata'], o.metadata);
    const attrs = isPlainObject(md.value) && isPlainObject(md.value.attributes) ? readAttributes(md.doc, [...md.path, 'attributes'], md.value.attributes) : new Map();
    observations.push({ o, path, attrs });
  });
  const t = new TraceCalls(b);
  const seen = new Set<string>();
  for (const ob of observations) readDefinitions(b, { ref: { doc, path: ob.path }, traceId: '', attrs: ob.attrs } as SpanRecord, seen);
  for (const ob of byTime(observations, (x) => x.o.startTime)) {
    if (ob.o.type === 'GENERATION' && 'output' in ob.o) readOutput(t, jsonIn(doc, [...ob.path, 'output'], ob.o.output), seen);
    else if (ob.o.type === 'TOOL') readTool(t, doc, ob);
  }
}

export const langfuse: FormatAdapter = {
  id: 'langfuse',
  document: {
    claims(v) {
      return isExport(v) || (Array.isArray(v) && v.length > 0 && v.every(isExport));
    },
    read(doc, emit) {
      const sessions = new SessionSet();
      const list = Array.isArray(doc.value) ? doc.value : [doc.value];
      list.forEach((e, i) => {
        const ex = e as { trace: Obj; observations: unknown[] };
        readExport(sessions.get(str(ex.trace.id) ?? String(i)), doc, Array.isArray(doc.value) ? [i] : [], ex);
      });
      sessions.emitAll(emit);
    },
  },
};
