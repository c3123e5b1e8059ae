// One compare panel per pair of runs (opened again, it is revealed and compared afresh). The page is static HTML
// (webviewHtml.ts: a fresh nonce per load, a CSP of default-src 'none', script and styles from dist/webview and media). The comparison travels by postMessage once the page says it is ready, never inside the HTML.
// Checking both runs runs under a cancellable progress notification, on the compare threads (runs.ts).
import * as vscode from 'vscode';
import type { ContractSet } from '../../core';
import type { ContractSources } from '../background';
import type { FreezeOutcome } from '../fixtures/freeze';
import type { CompareView, ComparePageState, FromPage, PageReport, ToPage } from '../../webview/compare-protocol';
import { collectSide, relPath, type CollectedSide, type SideInput, type SideProgress } from './runs';
import { buildView, type Place } from './view';
import { webviewHtml } from '../webviewHtml';

export const COMPARE_VIEW_TYPE = 'contractGuard.compare';
const FREEZE_COMMAND = 'contractGuard.freezeCall';

export interface CompareInput {
  a: SideInput;
  b: SideInput;
  /** Show mock coverage (A is the fixtures). Also on when every file A read was a frozen fixture. */
  coverage: boolean;
}

export interface PanelDeps {
  extensionUri: vscode.Uri;
  ready: Promise<unknown>;
  contracts(): ContractSet | undefined;
  sourcesOf(set: ContractSet): ContractSources | undefined;
  isContract: (uri: vscode.Uri) => boolean;
  workerFile?: string;
}

export function inputKey(input: CompareInput): string {
  const side = (s: SideInput) => s.uris.map((u) => u.toString()).join('\n');
  return `${side(input.a)}\u0000${side(input.b)}\u0000${input.coverage}`;
}

export function pageState(input: CompareInput): ComparePageState {
  return { a: input.a.uris.map(String), b: input.b.uris.map(String), fixtures: input.coverage };
}

export class ComparePanel implements vscode.Disposable {
  /** The last comparison sent to the page, and what the page reported it shows (for the tests). */
  view: CompareView | undefined;
  report: PageReport | undefined;
  /** Where each side was checked: on a compare thread, or in the extension host. */
  threads: { a: boolean; b: boolean } | undefined;
  /** Resolves when the compare is done (or failed, or was cancelled): with the error message if it did not finish. */
  readonly done: Promise<string | undefined>;
  private places: Place[] = [];
  /** Freezes done from this comparison's page: shown again when the page is loaded again (a hidden tab's page is). */
  private readonly frozen = new Map<number, Extract<ToPage, { type: 'frozen' }>>();
  private pageReady = false;
  private generation = 0;
  private cancel: AbortController | undefined;
  private readonly waiters: { generation: number; resolve(r: PageReport): void }[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  private isDisposed = false;
  private lastProgress = '';
  private failure: string | undefined;

  constructor(readonly panel: vscode.WebviewPanel, readonly input: CompareInput, private readonly deps: PanelDeps) {
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(deps.extensionUri, 'media')],
    };
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'icon.png');
    panel.title = `Compare: ${this.short(input.a)} ↔ ${this.short(input.b)}`;
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: FromPage) => this.receive(m)),
    );
    panel.webview.html = this.html();
    this.done = this.compare();
  }

  private short(side: SideInput): string {
    if (side.uris.length !== 1) return `${side.uris.length} paths`;
    const p = side.uris[0].path.replace(/\/+$/, '');
    return p.slice(p.lastIndexOf('/') + 1) || p;
  }

  private html(): string {
    // Static markup only: nothing from a trace, nor a file name, is in here.
    return webviewHtml(this.panel.webview, this.deps.extensionUri, { title: 'Compare runs', script: 'compare.js', styles: ['webview.css', 'compare.css'], body: `<header>
  <h1>Compare runs</h1>
  <div id="verdict" role="status"></div>
  <div id="progress" aria-live="polite">waiting for the runs…</div>
</header>
<div id="error" role="alert" hidden></div>
<main id="main" hidden>
  <section class="sides" aria-label="The two runs"><div class="side" id="side-a"></div><div class="side" id="side-b"></div></section>
  <details id="sec-coverage" data-section="coverage" open hidden>
    <summary id="coverage-summary">Mock coverage</summary>
    <p class="hint" id="coverage-hint"></p>
    <div id="coverage"></div>
  </details>
  <details id="sec-shapes" data-section="shapes" open>
    <summary id="shapes-summary">Key shapes</summary>
    <label class="toolbar"><input type="checkbox" id="changes-only"> Changes only</label>
    <div class="table-scroll"><table class="shapes">
      <thead><tr><th scope="col">Tool · key shape</th><th scope="col" id="head-a">A</th><th scope="col" id="head-b">B</th><th scope="col">Verdict</th><th scope="col">Example (B, else A)</th></tr></thead>
      <tbody id="shapes-body"></tbody>
    </table></div>
    <div id="shapes-more"></div>
  </details>
  <details id="sec-new" data-section="new" open><summary id="new-summary">New findings</summary><ul class="findings" id="new"></ul><div id="new-more"></div></details>
  <details id="sec-fixed" data-section="fixed" open><summary id="fixed-summary">Fixed findings</summary><ul class="findings" id="fixed"></ul><div id="fixed-more"></div></details>
  <details id="sec-unchanged" data-section="unchanged"><summary id="unchanged-summary">Unchanged findings</summary><ul class="findings" id="unchanged"></ul><div id="unchanged-more"></div></details>
</main>` });
  }

  private post(m: ToPage): void {
    if (!this.isDisposed) void this.panel.webview.postMessage(m);
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn, false);
  }

  /** Compare the runs again (the command run again on the same pair). */
  rerun(): Promise<string | undefined> {
    return this.compare();
  }

  private progress(which: 'A' | 'B', p: SideProgress, report: (m: { message: string; increment?: number }) => void, state: { at: number; last: number }): void {
    const share = p.total ? ((p.done / p.total) * 50) : 50;
    const now = Date.now();
    if (now - state.last < 100 && p.done !== p.total) return;
    state.last = now;
    const at = (which === 'B' ? 50 : 0) + share;
    const message = p.file ? `${which}: ${p.done + 1}/${p.total} ${p.file}` : `${which}: ${p.total} file${p.total === 1 ? '' : 's'} checked`;
    report({ message, increment: at - state.at });
    state.at = at;
    this.lastProgress = `Checking ${message}`;
    this.post({ type: 'progress', message: this.lastProgress });
  }

  private async compare(): Promise<string | undefined> {
    this.cancel?.abort();
    const controller = new AbortController();
    this.cancel = controller;
    const started = Date.now();
    this.failure = undefined;
    try {
      const built = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Contract Guard: comparing runs', cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          await this.deps.ready;
          const contracts = this.deps.contracts();
          if (!contracts) throw new Error('the workspace contracts are not loaded');
          const deps = { contracts, sources: this.deps.sourcesOf(contracts), workerFile: this.deps.workerFile, isContract: this.deps.isContract };
          const state = { at: 0, last: 0 };
          const a = await collectSide(this.input.a, deps, controller.signal, (p) => this.progress('A', p, (m) => progress.report(m), state), token);
          const b = await collectSide(this.input.b, deps, controller.signal, (p) => this.progress('B', p, (m) => progress.report(m), state), token);
          this.threads = { a: a.thread, b: b.thread };
          return this.build(a, b, started);
        },
      );
      this.view = built.view;
      this.places = built.places;
      this.frozen.clear();
      this.lastProgress = '';
      if (this.pageReady) this.post({ type: 'compare', view: built.view });
      return undefined;
    } catch (e) {
      const cancelled = e instanceof Error && e.name === 'AbortError';
      this.failure = cancelled ? 'Cancelled: the runs were not compared.' : `The runs could not be compared: ${e instanceof Error ? e.message : String(e)}`;
      if (this.pageReady) this.post({ type: 'error', message: this.failure });
      return this.failure;
    } finally {
      if (this.cancel === controller) this.cancel = undefined;
    }
  }

  private build(a: CollectedSide, b: CollectedSide, started: number): ReturnType<typeof buildView> {
    const coverage = this.input.coverage || a.allFixtures;
    return buildView(a, b, { coverage, generation: ++this.generation, millis: Date.now() - started });
  }

  private async receive(m: FromPage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.pageReady = true;
        this.post({ type: 'runs', state: pageState(this.input) });
        if (this.view) {
          this.post({ type: 'compare', view: this.view });
          for (const m of this.frozen.values()) this.post(m);
        } else if (this.failure) this.post({ type: 'error', message: this.failure });
        else if (this.lastProgress) this.post({ type: 'progress', message: this.lastProgress });
        break;
      case 'reveal':
        await this.revealPlace(m.ref);
        break;
      case 'freeze':
        await this.freeze(m.ref);
        break;
      case 'rendered':
        this.report = m.report;
        for (let i = this.waiters.length - 1; i >= 0; i--) {
          if (this.waiters[i].generation <= m.report.generation) this.waiters.splice(i, 1)[0].resolve(m.report);
        }
        break;
    }
  }

  /** What the page shows once it has drawn the comparison of this generation (or a later one). */
  rendered(generation = this.generation): Promise<PageReport> {
    if (this.report && this.report.generation >= generation) return Promise.resolve(this.report);
    return new Promise((resolve) => this.waiters.push({ generation, resolve }));
  }

  /** The column a revealed call opens in: where the file is already shown, else the other side of the panel. */
  private column(uri: vscode.Uri): vscode.ViewColumn {
    const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    return open?.viewColumn ?? (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
  }

  async revealPlace(ref: number): Promise<vscode.TextEditor | undefined> {
    const place = this.places[ref];
    if (!place) return undefined;
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(place.uri);
    } catch (e) {
      void vscode.window.showWarningMessage(`Contract Guard: cannot open ${relPath(place.uri)}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    const range = place.kind === 'call'
      ? new vscode.Range(doc.positionAt(place.call.span.start), doc.positionAt(place.call.span.end))
      : new vscode.Range(place.line - 1, place.column - 1, place.endLine - 1, place.endColumn - 1);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: this.column(place.uri), preserveFocus: false, preview: false });
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return editor;
  }

  /** Freeze the example call of an uncovered shape through the fixtures' own path (which never overwrites). */
  async freeze(ref: number): Promise<FreezeOutcome | undefined> {
    const place = this.places[ref];
    if (!place || place.kind !== 'call' || !place.freezable) return undefined;
    const call = { session: place.call.session, index: place.call.index, tool: place.tool, offset: place.call.span.start };
    let outcome: FreezeOutcome | undefined;
    try {
      outcome = await vscode.commands.executeCommand<FreezeOutcome | undefined>(FREEZE_COMMAND, place.uri, call, { quiet: true });
    } catch (e) {
      void vscode.window.showWarningMessage(`Contract Guard: the call could not be frozen: ${e instanceof Error ? e.message : String(e)}`);
    }
    const message = { type: 'frozen', ref, status: outcome?.status ?? 'failed', path: outcome ? relPath(vscode.Uri.parse(outcome.uri)) : '' } as const;
    if (outcome) this.frozen.set(ref, message);
    this.post(message);
    return outcome;
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.cancel?.abort();
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.disposed.fire();
    this.disposed.dispose();
  }
}
