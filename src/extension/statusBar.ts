// The active document's status: a status bar item with the counts of a trace, or "not read as a trace" for one
// that looks like a trace but that no reader read (with the command to force a reader); and a language status item
// saying which reader read it. Both hidden for anything that is not a trace (package.json, tsconfig.json, ...).
import * as vscode from 'vscode';
import type { TraceDiagnostics } from './diagnostics';
import { READ_AS_COMMAND, readAsSource } from './readAs';

export const NOT_READ = 'Contract Guard: not read as a trace';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A selector for one document only: the language status item shows for the active trace and nothing else. */
export function only(uri: vscode.Uri): vscode.DocumentSelector {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1).replace(/[*?[\]{}]/g, '?');
  return { scheme: uri.scheme, pattern: new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), name) };
}

/** Matches no document (a language status item cannot be hidden otherwise). */
export const NOWHERE: vscode.DocumentSelector = { scheme: 'contract-guard-nowhere' };

/** Call `update` when the active editor changes or its document was checked again (the status items' one trigger). */
export function onActiveTraceChange(live: TraceDiagnostics, update: () => void): vscode.Disposable[] {
  return [
    vscode.window.onDidChangeActiveTextEditor(update),
    live.onDidCheck((uri) => {
      if (uri.toString() === vscode.window.activeTextEditor?.document.uri.toString()) update();
    }),
  ];
}

export class TraceStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  readonly language: vscode.LanguageStatusItem;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly live: TraceDiagnostics) {
    this.item = vscode.window.createStatusBarItem('contractGuard.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Contract Guard';
    this.language = vscode.languages.createLanguageStatusItem('contractGuard.reader', NOWHERE);
    this.language.name = 'Contract Guard reader';
    this.disposables.push(
      this.item,
      this.language,
      ...onActiveTraceChange(live, () => this.update()),
    );
    this.update();
  }

  update(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const state = doc && this.live.state(doc.uri);
    if (doc && state && state.result.format !== undefined) {
      this.showCounts(doc, state.result.format, state.result.calls, state.counts, state.millis);
      return;
    }
    const unread = doc && this.live.unreadTrace(doc.uri);
    if (doc && unread) {
      this.item.text = `$(circle-slash) ${NOT_READ}`;
      this.item.command = READ_AS_COMMAND;
      const why = unread.readAs ? `The reader \`${unread.readAs}\` was chosen and read nothing.` : 'No reader recognised its shape.';
      const broken = unread.parseErrors ? ` It has ${plural(unread.parseErrors, 'parse error')}.` : '';
      this.item.tooltip = new vscode.MarkdownString(
        `**Contract Guard** — this file looks like a trace (it has \`${unread.sign}\`) but was not read.\n\n${why}${broken}\n\nClick to choose a reader (**Read Trace As…**).`,
      );
      this.item.backgroundColor = undefined;
      this.item.show();
      this.language.selector = only(doc.uri);
      this.language.text = 'Not read as a trace';
      this.language.detail = unread.readAs ? `read as ${unread.readAs}: nothing` : undefined;
      this.language.severity = vscode.LanguageStatusSeverity.Warning;
      this.language.command = { title: 'Read Trace As…', command: READ_AS_COMMAND };
      return;
    }
    this.item.hide();
    this.language.selector = NOWHERE;
  }

  private showCounts(doc: vscode.TextDocument, format: string, calls: number, counts: { error: number; warning: number; info: number }, millis: number): void {
    const { error, warning, info } = counts;
    this.item.text = `$(checklist) ${plural(calls, 'call')}  $(error) ${error}  $(warning) ${warning}` + (info ? `  $(info) ${info}` : '');
    this.item.command = 'workbench.actions.view.problems';
    this.item.tooltip = new vscode.MarkdownString(
      `**Contract Guard** — ${format} trace\n\n` +
        `${plural(calls, 'tool call')}: ${plural(error, 'error')}, ${plural(warning, 'warning')}, ${info} info\n\nChecked in ${millis} ms. Click for Problems.`,
    );
    this.item.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
    const forced = readAsSource(doc.uri);
    this.language.selector = only(doc.uri);
    this.language.text = `$(checklist) ${format}`;
    this.language.detail = `${plural(calls, 'call')}${forced === 'document' ? ', chosen reader' : forced === 'setting' ? ', from contractGuard.readAs' : ''}`;
    this.language.severity = vscode.LanguageStatusSeverity.Information;
    this.language.command = { title: 'Read As…', command: READ_AS_COMMAND };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
