// Workspace contracts: discovered by the `contractGuard.contracts` globs, read through vscode.workspace.fs (or the
// open editor's text while a contract is being edited), watched, and checked themselves: a broken contract file gets
// diagnostics of its own instead of breaking anything else.
import * as vscode from 'vscode';
import { loadContracts, type ContractFinding, type ContractSet } from '../core';
import type { ContractSources } from './background';
import { decode, EditorLines, rangeOf } from './lines';
import { excludeGlob, globOf, readSettings } from './settings';
import { toDiagnostics, type SeverityMap } from './convert';

export type Contracts = ContractSet;

export interface ContractFile {
  uri: vscode.Uri;
  /** The path handed to the core (workspace-relative), which its findings and related information use. */
  path: string;
  text: string;
  lines?: EditorLines;
}

export class ContractStore implements vscode.Disposable {
  private files = new Map<string, ContractFile>(); // by uri string
  private byPath = new Map<string, ContractFile>();
  private current: Contracts | undefined;
  private findings: ContractFinding[] = [];
  private watchers: vscode.Disposable[] = [];
  private disposables: vscode.Disposable[] = [];
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private loading: Promise<void> | undefined;
  private generation = 0;
  /** What each loaded set was compiled from: a background check compiles it again on its own thread. */
  private readonly sources = new WeakMap<ContractSet, ContractSources>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the contracts were (re)loaded. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly collection: vscode.DiagnosticCollection, private readonly severity: () => SeverityMap) {
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && this.isContract(e.document)) this.scheduleReload(300);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        // unsaved edits are gone: read the file again
        if (this.isContract(d)) this.scheduleReload(0);
      }),
    );
    this.watch();
  }

  get contracts(): Contracts | undefined {
    return this.current;
  }

  /** Whether this document is a contract file (known, or matching the contract globs). */
  isContract(doc: vscode.TextDocument): boolean {
    if (this.files.has(doc.uri.toString())) return true;
    const globs = readSettings(doc.uri).contracts;
    return globs.some((pattern) => vscode.languages.match({ pattern }, doc) > 0);
  }

  /** The files and profile a set was loaded from (undefined for a set not loaded here). */
  sourcesOf(set: ContractSet): ContractSources | undefined {
    return this.sources.get(set);
  }

  file(path: string): ContractFile | undefined {
    return this.byPath.get(path);
  }

  get fileCount(): number {
    return this.files.size;
  }

  /** (Re)discover contract files, watch them, and load. */
  rewatch(): Promise<void> {
    this.watch();
    return this.reload();
  }

  private watch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    const w = vscode.workspace.createFileSystemWatcher(globOf(readSettings().contracts));
    w.onDidCreate(() => this.scheduleReload(100));
    w.onDidChange(() => this.scheduleReload(100));
    w.onDidDelete(() => this.scheduleReload(100));
    this.watchers.push(w);
  }

  scheduleReload(delay: number): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      void this.reload();
    }, delay);
  }

  /** Load now; concurrent calls share the newest load. Resolves when contracts and their diagnostics are current. */
  reload(): Promise<void> {
    const gen = ++this.generation;
    const run = (async () => {
      const settings = readSettings();
      const uris = await vscode.workspace.findFiles(globOf(settings.contracts), excludeGlob());
      const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
      const files: ContractFile[] = [];
      // A frozen fixture (*.fixture.json) is not a contract, even in a folder the contract globs match.
      for (const uri of uris.filter((u) => !/\.fixture\.json$/i.test(u.path)).sort((a, b) => a.toString().localeCompare(b.toString()))) {
        let text: string;
        const doc = open.get(uri.toString());
        try {
          text = doc ? doc.getText() : decode(await vscode.workspace.fs.readFile(uri));
        } catch {
          continue; // deleted in between
        }
        files.push({ uri, path: vscode.workspace.asRelativePath(uri), text });
      }
      if (gen !== this.generation) return; // a newer load is under way
      const sources = { files: files.map((f) => ({ path: f.path, text: f.text })), profile: settings.profile };
      const loaded = loadContracts(sources.files, sources.profile);
      this.sources.set(loaded.contracts, sources);
      this.files = new Map(files.map((f) => [f.uri.toString(), f]));
      this.byPath = new Map(files.map((f) => [f.path, f]));
      this.current = loaded.contracts;
      this.findings = loaded.findings;
      this.publish();
      this.changed.fire();
    })();
    this.loading = run.catch((e) => {
      console.error('[Contract Guard] loading contracts failed', e);
    });
    return this.loading;
  }

  /** Waits until no load is scheduled or running. */
  async settled(): Promise<void> {
    for (;;) {
      if (this.reloadTimer) {
        await new Promise((r) => setTimeout(r, 25));
        continue;
      }
      const loading = this.loading;
      await loading;
      if (!this.reloadTimer && loading === this.loading) return;
    }
  }

  /** Diagnostics on the contract files themselves. */
  publish(): void {
    this.collection.clear();
    const severity = this.severity();
    const byFile = new Map<ContractFile, ContractFinding['finding'][]>();
    for (const { path, finding } of this.findings) {
      const file = this.byPath.get(path);
      if (!file) continue;
      const list = byFile.get(file) ?? [];
      list.push(finding);
      byFile.set(file, list);
    }
    for (const [file, findings] of byFile) {
      const list = toDiagnostics(findings, file.uri, this.positioner(file), severity, (p, span) => this.locate(p, span));
      if (list.length) this.collection.set(file.uri, list);
    }
  }

  private positioner(file: ContractFile) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.uri.toString());
    if (doc && doc.getText() === file.text) return doc;
    file.lines ??= new EditorLines(file.text);
    return file.lines;
  }

  /** A location in a contract file, for related information. */
  locate(path: string, span?: { start: number; end: number }): vscode.Location | undefined {
    const file = this.byPath.get(path);
    if (!file) return undefined;
    return new vscode.Location(file.uri, rangeOf(this.positioner(file), span ?? { start: 0, end: 0 }));
  }

  dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    for (const d of [...this.watchers, ...this.disposables]) d.dispose();
    this.changed.dispose();
  }
}
