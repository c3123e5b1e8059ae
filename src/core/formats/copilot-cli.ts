// GitHub Copilot CLI session logs (`~/.copilot/session-state/<session>/events.jsonl`, also what `copilot -p
// --output-format json` prints, and VS Code Copilot Chat's transcripts): one event per line `{type, data, id,
// timestamp, parentId, ephemeral?, agentId?}`. A call is a `toolRequests[]` entry `{toolCallId, name, arguments}` of an
// `assistant.message` (arguments are an object; VS Code's transcripts write a JSON string). `tool.execution_start`
// `{toolCallId, toolName, arguments}` mirrors it (and is the call only when no request recorded it); its
// `arguments` may carry what the runtime added, so the model's request is what is checked. The result is
// `tool.execution_complete` `{toolCallId, success, result: {content, detailedContent, contents[]}, error: {message,
// code}}`: `success: false` is an error signal, a `terminal` content block's `exitCode` an exit code (without one,
// the closing `<exited with exit code N>` line of a call that runs a shell: a shell tool by name, arguments that are
// a command line, a `shell` permission the runtime asked for it in `permission.requested`, or a terminal block).
// Ephemeral events (streamed deltas, `assistant.tool_call_delta`) are not persisted and are skipped; an event
// whose `id` was already read is a replayed copy. Events of a sub-agent (`agentId`, or the older
// `data.parentToolCallId`) are a session of their own. `session.start` names the session.
// Also read, as one document: VS Code Copilot Chat sessions (`workspaceStorage/<ws>/chatSessions/<id>.json`, and what
// Chat: Export Chat writes) `{requests: [{requestId, message, response, result: {metadata: {toolCallRounds,
// toolCallResults}}}]}`. Each tool-call round `{response, toolCalls: [{id, name, arguments}]}` is one turn (the
// arguments are the JSON string the model wrote); `toolCallResults` holds each call's result by id (`{content:
// [{value}]}`), with no error flag of its own. Newer VS Code writes the session as a log of changes instead
// (`chatSessions/<id>.jsonl`, mutation-log.ts: its first line the session, often with no request yet, later lines
// pushing requests and setting each one's `result`): the log is replayed and its final state read the same way.
// A request's `response` parts also record each tool it ran (`toolInvocationSerialized` `{toolId, toolCallId,
// isComplete, isConfirmed, toolSpecificData, resultDetails}`): where the request has no tool-call rounds (other
// agents' requests, older or trimmed files) those parts are its calls, with the arguments only where a part kept
// them (`rawInput`, or JSON `resultDetails.input`), and its results (a terminal's output and exit code, the
// details' output and `isError`; a denied or skipped confirmation never ran: an error). Where rounds exist, a part
// with the same call id adds what a round's result lacks (an exit code, an error).
import { singleSession } from './adapter';
import type { FormatAdapter, LineSink } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { isMutationEntry, MutationLog } from './mutation-log';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { lonePayload } from './lone-block';
import { isPlainObject, jsonValue, num, str, unansweredByName, type Obj } from './util';

const EVENT_TYPE = /^[a-z_]+(\.[a-z_]+)+$/;

function isEvent(v: unknown): v is Obj & { type: string; data: Obj } {
  return isPlainObject(v) && typeof v.type === 'string' && EVENT_TYPE.test(v.type) && isPlainObject(v.data);
}

function hasToolRequests(data: Obj): boolean {
  return Array.isArray(data.toolRequests) && data.toolRequests.some((r) => isPlainObject(r) && typeof r.name === 'string');
}

/** A line that is Copilot's beyond doubt: tool traffic, or the start of a Copilot agent session. */
function isCopilotEvent(v: unknown): boolean {
  if (!isEvent(v)) return false;
  const d = v.data;
  switch (v.type) {
    case 'session.start':
      return d.producer === 'copilot-agent' || typeof d.copilotVersion === 'string';
    case 'assistant.message':
      return hasToolRequests(d);
    case 'tool.execution_start':
      return typeof d.toolCallId === 'string' && typeof d.toolName === 'string';
    case 'tool.execution_complete':
      return typeof d.toolCallId === 'string' && typeof d.success === 'boolean';
    default:
      return false;
  }
}

/** The final line of `copilot -p --output-format json`. */
function isRunResult(v: unknown): boolean {
  return isPlainObject(v) && v.type === 'result' && typeof v.sessionId === 'string';
}

/** The line Copilot CLI's shell tool ends its output with: `<exited with exit code N>` (a background shell:
 *  `<shellId: S completed with exit code N>`). */
const EXIT_TRAILER = /<(?:exited|shellId: [^>\s]+ completed) with exit code (-?\d+)>\s*$/;

/** The tools that run a shell and end their output with its exit line: `bash` (`powershell` on Windows) and the
 *  ones that read from / write to a shell left running. */
const SHELL_TOOL = /^(?:(?:read|write)_)?(?:bash|powershell)$/;

/** Whether a call runs a shell, whatever its tool is named (a custom agent's or an IDE's shell tool, e.g.
 *  `run_in_terminal`): a shell tool by name, or arguments that are a command line (`command` as text, not an
 *  editor's sub-command on a `path`) or name a running shell (`shellId`). Only such a call's output ends with the
 *  runtime's exit line; any other tool's output is text it read (a file, a page), where the line says nothing. */
function runsShell(name: string | undefined, args: unknown): boolean {
  if (name !== undefined && SHELL_TOOL.test(name)) return true;
  const a = jsonValue(args);
  if (!isPlainObject(a)) return false;
  return (typeof a.command === 'string' && !('path' in a)) || typeof a.shellId === 'string';
}

function transportOf(d: Obj, shell: boolean): TransportSignals {
  const t: TransportSignals = {};
  if (typeof d.success === 'boolean') t.isError = !d.success;
  const contents = isPlainObject(d.result) && Array.isArray(d.result.contents) ? d.result.contents : [];
  let terminal = false;
  for (const c of contents) {
    if (!isPlainObject(c) || c.type !== 'terminal') continue;
    terminal = true;
    const code = num(c.exitCode);
    if (code !== undefined) {
      t.exitCode = code;
      return t;
    }
  }
  // older builds keep no terminal block (and a block of a command still running has no code): the output's own
  // last line states the exit code, in a shell's output only (a terminal block says the output is one)
  const content = isPlainObject(d.result) ? d.result.content : undefined;
  const trailer = (shell || terminal) && typeof content === 'string' ? EXIT_TRAILER.exec(content.slice(-80)) : null;
  if (trailer) t.exitCode = Number(trailer[1]);
  return t;
}

class CopilotReader {
  private readonly events = new Set<string>();
  /** Call ids already recorded, and ids already answered, per session key. */
  private readonly called = new Set<string>();
  private readonly answered = new Set<string>();
  /** The calls that run a shell, per session key and call id (by the call's name and arguments, or the `shell`
   *  permission the runtime asked for it: a completion may not repeat the tool's name). */
  private readonly shells = new Set<string>();
  private sessionId: string | undefined;

  constructor(private readonly sink: LineSink) {}

  private keyOf(line: Obj): string {
    const agent = str(line.agentId) ?? str((line.data as Obj).parentToolCallId);
    return agent === undefined ? '' : `#agent:${agent}`;
  }

  private builder(key: string): SessionBuilder {
    const b = this.sink.sessionFor(key);
    if (this.sessionId !== undefined) b.session.id = `${this.sessionId}${key}`;
    return b;
  }

  /** A chat session log's replay (its lines are entries, not events). */
  private log?: MutationLog;

  read(doc: Doc): void {
    const line = doc.value;
    if (isMutationEntry(line)) {
      (this.log ??= new MutationLog()).apply(doc);
      return;
    }
    if (!isEvent(line) || line.ephemeral === true) return;
    const id = str(line.id);
    if (id !== undefined) {
      if (this.events.has(id)) return;
      this.events.add(id);
    }
    const d = line.data;
    const key = this.keyOf(line);
    switch (line.type) {
      case 'session.start':
      case 'session.resume':
        this.sessionId ??= str(d.sessionId);
        this.builder(key);
        return;
      case 'user.message':
        this.builder(key).breakTurn();
        return;
      case 'assistant.message':
        this.readMessage(this.builder(key), key, doc, d);
        return;
      case 'tool.execution_start':
        this.readStart(this.builder(key), key, doc, d);
        return;
      case 'tool.execution_complete':
        this.readComplete(this.builder(key), key, doc, d);
        return;
      case 'permission.requested': {
        // the runtime asks a `shell` permission for a call that runs a command line
        const req = isPlainObject(d.permissionRequest) ? d.permissionRequest : undefined;
        const callId = req && req.kind === 'shell' ? str(req.toolCallId) : undefined;
        if (callId !== undefined) this.shells.add(key + ' ' + callId);
        return;
      }
    }
  }

  /** A chat session log is read once replayed to its end: the state its last line leaves. */
  finish(): void {
    const log = this.log;
    const v = log?.state;
    if (!log || !isPlainObject(v) || !Array.isArray(v.requests)) return;
    const b = this.sink.sessionFor(str(v.sessionId) ?? '');
    readChatSession(b, (path) => log.ref(path), v as Obj & { requests: unknown[] });
  }

  private readMessage(b: SessionBuilder, key: string, doc: Doc, d: Obj): void {
    if (!hasToolRequests(d)) {
      b.breakTurn();
      return;
    }
    const turn = b.newTurn();
    const text = str(d.content);
    (d.toolRequests as unknown[]).forEach((r, j) => {
      if (!isPlainObject(r) || typeof r.name !== 'string') return;
      const callId = str(r.toolCallId);
      if (callId !== undefined) {
        if (this.called.has(key + ' ' + callId)) return;
        this.called.add(key + ' ' + callId);
        if (runsShell(r.name, r.arguments)) this.shells.add(key + ' ' + callId);
      }
      b.call({ name: r.name, id: callId, at: { doc, path: ['data', 'toolRequests', j] }, namePath: ['name'], argsPath: ['arguments'], args: r.arguments,
        expect: 'any', messageText: text === '' ? undefined : text }, turn);
    });
  }

  private readStart(b: SessionBuilder, key: string, doc: Doc, d: Obj): void {
    const callId = str(d.toolCallId);
    const name = str(d.toolName);
    if (name === undefined) return;
    if (callId !== undefined) {
      // the runtime's copy of the arguments may say what the request did not (the command it ran)
      if (runsShell(name, d.arguments)) this.shells.add(key + ' ' + callId);
      if (this.called.has(key + ' ' + callId)) return;
      this.called.add(key + ' ' + callId);
    }
    // a trimmed transcript's start without its call id is still the call: its completion answers it by position
    b.call({ name, id: callId, at: { doc, path: ['data'] }, namePath: ['toolName'], argsPath: ['arguments'], args: d.arguments, expect: 'any' });
  }

  private readComplete(b: SessionBuilder, key: string, doc: Doc, d: Obj): void {
    const callId = str(d.toolCallId);
    if (callId !== undefined) {
      if (this.answered.has(key + ' ' + callId)) return;
      this.answered.add(key + ' ' + callId);
    }
    // without an id, it answers the earliest call of its tool still waiting (else the earliest one waiting)
    const callIndex = callId === undefined ? unansweredByName(b, str(d.toolName)) ?? unansweredByName(b) : undefined;
    const call = callIndex === undefined ? undefined : b.session.calls[callIndex];
    const shell = runsShell(str(d.toolName), undefined) || (callId !== undefined && this.shells.has(key + ' ' + callId))
      || (call !== undefined && runsShell(call.name, call.args));
    const failed = d.success === false && d.error !== undefined;
    b.result({ at: { doc, path: ['data'] }, callId, callIndex, payload: failed ? d.error : d.result, payloadPath: [failed ? 'error' : 'result'],
      transport: transportOf(d, shell) });
    b.breakTurn();
  }
}

// ---- VS Code Copilot Chat sessions ------------------------------------------------------------------------

function roundsOf(r: unknown): unknown[] | undefined {
  const meta = isPlainObject(r) && isPlainObject(r.result) && isPlainObject(r.result.metadata) ? r.result.metadata : undefined;
  return meta && Array.isArray(meta.toolCallRounds) ? meta.toolCallRounds : undefined;
}

function isChatSession(v: unknown): v is Obj & { requests: Obj[] } {
  return isPlainObject(v) && Array.isArray(v.requests) && v.requests.length > 0
    && v.requests.every((r) => isPlainObject(r) && typeof r.requestId === 'string')
    && v.requests.some((r) => roundsOf(r) !== undefined || toolParts(r).length > 0);
}

// ---- a response's own record of its tools (`IChatToolInvocationSerialized`, VS Code's chatService.ts) --------

/** A response part that records one tool invocation: `{kind: "toolInvocationSerialized", toolId, toolCallId,
 *  isComplete, isConfirmed, toolSpecificData?, resultDetails?}`. */
type ToolPart = Obj & { toolId: string };

function toolParts(r: unknown): [ToolPart, number][] {
  const response = isPlainObject(r) && Array.isArray(r.response) ? r.response : [];
  const parts: [ToolPart, number][] = [];
  response.forEach((p, k) => {
    if (isPlainObject(p) && p.kind === 'toolInvocationSerialized' && typeof p.toolId === 'string') parts.push([p as ToolPart, k]);
  });
  return parts;
}

/** `isConfirmed`: a ConfirmedReason `{type}` (ToolConfirmKind: 0 Denied, 5 Skipped: the tool never ran), or a
 *  boolean before VS Code 1.104. */
function neverRan(p: ToolPart): boolean {
  const c = p.isConfirmed;
  return c === false || (isPlainObject(c) && (c.type === 0 || c.type === 5));
}

/** What a part says of how its tool ended: a terminal's exit code, the details' `isError`, a denial. */
function partTransport(p: ToolPart): TransportSignals {
  const t: TransportSignals = {};
  const data = isPlainObject(p.toolSpecificData) ? p.toolSpecificData : undefined;
  const code = data && isPlainObject(data.terminalCommandState) ? num(data.terminalCommandState.exitCode) : undefined;
  if (code !== undefined) t.exitCode = code;
  if (isPlainObject(p.resultDetails) && typeof p.resultDetails.isError === 'boolean') t.isError = p.resultDetails.isError;
  if (neverRan(p)) t.isError = true;
  return t;
}

/** The arguments a part kept: an extension or MCP tool's `toolSpecificData.rawInput`, else the input-output details'
 *  `input` when it is the JSON object of the arguments (for a terminal it is the bare command line). Most built-in
 *  tools keep none: the request's tool-call rounds hold them, when the file has them. */
function partArgs(p: ToolPart): { path: JsonPath; args: unknown; expect: 'object' | 'string' } | undefined {
  const data = p.toolSpecificData;
  if (isPlainObject(data) && data.kind === 'input' && isPlainObject(data.rawInput)) return { path: ['toolSpecificData', 'rawInput'], args: data.rawInput, expect: 'object' };
  const input = isPlainObject(p.resultDetails) ? p.resultDetails.input : undefined;
  if (typeof input === 'string' && isPlainObject(jsonValue(input))) return { path: ['resultDetails', 'input'], args: input, expect: 'string' };
  return undefined;
}

/** What the tool returned, as the part kept it: a terminal's output, the details' output parts (one embedded text
 *  is the payload itself), the references a search found, a subagent's result. Undefined: the part says the tool
 *  completed and kept nothing of what it returned. */
function partPayload(p: ToolPart): { value: unknown; path: JsonPath } | undefined {
  const data = isPlainObject(p.toolSpecificData) ? p.toolSpecificData : undefined;
  if (data && isPlainObject(data.terminalCommandOutput) && typeof data.terminalCommandOutput.text === 'string') {
    return { value: data.terminalCommandOutput.text, path: ['toolSpecificData', 'terminalCommandOutput', 'text'] };
  }
  const details = p.resultDetails;
  if (isPlainObject(details) && details.output !== undefined) {
    const out = lonePayload(details.output, ['value']);
    return { value: out.value, path: ['resultDetails', 'output', ...out.path] };
  }
  if (Array.isArray(details)) return { value: details, path: ['resultDetails'] };
  if (data && data.kind === 'subagent' && data.result !== undefined) return { value: data.result, path: ['toolSpecificData', 'result'] };
  return undefined;
}

/** A part's text: a markdown part (`{value}` with no kind, or `markdownContent`) is the model speaking between calls. */
function isMarkdownPart(p: unknown): boolean {
  return isPlainObject(p) && (p.kind === undefined || p.kind === 'markdownContent') && typeof p.value === 'string';
}

/** A request with no tool-call rounds (VS Code keeps them only for its own agent's requests, and older or trimmed
 *  sessions lack them): its response parts are its calls, in order, each run of them between two texts one turn. A
 *  part is its call's result too, once complete or never run. */
function readToolParts(b: SessionBuilder, loc: Locate, r: Obj, base: JsonPath): void {
  const response = r.response as unknown[];
  let turn: number | undefined;
  response.forEach((p, k) => {
    if (isMarkdownPart(p)) {
      if (turn !== undefined) b.breakTurn();
      turn = undefined;
      return;
    }
    if (!isPlainObject(p) || p.kind !== 'toolInvocationSerialized' || typeof p.toolId !== 'string') return;
    const part = p as ToolPart;
    const path: JsonPath = [...base, k];
    turn ??= b.newTurn();
    const id = str(part.toolCallId);
    const a = partArgs(part);
    const call = b.call({ name: part.toolId, id, at: loc(path), namePath: ['toolId'], argsPath: a?.path ?? [], argsAt: a ? loc([...path, ...a.path]) : undefined,
      args: a?.args, expect: a?.expect ?? 'any' }, turn);
    // arguments the file never kept are not an empty object: nothing to check them against
    if (!a) call.args = undefined;
    partResult(b, loc, part, path);
  });
  if (turn !== undefined) b.breakTurn();
}

/** A part is its call's result once complete (or never run): what it kept of the output, if anything. */
function partResult(b: SessionBuilder, loc: Locate, part: ToolPart, path: JsonPath): void {
  const payload = partPayload(part);
  if (part.isComplete !== true && payload === undefined && !neverRan(part)) return;
  b.result({ at: loc(path), callId: str(part.toolCallId), payload: payload?.value, payloadPath: payload?.path, transport: partTransport(part) });
}

/** A serialized tool result: one text part is the payload itself. */
function chatResultPayload(res: Obj): { value: unknown; path: JsonPath } {
  const p = lonePayload(res.content, ['value']);
  return { value: p.value, path: ['content', ...p.path] };
}

/** Where a node of a chat session is in the file: in a session document, the node itself; in a session log
 *  (mutation-log.ts), the line that wrote it. */
type Locate = (path: JsonPath) => NodeRef;

function readChatSession(b: SessionBuilder, loc: Locate, v: Obj & { requests: unknown[] }): void {
  v.requests.forEach((r, i) => {
    b.breakTurn(); // each request is the user's new message
    const rounds = roundsOf(r) ?? [];
    const metaPath: JsonPath = ['requests', i, 'result', 'metadata'];
    // a cancelled or pending request has no result
    const meta = isPlainObject(r) && isPlainObject(r.result) ? (r.result.metadata as Obj | undefined) : undefined;
    const results = meta && isPlainObject(meta.toolCallResults) ? meta.toolCallResults : {};
    if (!rounds.some((round) => isPlainObject(round) && Array.isArray(round.toolCalls) && round.toolCalls.length > 0)) {
      if (isPlainObject(r) && Array.isArray(r.response)) readToolParts(b, loc, r, ['requests', i, 'response']);
      return;
    }
    // the response's part for a call says what the result cannot: an exit code, an error, a denial
    const parts = new Map<string, [ToolPart, number]>();
    for (const [p, k] of toolParts(r)) if (typeof p.toolCallId === 'string') parts.set(p.toolCallId, [p, k]);
    rounds.forEach((round, j) => {
      if (!isPlainObject(round) || !Array.isArray(round.toolCalls) || round.toolCalls.length === 0) return;
      const turn = b.newTurn();
      const text = str(round.response);
      const ids: string[] = [];
      round.toolCalls.forEach((tc, k) => {
        if (!isPlainObject(tc) || typeof tc.name !== 'string') return;
        const id = str(tc.id);
        if (id !== undefined) ids.push(id);
        const path: JsonPath = [...metaPath, 'toolCallRounds', j, 'toolCalls', k];
        b.call({ name: tc.name, id, at: loc(path), namePath: ['name'], argsPath: ['arguments'], argsAt: loc([...path, 'arguments']),
          args: tc.arguments, expect: 'string', messageText: text === '' ? undefined : text }, turn);
      });
      for (const id of ids) {
        const res = results[id];
        const part = parts.get(id);
        if (!isPlainObject(res)) {
          if (part) partResult(b, loc, part[0], ['requests', i, 'response', part[1]]);
          continue;
        }
        const payload = chatResultPayload(res);
        b.result({ at: loc([...metaPath, 'toolCallResults', id]), callId: id, payload: payload.value, payloadPath: payload.path, transport: part ? partTransport(part[0]) : {} });
      }
      b.breakTurn();
    });
  });
}

/** The first line of a chat session log: the Initial entry, a chat session (whose requests may still be empty). */
function isChatLogStart(v: unknown): boolean {
  return isMutationEntry(v) && v.kind === 0 && isPlainObject(v.v) && Array.isArray(v.v.requests)
    && (typeof v.v.sessionId === 'string' || typeof v.v.version === 'number');
}

export const copilotCli: FormatAdapter = {
  id: 'copilot-cli',
  document: {
    claims: isChatSession,
    read(doc, emit) {
      const v = doc.value as Obj & { requests: Obj[] };
      const first = v.requests.find((r) => roundsOf(r) !== undefined);
      const sid = str(v.sessionId) ?? str(((first?.result as Obj | undefined)?.metadata as Obj | undefined)?.sessionId);
      singleSession((b) => readChatSession(b, (path) => ({ doc, path }), v), emit, sid);
    },
  },
  lines: {
    claims: (v) => isCopilotEvent(v) || isChatLogStart(v),
    accepts: (v) => isEvent(v) || isRunResult(v) || isMutationEntry(v),
    open(sink) {
      const reader = new CopilotReader(sink);
      return { read: (doc) => reader.read(doc), finish: () => reader.finish() };
    },
  },
};
