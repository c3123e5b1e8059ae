// Adoption features in the editor: "Create Contract from This Trace" (never overwrites), and
// contract-guard.config.json with a baseline (baselined findings shown as hints). Everything this suite writes
// into the workspace is removed again, so later suites see the workspace they expect.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { checkText, loadContracts } from '../../../src/core';
import { buildBaseline, renderBaseline } from '../../../src/core/baseline';
import { reportFile } from '../../../src/core/report/model';
import { LineIndex } from '../../../src/core/parse/reader';
import { api, closeAll, codeOf, openChecked, ours, waitFor, wsUri } from './helpers';

const enc = (s: string) => new TextEncoder().encode(s);

async function remove(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.workspace.fs.delete(uri);
  } catch {
    // already gone
  }
}

describe('adoption: Create Contract from This Trace', () => {
  const created: vscode.Uri[] = [];
  after(async () => {
    await closeAll();
    for (const u of created) await remove(u);
    await (await api()).settled();
  });

  it('writes <trace>.contract.json beside the trace, then <trace>-2.contract.json: never overwrites', async () => {
    const cg = await api();
    await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const first = await vscode.commands.executeCommand<vscode.Uri>('contractGuard.createContract');
    assert.ok(first);
    created.push(first);
    assert.strictEqual(vscode.workspace.asRelativePath(first), 'fixtures/traces/hours.calls.contract.json');
    const contract = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(first)));
    assert.deepStrictEqual(Object.keys(contract.tools), ['get_hours', 'get_open_now']);
    assert.deepStrictEqual(contract.tools.get_hours.arguments.required, ['building', 'weekday']);
    assert.strictEqual(contract.tools.get_hours.arguments.additionalProperties, false);
    const second = await vscode.commands.executeCommand<vscode.Uri>('contractGuard.createContract', wsUri('fixtures/traces/hours.calls.jsonl'));
    assert.ok(second);
    created.push(second);
    assert.strictEqual(vscode.workspace.asRelativePath(second), 'fixtures/traces/hours.calls-2.contract.json');
    assert.deepStrictEqual(JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(first))), contract, 'the first file is untouched');
  });
});

describe('adoption: contract-guard.config.json and its baseline', () => {
  const config = wsUri('contract-guard.config.json');
  const baseline = wsUri('cg-baseline.json');
  after(async () => {
    await closeAll();
    await remove(config);
    await remove(baseline);
    await (await api()).settled();
  });

  it('findings the baseline accepts are hints, ignore rules drop findings; the others keep their severity', async () => {
    const cg = await api();
    const rel = 'fixtures/traces/hours.calls.jsonl';
    const editor = await openChecked(cg, rel);
    const before = ours(editor.document.uri).filter((d) => codeOf(d) === 'type-drift');
    assert.strictEqual(before.length, 3);
    assert.ok(before.every((d) => d.severity === vscode.DiagnosticSeverity.Error));

    // Accept the first two type-drift findings, as `contract-guard check --update-baseline` would write them.
    const text = editor.document.getText();
    const contractText = new TextDecoder().decode(await vscode.workspace.fs.readFile(wsUri('fixtures/contracts/hours.contract.json')));
    const result = checkText(text, { fileName: rel, contracts: loadContracts([{ path: 'hours.contract.json', text: contractText }]).contracts });
    const drift = result.findings.filter((f) => f.code === 'type-drift').slice(0, 2);
    assert.strictEqual(drift.length, 2);
    const file = reportFile(rel, { ...result, findings: drift }, LineIndex.of(text));
    await vscode.workspace.fs.writeFile(baseline, enc(renderBaseline(buildBaseline([file]))));
    assert.ok(ours(editor.document.uri).some((d) => codeOf(d) === 'extra-key'));
    await vscode.workspace.fs.writeFile(config, enc(JSON.stringify({ baseline: 'cg-baseline.json', ignore: [{ code: 'extra-key', path: 'fixtures/traces/*.jsonl' }] })));

    const hinted = await waitFor('baselined findings as hints', () => {
      const now = ours(editor.document.uri).filter((d) => codeOf(d) === 'type-drift');
      return now.filter((d) => d.severity === vscode.DiagnosticSeverity.Hint).length === 2 ? now : undefined;
    });
    assert.deepStrictEqual(hinted.map((d) => d.severity), [vscode.DiagnosticSeverity.Hint, vscode.DiagnosticSeverity.Hint, vscode.DiagnosticSeverity.Error]);
    assert.ok(!ours(editor.document.uri).some((d) => codeOf(d) === 'extra-key'), 'the ignore rule drops extra-key in this folder');

    await remove(config);
    await waitFor('findings back to errors once the config is gone', () =>
      (ours(editor.document.uri).filter((d) => codeOf(d) === 'type-drift').every((d) => d.severity === vscode.DiagnosticSeverity.Error) &&
        ours(editor.document.uri).some((d) => codeOf(d) === 'extra-key')) || undefined);
  });
});

describe('adoption: built-in packs in the editor', () => {
  const trace = wsUri('fixtures/traces/session.claude.jsonl');
  after(async () => {
    await closeAll();
    await vscode.workspace.getConfiguration().update('contractGuard.packs', undefined, vscode.ConfigurationTarget.Global);
    await remove(trace);
    await (await api()).settled();
  });

  it('a Claude Code log is checked by the Claude Code pack; contractGuard.packs: false turns it off (workspace contracts still apply)', async () => {
    const line = (id: string, name: string, input: unknown) =>
      JSON.stringify({ type: 'assistant', sessionId: 's', uuid: `u-${id}`, message: { id: `m-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
    await vscode.workspace.fs.writeFile(trace, enc([line('t1', 'Read', { file_path: '/a.py', limit: '20' }), line('t2', 'Bash', { command: 'ls' })].join('\n') + '\n'));
    const cg = await api();
    const editor = await openChecked(cg, 'fixtures/traces/session.claude.jsonl');
    const codes = () => ours(editor.document.uri).map((d) => codeOf(d)).join(',');
    await waitFor('type-drift from the pack', () => codes() === 'type-drift' || undefined);
    await vscode.workspace.getConfiguration().update('contractGuard.packs', false, vscode.ConfigurationTarget.Global);
    // The suite's workspace contracts are closed and declare Bash but not Read: without the pack, Read is unknown.
    await waitFor('unknown-tool without packs', () => codes() === 'unknown-tool' || undefined);
  });
});
