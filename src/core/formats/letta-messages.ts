// Letta's message lists: what its API returns (a `LettaResponse` `{messages, usage, stop_reason}`, the list
// `GET /v1/agents/{id}/messages` gives) and streams (one message per JSONL line or SSE event). Each message is typed
// by `message_type`. Calls: `tool_call_message` and `approval_request_message` (a call waiting for a human's
// approval), the call in `tool_calls[]` (newer) or `tool_call` (older, deprecated): `{name, arguments (a JSON
// string), tool_call_id}`. Streamed with tokens, one call arrives as several messages of one `id`, the first naming
// the tool, the others carrying `arguments` pieces (`ToolCallDelta`): joined into one call. A call met again (its
// approval request, then the call once approved) is read once. Results: `tool_return_message`, its returns in
// `tool_returns[]` `{tool_call_id, status, tool_return}` (newer, one per parallel call) or in the message itself
// (`tool_return`, `status`, `tool_call_id`, deprecated); an approval response's client-side returns
// (`approvals[]` of `type: "tool"`) too. Error flag: `status` "error" ("success" says it ran), else the message's
// `is_err`. A return without a `tool_call_id` answers the latest call still waiting.
import type { LineFormat, LineReader, LineSink } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { PendingCalls } from './stream';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { at, hasCallId, isPlainObject, latestUnanswered, messageListIn, str, type Obj } from './util';

const MESSAGE_TYPES = new Set(['system_message', 'user_message', 'assistant_message', 'reasoning_message', 'hidden_reasoning_message',
  'tool_call_message', 'tool_return_message', 'approval_request_message', 'approval_response_message', 'usage_statistics', 'stop_reason',
  'ping', 'event_message', 'summary_message']);
const CALL_MESSAGES = new Set(['tool_call_message', 'approval_request_message']);

/** Any message of Letta's API (`message_type` one of its names). */
export function isLettaMessage(v: unknown): v is Obj & { message_type: string } {
  return isPlainObject(v) && typeof v.message_type === 'string' && MESSAGE_TYPES.has(v.message_type);
}

/** A message that carries tool traffic: a call, a return, an approval response with returns. */
export function carriesTools(v: unknown): boolean {
  if (!isLettaMessage(v)) return false;
  if (CALL_MESSAGES.has(v.message_type)) return isPlainObject(v.tool_call) || Array.isArray(v.tool_calls) || isPlainObject(v.tool_calls);
  if (v.message_type === 'tool_return_message') return 'tool_return' in v || Array.isArray(v.tool_returns);
  return v.message_type === 'approval_response_message' && Array.isArray(v.approvals);
}

/** A list of Letta messages (whole, or a `LettaResponse`'s `messages`) with tool traffic in it. */
export function messageList(v: unknown): { list: unknown[]; path: JsonPath } | undefined {
  return messageListIn(v, isLettaMessage, carriesTools);
}

function signalOf(status: unknown, isErr: unknown): TransportSignals {
  if (status === 'error') return { isError: true };
  if (status === 'success') return { isError: false };
  return isErr === true ? { isError: true } : {};
}

/** The calls a call message holds, with where each sits under the message. */
function callsOf(m: Obj): { tc: Obj; path: JsonPath }[] {
  if (Array.isArray(m.tool_calls)) {
    return m.tool_calls.flatMap((tc, j) => (isPlainObject(tc) ? [{ tc, path: ['tool_calls', j] }] : []));
  }
  if (isPlainObject(m.tool_calls)) return [{ tc: m.tool_calls, path: ['tool_calls'] }];
  return isPlainObject(m.tool_call) ? [{ tc: m.tool_call, path: ['tool_call'] }] : [];
}

class MessageReader implements LineReader {
  private readonly b: SessionBuilder;
  private readonly pending: PendingCalls;
  /** Keys of the calls being assembled, in order, and the message id they came in. */
  private open: string[] = [];
  private openMessage?: string;
  /** Per message id and position, the key its first piece opened (later pieces may carry no id). */
  private readonly keyOf = new Map<string, string>();
  private readonly answered = new Set<string>();
  private turn?: number;
  private anonymous = 0;

  constructor(sink: LineSink) {
    this.b = sink.builder;
    this.pending = new PendingCalls(this.b);
  }

  read(doc: Doc): void {
    const m = doc.value;
    if (!isLettaMessage(m)) return;
    const ref: NodeRef = { doc, path: [] };
    const messageId = str(m.id);
    if (CALL_MESSAGES.has(m.message_type)) {
      if (messageId === undefined || messageId !== this.openMessage) this.flush();
      this.openMessage = messageId;
      callsOf(m).forEach(({ tc, path }, j) => this.piece(at(ref, ...path), tc, messageId, j));
      return;
    }
    // reasoning comes before the call it leads to, in a message of the same id: it closes nothing
    if (m.message_type === 'reasoning_message' || m.message_type === 'hidden_reasoning_message' || m.message_type === 'ping') return;
    this.flush();
    if (m.message_type === 'tool_return_message') this.readReturns(ref, m);
    else if (m.message_type === 'approval_response_message' && Array.isArray(m.approvals)) this.readApprovals(ref, m.approvals);
    else if (m.message_type === 'assistant_message') this.b.assistantText(at(ref, 'content'), m.content);
    else if (m.message_type === 'user_message' || m.message_type === 'system_message') this.endTurn();
  }

  finish(): void {
    this.flush();
  }

  /** One call, or one piece of a streamed call. */
  private piece(ref: NodeRef, tc: Obj, messageId: string | undefined, index: number): void {
    const id = str(tc.tool_call_id) || undefined;
    const slot = `${messageId ?? ''}#${index}`;
    let key = id ?? this.keyOf.get(slot);
    if (key === undefined) key = `anonymous:${this.anonymous++}`;
    if (messageId !== undefined && !this.keyOf.has(slot)) this.keyOf.set(slot, key);
    if (id !== undefined && hasCallId(this.b, id)) return; // read already (its approval request, or an earlier copy)
    let p = this.pending.get(key);
    if (!p) {
      p = this.pending.start(key, ['name']);
      this.open.push(key);
    }
    p.id ??= id;
    const name = str(tc.name);
    if (name && p.name === undefined) {
      p.name = name;
      p.nameAt = ref;
    }
    if (typeof tc.arguments === 'string') this.pending.fragment(p, tc.arguments, at(ref, 'arguments'));
    else if (isPlainObject(tc.arguments)) p.whole = { value: tc.arguments, at: at(ref, 'arguments'), expect: 'any' };
  }

  /** Write out the calls being assembled: the message that held them is over. */
  private flush(): void {
    for (const key of this.open) {
      const id = this.pending.get(key)?.id;
      if (id !== undefined && hasCallId(this.b, id)) {
        this.pending.drop(key);
        continue;
      }
      this.pending.complete(key, () => (this.turn ??= this.b.newTurn()), 'string');
    }
    this.open = [];
    this.openMessage = undefined;
  }

  private endTurn(): void {
    this.turn = undefined;
    this.b.breakTurn();
  }

  private result(ref: NodeRef, callId: string | undefined, key: string, value: unknown, transport: TransportSignals): void {
    if (callId !== undefined) {
      if (this.answered.has(callId)) return;
      this.answered.add(callId);
    }
    const callIndex = callId === undefined ? latestUnanswered(this.b) : undefined;
    this.b.result({ at: ref, callId, callIndex, payload: value, payloadPath: [key], transport });
  }

  private readReturns(ref: NodeRef, m: Obj): void {
    const returns = Array.isArray(m.tool_returns) ? m.tool_returns : [];
    if (returns.length > 0) {
      returns.forEach((r, k) => {
        if (!isPlainObject(r)) return;
        const key = 'tool_return' in r ? 'tool_return' : 'func_response';
        this.result(at(ref, 'tool_returns', k), str(r.tool_call_id), key, r[key], signalOf(r.status, m.is_err));
      });
    } else {
      this.result(ref, str(m.tool_call_id), 'tool_return', m.tool_return, signalOf(m.status, m.is_err));
    }
    this.endTurn();
  }

  /** An approval response's client-side returns `{type: "tool", tool_call_id, tool_return, status}`. */
  private readApprovals(ref: NodeRef, approvals: unknown[]): void {
    approvals.forEach((a, k) => {
      if (!isPlainObject(a) || a.type !== 'tool' || str(a.tool_call_id) === undefined) return;
      const key = 'tool_return' in a ? 'tool_return' : 'func_response';
      this.result(at(ref, 'approvals', k), str(a.tool_call_id), key, a[key], signalOf(a.status, undefined));
    });
    this.endTurn();
  }
}

export const lettaMessageLines: LineFormat = {
  claims: carriesTools,
  accepts: isLettaMessage,
  open: (sink) => new MessageReader(sink),
};
