// The workspace's traces as their last check left them: calls, sessions, findings and call marks per file, for the
// Contract Guard view and Go to Symbol in Workspace. An open trace's entry is its live check (diagnostics.ts); the
// others are read once, when the view or a workspace symbol search first needs them, and again when the file
// changes on disk or the contracts change. A large file is checked on a worker thread, as the live check does.
import * as vscode from 'vscode';
import { checkTextChunked, yieldToLoop, type FileResult, type Finding, type CallMark } from '../core';
import { marksOf } from './callMarks';
import { BACKGROUND_CHECK_SIZE, checkOptions, runCheck, type TraceDiagnostics } from './diagnostics';
import type { ContractStore } from './contracts';
import { isEvalFile } from './evalView';
import { decode } from './lines';
import { excludeGlob, globOf, readSettings } from './settings';

export interface TraceEntry {
  uri: vscode.Uri;
  format: string;
  calls: number;
  sessions: number;
  findings: readonly Finding[];
  /** The first calls (MAX_MARKS): where they are, their tools and arguments. */
  marks: readonly CallMark[];
}

function entryOf(uri: vscode.Uri, result: FileResult, marks: readonly CallMark[]): TraceEntry | undefined {
  return result.format === undefined ? undefined : { uri, format: result.format, calls: result.calls, sessions: result.sessions, findings: result.findings, marks };
}

export class TraceIndex implements vscode.Disposable {
  private readonly traces = new Map<string, TraceEntry>();
  private scanned: Promise<void> | undefined;
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri | undefined>();
  /** Fires when an entry changed (its URI), or many did (undefined). */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;

  constructor(
    private readonly live: TraceDiagnostics,
    private readonly contracts: ContractStore,
  ) {
    this.disposables.push(
      live.onDidCheck((uri) => this.fromLive(uri)),
      contracts.onDidChange(() => {
        if (!this.scanned) return;
        // every closed trace was checked under the old contracts
        this.scanned = undefined;
        void this.scan();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        // an unsaved edit is gone with the document: the file on disk is what counts again
        if (this.scanned && this.traces.has(d.uri.toString())) this.later(d.uri);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('contractGuard.traces') && this.scanned) {
          this.watcher?.dispose();
          this.watcher = undefined;
          this.scanned = undefined;
          void this.scan();
        }
      }),
    );
  }

  entries(): TraceEntry[] {
    return [...this.traces.values()].sort((a, b) => (a.uri.path < b.uri.path ? -1 : a.uri.path > b.uri.path ? 1 : 0));
  }

  get(uri: vscode.Uri): TraceEntry | undefined {
    return this.traces.get(uri.toString());
  }

  /** Read the workspace's traces once (later calls wait for the same scan); watched for changes after. */
  scan(token?: vscode.CancellationToken): Promise<void> {
    this.scanned ??= this.scanAll();
    if (!token) return this.scanned;
    // a cancelled request stops waiting, not the scan
    return Promise.race([this.scanned, new Promise<void>((r) => token.onCancellationRequested(() => r()))]);
  }

  /** A file "Check Workspace Contracts" just checked: its entry, as reading it here would have made it. */
  accept(uri: vscode.Uri, result: FileResult, marks: readonly CallMark[]): void {
    if (this.isOpenTrace(uri) || !this.isTrace(uri)) return; // an open document's live check is newer
    const key = uri.toString();
    const entry = entryOf(uri, result, marks);
    if (entry) this.traces.set(key, entry);
    else if (!this.traces.delete(key)) return;
    this.changed.fire(uri);
  }

  /** "Check Workspace Contracts" went through every trace: the view needs no scan of its own, only the watcher. */
  covered(): void {
    if (this.scanned) return;
    this.watch(globOf(readSettings().traces));
    this.scanned = Promise.resolve();
    this.changed.fire(undefined);
  }

  private watch(globs: string): void {
    if (this.watcher) return;
    this.watcher = vscode.workspace.createFileSystemWatcher(globs);
    this.watcher.onDidCreate((u) => this.later(u));
    this.watcher.onDidChange((u) => this.later(u));
    this.watcher.onDidDelete((u) => {
      if (this.traces.delete(u.toString())) this.changed.fire(u);
    });
  }

  private async scanAll(): Promise<void> {
    const globs = globOf(readSettings().traces);
    this.watch(globs);
    const uris = await vscode.workspace.findFiles(globs, excludeGlob());
    for (const uri of uris) {
      if (!this.isOpenTrace(uri)) await this.read(uri, false);
    }
    this.changed.fire(undefined);
  }

  /** A file changed on disk: read it again soon (several events of one save make one read). */
  private later(uri: vscode.Uri): void {
    const key = uri.toString();
    const t = this.pending.get(key);
    if (t) clearTimeout(t);
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        if (!this.isOpenTrace(uri)) void this.read(uri, true);
      }, 300),
    );
  }

  /** An open document's live check is newer than anything on disk. */
  private isOpenTrace(uri: vscode.Uri): boolean {
    return this.live.state(uri) !== undefined;
  }

  private fromLive(uri: vscode.Uri): void {
    const state = this.live.state(uri);
    const entry = state && entryOf(uri, state.result, marksOf(state.result, state.marks));
    if (!entry) return;
    this.traces.set(uri.toString(), entry);
    this.changed.fire(uri);
  }

  /** A contract or a fixture is not a trace; an .eval is read through its JSON view (when it is opened). */
  private isTrace(uri: vscode.Uri): boolean {
    return !this.contracts.file(vscode.workspace.asRelativePath(uri)) && !/\.fixture\.json$/i.test(uri.path) && !isEvalFile(uri) && readSettings(uri).enable;
  }

  private async read(uri: vscode.Uri, announce: boolean): Promise<void> {
    const key = uri.toString();
    const set = this.contracts.contracts;
    if (!set || !this.isTrace(uri)) return;
    try {
      const text = decode(await vscode.workspace.fs.readFile(uri));
      await yieldToLoop();
      const options = checkOptions(uri, set);
      const off = text.length > BACKGROUND_CHECK_SIZE ? this.live.backgroundCheck(text, options) : undefined;
      let entry: TraceEntry | undefined;
      if (off) {
        const { result, marks } = await off;
        entry = entryOf(uri, result, marks);
      } else if (text.length > BACKGROUND_CHECK_SIZE) {
        // no worker thread here (the web): in slices, the host kept responsive
        const result = await checkTextChunked(text, { ...options, keepModel: true }, { sliceMs: 20 });
        entry = entryOf(uri, result, marksOf(result));
      } else {
        const result = runCheck(text, uri, set, true);
        // the model goes; its marks stay
        entry = entryOf(uri, result, marksOf(result));
      }
      if (this.isOpenTrace(uri)) return; // opened meanwhile: the live check wins
      if (entry) this.traces.set(key, entry);
      else if (!this.traces.delete(key)) return;
    } catch {
      // unreadable (gone since the search, a directory): not a trace
      if (!this.traces.delete(key)) return;
    }
    if (announce) this.changed.fire(uri);
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    this.watcher?.dispose();
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}
