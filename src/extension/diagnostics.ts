// Live diagnostics for trace documents: checked at once on open, debounced per document on change (a result is
// published only if it is still the newest for that document), cleared on close. A document is a trace when a
// format adapter recognises it; anything else (package.json, tsconfig.json, ...) gets nothing. Besides the JSON
// languages, a plain-text document is read when it starts like JSON, JSONL or an SSE stream (reading.ts); one that
// no reader read but that looks like a trace is remembered as unread, for the status items to say so.
import * as vscode from 'vscode';
import {
  checkPlan,
  checkText,
  checkTextChunked,
  IN_PLACE_LIMIT,
  LineIndependentTrace,
  lineStandsAlone,
  looksLikeCassette,
  readsAsLines,
  growingTrace,
  YAML_NAME,
  yieldToLoop,
  type CheckHost,
  type CheckOptions,
  type ContractSet,
  type FileResult,
  type Finding,
  type Growing,
  type PatchStats,
  type CallMark,
  CallMarks,
  type CheckedSession,
} from '../core';
import type { ContractStore } from './contracts';
import { severityOf, toDiagnostics, type SeverityMap } from './convert';
import { readSettings } from './settings';
import { workspaceConfig } from './config';
import { BackgroundChecks, type BackgroundResult, type CheckJob } from './background';
import { JSON_LANGUAGES, SNIFF_CHARS, startsLikeJson, TEXT_LANGUAGES, TRACE_HEAD_CHARS, traceLike } from './reading';
import { readAsFor } from './readAs';

export const DEBOUNCE_MS = 300;

/** Above this size a trace is not checked in place (the core's checkPlan says where instead). */
export const BACKGROUND_CHECK_SIZE = IN_PLACE_LIMIT;
const SLICE_MS = 40;

export type CheckResult = FileResult;

/** Above this size a live check keeps no model (hovers then show findings without the contract excerpt). */
const MODEL_LIMIT = 8 * 1024 * 1024;

/** The options the extension checks a file with. */
export function checkOptions(uri: vscode.Uri, contracts: ContractSet): CheckOptions {
  const settings = readSettings(uri);
  return {
    fileName: vscode.workspace.asRelativePath(uri),
    readAs: readAsFor(uri),
    contracts,
    profile: settings.profile,
    volatileTools: settings.volatileTools,
    // contract-guard.config.json: built-in packs on/off, and how much of a value messages may quote.
    packs: workspaceConfig().packs,
    maxValueLength: workspaceConfig().maxValueLength,
  };
}

/** The one place the extension calls the core's checker on a whole file. */
export function runCheck(text: string, uri: vscode.Uri, contracts: ContractSet, keepModel: boolean, onSession?: CheckOptions['onSession']): CheckResult {
  return checkText(text, { ...checkOptions(uri, contracts), keepModel: keepModel && text.length <= MODEL_LIMIT, onSession });
}

export interface TraceState {
  version: number;
  result: CheckResult;
  /** Counts after the severity settings (codes switched off are not counted). */
  counts: Counts;
  /** Milliseconds the check took. */
  millis: number;
  /** Set when only the changed lines were checked again. */
  incremental?: PatchStats;
  /** Where the first calls start, when the check kept no model here (it ran on a worker thread). */
  marks?: CallMark[];
  /** For line-independent JSONL: the per-line table the next edit patches. */
  lines?: LineIndependentTrace;
  /** Set when only lines appended at the end were checked, from the saved state: how many. */
  appended?: { lines: number };
  /** For a trace read line by line: its growing trace (here, or on the worker thread that checked it), fed up to its
   *  last complete line, which appended lines are checked from. */
  growing?: Growing;
  /** The document version `growing` is in step with (every change since left the text it was fed as it was). */
  growingVersion?: number;
  /** The last characters `growing` was fed: a change that starts among them and writes them again is an append. */
  growingGuard?: string;
  /** What the table was built with: it is only patched under the same contracts and settings. */
  key?: string;
  contracts?: ContractSet;
}

/** How much of the end of what a growing trace was fed is remembered (see TraceState.growingGuard). */
const GUARD_CHARS = 4096;

function guardOf(fed: string): string {
  return fed.length > GUARD_CHARS ? fed.slice(-GUARD_CHARS) : fed;
}

export interface Counts {
  error: number;
  warning: number;
  info: number;
}

const SKIP_SCHEMES = new Set(['git', 'output', 'debug', 'vscode-userdata', 'vscode-settings', 'walkThroughSnippet']);
/** Never read as text, whatever they start with: inputs and views of the editor itself. */
const TEXT_SKIP_SCHEMES = new Set(['untitled', 'vscode-scm', 'comment', 'vscode-terminal', 'vscode-notebook-cell', 'vscode-interactive-input', 'search-editor', 'gitfs', 'vscode-chat-code-block']);

/** A document that looks like a trace but that no reader read. */
export interface UnreadTrace {
  /** What made it look like one (a key such as `tool_calls`, or `role`). */
  sign: string;
  /** The reader it was forced to, if any. */
  readAs?: string;
  /** Parse errors the check found (a broken trace is not read either). */
  parseErrors: number;
}

export function countFindings(findings: readonly Finding[], map: SeverityMap): Counts {
  const counts: Counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) {
    const s = severityOf(f, map);
    if (s === vscode.DiagnosticSeverity.Error) counts.error++;
    else if (s === vscode.DiagnosticSeverity.Warning) counts.warning++;
    else if (s !== undefined) counts.info++;
  }
  return counts;
}

export class TraceDiagnostics implements vscode.Disposable {
  private readonly states = new Map<string, TraceState>();
  private readonly unread = new Map<string, UnreadTrace>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly generations = new Map<string, number>();
  /** The background check under way for a document: aborted when a newer check of it starts. */
  private readonly inFlight = new Map<string, AbortController>();
  /** Sliced checks in flight. */
  private running = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires after a document's diagnostics were published (or cleared). */
  readonly onDidCheck = this.changed.event;

  constructor(
    private readonly collection: vscode.DiagnosticCollection,
    private readonly contracts: ContractStore,
    private readonly severity: () => SeverityMap,
    readonly background: BackgroundChecks = new BackgroundChecks(undefined),
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.checkNow(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!e.contentChanges.length) return;
        this.follow(e);
        this.schedule(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      contracts.onDidChange(() => this.checkAllOpen()),
    );
  }

  /** Whether a document could be a trace worth reading (the core decides whether it is one). */
  isCandidate(doc: vscode.TextDocument): boolean {
    if (SKIP_SCHEMES.has(doc.uri.scheme)) return false;
    if (!JSON_LANGUAGES.has(doc.languageId) && !/\.jsonl?$/i.test(doc.uri.path) && !this.isTextTrace(doc) && !this.isYamlCassette(doc)) return false;
    if (/\.fixture\.json$/i.test(doc.uri.path)) return false; // a frozen fixture (its Test Explorer test judges it)
    if (!readSettings(doc.uri).enable) return false;
    return !this.contracts.isContract(doc);
  }

  /** A plain-text document (`.txt`, `.log`, `.chunks`, no extension) whose first bytes start like JSON(L) or SSE. */
  private isTextTrace(doc: vscode.TextDocument): boolean {
    if (!TEXT_LANGUAGES.has(doc.languageId) || TEXT_SKIP_SCHEMES.has(doc.uri.scheme)) return false;
    return startsLikeJson(doc.getText(new vscode.Range(new vscode.Position(0, 0), doc.positionAt(SNIFF_CHARS))));
  }

  /** A YAML file (`.yaml`/`.yml`) whose head is a recorded HTTP cassette's (VCR.py, Ruby VCR, go-vcr); other YAML
   *  (CI configs, compose files) is never a candidate. */
  private isYamlCassette(doc: vscode.TextDocument): boolean {
    if (!YAML_NAME.test(doc.uri.path) || TEXT_SKIP_SCHEMES.has(doc.uri.scheme)) return false;
    return looksLikeCassette(doc.getText(new vscode.Range(new vscode.Position(0, 0), doc.positionAt(SNIFF_CHARS))));
  }

  state(uri: vscode.Uri): TraceState | undefined {
    return this.states.get(uri.toString());
  }

  /** Set when the document looks like a trace but its last check read nothing. */
  unreadTrace(uri: vscode.Uri): UnreadTrace | undefined {
    return this.unread.get(uri.toString());
  }

  /** Keeps a line table and a growing trace in step with the edits, or drops them when they cannot be. */
  private follow(e: vscode.TextDocumentChangeEvent): void {
    const state = this.states.get(e.document.uri.toString());
    if (!state) return;
    const growing = state.growing;
    if (growing) {
      // an agent appending to the file on disk: no change touches what the trace was fed (VS Code reloads a file as
      // an edit that may start at the last line break and write it again)
      const guard = state.growingGuard ?? '';
      const keeps = (c: vscode.TextDocumentContentChangeEvent) => {
        const back = growing.consumed - c.rangeOffset;
        return back <= 0 || (back <= guard.length && c.rangeOffset + c.rangeLength >= growing.consumed && c.text.startsWith(guard.slice(guard.length - back)));
      };
      const appended = state.growingVersion === e.document.version - 1 && e.contentChanges.every(keeps);
      if (appended) state.growingVersion = e.document.version;
      else {
        growing.dispose?.();
        state.growing = undefined;
      }
    }
    const table = state.lines;
    if (!table) return;
    if (table.version !== e.document.version - 1) {
      state.lines = undefined;
      return;
    }
    for (const c of e.contentChanges) table.applyChange({ startLine: c.range.start.line, endLine: c.range.end.line, text: c.text }, e.document.version);
  }

  checkAllOpen(): void {
    for (const d of vscode.workspace.textDocuments) this.checkNow(d);
  }

  /** Re-publish cached results with new severity settings (no re-check needed). */
  republish(): void {
    for (const d of vscode.workspace.textDocuments) {
      const s = this.states.get(d.uri.toString());
      if (s && s.version === d.version) this.publish(d, s);
    }
  }

  schedule(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    const version = doc.version;
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        // stale: the document changed again (a newer timer is set) or was closed
        if (doc.isClosed || doc.version !== version) return;
        this.checkNow(doc, true);
      }, DEBOUNCE_MS),
    );
  }

  /**
   * Check a document now. `incremental`: after an edit, a line-independent JSONL trace re-checks only the lines
   * that changed (falls back to a whole check when that is not possible).
   */
  checkNow(doc: vscode.TextDocument, incremental = false): void {
    const key = doc.uri.toString();
    const pending = this.timers.get(key);
    if (pending) {
      clearTimeout(pending);
      this.timers.delete(key);
    }
    this.generation(key);
    if (!this.isCandidate(doc)) {
      this.clear(doc.uri);
      return;
    }
    const contracts = this.contracts.contracts;
    if (!contracts) return; // checked when the first load completes
    const options = checkOptions(doc.uri, contracts);
    const optionsKey = JSON.stringify({ ...options, contracts: undefined });
    const previous = this.states.get(key);
    const started = Date.now();
    try {
      if (incremental && previous?.growing && previous.growingVersion === doc.version && previous.contracts === contracts && previous.key === optionsKey) {
        if (this.checkAppended(doc, previous, previous.growing, started)) return;
      }
      if (incremental && previous?.lines && previous.contracts === contracts && previous.key === optionsKey) {
        const stats: PatchStats = { checked: 0, lines: 0 };
        const patched =
          previous.lines.version === doc.version
            ? previous.lines.update({ lineCount: doc.lineCount, lineText: (i) => doc.lineAt(i).text, lineStart: (i) => doc.offsetAt(new vscode.Position(i, 0)) }, stats)
            : undefined;
        if (patched) {
          this.publish(doc, { result: patched, millis: Date.now() - started, incremental: stats, lines: previous.lines, key: optionsKey, contracts, ...this.keepGrowing(previous, doc) });
          return;
        }
      }
      const text = doc.getText();
      const plan = checkPlan(text, options.fileName, this.host(contracts));
      if (plan === 'worker') {
        this.checkInBackground(doc, text, options, optionsKey, contracts);
        return;
      }
      if (plan === 'sliced') {
        void this.checkInSlices(doc, text, options, optionsKey, contracts);
        return;
      }
      const result = runCheck(text, doc.uri, contracts, true);
      this.publish(doc, { result, millis: Date.now() - started });
      this.buildLineTable(doc, text, result, options, optionsKey, contracts);
      this.buildGrowing(doc, text, result, options, optionsKey, contracts);
    } catch (e) {
      console.error(`[Contract Guard] checking ${doc.uri.toString()} failed`, e);
      this.clear(doc.uri);
    }
  }

  /**
   * Lines appended at the end of a trace, checked from the state saved after the lines before (an agent writing the
   * file on disk); the lines before are not read again. On the worker thread that checked the trace when it has
   * one. False when that cannot be done here (then it is checked whole).
   */
  private checkAppended(doc: vscode.TextDocument, previous: TraceState, growing: Growing, started: number): boolean {
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    const tail = doc.getText(new vscode.Range(doc.positionAt(growing.consumed), end));
    const cut = tail.lastIndexOf('\n') + 1;
    let lines = 0;
    for (let i = tail.indexOf('\n'); i !== -1; i = tail.indexOf('\n', i + 1)) lines++;
    const { lines: table, key, contracts, marks } = previous;
    const growingGuard = guardOf((previous.growingGuard ?? '') + tail.slice(0, cut));
    const publish = (result: CheckResult) =>
      this.publish(doc, { result, millis: Date.now() - started, appended: { lines }, marks, lines: table, key, contracts, growing, growingVersion: doc.version, growingGuard });
    const failed = (e: unknown) => {
      console.error(`[Contract Guard] checking what was appended to ${doc.uri.toString()} failed; checking it whole`, e);
      growing.dispose?.();
      const state = this.states.get(doc.uri.toString());
      if (state?.growing === growing) state.growing = undefined;
    };
    let out: CheckResult | Promise<CheckResult>;
    try {
      out = growing.append(tail.slice(0, cut), tail.slice(cut));
    } catch (e) {
      failed(e);
      return false;
    }
    if (!(out instanceof Promise)) {
      publish(out);
      return true;
    }
    const { stale, done } = this.startRun(doc);
    out.then(
      (result) => {
        if (!stale()) publish(result);
      },
      (e: unknown) => {
        failed(e);
        if (!stale()) this.checkNow(doc);
      },
    ).finally(done);
    return true;
  }

  /** The state fields of a growing trace just made by a whole check of the document as it is now. */
  private grown(trace: Growing | undefined, doc: vscode.TextDocument, text: string, key: string, contracts: ContractSet): Partial<TraceState> {
    return trace ? { growing: trace, growingVersion: doc.version, growingGuard: guardOf(text.slice(0, trace.consumed)), key, contracts } : {};
  }

  /** A growing trace kept through a check that did not feed it (a patch of changed lines): still in step when every
   *  change was past its last line break. */
  private keepGrowing(previous: TraceState, doc: vscode.TextDocument): Partial<TraceState> {
    const { growing, growingVersion, growingGuard } = previous;
    return growing && growingVersion === doc.version ? { growing, growingVersion, growingGuard } : {};
  }

  /** A whole check of a text on a worker thread (the model is not kept); undefined when none can run here. `grow`:
   *  a line-shaped text comes back with the state appended lines are checked from. */
  backgroundCheck(text: string, options: CheckOptions, signal?: AbortSignal, table?: CheckJob['table'], grow?: boolean): Promise<BackgroundResult> | undefined {
    const sources = options.contracts && this.contracts.sourcesOf(options.contracts);
    if (!sources) return undefined;
    const { contracts: _compiled, keepModel: _model, onSession: _each, ...plain } = options;
    return this.background.check({ text, options: plain, contracts: sources, table, grow }, signal);
  }

  /** A whole check of a text where the core's checkPlan puts it, keeping no model (Check Workspace Contracts). */
  async checkWhole(text: string, uri: vscode.Uri, contracts: ContractSet, signal?: AbortSignal): Promise<{ result: CheckResult; marks: readonly CallMark[] }> {
    const options = checkOptions(uri, contracts);
    const plan = checkPlan(text, options.fileName, this.host(contracts));
    const off = plan === 'worker' ? this.backgroundCheck(text, options, signal) : undefined;
    if (off) {
      const { result, marks } = await off;
      return { result, marks };
    }
    // the marks are collected as the sessions are checked: no model is kept for them
    const marks = new CallMarks();
    const onSession = (checked: CheckedSession, index: number) => marks.add(checked, index);
    if (plan === 'sliced') return { result: await checkTextChunked(text, { ...options, onSession }, { sliceMs: SLICE_MS, signal }), marks: marks.marks };
    return { result: runCheck(text, uri, contracts, false, onSession), marks: marks.marks };
  }

  /** What this host offers a check under these contracts (the core's checkPlan decides from it). */
  host(contracts: ContractSet): CheckHost {
    return { worker: this.background.available && this.contracts.sourcesOf(contracts) !== undefined };
  }

  /** A large trace checked on a worker thread (checkPlan said one can run here). */
  private checkInBackground(doc: vscode.TextDocument, text: string, options: CheckOptions, optionsKey: string, contracts: ContractSet): void {
    const { key, stale, controller, done } = this.startRun(doc);
    const started = Date.now();
    void (async () => {
      try {
        // getText of a large document was this task's work: the worker starts in the next one
        await yieldToLoop();
        if (controller.signal.aborted) return;
        const { result, independent, marks, growing } = await this.backgroundCheck(text, options, controller.signal, undefined, true)!;
        if (stale()) {
          growing?.dispose?.();
          return;
        }
        this.publish(doc, { result, millis: Date.now() - started, marks, ...this.grown(growing, doc, text, optionsKey, contracts) });
        if (independent) this.buildLineTable(doc, text, result, options, optionsKey, contracts, true);
      } catch (e) {
        if (e instanceof Error && e.name === 'AbortError') return;
        const why = e instanceof Error ? e.message : String(e);
        console.error(`[Contract Guard] checking ${key} on a worker thread failed: ${why}`);
        if (stale()) return;
        // the worker could not run (its file missing, threads refused): check here rather than lose the result;
        // not after running out of memory, which the extension host would too
        if (/memory/i.test(why)) this.clear(doc.uri);
        else if (checkPlan(text, options.fileName, { worker: false }) === 'sliced') void this.checkInSlices(doc, text, options, optionsKey, contracts);
        else this.publish(doc, { result: runCheck(text, doc.uri, contracts, false), millis: Date.now() - started });
      } finally {
        done();
      }
    })();
  }

  /**
   * Book-keeping of a check that runs across tasks: it counts as running (settled() waits for it), a newer check
   * of the document aborts its controller, and `stale` says whether its result may still be published.
   */
  private startRun(doc: vscode.TextDocument): { key: string; stale: () => boolean; controller: AbortController; done: () => void } {
    const key = doc.uri.toString();
    const generation = this.generations.get(key);
    const version = doc.version;
    const controller = new AbortController();
    this.inFlight.set(key, controller);
    this.running++;
    return {
      key,
      controller,
      stale: () => doc.isClosed || doc.version !== version || this.generations.get(key) !== generation,
      done: () => {
        if (this.inFlight.get(key) === controller) this.inFlight.delete(key);
        this.running--;
      },
    };
  }

  /**
   * Where no worker thread can run (the web host), a large JSONL trace is fed to the checker line by line, yielding
   * to the extension host every few milliseconds so that it stays responsive; a newer check of the document, an edit
   * or a close drops it.
   */
  private async checkInSlices(doc: vscode.TextDocument, text: string, options: CheckOptions, optionsKey: string, contracts: ContractSet): Promise<void> {
    const { key, stale, controller, done } = this.startRun(doc);
    const started = Date.now();
    try {
      // whether every line is read on its own (then the line table needs no second pass)
      let independent = true;
      const result = await checkTextChunked(text, options, { sliceMs: SLICE_MS, signal: controller.signal, onLine: (line) => (independent &&= lineStandsAlone(line)) });
      if (stale()) return;
      this.publish(doc, { result, millis: Date.now() - started });
      if (!independent) this.buildGrowing(doc, text, result, options, optionsKey, contracts);
      if (independent) this.buildLineTable(doc, text, result, options, optionsKey, contracts, true);
    } catch (e) {
      if (e instanceof Error && e.name === 'AbortError') return;
      console.error(`[Contract Guard] checking ${key} failed`, e);
      if (!stale()) this.clear(doc.uri);
    } finally {
      done();
    }
  }

  /** A new generation for the document: checks of older generations still in flight are dropped. */
  private generation(key: string): number {
    this.inFlight.get(key)?.abort();
    this.inFlight.delete(key);
    const g = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, g);
    return g;
  }

  /** After a whole check of a JSONL trace: its line table, so that the next edit re-checks only what changed. */
  private buildLineTable(
    doc: vscode.TextDocument,
    text: string,
    result: CheckResult,
    options: CheckOptions,
    optionsKey: string,
    contracts: ContractSet,
    knownIndependent = false,
  ): void {
    if (result.format === undefined || !readsAsLines(text, options.fileName)) return;
    const key = doc.uri.toString();
    const version = doc.version;
    const stale = () => doc.isClosed || doc.version !== version || this.states.get(key)?.result !== result;
    if (knownIndependent) {
      // lines already vetted while they were read: the table is ready before the next edit can arrive
      void LineIndependentTrace.from(text, result, options, version, stale, true).then((table) => {
        const state = this.states.get(key);
        if (table && state && !stale()) Object.assign(state, { lines: table, key: optionsKey, contracts });
      });
      return;
    }
    // after the diagnostics are out, if the document did not move on meanwhile
    const build = async () => {
      if (stale()) return;
      this.running++;
      try {
        const table = await LineIndependentTrace.from(text, result, options, version, stale);
        const state = this.states.get(key);
        if (!table || stale() || !state) return;
        state.lines = table;
        state.key = optionsKey;
        state.contracts = contracts;
      } finally {
        this.running--;
      }
    };
    setTimeout(() => void build(), 0);
  }

  /** After a whole check in this thread of a trace read line by line: its growing trace, built in slices after the
   *  diagnostics are out, so that lines appended later are checked from it. */
  private buildGrowing(doc: vscode.TextDocument, text: string, result: CheckResult, options: CheckOptions, optionsKey: string, contracts: ContractSet): void {
    if (result.format === undefined || !readsAsLines(text, options.fileName)) return;
    const key = doc.uri.toString();
    const version = doc.version;
    const stale = () => doc.isClosed || doc.version !== version || this.states.get(key)?.result !== result;
    const build = async () => {
      if (stale()) return;
      this.running++;
      try {
        const trace = await growingTrace(text, options, { sliceMs: SLICE_MS });
        const state = this.states.get(key);
        if (trace && state && !stale()) Object.assign(state, this.grown(trace, doc, text, optionsKey, contracts));
      } finally {
        this.running--;
      }
    };
    setTimeout(() => void build(), 0);
  }

  private publish(doc: vscode.TextDocument, state: Omit<TraceState, 'version' | 'counts'>): void {
    const { result } = state;
    // a growing trace replaced by another (or by none) is let go: one on a worker thread ends that thread
    const before = this.states.get(doc.uri.toString())?.growing;
    if (before && before !== state.growing) before.dispose?.();
    if (result.format === undefined) {
      this.clear(doc.uri);
      this.noteUnread(doc, result);
      return;
    }
    this.unread.delete(doc.uri.toString());
    const map = this.severity();
    const diagnostics = toDiagnostics(result.findings, doc.uri, doc, map, (p, span) => this.contracts.locate(p, span));
    this.states.set(doc.uri.toString(), { ...state, version: doc.version, counts: countFindings(result.findings, map) });
    this.collection.set(doc.uri, diagnostics);
    this.changed.fire(doc.uri);
  }

  /** Never silent: a document no reader read that still looks like a trace is remembered, for the status items. */
  private noteUnread(doc: vscode.TextDocument, result: CheckResult): void {
    const head = doc.getText(new vscode.Range(new vscode.Position(0, 0), doc.positionAt(TRACE_HEAD_CHARS)));
    const sign = traceLike(head, doc.uri.path);
    if (sign === undefined) return;
    const parseErrors = result.findings.filter((f) => f.code === 'parse-error').length;
    this.unread.set(doc.uri.toString(), { sign, readAs: readAsFor(doc.uri), parseErrors });
    this.changed.fire(doc.uri);
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    this.states.get(key)?.growing?.dispose?.();
    const had = [this.states.delete(key), this.unread.delete(key), this.collection.has(uri)].includes(true);
    this.collection.delete(uri);
    if (had) this.changed.fire(uri);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.delete(key);
    this.inFlight.get(key)?.abort();
    this.inFlight.delete(key);
    this.clear(uri);
  }

  /** Whether a finding is shown at all (its code is not switched off). */
  shown(f: Finding): boolean {
    return severityOf(f, this.severity()) !== undefined;
  }

  /** Whether any check is waiting for its debounce or running in slices. */
  get busy(): boolean {
    return this.timers.size > 0 || this.running > 0;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const c of this.inFlight.values()) c.abort();
    this.background.dispose();
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}
