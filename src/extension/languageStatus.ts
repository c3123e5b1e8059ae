// The language status of an open trace, next to the reader item of statusBar.ts (as VS Code's JSON support shows
// which schema validated a file): its findings, with the decision table one click away, and the contracts its calls
// were held to, with Check Workspace Contracts. Hidden for anything that is not a checked trace.
import * as vscode from 'vscode';
import { adapterById, type ContractSet } from '../core';
import type { TraceDiagnostics } from './diagnostics';
import { marksOf } from './callMarks';
import { workspaceConfig } from './config';
import { NOWHERE, onActiveTraceChange, only } from './statusBar';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Which contracts a trace's calls were held to: workspace contract files by tool, and the built-in packs. */
export function contractsInUse(tools: Iterable<string>, format: string, contracts: ContractSet | undefined): { tools: string[]; files: string[]; packs: readonly string[] } {
  const used = new Set<string>();
  const files = new Set<string>();
  for (const t of tools) {
    const c = contracts?.tools.get(t);
    if (!c?.file) continue;
    used.add(t);
    files.add(c.file);
  }
  const packs = workspaceConfig().packs === false ? [] : (adapterById(format)?.packs ?? []);
  return { tools: [...used].sort(), files: [...files].sort(), packs };
}

export class TraceLanguageStatus implements vscode.Disposable {
  readonly findings: vscode.LanguageStatusItem;
  readonly contracts: vscode.LanguageStatusItem;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly live: TraceDiagnostics, private readonly set: () => ContractSet | undefined) {
    this.findings = vscode.languages.createLanguageStatusItem('contractGuard.findings', NOWHERE);
    this.findings.name = 'Contract Guard findings';
    this.contracts = vscode.languages.createLanguageStatusItem('contractGuard.contracts', NOWHERE);
    this.contracts.name = 'Contract Guard contracts';
    this.disposables.push(
      this.findings,
      this.contracts,
      ...onActiveTraceChange(live, () => this.update()),
    );
    this.update();
  }

  update(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const state = doc && this.live.state(doc.uri);
    if (!doc || !state || state.result.format === undefined) {
      this.findings.selector = NOWHERE;
      this.contracts.selector = NOWHERE;
      return;
    }
    const { error, warning, info } = state.counts;
    const total = error + warning + info;
    this.findings.selector = only(doc.uri);
    this.findings.text = total ? `$(warning) ${plural(total, 'finding')}` : '$(pass) no findings';
    this.findings.detail = total ? [plural(error, 'error'), plural(warning, 'warning'), info ? `${info} info` : ''].filter(Boolean).join(', ') : `${plural(state.result.calls, 'call')} checked`;
    this.findings.command = { title: 'Show Decision Table', command: 'contractGuard.showDecisionTable', arguments: [doc.uri] };

    const tools = new Set(marksOf(state.result, state.marks).map((m) => m.tool));
    const used = contractsInUse(tools, state.result.format, this.set());
    this.contracts.selector = only(doc.uri);
    const parts = [used.files.length ? plural(used.files.length, 'contract file') : '', used.packs.length ? plural(used.packs.length, 'pack') : ''].filter(Boolean);
    this.contracts.text = parts.length ? `$(symbol-interface) ${parts.join(' + ')}` : '$(symbol-interface) no contract';
    this.contracts.detail = [used.files.join(', '), used.packs.length ? `built-in: ${used.packs.join(', ')}` : ''].filter(Boolean).join('; ') || 'no workspace contract covers its tools';
    this.contracts.command = { title: 'Check Workspace', command: 'contractGuard.checkWorkspace' };
  }

  /** What the items say (for the suite). */
  describe(): { findings: string; contracts: string } | undefined {
    if (this.findings.selector === NOWHERE) return undefined;
    return { findings: `${this.findings.text} (${this.findings.detail})`, contracts: `${this.contracts.text} (${this.contracts.detail})` };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
