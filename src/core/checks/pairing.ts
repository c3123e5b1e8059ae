// Pairing calls with results, per session: by id where the format has ids, by position where it has none.
// One home for it, computed once per session segment (on its SessionContext) and shared by the cross-call checks
// (and by fixtures and the decision table): which result answers which call, each call's fingerprint, each
// result's reading, whether a call is mutating and whether its result failed. A long session is checked in
// segments (src/core/state.ts): what later segments need of the earlier ones — the first call of each id, the
// positional cursor — is carried as a small `PairingState`; call indexes stay those of the whole session, result
// indexes are those of the segment (`ctx.session.results`).
import type { ToolContract } from '../contracts/types';
import { callFingerprint, callPrint, hash64 } from '../fingerprint';
import type { Span, ToolCall, ToolResult } from '../model';
import { spanOf, type Anchor } from '../parse/doc';
import { IdTable, SlotColumn } from '../id-table';

/** A fingerprint as a number: 32 bits of its hash64 (compared only between two calls that share an id: two
 *  different calls with one id taken for an echo of each other has odds of 2^-32). */
function printOf(fingerprint: string): number {
  return parseInt(hash64(fingerprint).slice(0, 8), 16);
}
import { bodyFailure, okExitCodesFor, readResultOnce, transportKind, type ResultReading } from '../results';
import type { SessionContext } from './check';
import { isMutating } from './mutation';

/** A call of an earlier segment, as much as later segments need of it. */
export interface CallFacts {
  name: string;
  turn: number;
  /** Where its name is (related information points there), as offsets: one object per id, no more. */
  start: number;
  end: number;
  /** A 32-bit hash of its fingerprint (an echo of it is the same call recorded twice). */
  print: number;
}

/** Past these, a call's facts do not fit the compact record: they are kept whole (a rare call, or a huge file). */
const NARROW = 0xffff;
const WORD = 0xffffffff;

/** The first call of each id of earlier segments, compact (a long session carries one per call, and a later call
 *  may reuse any of those ids: duplicate-call-id over the whole session): the id as a 64-bit hash, its facts in
 *  four 32-bit columns (16 bytes a call): the tool's name as a number and the name's length, 16 bits each; turn;
 *  start; print. */
export class CarriedCalls {
  private readonly ids = new IdTable();
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly nameAndLength = new SlotColumn();
  private readonly turns = new SlotColumn();
  private readonly starts = new SlotColumn();
  private readonly prints = new SlotColumn();
  /** Facts that do not fit the columns, whole, by slot. */
  private readonly wide = new Map<number, CallFacts>();

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  get(id: string): CallFacts | undefined {
    const slot = this.ids.get(id);
    if (slot < 0) return undefined;
    const wide = this.wide.get(slot);
    if (wide) return wide;
    const packed = this.nameAndLength.get(slot);
    const start = this.starts.get(slot);
    return { name: this.names[packed >>> 16], turn: this.turns.get(slot), start, end: start + (packed & NARROW), print: this.prints.get(slot) };
  }

  /** The facts of the first call with `id` (kept only when the id is new). */
  add(id: string, facts: () => CallFacts): void {
    const known = this.ids.size;
    const slot = this.ids.add(id);
    if (slot < known) return;
    const f = facts();
    let name = this.nameIds.get(f.name);
    if (name === undefined) {
      name = this.names.push(f.name) - 1;
      this.nameIds.set(f.name, name);
    }
    const length = f.end - f.start;
    if (name > NARROW || !(length >= 0 && length <= NARROW) || !(f.turn >= 0 && f.turn <= WORD) || !(f.start >= 0 && f.start <= WORD)) {
      this.wide.set(slot, f);
      return;
    }
    this.nameAndLength.set(slot, ((name << 16) | length) >>> 0);
    this.turns.set(slot, f.turn);
    this.starts.set(slot, f.start);
    this.prints.set(slot, f.print);
  }
}

/** What pairing carries from one segment of a session to the next. */
export interface PairingState {
  /** The first call of each id, in earlier segments (grown in place by each segment). */
  ids: CarriedCalls;
  /** How many calls the earlier segments held (the first call index of the next segment). */
  calls: number;
}

/** The first call with an id: a call of this segment, or the facts of one of an earlier segment. */
export type FirstCall = ToolCall | CallFacts;

/** Where related information about a first call points: its name in the source. */
export function nameOf(first: FirstCall): { at: Anchor } | { span: Span } {
  return 'nameAt' in first ? { at: first.nameAt } : { span: { start: first.start, end: first.end } };
}

export interface Pairing {
  /** The (first) result that answered a call of this segment. */
  resultOf(call: ToolCall): ToolResult | undefined;
  /** The index in the segment's results of that result (-1: none). */
  resultIndexOf(call: ToolCall): number;
  /** The call result `i` answers (undefined: an orphan result, or one answering a call of an earlier segment). */
  callOf(i: number): ToolCall | undefined;
  /** Result `i` answers a call of an earlier segment (its id was seen there). */
  answersEarlier(i: number): boolean;
  /** Some call of the session so far has this id. */
  knowsId(id: string): boolean;
  /** Calls whose id an earlier, different call already used. */
  readonly sharedIds: { first: FirstCall; call: ToolCall }[];
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

const NO_ECHOES: Set<ToolCall> = new Set();

/** Readings of small payloads are kept for the session's other checks; a big one is read again when asked, so the
 *  state between calls stays facts and short strings, never a second copy of large documents. */
const KEEP_READING = 4096;

function compact(r: ResultReading): boolean {
  return (r.parsed ?? 0) <= KEEP_READING;
}

/** The pairing of one session (segment); `SessionContext.pairing` makes it once, on first use. */
export class SessionPairing implements Pairing {
  private readonly results: (ToolResult | undefined)[];
  private readonly resultIndexes: number[];
  private readonly calls: (ToolCall | undefined)[];
  private readonly earlier: boolean[] = [];
  readonly sharedIds: { first: FirstCall; call: ToolCall }[] = [];
  readonly echoes: Set<ToolCall> = NO_ECHOES;
  /** This segment's calls by id; a list only when several calls share one. */
  private readonly byId = new Map<string, ToolCall | ToolCall[]>();
  /** The first call of each id in earlier segments. */
  private readonly carried?: CarriedCalls;
  /** Index of this segment's first call in the session. */
  private readonly base: number;
  // Filled lazily, indexed like the segment's calls / results.
  private fingerprints: (string | undefined)[] = [];
  private quick: (ResultReading | undefined)[] = [];
  private full: (ResultReading | undefined)[] = [];
  private failures: (boolean | undefined)[] = [];
  private contracts?: Map<string, ToolContract | undefined>;
  private mutates?: Map<string, boolean>;

  constructor(private readonly ctx: SessionContext, carried?: PairingState) {
    const { calls, results } = ctx.session;
    this.base = carried?.calls ?? 0;
    this.carried = carried?.ids;
    this.results = new Array<ToolResult | undefined>(calls.length).fill(undefined);
    this.resultIndexes = new Array<number>(calls.length).fill(-1);
    this.calls = new Array<ToolCall | undefined>(results.length).fill(undefined);
    this.pair();
  }

  resultOf(call: ToolCall): ToolResult | undefined {
    return this.results[call.index - this.base];
  }

  resultIndexOf(call: ToolCall): number {
    return this.resultIndexes[call.index - this.base] ?? -1;
  }

  callOf(i: number): ToolCall | undefined {
    return this.calls[i];
  }

  answersEarlier(i: number): boolean {
    return this.earlier[i] === true;
  }

  knowsId(id: string): boolean {
    return this.byId.has(id) || (this.carried?.has(id) ?? false);
  }

  /** The calls with an id, earliest first: the earlier segments' first one, then this segment's. */
  private withId(id: string): FirstCall | FirstCall[] | undefined {
    const local = this.byId.get(id);
    const old = this.carried?.get(id);
    if (!old) return local;
    return local === undefined ? old : [old, ...(Array.isArray(local) ? local : [local])];
  }

  private pair(): void {
    const { calls, results } = this.ctx.session;
    const byId = this.byId;
    for (const call of calls) {
      if (call.id === undefined || call.id === '') continue;
      const same = byId.get(call.id);
      const old = this.carried?.get(call.id);
      if (!same && !old) {
        byId.set(call.id, call);
        continue;
      }
      const first: FirstCall = old ?? (Array.isArray(same) ? same[0] : same!);
      // a call of an earlier segment is compared by the hash of its fingerprint
      if (first.name === call.name && ('nameAt' in first ? this.fingerprint(first) === this.fingerprint(call) : first.print === printOf(this.fingerprint(call)))) {
        if (this.echoes === NO_ECHOES) (this as { echoes: Set<ToolCall> }).echoes = new Set();
        this.echoes.add(call);
      }
      else this.sharedIds.push({ first, call });
      if (!same) byId.set(call.id, call);
      else if (Array.isArray(same)) same.push(call);
      else byId.set(call.id, [same, call]);
    }
    let next = 0; // the earliest call that may still be waiting for a positional result
    for (let i = 0; i < results.length; i++) {
      const r = results[i];
      let call: FirstCall | undefined;
      if (r.callId !== undefined && r.callId !== '') {
        const same = this.withId(r.callId);
        if (same) call = Array.isArray(same) ? this.pick(same, r) : same;
      } else if (r.callIndex !== undefined) {
        call = r.callIndex < this.base ? undefined : calls[r.callIndex - this.base];
        if (r.callIndex < this.base) this.earlier[i] = true;
      } else {
        while (next < calls.length && (this.resultIndexes[next] >= 0 || (calls[next].id !== undefined && calls[next].id !== ''))) next++;
        if (next < calls.length && calls[next].turn <= r.turn) call = calls[next];
      }
      if (!call) continue;
      if (!('nameAt' in call)) {
        this.earlier[i] = true;
        continue;
      }
      this.calls[i] = call;
      const k = call.index - this.base;
      if (this.resultIndexes[k] < 0) {
        this.resultIndexes[k] = i;
        this.results[k] = r;
      }
    }
    // An echo shares its original's result.
    for (const e of this.echoes) {
      const all = this.withId(e.id!);
      const orig = Array.isArray(all) ? all[0] : all!;
      const k = e.index - this.base;
      if (this.resultIndexes[k] < 0 && 'nameAt' in orig) {
        this.resultIndexes[k] = this.resultIndexes[orig.index - this.base];
        this.results[k] = this.results[orig.index - this.base];
      }
    }
  }

  /** Of several calls sharing an id: the first still unanswered one made before the result, else the latest
   *  made before it (calls of earlier segments were answered there). */
  private pick(same: FirstCall[], r: ToolResult): FirstCall {
    for (const c of same) if ('nameAt' in c && this.resultIndexes[c.index - this.base] < 0 && !this.echoes.has(c) && c.turn <= r.turn) return c;
    for (let k = same.length - 1; k >= 0; k--) if (same[k].turn <= r.turn) return same[k];
    return same[0];
  }

  /** What the next segment needs: the first call of every id (its facts, added to the earlier segments'), and
   *  where its calls start. */
  carry(): PairingState {
    const ids = this.carried ?? new CarriedCalls();
    for (const [id, same] of this.byId) {
      ids.add(id, () => {
        const first = Array.isArray(same) ? same[0] : same;
        const { start, end } = spanOf(first.nameAt);
        return { name: first.name, turn: first.turn, start, end, print: printOf(this.fingerprint(first)) };
      });
    }
    return { ids, calls: this.base + this.ctx.session.calls.length };
  }

  fingerprint(call: ToolCall): string {
    let fp = this.fingerprints[call.index - this.base];
    if (fp === undefined) {
      fp = call.encoding === 'input-wrapper' ? callFingerprint(call.name, this.args(call), call.argumentsRaw) : callPrint(call);
      this.fingerprints[call.index - this.base] = fp;
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
    const cache = (this.contracts ??= new Map<string, ToolContract | undefined>());
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
    const cache = (this.mutates ??= new Map<string, boolean>());
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
      const call = this.calls[i];
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
