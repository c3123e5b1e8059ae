// The engine: text (or a stream of lines) -> Docs -> format adapters -> sessions -> checks -> findings.
// Sessions are checked as soon as they are complete and then dropped, so a JSONL of whole conversations is
// checked in constant memory; findings get their spans while their source is still at hand.
import { CHECKS, CODES, SessionContext, type PendingFinding } from './checks';
import { forgetPairing } from './checks/pairing';
import type { Profile } from './contracts/compile';
import { packContracts, type PackSelection } from './contracts/packs';
import { emptyContracts, type ContractSet } from './contracts/types';
import { ADAPTERS, type FormatAdapter, type LineState } from './formats';
import { SessionBuilder } from './formats/builder';
import { findingFingerprint } from './baseline';
import { DEFAULT_MAX_VALUE_LENGTH, redactMessage } from './redact';
import type { Finding, Session, Severity } from './model';
import { spanOf, type Doc } from './parse/doc';
import { lines, parseUnit, stripBom } from './parse/reader';

export type SeverityOverrides = Record<string, Severity | 'off'>;

export interface CheckOptions {
  /** Used to tell JSONL (`.jsonl`, `.ndjson`) from JSON; other names are sniffed. */
  fileName?: string;
  contracts?: ContractSet;
  profile?: Profile;
  /** Per-code severity, or 'off' to drop the code. */
  severity?: SeverityOverrides;
  /** Tools whose repeats are expected (clocks, polls, random sources), besides those a contract marks `volatile`. */
  volatileTools?: string[];
  /** Built-in contract packs for the agent a format recognises: all (default), none (false), or these ids. */
  packs?: PackSelection;
  /** Quoted values in messages are cut to this many characters (default 80; 0 keeps them whole). */
  maxValueLength?: number;
  /** Keep the sessions (with their sources) in the result, for views that show calls (the decision table). */
  keepModel?: boolean;
  /** Called with each session once it is checked (its index is the `session` of its findings), model kept or not. */
  onSession?: (checked: CheckedSession, index: number) => void;
}

export interface CheckedSession {
  format: string;
  session: Session;
}

export interface FileResult {
  /** The adapter that read the file, or undefined when no adapter recognised it (not a trace). */
  format?: string;
  calls: number;
  sessions: number;
  findings: Finding[];
  model?: CheckedSession[];
}

export class TraceChecker {
  private readonly contracts: ContractSet;
  private readonly profile: Profile;
  private readonly volatileTools: ReadonlySet<string>;
  private readonly findings: Finding[] = [];
  private readonly lineStates = new Map<FormatAdapter, LineState>();
  /** The sessions a line format opened by name, in order of first use (absent: just `builder`). */
  private readonly named = new Map<LineState, SessionBuilder[]>();
  private readonly claimed = new Map<string, { units: number; calls: number }>();
  private readonly model: CheckedSession[] = [];
  private sticky?: FormatAdapter;
  private lastWhole?: FormatAdapter;
  private sessionCount = 0;
  private callCount = 0;

  constructor(private readonly options: CheckOptions = {}) {
    this.contracts = options.contracts ?? emptyContracts();
    this.profile = options.profile ?? 'strict';
    this.volatileTools = new Set(options.volatileTools ?? []);
  }

  /** One JSONL line. `base` is the offset of its first character in the file. */
  addLine(text: string, base: number): void {
    if (text.trim() === '') return;
    const parsed = parseUnit(text, base);
    if (!parsed.ok) {
      this.addParseError(parsed.failure.span.start, parsed.failure.span.end, parsed.failure.message);
      return;
    }
    this.guard(parsed.doc, () => this.readLine(parsed.doc));
  }

  /** A whole JSON document (or a JSONL file that arrived as one text). */
  addText(text: string): void {
    text = stripBom(text);
    const jsonl = /\.(jsonl|ndjson|jsonlines)$/i.test(this.options.fileName ?? '');
    if (!jsonl) {
      const parsed = parseUnit(text, 0);
      if (parsed.ok) {
        this.guard(parsed.doc, () => this.readDocument(parsed.doc));
        return;
      }
      if (!this.linesParse(text)) {
        if (text.trim() !== '') this.addParseError(parsed.failure.span.start, parsed.failure.span.end, parsed.failure.message);
        return;
      }
    }
    for (const line of lines(text)) this.addLine(line.text, line.base);
  }

  /** A session built elsewhere (a frozen fixture is a one-call trace): checked like any other. `packs`: the
   *  built-in packs it was judged with, when its format no longer says (a fixture records them). */
  addSession(format: string, session: Session, packs?: readonly string[]): void {
    this.checkSession(format, session, packs);
  }

  finish(): FileResult {
    for (const [adapter, state] of this.lineStates) {
      adapter.finishLines?.(state);
      for (const b of this.named.get(state) ?? [state.builder]) this.checkSession(adapter.id, b.session);
    }
    this.named.clear();
    this.lineStates.clear();
    let format: string | undefined;
    let best = { units: -1, calls: -1 };
    for (const [id, c] of this.claimed) {
      if (c.calls > best.calls || (c.calls === best.calls && c.units > best.units)) {
        best = c;
        format = id;
      }
    }
    this.findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
    return { format, calls: this.callCount, sessions: this.sessionCount, findings: this.findings, model: this.options.keepModel ? this.model : undefined };
  }

  /** A file that is not one JSON document may still be JSONL whose first line parses (BFCL's .json files). */
  private linesParse(text: string): boolean {
    const nl = text.indexOf('\n');
    if (nl === -1) return false;
    try {
      JSON.parse(text.slice(0, nl));
      return true;
    } catch {
      return false;
    }
  }

  private readWhole(adapter: FormatAdapter, doc: Doc): void {
    this.lastWhole = adapter;
    this.count(adapter.id);
    adapter.readDocument!(doc, (s) => this.checkSession(adapter.id, s));
  }

  private readDocument(doc: Doc): void {
    const adapter = ADAPTERS.find((a) => a.claimsDocument?.(doc.value));
    if (adapter?.readDocument) {
      this.readWhole(adapter, doc);
      return;
    }
    // A single event of a line format (one call record, one message) is a one-line trace.
    const lineAdapter = ADAPTERS.find((a) => a.claimsLine?.(doc.value) || a.acceptsLine?.(doc.value));
    if (lineAdapter) this.readLine(doc);
  }

  private readLine(doc: Doc): void {
    const v = doc.value;
    // A JSONL of whole conversations: a line is nearly always in the format of the line before it.
    if (this.lastWhole?.claimsDocument!(v)) {
      this.readWhole(this.lastWhole, doc);
      return;
    }
    let adapter = ADAPTERS.find((a) => a.claimsLine?.(v));
    if (!adapter && this.sticky?.acceptsLine?.(v)) adapter = this.sticky;
    if (!adapter) {
      const whole = ADAPTERS.find((a) => a.claimsDocument?.(v) && a.readDocument);
      if (whole) {
        this.readWhole(whole, doc);
        return;
      }
      adapter = ADAPTERS.find((a) => a.acceptsLine?.(v));
      if (!adapter) return;
    } else {
      this.sticky ??= adapter;
    }
    let state = this.lineStates.get(adapter);
    if (!state) {
      state = this.newLineState(adapter.id);
      this.lineStates.set(adapter, state);
    }
    this.count(adapter.id);
    adapter.readLine!(doc, state);
  }

  /** A line state whose named sessions (`sessionFor`) are remembered in order, so `finish` checks them all. */
  private newLineState(format: string): LineState {
    const builder = new SessionBuilder();
    const byKey = new Map<string, SessionBuilder>();
    const state: LineState = {
      builder,
      memo: {},
      sessionFor: (key) => {
        let b = byKey.get(key);
        if (b) return b;
        const s = builder.session;
        const fresh = byKey.size === 0 && s.calls.length === 0 && s.results.length === 0 && s.tools.length === 0;
        b = fresh ? builder : new SessionBuilder(key);
        b.session.id = key === '' ? undefined : key;
        byKey.set(key, b);
        const list = this.named.get(state) ?? (fresh ? [] : [builder]);
        list.push(b);
        this.named.set(state, list);
        return b;
      },
      closeSession: (key) => {
        const b = byKey.get(key);
        if (!b) return;
        byKey.delete(key);
        const list = this.named.get(state) ?? [];
        this.named.set(state, list.filter((x) => x !== b));
        this.checkSession(format, b.session);
      },
    };
    return state;
  }

  private count(id: string, calls?: number): void {
    const c = this.claimed.get(id) ?? { units: 0, calls: 0 };
    if (calls === undefined) c.units += 1;
    else c.calls += calls;
    this.claimed.set(id, c);
  }

  private checkSession(format: string, session: Session, packIds?: readonly string[]): void {
    if (session.calls.length === 0 && session.results.length === 0 && session.tools.length === 0) return;
    const index = this.sessionCount++;
    this.callCount += session.calls.length;
    this.count(format, session.calls.length);
    const pending: PendingFinding[] = [];
    const packs = packContracts(packIds ?? ADAPTERS.find((a) => a.id === format)?.packs, this.options.packs);
    const ctx = new SessionContext(session, format, this.contracts, this.profile, (f) => pending.push(f), this.volatileTools, packs);
    try {
      for (const check of CHECKS) check.run(ctx);
      forgetPairing();
      for (const p of pending) this.emit(p, index);
    } catch (e) {
      // Values nested absurdly deep overflow recursive validators and printers: one finding, not a crash.
      if (!(e instanceof RangeError)) throw e;
      const first = session.calls[0]?.at ?? session.results[0]?.at;
      const start = first ? first.doc.base : 0;
      this.addParseError(start, start + 1, 'nested too deeply to check');
    }
    if (this.options.keepModel) this.model.push({ format, session });
    this.options.onSession?.({ format, session }, index);
  }

  private emit(p: PendingFinding, session: number): void {
    const severity = this.options.severity?.[p.code] ?? p.severity ?? CODES[p.code]?.severity ?? 'warning';
    if (severity === 'off') return;
    const max = this.options.maxValueLength ?? DEFAULT_MAX_VALUE_LENGTH;
    const finding: Finding = { code: p.code, severity, message: redactMessage(p.message, max), span: spanOf(p.at), session, fingerprint: findingFingerprint(p) };
    if (p.call) {
      finding.tool = p.call.name;
      if (p.call.id !== undefined) finding.callId = p.call.id;
      finding.turn = p.call.turn;
      finding.callIndex = p.call.index;
    }
    if (p.related) finding.related = p.related.map((r) => ({ span: spanOf(r.at), message: redactMessage(r.message, max) }));
    this.findings.push(finding);
  }

  private addParseError(start: number, end: number, message: string): void {
    const severity = this.options.severity?.['parse-error'] ?? 'error';
    if (severity === 'off') return;
    this.findings.push({ code: 'parse-error', severity, message, span: { start, end }, fingerprint: findingFingerprint({ code: 'parse-error', message }) });
  }

  /** Values nested absurdly deep can overflow a recursive walker: that is a finding on the unit, not a crash. */
  private guard(doc: Doc, run: () => void): void {
    try {
      run();
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      this.addParseError(doc.base, doc.base + Math.min(doc.text.length, 1), 'nested too deeply to check');
    }
  }
}

/** Check one file's text. */
export function checkText(text: string, options: CheckOptions = {}): FileResult {
  const checker = new TraceChecker(options);
  checker.addText(text);
  return checker.finish();
}
