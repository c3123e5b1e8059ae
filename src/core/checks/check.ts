// What a check is: stable metadata (code, default severity, documentation, the decision-table gate it answers) and
// a function over one session. The SessionContext is the one view of a checked session: the checks, the decision
// table, the census, freeze and compare all read a session through the context the engine built for it.
import type { ContractSet, ToolContract } from '../contracts/types';
import type { PackContracts } from '../contracts/packs';
import type { Profile } from '../contracts/compile';
import type { ArgumentsEncoding, Session, Severity, Span, ToolCall } from '../model';
import { joinPath, type Anchor, type Doc, type JsonPath } from '../parse/doc';
import { SessionPairing, type Pairing, type PairingState } from './pairing';
import { validateArguments, type SchemaFault } from './validation';

/** The decision table's columns: the question a person asks before trusting a call (DESIGN.md's table). */
export type GateId = 'envelope' | 'keys' | 'args' | 'bytes' | 'replay';

export interface CodeInfo {
  code: string;
  severity: Severity;
  /** One line: what the code means. */
  title: string;
  /** A paragraph for the README, SARIF help and hovers. */
  description: string;
  /** A small example of a call that triggers it, and the message it gets. */
  example?: { input: string; message: string };
}

export interface PendingFinding {
  code: string;
  message: string;
  at: Anchor;
  call?: ToolCall;
  /** Related places: an anchor, or the span of a place whose source an earlier segment of the session held. */
  related?: ({ at: Anchor; message: string } | { span: Span; message: string })[];
  /** Overrides the code's default severity (e.g. an orphan call at the very end of a trace is info). */
  severity?: Severity;
}

export interface ResolvedContract {
  contract: ToolContract;
  /** 'workspace' contracts win over definitions embedded in the trace, which win over built-in packs. */
  source: 'workspace' | 'embedded' | 'pack';
}

/** The arguments a check should look at: unwrapped, with where they live in the source. */
export interface EffectiveArgs {
  encoding: ArgumentsEncoding;
  args?: unknown;
  doc?: Doc;
  path: JsonPath;
}

/** What a session checked in segments carries from one segment to the next (src/core/state.ts): pairing's facts
 *  and each cross-call check's own state, by code. Plain data (Maps and Sets allowed: structured-clone safe). */
export interface SessionState {
  pairing?: PairingState;
  checks: Record<string, unknown>;
}

/** The part of a session a context holds, when the session is checked in segments. */
export interface Segment {
  /** Carried from the earlier segments, and updated by this one's checks. */
  state: SessionState;
  /** The session is complete: end-of-session rules apply (orphan calls, results that matched no call). */
  final: boolean;
  /** A cap on carried state was hit: one line saying which (the engine reports each once). */
  limit(message: string): void;
}

// Checks ask contractFor several times per call: a workspace or pack contract resolves to one object per contract,
// not one per question; the trace's definitions resolve to objects made with the session's context.
const fromWorkspace = new WeakMap<ToolContract, ResolvedContract>();
const fromPack = new WeakMap<ToolContract, ResolvedContract>();

function resolved(cache: WeakMap<ToolContract, ResolvedContract>, contract: ToolContract, source: ResolvedContract['source']): ResolvedContract {
  let r = cache.get(contract);
  if (!r) cache.set(contract, (r = { contract, source }));
  return r;
}

export class SessionContext {
  private readonly embedded = new Map<string, ResolvedContract>();
  /** Schema faults by the call's place in `session.calls` (four checks ask for each call's: an array beats a Map
   *  keyed by object), and of calls from elsewhere by the call. */
  private readonly faults: (SchemaFault[] | undefined)[] = [];
  private faultsElsewhere?: Map<ToolCall, SchemaFault[]>;
  /** Tools called with free-form command lines, when a pack treats such lines as shell commands (made only then:
   *  a JSONL of conversations builds a context per line). */
  private readonly commands?: Set<string>;
  readonly closed: boolean;
  private paired?: Pairing;

  constructor(
    readonly session: Session,
    readonly format: string,
    readonly contracts: ContractSet,
    readonly profile: Profile,
    readonly report: (f: PendingFinding) => void,
    /** Tools whose repeats are expected whatever their contract says (the `volatileTools` setting). */
    readonly volatileTools: ReadonlySet<string> = new Set(),
    /** Built-in packs that apply to this session's format (partial: they never make the session closed). */
    readonly packs?: PackContracts,
    /** When the session is checked in segments: this one's place (absent: the whole session is here). */
    readonly segment?: Segment,
  ) {
    if (packs?.command) for (const c of session.calls) if (c.encoding === 'freeform') (this.commands ??= new Set()).add(c.name);
    for (const t of session.tools) {
      if (this.embedded.has(t.name)) continue;
      const b = t.behaviour;
      // one shape whether or not the definition says its effects (the checks read these objects for every call)
      const contract: ToolContract = { name: t.name, arguments: t.inputSchema, result: t.resultSchema, mutates: b?.mutates, idempotent: b?.idempotent };
      this.embedded.set(t.name, { contract, source: 'embedded' });
    }
    this.closed = contracts.closed || session.tools.length > 0;
  }

  /** Calls paired with their results, made once per session (segment) on first use and shared by every reader. */
  get pairing(): Pairing {
    return (this.paired ??= new SessionPairing(this, this.segment?.state.pairing));
  }

  /** The whole session is here (not a segment): a check may use what the whole session shows at once. */
  get whole(): boolean {
    return this.segment === undefined;
  }

  /** No segment follows: end-of-session rules apply. */
  get final(): boolean {
    return this.segment === undefined || this.segment.final;
  }

  /** A check's state across the segments of this session (made by `init` for the first one). */
  state<S>(code: string, init: () => S): S {
    if (!this.segment) return init();
    const checks = this.segment.state.checks;
    return (checks[code] ??= init()) as S;
  }

  /** A cap on what a check carries between segments was hit (see Segment.limit). */
  limit(message: string): void {
    this.segment?.limit(message);
  }

  /** After the checks of a segment ran: what pairing carries to the next one. */
  carry(): void {
    if (this.segment && !this.segment.final) this.segment.state.pairing = (this.pairing as SessionPairing).carry();
  }

  contractFor(name: string): ResolvedContract | undefined {
    const ws = this.contracts.tools.get(name);
    if (ws) return resolved(fromWorkspace, ws, 'workspace');
    const emb = this.embedded.get(name);
    if (emb) return emb;
    const pack = this.packs?.tools.get(name) ?? (this.commands?.has(name) ? this.packs?.command : undefined);
    return pack ? resolved(fromPack, pack, 'pack') : undefined;
  }

  /** The definition recorded in the trace for this tool, if any (whatever workspace contract wins over it). */
  embeddedContract(name: string): ToolContract | undefined {
    return this.embedded.get(name)?.contract;
  }

  /** Repeats of this tool are expected: its contract says `volatile`, or the settings list it. */
  isVolatile(name: string): boolean {
    return this.volatileTools.has(name) || this.contractFor(name)?.contract.volatile === true;
  }

  effectiveArgs(call: ToolCall): EffectiveArgs {
    // `{"input": ...}` is a wrapper only when the contract does not itself declare an `input` argument.
    const schema = call.encoding === 'input-wrapper' ? (this.contractFor(call.name)?.contract.arguments as { properties?: Record<string, unknown> } | undefined) : undefined;
    if (typeof schema?.properties === 'object' && schema.properties !== null && 'input' in schema.properties) {
      let outer: unknown = call.argsAt.doc.value;
      for (const seg of call.argsAt.path) outer = (outer as Record<string | number, unknown>)[seg];
      return { encoding: 'object', args: outer, doc: call.argsAt.doc, path: call.argsAt.path };
    }
    return { encoding: call.encoding, args: call.args, doc: call.argsDoc, path: call.argsPath ?? [] };
  }

  /** The schema faults of a call's arguments, computed once and shared by the checks that report them. */
  schemaFaults(call: ToolCall): SchemaFault[] {
    const calls = this.session.calls;
    const k = calls.length > 0 ? call.index - calls[0].index : -1;
    const mine = k >= 0 && calls[k] === call;
    let f = mine ? this.faults[k] : this.faultsElsewhere?.get(call);
    if (!f) {
      const resolved = this.contractFor(call.name);
      const eff = this.effectiveArgs(call);
      // Arguments that are not an object already have their one finding (arguments-encoding).
      // Free-form input (a custom tool's patch text, a text action's command line) is not JSON by design.
      const checkable = eff.args !== undefined && eff.encoding !== 'non-object' && eff.encoding !== 'invalid' && eff.encoding !== 'freeform';
      // number lexemes come from where the arguments live, or from the assembled text of stream fragments
      const lexemes = eff.doc ? { doc: eff.doc, path: eff.path } : call.argsLexemes;
      f = resolved?.contract.arguments === undefined || !checkable
        ? []
        : validateArguments(resolved.contract.arguments, eff.args, this.profile, lexemes?.doc, lexemes?.path ?? []);
      if (mine) this.faults[k] = f;
      else (this.faultsElsewhere ??= new Map()).set(call, f);
    }
    return f;
  }

  /** Where a path inside a call's (effective) arguments is in the source. */
  argAnchor(call: ToolCall, path: JsonPath, part?: 'key'): Anchor {
    const eff = this.effectiveArgs(call);
    if (!eff.doc) return call.argsAt;
    return { doc: eff.doc, path: joinPath(eff.path, path), part };
  }
}

export interface Check extends CodeInfo {
  /** The decision-table gate a finding of this code fails (none: shown on the row, outside the gates). */
  gate?: GateId;
  run(ctx: SessionContext): void;
}

/** A check that reports schema faults of one kind. */
export function schemaFaultCheck(info: CodeInfo & { gate?: GateId }, describe: (call: ToolCall, fault: SchemaFault) => string): Check {
  return {
    ...info,
    run(ctx) {
      for (const call of ctx.session.calls) {
        for (const fault of ctx.schemaFaults(call)) {
          if (fault.code !== info.code) continue;
          const at = fault.code === 'missing-key' && fault.path.length === 0 ? call.argsAt : ctx.argAnchor(call, fault.path, fault.onKey ? 'key' : undefined);
          ctx.report({ code: info.code, message: describe(call, fault), at, call });
        }
      }
    },
  };
}
