import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, argDiagnostics, brief, EXTENSION_ID, openChecked, ours } from '../suite/helpers';

describe('the installed .vsix', () => {
  it('is the installed package, not a development folder', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'installed');
    assert.match(ext.extensionUri.path, /\/extensions\/contract-guard\.contract-guard-\d+\.\d+\.\d+/);
    assert.ok(ext.packageJSON.main && ext.packageJSON.browser, 'both entries');
  });

  it('checks a trace when it is opened', async () => {
    const cg = await api();
    const editor = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const got = argDiagnostics(editor.document.uri).map(brief);
    assert.deepStrictEqual(got.map((d) => d.code), ['type-drift', 'type-drift', 'type-drift', 'extra-key', 'unknown-tool']);
    assert.ok(ours(editor.document.uri).every((d) => d.source === 'Contract Guard'));
  });

  it('runs the workspace command', async () => {
    await api();
    const summary = await vscode.commands.executeCommand<{ traces: number; error: number }>('contractGuard.checkWorkspace', { quiet: true });
    assert.ok(summary.traces >= 7 && summary.error > 0, JSON.stringify(summary));
  });
});
