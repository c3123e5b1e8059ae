// Contract Guard's VS Code glue. One entry for both hosts: esbuild bundles it for Node (`main`) and for the
// browser's web worker (`browser`); it reads files through vscode.workspace.fs only, so virtual workspaces work.
import * as vscode from 'vscode';
import { ContractStore } from './contracts';
import { setDocsBase, type PackageLinks, type SeverityMap } from './convert';
import { TraceDiagnostics } from './diagnostics';
import { TRACE_SELECTOR } from './reading';
import { BackgroundChecks } from './background';
import { TraceHoverProvider } from './hover';
import { registerFixtures, type FixturesApi } from './fixtures';
import { registerInfer } from './infer';
import { registerRecording } from './recording';
import { registerEvalView } from './evalView';
import { registerWorkspaceConfig } from './config';
import { readSettings } from './settings';
import { TraceStatusBar } from './statusBar';
import { readAsFor, registerReadAs } from './readAs';
import { registerDecisionTable, type DecisionTableApi } from './table';
import { registerCompare, type CompareApi } from './compare';
import { checkWorkspace, type WorkspaceSummary } from './workspaceCheck';
import { TraceIndex } from './traceIndex';
import { TraceSymbols } from './symbols';
import { registerTracesView, type TracesFilter } from './tracesView';
import { TraceLanguageStatus } from './languageStatus';
import { registerLinks } from './links';

/** What `activate` returns: used by the integration suites to wait for the extension to be idle. */
export interface ContractGuardApi {
  /** Resolves once the first contract load is done and open documents were checked. */
  ready: Promise<void>;
  /** Resolves when no contract load or debounced check is pending. */
  settled(): Promise<void>;
  checkWorkspace(options?: { quiet?: boolean }): Promise<WorkspaceSummary>;
  /** Counts and format of an open trace, as the status bar shows them. */
  status(uri: vscode.Uri): { format?: string; calls: number; error: number; warning: number; info: number } | undefined;
  /** How the last check of an open trace went: its duration, and what an incremental re-check re-read. */
  lastCheck(uri: vscode.Uri): { millis: number; incremental?: { checked: number; lines: number }; lineIndependent: boolean; appended?: { lines: number }; growing: boolean } | undefined;
  /** Check an open document whole, now (for tests and benchmarks). */
  recheck(uri: vscode.Uri): void;
  /** Fires right after a trace's diagnostics were published or cleared (in step with them, unlike VS Code's
   *  debounced onDidChangeDiagnostics). */
  onDidCheck: vscode.Event<vscode.Uri>;
  /** The status bar item's text, or undefined when it is hidden. */
  statusText(): string | undefined;
  /** How an open document is read: the reader forced on it (Read Trace As… or the setting), and, when it looks like a
   *  trace that no reader read, what made it look like one. */
  reading(uri: vscode.Uri): { readAs?: string; unread?: { sign: string; parseErrors: number } };
  /** The language status item of the active document, or undefined when it shows none. */
  languageStatus(): { text: string; detail?: string; warning: boolean } | undefined;
  /** Frozen fixtures: freeze a call, replay the fixtures, the Test Explorer controller. */
  fixtures: FixturesApi;
  /** The decision table panels. */
  table: DecisionTableApi;
  /** Compare runs: the panels. */
  compare: CompareApi;
  /** The Contract Guard view: its filter, and the traces it lists. */
  traces: { filter(): TracesFilter; shown(): string[]; /** every trace the view knows, filter or not */ entries(): { file: string; calls: number; findings: number }[] };
  /** The findings and contracts language status items of the active trace. */
  traceStatus(): { findings: string; contracts: string } | undefined;
  /** What the URI handler does with a link to a call: opens it, or says why not. */
  openLink(link: vscode.Uri): Promise<string | undefined>;
}

export function activate(context: vscode.ExtensionContext): ContractGuardApi {
  setDocsBase(context.extension.packageJSON as PackageLinks);
  let severity: SeverityMap = readSettings().severity;
  const getSeverity = () => severity;

  const traceCollection = vscode.languages.createDiagnosticCollection('contract-guard');
  const contractCollection = vscode.languages.createDiagnosticCollection('contract-guard-contracts');
  const contracts = new ContractStore(contractCollection, getSeverity);
  // large traces are checked on a worker thread where the extension runs from a local disk (the desktop host)
  const workerFile = context.extensionUri.scheme === 'file' ? vscode.Uri.joinPath(context.extensionUri, 'dist', 'checkWorker.js').fsPath : undefined;
  const live = new TraceDiagnostics(traceCollection, contracts, getSeverity, new BackgroundChecks(workerFile));
  const status = new TraceStatusBar(live);
  // the workspace's traces as their last check left them (the traces view, workspace symbols)
  const index = new TraceIndex(live, contracts);

  context.subscriptions.push(
    traceCollection,
    contractCollection,
    contracts,
    live,
    status,
    vscode.languages.registerHoverProvider(TRACE_SELECTOR, new TraceHoverProvider(live, contracts)),
    vscode.commands.registerCommand('contractGuard.checkWorkspace', (options?: { quiet?: boolean }) =>
      checkWorkspace(traceCollection, contracts, live, getSeverity, { quiet: options?.quiet, index }),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // contracts are found honouring the excludes: a change there can hide or reveal some
      if (e.affectsConfiguration('files.exclude') || e.affectsConfiguration('search.exclude')) void contracts.reload();
      if (!e.affectsConfiguration('contractGuard')) return;
      severity = readSettings().severity;
      if (e.affectsConfiguration('contractGuard.contracts')) {
        void contracts.rewatch();
      } else if (e.affectsConfiguration('contractGuard.severity')) {
        contracts.publish();
        live.republish();
        status.update();
      } else {
        live.checkAllOpen();
      }
    }),
  );

  // contract-guard.config.json sits under the settings: a change re-reads contracts (its globs) and re-checks.
  const configRead = registerWorkspaceConfig(context, () => {
    severity = readSettings().severity;
    live.republish(); // severities and baselined hints, at once
    void contracts.rewatch().then(() => live.checkAllOpen());
  });
  registerInfer(context);
  registerRecording(context);
  registerReadAs(
    context,
    (uri) => {
      for (const d of vscode.workspace.textDocuments) if (d.uri.toString() === uri.toString()) live.checkNow(d);
    },
    (uri) => live.state(uri)?.result.format,
  );
  const ready = configRead.then(() => contracts.rewatch()).then(() => live.checkAllOpen());
  const fixtures = registerFixtures(context, { contracts: () => contracts.contracts, ready, live });
  const table = registerDecisionTable(context, { contracts: () => contracts.contracts, ready, live, onDidChangeContracts: contracts.onDidChange });
  const compare = registerCompare(context, {
    ready,
    contracts: () => contracts.contracts,
    sourcesOf: (set) => contracts.sourcesOf(set),
    isContract: (uri) => contracts.file(vscode.workspace.asRelativePath(uri)) !== undefined,
    workerFile: workerFile && vscode.Uri.joinPath(context.extensionUri, 'dist', 'compareWorker.js').fsPath,
  });
  registerEvalView(context, { contracts: () => contracts.contracts, onDidChangeContracts: contracts.onDidChange, live });
  // navigation: outline and workspace symbols, the traces view, the language status, links to a call
  const tracesView = registerTracesView(context, index, getSeverity);
  const symbols = new TraceSymbols(live, getSeverity, index, ready);
  const traceStatus = new TraceLanguageStatus(live, () => contracts.contracts);
  const openLink = registerLinks(context, live, ready);
  context.subscriptions.push(
    index,
    traceStatus,
    vscode.languages.registerDocumentSymbolProvider(TRACE_SELECTOR, symbols, { label: 'Contract Guard' }),
    vscode.languages.registerWorkspaceSymbolProvider(symbols),
  );
  const settled = async () => {
    await ready;
    for (;;) {
      await contracts.settled();
      if (!live.busy) return;
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    ready,
    settled,
    onDidCheck: live.onDidCheck,
    fixtures,
    table,
    compare,
    traces: {
      filter: () => tracesView.current,
      shown: () => tracesView.traces().map((e) => vscode.workspace.asRelativePath(e.uri, false)),
      entries: () => index.entries().map((e) => ({ file: vscode.workspace.asRelativePath(e.uri, false), calls: e.calls, findings: e.findings.length })),
    },
    traceStatus: () => traceStatus.describe(),
    openLink,
    checkWorkspace: (options) => checkWorkspace(traceCollection, contracts, live, getSeverity, { quiet: options?.quiet, index }),
    status: (uri) => {
      const s = live.state(uri);
      return s && { format: s.result.format, calls: s.result.calls, ...s.counts };
    },
    lastCheck: (uri) => {
      const s = live.state(uri);
      return s && { millis: s.millis, incremental: s.incremental, lineIndependent: s.lines !== undefined, appended: s.appended, growing: s.growing !== undefined };
    },
    recheck: (uri) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (doc) live.checkNow(doc);
    },
    statusText: () => {
      const uri = vscode.window.activeTextEditor?.document.uri;
      return status.item.text && uri && (live.state(uri) || live.unreadTrace(uri)) ? status.item.text : undefined;
    },
    reading: (uri) => {
      const unread = live.unreadTrace(uri);
      return { readAs: readAsFor(uri), unread: unread && { sign: unread.sign, parseErrors: unread.parseErrors } };
    },
    languageStatus: () => {
      const uri = vscode.window.activeTextEditor?.document.uri;
      if (!uri || !(live.state(uri) || live.unreadTrace(uri))) return undefined;
      const { text, detail, severity } = status.language;
      return { text, detail, warning: severity === vscode.LanguageStatusSeverity.Warning };
    },
  };
}

export function deactivate(): void {
  // everything is in context.subscriptions
}
