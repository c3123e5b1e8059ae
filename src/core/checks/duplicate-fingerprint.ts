// The same tool with the same canonical arguments again, with nothing changed in between: a stuck loop.
// Checked in order of calls; what a later segment of a long session needs (the repeats still possible: only
// fingerprints seen since the last change, as fixed-size hashes) is this check's state (src/core/state.ts).
import { hash64, valueKey } from '../fingerprint';
import type { Span, ToolCall } from '../model';
import type { Anchor } from '../parse/doc';
import { spanOf } from '../parse/doc';
import type { Check } from './check';

interface Seen {
  /** Index of the first call of the current run of repeats, and of its latest one. */
  first: number;
  last: number;
  count: number;
  /** Effective mutations seen up to and including the last call with this fingerprint. */
  epoch: number;
  /** The first call's turn, and where its name is: an anchor while its segment is checked, then a span. */
  firstTurn: number;
  firstAt?: Anchor;
  firstSpan?: Span;
  /** Facts of results of an earlier segment: the first call's result body (hashed; null: no result), and
   *  whether the latest call's result failed or asked for input. */
  firstBody?: string | null;
  lastFailed?: boolean;
  lastInputRequired?: boolean;
}

interface State {
  seen: Map<string, Seen>;
  epoch: number;
}

/** Fingerprints kept across segments at most (only those seen since the last change are kept at all). */
export const MAX_FINGERPRINTS = 200_000;

// The maps are made per session, never reused: a cleared module-level map (in the old generation) keeps the
// entries of its old table reachable for young collections until the next full one, so every session's
// fingerprints were promoted.
/** Up to this many calls, "called again?" is a scan of the session's calls, cheaper than counting in a map. */
const SCAN = 16;

/** A result body as a comparable key: strings as they are, other values canonical. */
function bodyKey(body: unknown): string {
  return typeof body === 'string' ? 's' + body : 'v' + valueKey(body);
}

export const duplicateFingerprint: Check = {
  code: 'duplicate-fingerprint',
  severity: 'warning',
  gate: 'args',
  title: 'The same call again, with nothing changed in between',
  description: 'Fingerprint = tool name + canonical arguments (keys sorted at every depth, numbers by value, strings exact). A call whose fingerprint was already called in this session, with no mutating call strictly between the two, is a repeat: the model already had that answer, so it is usually a stuck loop, not persistence. A failed result is not a change (a verbatim retry after an error, with no other call between, is the loop the seeds warn about; a retry after the agent did something else about the error, such as the Read an Edit\'s error asked for, is not a repeat), and a call never exempts its own repeat. Mutating: contract `mutates`, an MCP definition\'s `annotations` (`readOnlyHint: true` reads; `readOnlyHint: false`, or a `destructiveHint`/`idempotentHint`, writes), else the name rule; an `idempotentHint: true` tool called again the same way changes nothing more. The same call after a result that asked for input (MCP `resultType: "input_required"`) is its retry, not a repeat. Exempt: tools a contract marks `volatile` or the `contractGuard.volatileTools` setting lists (clocks, polls, random sources), and identical calls issued together in one turn (a fan-out chosen before any result was seen). The message says whether the results were identical too; related information points at the first call.',
  example: { input: 'search_repo {"q": "flaky test"} in turns 2, 3 and 4, no write in between', message: 'search_repo called 3× with the same arguments and nothing changed in between; same result each time' },
  run(ctx) {
    const calls = ctx.session.calls;
    const state = ctx.state<State>('duplicate-fingerprint', () => ({ seen: new Map(), epoch: 0 }));
    if (ctx.whole && calls.length < 2) return;
    const pairing = ctx.pairing;
    // A tool called once in the whole session cannot repeat: only the others are fingerprinted (a segment of a
    // long session cannot know that, so it fingerprints every call).
    const perName = ctx.whole && calls.length > SCAN ? new Map<string, number>() : undefined;
    if (perName) for (const call of calls) perName.set(call.name, (perName.get(call.name) ?? 0) + 1);
    const seen = state.seen;
    const base = calls.length ? calls[0].index : 0;
    const key = ctx.whole ? (fp: string) => fp : hash64;
    const touched: Seen[] = [];
    const calledOnce = (call: ToolCall): boolean => {
      if (!ctx.whole) return false;
      if (perName) return perName.get(call.name)! < 2;
      for (const other of calls) if (other !== call && other.name === call.name) return false;
      return true;
    };
    let epoch = state.epoch;
    for (const call of calls) {
      if (calledOnce(call) || pairing.echoes.has(call)) {
        if (pairing.mutating(call)) epoch += changed(call) ? 1 : 0;
        continue;
      }
      const fp = key(pairing.fingerprint(call));
      let entry = seen.get(fp);
      const prev = entry;
      // the same call after a result that asked for input (MCP input_required) is that call's retry, not a repeat
      // a retry after a failure, once the agent did something else in between (the Read an Edit's error asked for),
      // answers that error; a retry with nothing between is the stuck loop
      const actedOnFailure = prev !== undefined && call.index - prev.last > 1 && lastFailed(prev);
      const repeat = prev !== undefined && prev.epoch === epoch && !actedOnFailure && !lastInputRequired(prev);
      if (!repeat) {
        entry = { first: call.index, last: call.index, count: 1, epoch, firstTurn: call.turn, firstAt: call.nameAt };
        seen.set(fp, entry);
      } else {
        prev.count++;
        prev.last = call.index;
        prev.lastFailed = prev.lastInputRequired = undefined;
        if (!ctx.isVolatile(call.name) && call.turn !== prev.firstTurn) {
          ctx.report({
            code: 'duplicate-fingerprint',
            message: `${call.name} called ${prev.count}× with the same arguments and nothing changed in between; ${compareResults(prev, call)}`,
            at: call.nameAt,
            call,
            related: [prev.firstAt ? { at: prev.firstAt, message: `first called here (turn ${prev.firstTurn})` } : { span: prev.firstSpan!, message: `first called here (turn ${prev.firstTurn})` }],
          });
        }
      }
      touched.push(entry!);
      // an idempotent tool (MCP idempotentHint) called again the same way changes nothing more
      if (pairing.mutating(call) && changed(call) && !(repeat && pairing.contract(call.name)?.idempotent === true)) epoch++;
      entry!.epoch = epoch;
    }
    state.epoch = epoch;
    if (!ctx.final) carry();

    /** A mutating call changed something unless its result failed or asked for input first (no result: it may
     *  have). */
    function changed(call: ToolCall): boolean {
      const r = pairing.resultIndexOf(call);
      return r < 0 || (!pairing.failed(r) && !pairing.inputRequired(r));
    }

    function inSegment(index: number): ToolCall | undefined {
      return index >= base && index - base < calls.length ? calls[index - base] : undefined;
    }

    function lastFailed(prev: Seen): boolean {
      const call = inSegment(prev.last);
      if (!call) return prev.lastFailed === true;
      const r = pairing.resultIndexOf(call);
      return r >= 0 && pairing.failed(r);
    }

    function lastInputRequired(prev: Seen): boolean {
      const call = inSegment(prev.last);
      return call ? pairing.inputRequired(pairing.resultIndexOf(call)) : prev.lastInputRequired === true;
    }

    function resultBody(call: ToolCall): string | null {
      const r = pairing.resultIndexOf(call);
      return r < 0 ? null : bodyKey(pairing.reading(r).body);
    }

    function compareResults(prev: Seen, call: ToolCall): string {
      const first = inSegment(prev.first);
      const a = first ? resultBody(first) : prev.firstBody ?? null;
      const rb = pairing.resultIndexOf(call);
      if (a === null || rb < 0) return 'no result to compare';
      const b = bodyKey(pairing.reading(rb).body);
      return (first ? a === b : a === hash64(b)) ? 'same result each time' : 'the results differed';
    }

    /** The end of a segment: keep only fingerprints that can still repeat (seen since the last change), as facts. */
    function carry(): void {
      for (const e of touched) {
        const first = inSegment(e.first);
        if (first && e.firstAt) {
          e.firstSpan = spanOf(e.firstAt);
          e.firstAt = undefined;
          const body = resultBody(first);
          e.firstBody = body === null ? null : hash64(body);
        }
        const last = inSegment(e.last);
        if (last) {
          e.lastFailed = lastFailed(e);
          e.lastInputRequired = lastInputRequired(e);
        }
      }
      for (const [fp, e] of seen) if (e.epoch < epoch) seen.delete(fp);
      if (seen.size > MAX_FINGERPRINTS) {
        ctx.limit(`duplicate-fingerprint: more than ${MAX_FINGERPRINTS} distinct calls since the last change; the oldest are forgotten`);
        for (const fp of seen.keys()) {
          if (seen.size <= MAX_FINGERPRINTS) break;
          seen.delete(fp);
        }
      }
    }
  },
};
