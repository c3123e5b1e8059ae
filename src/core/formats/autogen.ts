// Microsoft AutoGen AgentChat (0.4+): task results, message streams and saved state. Rules followed
// (autogen_agentchat/messages.py, autogen_core/models/_types.py, autogen_agentchat/state/_states.py):
// - Every message names its class in `type`. Calls: a `ToolCallRequestEvent` (and, in an agent's model context, an
//   `AssistantMessage`) whose `content` is a list of `FunctionCall {id, name, arguments}`, the arguments a JSON
//   string. Results: a `ToolCallExecutionEvent` (in a model context, a `FunctionExecutionResultMessage`) whose
//   `content` lists `FunctionExecutionResult {call_id, name?, content, is_error?}`: `call_id` pairs it, `is_error`
//   is the error flag (older versions leave it out: no signal). A `ToolCallSummaryMessage` repeats the calls and
//   results of the events before it (`tool_calls`, `results`): read only when those events are not in the file.
// - A `TaskResult` is `{messages, stop_reason}`; `run_stream()` written one message per line reads the same.
// - Saved state: an `AssistantAgentState` keeps its model context (`llm_context.messages`, older `llm_messages`);
//   a `TeamState` keeps each agent's state under `agent_states` (a `ChatAgentContainerState` wraps it in
//   `agent_state`) and the manager's `message_thread`, a copy of what the agents said: each agent's context is
//   one session, and the thread is read only when no agent context is there.
// - AutoGen 0.2 / AG2 (`autogen.agentchat`): a chat history (`ChatResult.chat_history`, an agent's `chat_messages`, a
//   group chat's `messages`) is OpenAI chat messages, except that a tool message lists its answers in
//   `tool_responses` (`[{tool_call_id, role: "tool", content}]`): each pairs by `tool_call_id`. No error flag is kept
//   (a failed tool's content reads "Error: …").
// - AutoGen 0.4 runtime logs (autogen_core/logging.py, the `autogen_core.events` logger, one JSON event per line):
//   `{type: "LLMCall", messages, response, agent_id}` (`LLMStreamEnd` when streamed) is a model call, its
//   `response` a Chat Completion (`choices[].message.tool_calls`) or a `CreateResult` (`content: [FunctionCall]`);
//   `{type: "ToolCall", tool_name, arguments, result}` is a tool's run, logged once it returned: the execution of
//   the earliest call of that tool still waiting, or (no model call logged) a call of its own. A tool that raised
//   logs no event; the next model call's `messages` then carry its error as a `tool` message, which answers it.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { Session } from '../model';
import { at, hasCallId, isPlainObject, str, unansweredByName, waitingFor, type Obj } from './util';
import { readChatMessage } from './openai-chat';

const CALLS = new Set(['ToolCallRequestEvent', 'AssistantMessage']);
const RESULTS = new Set(['ToolCallExecutionEvent', 'FunctionExecutionResultMessage']);
const OTHER = new Set(['TextMessage', 'MultiModalMessage', 'StopMessage', 'HandoffMessage', 'ToolCallSummaryMessage', 'StructuredMessage',
  'MemoryQueryEvent', 'UserInputRequestedEvent', 'ModelClientStreamingChunkEvent', 'ThoughtEvent', 'SelectSpeakerEvent',
  'SelectorEvent', 'CodeGenerationEvent', 'CodeExecutionEvent', 'SystemMessage', 'UserMessage']);

function isFunctionCall(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.name === 'string' && 'arguments' in v;
}

function isExecutionResult(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.call_id === 'string' && 'content' in v;
}

/** A message or event of AgentChat or of a model context. */
function isMessage(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.type !== 'string') return false;
  if (CALLS.has(v.type)) return typeof v.content === 'string' || (Array.isArray(v.content) && v.content.every(isFunctionCall));
  if (RESULTS.has(v.type)) return Array.isArray(v.content) && v.content.every(isExecutionResult);
  return OTHER.has(v.type) && ('content' in v || 'source' in v);
}

function holdsTools(m: Obj): boolean {
  return Array.isArray(m.content) && m.content.length > 0 && (CALLS.has(m.type as string) || RESULTS.has(m.type as string));
}

/** Messages of AgentChat: each names its class (a class this reader does not know is passed over), one at least
 *  carries tool traffic. */
function isMessageList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every((m) => isPlainObject(m) && typeof m.type === 'string')
    && v.some((m) => isMessage(m) && holdsTools(m));
}

/** The model context an AssistantAgentState keeps. */
function contextOf(state: unknown): { path: string[]; list: unknown[] } | undefined {
  if (!isPlainObject(state)) return undefined;
  if (isPlainObject(state.llm_context) && Array.isArray(state.llm_context.messages)) return { path: ['llm_context', 'messages'], list: state.llm_context.messages };
  if (Array.isArray(state.llm_messages)) return { path: ['llm_messages'], list: state.llm_messages };
  return undefined;
}

function isAgentState(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && v.type.endsWith('State') && contextOf(v) !== undefined;
}

function isTeamState(v: unknown): v is Obj & { agent_states: Obj } {
  return isPlainObject(v) && v.type === 'TeamState' && isPlainObject(v.agent_states);
}

function isTaskResult(v: unknown): v is Obj & { messages: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.messages) && 'stop_reason' in v && v.messages.length > 0
    && v.messages.every((m) => isPlainObject(m) && typeof m.type === 'string') && v.messages.some(isMessage);
}

class MessageReader {
  /** Call ids read so far: a summary message whose calls are among them repeats them. */
  private readonly seen = new Set<string>();

  constructor(readonly b: SessionBuilder) {}

  private calls(ref: NodeRef, list: unknown[], key: string): void {
    const turn = this.b.newTurn();
    list.forEach((c, i) => {
      if (!isFunctionCall(c)) return;
      const id = str(c.id);
      if (id !== undefined) this.seen.add(id);
      this.b.call({ name: c.name as string, id, at: at(ref, key, i), namePath: ['name'], argsPath: ['arguments'], args: c.arguments, expect: 'string' }, turn);
    });
  }

  private results(ref: NodeRef, list: unknown[], key: string): void {
    list.forEach((r, i) => {
      if (!isExecutionResult(r)) return;
      const transport = typeof r.is_error === 'boolean' ? { isError: r.is_error } : undefined;
      this.b.result({ at: at(ref, key, i), callId: r.call_id as string, payloadPath: ['content'], payload: r.content, transport });
    });
    this.b.breakTurn();
  }

  message(ref: NodeRef, m: Obj): void {
    const type = m.type as string;
    if (CALLS.has(type) && Array.isArray(m.content)) this.calls(ref, m.content, 'content');
    else if (RESULTS.has(type) && Array.isArray(m.content)) this.results(ref, m.content, 'content');
    else if (type === 'ToolCallSummaryMessage' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0
      && !m.tool_calls.some((c) => isFunctionCall(c) && typeof c.id === 'string' && this.seen.has(c.id))) {
      this.calls(ref, m.tool_calls, 'tool_calls');
      if (Array.isArray(m.results)) this.results(ref, m.results, 'results');
    } else if (type === 'AssistantMessage' || type === 'TextMessage' || type === 'ToolCallSummaryMessage') this.b.assistantText(at(ref, 'content'), m.content);
    else if (type !== 'ModelClientStreamingChunkEvent' && type !== 'ThoughtEvent') this.b.breakTurn();
  }

  list(ref: NodeRef, list: unknown[]): void {
    list.forEach((m, i) => { if (isMessage(m)) this.message(at(ref, i), m); });
  }
}

function readList(ref: NodeRef, list: unknown[], emit: (s: Session) => void, id?: string): void {
  singleSession((b) => new MessageReader(b).list(ref, list), emit, id);
}

/** A team's saved state: each agent's model context, else the manager's message thread. */
function readTeam(ref: NodeRef, team: Obj & { agent_states: Obj }, emit: (s: Session) => void): void {
  let contexts = 0;
  const threads: { ref: NodeRef; list: unknown[]; name: string }[] = [];
  for (const [name, s] of Object.entries(team.agent_states)) {
    if (!isPlainObject(s)) continue;
    const sref = at(ref, 'agent_states', name);
    const inner = isPlainObject(s.agent_state) ? { v: s.agent_state, ref: at(sref, 'agent_state') } : { v: s, ref: sref };
    const ctx = contextOf(inner.v);
    if (ctx && ctx.list.length > 0) {
      readList(at(inner.ref, ...ctx.path), ctx.list, emit, name);
      contexts++;
    } else if (Array.isArray(s.message_thread)) threads.push({ ref: at(sref, 'message_thread'), list: s.message_thread, name });
  }
  if (contexts === 0) for (const t of threads) readList(t.ref, t.list, emit, t.name);
}

// ---- 0.2 / AG2 chat histories ---------------------------------------------------------------------------------

function hasToolResponses(m: unknown): m is Obj & { tool_responses: unknown[] } {
  return isPlainObject(m) && Array.isArray(m.tool_responses) && m.tool_responses.some((r) => isPlainObject(r) && typeof r.tool_call_id === 'string');
}

function isChatHistory(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every((m) => isPlainObject(m) && typeof m.role === 'string') && v.some(hasToolResponses);
}

function chatResultHistory(v: unknown): unknown[] | undefined {
  return isPlainObject(v) && isChatHistory(v.chat_history) && ('summary' in v || 'cost' in v || 'chat_id' in v) ? v.chat_history : undefined;
}

function readChatHistory(ref: NodeRef, list: Obj[], emit: (s: Session) => void): void {
  singleSession((b) => list.forEach((m, i) => {
    const mref = at(ref, i);
    if (hasToolResponses(m)) {
      m.tool_responses.forEach((r, j) => {
        if (isPlainObject(r) && typeof r.tool_call_id === 'string') b.result({ at: at(mref, 'tool_responses', j), callId: r.tool_call_id, payloadPath: ['content'], payload: r.content });
      });
      b.breakTurn();
    } else readChatMessage(b, mref.doc, mref.path, m);
  }), emit);
}

// ---- 0.4 runtime event logs -------------------------------------------------------------------------------------

const RUNTIME_EVENTS = new Set(['LLMCall', 'LLMStreamStart', 'LLMStreamEnd', 'ToolCall', 'Message', 'MessageDropped',
  'MessageHandlerException', 'AgentConstructionException']);

function isRuntimeEvent(v: unknown): v is Obj & { type: string } {
  return isPlainObject(v) && typeof v.type === 'string' && RUNTIME_EVENTS.has(v.type) && ('agent_id' in v || 'sender' in v || 'handling_agent' in v);
}

/** The model's answer in a model call event: Chat Completion choices' messages, or a CreateResult's calls. */
function responseCalls(v: Obj): boolean {
  const r = v.response;
  if (!isPlainObject(r)) return false;
  if (Array.isArray(r.choices)) return r.choices.some((c) => isPlainObject(c) && isPlainObject(c.message) && Array.isArray(c.message.tool_calls) && c.message.tool_calls.length > 0);
  return Array.isArray(r.content) && r.content.some(isFunctionCall);
}

function claimsRuntime(v: unknown): boolean {
  if (!isRuntimeEvent(v)) return false;
  if (v.type === 'ToolCall') return typeof v.tool_name === 'string';
  return (v.type === 'LLMCall' || v.type === 'LLMStreamEnd') && responseCalls(v);
}

class RuntimeReader {
  constructor(private readonly b: SessionBuilder) {}

  read(ref: NodeRef, e: Obj & { type: string }): void {
    if (e.type === 'ToolCall' && typeof e.tool_name === 'string') this.toolRun(ref, e, e.tool_name);
    else if (e.type === 'LLMCall' || e.type === 'LLMStreamEnd') this.modelCall(ref, e);
  }

  private modelCall(ref: NodeRef, e: Obj): void {
    // a tool that raised logged no run: its error reached the model as a tool message of this request
    if (Array.isArray(e.messages)) {
      e.messages.forEach((m, i) => {
        const id = isPlainObject(m) && m.role === 'tool' ? str(m.tool_call_id) : undefined;
        if (id !== undefined && hasCallId(this.b, id) && waitingFor(this.b, id)) {
          this.b.result({ at: at(ref, 'messages', i), callId: id, payload: (m as Obj).content, payloadPath: ['content'] });
        }
      });
    }
    const r = e.response;
    if (!isPlainObject(r)) return;
    if (Array.isArray(r.choices)) {
      r.choices.forEach((c, i) => {
        if (isPlainObject(c) && isPlainObject(c.message)) readChatMessage(this.b, ref.doc, [...ref.path, 'response', 'choices', i, 'message'], c.message);
      });
    } else if (Array.isArray(r.content)) new MessageReader(this.b).message(at(ref, 'response'), { type: 'AssistantMessage', content: r.content });
    else this.b.assistantText(at(ref, 'response', 'content'), r.content);
  }

  private toolRun(ref: NodeRef, e: Obj, name: string): void {
    let callIndex = unansweredByName(this.b, name);
    if (callIndex === undefined) {
      callIndex = this.b.call({ name, at: ref, namePath: ['tool_name'], argsPath: ['arguments'], args: e.arguments, expect: 'object' }).index;
    }
    // by the call's id when it has one, so a copy of the result in a later request is known as answered
    const callId = this.b.session.calls[callIndex].id;
    this.b.result({ at: ref, callId, callIndex: callId === undefined ? callIndex : undefined, payload: e.result, payloadPath: ['result'] });
  }
}

export const autogen: FormatAdapter = {
  id: 'autogen',
  document: {
    claims: (v) => isTaskResult(v) || isMessageList(v) || isAgentState(v) || isTeamState(v) || isChatHistory(v) || chatResultHistory(v) !== undefined,
    read(doc, emit) {
      const v = doc.value;
      const root: NodeRef = { doc, path: [] };
      const history = chatResultHistory(v);
      if (history) readChatHistory(at(root, 'chat_history'), history as Obj[], emit);
      else if (isChatHistory(v)) readChatHistory(root, v, emit);
      else if (isTeamState(v)) readTeam(root, v, emit);
      else if (isTaskResult(v)) readList(at(root, 'messages'), v.messages, emit);
      else if (isAgentState(v)) {
        const ctx = contextOf(v);
        if (ctx) readList(at(root, ...ctx.path), ctx.list, emit);
      } else if (Array.isArray(v)) readList(root, v, emit);
    },
  },
  lines: {
    claims: (v) => (isMessage(v) && holdsTools(v)) || claimsRuntime(v),
    accepts: (v) => isMessage(v) || isRuntimeEvent(v),
    open(sink: LineSink) {
      const r = new MessageReader(sink.builder);
      const runtime = new RuntimeReader(sink.builder);
      return {
        read(doc) {
          if (isMessage(doc.value)) r.message({ doc, path: [] }, doc.value);
          else if (isRuntimeEvent(doc.value)) runtime.read({ doc, path: [] }, doc.value);
        },
      };
    },
  },
};
