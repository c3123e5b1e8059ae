// A status bar item with the counts of the active trace; hidden for anything that is not a trace.
import * as vscode from 'vscode';
import type { TraceDiagnostics } from './diagnostics';

export class TraceStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly live: TraceDiagnostics) {
    this.item = vscode.window.createStatusBarItem('contractGuard.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Contract Guard';
    this.item.command = 'workbench.actions.view.problems';
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      live.onDidCheck((uri) => {
        if (uri.toString() === vscode.window.activeTextEditor?.document.uri.toString()) this.update();
      }),
    );
    this.update();
  }

  update(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const state = doc && this.live.state(doc.uri);
    if (!doc || !state || state.result.format === undefined) {
      this.item.hide();
      return;
    }
    const { error, warning, info } = state.counts;
    const calls = state.result.calls;
    this.item.text = `$(checklist) ${calls} call${calls === 1 ? '' : 's'}  $(error) ${error}  $(warning) ${warning}` +
      (info ? `  $(info) ${info}` : '');
    this.item.tooltip = new vscode.MarkdownString(
      `**Contract Guard** — ${state.result.format} trace\n\n` +
        `${calls} tool call${calls === 1 ? '' : 's'}: ${error} error${error === 1 ? '' : 's'}, ` +
        `${warning} warning${warning === 1 ? '' : 's'}, ${info} info\n\nChecked in ${state.millis} ms. Click for Problems.`,
    );
    this.item.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
