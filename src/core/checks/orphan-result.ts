// A result whose call id matches no call. Pairing itself lives in pairing.ts.
import { transportKind } from '../results';
import type { ToolResult } from '../model';
import type { Check } from './check';

/** Results that matched no call yet kept for the end of the session (their call may come later), at most. */
export const MAX_UNMATCHED = 1_000;

export const orphanResult: Check = {
  code: 'orphan-result',
  severity: 'warning',
  title: 'A result that answers no call',
  description: 'A result whose call id matches no call in the session (or, where the format has no ids, a result with no unanswered call before it): spliced from another run, or its call was lost. Honest failures (`is_error: true`, span ERROR, a JSON-RPC error) are not reported.',
  example: { input: '{"role": "tool", "tool_call_id": "call_9", "content": "..."} with no call_9', message: 'result for call_9 matches no call in this session' },
  run(ctx) {
    const { results } = ctx.session;
    const state = ctx.state('orphan-result', () => ({ unmatched: [] as ToolResult[] }));
    if (results.length === 0 && state.unmatched.length === 0) return;
    const pairing = ctx.pairing;
    const report = (result: ToolResult) => {
      if (result.callElsewhere) return;
      const message = result.callId ? `result for ${result.callId} matches no call in this session` : 'result answers no call: no unanswered call precedes it';
      ctx.report({ code: 'orphan-result', message, at: result.at });
    };
    // results of earlier segments whose id no call had there: a later call may have it
    if (ctx.final) for (const r of state.unmatched) if (r.callId === undefined || !pairing.knowsId(r.callId)) report(r);
    results.forEach((result, i) => {
      if (pairing.callOf(i) || pairing.answersEarlier(i)) return;
      if (transportKind(pairing.reading(i)) === 'failure') return;
      if (!ctx.final && result.callId !== undefined && state.unmatched.length < MAX_UNMATCHED) state.unmatched.push(result);
      else report(result);
    });
  },
};
