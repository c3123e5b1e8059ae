// contract-guard.config.json in the editor: read at the root of the first workspace folder (through
// vscode.workspace.fs, so virtual workspaces work), kept current by a watcher, and layered under the editor's
// settings by readSettings (settings.ts): a setting the user set (user, workspace or folder level) wins; otherwise
// the config file's value replaces the default. The baseline it names is read too: baselined findings are hints.
import * as vscode from 'vscode';
import { type Baseline, CONFIG_FILE, type ContractGuardConfig, parseBaseline, parseConfig } from '../core';

interface Loaded {
  config: ContractGuardConfig;
  uri?: vscode.Uri;
  /** Why the file was not used (shown once in a warning). */
  error?: string;
  /** Fingerprints the baseline accepts, per workspace-relative trace path. */
  baseline?: Map<string, Set<string>>;
}

let current: Loaded = { config: {} };

const decode = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

function index(b: Baseline): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const f of b.findings) {
    let s = m.get(f.path);
    if (!s) m.set(f.path, (s = new Set()));
    s.add(f.fingerprint);
  }
  return m;
}

/** Read the workspace's contract-guard.config.json (and its baseline) now; returns what was read. */
async function load(): Promise<Loaded> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return (current = { config: {} });
  const uri = vscode.Uri.joinPath(folder.uri, CONFIG_FILE);
  const text = await readText(uri);
  if (text === undefined) return (current = { config: {} });
  const parsed = parseConfig(text);
  if (typeof parsed === 'string') return (current = { config: {}, uri, error: parsed });
  const loaded: Loaded = { config: parsed, uri };
  if (parsed.baseline) {
    const b = await readText(vscode.Uri.joinPath(folder.uri, parsed.baseline));
    const baseline = b === undefined ? undefined : parseBaseline(b);
    if (baseline && typeof baseline !== 'string') loaded.baseline = index(baseline);
  }
  return (current = loaded);
}

/** The config file's values as read (undefined keys: the file does not set them). */
export function configFile(): ContractGuardConfig {
  return current.config;
}

/** The fingerprints the workspace baseline accepts for the trace at `uri` (the editor shows those as hints). */
export function baselineOf(uri: vscode.Uri): ReadonlySet<string> | undefined {
  return current.baseline?.get(vscode.workspace.asRelativePath(uri, false));
}

/** The config as read, for checks that take its options directly (packs, maxValueLength, ignore), with the
 *  editor settings `contractGuard.packs` and `contractGuard.maxValueLength` over it when the user set them. */
export function workspaceConfig(): ContractGuardConfig {
  const c = vscode.workspace.getConfiguration('contractGuard');
  const user = <T>(key: string): T | undefined => {
    const i = c.inspect<T>(key);
    return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
  };
  const packs = user<boolean>('packs');
  const max = user<number>('maxValueLength');
  if (packs === undefined && max === undefined) return current.config;
  return { ...current.config, ...(packs !== undefined ? { packs } : {}), ...(max !== undefined ? { maxValueLength: max } : {}) };
}

/** Read the config at activation and whenever it (or its baseline) changes; `changed` re-checks what is open.
 *  The one function extension.ts calls. */
export function registerWorkspaceConfig(context: vscode.ExtensionContext, changed: () => void): Promise<void> {
  const watcher = vscode.workspace.createFileSystemWatcher(`**/{${CONFIG_FILE},*baseline*.json}`);
  let warned: string | undefined;
  const reload = async () => {
    const loaded = await load();
    if (loaded.error && loaded.error !== warned) {
      warned = loaded.error;
      void vscode.window.showWarningMessage(`Contract Guard: ${CONFIG_FILE} is not used: ${loaded.error}`);
    }
    changed();
  };
  context.subscriptions.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload));
  return load().then(() => undefined);
}
