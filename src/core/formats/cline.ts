// Cline and Roo Code task files (`<globalStorage>/tasks/<id>/`): `api_conversation_history.json` and
// `ui_messages.json`, each one JSON array.
// - api_conversation_history: Anthropic-style messages (Cline adds `ts`, `modelInfo`, `metrics`). Calls are native
//   `tool_use` blocks, or, in the XML era, tool tags in the assistant's text (`<read_file><path>a</path></read_file>`,
//   every parameter a string). Results are `tool_result` blocks (Roo's native protocol, later Cline), or TEXT blocks
//   in the next user message that open with `[read_file for 'a'] Result:` (the content in the same block or the
//   next one), `<function_results>` (Cline's Claude 4 prompts) or "Tool [x] was not executed…" / "Skipping tool
//   [x…]" (a call that never ran). Text results carry no id: they answer the calls of the last assistant message,
//   by tool name, then in order.
// - ui_messages: `{ts, type: 'say'|'ask', say|ask, text}`, a JSON array (the CLI's `--json` prints them one a line).
//   Calls: say/ask `tool` (a JSON string {tool, path, …}
//   whose display tag — readFile, newFileCreated — is read as the tool it shows), ask `use_mcp_server` ({serverName,
//   toolName, arguments: a JSON string inside the JSON string}), `command` (the command line, free-form) and
//   `browser_action_launch` (the url) / `browser_action` ({action, coordinate, text}), both the `browser_action` tool.
//   Results: `mcp_server_response`, the first `command_output` chunk, a non-empty `browser_action_result`, else the next `api_req_started` request (the
//   `[x] Result:` text the model was sent), paired by tool and order; a result already read is not read again.
// - Roo Code CLI `--output-format stream-json` (apps/cli json-event-emitter): one event a line, the ui messages
//   retold — `tool_use {id: the ask's ts, subtype: tool | command | mcp | browser, tool_use: {name, input}}` (a
//   `tool` ask's input is its parsed JSON, a command's `{command}`, an MCP or browser ask's `{raw: its text}`) and
//   `tool_result {subtype?, tool_result: {name, output, error?, exitCode?}}` (a command's output, an MCP response,
//   a browser result: no id, so it answers the latest call of its kind), between `assistant` / `thinking` / `user`
//   text events (each a new model message) and a closing `result`. A streamed ask is sent again, under the same
//   id, each time it grows: the last copy is the call. Newer CLIs send a growing ask as deltas (`content`, and an
//   input of the delta alone) closed by a `done` copy of the whole ask (an ask never done never ran), and a
//   command's output as `tool_result` deltas under the command's id closed by a `done` one with its `exitCode`;
//   older ones resend the whole output, without an id, as it grows. `--output-format json` prints the same events
//   once, inside `{type: 'result', success, events: [...]}`.
// Error signals are Cline's and Roo's own words ("The tool execution failed…", "The user denied this operation.",
// Roo's {"status": "error"}), MCP's "Error:\n" prefix (Cline writes it when the tool's isError was set, so an MCP
// result without it is isError false) and Roo's "Exit code: N". Partial (interrupted) ui messages never ran.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { readAnthropicMessage } from './anthropic';
import type { NodeRef, SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import { embeddedDoc, type Doc, type JsonPath } from '../parse/doc';
import { isClineHistory, RESULT_HEADER, texts } from './cline-shape';
import { isPlainObject, jsonIn, jsonValue, str, type Obj } from './util';

// ---- recognising the files --------------------------------------------------------------------------------------

function isUiMessage(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.ts === 'number' && ((v.type === 'say' && typeof v.say === 'string') || (v.type === 'ask' && typeof v.ask === 'string'));
}

function isUiMessages(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isUiMessage);
}

// ---- result text ------------------------------------------------------------------------------------------------

const ERROR_TEXT = [
  /^The tool execution failed with the following error:/,
  /^The user denied this operation\b/,
  /^Access to [\s\S]+? is blocked by the \.(?:cline|roo)ignore file settings/,
  /^Missing value for required parameter '/,
  /^Invalid JSON argument used with /,
  /^\[ERROR\]/,
  /^Error executing (?:MCP tool|browser action): /,
  /^The user rejected this browser action\b/,
];
const MCP_TOOLS = new Set(['use_mcp_tool', 'access_mcp_resource']);
const EXIT_CODE = /^Command executed\b[^\n]*?\bExit code: (-?\d+)/;

/** The transport signals a Cline or Roo result text carries: its error wording, MCP's error prefix, an exit code. */
function signalsOf(tool: string | undefined, body: string): TransportSignals {
  const text = body.trimStart();
  if (ERROR_TEXT.some((re) => re.test(text))) return { isError: true };
  const json = jsonValue(text);
  if (isPlainObject(json) && (json.status === 'error' || json.status === 'denied')) return { isError: true };
  if (tool !== undefined && MCP_TOOLS.has(tool)) return { isError: /^Error:\r?\n/.test(text) };
  const exit = EXIT_CODE.exec(text);
  return exit ? { exitCode: Number(exit[1]) } : {};
}

/** A call that did not run, as Cline and Roo say so in place of its result. */
const NOT_RUN = [
  /^Tool \[([A-Za-z_][\w.-]*)\] was not executed because a tool has already been used/,
  /^Skipping tool \[([A-Za-z_][\w.-]*)\b[\s\S]*?\] due to user rejecting a previous tool/,
  /^Tool \[([A-Za-z_][\w.-]*)\b[\s\S]*?\] was interrupted and not executed/,
];

interface TextResult {
  /** The tool the text names (absent for `<function_results>`). */
  tool?: string;
  body: string;
  /** The body is only the header: the content is the next block. */
  headerOnly: boolean;
  signals: TransportSignals;
}

function textResult(text: string): TextResult | undefined {
  const header = RESULT_HEADER.exec(text);
  if (header) {
    const body = text.slice(header[0].length);
    return { tool: header[1], body, headerOnly: body.trim() === '', signals: signalsOf(header[1], body) };
  }
  for (const re of NOT_RUN) {
    const m = re.exec(text);
    if (m) return { tool: m[1], body: text, headerOnly: false, signals: { isError: true } };
  }
  const fr = /^\s*<function_results>\r?\n?([\s\S]*?)\r?\n?<\/function_results>/.exec(text);
  return fr ? { body: fr[1], headerOnly: false, signals: signalsOf(undefined, fr[1]) } : undefined;
}

// ---- pairing by name and order ----------------------------------------------------------------------------------

interface Pending {
  index: number;
  name: string;
  answered: boolean;
  /** The header names a result for this call may carry (its own name, or the API tool a ui tag shows). */
  headers?: readonly string[];
}

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether a result naming `tool` may answer `p`: same name, or a name inside it (`[subagents]` answers
 *  `use_subagents`). */
function answers(p: Pending, tool: string | undefined): boolean {
  if (tool === undefined) return true;
  if (p.headers) return p.headers.includes(tool);
  return p.name === tool || squash(p.name).includes(squash(tool));
}

/** The first unanswered call a result naming `tool` answers: by name first, then the first of any name. */
function pick(pending: Pending[], tool: string | undefined): Pending | undefined {
  const open = pending.filter((p) => !p.answered);
  return open.find((p) => p.name === tool) ?? open.find((p) => answers(p, tool));
}

// ---- XML tool tags (Cline and Roo before native tool calling) ---------------------------------------------------

const XML_TOOLS = new Set([
  // Cline
  'execute_command', 'read_file', 'write_to_file', 'replace_in_file', 'search_files', 'list_files', 'list_code_definition_names',
  'browser_action', 'use_mcp_tool', 'access_mcp_resource', 'ask_followup_question', 'plan_mode_respond', 'load_mcp_documentation',
  'attempt_completion', 'new_task', 'condense', 'summarize_task', 'report_bug', 'new_rule', 'web_fetch', 'web_search', 'use_subagents',
  // Roo Code
  'apply_diff', 'insert_content', 'search_and_replace', 'codebase_search', 'switch_mode', 'fetch_instructions', 'update_todo_list',
  'run_slash_command', 'generate_image', 'edit_file',
]);
/** Parameters whose value may hold tags of its own: they end at the LAST closing tag, as Cline reads them. */
const GREEDY = new Set(['content', 'diff']);

interface XmlCall {
  name: string;
  start: number;
  end: number;
  bodyStart: number;
  bodyEnd: number;
  params: Record<string, string>;
}

function xmlParams(body: string): Record<string, string> {
  const params: Record<string, string> = {};
  const open = /<([a-z_][a-z0-9_]*)>/g;
  for (let m = open.exec(body); m; m = open.exec(body)) {
    const close = `</${m[1]}>`;
    const from = m.index + m[0].length;
    const to = GREEDY.has(m[1]) ? body.lastIndexOf(close) : body.indexOf(close, from);
    if (to < from) continue;
    params[m[1]] = body.slice(from, to).trim();
    open.lastIndex = to + close.length;
  }
  return params;
}

/** The complete tool tags in a text (an unclosed one was cut off while streaming, and never ran). */
function xmlCalls(text: string): XmlCall[] {
  const out: XmlCall[] = [];
  const open = /<([a-z_][a-z0-9_]*)>/g;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    if (!XML_TOOLS.has(m[1])) continue;
    const close = `</${m[1]}>`;
    const bodyStart = m.index + m[0].length;
    const bodyEnd = text.indexOf(close, bodyStart);
    if (bodyEnd < 0) break;
    out.push({ name: m[1], start: m.index, end: bodyEnd + close.length, bodyStart, bodyEnd, params: xmlParams(text.slice(bodyStart, bodyEnd)) });
    open.lastIndex = bodyEnd + close.length;
  }
  return out;
}

/** A part of the string at `ref` (from `start` to `end` of its decoded text), as a Doc of its own: findings in it
 *  point into that part of the string. The part is not JSON, so a path inside it resolves to where it starts. */
function partOf(ref: NodeRef, decoded: string, start: number, end: number, value: unknown): Doc {
  return embeddedDoc(ref.doc, ref.path, decoded, start, decoded.slice(start, end), value);
}

// ---- api_conversation_history -----------------------------------------------------------------------------------

class HistoryReader {
  /** The calls of the last assistant message, waiting for their results. */
  private pending: Pending[] = [];

  constructor(
    private readonly b: SessionBuilder,
    private readonly doc: Doc,
  ) {}

  message(i: number, m: Obj): void {
    if (m.role === 'assistant') this.assistant(i, m);
    else this.user(i, m);
  }

  private assistant(i: number, m: Obj): void {
    const b = this.b;
    const first = b.session.calls.length;
    const native = Array.isArray(m.content) && m.content.some((c) => isPlainObject(c) && c.type === 'tool_use');
    if (native) readAnthropicMessage(b, this.doc, [i], m);
    else this.xml(i, m);
    this.pending = b.session.calls.slice(first).map((c) => ({ index: c.index, name: c.name, answered: false }));
  }

  /** Tool tags in the text blocks (or string content) of an assistant message: one turn. */
  private xml(i: number, m: Obj): void {
    const b = this.b;
    const blocks: { ref: NodeRef; text: string }[] = typeof m.content === 'string'
      ? [{ ref: { doc: this.doc, path: [i, 'content'] }, text: m.content }]
      : (m.content as unknown[]).flatMap((c, j) => (isPlainObject(c) && c.type === 'text' && typeof c.text === 'string'
        ? [{ ref: { doc: this.doc, path: [i, 'content', j, 'text'] }, text: c.text }] : []));
    let turn: number | undefined;
    for (const { ref, text } of blocks) {
      const found = xmlCalls(text);
      const said = found.reduceRight((t, c) => t.slice(0, c.start) + t.slice(c.end), text).trim();
      for (const c of found) {
        turn ??= b.newTurn();
        b.call({
          name: c.name, at: { doc: partOf(ref, text, c.start, c.end, undefined), path: [] }, namePath: [], argsPath: [],
          argsAt: { doc: partOf(ref, text, c.bodyStart, c.bodyEnd, c.params), path: [] }, args: c.params, expect: 'object',
          messageText: said || undefined,
        }, turn);
      }
    }
    if (turn === undefined) b.breakTurn();
  }

  private user(i: number, m: Obj): void {
    const b = this.b;
    const content = m.content;
    const blocks: { path: JsonPath; text: string }[] = typeof content === 'string'
      ? [{ path: [i, 'content'], text: content }]
      : (content as unknown[]).flatMap((c, j) => (isPlainObject(c) && c.type === 'text' && typeof c.text === 'string' ? [{ path: [i, 'content', j], text: c.text }] : []));
    for (let k = 0; k < blocks.length; k++) {
      const r = textResult(blocks[k].text);
      const p = r && pick(this.pending, r.tool);
      if (!r || !p) continue;
      p.answered = true;
      // a header alone in its block: the content is the next block (Cline's older layout)
      const next = r.headerOnly && k + 1 < blocks.length && !RESULT_HEADER.test(blocks[k + 1].text) ? blocks[++k] : undefined;
      const body = next ? next.text : r.body;
      b.result({ at: { doc: this.doc, path: (next ?? blocks[k]).path }, callIndex: p.index, payload: body,
        payloadPath: typeof content === 'string' ? [] : ['text'], transport: next ? signalsOf(r.tool, body) : r.signals });
    }
    // tool_result blocks (Roo's native protocol, later Cline): their ids pair them; Cline's words still say failure
    const before = b.session.results.length;
    readAnthropicMessage(b, this.doc, [i], m);
    for (const r of b.session.results.slice(before)) {
      const call = b.session.calls.find((c) => c.id !== undefined && c.id === r.callId);
      const pending = this.pending.find((p) => p.index === call?.index);
      if (pending) pending.answered = true;
      if (r.transport.isError !== undefined) continue;
      const text = typeof r.payload === 'string' ? r.payload : texts(r.payload).join('\n');
      const header = RESULT_HEADER.exec(text);
      Object.assign(r.transport, signalsOf(header?.[1] ?? call?.name, header ? text.slice(header[0].length) : text));
    }
  }
}

// ---- ui_messages ------------------------------------------------------------------------------------------------

type UiKind = 'tool' | 'mcp' | 'command' | 'browser';

/** The API tools a ui `tool` tag shows (Cline's ClineSayTool, Roo's); other tags are read as written. */
const UI_TOOLS: Record<string, readonly string[]> = {
  readFile: ['read_file'],
  listFilesTopLevel: ['list_files'],
  listFilesRecursive: ['list_files'],
  listCodeDefinitionNames: ['list_code_definition_names'],
  searchFiles: ['search_files'],
  newFileCreated: ['write_to_file'],
  editedExistingFile: ['replace_in_file', 'write_to_file', 'apply_diff', 'edit_file'],
  appliedDiff: ['apply_diff'],
  insertContent: ['insert_content'],
  searchAndReplace: ['search_and_replace'],
  codebaseSearch: ['codebase_search'],
  webFetch: ['web_fetch'],
  webSearch: ['web_search'],
  fetchInstructions: ['fetch_instructions'],
  updateTodoList: ['update_todo_list'],
  generateImage: ['generate_image'],
  runSlashCommand: ['run_slash_command'],
  switchMode: ['switch_mode'],
  newTask: ['new_task'],
};

interface UiPending extends Pending {
  kind: UiKind;
}

class UiReader {
  /** Calls since the last API request, in order; the next request carries their results. */
  private pending: UiPending[] = [];

  constructor(private readonly b: SessionBuilder) {}

  /** One message, at `base` in `doc` (its index in a file's array, or a JSONL line of its own). */
  element(doc: Doc, base: JsonPath, el: Obj): void {
    const kind = str(el.say) ?? str(el.ask);
    const text = str(el.text);
    if (kind === undefined || text === undefined) return;
    switch (kind) {
      case 'tool':
      case 'use_mcp_server':
        if (el.partial !== true) this.jsonCall(doc, [...base, 'text'], kind, text);
        return;
      case 'command':
        if (el.partial !== true) this.call('command', 'execute_command', ['execute_command'], { name: 'execute_command', at: { doc, path: base },
          namePath: [el.type as string], argsPath: ['text'], args: text, expect: 'any', freeform: true });
        return;
      case 'browser_action_launch':
        // the url alone (`browser_action` with action `launch`)
        if (el.partial !== true) this.call('browser', 'browser_action', ['browser_action'], { name: 'browser_action', at: { doc, path: base },
          namePath: [el.type as string], argsPath: ['text'], args: text, expect: 'any', freeform: true });
        return;
      case 'browser_action':
        if (el.partial !== true) this.jsonCall(doc, [...base, 'text'], kind, text);
        return;
      case 'browser_action_result':
        // an empty one is the spinner Cline shows while the action runs
        if (text !== '') this.answer('browser', { doc, path: base }, text, {});
        return;
      case 'mcp_server_response':
        this.answer('mcp', { doc, path: base }, text, { isError: /^Error:\r?\n/.test(text) });
        return;
      case 'command_output':
        this.answer('command', { doc, path: base }, text, {});
        return;
      case 'api_req_started':
        this.request(doc, base, text);
        return;
      default:
    }
  }

  call(kind: UiKind, name: string, headers: readonly string[], input: Parameters<SessionBuilder['call']>[0]): void {
    const c = this.b.call(input);
    this.pending.push({ index: c.index, name, headers, kind, answered: false });
  }

  /** A call whose ui text (at `textPath`) is JSON: a tool ask, an MCP ask or a browser action. */
  jsonCall(doc: Doc, textPath: JsonPath, kind: string, text: string): void {
    const inner = jsonIn(doc, textPath, text);
    if (isPlainObject(inner.value)) this.objectCall({ doc: inner.doc, path: inner.path }, kind, inner.value);
  }

  /** The call a ui message's JSON at `at` makes, by the message's kind. */
  objectCall(at: NodeRef, kind: string, v: Obj): void {
    if (kind === 'browser_action') {
      this.call('browser', 'browser_action', ['browser_action'], { name: 'browser_action', at, namePath: [], argsPath: [], args: v, expect: 'object' });
    } else if (kind === 'tool') {
      const tag = str(v.tool);
      if (tag === undefined) return;
      const headers = UI_TOOLS[tag];
      const name = headers?.[0] ?? tag;
      this.call('tool', name, headers ?? [tag], { name, at, namePath: ['tool'], argsPath: [], args: v, expect: 'object' });
    } else if (typeof v.toolName === 'string') {
      this.call('mcp', v.toolName, ['use_mcp_tool'], { name: v.toolName, at, namePath: ['toolName'], argsPath: ['arguments'], args: v.arguments, expect: 'string' });
    } else if (typeof v.type === 'string') {
      this.call('mcp', v.type, [v.type], { name: v.type, at, namePath: ['type'], argsPath: [], args: v, expect: 'object' });
    }
  }

  /** A new model message began: the calls made at `where` that no ui message answered had their results sent to
   *  the model unshown (Roo's CLI stream shows only a command's, an MCP tool's and the browser's). */
  settle(where: Map<number, NodeRef>): void {
    for (const p of this.pending) {
      const at = where.get(p.index);
      if (p.answered || !at) continue;
      p.answered = true;
      this.b.result({ at, callIndex: p.index });
    }
    this.pending = [];
  }

  /** A ui message that answers the latest call of its kind (a chunk after the first is the same result). */
  answer(kind: UiKind, at: NodeRef, text: string, transport: TransportSignals, payloadPath: JsonPath = ['text']): void {
    const p = [...this.pending].reverse().find((x) => x.kind === kind);
    if (!p || p.answered) return;
    p.answered = true;
    this.b.result({ at, callIndex: p.index, payload: text, payloadPath, transport });
  }

  /** An API request: the `[x] Result:` texts it sent answer the calls since the last one, in order; a call already
   *  answered in the ui (an MCP response, command output) only moves the order on. */
  private request(doc: Doc, base: JsonPath, text: string): void {
    const inner = jsonIn(doc, [...base, 'text'], text);
    const request = isPlainObject(inner.value) ? str(inner.value.request) : undefined;
    if (request !== undefined) {
      const at = { doc: inner.doc, path: [...inner.path, 'request'] };
      let from = 0;
      for (const seg of segments(request)) {
        const i = this.pending.findIndex((p, n) => n >= from && answers(p, seg.tool));
        if (i < 0) continue;
        from = i + 1;
        const p = this.pending[i];
        if (p.answered) continue;
        p.answered = true;
        this.b.result({ at, callIndex: p.index, payload: seg.body, payloadPath: [], transport: signalsOf(seg.tool, seg.body) });
      }
    }
    this.pending = [];
    this.b.breakTurn();
  }
}

/** The `[x] Result:` parts of a request text (the user message's blocks, joined). */
function segments(request: string): { tool: string; body: string }[] {
  const starts: { at: number; tool: string; len: number }[] = [];
  const re = /(?:^|\n)(\[([A-Za-z_][\w.-]*)\b[\s\S]*?\] Result:[ \t]*(?:\r?\n)?)/g;
  for (let m = re.exec(request); m; m = re.exec(request)) {
    starts.push({ at: m.index + m[0].length - m[1].length, tool: m[2], len: m[1].length });
  }
  return starts.map((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].at : request.length;
    const body = request.slice(s.at + s.len, end);
    const env = body.indexOf('<environment_details>');
    return { tool: s.tool, body: (env >= 0 ? body.slice(0, env) : body).trim() };
  });
}

// ---- Roo Code CLI stream-json -----------------------------------------------------------------------------------

/** A Roo CLI event of tool traffic: an ask's `tool_use` (its ts the `id`), or a `tool_result`. */
function isRooToolEvent(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  if (v.type === 'tool_use') return typeof v.id === 'number' && isPlainObject(v.tool_use) && typeof v.tool_use.name === 'string';
  return v.type === 'tool_result' && isPlainObject(v.tool_result) && typeof v.tool_result.name === 'string';
}

const ROO_EVENTS = new Set(['system', 'control', 'queue', 'assistant', 'user', 'thinking', 'error', 'result', 'tool_use', 'tool_result']);
/** The events after which the next call is another model message's. */
const ROO_BREAKS = new Set(['assistant', 'thinking', 'user', 'result', 'error']);
/** The events that show the model was sent the results of the calls before them: its next message, the run's end. */
const ROO_SETTLES = new Set(['assistant', 'thinking', 'result']);

/** The fields a Roo CLI event may have (its schema's, which lets nothing else through). */
const ROO_FIELDS = new Set(['type', 'subtype', 'id', 'content', 'done', 'success', 'cost', 'tool_use', 'tool_result', 'requestId', 'command',
  'taskId', 'sessionId', 'code', 'queueDepth', 'queue', 'schemaVersion', 'protocol', 'capabilities', 'approval', 'summary']);

/** A Roo CLI event: one of its types, only its fields, a tool event's own object, a message event's numeric id. */
function isRooEvent(v: unknown): boolean {
  if (!isPlainObject(v) || !ROO_EVENTS.has(v.type as string)) return false;
  for (const k in v) if (!ROO_FIELDS.has(k)) return false;
  if (v.type === 'tool_use' || v.type === 'tool_result') return isRooToolEvent(v);
  return v.type === 'system' || v.type === 'control' || v.type === 'queue' || typeof v.id === 'number';
}

/** `--output-format json`: the run's events inside its result. */
function isRooOutput(v: unknown): v is Obj & { events: unknown[] } {
  return isPlainObject(v) && v.type === 'result' && typeof v.success === 'boolean' && Array.isArray(v.events) && v.events.some(isRooToolEvent);
}

/** The kind of call a Roo CLI tool result answers. */
function rooResultKind(e: Obj, r: Obj): UiKind {
  if (r.name === 'execute_command' || e.subtype === 'command') return 'command';
  if (e.subtype === 'mcp' || r.name === 'mcp_server') return 'mcp';
  return e.subtype === 'browser' || r.name === 'browser_action' ? 'browser' : 'tool';
}

/** Roo CLI events, read as the ui messages they retell. */
class RooCliReader {
  /** The latest copy of the ask being streamed: the call once another event comes. */
  private held?: { doc: Doc; base: JsonPath; e: Obj };
  /** The result being streamed: its first event, and what its copies said so far. */
  private heldResult?: { at: NodeRef; e: Obj; kind: UiKind; text: string; chunks: number; error?: string; exitCode?: number };
  /** Where each call since the last model message was made. */
  private readonly made = new Map<number, NodeRef>();

  constructor(private readonly ui: UiReader, private readonly b: SessionBuilder) {}

  event(doc: Doc, base: JsonPath, e: Obj): void {
    if (this.held && !(e.type === 'tool_use' && e.id === this.held.e.id)) this.flush();
    if (this.heldResult && !(e.type === 'tool_result' && this.sameResult(e))) this.flushResult();
    this.b.session.id ??= str(e.taskId) ?? str(e.sessionId);
    if (e.type === 'tool_use' && isRooToolEvent(e)) this.held = { doc, base, e };
    else if (e.type === 'tool_result' && isRooToolEvent(e)) this.result(doc, base, e);
    else if (ROO_BREAKS.has(e.type as string)) {
      this.b.breakTurn();
      if (ROO_SETTLES.has(e.type as string) && this.made.size) {
        this.ui.settle(this.made);
        this.made.clear();
      }
    }
  }

  /** The held ask is complete: its call (a copy that is only the latest delta of an unfinished ask never ran). */
  flush(): void {
    const held = this.held;
    this.held = undefined;
    if (!held || (held.e.done !== true && 'content' in held.e)) return;
    const { doc, base, e } = held;
    const use = e.tool_use as Obj;
    const input = isPlainObject(use.input) ? use.input : undefined;
    const at = { doc, path: [...base, 'tool_use'] };
    const from = this.b.session.calls.length;
    this.ask(held, use, input, at);
    for (let i = from; i < this.b.session.calls.length; i++) this.made.set(i, at);
  }

  private ask({ doc, e }: { doc: Doc; e: Obj }, use: Obj, input: Obj | undefined, at: NodeRef): void {
    if (typeof input?.raw === 'string') {
      // the ask's own text: an MCP ask's JSON, a browser launch's url, a tool ask Roo could not parse
      const raw = input.raw;
      if (e.subtype === 'browser') {
        this.ui.call('browser', 'browser_action', ['browser_action'], { name: 'browser_action', at, namePath: ['name'], argsPath: ['input', 'raw'],
          args: raw, expect: 'any', freeform: true });
      } else this.ui.jsonCall(doc, [...at.path, 'input', 'raw'], e.subtype === 'mcp' ? 'use_mcp_server' : 'tool', raw);
    } else if (e.subtype === 'command' || use.name === 'execute_command') {
      this.ui.call('command', 'execute_command', ['execute_command'], { name: 'execute_command', at, namePath: ['name'], argsPath: ['input', 'command'],
        args: input?.command, expect: 'any', freeform: true });
    } else if (input && typeof input.tool === 'string') this.ui.objectCall({ doc, path: [...at.path, 'input'] }, 'tool', input);
    else {
      const name = use.name as string;
      this.ui.call('tool', name, [name], { name, at, namePath: ['name'], argsPath: ['input'], args: use.input ?? {}, expect: 'object' });
    }
  }

  /** Another copy of the held result: the same call's id (newer CLIs, whose copies are deltas ending in one that
   *  is `done`), or, without ids, the same tool again (older CLIs resend the whole output as it grows). */
  private sameResult(e: Obj): boolean {
    const held = this.heldResult!;
    if (held.e.done === true || !isRooToolEvent(e)) return false;
    return typeof held.e.id === 'number' ? e.id === held.e.id : e.id === undefined && (e.tool_result as Obj).name === (held.e.tool_result as Obj).name;
  }

  private result(doc: Doc, base: JsonPath, e: Obj): void {
    const r = e.tool_result as Obj;
    const output = str(r.output);
    const held = this.heldResult;
    if (!held) {
      this.heldResult = { at: { doc, path: [...base, 'tool_result'] }, e, kind: rooResultKind(e, r), text: output ?? '', chunks: 1,
        error: str(r.error), exitCode: typeof r.exitCode === 'number' ? r.exitCode : undefined };
    } else {
      held.chunks += 1;
      if (output !== undefined) held.text = typeof held.e.id === 'number' ? held.text + output : output;
      held.error = str(r.error) ?? held.error;
      if (typeof r.exitCode === 'number') held.exitCode = r.exitCode;
    }
    if (e.done === true) this.flushResult();
  }

  /** The held result is complete: the answer to the latest call of its kind. */
  flushResult(): void {
    const held = this.heldResult;
    this.heldResult = undefined;
    if (!held) return;
    const { kind, error, exitCode } = held;
    const text = error ?? held.text;
    const code = exitCode === undefined ? {} : { exitCode };
    const transport: TransportSignals = error !== undefined ? { isError: true, ...code }
      : kind === 'mcp' ? { isError: /^Error:\r?\n/.test(text) } : code;
    // one event: its own field; the copies of a streamed one: the first event's result as a whole
    this.ui.answer(kind, held.at, text, transport, held.chunks > 1 ? [] : [error !== undefined ? 'error' : 'output']);
  }
}

/** The ui messages that carry tool traffic: a JSONL line that is one of them is Cline's beyond doubt. */
const UI_TRAFFIC = new Set(['tool', 'use_mcp_server', 'command', 'command_output', 'mcp_server_response', 'browser_action_launch', 'browser_action', 'browser_action_result']);

export const cline: FormatAdapter = {
  id: 'cline',
  // `cline --json` / `-F json` prints each ui message as one JSON line (partial ones too, while they stream)
  lines: {
    claims(v) {
      return (isUiMessage(v) && UI_TRAFFIC.has((str(v.say) ?? str(v.ask)) as string)) || isRooToolEvent(v);
    },
    accepts: (v) => isUiMessage(v) || isRooEvent(v),
    open({ builder }) {
      const r = new UiReader(builder);
      const roo = new RooCliReader(r, builder);
      // a stream may print one message again as it is updated (same ts and kind): read it once
      const seen = new Set<string>();
      return {
        finish: () => {
          roo.flush();
          roo.flushResult();
        },
        read(doc) {
          const v = doc.value;
          if (!isUiMessage(v)) {
            if (isRooEvent(v)) roo.event(doc, [], v as Obj);
            return;
          }
          const key = `${String(v.ts)}|${String(v.type)}|${str(v.say) ?? str(v.ask)}`;
          if (v.partial === true || seen.has(key)) return;
          seen.add(key);
          r.element(doc, [], v);
        },
      };
    },
  },
  document: {
    claims(v) {
      return isClineHistory(v) || isUiMessages(v) || isRooOutput(v);
    },
    read(doc, emit) {
      const v = doc.value;
      singleSession((b) => {
        if (isRooOutput(v)) {
          const roo = new RooCliReader(new UiReader(b), b);
          v.events.forEach((e, i) => isPlainObject(e) && roo.event(doc, ['events', i], e));
          roo.flush();
          roo.flushResult();
        } else if (isUiMessages(v)) {
          const r = new UiReader(b);
          v.forEach((el, k) => r.element(doc, [k], el));
        } else if (isClineHistory(v)) {
          const r = new HistoryReader(b, doc);
          v.forEach((m, i) => r.message(i, m));
        }
      }, emit);
    },
  },
};
