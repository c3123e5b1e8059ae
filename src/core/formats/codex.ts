// OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type, payload}` lines.
// `response_item` payloads are Responses API items: `function_call` / `function_call_output` (read by the
// Responses adapter's reader; MCP tools are `mcp__<server>__<tool>` function calls), `custom_tool_call` (free-form
// `input`, e.g. an apply_patch body: text by design, never an encoding fault) and its output, `local_shell_call`
// (an exec action; its output is a `function_call_output` with its call_id), and `web_search_call` (a hosted
// search, the tool `web_search`, with no call_id and no output item: it is its own result). A `turn_context` precedes every model request: a turn
// boundary (the model's commentary messages between its calls are not). `compacted` records hold copies of earlier items and are not read again. Transport signals come from
// the events that name a call_id — `exec_command_end` (exit_code), `mcp_tool_call_end` (the result's isError, or
// an Err), `patch_apply_end` (success) — whichever comes first, the event or the output, and from the output
// itself (`metadata.exit_code`, or the "Exit code: N" / "Process exited with code N" header of newer shell
// output). Sanitised fixtures replace free text with `[REDACTED_<KIND> len=N sha=…]`: such arguments are kept as
// text, not decoded. Unknown record types are skipped.
// Rollouts written before the envelope (codex-rs of mid-2025) open with a bare session header — the serialized
// SessionMeta: `id`, `timestamp`, `instructions` (null when none; later also `cwd`, `originator`, `cli_version`)
// and an optional `git` — then `{record_type: "state"}` markers and bare Responses items. The header makes the
// file a Codex rollout, and the items after it are then its own (LineFormat.keeps), though alone they would be
// any tool's Responses items.
// `codex exec --json` (and the Codex SDKs, which read it) prints thread events instead, one per line: `thread.started
// {thread_id}`, `turn.started` / `turn.completed` / `turn.failed`, and `item.started` / `item.updated` /
// `item.completed {item: {id, type, ...}}`. An item is one thing the agent did, sent again as it changes: its first
// copy is the call, its `item.completed` copy the outcome. Calls: `command_execution {command, aggregated_output,
// exit_code, status}` (a command line: free-form text), `mcp_tool_call {server, tool, arguments, result, error,
// status}` (named `mcp__<server>__<tool>`, as the rollouts name MCP tools), `file_change {changes, status}` (only
// ever sent completed) and `web_search {query, action}`. `status` `failed` (or a command `declined` by the user) is
// an honest failure, a command's `exit_code` its exit code.
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import { ItemLifecycle } from './item-lifecycle';
import { HOSTED_CALLS, isResponsesItem, readCustomToolCall, readResponsesItem, statusSignal } from './openai-responses';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, jsonValue, num, str, type Obj } from './util';

const RECORD_TYPES = new Set(['session_meta', 'turn_context', 'event_msg', 'response_item', 'compacted']);

function isEnvelope(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.timestamp === 'string' && typeof v.type === 'string' && 'payload' in v;
}

/** The fields of a pre-envelope rollout's header (SessionMeta, flattened with its `git` info). */
const HEADER_KEYS = new Set(['id', 'timestamp', 'instructions', 'cwd', 'originator', 'cli_version', 'git']);

/** A pre-envelope rollout's first line: only SessionMeta's fields, with the `instructions` it always wrote (or the
 *  `originator` and `cli_version` of its later form). */
function isLegacyHeader(v: unknown): boolean {
  if (!isPlainObject(v) || typeof v.id !== 'string' || typeof v.timestamp !== 'string') return false;
  for (const k in v) if (!HEADER_KEYS.has(k)) return false;
  return 'instructions' in v || (typeof v.originator === 'string' && typeof v.cli_version === 'string');
}

/** A line of a pre-envelope rollout after its header: a state marker, or a bare Responses item. */
function isLegacyLine(v: unknown): boolean {
  return isPlainObject(v) && !('payload' in v) && (typeof v.record_type === 'string' || isResponsesItem(v));
}

/** A sanitiser's stand-in for text that was removed. */
const REDACTED = /^\[REDACTED_[A-Z_]+ len=\d+ sha=[0-9a-f]+\]$/;

/** `{"output": ..., "metadata": {"exit_code": N}}` (older shell output), or a text whose header says the code. */
function outputExitCode(output: unknown): number | undefined {
  const v = jsonValue(output);
  if (isPlainObject(v) && isPlainObject(v.metadata)) return num(v.metadata.exit_code);
  if (typeof output !== 'string') return undefined;
  const head = output.split(/\nOutput:\r?\n/, 1)[0];
  const m = /^(?:Exit code: |Process exited with code )(-?\d+)\s*$/m.exec(head);
  return m ? Number(m[1]) : undefined;
}

/** What an event says of the call it names. */
function eventSignals(p: Obj): TransportSignals | undefined {
  switch (p.type) {
    case 'exec_command_end': {
      const code = num(p.exit_code);
      return code === undefined ? undefined : { exitCode: code };
    }
    case 'patch_apply_end':
      return typeof p.success === 'boolean' ? { isError: !p.success } : undefined;
    case 'mcp_tool_call_end': {
      const r = p.result;
      if (!isPlainObject(r)) return undefined;
      if ('Err' in r) return { isError: true };
      const ok = isPlainObject(r.Ok) ? r.Ok : undefined;
      const flag = ok?.isError ?? ok?.is_error;
      return typeof flag === 'boolean' ? { isError: flag } : { isError: false };
    }
    default:
      return undefined;
  }
}

const EXEC_CALL_ITEMS = new Set(['command_execution', 'mcp_tool_call', 'file_change', 'web_search']);
const EXEC_ITEM_EVENTS = new Set(['item.started', 'item.updated', 'item.completed']);

/** A `codex exec --json` line beyond doubt: the thread's first event, or an item event of a known item type. */
function isExecEvent(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.type !== 'string') return false;
  if (v.type === 'thread.started') return typeof v.thread_id === 'string';
  const item = v.item;
  return EXEC_ITEM_EVENTS.has(v.type) && isPlainObject(item) && typeof item.id === 'string' && typeof item.type === 'string'
    && (EXEC_CALL_ITEMS.has(item.type) || item.type === 'agent_message' || item.type === 'reasoning');
}

const EXEC_LINES = new Set(['turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed', 'item.plan.delta']);

/** The lines of an exec stream that prove nothing alone (turn boundaries, other items, errors). */
function isExecLine(v: unknown): boolean {
  return isPlainObject(v) && typeof v.type === 'string' && (EXEC_LINES.has(v.type) || (v.type === 'error' && typeof v.message === 'string'));
}

/** What a finished exec item says of how its call went. */
function execOutcome(item: Obj): { payloadKey?: string; transport: TransportSignals } {
  const failed = item.status === 'failed' || item.status === 'declined';
  switch (item.type) {
    case 'command_execution': {
      const code = num(item.exit_code);
      return { payloadKey: 'aggregated_output', transport: { ...(code === undefined ? {} : { exitCode: code }), ...(failed ? { isError: true } : {}) } };
    }
    case 'mcp_tool_call': {
      const error = item.error !== undefined && item.error !== null;
      return { payloadKey: error ? 'error' : 'result', transport: { isError: failed || error } };
    }
    case 'file_change':
      return { payloadKey: 'changes', transport: statusSignal(item.status, true) };
    default:
      // a search completes when its results reached the agent
      return { transport: { isError: false } };
  }
}

/** Where an enveloped item is (paths are not changed once made: one is shared). */
const PAYLOAD_PATH: JsonPath = ['payload'];

class CodexReader {
  /** Signals of calls whose event came before their output. */
  private readonly signals = new Map<string, TransportSignals>();
  /** Exec stream items: the first copy of one is its call, its `item.completed` copy the outcome. */
  private readonly execItems = new ItemLifecycle();

  constructor(private readonly b: SessionBuilder) {}

  read(doc: Doc): void {
    const line = doc.value as Obj;
    if (isLegacyHeader(line)) {
      this.b.session.id ??= line.id as string;
      return;
    }
    if (isLegacyLine(line)) {
      if (line.record_type === undefined) this.item(doc, line, []);
      return;
    }
    if (!isEnvelope(line)) {
      this.execEvent(doc, line);
      return;
    }
    const payload = line.payload;
    if (!isPlainObject(payload)) return;
    const b = this.b;
    if (line.type === 'session_meta') b.session.id ??= str(payload.id);
    else if (line.type === 'turn_context') b.breakTurn();
    else if (line.type === 'response_item') this.item(doc, payload, PAYLOAD_PATH);
    else if (line.type === 'event_msg') this.event(payload);
  }

  private execEvent(doc: Doc, e: Obj): void {
    const b = this.b;
    if (e.type === 'thread.started') {
      b.session.id ??= str(e.thread_id);
      return;
    }
    const item = e.item;
    if (!isPlainObject(item) || typeof item.id !== 'string' || !EXEC_CALL_ITEMS.has(item.type as string)) {
      if (e.type === 'turn.started' || (isPlainObject(item) && item.type === 'agent_message')) b.breakTurn();
      return;
    }
    const id = item.id;
    if (this.execItems.isCall(id)) this.execCall(doc, item);
    if (e.type !== 'item.completed' || !this.execItems.isOutcome(id)) return;
    const { payloadKey, transport } = execOutcome(item);
    b.result({ at: { doc, path: ['item'] }, callId: id, payload: payloadKey === undefined ? undefined : item[payloadKey],
      payloadPath: payloadKey === undefined ? undefined : [payloadKey], transport });
    b.breakTurn();
  }

  private execCall(doc: Doc, item: Obj): void {
    const at = { doc, path: ['item'] };
    const id = item.id as string;
    switch (item.type) {
      case 'command_execution':
        this.b.call({ name: 'command_execution', id, at, namePath: ['type'], argsPath: ['command'], args: item.command, expect: 'string', freeform: true });
        return;
      case 'mcp_tool_call': {
        const name = `mcp__${str(item.server) ?? ''}__${str(item.tool) ?? ''}`;
        this.b.call({ name, id, at, namePath: ['tool'], argsPath: ['arguments'], args: item.arguments ?? {}, expect: 'object' });
        return;
      }
      case 'file_change':
        this.b.call({ name: 'file_change', id, at, namePath: ['type'], argsPath: ['changes'], args: item.changes, expect: 'any' });
        return;
      default: {
        // the hosted search: its action when recorded, else the query it ran
        const action = isPlainObject(item.action);
        this.b.call({ name: HOSTED_CALLS.get('web_search_call')!.name, id, at, namePath: ['type'], argsPath: [action ? 'action' : 'query'],
          args: action ? item.action : item.query, expect: action ? 'object' : 'string', freeform: !action });
      }
    }
  }

  private event(p: Obj): void {
    const callId = str(p.call_id);
    const signals = eventSignals(p);
    if (callId === undefined || !signals) return;
    const results = this.b.session.results;
    for (let i = results.length - 1; i >= 0; i--) {
      if (results[i].callId === callId) {
        results[i].transport = { ...results[i].transport, ...signals };
        return;
      }
    }
    this.signals.set(callId, signals);
  }

  private item(doc: Doc, item: Obj, path: JsonPath): void {
    const b = this.b;
    const callId = str(item.call_id);
    switch (item.type) {
      case 'function_call':
        if (typeof item.arguments === 'string' && REDACTED.test(item.arguments) && typeof item.name === 'string') {
          b.call({ name: item.name, id: callId, at: { doc, path }, namePath: ['name'], argsPath: ['arguments'], args: item.arguments, expect: 'string', freeform: true });
        } else readResponsesItem(b, doc, path, item);
        return;
      case 'custom_tool_call':
        readCustomToolCall(b, doc, path, item);
        return;
      case 'local_shell_call':
        b.call({ name: 'local_shell_call', id: callId ?? str(item.id), at: { doc, path }, namePath: ['type'], argsPath: ['action'],
          args: item.action, expect: 'object' });
        return;
      case 'web_search_call': {
        // a hosted tool: the search ran on the server, so the item is both the call and its (unrecorded) result;
        // older rollouts record no action, and it is read all the same (Codex runs one search per item)
        const search = HOSTED_CALLS.get('web_search_call')!;
        const call = b.call({ name: search.name, id: str(item.id), at: { doc, path }, namePath: ['type'], argsPath: ['action'], args: item.action, expect: 'object' });
        b.result({ at: { doc, path }, callIndex: call.index, transport: statusSignal(item.status, true) });
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const early = callId !== undefined ? this.signals.get(callId) : undefined;
        if (callId !== undefined) this.signals.delete(callId);
        const exitCode = outputExitCode(item.output);
        b.result({ at: { doc, path }, callId, payload: item.output, payloadPath: ['output'],
          transport: { ...(exitCode === undefined ? {} : { exitCode }), ...early } });
        b.breakTurn();
        return;
      }
      case 'reasoning':
        return;
      case 'message':
        // the model's own words are part of its response (commentary before its calls); input starts a new turn
        if (item.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, item.content, false);
        else b.breakTurn();
        return;
      default:
        b.breakTurn();
    }
  }
}

export const codex: FormatAdapter = {
  id: 'codex',
  packs: ['codex'],
  lines: {
    claims(v) {
      return (isEnvelope(v) && RECORD_TYPES.has(v.type as string) && isPlainObject(v.payload)) || isExecEvent(v) || isLegacyHeader(v);
    },
    accepts: (v) => isEnvelope(v) || isExecLine(v),
    keeps: isLegacyLine,
    open({ builder }) {
      const reader = new CodexReader(builder);
      return { read: (doc) => reader.read(doc) };
    },
  },
};
