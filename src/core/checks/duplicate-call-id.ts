// Two different calls with one id: the pairing of results becomes ambiguous. Pairing lives in pairing.ts.
import type { Check } from './check';
import { nameOf } from './pairing';

export const duplicateCallId: Check = {
  code: 'duplicate-call-id',
  severity: 'warning',
  gate: 'envelope',
  title: 'Two different calls share an id',
  description: 'Call ids pair calls with their results; two different calls (another tool, or other arguments) with the same id make that pairing ambiguous, so a result may be credited to the wrong call. The same call recorded twice (same id, tool and arguments) is one call, not a duplicate. Related information points at the first call with that id.',
  example: { input: 'get_weather call_1 {"city": "Oslo"} in turn 1, get_hours call_1 {...} in turn 3', message: 'call_1 is already the id of get_weather (turn 1); get_hours reuses it' },
  run(ctx) {
    for (const { first, call } of ctx.pairing.sharedIds) {
      ctx.report({
        code: 'duplicate-call-id',
        message: `${call.id} is already the id of ${first.name} (turn ${first.turn}); ${call.name}${call.name === first.name ? ' with other arguments' : ''} reuses it`,
        at: call.nameAt,
        call,
        related: [{ ...nameOf(first), message: `${call.id} first used here` }],
      });
    }
  },
};
