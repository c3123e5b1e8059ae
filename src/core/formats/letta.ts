// Letta (MemGPT) agent files (`.af`): an agent's state with its whole message history. Two layouts: the legacy
// one (schema 0.6-0.7: the agent itself, `{messages, tools, tool_rules, in_context_message_indices, llm_config}`)
// and the newer one (`{agents: [{messages, tool_ids, in_context_message_ids}], tools, blocks, ...}`), one session
// per agent there, with the tools its `tool_ids` name. A file may also hold the agent file as one JSON string.
// Calls: assistant (or approval) messages' `tool_calls[]` `{id, function: {name, arguments}}`, arguments a JSON
// string. Results: `role: tool` messages linked by `tool_call_id` (their `name` may be the agent's, not the
// tool's); the content is Letta's envelope `{status: "OK"|"Failed", message, time}` as a JSON string. Error signal:
// `tool_returns[].status` ("success" / "error"), else the envelope's status. A tool message whose `tool_returns`
// answer several calls (parallel calls) gives one result per return; approvals' client-side tool returns are
// results too. Tool definitions: `json_schema.parameters` (else `args_json_schema`). Letta adds
// `request_heartbeat` (and, with inner thoughts in kwargs, `inner_thoughts`) to the schema it sends the model and
// strips both from the arguments before running the tool (older versions store the heartbeat in `json_schema` as
// required, newer ones add it at request time): so both are declared, optional, whatever the file stores.
// The messages Letta's API returns and streams (`message_type`, a `LettaResponse`) are read by letta-messages.ts.
import { readAsLines, type FormatAdapter } from './adapter';
import { lettaMessageLines, messageList } from './letta-messages';
import { SessionBuilder, type NodeRef } from './builder';
import type { TransportSignals } from '../model';
import { nodeDoc, type JsonPath } from '../parse/doc';
import { at, isPlainObject, jsonIn, jsonValue, str, textOf, unansweredByName, type Obj } from './util';

const HEARTBEAT = 'request_heartbeat';
const INNER_THOUGHTS = 'inner_thoughts';

function isLegacyFile(v: unknown): v is Obj & { messages: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.messages)
    && (Array.isArray(v.in_context_message_indices) || (isPlainObject(v.llm_config) && typeof v.agent_type === 'string'));
}

function isAgentEntry(a: unknown): a is Obj & { messages: unknown[] } {
  return isPlainObject(a) && Array.isArray(a.messages)
    && (Array.isArray(a.in_context_message_ids) || Array.isArray(a.tool_ids) || typeof a.agent_type === 'string');
}

function isNewFile(v: unknown): v is Obj & { agents: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.agents) && v.agents.some(isAgentEntry);
}

/** A Letta agent file (either layout) as a parsed object. Other readers use it to leave these files alone. */
export function isLettaAgentFile(v: unknown): boolean {
  return isLegacyFile(v) || isNewFile(v);
}

/** A string that may hold a whole agent file (some published `.af` files are a JSON-encoded copy). */
function mayHoldFile(v: unknown): v is string {
  if (typeof v !== 'string' || !v.trimStart().startsWith('{')) return false;
  const head = v.slice(0, 4000);
  return head.includes('"agents"') || head.includes('"messages"') || head.includes('"agent_type"');
}

function fileAt(ref: NodeRef, v: unknown): { ref: NodeRef; value: Obj } | undefined {
  if (isLettaAgentFile(v)) return { ref, value: v as Obj };
  if (!mayHoldFile(v)) return undefined;
  const inner = jsonIn(ref.doc, ref.path, v);
  return isLettaAgentFile(inner.value) ? { ref: { doc: inner.doc, path: inner.path }, value: inner.value as Obj } : undefined;
}

/** The schema Letta's model saw: the stored one with the injected keys declared and optional (see the header). */
function lettaSchema(schema: Obj): Obj {
  const props = isPlainObject(schema.properties) ? schema.properties : {};
  const injected: Obj = {};
  if (!(HEARTBEAT in props)) injected[HEARTBEAT] = { type: 'boolean' };
  if (!(INNER_THOUGHTS in props)) injected[INNER_THOUGHTS] = { type: 'string' };
  const out: Obj = { ...schema, properties: { ...props, ...injected } };
  if (Array.isArray(schema.required)) out.required = schema.required.filter((k) => k !== HEARTBEAT && k !== INNER_THOUGHTS);
  return out;
}

function readTool(b: SessionBuilder, ref: NodeRef, t: unknown): void {
  if (!isPlainObject(t)) return;
  const js = isPlainObject(t.json_schema) ? t.json_schema : undefined;
  const name = str(t.name) ?? str(js?.name);
  if (name === undefined) return;
  if (js && isPlainObject(js.parameters)) b.tool(name, lettaSchema(js.parameters), at(ref, 'json_schema'));
  else if (isPlainObject(t.args_json_schema)) b.tool(name, lettaSchema(t.args_json_schema), at(ref, 'args_json_schema'));
}

function returnSignal(status: unknown): TransportSignals | undefined {
  if (status === 'error') return { isError: true };
  if (status === 'success') return { isError: false };
  return undefined;
}

/** Letta's function-response envelope: status "OK" or "Failed" (the tool raised). */
function envelopeSignal(text: unknown): TransportSignals {
  const v = jsonValue(text);
  if (!isPlainObject(v)) return {};
  if (v.status === 'Failed') return { isError: true };
  return v.status === 'OK' ? { isError: false } : {};
}

/** Where a tool message's payload is: its text content, else the first return's `func_response`. */
function payloadOf(m: Obj): { path: JsonPath; value: unknown } {
  const c = m.content;
  if (typeof c === 'string') return { path: ['content'], value: c };
  if (Array.isArray(c)) {
    const texts = c.map((p, i) => ({ p, i })).filter(({ p }) => isPlainObject(p) && typeof p.text === 'string');
    if (texts.length === 1) return { path: ['content', texts[0].i, 'text'], value: (texts[0].p as Obj).text };
    if (texts.length > 1) return { path: ['content'], value: textOf(c) };
  }
  const first = Array.isArray(m.tool_returns) ? m.tool_returns[0] : undefined;
  if (isPlainObject(first) && first.func_response !== undefined) return { path: ['tool_returns', 0, 'func_response'], value: first.func_response };
  return { path: ['content'], value: c };
}

class AgentReader {
  readonly b: SessionBuilder;
  private readonly answered = new Set<string>();

  constructor(id: string | undefined) {
    this.b = new SessionBuilder(id);
  }

  readMessages(ref: NodeRef, messages: unknown[]): void {
    messages.forEach((m, i) => {
      if (!isPlainObject(m)) return;
      const mRef = at(ref, i);
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      if ((m.role === 'assistant' || m.role === 'approval') && calls.length > 0) this.readCalls(mRef, m, calls);
      else if (m.role === 'tool' || m.role === 'function') this.readToolMessage(mRef, m);
      else if (m.role === 'approval' && Array.isArray(m.approvals)) this.readApprovals(mRef, m.approvals);
      else this.b.breakTurn();
    });
  }

  private readCalls(ref: NodeRef, m: Obj, calls: unknown[]): void {
    const turn = this.b.newTurn();
    const messageText = textOf(m.content);
    calls.forEach((tc, j) => {
      const fn = isPlainObject(tc) && isPlainObject(tc.function) ? tc.function : undefined;
      if (!fn || typeof fn.name !== 'string') return;
      this.b.call({ name: fn.name, id: str((tc as Obj).id), at: at(ref, 'tool_calls', j), namePath: ['function', 'name'],
        argsPath: ['function', 'arguments'], args: fn.arguments, expect: 'string', messageText }, turn);
    });
  }

  private result(ref: NodeRef, callId: string | undefined, callIndex: number | undefined, payload: { path: JsonPath; value: unknown }, transport: TransportSignals): void {
    if (callId !== undefined) {
      if (this.answered.has(callId)) return; // the same return recorded twice (an approval and its tool message)
      this.answered.add(callId);
    }
    this.b.result({ at: ref, callId, callIndex, payload: payload.value, payloadPath: payload.path, transport });
  }

  private readToolMessage(ref: NodeRef, m: Obj): void {
    const returns = Array.isArray(m.tool_returns) ? m.tool_returns : [];
    const own = str(m.tool_call_id);
    const withIds = returns.filter((r) => isPlainObject(r) && str(r.tool_call_id) !== undefined) as Obj[];
    if (withIds.length > 1 && withIds.length === returns.length) {
      // parallel calls answered by one message: each return is a result of its own
      returns.forEach((r, k) => {
        const rv = r as Obj;
        const payload = rv.func_response !== undefined ? { path: ['func_response'], value: rv.func_response } : { path: [], value: undefined };
        this.result(at(ref, 'tool_returns', k), str(rv.tool_call_id), undefined, payload,
          returnSignal(rv.status) ?? envelopeSignal(rv.func_response));
      });
    } else {
      const first = isPlainObject(returns[0]) ? returns[0] : undefined;
      const callId = own ?? str(first?.tool_call_id);
      const name = str(m.name);
      const callIndex = callId === undefined && name !== undefined ? unansweredByName(this.b, name) : undefined;
      const payload = payloadOf(m);
      this.result(ref, callId, callIndex, payload, returnSignal(first?.status) ?? envelopeSignal(payload.value));
    }
    this.b.breakTurn();
  }

  /** An approval message's client-side tool returns `{type: 'tool', tool_call_id, tool_return, status}`. */
  private readApprovals(ref: NodeRef, approvals: unknown[]): void {
    approvals.forEach((a, k) => {
      if (!isPlainObject(a) || a.type !== 'tool' || str(a.tool_call_id) === undefined) return;
      const key = a.tool_return !== undefined ? 'tool_return' : 'func_response';
      this.result(at(ref, 'approvals', k), str(a.tool_call_id), undefined, { path: [key], value: a[key] },
        returnSignal(a.status) ?? envelopeSignal(a[key]));
    });
    this.b.breakTurn();
  }
}

/** The tools of a newer file's agent: its own `tools`, and the file's `tools` its `tool_ids` name (all of them
 *  when it names none). */
function agentTools(b: SessionBuilder, fileRef: NodeRef, file: Obj, agentRef: NodeRef, agent: Obj): void {
  if (Array.isArray(agent.tools)) agent.tools.forEach((t, i) => readTool(b, at(agentRef, 'tools', i), t));
  if (!Array.isArray(file.tools)) return;
  const ids = Array.isArray(agent.tool_ids) ? new Set(agent.tool_ids.filter((x): x is string => typeof x === 'string')) : undefined;
  file.tools.forEach((t, i) => {
    if (!ids || (isPlainObject(t) && typeof t.id === 'string' && ids.has(t.id))) readTool(b, at(fileRef, 'tools', i), t);
  });
}

export const letta: FormatAdapter = {
  id: 'letta',
  lines: lettaMessageLines,
  document: {
    claims(v) {
      return isLettaAgentFile(v) || messageList(v) !== undefined || (mayHoldFile(v) && isLettaAgentFile(jsonValue(v)));
    },
    read(doc, emit) {
      const messages = messageList(doc.value);
      if (messages) {
        readAsLines(lettaMessageLines, messages.list.map((m, i) => nodeDoc(doc, [...messages.path, i], m)), emit);
        return;
      }
      const file = fileAt({ doc, path: [] }, doc.value);
      if (!file) return;
      const { ref, value } = file;
      if (isLegacyFile(value)) {
        const reader = new AgentReader(str(value.id) ?? str(value.name));
        if (Array.isArray(value.tools)) value.tools.forEach((t, i) => readTool(reader.b, at(ref, 'tools', i), t));
        reader.readMessages(at(ref, 'messages'), value.messages);
        emit(reader.b.session);
        return;
      }
      (value.agents as unknown[]).forEach((a, i) => {
        if (!isAgentEntry(a)) return;
        const agentRef = at(ref, 'agents', i);
        const reader = new AgentReader(str(a.id) ?? str(a.name));
        agentTools(reader.b, ref, value, agentRef, a);
        reader.readMessages(at(agentRef, 'messages'), a.messages);
        emit(reader.b.session);
      });
    },
  },
};
