// Inspect AI `.eval` logs in the editor. An `.eval` is a zip; the core joins its members into one JSON text
// (`containerText`), which is what the checker reads and what finding positions refer to. Two read-only views:
// - the calls page: a custom editor opened for `*.eval` (no scripts) listing every sample's calls with their
//   verdicts, each linked to the call in the JSON view;
// - the JSON view: a virtual document (`contract-guard-eval:` scheme, read-only by nature) with that text, which the
//   live diagnostics, hovers, the decision table and freezing treat like any trace.
import * as vscode from 'vscode';
import { buildDecisionTable, checkText, readContainer, type ContractSet, type DecisionTable, emptyContracts, LineIndex } from '../core';
import '../cli/native-decoders'; // zstd .eval members and Brotli cassette bodies, by this Node's zlib
import { BACKGROUND_CHECK_SIZE, checkOptions } from './diagnostics';
import type { LiveModel } from './table/data';

export const EVAL_SCHEME = 'contract-guard-eval';
export const EVAL_EDITOR = 'contractGuard.evalLog';
export const OPEN_EVAL_COMMAND = 'contractGuard.openEvalCalls';

/** The calls page lists at most this many calls (the JSON view and its decision table show them all). */
const MAX_ROWS = 2000;

/** The JSON view of an `.eval` file: its path plus `.json` (so it opens as JSON), the file's URI in the query. */
export function evalViewUri(file: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: EVAL_SCHEME, path: `${file.path}.json`, query: file.toString() });
}

export function evalFileOf(view: vscode.Uri): vscode.Uri {
  return vscode.Uri.parse(view.query);
}

export function isEvalFile(uri: vscode.Uri): boolean {
  return /\.eval$/i.test(uri.path);
}

/** The JSON text of an `.eval` file, or a one-line reason why there is none. */
export async function readEval(file: vscode.Uri): Promise<{ text: string } | { error: string }> {
  const name = vscode.workspace.asRelativePath(file, false);
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(file);
  } catch (e) {
    return { error: `${name} cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  const read = readContainer(bytes);
  if (read?.text === '' && read.problem) return { error: `${name}: ${read.problem}` };
  return read === undefined ? { error: `${name} is not an Inspect AI .eval log (a zip of header.json and samples/*.json)` } : { text: read.text };
}

class EvalContent implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** The file changed on disk: its open JSON view follows. */
  fileChanged(file: vscode.Uri): void {
    this.changed.fire(evalViewUri(file));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const read = await readEval(evalFileOf(uri));
    // still JSON, so the view opens cleanly; no format claims it, so it gets no diagnostics
    return 'text' in read ? read.text : `${JSON.stringify({ error: read.error }, null, 2)}\n`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function commandLink(file: vscode.Uri, line?: number): string {
  return `command:${OPEN_EVAL_COMMAND}?${encodeURIComponent(JSON.stringify([file.toString(), line]))}`;
}

/** The decision table of an `.eval`'s text: on a worker thread when the text is large (as the live check), else here. */
export async function evalTable(text: string, file: vscode.Uri, contracts: ContractSet | undefined, live?: LiveModel): Promise<DecisionTable> {
  const options = { ...checkOptions(evalViewUri(file), contracts ?? emptyContracts()), fileName: undefined };
  const off = text.length > BACKGROUND_CHECK_SIZE ? live?.backgroundCheck?.(text, options, undefined, { profile: options.profile, volatileTools: options.volatileTools }) : undefined;
  const table = off && (await off).table;
  return table ?? buildDecisionTable(checkText(text, { ...options, keepModel: true }), options);
}

/** The calls page: counts, then one row per call (sample, turn, tool, arguments, codes) linked to its line. */
export function evalPage(file: vscode.Uri, content: { text: string; table: DecisionTable } | { error: string }): string {
  const name = escapeHtml(vscode.workspace.asRelativePath(file, false));
  const nonce = Array.from({ length: 4 }, () => Math.random().toString(36).slice(2)).join('');
  const head = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0"><title>${name}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 16px; }
h1 { font-size: 1.2em; } .sub { color: var(--vscode-descriptionForeground); }
table { border-collapse: collapse; width: 100%; margin-top: 8px; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); vertical-align: top; }
th { color: var(--vscode-descriptionForeground); font-weight: 600; }
td.args { font-family: var(--vscode-editor-font-family); white-space: pre-wrap; word-break: break-all; }
.fail { color: var(--vscode-errorForeground); } .ok { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
a { color: var(--vscode-textLink-foreground); }
</style></head><body>`;
  if ('error' in content) return `${head}<h1>${name}</h1><p class="fail">${escapeHtml(content.error)}</p></body></html>`;
  const { text, table } = content;
  const open = `<a href="${commandLink(file)}">Open as JSON</a> (diagnostics, hovers, decision table)`;
  const lines = LineIndex.of(text);
  const failing = table.turns.reduce((n, t) => n + t.rows.filter((r) => r.codes.length).length, 0);
  const rows: string[] = [];
  for (const t of table.turns) {
    for (const r of t.rows) {
      if (rows.length === MAX_ROWS) break;
      const line = lines.position(r.span.start).line - 1;
      const verdict = r.codes.length ? `<span class="fail">${escapeHtml(r.codes.join(', '))}</span>` : '<span class="ok">ok</span>';
      rows.push(`<tr><td>${escapeHtml(t.sessionId ?? `sample ${t.session + 1}`)}</td><td>${t.turn}</td><td><a href="${commandLink(file, line)}">${escapeHtml(r.tool)}</a></td><td class="args">${escapeHtml(r.args)}</td><td>${verdict}</td></tr>`);
    }
  }
  const more = table.calls > rows.length ? `<p class="sub">The first ${rows.length} of ${table.calls} calls; the JSON view has them all.</p>` : '';
  const other = table.other.length ? `<p class="sub">Not about one call: ${table.other.map((o) => `${escapeHtml(o.code)}`).join(', ')}</p>` : '';
  const summary = table.format === undefined
    ? 'No calls: the log has no samples a format reads.'
    : `${table.sessions} sample${table.sessions === 1 ? '' : 's'}, ${table.calls} call${table.calls === 1 ? '' : 's'}, ${failing} with findings`;
  return `${head}<h1>${name}</h1><p class="sub">Inspect AI log (read-only) · ${escapeHtml(summary)} · ${open}</p>${other}
<table><thead><tr><th>Sample</th><th>Turn</th><th>Tool</th><th>Arguments</th><th>Findings</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}</body></html>`;
}

class EvalEditor implements vscode.CustomReadonlyEditorProvider {
  private readonly pages = new Map<string, Set<vscode.WebviewPanel>>();

  constructor(private readonly contracts: () => ContractSet | undefined, private readonly live: LiveModel) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = { enableScripts: false, enableCommandUris: [OPEN_EVAL_COMMAND] };
    const key = document.uri.toString();
    const set = this.pages.get(key) ?? new Set();
    set.add(panel);
    this.pages.set(key, set);
    panel.onDidDispose(() => set.delete(panel));
    await this.render(document.uri, panel);
  }

  /** Draw the page again (the file or the contracts changed). */
  async refresh(file?: vscode.Uri): Promise<void> {
    for (const [key, panels] of this.pages) {
      if (file && key !== file.toString()) continue;
      for (const p of panels) await this.render(vscode.Uri.parse(key), p);
    }
  }

  private async render(file: vscode.Uri, panel: vscode.WebviewPanel): Promise<void> {
    try {
      const read = await readEval(file);
      panel.webview.html = evalPage(file, 'error' in read ? read : { text: read.text, table: await evalTable(read.text, file, this.contracts(), this.live) });
    } catch (e) {
      panel.webview.html = evalPage(file, { error: `checking failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
}

/** Open the JSON view of an `.eval` file, at a line (0-based) when given. Without a file: the active page's or a pick. */
async function openEvalCalls(fileArg?: vscode.Uri | string, line?: number): Promise<void> {
  let file = typeof fileArg === 'string' ? vscode.Uri.parse(fileArg) : fileArg;
  if (!file) {
    const picks = (await vscode.workspace.findFiles('**/*.eval', undefined, 500)).map((u) => ({ label: vscode.workspace.asRelativePath(u, false), uri: u }));
    if (!picks.length) {
      void vscode.window.showInformationMessage('Contract Guard: no Inspect AI .eval logs in this workspace.');
      return;
    }
    file = (await vscode.window.showQuickPick(picks, { placeHolder: 'Inspect AI log to show as JSON' }))?.uri;
    if (!file) return;
  }
  const doc = await vscode.workspace.openTextDocument(evalViewUri(file));
  const at = new vscode.Position(Math.max(0, Math.min(line ?? 0, doc.lineCount - 1)), 0);
  await vscode.window.showTextDocument(doc, { preview: false, selection: new vscode.Range(at, at) });
}

export function registerEvalView(context: vscode.ExtensionContext, deps: { contracts: () => ContractSet | undefined; onDidChangeContracts: vscode.Event<void>; live: LiveModel }): void {
  const content = new EvalContent();
  const editor = new EvalEditor(deps.contracts, deps.live);
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.eval');
  const changed = (uri: vscode.Uri) => {
    content.fileChanged(uri);
    void editor.refresh(uri);
  };
  context.subscriptions.push(
    content,
    watcher,
    watcher.onDidChange(changed),
    watcher.onDidCreate(changed),
    deps.onDidChangeContracts(() => void editor.refresh()),
    vscode.workspace.registerTextDocumentContentProvider(EVAL_SCHEME, content),
    vscode.window.registerCustomEditorProvider(EVAL_EDITOR, editor, { supportsMultipleEditorsPerDocument: true }),
    vscode.commands.registerCommand(OPEN_EVAL_COMMAND, openEvalCalls),
  );
}
