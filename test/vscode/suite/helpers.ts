// Shared by the in-host suites: the extension's API, the temp workspace, and waiting for diagnostics.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContractGuardApi } from '../../../src/extension/extension';
import { loadContracts, type ContractSet } from '../../../src/core';

export const EXTENSION_ID = 'contract-guard.contract-guard';
export const SOURCE = 'Contract Guard';

export async function api(): Promise<ContractGuardApi> {
  const ext = vscode.extensions.getExtension<ContractGuardApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded`);
  const exports = ext.isActive ? ext.exports : await ext.activate();
  await exports.ready;
  return exports;
}

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite needs a workspace folder');
  return folder.uri;
}

export const wsUri = (rel: string) => vscode.Uri.joinPath(workspaceRoot(), ...rel.split('/'));

/** The contracts the extension finds with its default globs, loaded here (for checks to compare with). */
export async function workspaceContracts(): Promise<ContractSet> {
  const uris = (await vscode.workspace.findFiles('{**/*.contract.json,**/contracts/**/*.json}', '**/node_modules/**')).filter((u) => !/\.fixture\.json$/.test(u.path));
  const files = await Promise.all(uris.map(async (u) => ({ path: vscode.workspace.asRelativePath(u), text: new TextDecoder().decode(await vscode.workspace.fs.readFile(u)) })));
  return loadContracts(files).contracts;
}

export function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === SOURCE)
    .sort((a, b) => a.range.start.compareTo(b.range.start) || String(codeOf(a)).localeCompare(String(codeOf(b))));
}

/** The per-argument and per-call codes the hand-written expectations are about (other checks may add more). */
export const ARG_CODES = new Set(['unknown-tool', 'missing-key', 'extra-key', 'type-drift', 'constraint', 'arguments-encoding']);

/** Our diagnostics with one of ARG_CODES. */
export function argDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return ours(uri).filter((d) => ARG_CODES.has(codeOf(d) ?? ''));
}

export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `probe` returns a truthy value (or throws the last assertion when time runs out). */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeout = 10000): Promise<T> {
  const until = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
      last = undefined;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) {
      if (last instanceof Error) throw last;
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(25);
  }
}

export async function open(rel: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(wsUri(rel));
  return vscode.window.showTextDocument(doc, { preview: false });
}

/** Opens a trace and waits for the extension to have checked it. */
export async function openChecked(cg: ContractGuardApi, rel: string): Promise<vscode.TextEditor> {
  const editor = await open(rel);
  await waitFor(`a check of ${rel}`, () => cg.status(editor.document.uri));
  await cg.settled();
  return editor;
}

/** Closes all editors without saving (reverting edits). */
export async function closeAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.isDirty && doc.uri.scheme !== 'untitled') {
      const editor = await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      void editor;
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** A diagnostic as a comparable record. */
export function brief(d: vscode.Diagnostic) {
  return {
    code: codeOf(d),
    severity: vscode.DiagnosticSeverity[d.severity],
    range: `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
  };
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
}

/** The longest gap between ticks of a 5 ms timer while `work` runs: how long the extension host was held at once. */
export async function longestPause<T>(work: () => Promise<T>): Promise<{ value: T; pause: number }> {
  let pause = 0;
  let last = Date.now();
  const ticker = setInterval(() => {
    const now = Date.now();
    pause = Math.max(pause, now - last);
    last = now;
  }, 5);
  try {
    const value = await work();
    pause = Math.max(pause, Date.now() - last);
    return { value, pause };
  } finally {
    clearInterval(ticker);
  }
}
