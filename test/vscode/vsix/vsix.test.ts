import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, argDiagnostics, brief, EXTENSION_ID, openChecked, ours, waitFor, wsUri } from '../suite/helpers';

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

  it('checks a large trace on the worker thread it ships', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await vscode.workspace.fs.stat(vscode.Uri.joinPath(ext.extensionUri, 'dist', 'checkWorker.js'));
    const cg = await api();
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 3 * 1024 * 1024; i++) {
      const line = JSON.stringify({ name: 'get_hours', arguments: { building: `B${i}`, weekday: i === 1000 ? 'x' : i % 7 } });
      lines.push(line);
      size += line.length + 1;
    }
    const uri = wsUri('large/packaged.calls.jsonl');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(lines.join('\n') + '\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await waitFor('diagnostics on the 3 MB trace', () => ours(uri).length > 0, 60000);
    assert.deepStrictEqual(ours(uri).map((d) => `${d.range.start.line}`), ['1000']);
    assert.strictEqual(cg.status(uri)?.calls, lines.length);
  });

  it('runs the workspace command', async () => {
    await api();
    const summary = await vscode.commands.executeCommand<{ traces: number; error: number }>('contractGuard.checkWorkspace', { quiet: true });
    assert.ok(summary.traces >= 7 && summary.error > 0, JSON.stringify(summary));
  });
});
