// Amazon Bedrock Agents traces (InvokeAgent / InvokeInlineAgent with `enableTrace`): the events of the response
// stream as the SDKs hand them over — `{trace: {agentId, sessionId, callerChain, trace: {orchestrationTrace: …}}}`,
// `{chunk: {bytes}}`, `{returnControl: …}` — recorded in a cassette (the AWS event stream decoded by
// parse/event-stream.ts), dumped as a JSON array or JSONL, or the inner trace objects alone (`{orchestrationTrace}`).
// What the agent runs is an `invocationInput` of an orchestration (or routing classifier) trace: an action group
// function (`actionGroupInvocationInput {actionGroupName, function | apiPath, parameters: [{name, type, value}],
// requestBody}`), a knowledge base lookup, the code interpreter, or a collaborator agent; its outcome is the
// `observation` with the same `traceId` (a `failureTrace` of that traceId fails it). `returnControl` hands the
// calls to the client instead (`invocationInputs[].functionInvocationInput | apiInvocationInput`), whose results
// come in the next request's `sessionState.returnControlInvocationResults` (`responseState: FAILURE` is an error).
// Parameter values arrive as strings with a declared type: they are read as that type, as the model sent them.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { spreadDoc } from './event-stream';
import { isPlainObject, str, type Obj } from './util';

const KINDS = ['orchestrationTrace', 'routingClassifierTrace', 'preProcessingTrace', 'postProcessingTrace', 'guardrailTrace', 'failureTrace', 'customOrchestrationTrace'];

const hasKind = (v: unknown): v is Obj => isPlainObject(v) && KINDS.some((k) => isPlainObject(v[k]));

/** Where the `{<kind>Trace}` holder of an event is: the stream event, its payload, or the holder itself. */
function tracePath(v: unknown): JsonPath | undefined {
  if (!isPlainObject(v)) return undefined;
  if (isPlainObject(v.trace) && hasKind(v.trace.trace)) return ['trace', 'trace'];
  if (hasKind(v.trace)) return ['trace'];
  return hasKind(v) ? [] : undefined;
}

const isReturnControl = (v: unknown): boolean => isPlainObject(v) && isPlainObject(v.returnControl) && Array.isArray(v.returnControl.invocationInputs);

/** A request that sends the client's results of returned calls back. */
function returnedResults(v: unknown): unknown[] | undefined {
  if (!isPlainObject(v) || !isPlainObject(v.sessionState)) return undefined;
  const r = v.sessionState.returnControlInvocationResults;
  return Array.isArray(r) && r.length > 0 ? r : undefined;
}

const isEvent = (v: unknown): boolean => tracePath(v) !== undefined || isReturnControl(v) || returnedResults(v) !== undefined;

/** A parameter value as its declared type (`"20"` of type number is 20); as written when it does not parse. */
function typed(value: unknown, type: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = typeof type === 'string' ? type.toLowerCase() : '';
  if (t === 'number' || t === 'integer') return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  if (t === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if (t === 'array' || t === 'object') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** `[{name, type, value}]` lists (parameters, a request body's properties) as one arguments object. */
function argsOf(...lists: unknown[]): Obj {
  const out: Obj = {};
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const p of list) if (isPlainObject(p) && typeof p.name === 'string') out[p.name] = typed(p.value, p.type);
  }
  return out;
}

/** A request body's `content` lists: `{"application/json": [...]}` in traces, `{…: {properties: [...]}}` in returnControl. */
function bodyLists(body: unknown): unknown[] {
  if (!isPlainObject(body) || !isPlainObject(body.content)) return [];
  return Object.values(body.content).map((c) => (isPlainObject(c) ? c.properties : c));
}

interface Action {
  name: string;
  /** Where the arguments object is read from (a node of the trace). */
  argsPath: JsonPath;
  args: unknown;
  /** The arguments were rebuilt from a `[{name, type, value}]` list. */
  rebuilt: boolean;
}

/** The action an `invocationInput` (or a returned invocation input) names; undefined when it names none. */
function actionOf(input: Obj): Action | undefined {
  const group = isPlainObject(input.actionGroupInvocationInput) ? input.actionGroupInvocationInput : isPlainObject(input.functionInvocationInput) ? input.functionInvocationInput : isPlainObject(input.apiInvocationInput) ? input.apiInvocationInput : undefined;
  if (group) {
    const key = input.actionGroupInvocationInput ? 'actionGroupInvocationInput' : input.functionInvocationInput ? 'functionInvocationInput' : 'apiInvocationInput';
    const name = str(group.function) ?? str(group.apiPath);
    if (name === undefined) return undefined;
    return { name, argsPath: [key, 'parameters'], args: argsOf(group.parameters, ...bodyLists(group.requestBody)), rebuilt: true };
  }
  if (isPlainObject(input.knowledgeBaseLookupInput)) return { name: 'knowledge_base', argsPath: ['knowledgeBaseLookupInput'], args: input.knowledgeBaseLookupInput, rebuilt: false };
  if (isPlainObject(input.codeInterpreterInvocationInput)) return { name: 'code_interpreter', argsPath: ['codeInterpreterInvocationInput'], args: input.codeInterpreterInvocationInput, rebuilt: false };
  const collab = input.agentCollaboratorInvocationInput;
  if (isPlainObject(collab) && typeof collab.agentCollaboratorName === 'string') {
    return { name: collab.agentCollaboratorName, argsPath: ['agentCollaboratorInvocationInput', 'input'], args: collab.input, rebuilt: false };
  }
  return undefined;
}

/** An observation's outcome of a call: the output member, its payload, and whether it failed. */
const OUTPUTS: readonly [string, (o: Obj) => { sub: JsonPath; isError: boolean }][] = [
  ['actionGroupInvocationOutput', (o) => ({ sub: 'text' in o ? ['text'] : [], isError: false })],
  ['knowledgeBaseLookupOutput', () => ({ sub: [], isError: false })],
  ['agentCollaboratorInvocationOutput', (o) => ({ sub: 'output' in o ? ['output'] : [], isError: false })],
  ['codeInterpreterInvocationOutput', (o) => ({ sub: [], isError: (o.executionError !== undefined && o.executionError !== null && o.executionError !== '') || o.executionTimeout === true })],
];

/** Reads the events of one agent session in order, pairing observations with the calls of their traceId. */
class AgentTraceReader {
  /** Calls still waiting for their observation, by traceId, in the order they were made. */
  private readonly pending = new Map<string, string[]>();
  /** Calls made so far per traceId (a second one of the same traceId gets `#2` on its id). */
  private readonly made = new Map<string, number>();
  private lastTrace?: string;

  constructor(private readonly b: SessionBuilder) {}

  event(doc: Doc, path: JsonPath, v: unknown): void {
    const tp = tracePath(v);
    if (tp) {
      let holder = v as Obj;
      for (const k of tp) holder = holder[k] as Obj;
      this.trace(doc, [...path, ...tp], holder);
      return;
    }
    const o = v as Obj;
    if (isReturnControl(o)) this.returnControl(doc, [...path, 'returnControl'], o.returnControl as Obj);
    const results = returnedResults(o);
    if (results) this.returned(doc, [...path, 'sessionState'], o.sessionState as Obj, results);
  }

  private trace(doc: Doc, path: JsonPath, t: Obj): void {
    for (const kind of ['orchestrationTrace', 'routingClassifierTrace']) {
      const step = t[kind];
      if (!isPlainObject(step)) continue;
      if (isPlainObject(step.invocationInput)) this.invocation(doc, [...path, kind, 'invocationInput'], step.invocationInput);
      if (isPlainObject(step.observation)) this.observation(doc, [...path, kind, 'observation'], step.observation);
    }
    const failure = t.failureTrace;
    if (isPlainObject(failure)) {
      const id = str(failure.traceId);
      for (const callId of (id !== undefined ? this.pending.get(id) : undefined) ?? []) {
        this.b.result({ at: { doc, path: [...path, 'failureTrace'] }, callId, payload: failure.failureReason, payloadPath: ['failureReason'], transport: { isError: true } });
      }
      if (id !== undefined) this.pending.delete(id);
    }
  }

  private invocation(doc: Doc, path: JsonPath, input: Obj): void {
    const action = actionOf(input);
    if (!action) return;
    const traceId = str(input.traceId) ?? '';
    const queue = this.pending.get(traceId) ?? [];
    const made = this.made.get(traceId) ?? 0;
    this.made.set(traceId, made + 1);
    const id = made === 0 ? traceId : `${traceId}#${made + 1}`;
    const turn = traceId !== '' && traceId === this.lastTrace ? this.b.currentTurn() : this.b.newTurn();
    this.lastTrace = traceId;
    this.call(doc, path, action, id || undefined, turn);
    queue.push(id);
    this.pending.set(traceId, queue);
  }

  private call(doc: Doc, path: JsonPath, action: Action, id: string | undefined, turn: number): void {
    const argsRef = action.rebuilt ? spreadDoc(doc, [...path, ...action.argsPath], action.args) : undefined;
    this.b.call({ name: action.name, id, at: { doc, path }, namePath: [], argsPath: action.argsPath, args: action.args, argsAt: argsRef ? { doc: argsRef.doc, path: argsRef.path } : undefined, expect: 'object' }, turn);
  }

  private observation(doc: Doc, path: JsonPath, o: Obj): void {
    const out = OUTPUTS.find(([k]) => isPlainObject(o[k]));
    if (!out) {
      const final = isPlainObject(o.finalResponse) ? o.finalResponse : undefined;
      if (final) this.b.assistantText({ doc, path: [...path, 'finalResponse', 'text'] }, final.text);
      else this.b.breakTurn();
      return;
    }
    const [key, read] = out;
    const traceId = str(o.traceId) ?? '';
    const queue = this.pending.get(traceId);
    const callId = queue?.shift();
    if (queue && queue.length === 0) this.pending.delete(traceId);
    const member = o[key] as Obj;
    const { sub, isError } = read(member);
    const payloadPath = [key, ...sub];
    let payload: unknown = member;
    for (const s of sub) payload = (payload as Obj)[s as string];
    this.b.result({ at: { doc, path }, callId: callId ?? (traceId || undefined), payload, payloadPath, transport: isError ? { isError: true } : {} });
  }

  private returnControl(doc: Doc, path: JsonPath, rc: Obj): void {
    const inv = str(rc.invocationId) ?? '';
    const inputs = rc.invocationInputs as unknown[];
    const turn = this.b.newTurn();
    inputs.forEach((input, i) => {
      if (!isPlainObject(input)) return;
      const action = actionOf(input);
      if (action) this.call(doc, [...path, 'invocationInputs', i], action, `${inv}/${action.name}`, turn);
    });
  }

  private returned(doc: Doc, path: JsonPath, state: Obj, results: unknown[]): void {
    const inv = str(state.invocationId) ?? '';
    results.forEach((r, i) => {
      if (!isPlainObject(r)) return;
      const key = isPlainObject(r.functionResult) ? 'functionResult' : isPlainObject(r.apiResult) ? 'apiResult' : undefined;
      if (!key) return;
      const res = r[key] as Obj;
      const name = str(res.function) ?? str(res.apiPath);
      const status = typeof res.httpStatusCode === 'number' ? res.httpStatusCode : undefined;
      const isError = res.responseState === 'FAILURE' || (status !== undefined && status >= 400);
      this.b.result({
        at: { doc, path: [...path, 'returnControlInvocationResults', i, key] },
        callId: name !== undefined ? `${inv}/${name}` : undefined,
        payload: res.responseBody,
        payloadPath: ['responseBody'],
        transport: { ...(status !== undefined ? { httpStatus: status } : {}), ...(isError ? { isError: true } : {}) },
      });
    });
  }
}

export const bedrockAgent: FormatAdapter = {
  id: 'bedrock-agent',
  document: {
    claims(v) {
      if (Array.isArray(v)) return v.length > 0 && v.every(isPlainObject) && v.some(isEvent);
      return isEvent(v);
    },
    read(doc, emit) {
      const v = doc.value;
      singleSession((b) => {
        const r = new AgentTraceReader(b);
        if (Array.isArray(v)) v.forEach((e, i) => r.event(doc, [i], e));
        else r.event(doc, [], v);
      }, emit);
    },
  },
  lines: {
    claims: isEvent,
    // a chunk of the answer, or a trace of another step (a guardrail, a model invocation), belongs to the session
    accepts: (v) => isPlainObject(v) && (isPlainObject(v.chunk) || isPlainObject(v.trace)),
    open(sink) {
      const r = new AgentTraceReader(sink.builder);
      return { read: (doc) => r.event(doc, [], doc.value) };
    },
  },
};
