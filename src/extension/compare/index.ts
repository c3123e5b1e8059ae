// Comparing runs in the editor (issue 15): "Compare Traces…" (two files or folders, each picked from the traces and
// folders of the workspace or with the open dialog), "Select for Compare" / "Compare with Selected" in the explorer
// as VS Code compares files, and "Compare with Fixtures" (the fixtures folder against a run: mock coverage). Each
// opens a compare panel (panel.ts), restored after a reload. One entry: registerCompare.
import * as vscode from 'vscode';
import { fixturesFolderFor } from '../fixtures/freeze';
import { excludeGlob, globOf, readSettings } from '../settings';
import { ComparePanel, COMPARE_VIEW_TYPE, inputKey, type CompareInput, type PanelDeps } from './panel';
import { relPath } from './runs';
import type { ComparePageState } from '../../webview/compare-protocol';

export const COMPARE_COMMAND = 'contractGuard.compareTraces';
export const SELECT_COMMAND = 'contractGuard.selectForCompare';
export const COMPARE_SELECTED_COMMAND = 'contractGuard.compareWithSelected';
export const COMPARE_FIXTURES_COMMAND = 'contractGuard.compareWithFixtures';
/** Context key: something was selected for compare (the explorer then offers "Compare with Selected"). */
export const SELECTED_CONTEXT = 'contractGuard.compareSelected';
/** Entries in the pickers, at most (folders, then files). */
const MAX_PICKS = 500;

export interface CompareApi {
  /** Compare two runs as the commands do, without the pickers. */
  compare(input: { a: vscode.Uri[]; b: vscode.Uri[]; fixtures?: boolean }): ComparePanel;
  /** The panel opened or revealed last. */
  current(): ComparePanel | undefined;
}

/** What a command gets from the explorer: the item clicked, and every item selected. */
function explorerUris(uri: unknown, uris: unknown): vscode.Uri[] | undefined {
  if (Array.isArray(uris) && uris.length && uris.every((u) => u instanceof vscode.Uri)) return uris;
  return uri instanceof vscode.Uri ? [uri] : undefined;
}

function asUris(v: unknown): vscode.Uri[] | undefined {
  if (v instanceof vscode.Uri) return [v];
  if (Array.isArray(v) && v.length && v.every((u) => u instanceof vscode.Uri)) return v;
  return undefined;
}

/** A run given by a caller (tests, other extensions): `{ a, b, fixtures? }` with URIs or arrays of them. */
function givenInput(v: unknown): CompareInput | undefined {
  if (typeof v !== 'object' || v === null || v instanceof vscode.Uri) return undefined;
  const o = v as { a?: unknown; b?: unknown; fixtures?: unknown };
  const a = asUris(o.a);
  const b = asUris(o.b);
  if (!a || !b) return undefined;
  const fixtures = o.fixtures === true;
  return { a: { uris: a, fixtures }, b: { uris: b }, coverage: fixtures };
}

type SidePick = vscode.QuickPickItem & { run?: () => Promise<vscode.Uri[] | undefined>; fixtures?: boolean };

async function fixturesFolder(near?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const folder = fixturesFolderFor(near);
  if (!folder) return undefined;
  try {
    await vscode.workspace.fs.stat(folder);
    return folder;
  } catch {
    return undefined;
  }
}

/** Pick one side: the active trace, the fixtures folder, a folder or file of traces in the workspace, or the open
 *  dialog. Undefined when the picker was dismissed. */
async function pickSide(which: 'A' | 'B', other?: vscode.Uri[]): Promise<{ uris: vscode.Uri[]; fixtures: boolean } | undefined> {
  const items: SidePick[] = [];
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme !== 'untitled' && active.scheme !== 'output') items.push({ label: `$(file) ${relPath(active)}`, description: 'the active file', run: async () => [active] });
  const fixtures = await fixturesFolder(other?.[0]);
  if (fixtures) items.push({ label: `$(beaker) ${relPath(fixtures)}`, description: 'the frozen fixtures (mock coverage)', run: async () => [fixtures], fixtures: which === 'A' });
  items.push(
    { label: '$(folder-opened) Choose a folder…', run: () => openDialog(which, true) },
    { label: '$(file-directory) Choose files…', run: () => openDialog(which, false) },
  );
  const found = await vscode.workspace.findFiles(globOf(readSettings().traces), excludeGlob(), 5000);
  const folders = new Map<string, vscode.Uri>();
  for (const u of found) {
    const dir = vscode.Uri.joinPath(u, '..');
    folders.set(dir.toString(), dir);
  }
  const byPath = (x: vscode.Uri, y: vscode.Uri) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0);
  const dirs = [...folders.values()].sort(byPath).slice(0, MAX_PICKS);
  if (dirs.length) items.push({ label: 'Folders of traces', kind: vscode.QuickPickItemKind.Separator });
  for (const d of dirs) items.push({ label: `$(folder) ${relPath(d)}`, run: async () => [d] });
  const files = found.sort(byPath).slice(0, MAX_PICKS);
  if (files.length) items.push({ label: 'Traces', kind: vscode.QuickPickItemKind.Separator });
  for (const f of files) items.push({ label: `$(file) ${relPath(f)}`, run: async () => [f] });
  const title = which === 'A' ? 'Compare Traces: run A (the baseline)' : 'Compare Traces: run B (compared with A)';
  const choice = await vscode.window.showQuickPick(items, { title, placeHolder: which === 'A' ? 'The run to compare against: a trace, a folder of traces, or frozen fixtures' : 'The run to compare with A', matchOnDescription: true });
  const uris = await choice?.run?.();
  return uris?.length ? { uris, fixtures: choice?.fixtures === true } : undefined;
}

async function openDialog(which: 'A' | 'B', folders: boolean): Promise<vscode.Uri[] | undefined> {
  // Linux and Windows dialogs pick files or folders, never both: two entries
  return vscode.window.showOpenDialog({
    canSelectFiles: !folders,
    canSelectFolders: folders,
    canSelectMany: true,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    openLabel: `Use as run ${which}`,
    title: `Compare Traces: run ${which}`,
  });
}

function isPageState(v: unknown): v is ComparePageState {
  const s = v as ComparePageState;
  return typeof v === 'object' && v !== null && Array.isArray(s.a) && Array.isArray(s.b) && s.a.length > 0 && s.b.length > 0 && s.a.every((x) => typeof x === 'string') && s.b.every((x) => typeof x === 'string');
}

export function registerCompare(context: vscode.ExtensionContext, deps: Omit<PanelDeps, 'extensionUri'>): CompareApi {
  const panelDeps: PanelDeps = { ...deps, extensionUri: context.extensionUri };
  const panels = new Map<string, ComparePanel>();
  let current: ComparePanel | undefined;
  let selected: vscode.Uri[] | undefined;

  const adopt = (webviewPanel: vscode.WebviewPanel, input: CompareInput): ComparePanel => {
    const key = inputKey(input);
    const p = new ComparePanel(webviewPanel, input, panelDeps);
    panels.set(key, p);
    current = p;
    webviewPanel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) current = p;
    });
    p.onDidDispose(() => {
      if (panels.get(key) === p) panels.delete(key);
      if (current === p) current = undefined;
    });
    return p;
  };

  const open = (input: CompareInput): ComparePanel => {
    const existing = panels.get(inputKey(input));
    if (existing) {
      existing.reveal();
      current = existing;
      void existing.rerun();
      return existing;
    }
    const webviewPanel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, 'Compare runs', { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(context.extensionUri, 'media')],
    });
    return adopt(webviewPanel, input);
  };

  const compareTraces = async (first?: unknown, all?: unknown): Promise<ComparePanel | undefined> => {
    const given = givenInput(first);
    if (given) return open(given);
    const picked = explorerUris(first, all);
    // two items selected in the explorer: the first is A, as VS Code's Compare Selected
    if (picked && picked.length === 2) return open({ a: { uris: [picked[0]] }, b: { uris: [picked[1]] }, coverage: false });
    const a = picked ? { uris: picked, fixtures: false } : await pickSide('A');
    if (!a) return undefined;
    const b = await pickSide('B', a.uris);
    if (!b) return undefined;
    return open({ a: { uris: a.uris, fixtures: a.fixtures }, b: { uris: b.uris }, coverage: a.fixtures });
  };

  const compareWithFixtures = async (first?: unknown, all?: unknown): Promise<ComparePanel | undefined> => {
    const b = explorerUris(first, all) ?? (await pickSide('B'))?.uris;
    if (!b) return undefined;
    const folder = await fixturesFolder(b[0]);
    if (!folder) {
      const setting = readSettings(b[0]).fixturesFolder;
      const choice = await vscode.window.showWarningMessage(`Contract Guard: there is no fixtures folder (${setting}) yet. Freeze calls first, or choose the folder of fixtures or mocks to measure against.`, 'Choose a Folder…');
      const chosen = choice ? await openDialog('A', true) : undefined;
      if (!chosen?.length) return undefined;
      return open({ a: { uris: chosen, fixtures: true }, b: { uris: b }, coverage: true });
    }
    return open({ a: { uris: [folder], fixtures: true }, b: { uris: b }, coverage: true });
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(COMPARE_COMMAND, compareTraces),
    vscode.commands.registerCommand(COMPARE_FIXTURES_COMMAND, compareWithFixtures),
    vscode.commands.registerCommand(SELECT_COMMAND, (first?: unknown, all?: unknown) => {
      selected = explorerUris(first, all);
      void vscode.commands.executeCommand('setContext', SELECTED_CONTEXT, selected !== undefined);
    }),
    vscode.commands.registerCommand(COMPARE_SELECTED_COMMAND, (first?: unknown, all?: unknown) => {
      const b = explorerUris(first, all);
      if (!selected || !b) {
        void vscode.window.showInformationMessage('Contract Guard: first choose "Select for Compare" on a trace or a folder in the explorer.');
        return undefined;
      }
      return open({ a: { uris: selected }, b: { uris: b }, coverage: false });
    }),
    vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, {
      async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: unknown) {
        if (!isPageState(state)) {
          webviewPanel.dispose();
          return;
        }
        const uris = (list: string[]) => list.map((s) => vscode.Uri.parse(s));
        adopt(webviewPanel, { a: { uris: uris(state.a), fixtures: state.fixtures }, b: { uris: uris(state.b) }, coverage: state.fixtures });
      },
    }),
    { dispose: () => { for (const p of panels.values()) p.panel.dispose(); } },
  );
  return {
    compare: (input) => open({ a: { uris: input.a, fixtures: input.fixtures === true }, b: { uris: input.b }, coverage: input.fixtures === true }),
    current: () => current,
  };
}
