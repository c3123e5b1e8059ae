// The web extension (package.json `browser` only) in VS Code's web-worker extension host: the same checks,
// through vscode.workspace.fs, without Node.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { WorkspaceSummary } from '../../../src/extension/workspaceCheck';
import { api, argDiagnostics, brief, closeAll, codeOf, open, openChecked, ours, sleep, waitFor, wsUri } from '../suite/helpers';

describe('web extension host', () => {
  afterEach(closeAll);

  it('runs the browser bundle, not the Node one', () => {
    const ext = vscode.extensions.getExtension('contract-guard.contract-guard')!;
    assert.strictEqual(ext.packageJSON.main, undefined);
    assert.strictEqual(ext.packageJSON.browser, './dist/web/extension.js');
    assert.strictEqual(ext.extensionKind, vscode.ExtensionKind.UI);
    assert.strictEqual(typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node, 'undefined');
  });

  it('flags the exact tokens of a fixture trace', async () => {
    const cg = await api();
    const editor = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const got = argDiagnostics(editor.document.uri).map(brief);
    assert.deepStrictEqual(got.map((d) => d.code), ['type-drift', 'type-drift', 'type-drift', 'extra-key', 'unknown-tool']);
    const line = editor.document.lineAt(2).text;
    const at = line.indexOf('true');
    assert.strictEqual(got[1].range, `2:${at}-2:${at + 4}`);
    assert.strictEqual(got[1].severity, 'Error');
  });

  it('follows an edit', async () => {
    const cg = await api();
    const editor = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const doc = editor.document;
    await editor.edit((b) => b.delete(doc.lineAt(5).rangeIncludingLineBreak));
    await waitFor('unknown-tool to go', () => !ours(doc.uri).some((d) => codeOf(d) === 'unknown-tool'));
    assert.strictEqual(argDiagnostics(doc.uri).length, 4);
  });

  it('checks the workspace through vscode.workspace.fs', async () => {
    await api();
    const summary = await vscode.commands.executeCommand<WorkspaceSummary>('contractGuard.checkWorkspace', { quiet: true });
    assert.ok(summary.traces >= 7, `${summary.traces} traces`);
    assert.ok(summary.error >= 30, `${summary.error} errors`);
    assert.deepStrictEqual(argDiagnostics(wsUri('fixtures/traces/rooms.openai-chat.json')).map(codeOf), ['constraint', 'missing-key', 'constraint']);
  });

  it('leaves package.json alone', async () => {
    const cg = await api();
    const pkg = await open('package.json');
    await sleep(500);
    await cg.settled();
    assert.deepStrictEqual(ours(pkg.document.uri), []);
  });
});
