// The same tool with the same canonical arguments again, with nothing changed in between: a stuck loop.
import { valueKey } from '../fingerprint';
import type { Check } from './check';
import { pairingOf } from './pairing';

interface Seen {
  /** Index of the first call of the current run of repeats, and of its latest one. */
  first: number;
  last: number;
  count: number;
  /** Effective mutations seen up to and including the last call with this fingerprint. */
  epoch: number;
}

// The maps are made per session, never reused: a cleared module-level map (in the old generation) keeps the
// entries of its old table reachable for young collections until the next full one, so every session's
// fingerprints were promoted.
/** Up to this many calls, "called again?" is a scan of the session's calls, cheaper than counting in a map. */
const SCAN = 16;

export const duplicateFingerprint: Check = {
  code: 'duplicate-fingerprint',
  severity: 'warning',
  title: 'The same call again, with nothing changed in between',
  description: 'Fingerprint = tool name + canonical arguments (keys sorted at every depth, numbers by value, strings exact). A call whose fingerprint was already called in this session, with no mutating call strictly between the two, is a repeat: the model already had that answer, so it is usually a stuck loop, not persistence. A failed result is not a change (a verbatim retry after an error, with no other call between, is the loop the seeds warn about; a retry after the agent did something else about the error, such as the Read an Edit\'s error asked for, is not a repeat), and a call never exempts its own repeat. Mutating: contract `mutates`, an MCP definition\'s `annotations` (`readOnlyHint: true` reads; `readOnlyHint: false`, or a `destructiveHint`/`idempotentHint`, writes), else the name rule; an `idempotentHint: true` tool called again the same way changes nothing more. The same call after a result that asked for input (MCP `resultType: "input_required"`) is its retry, not a repeat. Exempt: tools a contract marks `volatile` or the `contractGuard.volatileTools` setting lists (clocks, polls, random sources), and identical calls issued together in one turn (a fan-out chosen before any result was seen). The message says whether the results were identical too; related information points at the first call.',
  example: { input: 'search_repo {"q": "flaky test"} in turns 2, 3 and 4, no write in between', message: 'search_repo called 3× with the same arguments and nothing changed in between; same result each time' },
  run(ctx) {
    const calls = ctx.session.calls;
    if (calls.length < 2) return;
    const pairing = pairingOf(ctx);
    // A tool called once in the session cannot repeat: only the others are fingerprinted.
    const perName = calls.length > SCAN ? new Map<string, number>() : undefined;
    if (perName) for (const call of calls) perName.set(call.name, (perName.get(call.name) ?? 0) + 1);
    const seen = new Map<string, Seen>();
    const calledOnce = (call: (typeof calls)[number]): boolean => {
      if (perName) return perName.get(call.name)! < 2;
      for (const other of calls) if (other !== call && other.name === call.name) return false;
      return true;
    };
    let epoch = 0;
    for (const call of calls) {
      if (calledOnce(call) || pairing.echoes.has(call)) {
        if (pairing.mutating(call)) epoch += changed(call) ? 1 : 0;
        continue;
      }
      const fp = pairing.fingerprint(call);
      let entry = seen.get(fp);
      const prev = entry;
      // the same call after a result that asked for input (MCP input_required) is that call's retry, not a repeat
      // a retry after a failure, once the agent did something else in between (the Read an Edit's error asked for),
      // answers that error; a retry with nothing between is the stuck loop
      const actedOnFailure = prev !== undefined && call.index - prev.last > 1 && failedAt(prev.last);
      const repeat = prev !== undefined && prev.epoch === epoch && !actedOnFailure && !pairing.inputRequired(pairing.resultIndexOf[prev.last]);
      if (!repeat) {
        entry = { first: call.index, last: call.index, count: 1, epoch };
        seen.set(fp, entry);
      } else {
        prev.count++;
        prev.last = call.index;
        const first = calls[prev.first];
        if (!ctx.isVolatile(call.name) && call.turn !== first.turn) {
          ctx.report({
            code: 'duplicate-fingerprint',
            message: `${call.name} called ${prev.count}× with the same arguments and nothing changed in between; ${compareResults(prev.first, call.index)}`,
            at: call.nameAt,
            call,
            related: [{ at: first.nameAt, message: `first called here (turn ${first.turn})` }],
          });
        }
      }
      // an idempotent tool (MCP idempotentHint) called again the same way changes nothing more
      if (pairing.mutating(call) && changed(call) && !(repeat && pairing.contract(call.name)?.idempotent === true)) epoch++;
      entry!.epoch = epoch;
    }

    /** A mutating call changed something unless its result failed or asked for input first (no result: it may
     *  have). */
    function changed(call: (typeof calls)[number]): boolean {
      const r = pairing.resultIndexOf[call.index];
      return r < 0 || (!pairing.failed(r) && !pairing.inputRequired(r));
    }

    function failedAt(index: number): boolean {
      const r = pairing.resultIndexOf[index];
      return r >= 0 && pairing.failed(r);
    }

    function compareResults(a: number, b: number): string {
      const ra = pairing.resultIndexOf[a];
      const rb = pairing.resultIndexOf[b];
      if (ra < 0 || rb < 0) return 'no result to compare';
      const ba = pairing.reading(ra).body;
      const bb = pairing.reading(rb).body;
      const same = typeof ba === 'string' && typeof bb === 'string' ? ba === bb : valueKey(ba) === valueKey(bb);
      return same ? 'same result each time' : 'the results differed';
    }
  },
};
