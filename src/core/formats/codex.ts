// OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type, payload}` lines.
// `response_item` payloads are Responses API items: `function_call` / `function_call_output` (read by the
// Responses adapter's reader; MCP tools are `mcp__<server>__<tool>` function calls), `custom_tool_call` (free-form
// `input`, e.g. an apply_patch body: text by design, never an encoding fault) and its output, `local_shell_call`
// (an exec action; its output is a `function_call_output` with its call_id), and `web_search_call` (a hosted
// search, the tool `web_search`, with no call_id and no output item: it is its own result); the other Responses
// items of newer rollouts (`tool_search_call {call_id, execution: "client", arguments}` answered by its
// `tool_search_output {call_id, tools}`, ...) are read by the Responses reader. A `turn_context` precedes every model request: a turn
// boundary (the model's commentary messages between its calls are not). `compacted` records hold copies of earlier items and are not read again. Transport signals come from
// the events that name a call_id — `exec_command_end` (exit_code), `mcp_tool_call_end` (the result's isError, or
// an Err), `patch_apply_end` (success) — whichever comes first, the event or the output, and from the output
// itself (`metadata.exit_code`, or the "Exit code: N" / "Process exited with code N" header of newer shell
// output). Sanitised fixtures replace free text with `[REDACTED_<KIND> len=N sha=…]`: such arguments are kept as
// text, not decoded. Unknown record types are skipped.
// Paginated rollouts (codex-rs of autumn 2026, `session_meta.history_mode: "paginated"`) number their lines
// (`ordinal`) and keep the same response items, but no `*_end` events: a call's outcome is the `event_msg`
// `item_completed {item}` whose turn item (`McpToolCall {status, error, result}`, `FileChange {status}`,
// `CommandExecution {exit_code, status}`) has the call's call_id as its id. Those items mirror calls already read
// (never calls again); one of no call read (a command a code-mode `exec` script ran) is left alone.
// Rollouts written before the envelope (codex-rs of mid-2025) open with a bare session header — the serialized
// SessionMeta: `id`, `timestamp`, `instructions` (null when none; later also `cwd`, `originator`, `cli_version`)
// and an optional `git` — then `{record_type: "state"}` markers and bare Responses items. The header makes the
// file a Codex rollout, and the items after it are then its own (LineFormat.keeps), though alone they would be
// any tool's Responses items.
// The TypeScript CLI (spring 2025) saved each session whole, `~/.codex/sessions/rollout-<date>-<id>.json`:
// `{session: {timestamp, id, instructions?}, items: [...]}`, the same Responses items (its `shell` output
// `{output, metadata: {exit_code}}`); read like the items of a rollout.
// `codex exec --json` (and the Codex SDKs, which read it) prints thread events instead, one per line: `thread.started
// {thread_id}`, `turn.started` / `turn.completed` / `turn.failed`, and `item.started` / `item.updated` /
// `item.completed {item: {id, type, ...}}`. An item is one thing the agent did, sent again as it changes: its first
// copy is the call, its `item.completed` copy the outcome. Calls: `command_execution {command, aggregated_output,
// exit_code, status}` (a command line: free-form text), `mcp_tool_call {server, tool, arguments, result, error,
// status}` (named `mcp__<server>__<tool>`, as the rollouts name MCP tools), `file_change {changes, status}` (its
// arguments `{changes}`, only
// ever sent completed) and `web_search {query, action}`. `status` `failed` (or a command `declined` by the user) is
// an honest failure, a command's `exit_code` its exit code.
// The app-server (`codex app-server`, the protocol the IDE extension speaks) sends the same items as JSON-RPC
// notifications `{method: "item/started" | "item/completed", params: {threadId, turnId, item}}`, spelled in
// camelCase (`commandExecution {command, aggregatedOutput, exitCode, status}`, `mcpToolCall`, `fileChange`,
// `webSearch`; status `inProgress` / `completed` / `failed` / `declined`), and adds `dynamicToolCall {tool,
// arguments, status, contentItems, success}`: a call of a tool the client itself provides (and answers). `codex
// mcp-server` sends the core events below as `codex/event` notifications `{params: {id, msg}}`.
// Before those thread events (codex-rs up to about 0.40), `codex exec --json` printed the protocol's own events,
// one `{id, msg: {type, ...}}` per line (`id` is the submission the event answers), after a config summary line
// (`{model, workdir, sandbox, approval, ...}`) and a `{prompt}` echo. The calls are the begin/end event pairs of a
// `call_id`: `exec_command_begin {command (argv), cwd}` / `exec_command_end {stdout, stderr, aggregated_output,
// exit_code}`, `mcp_tool_call_begin {invocation: {server, tool, arguments}}` / `mcp_tool_call_end {result: {Ok:
// CallToolResult} | {Err: text}}`, `patch_apply_begin {changes: {<path>: {add|delete|update}}}` / `patch_apply_end
// {stdout, stderr, success}`, and `web_search_end {query}`. They are named like the thread events' items.
import { singleSession, type FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import { ItemLifecycle } from './item-lifecycle';
import { HOSTED_CALLS, isResponsesItem, makesCall, OUTPUT_ITEMS, readCustomToolCall, readResponsesItem, statusSignal } from './openai-responses';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { hasCallId, isPlainObject, jsonValue, num, str, type Obj } from './util';

const RECORD_TYPES = new Set(['session_meta', 'turn_context', 'event_msg', 'response_item', 'compacted']);

function isEnvelope(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.timestamp === 'string' && typeof v.type === 'string' && 'payload' in v;
}

/** The fields of a pre-envelope rollout's header (SessionMeta, flattened with its `git` info). */
const HEADER_KEYS = new Set(['id', 'timestamp', 'instructions', 'cwd', 'originator', 'cli_version', 'git']);

/** A session id as Codex makes them (a UUID). */
const SESSION_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A pre-envelope rollout's first line: only SessionMeta's fields, with the `instructions` it wrote (or the
 *  `originator` and `cli_version` of its later form); a header that left `instructions` out is its two fields
 *  alone, a UUID `id` and the `timestamp`. */
function isLegacyHeader(v: unknown): boolean {
  if (!isPlainObject(v) || typeof v.id !== 'string' || typeof v.timestamp !== 'string') return false;
  let keys = 0;
  for (const k in v) {
    if (!HEADER_KEYS.has(k)) return false;
    keys++;
  }
  return 'instructions' in v || (typeof v.originator === 'string' && typeof v.cli_version === 'string')
    || (keys === 2 && SESSION_UUID.test(v.id));
}

/** A line of a pre-envelope rollout after its header: a state marker, or a bare Responses item. */
function isLegacyLine(v: unknown): boolean {
  return isPlainObject(v) && !('payload' in v) && (typeof v.record_type === 'string' || isResponsesItem(v));
}

/** A TypeScript CLI session file: its `session` header and the Responses items. */
function isSessionFile(v: unknown): v is Obj & { session: Obj; items: unknown[] } {
  return isPlainObject(v) && isPlainObject(v.session) && typeof v.session.id === 'string' && typeof v.session.timestamp === 'string'
    && Array.isArray(v.items) && v.items.some(isResponsesItem);
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

/** Protocol event types only Codex sends: a line `{id, msg}` of one of these is a legacy exec stream's. */
const LEGACY_EVENTS = new Set(['session_configured', 'task_started', 'task_complete', 'exec_command_begin', 'exec_command_end',
  'mcp_tool_call_begin', 'mcp_tool_call_end', 'patch_apply_begin', 'patch_apply_end', 'web_search_begin', 'web_search_end',
  'agent_reasoning', 'agent_reasoning_delta', 'agent_message_delta', 'token_count', 'exec_approval_request', 'turn_diff']);

/** An argv as one shell command line (arguments with shell metacharacters single-quoted); a string stays as is. */
function commandLine(argv: unknown): unknown {
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return argv;
  return argv.map((a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The other events a legacy exec stream prints: they say nothing alone. */
const LEGACY_QUIET = new Set(['agent_message', 'error', 'stream_error', 'background_event', 'plan_update', 'turn_aborted', 'user_message',
  'exec_command_output_delta', 'agent_reasoning_raw_content', 'agent_reasoning_section_break', 'shutdown_complete', 'mcp_list_tools_response']);

/** A legacy `codex exec --json` event, `{id, msg: {type}}` (nothing else on the line). */
function isLegacyEvent(v: unknown): v is Obj & { msg: Obj & { type: string } } {
  if (!isPlainObject(v) || !isPlainObject(v.msg) || typeof v.msg.type !== 'string' || typeof v.id !== 'string') return false;
  for (const k in v) if (k !== 'id' && k !== 'msg') return false;
  return true;
}

/** The two lines a legacy exec stream opens with: its config summary and the prompt echo. */
function isLegacyPreamble(v: unknown): boolean {
  if (!isPlainObject(v) || 'type' in v) return false;
  const keys = Object.keys(v);
  return (keys.length === 1 && typeof v.prompt === 'string') || (typeof v.model === 'string' && typeof v.workdir === 'string');
}

/** An app-server (or `codex mcp-server`) notification: `{method, params}`, no request id. */
function notificationOf(v: unknown): { method: string; params: Obj } | undefined {
  if (!isPlainObject(v) || typeof v.method !== 'string' || !isPlainObject(v.params) || 'id' in v) return undefined;
  return { method: v.method, params: v.params };
}

const APP_ITEM_METHODS = new Set(['item/started', 'item/updated', 'item/completed']);
const APP_SCOPES = /^(thread|turn|item|codex)\//;

/** A Codex server notification beyond doubt: a core event of a known type, or a thread's call item. */
function isAppEvent(v: unknown): boolean {
  const n = notificationOf(v);
  if (!n) return false;
  const { msg, item } = n.params;
  if (n.method === 'codex/event') return isPlainObject(msg) && LEGACY_EVENTS.has(msg.type as string);
  return APP_ITEM_METHODS.has(n.method) && typeof n.params.threadId === 'string' && isPlainObject(item) && typeof item.id === 'string'
    && APP_ITEMS.has(item.type as string);
}

const EXEC_LINES = new Set(['turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed', 'item.plan.delta']);

/** The lines of an exec stream that prove nothing alone (turn boundaries, other items, errors). */
function isExecLine(v: unknown): boolean {
  return isPlainObject(v) && typeof v.type === 'string' && (EXEC_LINES.has(v.type) || (v.type === 'error' && typeof v.message === 'string'));
}

/** The field names of an exec item: the exec stream's (snake_case), or the app-server's (camelCase). */
interface ItemKeys { output: string; exitCode: string }
const EXEC_KEYS: ItemKeys = { output: 'aggregated_output', exitCode: 'exit_code' };
const APP_KEYS: ItemKeys = { output: 'aggregatedOutput', exitCode: 'exitCode' };

/** The app-server's (protocol v2) item types, by the exec stream's name for the same item. */
const APP_ITEMS = new Map([['commandExecution', 'command_execution'], ['mcpToolCall', 'mcp_tool_call'], ['fileChange', 'file_change'], ['webSearch', 'web_search'],
  ['dynamicToolCall', 'dynamic_tool_call']]);

/** What a finished exec item (of kind `kind`, the exec stream's type name) says of how its call went. */
function execOutcome(item: Obj, kind: string, keys: ItemKeys): { payloadKey?: string; transport: TransportSignals } {
  const failed = item.status === 'failed' || item.status === 'declined';
  switch (kind) {
    case 'command_execution': {
      const code = num(item[keys.exitCode]);
      return { payloadKey: keys.output, transport: { ...(code === undefined ? {} : { exitCode: code }), ...(failed ? { isError: true } : {}) } };
    }
    case 'mcp_tool_call': {
      const error = item.error !== undefined && item.error !== null;
      const flagged = isPlainObject(item.result) && (item.result.isError === true || item.result.is_error === true);
      return { payloadKey: error ? 'error' : 'result', transport: { isError: failed || error || flagged } };
    }
    case 'file_change':
      return { payloadKey: 'changes', transport: failed ? { isError: true } : statusSignal(item.status, true) };
    case 'dynamic_tool_call':
      // the client's answer: its content items and whether it succeeded
      return { payloadKey: 'contentItems', transport: { isError: failed || item.success === false } };
    default:
      // a search completes when its results reached the agent
      return { transport: { isError: false } };
  }
}

/** The turn items of a paginated rollout's `item_completed` events that tell how a call went, by the exec
 *  stream's name for the same item. */
const TURN_ITEMS = new Map([['CommandExecution', 'command_execution'], ['McpToolCall', 'mcp_tool_call'], ['FileChange', 'file_change']]);

/** What a paginated rollout's completed turn item says of the call whose call_id is its id: the rollout's own
 *  record of the outcome, as those rollouts keep no `*_end` events. */
function turnItemSignals(item: Obj): TransportSignals | undefined {
  const kind = TURN_ITEMS.get(item.type as string);
  if (kind === undefined) return undefined;
  const { transport } = execOutcome(item, kind, 'exitCode' in item ? APP_KEYS : EXEC_KEYS);
  return Object.keys(transport).length ? transport : undefined;
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
    if (isLegacyEvent(line)) {
      this.legacyEvent(doc, line.msg);
      return;
    }
    const n = notificationOf(line);
    if (n && APP_SCOPES.test(n.method)) {
      this.appNotification(doc, n.method, n.params);
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
    this.execItem(doc, item, item.type as string, ['item'], EXEC_KEYS, e.type === 'item.completed');
  }

  /** An app-server notification: its items are the exec stream's, spelled in camelCase; its core events the legacy ones. */
  private appNotification(doc: Doc, method: string, p: Obj): void {
    if (method === 'codex/event') {
      if (isPlainObject(p.msg)) this.legacyEvent(doc, p.msg, ['params', 'msg']);
      return;
    }
    if (method === 'thread/started') {
      this.b.session.id ??= isPlainObject(p.thread) ? str(p.thread.id) : str(p.threadId);
      return;
    }
    this.b.session.id ??= str(p.threadId);
    const item = p.item;
    const kind = isPlainObject(item) ? APP_ITEMS.get(item.type as string) : undefined;
    if (!isPlainObject(item) || typeof item.id !== 'string' || kind === undefined) {
      if (method === 'turn/started' || (isPlainObject(item) && item.type === 'agentMessage')) this.b.breakTurn();
      return;
    }
    this.execItem(doc, item, kind, ['params', 'item'], APP_KEYS, method === 'item/completed');
  }

  /** One copy of an exec item: its first copy is the call, its completed copy the outcome. */
  private execItem(doc: Doc, item: Obj, kind: string, path: JsonPath, keys: ItemKeys, completed: boolean): void {
    const id = item.id as string;
    if (this.execItems.isCall(id)) this.execCall(doc, item, kind, path);
    if (!completed || !this.execItems.isOutcome(id)) return;
    const { payloadKey, transport } = execOutcome(item, kind, keys);
    this.b.result({ at: { doc, path }, callId: id, payload: payloadKey === undefined ? undefined : item[payloadKey],
      payloadPath: payloadKey === undefined ? undefined : [payloadKey], transport });
    this.b.breakTurn();
  }

  private execCall(doc: Doc, item: Obj, kind: string, path: JsonPath): void {
    const at = { doc, path };
    const id = item.id as string;
    switch (kind) {
      case 'command_execution':
        this.b.call({ name: 'command_execution', id, at, namePath: ['type'], argsPath: ['command'], args: item.command, expect: 'string', freeform: true });
        return;
      case 'mcp_tool_call': {
        const name = `mcp__${str(item.server) ?? ''}__${str(item.tool) ?? ''}`;
        this.b.call({ name, id, at, namePath: ['tool'], argsPath: ['arguments'], args: item.arguments ?? {}, expect: 'object' });
        return;
      }
      case 'file_change':
        this.fileChange(at, id, item.changes);
        return;
      case 'dynamic_tool_call':
        this.b.call({ name: str(item.tool) ?? '', id, at, namePath: ['tool'], argsPath: ['arguments'], args: item.arguments ?? {}, expect: 'object' });
        return;
      default: {
        // the hosted search: its action when recorded, else the query it ran
        const action = isPlainObject(item.action);
        this.b.call({ name: HOSTED_CALLS.get('web_search_call')!.name, id, at, namePath: ['type'], argsPath: [action ? 'action' : 'query'],
          args: action ? item.action : item.query, expect: action ? 'object' : 'string', freeform: !action });
      }
    }
  }

  /** A legacy exec stream's event: a begin event is its call, the end event of the same `call_id` the outcome. */
  private legacyEvent(doc: Doc, m: Obj, path: JsonPath = ['msg']): void {
    const b = this.b;
    const id = str(m.call_id);
    const at = { doc, path };
    switch (m.type) {
      case 'exec_command_begin':
        // the argv it ran, as the command line the thread events report for the same item
        b.call({ name: 'command_execution', id, at, namePath: ['type'], argsPath: ['command'], args: commandLine(m.command),
          expect: 'string', freeform: true });
        return;
      case 'mcp_tool_call_begin':
      case 'mcp_tool_call_end': {
        const inv = isPlainObject(m.invocation) ? m.invocation : undefined;
        // an end event whose begin the capture lost still names its invocation: it is the call too
        if (inv && (m.type === 'mcp_tool_call_begin' || !this.legacyCalls.has(id ?? ''))) {
          b.call({ name: `mcp__${str(inv.server) ?? ''}__${str(inv.tool) ?? ''}`, id, at, namePath: ['invocation', 'tool'],
            argsPath: ['invocation', 'arguments'], args: inv.arguments ?? {}, expect: 'object' });
        }
        if (id !== undefined) this.legacyCalls.add(id);
        if (m.type === 'mcp_tool_call_begin') return;
        const r = isPlainObject(m.result) ? m.result : undefined;
        const key = r && 'Err' in r ? 'Err' : 'Ok';
        this.legacyResult(at, m, id, r ? ['result', key] : undefined);
        return;
      }
      case 'patch_apply_begin':
        this.fileChange(at, id, m.changes);
        return;
      case 'web_search_end': {
        const call = b.call({ name: HOSTED_CALLS.get('web_search_call')!.name, id, at, namePath: ['type'], argsPath: ['query'], args: m.query,
          expect: 'string', freeform: true });
        b.result({ at, callIndex: call.index, transport: { isError: false } });
        return;
      }
      case 'exec_command_end':
        this.legacyResult(at, m, id, [typeof m.aggregated_output === 'string' ? 'aggregated_output' : 'stdout']);
        return;
      case 'patch_apply_end':
        this.legacyResult(at, m, id, [m.success === false && typeof m.stderr === 'string' && m.stderr !== '' ? 'stderr' : 'stdout']);
        return;
      case 'session_configured':
        b.session.id ??= str(m.session_id);
        return;
      case 'agent_message':
      case 'task_started':
        b.breakTurn();
        return;
      default:
    }
  }

  /** A patch: its arguments are the `changes` beside it (a list of files, or the older map of them), named so that
   *  they are an object like every call's arguments. */
  private fileChange(at: { doc: Doc; path: JsonPath }, id: string | undefined, changes: unknown): void {
    this.b.call({ name: 'file_change', id, at, namePath: ['type'], argsPath: [], args: { changes }, expect: 'object' });
  }

  /** The mcp call_ids a legacy stream has begun. */
  private readonly legacyCalls = new Set<string>();

  private legacyResult(at: { doc: Doc; path: JsonPath }, m: Obj, id: string | undefined, payloadPath: JsonPath | undefined): void {
    let payload: unknown = m;
    for (const k of payloadPath ?? []) payload = isPlainObject(payload) ? payload[k as string] : undefined;
    this.b.result({ at, callId: id, payload: payloadPath ? payload : undefined, payloadPath, transport: eventSignals(m) ?? {} });
    this.b.breakTurn();
  }

  private event(p: Obj): void {
    // a paginated rollout records a call's outcome as the completed turn item of its call_id; a turn item no call
    // was read for (a command a code-mode script ran) is the host's doing, not a call of the model's
    const turnItem = p.type === 'item_completed' && isPlainObject(p.item) ? p.item : undefined;
    const callId = turnItem ? str(turnItem.id) : str(p.call_id);
    const signals = turnItem ? turnItemSignals(turnItem) : eventSignals(p);
    if (callId === undefined || !signals || (turnItem && !hasCallId(this.b, callId))) return;
    const results = this.b.session.results;
    for (let i = results.length - 1; i >= 0; i--) {
      if (results[i].callId === callId) {
        results[i].transport = { ...results[i].transport, ...signals };
        return;
      }
    }
    this.signals.set(callId, signals);
  }

  /** A TypeScript CLI session file, whole. */
  readSessionFile(doc: Doc, v: Obj & { session: Obj; items: unknown[] }): void {
    this.b.session.id ??= str(v.session.id);
    v.items.forEach((item, i) => isPlainObject(item) && this.item(doc, item, ['items', i]));
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
        // the other Responses items a newer rollout holds (a `tool_search_call` the client ran and its
        // `tool_search_output`, a `shell_call`, an `mcp_call`, ...) are read as the Responses reader reads them
        if (makesCall(item.type) || OUTPUT_ITEMS.has(item.type as string) || HOSTED_CALLS.has(item.type as string)) readResponsesItem(b, doc, path, item);
        else b.breakTurn();
    }
  }
}

export const codex: FormatAdapter = {
  id: 'codex',
  packs: ['codex'],
  document: {
    claims: isSessionFile,
    read(doc, emit) {
      singleSession((b) => new CodexReader(b).readSessionFile(doc, doc.value as Obj & { session: Obj; items: unknown[] }), emit);
    },
  },
  lines: {
    claims(v) {
      return (isEnvelope(v) && RECORD_TYPES.has(v.type as string) && isPlainObject(v.payload)) || isExecEvent(v) || isLegacyHeader(v)
        || (isLegacyEvent(v) && LEGACY_EVENTS.has(v.msg.type)) || isAppEvent(v);
    },
    accepts: (v) => isEnvelope(v) || isExecLine(v) || isLegacyPreamble(v)
      || (isLegacyEvent(v) && (LEGACY_EVENTS.has(v.msg.type) || LEGACY_QUIET.has(v.msg.type)))
      || APP_SCOPES.test(notificationOf(v)?.method ?? ''),
    keeps: isLegacyLine,
    open({ builder }) {
      const reader = new CodexReader(builder);
      return { read: (doc) => reader.read(doc) };
    },
  },
};
