// The decision table in the editor: the command `contractGuard.showDecisionTable` (palette, editor title button on
// trace files, a "Decision table" CodeLens once per session), one webview panel per trace (reused), restored after a
// reload by a WebviewPanelSerializer, following edits, contract and fixture changes. One entry: registerDecisionTable.
import * as vscode from 'vscode';
import type { ContractSet, CallMark } from '../../core';
import { readSettings } from '../settings';
import { FixtureCache, type LiveModel } from './data';
import { marksOf } from '../callMarks';
import { LazyLens, resolveLens } from '../lenses';
import { TRACE_SELECTOR } from '../reading';
import { isPageState, TablePanel, VIEW_TYPE } from './panel';

export const SHOW_TABLE_COMMAND = 'contractGuard.showDecisionTable';
/** Context key: the active editor holds a trace (the editor title button shows then). */
export const TRACE_CONTEXT = 'contractGuard.isTrace';

export interface TableDeps {
  contracts(): ContractSet | undefined;
  ready: Promise<unknown>;
  live: LiveModel & { onDidCheck: vscode.Event<vscode.Uri> };
  /** Fires after the workspace contracts were reloaded. */
  onDidChangeContracts: vscode.Event<void>;
}

export interface DecisionTableApi {
  show(uri?: vscode.Uri, turn?: { session: number; turn: number }): Promise<TablePanel | undefined>;
  panel(uri: vscode.Uri): TablePanel | undefined;
}

/** "Decision table" once per session, above its first call (not above every turn: a clean trace keeps its height),
 *  from the live check's call marks. */
class SessionLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly live: TableDeps['live']) {
    this.sub = live.onDidCheck(() => this.changed.fire());
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (readSettings(doc.uri).codeLens === 'off') return [];
    const state = this.live.state(doc.uri);
    if (!state || state.version !== doc.version) return [];
    return sessionStarts(marksOf(state.result, state.marks)).map((s) => {
      const at = doc.positionAt(s.offset);
      return new LazyLens(new vscode.Range(at, at), () => ({
        command: SHOW_TABLE_COMMAND,
        title: `$(table) Decision table`,
        tooltip: `Session ${s.label}: which gates each of its calls passed`,
        arguments: [doc.uri, { session: s.session, turn: s.turn }],
      }));
    });
  }

  resolveCodeLens(lens: vscode.CodeLens): vscode.CodeLens {
    return resolveLens(lens);
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

/** The first call of each session. */
function sessionStarts(marks: readonly CallMark[]): { session: number; label: string; turn: number; offset: number }[] {
  const out = new Map<number, { session: number; label: string; turn: number; offset: number }>();
  for (const m of marks) {
    if (!out.has(m.session)) out.set(m.session, { session: m.session, label: m.sessionId ?? String(m.session + 1), turn: m.turn, offset: m.offset });
  }
  return [...out.values()];
}

export function registerDecisionTable(context: vscode.ExtensionContext, deps: TableDeps): DecisionTableApi {
  const fixtures = new FixtureCache();
  const panels = new Map<string, TablePanel>();
  const panelDeps = { extensionUri: context.extensionUri, contracts: () => deps.contracts(), ready: deps.ready, live: deps.live, fixtures };

  const adopt = (webviewPanel: vscode.WebviewPanel, uri: vscode.Uri): TablePanel => {
    const p = new TablePanel(webviewPanel, uri, panelDeps);
    panels.set(uri.toString(), p);
    p.onDidDispose(() => {
      if (panels.get(uri.toString()) === p) panels.delete(uri.toString());
    });
    return p;
  };

  const show = async (uri?: vscode.Uri, turn?: { session: number; turn: number }): Promise<TablePanel | undefined> => {
    const openedAt = Date.now();
    // from the palette while a table (a webview) has the focus there is no active text editor: the last trace
    const target = uri ?? vscode.window.activeTextEditor?.document.uri ?? lastTrace;
    if (!target) {
      void vscode.window.showWarningMessage('Contract Guard: open a trace to show its decision table.');
      return undefined;
    }
    const scrollTo = turn && `t:${turn.session}:${turn.turn}`;
    const existing = panels.get(target.toString());
    if (existing) {
      existing.reveal(undefined, scrollTo);
      return existing;
    }
    const webviewPanel = vscode.window.createWebviewPanel(VIEW_TYPE, 'Decision table', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(context.extensionUri, 'media')],
    });
    const p = adopt(webviewPanel, target);
    p.openedAt = openedAt;
    if (scrollTo) p.reveal(undefined, scrollTo);
    return p;
  };

  let lastTrace: vscode.Uri | undefined;
  const updateContext = () => {
    const editor = vscode.window.activeTextEditor;
    const isTrace = !!editor && deps.live.state(editor.document.uri)?.result.format !== undefined;
    if (isTrace) lastTrace = editor.document.uri;
    void vscode.commands.executeCommand('setContext', TRACE_CONTEXT, isTrace);
  };

  const lenses = new SessionLenses(deps.live);
  context.subscriptions.push(
    fixtures,
    lenses,
    vscode.languages.registerCodeLensProvider(TRACE_SELECTOR, lenses),
    vscode.commands.registerCommand(SHOW_TABLE_COMMAND, (uri?: unknown, turn?: { session: number; turn: number }) =>
      show(uri instanceof vscode.Uri ? uri : undefined, turn && typeof turn.turn === 'number' ? turn : undefined),
    ),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: unknown) {
        if (!isPageState(state)) {
          webviewPanel.dispose();
          return;
        }
        adopt(webviewPanel, vscode.Uri.parse(state.uri));
      },
    }),
    deps.live.onDidCheck((uri) => {
      panels.get(uri.toString())?.schedule();
      if (vscode.window.activeTextEditor?.document.uri.toString() === uri.toString()) updateContext();
    }),
    deps.onDidChangeContracts(() => {
      for (const p of panels.values()) p.schedule();
    }),
    fixtures.onDidChange(() => {
      for (const p of panels.values()) p.schedule(300);
    }),
    vscode.window.onDidChangeActiveTextEditor(updateContext),
    { dispose: () => [...panels.values()].forEach((p) => void p.panel.dispose()) },
  );
  updateContext();
  return { show, panel: (uri) => panels.get(uri.toString()) };
}
