// One decision table panel per trace, reused. The page is static HTML (webviewHtml.ts: a fresh nonce per load, a CSP
// of default-src 'none', script and styles from dist/webview and media). The table travels by postMessage after the
// page says it is ready, in chunks, never inside the HTML.
import * as vscode from 'vscode';
import { rowAt, type ContractSet, type DecisionTable, type TableRow } from '../../core';
import type { FromPage, Item, PageState, ToPage } from '../../webview/protocol';
import { hasProvisional, metaOf, provisionalTable, tableFor, toItems, type FixtureCache, type LiveModel } from './data';
import { renderTableMarkdown } from '../../core';
import { webviewHtml } from '../webviewHtml';

export const VIEW_TYPE = 'contractGuard.decisionTable';
/** Items in the first message: enough for the first screens; the rest follows in chunks. */
const FIRST_CHUNK = 400;
const CHUNK = 2000;

export interface PanelDeps {
  extensionUri: vscode.Uri;
  contracts(): ContractSet | undefined;
  ready: Promise<unknown>;
  live: LiveModel;
  fixtures: FixtureCache;
}

type Computed = { table: DecisionTable; items: Item[]; timings: Record<string, number> } | { error: string };

export class TablePanel implements vscode.Disposable {
  private table: DecisionTable | undefined;
  private generation = 0;
  private pageReady = false;
  private highlighted: string | undefined;
  private pendingScroll: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private building: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  /** When the command ran and when the page first showed rows (for the 10,000-call measurement). */
  openedAt = Date.now();
  firstRowsMillis: number | undefined;
  private readyMillis: number | undefined;
  private early: Promise<Computed | undefined> | undefined;
  private onRendered: (() => void) | undefined;
  private isDisposed = false;
  /** The page shows the first screens from the last check; the table is on its way. */
  private provisional = false;
  /** The computation started with the panel has finished. */
  private earlyDone = false;

  constructor(readonly panel: vscode.WebviewPanel, readonly uri: vscode.Uri, private readonly deps: PanelDeps) {
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(deps.extensionUri, 'media')],
    };
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'icon.png');
    this.setTitle();
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: FromPage) => this.receive(m)),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document.uri.toString() === uri.toString()) this.follow(e.textEditor);
      }),
    );
    panel.webview.html = this.html();
    // after a macrotask, so the messages that create the webview leave the extension host before the check runs
    // (not when the first screens can come from the last check: the worker's check would then only compete with the
    // page's start for the CPU; it starts once those rows are drawn)
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!open || !hasProvisional(open, deps.live)) {
      this.early = new Promise((r) => setTimeout(r, 0))
        .then(() => this.compute())
        .finally(() => (this.earlyDone = true));
    }
  }

  private setTitle(): void {
    const name = this.uri.path.slice(this.uri.path.lastIndexOf('/') + 1);
    this.panel.title = `Decision table: ${name}`;
  }

  private html(): string {
    // Static markup only: nothing from the trace is in here.
    return webviewHtml(this.panel.webview, this.deps.extensionUri, { title: 'Decision table', script: 'table.js', styles: ['webview.css', 'table.css'], body: `<header>
  <h1 id="title">Decision table</h1>
  <div class="meta" id="meta">loading…</div>
  <div class="toolbar">
    <label>Code <select id="filter-code" aria-label="Filter by code"></select></label>
    <label>Tool <select id="filter-tool" aria-label="Filter by tool"></select></label>
    <label><input type="checkbox" id="filter-failing"> Failing only</label>
    <input type="search" id="filter-text" placeholder="Filter arguments" aria-label="Filter by text in the arguments" spellcheck="false">
    <button id="copy-md" title="Copy the table as Markdown (gates and failing calls)">Copy as Markdown</button>
    <span id="count"></span>
    <span id="loading">loading…</span>
  </div>
</header>
<div id="error" hidden></div>
<details id="census"><summary id="census-summary">Key shapes</summary><table><tbody id="census-body"></tbody></table></details>
<div id="other-box" hidden>Not about one call: <ul id="other"></ul></div>
<div id="rows" tabindex="0" role="grid" aria-label="Calls and gates"><div id="head" role="row"></div><div id="spacer"></div></div>
<div id="empty" hidden>No call matches the filters.</div>
<section id="detail" aria-live="polite" hidden></section>` });
  }

  reveal(column?: vscode.ViewColumn, scrollTo?: string): void {
    this.pendingScroll = scrollTo;
    this.panel.reveal(column ?? this.panel.viewColumn, true);
    if (scrollTo && this.pageReady && this.table) {
      this.post({ type: 'scrollTo', key: scrollTo });
      this.pendingScroll = undefined;
    }
  }

  /** Rebuild soon (an edit, a contract change, a fixture change). */
  schedule(delay = 150): void {
    if (this.isDisposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, delay);
  }

  private async receive(m: FromPage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.pageReady = true;
        this.readyMillis ??= Date.now() - this.openedAt;
        await this.refresh();
        break;
      case 'reveal':
        await this.revealCall(m.session, m.index);
        break;
      case 'copyMarkdown':
        await this.copyMarkdown();
        break;
      case 'rendered':
        if (this.firstRowsMillis === undefined) this.firstRowsMillis = Date.now() - this.openedAt;
        this.onRendered?.();
        this.onRendered = undefined;
        break;
    }
  }

  private post(m: ToPage): void {
    if (!this.isDisposed) void this.panel.webview.postMessage(m);
  }

  async refresh(): Promise<void> {
    if (!this.pageReady) {
      this.early = undefined; // stale: computed again when the page is ready
      return;
    }
    if (this.building) {
      this.schedule(50);
      return;
    }
    this.building = this.build().finally(() => (this.building = undefined));
    return this.building;
  }

  /** Check and build the table (started at once when the panel opens, while the page is still loading). */
  private async compute(): Promise<Computed | undefined> {
    await this.deps.ready;
    const contracts = this.deps.contracts();
    if (!contracts) return undefined;
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(this.uri);
    } catch (e) {
      return { error: `Cannot open ${this.uri.toString(true)}: ${(e as Error).message}` };
    }
    const timings: Record<string, number> = {};
    const table = await tableFor(doc, contracts, this.deps.live, this.deps.fixtures, timings, () => this.schedule(0));
    const t = Date.now();
    const items = await toItems(table);
    timings.items = Date.now() - t;
    timings.computed = Date.now() - this.openedAt;
    return { table, items, timings };
  }

  /** The table as Markdown on the clipboard (the core's rendering, as `contract-guard table --format markdown`). */
  private async copyMarkdown(): Promise<void> {
    if (!this.table || this.provisional) {
      void vscode.window.showInformationMessage('Contract Guard: the table is still being built.');
      return;
    }
    const doc = await vscode.workspace.openTextDocument(this.uri);
    const at = (offset: number) => {
      const p = doc.positionAt(offset);
      return { line: p.line + 1, column: p.character + 1 };
    };
    await vscode.env.clipboard.writeText(renderTableMarkdown(vscode.workspace.asRelativePath(this.uri, false), this.table, at));
    vscode.window.setStatusBarMessage('$(clippy) Decision table copied as Markdown', 4000);
  }

  /** The first screens from the last check while the table of a large trace is built on the worker thread. */
  private async sendProvisional(): Promise<boolean> {
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(this.uri);
    } catch {
      return false; // compute() says why
    }
    const quick = provisionalTable(doc, this.deps.live, FIRST_CHUNK);
    if (!quick || this.table) return false;
    this.provisional = true;
    const generation = ++this.generation;
    const timings = { provisional: 1, ready: this.readyMillis ?? -1, openedAt: this.openedAt };
    const meta = metaOf(this.uri.toString(), vscode.workspace.asRelativePath(this.uri, false), quick.table, quick.total, generation, timings);
    this.post({ type: 'table', meta: { ...meta, provisional: true }, items: quick.items, done: false });
    return true;
  }

  private async build(): Promise<void> {
    const early = this.early;
    this.early = undefined;
    // the first screens from the last check, unless the table itself is ready already; the table is built once the
    // page has drawn them (or after a moment)
    if (!this.table && !this.earlyDone) {
      const drawn = new Promise<void>((resolve) => (this.onRendered = resolve));
      if (await this.sendProvisional()) await Promise.race([drawn, new Promise((r) => setTimeout(r, 400))]);
    }
    const computed = await (early ?? this.compute());
    if (!computed) return;
    if ('error' in computed) {
      this.post({ type: 'error', message: computed.error });
      return;
    }
    const { table, items, timings } = computed;
    this.table = table;
    this.provisional = false;
    timings.ready = this.readyMillis ?? -1;
    timings.openedAt = this.openedAt; // epoch ms: the page's first draw (same clock) minus this is command to rows
    const generation = ++this.generation;
    const meta = metaOf(this.uri.toString(), vscode.workspace.asRelativePath(this.uri, false), table, items.length, generation, timings);
    const drawn = new Promise<void>((resolve) => (this.onRendered = resolve));
    this.post({ type: 'table', meta, items: items.slice(0, FIRST_CHUNK), done: items.length <= FIRST_CHUNK });
    // the rest in chunks once the page has drawn the first rows (or after a moment), so they do not queue behind
    if (items.length > FIRST_CHUNK) await Promise.race([drawn, new Promise((r) => setTimeout(r, 400))]);
    for (let at = FIRST_CHUNK; at < items.length; at += CHUNK) {
      await new Promise((r) => setTimeout(r, 0));
      if (generation !== this.generation) return;
      this.post({ type: 'rows', generation, items: items.slice(at, at + CHUNK), done: at + CHUNK >= items.length });
    }
    if (this.pendingScroll) {
      this.post({ type: 'scrollTo', key: this.pendingScroll });
      this.pendingScroll = undefined;
    }
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri.toString());
    this.highlighted = undefined;
    if (editor) this.follow(editor);
  }

  private row(session: number, index: number): TableRow | undefined {
    for (const t of this.table?.turns ?? []) {
      if (t.session !== session) continue;
      const r = t.rows.find((x) => x.index === index);
      if (r) return r;
    }
    return undefined;
  }

  /** Reveal and select the call in the editor (beside the table, or where the trace is open). */
  async revealCall(session: number, index: number): Promise<void> {
    const r = this.row(session, index);
    if (!r) return;
    const doc = await vscode.workspace.openTextDocument(this.uri);
    const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri.toString());
    const column = open?.viewColumn ?? (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: column, preserveFocus: false, preview: false });
    const range = new vscode.Range(doc.positionAt(r.span.start), doc.positionAt(r.span.end));
    this.highlighted = `${r.session}:${r.index}`;
    this.post({ type: 'highlight', key: this.highlighted });
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /** The editor's cursor moved: highlight the call under it. */
  private follow(editor: vscode.TextEditor): void {
    if (!this.table || !this.pageReady) return;
    const r = rowAt(this.table, editor.document.offsetAt(editor.selection.active));
    const key = r && `${r.session}:${r.index}`;
    if (key === this.highlighted) return;
    this.highlighted = key;
    this.post({ type: 'highlight', key });
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.disposed.fire();
    this.disposed.dispose();
  }
}

export function isPageState(v: unknown): v is PageState {
  return typeof v === 'object' && v !== null && typeof (v as PageState).uri === 'string' && (v as PageState).uri !== '';
}
