// "Check Workspace Contracts": every trace in the workspace, opened or not, with a summary.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as vscode from 'vscode';
import type { WorkspaceSummary } from '../../../src/extension/workspaceCheck';
import { api, brief, codeOf, EXTENSION_ID, openChecked, ours, waitFor, wsUri } from './helpers';

describe('Check Workspace Contracts', () => {
  it('fills the Problems panel for traces that are not open, and sums them up like the CLI', async () => {
    const cg = await api();
    const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    const summary = await vscode.commands.executeCommand<WorkspaceSummary>('contractGuard.checkWorkspace', { quiet: true });
    await cg.settled();

    // the CLI over the same folders, as the independent count
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    // the files the default trace globs find, handed to the CLI one by one
    const globs = vscode.workspace.getConfiguration('contractGuard').get<string[]>('traces')!;
    const files = (await vscode.workspace.findFiles(`{${globs.join(',')}}`)).map((u) => vscode.workspace.asRelativePath(u)).sort();
    assert.ok(files.includes('fixtures/traces/hours.calls.jsonl') && files.includes('fixtures/vscode/closing.calls.jsonl'), files.join(' '));
    const r = spawnSync(process.execPath, [vscode.Uri.joinPath(ext.extensionUri, 'dist', 'cli.js').fsPath, 'check', ...files,
      '--contracts', 'fixtures/contracts', '--format', 'json'], { cwd: wsUri('').fsPath, encoding: 'utf8' });
    const report = JSON.parse(r.stdout) as {
      files: { path: string; calls: number; diagnostics: { code: string; line: number; column: number; endLine: number; endColumn: number }[] }[];
      summary: { files: number; calls: number; error: number; warning: number; info: number };
    };
    const traces = report.files.filter((f) => f.calls > 0 || f.diagnostics.length > 0);
    assert.ok(traces.length >= 7, 'fixture traces');
    assert.strictEqual(summary.traces, traces.length);
    assert.strictEqual(summary.calls, report.summary.calls);
    assert.strictEqual(summary.error, report.summary.error);
    assert.strictEqual(summary.warning, report.summary.warning);
    assert.strictEqual(summary.cancelled, false);
    const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
    const s = report.summary;
    assert.strictEqual(summary.message, `${n(s.calls, 'call')} in ${n(traces.length, 'trace')}: ${n(s.error, 'error')}, ${n(s.warning, 'warning')}` + (s.info ? `, ${n(s.info, 'info')}` : ''));
    assert.ok(summary.first, 'a first problem to show');
    const atFirst = vscode.languages.getDiagnostics(vscode.Uri.parse(summary.first.uri))
      .filter((d) => d.range.start.line === summary.first!.line && d.range.start.character === summary.first!.character);
    assert.ok(atFirst.some((d) => d.severity === vscode.DiagnosticSeverity.Error), 'the first problem shown is an error while there are errors');

    let unopened = 0;
    for (const f of traces) {
      const uri = wsUri(f.path);
      if (open.has(uri.toString()) || vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) continue;
      unopened++;
      const got = ours(uri).map(brief).map((d) => `${d.range} ${d.code}`).sort();
      const want = f.diagnostics.map((d) => `${d.line - 1}:${d.column - 1}-${d.endLine - 1}:${d.endColumn - 1} ${d.code}`).sort();
      assert.deepStrictEqual(got, want, f.path);
    }
    assert.ok(unopened >= 5, `${unopened} unopened traces checked`);
    // the traces view holds what this check found (the check hands it each file's result and call marks)
    const entries = new Map(cg.traces.entries().map((e) => [e.file, e.calls]));
    for (const f of traces) assert.strictEqual(entries.get(f.path), f.calls, `traces view entry of ${f.path}`);
    // contracts and plain JSON are not traces
    assert.deepStrictEqual(ours(wsUri('package.json')), []);
  });
});

describe('Check Workspace Contracts and the workspace’s excludes', () => {
  after(async () => {
    await vscode.workspace.getConfiguration('search').update('exclude', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Global);
  });

  it('skips what search.exclude and files.exclude hide', async () => {
    await api();
    const all = await vscode.commands.executeCommand<WorkspaceSummary>('contractGuard.checkWorkspace', { quiet: true });
    try {
      await vscode.workspace.getConfiguration('search').update('exclude', { '**/fixtures/vscode': true }, vscode.ConfigurationTarget.Global);
      const noVscode = await vscode.commands.executeCommand<WorkspaceSummary>('contractGuard.checkWorkspace', { quiet: true });
      assert.strictEqual(noVscode.traces, all.traces - 2, 'the two traces under fixtures/vscode are skipped');
      await vscode.workspace.getConfiguration('files').update('exclude', { '**/hours.*': true }, vscode.ConfigurationTarget.Global);
      const neither = await vscode.commands.executeCommand<WorkspaceSummary>('contractGuard.checkWorkspace', { quiet: true });
      assert.strictEqual(neither.traces, all.traces - 4, 'and the two hours traces');
    } finally {
      // `**/hours.*` also hides hours.contract.json: left set, every later suite would see get_hours as unknown
      await vscode.workspace.getConfiguration('search').update('exclude', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Global);
      // the workspace check reloads the contracts (nothing else does on an excludes change): load them unhidden
      await vscode.commands.executeCommand('contractGuard.checkWorkspace', { quiet: true });
      await (await api()).settled();
    }
  });
});

describe('contracts and the workspace’s excludes', () => {
  it('re-reads the contracts when files.exclude changes: a hidden contract no longer applies', async () => {
    const cg = await api();
    const editor = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const uri = editor.document.uri;
    const onLine0 = () => ours(uri).filter((d) => d.range.start.line === 0).map(codeOf);
    assert.deepStrictEqual(onLine0(), [], 'a good call');
    try {
      await vscode.workspace.getConfiguration('files').update('exclude', { '**/hours.contract.json': true }, vscode.ConfigurationTarget.Global);
      await waitFor('get_hours to lose its contract', () => onLine0().includes('unknown-tool'));
    } finally {
      await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the contract back', () => onLine0().length === 0);
    await cg.settled();
  });
});
