// The engine: text (or a stream of lines) -> Docs -> format adapters -> sessions -> checks -> findings.
// Sessions are checked as soon as they are complete and then dropped, so a JSONL of whole conversations is
// checked in constant memory; findings get their spans while their source is still at hand.
import { CHECKS, CODES, type PendingFinding, type SessionContext } from './checks';
import type { Segment, SessionState } from './checks/check';
import { cloneRun, cutOf, newRun, release, segmentOf, tooShortToCut, type FindingSink, type SessionRun } from './state';
import type { Profile } from './contracts/compile';
import type { PackSelection } from './contracts/packs';
import { emptyContracts, type ContractSet } from './contracts/types';
import { sessionContext, type ContextSettings } from './context';
import { ADAPTERS, SHAPE_READER, adapterById, type FormatAdapter, type LineReader } from './formats';
import { claims, SessionSink } from './formats/adapter';
import { SliceKeys } from './slice-ties';
import { findingFingerprint } from './fingerprint';
import { DEFAULT_MAX_VALUE_LENGTH, redactMessage } from './redact';
import type { Finding, Session, Severity } from './model';
import { nodeDoc, spanOf, type Doc, type JsonPath } from './parse/doc';
import { lines, parseUnit, readingOf, SSE_LINE, stripBom, type TextReading } from './parse/reader';
import { LOG_LINE, loggedMessage } from './parse/log-lines';

export type SeverityOverrides = Record<string, Severity | 'off'>;

export interface CheckOptions {
  /** Only breaks a tie when the bytes leave JSONL or JSON open (a one-line `.jsonl` is read as a line). */
  fileName?: string;
  /** Read with this adapter only (its `id`, `generic` included), whatever the other adapters would claim. */
  readAs?: string;
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
  /** A long session of a line format that allows it is checked in segments of at least this many settled calls
   *  (default state.ts SEGMENT_CALLS); the findings are the same whatever the size. */
  segmentCalls?: number;
  /** Continue from the state another checker handed over (`snapshot()`): the lines given next are those that
   *  follow the ones it read. */
  resume?: CheckerState;
  /** Findings leave as they are made, to this sink, instead of waiting in the result (whose `findings` then stays
   *  empty; `peek` is not for such a checker): a file's findings are never all held (src/cli/spool.ts). */
  findings?: FindingSink;
  /** The text is one slice of a file's lines, read apart from the rest (CLI --jobs): say in FileResult.apart what
   *  its lines belong to. */
  apart?: boolean;
}

/** A checker's state between two lines (`TraceChecker.snapshot`), to go on with `new TraceChecker({ ...options,
 *  resume })`. `sessions` is what the open sessions' checks carry (plain data: Maps, Sets, arrays, objects);
 *  `reading` is the readers' own state (open line readers, calls not yet settled), usable in this process only. */
export interface CheckerState {
  readonly version: 1;
  readonly sessions: readonly { id?: string; format: string; calls: number; state: SessionState }[];
  readonly reading: object;
}

export interface CheckedSession {
  format: string;
  session: Session;
  /** The context its checks ran on (contracts, packs, pairing): views read the session through it. */
  context: SessionContext;
}

export interface FileResult {
  /** The adapter that read the file, or undefined when no adapter recognised it (not a trace). */
  format?: string;
  calls: number;
  sessions: number;
  findings: Finding[];
  model?: CheckedSession[];
  /** Caps on the state kept for long sessions that were hit (one line each), absent when none was. */
  limits?: string[];
  /** Every claimed unit was read whole, on its own, by this one document reader ('' when nothing was claimed): no
   *  line reader opened, nothing read inside a wrapper, no session of the shape reader's. Undefined otherwise. Lines
   *  of a file whose slices, each read alone, all say the same reader read the same as the whole file (CLI --jobs). */
  alone?: string;
  /** With CheckOptions.apart: every claimed unit was read by this one line reader, which named the keys its lines
   *  belong to (see LineSink.ties) and never looked back past the slice's start. Slices that share no key read as
   *  the whole file would. Undefined otherwise. */
  apart?: { reader: string; keys: string[] };
}

/** Where findings are put: an array, or a FindingSink's numbering. */
interface Into {
  push(f: Finding): void;
}

/** How many levels below a unit readWrapped looks for units a reader claims. */
const WRAP_DEPTH = 3;

interface OpenLines {
  reader: LineReader;
  sink: SessionSink;
}

/** The checker that owns the readers' callbacks: a resumed checker takes them over (see `snapshot`). */
interface Route {
  owner: TraceChecker;
}

export class TraceChecker {
  /** What every session's context is built from (see context.ts). */
  private readonly settings: ContextSettings;
  private readonly findings: Finding[] = [];
  /** The adapters asked, in order: the registry, or the one `readAs` names. */
  private readonly adapters: readonly FormatAdapter[];
  /** The shape reader, asked only while no adapter has claimed anything in the file (not when `readAs` is set). */
  private readonly fallback?: FormatAdapter;
  private readonly open = new Map<FormatAdapter, OpenLines>();
  private fallbackLines?: OpenLines;
  /** Units of this file were found inside wrappers (see readWrapped): keep looking inside the others too. */
  private wrapped = false;
  /** Runs of sessions read in segments that were never cut yet (see advance). */
  private readonly tried = new WeakMap<Session, SessionRun>();
  /** A line reader read some line (see FileResult.alone). */
  private linesRead = false;
  /** The lines are a log that frames JSON messages in text (parse/log-lines.ts). */
  private framedLog = false;
  /** Sessions the shape reader read: checked at the end if no adapter claimed anything in the file. */
  private readonly held: Session[] = [];
  private readonly claimed = new Map<string, { units: number; calls: number }>();
  private readonly model: CheckedSession[] = [];
  private sticky?: FormatAdapter;
  private lastWhole?: FormatAdapter;
  private sessionCount = 0;
  private callCount = 0;
  /** Long sessions checked in segments as they are read (state.ts), by session. */
  private readonly runs = new Map<Session, SessionRun>();
  /** Caps on carried state that were hit, said once each. */
  private readonly limits = new Set<string>();
  /** Sessions are checked in segments only when nobody asked for them whole (a kept model, onSession). */
  private readonly segments: boolean;
  private route: Route = { owner: this };
  /** `peek` is finishing a copy: readers are not finished, runs are copied, nothing of the live state is spent. */
  private peeking = false;
  private handedOver = false;
  /** Where findings of no segmented session go: the result's findings, or the sink (numbered as they are made). */
  private readonly direct: Into;
  private order = 0;
  private heldRuns = 0;
  /** What this slice's lines belong to (CheckOptions.apart). */
  private readonly ties?: SliceKeys;

  constructor(private readonly options: CheckOptions = {}) {
    const sink = options.findings;
    this.direct = sink ? { push: (f) => sink.add(f, this.order++) } : this.findings;
    if (options.apart) this.ties = new SliceKeys();
    this.segments = !options.keepModel && !options.onSession;
    this.settings = { contracts: options.contracts ?? emptyContracts(), profile: options.profile ?? 'strict', volatileTools: new Set(options.volatileTools ?? []), packs: options.packs };
    if (options.readAs === undefined) {
      this.adapters = ADAPTERS;
      this.fallback = SHAPE_READER;
    } else {
      const forced = adapterById(options.readAs);
      this.adapters = forced ? [forced] : [];
    }
    if (options.resume) {
      // take over the readers, open sessions and findings of the checker that made the snapshot
      Object.assign(this, options.resume.reading);
      this.route.owner = this;
    }
  }

  /** Hand the state over (between two lines), to go on with `new TraceChecker({ ...options, resume: state })`:
   *  whatever can be settled is checked first, so the state holds facts, not calls. This checker is done then. */
  snapshot(): CheckerState {
    this.live();
    this.settle(1);
    const sessions: { id?: string; format: string; calls: number; state: SessionState }[] = [];
    for (const [adapter, lines] of this.open) {
      for (const s of lines.sink.openSessions()) {
        const run = this.runs.get(s);
        if (run) sessions.push({ id: s.id, format: adapter.id, calls: run.calls, state: run.state });
      }
    }
    const { options: _options, settings: _settings, adapters: _adapters, fallback: _fallback, segments: _segments, tried: _tried, ...reading } = this as unknown as Record<string, unknown>;
    this.handedOver = true;
    return { version: 1, sessions, reading };
  }

  /** The result as if the trace ended here; the checker goes on taking lines. Open sessions checked in segments
   *  cost only what came since their last segment. (A reader's unfinished stream fragments are not yet calls.) */
  peek(): FileResult {
    this.live();
    this.settle(1);
    const saved = { sessions: this.sessionCount, calls: this.callCount, claimed: [...this.claimed].map(([k, v]) => [k, { ...v }] as const), findings: this.findings.length, model: this.model.length, limits: [...this.limits] };
    this.peeking = true;
    try {
      for (const [adapter, lines] of this.open) for (const session of lines.sink.openSessions()) this.checkSession(adapter.id, session);
      this.finishFallback();
      return this.result([...this.findings]);
    } finally {
      this.peeking = false;
      this.sessionCount = saved.sessions;
      this.callCount = saved.calls;
      this.claimed.clear();
      for (const [k, v] of saved.claimed) this.claimed.set(k, v);
      this.findings.length = saved.findings;
      this.model.length = saved.model;
      this.limits.clear();
      for (const l of saved.limits) this.limits.add(l);
    }
  }

  private live(): void {
    if (this.handedOver) throw new Error('this checker handed its state over (snapshot): go on with the resumed one');
  }

  /** Check what is settled in the open sessions read in segments: at least `min` calls each. */
  private settle(min: number): void {
    if (!this.segments) return;
    for (const [adapter, lines] of this.open) if (adapter.lines?.segments) this.advance(adapter, lines, min);
  }

  /** Check the settled part of each open session of a line format read in segments, and let it go. */
  private advance(adapter: FormatAdapter, lines: OpenLines, min?: number): void {
    const format = adapter.id;
    for (const session of lines.sink.openSessions()) {
      if (tooShortToCut(session, min)) continue; // no cut yet, whatever its run
      let run = this.runs.get(session) ?? this.tried.get(session);
      // a session not cut yet keeps its run here, so cutOf remembers the turn it tried (one long turn is not
      // rescanned per line); it becomes the session's run at its first cut
      if (!run) this.tried.set(session, (run = newRun()));
      const cut = cutOf(session, run, min, adapter.lines?.segments === 'settled');
      if (!cut) continue;
      this.tried.delete(session);
      if (cut.forced) this.limits.add(`a session went on for ${cut.calls - run.calls} calls without results: checked in segments anyway (results that come later are not paired with them)`);
      this.runs.set(session, run);
      this.checkSegment(format, segmentOf(session, run, cut), run, false);
      release(session, run, cut);
    }
  }

  /** One JSONL line. `base` is the offset of its first character in the file. */
  addLine(text: string, base: number): void {
    if (this.handedOver) this.live();
    if (text.trim() === '') return;
    const first = text.charCodeAt(0);
    if (first !== 123 && first !== 91 && SSE_LINE.test(text)) {
      // a recorded Server-Sent Events body: the JSON of each `data:` line is the event, the other fields are framing
      if (!text.startsWith('data:')) return;
      const skip = text.charCodeAt(5) === 32 ? 6 : 5;
      const payload = text.slice(skip);
      if (payload.trim() === '' || payload.trim() === '[DONE]') return;
      this.addLine(payload, base + skip);
      return;
    }
    if (first !== 123 && first !== 91 && LOG_LINE.test(text)) {
      // a log that frames JSON messages in lines of text (parse/log-lines.ts): the message logged is the unit
      this.framedLog = true;
      const m = loggedMessage(text);
      if (m) this.addLine(text.slice(m.start, m.end), base + m.start);
      return;
    }
    const parsed = parseUnit(text, base);
    if (!parsed.ok) {
      // in a framed log, a line that is not JSON is the log's own text (a server's stderr, a message's next lines)
      if (this.framedLog) return;
      this.addParseError(parsed.failure.span.start, parsed.failure.span.end, parsed.failure.message);
      return;
    }
    this.guard(parsed.doc, () => this.readLine(parsed.doc));
  }

  /** Part of the file could not be read at all (a container's member this build cannot inflate): a parse error at
   *  its start, `message` one line saying what and why. */
  addUnreadable(message: string): void {
    this.addParseError(0, 0, message);
  }

  /** A whole JSON document (or a JSONL file that arrived as one text). */
  addText(text: string): void {
    text = stripBom(text);
    this.addReading(text, readingOf(text, this.options.fileName));
  }

  /** A text (without its BOM) read the way parse/reader `readingOf` decided: its lines, or the document parsed there. */
  addReading(text: string, reading: TextReading): void {
    if (reading.shape === 'lines') {
      for (const line of reading.units ?? lines(text)) this.addLine(line.text, line.base);
      return;
    }
    const parsed = reading.unit;
    if (parsed.ok) this.guard(parsed.doc, () => this.readDocument(parsed.doc));
    else if (text.trim() !== '') this.addParseError(parsed.failure.span.start, parsed.failure.span.end, parsed.failure.message);
    // a text cut short (JSON or YAML): what came before its first error was read, the rest is a parse error
    if (reading.cut) this.addParseError(reading.cut.span.start, reading.cut.span.end, reading.cut.message);
  }

  /**
   * Whether a document read in parts (parse/split.ts) reads as the whole would, judged on one part and the path of
   * the container it carries a run of: a line format reads the part (its state spans units: an OTLP export in parts
   * reads like the Collector's lines of one), and the same adapter would read the whole; or no reader claims any
   * node down to that container, so the units are its elements (or nodes below them), each in one part.
   */
  readsInParts(value: unknown, path: JsonPath): boolean {
    let node = value;
    let shaped = false;
    for (let i = 0; ; i++) {
      const line = this.adapters.find((a) => a.lines?.claims(node));
      const whole = this.adapters.find((a) => a.document?.claims(node));
      if (line) return whole === undefined || whole === line;
      if (whole || this.adapters.some((a) => a.lines?.accepts?.(node))) return false;
      shaped ||= this.fallback !== undefined && claims(this.fallback, node);
      if (i === path.length || typeof node !== 'object' || node === null) break;
      node = (node as Record<string | number, unknown>)[path[i]];
    }
    // the shape reader reads a file only when no adapter claims any of it: a part whose elements some adapter
    // claims says this file is not one; of one with none, the shape reader would read each part as a whole
    if (!shaped) return true;
    const elements = typeof node === 'object' && node !== null ? Object.values(node) : [];
    return elements.some((e) => this.adapters.some((a) => claims(a, e)));
  }

  /** The first pass over a document read in parts: its line reader may note what each part holds, to check each
   *  session once its last part is read instead of at the end (LineReader.preview). */
  previewPart(doc: Doc): void {
    const adapter = this.adapters.find((a) => a.lines?.claims(doc.value));
    if (adapter) this.linesOf(adapter).reader.preview?.(doc);
  }

  /** One part of a document read in parts (see readsInParts), in file order. */
  addPart(doc: Doc): void {
    const v = doc.value;
    this.guard(doc, () => (this.adapters.some((a) => a.lines?.claims(v)) ? this.readLine(doc) : this.readDocument(doc)));
  }

  /** A session built elsewhere (a frozen fixture is a one-call trace): checked like any other. `packs`: the
   *  built-in packs it was judged with, when its format no longer says (a fixture records them). */
  addSession(format: string, session: Session, packs?: readonly string[]): void {
    this.checkSession(format, session, packs);
  }

  finish(): FileResult {
    this.live();
    for (const [adapter, lines] of this.open) {
      lines.reader.finish?.();
      for (const session of lines.sink.openSessions()) this.checkSession(adapter.id, session);
    }
    const apart = this.apartResult();
    this.open.clear();
    this.finishFallback();
    const result = this.result(this.findings);
    if (apart) result.apart = apart;
    return result;
  }

  /** FileResult.apart: one line reader read every claimed unit (nothing whole, wrapped or by shape) and named keys. */
  private apartResult(): FileResult['apart'] {
    const ties = this.ties;
    const reader = this.sticky?.id;
    if (!ties || ties.tied || ties.keys.size === 0 || !reader || this.wrapped || this.lastWhole || this.held.length || this.fallbackLines) return undefined;
    const ids = [...this.claimed.keys()];
    return ids.length === 1 && ids[0] === reader ? { reader, keys: [...ties.keys] } : undefined;
  }

  private result(findings: Finding[]): FileResult {
    let format: string | undefined;
    let best = { units: -1, calls: -1 };
    for (const [id, c] of this.claimed) {
      if (c.calls > best.calls || (c.calls === best.calls && c.units > best.units)) {
        best = c;
        format = id;
      }
    }
    findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
    const result: FileResult = { format, calls: this.callCount, sessions: this.sessionCount, findings, model: this.options.keepModel ? this.model : undefined };
    if (this.limits.size) result.limits = [...this.limits];
    const ids = [...this.claimed.keys()];
    if (!this.linesRead && !this.wrapped && ids.length <= 1 && ids[0] !== this.fallback?.id) result.alone = ids[0] ?? '';
    return result;
  }

  private readWhole(adapter: FormatAdapter, doc: Doc): void {
    this.lastWhole = adapter;
    this.count(adapter.id);
    adapter.document?.read(doc, (s) => this.checkSession(adapter.id, s));
  }

  private readDocument(doc: Doc): void {
    const adapter = this.adapters.find((a) => a.document?.claims(doc.value));
    if (adapter) {
      this.readWhole(adapter, doc);
      return;
    }
    // A single event of a line format (one call record, one message) is a one-line trace.
    const lineAdapter = this.adapters.find((a) => a.lines && (a.lines.claims(doc.value) || a.lines.accepts?.(doc.value)));
    if (lineAdapter) this.readLine(doc);
    else if (!this.readWrapped(doc, 1)) this.offerFallback(doc, true);
  }

  /**
   * A unit no reader claims may hold units one does, a level or a few down: a capture's `response`, an export's
   * `{data: {...}}`, a log record's `event`, an array of runs. Each claimed node is read as a unit of its own (its
   * anchors point into the file); a branch is not searched below its first claimed node. Only in files where no
   * unit was claimed directly, so the junk lines of a known format are never searched.
   */
  private readWrapped(doc: Doc, depth: number): boolean {
    if (this.claimed.size > 0 && !this.wrapped) return false;
    const v = doc.value;
    if (typeof v !== 'object' || v === null) return false;
    let found = false;
    const visit = (key: string | number, child: unknown) => {
      if (typeof child !== 'object' || child === null) return;
      const inner = nodeDoc(doc, [key], child);
      // a claim only a whole file or line proves (DocumentFormat.nested) is no claim here
      const whole = this.adapters.find((a) => a.document?.claims(child) && a.document.nested?.(child) !== false);
      if (whole || this.adapters.some((a) => a.lines?.claims(child))) {
        this.wrapped = true;
        found = true;
        if (whole) this.readWhole(whole, inner);
        else this.readLine(inner);
      } else if (depth < WRAP_DEPTH && this.readWrapped(inner, depth + 1)) {
        found = true;
      }
    };
    if (Array.isArray(v) && v.some((child) => typeof child === 'object' && child !== null && this.adapters.some((a) => a.lines?.claims(child)))) {
      // a line format's log captured as one JSON array (not JSONL): every element is read as its line would be, so
      // the lines that prove nothing alone (a plain message, a header the format keeps) stay in their session
      this.wrapped = true;
      v.forEach((child, i) => {
        if (typeof child === 'object' && child !== null) this.readLine(nodeDoc(doc, [i], child));
      });
      return true;
    }
    if (Array.isArray(v)) v.forEach((child, i) => visit(i, child));
    else for (const key of Object.keys(v)) visit(key, (v as Record<string, unknown>)[key]);
    return found;
  }

  private readLine(doc: Doc): void {
    const v = doc.value;
    // A JSONL of whole conversations: a line is nearly always in the format of the line before it.
    if (this.lastWhole?.document?.claims(v)) {
      this.readWhole(this.lastWhole, doc);
      return;
    }
    // the file's format first, for the lines it keeps that another format would claim (LineFormat.keeps)
    let adapter = this.sticky?.lines?.keeps?.(v) ? this.sticky : this.adapters.find((a) => a.lines?.claims(v));
    if (!adapter && this.sticky?.lines?.accepts?.(v)) adapter = this.sticky;
    if (!adapter) {
      const whole = this.adapters.find((a) => a.document?.claims(v));
      if (whole) {
        this.readWhole(whole, doc);
        return;
      }
      adapter = this.adapters.find((a) => a.lines?.accepts?.(v));
      if (!adapter) {
        if (!this.readWrapped(doc, 1)) this.offerFallback(doc, false);
        return;
      }
    } else {
      this.sticky ??= adapter;
    }
    this.count(adapter.id);
    this.linesRead = true;
    const lines = this.linesOf(adapter);
    lines.reader.read(doc);
    if (this.segments && adapter.lines?.segments) this.advance(adapter, lines, this.options.segmentCalls);
  }

  /** The file's line reader of `adapter`, opened on first use. */
  private linesOf(adapter: FormatAdapter): OpenLines {
    let lines = this.open.get(adapter);
    if (!lines) {
      const route = this.route;
      lines = this.openLines(adapter, (s) => route.owner.checkSession(adapter.id, s));
      this.open.set(adapter, lines);
    }
    return lines;
  }

  /** A unit no adapter reads goes to the shape reader, while nothing in the file was claimed by an adapter. */
  private offerFallback(doc: Doc, whole: boolean): void {
    const shape = this.fallback;
    if (!shape || this.claimed.size > 0) return;
    if (whole && shape.document?.claims(doc.value)) {
      shape.document.read(doc, (s) => this.held.push(s));
      return;
    }
    if (!shape.lines?.claims(doc.value)) return;
    const route = this.route;
    this.fallbackLines ??= this.openLines(shape, (s) => route.owner.held.push(s));
    this.fallbackLines.reader.read(doc);
  }

  /** The shape reader's sessions are checked only when no adapter claimed any part of the file. */
  private finishFallback(): void {
    const lines = this.fallbackLines;
    if (!this.peeking) this.fallbackLines = undefined;
    const held = this.peeking ? [...this.held] : this.held.splice(0);
    if (lines) {
      if (!this.peeking) lines.reader.finish?.();
      held.push(...lines.sink.openSessions());
    }
    if (this.claimed.size > 0 || !this.fallback) return;
    const before = this.sessionCount;
    for (const s of held) this.checkSession(this.fallback.id, s);
    if (this.sessionCount > before) this.addReaderFinding('read-by-shape', 0, 0, 'no known format: calls were read by their shape (name and arguments); pairing only through explicit ids');
  }

  /** A line reader with its sink; the sessions it names are remembered in order, so `finish` checks them all. */
  private openLines(adapter: FormatAdapter, done: (s: Session) => void): OpenLines {
    const sink = new SessionSink(done, this.ties);
    return { sink, reader: adapter.lines?.open(sink) ?? { read: () => undefined } };
  }

  private count(id: string, calls?: number): void {
    const c = this.claimed.get(id) ?? { units: 0, calls: 0 };
    if (calls === undefined) c.units += 1;
    else c.calls += calls;
    this.claimed.set(id, c);
  }

  private checkSession(format: string, session: Session, packIds?: readonly string[]): void {
    const live = this.runs.get(session);
    if (live) {
      // a session read in segments: the rest of it is its last segment; its findings get the session's index now
      if (!this.peeking) this.runs.delete(session);
      const run = this.peeking ? cloneRun(live) : live;
      this.checkSegment(format, segmentOf(session, run), run, true);
      const index = this.sessionCount++;
      this.callCount += session.calls.length;
      this.count(format, session.calls.length);
      for (const f of run.findings) this.findings.push({ ...f, session: index });
      if (run.held && this.options.findings) {
        this.options.findings.place(run.held.id, this.order);
        this.order += run.held.count;
      }
      return;
    }
    if (session.calls.length === 0 && session.results.length === 0 && session.tools.length === 0 && !session.texts?.length) return;
    const index = this.sessionCount++;
    this.callCount += session.calls.length;
    this.count(format, session.calls.length);
    const context = this.runChecks(format, session, packIds, index, this.direct);
    const checked = { format, session, context };
    if (this.options.keepModel) this.model.push(checked);
    if (!this.peeking) this.options.onSession?.(checked, index);
  }

  /** One segment of a session read in segments: its findings wait in the run for the session's index. */
  private checkSegment(format: string, seg: Session, run: SessionRun, final: boolean): void {
    const segment: Segment = { state: run.state, final, limit: (m) => this.limits.add(m) };
    const context = this.runChecks(format, seg, undefined, 0, this.heldBy(run), segment);
    if (!final) context.carry();
  }

  /** Run every check on a session (or segment) and turn what they report into findings. */
  /** Where a segmented session's findings wait: in its run, or (with a sink) nowhere, numbered in the run. */
  private heldBy(run: SessionRun): Into {
    const sink = this.options.findings;
    if (!sink) return run.findings;
    const held = (run.held ??= { id: this.heldRuns++, count: 0 });
    return { push: (f) => sink.add(f, held.count++, held.id) };
  }

  private runChecks(format: string, session: Session, packIds: readonly string[] | undefined, index: number, into: Into, segment?: Segment): SessionContext {
    const pending: PendingFinding[] = [];
    const context = sessionContext(session, format, this.settings, (f) => pending.push(f), packIds, segment);
    try {
      for (const check of CHECKS) check.run(context);
      for (const p of pending) this.emit(p, index, into);
    } catch (e) {
      // Values nested absurdly deep overflow recursive validators and printers: one finding, not a crash.
      if (!(e instanceof RangeError)) throw e;
      const first = session.calls[0]?.at ?? session.results[0]?.at;
      const start = first ? first.doc.base : 0;
      this.addParseError(start, start + 1, 'nested too deeply to check');
    }
    return context;
  }

  private emit(p: PendingFinding, session: number, into: Into): void {
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
    if (p.related) finding.related = p.related.map((r) => ({ span: 'span' in r ? r.span : spanOf(r.at), message: redactMessage(r.message, max) }));
    into.push(finding);
  }

  private addParseError(start: number, end: number, message: string): void {
    this.addReaderFinding('parse-error', start, end, message);
  }

  /** A finding of reading (no call, no session): its severity from the options, or the code's own. */
  private addReaderFinding(code: string, start: number, end: number, message: string): void {
    const severity = this.options.severity?.[code] ?? CODES[code]?.severity ?? 'error';
    if (severity === 'off') return;
    this.direct.push({ code, severity, message, span: { start, end }, fingerprint: findingFingerprint({ code, message }) });
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

/** Whether a JSONL line is read on its own (see TraceChecker.readLine): a whole conversation, a parse error, or
 *  nothing any reader takes; not an event of a conversation spread over lines (nor a recorded stream's line), whose
 *  rules span lines. The editor's incremental check re-checks only such lines after an edit. */
export function lineStandsAlone(text: string): boolean {
  if (text.trim() === '') return true;
  const first = text.charCodeAt(0);
  if (first !== 123 && first !== 91 && (SSE_LINE.test(text) || LOG_LINE.test(text))) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return true; // a parse error is a finding on that line alone
  }
  if (ADAPTERS.some((a) => a.lines?.claims(value))) return false;
  if (ADAPTERS.some((a) => a.document?.claims(value))) return true;
  if (ADAPTERS.some((a) => a.lines?.accepts?.(value))) return false;
  // read by shape only when nothing in the file is claimed, together with the other lines
  return !(SHAPE_READER?.lines?.claims(value) ?? false) && !(SHAPE_READER?.document?.claims(value) ?? false);
}

/** Check one file's text. */
export function checkText(text: string, options: CheckOptions = {}): FileResult {
  const checker = new TraceChecker(options);
  checker.addText(text);
  return checker.finish();
}
