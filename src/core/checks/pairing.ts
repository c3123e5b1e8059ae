// Pairing calls with results, per session: by id where the format has ids, by position where it has none.
// One home for it, computed once per session and shared by the orphan, duplicate and digest checks (and by the
// decision table later).
import type { Session, ToolCall, ToolResult } from '../model';
import { callFingerprint } from '../fingerprint';
import type { SessionContext } from './check';

export interface Pairing {
  /** The (first) result that answered each call, by call index. */
  resultOf: (ToolResult | undefined)[];
  /** The call each result answers, by result index (undefined: an orphan result). */
  callOf: (ToolCall | undefined)[];
  /** Calls whose id an earlier, different call already used. */
  sharedIds: { first: ToolCall; call: ToolCall }[];
  /** Calls recorded twice: same id, same tool, same arguments as an earlier call (one call, not two). */
  echoes: Set<ToolCall>;
}

const pairings = new WeakMap<Session, Pairing>();
const fingerprints = new WeakMap<ToolCall, string>();

/** The fingerprint of a call (tool + canonical effective arguments), computed once. */
export function fingerprintOf(ctx: SessionContext, call: ToolCall): string {
  let fp = fingerprints.get(call);
  if (fp === undefined) {
    const eff = ctx.effectiveArgs(call);
    fp = callFingerprint(call.name, eff.args, call.argumentsRaw);
    fingerprints.set(call, fp);
  }
  return fp;
}

export function pairingOf(ctx: SessionContext): Pairing {
  const session = ctx.session;
  let p = pairings.get(session);
  if (p) return p;
  const calls = session.calls;
  p = { resultOf: new Array(calls.length), callOf: new Array(session.results.length), sharedIds: [], echoes: new Set() };
  const byId = new Map<string, ToolCall[]>();
  for (const call of calls) {
    if (call.id === undefined || call.id === '') continue;
    const same = byId.get(call.id);
    if (!same) {
      byId.set(call.id, [call]);
      continue;
    }
    const first = same[0];
    if (first.name === call.name && fingerprintOf(ctx, first) === fingerprintOf(ctx, call)) p.echoes.add(call);
    else p.sharedIds.push({ first, call });
    same.push(call);
  }
  let next = 0; // the earliest call that may still be waiting for a positional result
  session.results.forEach((r, i) => {
    let call: ToolCall | undefined;
    if (r.callId !== undefined && r.callId !== '') {
      const same = byId.get(r.callId);
      if (same) {
        call = same.find((c) => !p!.resultOf[c.index] && !p!.echoes.has(c) && c.turn <= r.turn)
          ?? [...same].reverse().find((c) => c.turn <= r.turn)
          ?? same[0];
      }
    } else if (r.callIndex !== undefined) {
      call = calls[r.callIndex];
    } else {
      while (next < calls.length && (p!.resultOf[next] || (calls[next].id !== undefined && calls[next].id !== ''))) next++;
      if (next < calls.length && calls[next].turn <= r.turn) call = calls[next];
    }
    if (!call) return;
    p!.callOf[i] = call;
    if (!p!.resultOf[call.index]) p!.resultOf[call.index] = r;
  });
  // An echo shares its original's result.
  for (const e of p.echoes) {
    const orig = byId.get(e.id!)![0];
    if (!p.resultOf[e.index]) p.resultOf[e.index] = p.resultOf[orig.index];
  }
  pairings.set(session, p);
  return p;
}
