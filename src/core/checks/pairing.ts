// Pairing calls with results, per session: by id where the format has ids, by position where it has none.
// One home for it, computed once per session and shared by the cross-call checks (and by fixtures and the
// decision table): which result answers which call, each call's fingerprint, each result's reading, whether a
// call is mutating and whether its result failed. Everything is cached in arrays indexed like the session.
import type { ToolContract } from '../contracts/types';
import { callFingerprint } from '../fingerprint';
import type { ToolCall, ToolResult } from '../model';
import { bodyFailure, okExitCodesFor, readResultOnce, transportKind, type ResultReading } from '../results';
import type { SessionContext } from './check';
import { isMutating } from './mutation';

export interface Pairing {
  /** The (first) result that answered each call, by call index. */
  readonly resultOf: (ToolResult | undefined)[];
  /** The index in session.results of that result, by call index (-1: none). */
  readonly resultIndexOf: number[];
  /** The call each result answers, by result index (undefined: an orphan result). */
  readonly callOf: (ToolCall | undefined)[];
  /** Calls whose id an earlier, different call already used. */
  readonly sharedIds: { first: ToolCall; call: ToolCall }[];
  /** Calls recorded twice: same id, same tool, same arguments as an earlier call (one call, not two). */
  readonly echoes: Set<ToolCall>;
  /** Tool + canonical effective arguments of a call. */
  fingerprint(call: ToolCall): string;
  /** The arguments the tool received (unwrapped from an `{"input": ...}` wrapper the contract does not declare). */
  args(call: ToolCall): unknown;
  /** The reading of result `i`, quick (strings holding JSON stay unparsed unless a telling key is in them). */
  reading(i: number): ResultReading;
  /** The full reading of result `i` (every string holding JSON parsed). */
  fullReading(i: number): ResultReading;
  /** The contract of a tool (workspace first). */
  contract(name: string): ToolContract | undefined;
  /** Does this call change the world (contract `mutates`, writer names, shell tools)? Cached per tool. */
  mutating(call: ToolCall): boolean;
  /** Did result `i` fail, by transport (honest failure) or body? A failed call changed nothing. */
  failed(i: number): boolean;
  /** Did result `i` ask for input before the call runs (MCP `input_required`)? Then the call has not run yet, and
   *  the same call again is its retry. */
  inputRequired(i: number): boolean;
}

// Sessions are checked one at a time (one SessionContext each): the pairing of the session being checked is all
// there is to keep, so no cache outlives it (a WeakMap per session costs the garbage collector more than pairing).
let last: { ctx: SessionContext; pairing: Pairing } | undefined;

/** The fingerprint of a call (tool + canonical effective arguments). */
export function fingerprintOf(ctx: SessionContext, call: ToolCall): string {
  return pairingOf(ctx).fingerprint(call);
}

const NO_ECHOES: Set<ToolCall> = new Set();

/** Readings of small payloads are kept for the session's other checks; a big one is read again when asked, so the
 *  state between calls stays facts and short strings, never a second copy of large documents. */
const KEEP_READING = 4096;

function compact(r: ResultReading): boolean {
  return (r.parsed ?? 0) <= KEEP_READING;
}

class SessionPairing implements Pairing {
  readonly resultOf: (ToolResult | undefined)[];
  readonly resultIndexOf: number[];
  readonly callOf: (ToolCall | undefined)[];
  readonly sharedIds: { first: ToolCall; call: ToolCall }[] = [];
  readonly echoes: Set<ToolCall> = NO_ECHOES;
  /** Calls by id; a list only when several calls share one. */
  private readonly byId = new Map<string, ToolCall | ToolCall[]>();
  // Filled lazily, indexed like session.calls / session.results.
  private fingerprints: (string | undefined)[] = [];
  private quick: (ResultReading | undefined)[] = [];
  private full: (ResultReading | undefined)[] = [];
  private failures: (boolean | undefined)[] = [];
  private contracts?: Map<string, ToolContract | undefined>;
  private mutates?: Map<string, boolean>;

  constructor(private readonly ctx: SessionContext) {
    const { calls, results } = ctx.session;
    this.resultOf = new Array(calls.length).fill(undefined);
    this.resultIndexOf = new Array<number>(calls.length).fill(-1);
    this.callOf = new Array(results.length).fill(undefined);
    this.pair();
  }

  private pair(): void {
    const { calls, results } = this.ctx.session;
    const byId = this.byId;
    for (const call of calls) {
      if (call.id === undefined || call.id === '') continue;
      const same = byId.get(call.id);
      if (!same) {
        byId.set(call.id, call);
        continue;
      }
      const first = Array.isArray(same) ? same[0] : same;
      if (first.name === call.name && this.fingerprint(first) === this.fingerprint(call)) {
        if (this.echoes === NO_ECHOES) (this as { echoes: Set<ToolCall> }).echoes = new Set();
        this.echoes.add(call);
      }
      else this.sharedIds.push({ first, call });
      if (Array.isArray(same)) same.push(call);
      else byId.set(call.id, [same, call]);
    }
    let next = 0; // the earliest call that may still be waiting for a positional result
    for (let i = 0; i < results.length; i++) {
      const r = results[i];
      let call: ToolCall | undefined;
      if (r.callId !== undefined && r.callId !== '') {
        const same = byId.get(r.callId);
        if (same) call = Array.isArray(same) ? this.pick(same, r) : same;
      } else if (r.callIndex !== undefined) {
        call = calls[r.callIndex];
      } else {
        while (next < calls.length && (this.resultIndexOf[next] >= 0 || (calls[next].id !== undefined && calls[next].id !== ''))) next++;
        if (next < calls.length && calls[next].turn <= r.turn) call = calls[next];
      }
      if (!call) continue;
      this.callOf[i] = call;
      if (this.resultIndexOf[call.index] < 0) {
        this.resultIndexOf[call.index] = i;
        this.resultOf[call.index] = r;
      }
    }
    // An echo shares its original's result.
    for (const e of this.echoes) {
      const orig = (byId.get(e.id!) as ToolCall[])[0];
      if (this.resultIndexOf[e.index] < 0) {
        this.resultIndexOf[e.index] = this.resultIndexOf[orig.index];
        this.resultOf[e.index] = this.resultOf[orig.index];
      }
    }
  }

  /** Of several calls sharing an id: the first still unanswered one made before the result, else the latest
   *  made before it. */
  private pick(same: ToolCall[], r: ToolResult): ToolCall {
    for (const c of same) if (this.resultIndexOf[c.index] < 0 && !this.echoes.has(c) && c.turn <= r.turn) return c;
    for (let k = same.length - 1; k >= 0; k--) if (same[k].turn <= r.turn) return same[k];
    return same[0];
  }

  fingerprint(call: ToolCall): string {
    let fp = this.fingerprints[call.index];
    if (fp === undefined) {
      fp = callFingerprint(call.name, this.args(call), call.argumentsRaw);
      this.fingerprints[call.index] = fp;
    }
    return fp;
  }

  args(call: ToolCall): unknown {
    return call.encoding === 'input-wrapper' ? this.ctx.effectiveArgs(call).args : call.args;
  }

  reading(i: number): ResultReading {
    const cached = this.quick[i] ?? this.full[i];
    if (cached) return cached;
    const r = readResultOnce(this.ctx.session.results[i], true);
    if (compact(r)) this.quick[i] = r;
    return r;
  }

  fullReading(i: number): ResultReading {
    let r = this.full[i];
    if (!r) {
      const quick = this.quick[i];
      r = quick && !quick.skipped ? quick : readResultOnce(this.ctx.session.results[i], false);
      if (compact(r)) this.full[i] = r;
    }
    return r;
  }

  contract(name: string): ToolContract | undefined {
    const cache = (this.contracts ??= new Map());
    if (cache.has(name)) return cache.get(name);
    let c = this.ctx.contractFor(name)?.contract;
    // A contract silent on effects takes them from the definition recorded in the trace (MCP annotations).
    if (c && c.mutates === undefined) {
      const emb = this.ctx.embeddedContract(name);
      if (emb !== c && emb?.mutates !== undefined) c = { ...c, mutates: emb.mutates, idempotent: emb.idempotent };
    }
    cache.set(name, c);
    return c;
  }

  mutating(call: ToolCall): boolean {
    const cache = (this.mutates ??= new Map());
    let m = cache.get(call.name);
    if (m === undefined) {
      m = isMutating(call, this.contract(call.name));
      cache.set(call.name, m);
    }
    return m;
  }

  failed(i: number): boolean {
    let fail = this.failures[i];
    if (fail === undefined) {
      const call = this.callOf[i];
      const reading = this.reading(i);
      const okExit = reading.transport.exitCode === undefined ? undefined : okExitCodesFor(call?.name, call && this.contract(call.name)?.okExitCodes);
      fail = transportKind(reading, okExit) === 'failure' || bodyFailure(reading) !== undefined;
      this.failures[i] = fail;
    }
    return fail;
  }

  inputRequired(i: number): boolean {
    return i >= 0 && this.reading(i).transport.inputRequired === true;
  }
}

export function pairingOf(ctx: SessionContext): Pairing {
  if (last?.ctx !== ctx) last = { ctx, pairing: new SessionPairing(ctx) };
  return last.pairing;
}

/** Let go of the last session's pairing once its checks are done, so a large session is not kept alive. */
export function forgetPairing(): void {
  last = undefined;
}
