// A result whose call id matches no call. Pairing itself lives in pairing.ts.
import { transportKind } from '../results';
import type { Check } from './check';
import { pairingOf } from './pairing';

export const orphanResult: Check = {
  code: 'orphan-result',
  severity: 'warning',
  title: 'A result that answers no call',
  description: 'A result whose call id matches no call in the session (or, where the format has no ids, a result with no unanswered call before it): spliced from another run, or its call was lost. Honest failures (`is_error: true`, span ERROR, a JSON-RPC error) are not reported.',
  example: { input: '{"role": "tool", "tool_call_id": "call_9", "content": "..."} with no call_9', message: 'result for call_9 matches no call in this session' },
  run(ctx) {
    const { results } = ctx.session;
    if (results.length === 0) return;
    const pairing = pairingOf(ctx);
    results.forEach((result, i) => {
      if (pairing.callOf[i]) return;
      if (transportKind(pairing.reading(i)) === 'failure') return;
      const message = result.callId ? `result for ${result.callId} matches no call in this session` : 'result answers no call: no unanswered call precedes it';
      ctx.report({ code: 'orphan-result', message, at: result.at });
    });
  },
};
