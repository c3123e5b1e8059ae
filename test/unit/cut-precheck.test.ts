// The engine skips, without looking up its run, an open session too short for any cut (state.ts tooShortToCut):
// that must never skip a session cutOf would cut. Whatever the run, a session it calls too short gets no cut; one
// it lets through with a fresh run can be cut.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cutOf, newRun, SEGMENT_CALLS, tooShortToCut } from '../../src/core/state';
import type { Session } from '../../src/core/model';

/** `n` calls, one a turn, each answered by a result of its turn; then a call of a later turn (the open one). */
function session(n: number): Session {
  const calls = Array.from({ length: n + 1 }, (_, i) => ({ name: 't', args: {}, index: i, turn: i, id: `c${i}` }));
  const results = Array.from({ length: n }, (_, i) => ({ callId: `c${i}`, turn: i, payload: 'ok' }));
  return { calls, results, tools: [] } as unknown as Session;
}

describe('a session too short to cut', () => {
  for (const min of [undefined, 0, 1, 3]) {
    it(`agrees with cutOf (min ${min ?? 'default'})`, () => {
      let seen = false;
      for (let n = 0; n <= 6; n++) {
        const s = session(n);
        const run = newRun();
        if (tooShortToCut(s, min)) {
          assert.equal(cutOf(s, run, min), undefined, `${n + 1} calls: skipped, and cutOf has no cut either`);
          const later = { ...newRun(), calls: 1 };
          assert.equal(cutOf(s, later, min), undefined, 'nor with a run that took calls already');
        } else {
          seen = true;
          assert.ok(cutOf(s, run, min), `${n + 1} calls: let through, and cut`);
        }
      }
      if (min !== undefined) assert.ok(seen, 'some length is long enough');
    });
  }

  it('by default, below SEGMENT_CALLS + 1 calls', () => {
    assert.equal(tooShortToCut(session(SEGMENT_CALLS - 1)), true);
    assert.equal(tooShortToCut(session(SEGMENT_CALLS)), false);
  });
});
