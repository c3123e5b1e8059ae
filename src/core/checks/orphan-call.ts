// A call no result answers. Pairing itself lives in pairing.ts.
import type { ToolCall } from '../model';
import type { Check } from './check';

/** Calls still unanswered at the end of a segment that are kept for the end of the session, at most. */
export const MAX_WAITING = 10_000;

export const orphanCall: Check = {
  code: 'orphan-call',
  severity: 'warning',
  gate: 'envelope',
  title: 'A call with no result',
  description: 'Calls and results are paired per session, by id (or by position where the format has no ids). A call no result answers, while the session went on, is a warning: whatever the model said next was not based on that call. A call of the last turn, still awaiting its result when the trace ends (nothing but results after it), is only info, and so is a call the format says is answered from outside the trace later (an ADK long-running tool). Sessions that record no results at all (a log of calls, a single response) are not checked, nor sessions read by their shape (`read-by-shape`), whose pairing is only what the file states. An error result (`is_error: true`, a span with status ERROR, a JSON-RPC error) is a result: the call is answered.',
  example: { input: 'get_weather (call_2) in turn 2, no tool message with tool_call_id call_2, the session goes on', message: 'get_weather (call_2) got no result; the session went on without it' },
  run(ctx) {
    const { calls, results, turns, continuedAfterCalls } = ctx.session;
    if (ctx.session.linksStated) return;
    // calls of earlier segments still unanswered there; answered later by id, or orphans at the end
    const state = ctx.state('orphan-call', () => ({ results: false, waiting: [] as ToolCall[], dropped: 0 }));
    state.results ||= results.length > 0;
    const pairing = ctx.pairing;
    if (state.waiting.length && results.length) {
      const answered = new Set(results.map((r) => r.callId).filter((id) => id !== undefined));
      state.waiting = state.waiting.filter((c) => c.id === undefined || !answered.has(c.id));
    }
    if (!ctx.final) {
      for (const call of calls) if (!pairing.resultOf(call)) state.waiting.push(call);
      if (state.waiting.length > MAX_WAITING) state.dropped += state.waiting.splice(0, state.waiting.length - MAX_WAITING).length;
      return;
    }
    // no results recorded, or only the links a file states (the shape reader): an unanswered call proves nothing
    if (!state.results) return;
    // said only where it mattered: the session did record results, so the calls forgotten may have been orphans
    if (state.dropped) ctx.limit(`orphan-call: more than ${MAX_WAITING} calls without a result were kept; ${state.dropped} older ones were not checked`);
    // the waiting calls, then this segment's (no joined copy of the calls per session)
    for (let k = 0; k < state.waiting.length + calls.length; k++) {
      const call = k < state.waiting.length ? state.waiting[k] : calls[k - state.waiting.length];
      if (pairing.resultOf(call)) continue;
      const id = call.id ? ` (${call.id})` : '';
      if (call.awaited) {
        ctx.report({ code: 'orphan-call', message: `${call.name}${id} is awaiting its result from outside the trace (a long-running tool)`, at: call.nameAt, call, severity: 'info' });
      } else if (call.turn >= turns && !continuedAfterCalls) {
        ctx.report({ code: 'orphan-call', message: `${call.name}${id} is still awaiting its result: the trace ends here`, at: call.nameAt, call, severity: 'info' });
      } else {
        ctx.report({ code: 'orphan-call', message: `${call.name}${id} got no result; the session went on without it`, at: call.nameAt, call });
      }
    }
  },
};
