// Google Agent Development Kit (ADK): sessions and their events, and eval sets. Rules followed (adk-python
// src/google/adk/events/event.py, sessions/session.py, evaluation/eval_set.py, eval_case.py, eval_result.py):
// - An `Event` is an LlmResponse plus `author`, `invocation_id`, `actions`, `id`, `timestamp`; Python dumps write
//   snake_case, the API server (`adk web`, `/run`, `/run_sse`) camelCase. Its `content` is a Gemini `Content`: a
//   `function_call {id, name, args}` part is a call, a `function_response {id, name, response}` part its result
//   (ADK makes up `adk-…` ids when the model gives none, so both sides carry one); `response.error` is the error
//   channel (gemini.ts reads parts). An event with `partial: true` is a streamed piece of a later whole event: its
//   calls are read from that one. `long_running_tool_ids` name calls whose result comes later from outside (a
//   person approving, a job): one still unanswered is awaited, not lost (orphan-call says info).
// - A session is `{id, app_name|appName, user_id|userId, state, events}`; a list of events is what `/run`
//   answers; events one per line (or an SSE body of `/run_sse`) are read as lines of one session.
// - An eval set `{eval_set_id, eval_cases: [{eval_id, conversation: [Invocation]}]}` (`.evalset.json`; camelCase
//   from the web UI) holds one session per case; an `Invocation` is `user_content`, `intermediate_data` and
//   `final_response`. `intermediate_data` is either `{tool_uses: [FunctionCall], tool_responses:
//   [FunctionResponse], intermediate_responses}` or, in newer files, `{invocation_events: [{author, content}]}`.
//   An eval result (`eval_case_results[].eval_metric_result_per_invocation[]`) holds each invocation as the agent
//   ran it (`actual_invocation`, read) and as expected (`expected_invocation`, a reference, not read). The older
//   `.test.json` is a list of `{query, expected_tool_use: [{tool_name, tool_input}], reference}`.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import { SessionBuilder, type NodeRef } from './builder';
import { field, isContent, keyOf, readCallParts, readFunctionResponse, readResponseParts, wholeCall } from './gemini';
import { at, isPlainObject, str, type Obj } from './util';

function isEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.author === 'string' && typeof field(v, 'invocationId') === 'string'
    && (v.content === undefined || v.content === null || isContent(v.content));
}

function partsOfEvent(e: Obj): unknown[] {
  const c = e.content;
  if (!isPlainObject(c)) return [];
  const p = field(c, 'parts');
  return Array.isArray(p) ? p : [];
}

function hasToolParts(e: Obj): boolean {
  return partsOfEvent(e).some((p) => isPlainObject(p) && (keyOf(p, 'functionCall') !== undefined || keyOf(p, 'functionResponse') !== undefined));
}

function eventsOf(v: unknown): { key: string; events: unknown[] } | undefined {
  if (!isPlainObject(v) || !Array.isArray(v.events)) return undefined;
  const isSession = keyOf(v, 'appName') !== undefined || keyOf(v, 'userId') !== undefined || keyOf(v, 'lastUpdateTime') !== undefined;
  return isSession && v.events.some(isEvent) ? { key: 'events', events: v.events } : undefined;
}

function isEventList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isEvent);
}

function casesOf(v: unknown): unknown[] | undefined {
  if (!isPlainObject(v) || typeof field(v, 'evalSetId') !== 'string') return undefined;
  const cases = field(v, 'evalCases');
  return Array.isArray(cases) ? cases : undefined;
}

function caseResultsOf(v: unknown): unknown[] | undefined {
  if (!isPlainObject(v) || typeof field(v, 'evalSetResultId') !== 'string') return undefined;
  const r = field(v, 'evalCaseResults');
  return Array.isArray(r) ? r : undefined;
}

function isLegacyTest(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every((q) => isPlainObject(q) && typeof q.query === 'string' && Array.isArray(q.expected_tool_use));
}

/** One event: its calls are one turn, its responses results; user or text events end the turn. */
function readEvent(b: SessionBuilder, ref: NodeRef, e: Obj): void {
  if (e.partial === true) return;
  const c = e.content;
  if (!isPlainObject(c)) return;
  const key = keyOf(c, 'parts');
  const parts = key !== undefined ? c[key] : undefined;
  if (key === undefined || !Array.isArray(parts)) return;
  const path = [...ref.path, 'content', key];
  const calls = readCallParts(b, ref.doc, path, parts);
  // a long-running tool's result comes later, from outside (a person, a job): unanswered, it is awaited
  const waiting = field(e, 'longRunningToolIds');
  if (calls > 0 && Array.isArray(waiting) && waiting.length > 0) {
    for (const c of b.session.calls.slice(-calls)) if (c.id !== undefined && waiting.includes(c.id)) c.awaited = true;
  }
  const results = readResponseParts(b, ref.doc, path, parts);
  if (calls === 0 || results > 0) b.breakTurn();
}

function readEvents(b: SessionBuilder, ref: NodeRef, events: unknown[]): void {
  events.forEach((e, i) => { if (isEvent(e)) readEvent(b, at(ref, i), e); });
}

/** One invocation of an eval case (or of an eval result): the user's turn, the tool traffic, the final answer. */
function readInvocation(b: SessionBuilder, ref: NodeRef, inv: Obj): void {
  b.breakTurn();
  const dataKey = keyOf(inv, 'intermediateData');
  const data = dataKey !== undefined ? inv[dataKey] : undefined;
  if (dataKey !== undefined && isPlainObject(data)) {
    const dref = at(ref, dataKey);
    const eventsKey = keyOf(data, 'invocationEvents');
    const events = eventsKey !== undefined ? data[eventsKey] : undefined;
    if (eventsKey !== undefined && Array.isArray(events)) {
      events.forEach((e, i) => { if (isPlainObject(e)) readEvent(b, at(dref, eventsKey, i), e); });
    } else {
      const usesKey = keyOf(data, 'toolUses');
      const uses = usesKey !== undefined ? data[usesKey] : undefined;
      if (usesKey !== undefined && Array.isArray(uses) && uses.some(isPlainObject)) {
        const turn = b.newTurn();
        uses.forEach((u, i) => { if (isPlainObject(u)) wholeCall(b, ref.doc, [...dref.path, usesKey, i], '', u, turn); });
      }
      const respKey = keyOf(data, 'toolResponses');
      const responses = respKey !== undefined ? data[respKey] : undefined;
      if (respKey !== undefined && Array.isArray(responses)) {
        responses.forEach((r, i) => { if (isPlainObject(r)) readFunctionResponse(b, ref.doc, [...dref.path, respKey, i], '', r); });
      }
    }
  }
  const finalKey = keyOf(inv, 'finalResponse');
  const final = finalKey !== undefined ? inv[finalKey] : undefined;
  if (finalKey !== undefined && isPlainObject(final)) {
    const pk = keyOf(final, 'parts');
    if (pk !== undefined) b.assistantText(at(ref, finalKey, pk), final[pk]);
  }
}

function readCase(ref: NodeRef, c: unknown, emit: Parameters<typeof singleSession>[1]): void {
  if (!isPlainObject(c)) return;
  const convKey = keyOf(c, 'conversation');
  const conv = convKey !== undefined ? c[convKey] : undefined;
  if (convKey === undefined || !Array.isArray(conv)) return;
  singleSession((b) => {
    conv.forEach((inv, i) => { if (isPlainObject(inv)) readInvocation(b, at(ref, convKey, i), inv); });
  }, emit, str(field(c, 'evalId')));
}

function readCaseResult(ref: NodeRef, r: unknown, emit: Parameters<typeof singleSession>[1]): void {
  if (!isPlainObject(r)) return;
  const perKey = keyOf(r, 'evalMetricResultPerInvocation');
  const per = perKey !== undefined ? r[perKey] : undefined;
  if (perKey === undefined || !Array.isArray(per)) return;
  singleSession((b) => {
    per.forEach((p, i) => {
      if (!isPlainObject(p)) return;
      const k = keyOf(p, 'actualInvocation');
      if (k !== undefined && isPlainObject(p[k])) readInvocation(b, at(ref, perKey, i, k), p[k]);
    });
  }, emit, str(field(r, 'evalId')));
}

/** The older `.test.json`: each query a user turn, its expected tool uses one turn of calls. */
function readLegacyTest(b: SessionBuilder, ref: NodeRef, list: unknown[]): void {
  list.forEach((q, i) => {
    if (!isPlainObject(q) || !Array.isArray(q.expected_tool_use)) return;
    b.breakTurn();
    let turn: number | undefined;
    q.expected_tool_use.forEach((u, k) => {
      if (!isPlainObject(u) || typeof u.tool_name !== 'string') return;
      b.call({ name: u.tool_name, at: at(ref, i, 'expected_tool_use', k), namePath: ['tool_name'], argsPath: ['tool_input'], args: u.tool_input, expect: 'object' }, (turn ??= b.newTurn()));
    });
  });
}

export const googleAdk: FormatAdapter = {
  id: 'google-adk',
  document: {
    claims: (v) => eventsOf(v) !== undefined || isEventList(v) || casesOf(v) !== undefined || caseResultsOf(v) !== undefined || isLegacyTest(v),
    read(doc, emit) {
      const v = doc.value;
      const root: NodeRef = { doc, path: [] };
      const cases = casesOf(v);
      if (cases) { cases.forEach((c, i) => readCase(at(root, keyOf(v as Obj, 'evalCases') ?? 'eval_cases', i), c, emit)); return; }
      const results = caseResultsOf(v);
      if (results) { results.forEach((r, i) => readCaseResult(at(root, keyOf(v as Obj, 'evalCaseResults') ?? 'eval_case_results', i), r, emit)); return; }
      if (isLegacyTest(v)) { singleSession((b) => readLegacyTest(b, root, v), emit); return; }
      const session = eventsOf(v);
      if (session) { singleSession((b) => readEvents(b, at(root, session.key), session.events), emit, str((v as Obj).id)); return; }
      if (Array.isArray(v)) singleSession((b) => readEvents(b, root, v), emit);
    },
  },
  lines: {
    claims: (v) => isEvent(v) && hasToolParts(v),
    accepts: isEvent,
    open(sink: LineSink) {
      return { read(doc) { if (isEvent(doc.value)) readEvent(sink.builder, { doc, path: [] }, doc.value); } };
    },
  },
};
