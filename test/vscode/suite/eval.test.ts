// Inspect AI `.eval` logs (zips) in the editor: the calls page (a custom editor for *.eval), the read-only JSON view
// with live diagnostics, the command that opens that view at a call, and Check Workspace Contracts reporting an
// .eval's findings on its view. The log is zipped here with fflate, the library the core unzips it with.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { strToU8, zipSync } from 'fflate';
import { loadContracts } from '../../../src/core';
import { evalPage, evalTable, evalViewUri, readEval } from '../../../src/extension/evalView';
import { api, closeAll, codeOf, ours, waitFor, wsUri } from './helpers';

function sample(id: number, weekday: unknown) {
  return {
    id,
    epoch: 1,
    messages: [
      { role: 'user', content: 'When is the Killam library open on Monday?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: `call_${id}`, function: 'get_hours', arguments: { building: 'Killam', weekday } }] },
      { role: 'tool', tool_call_id: `call_${id}`, function: 'get_hours', content: '08:00-22:00' },
    ],
  };
}

/** A two-sample log: sample 1 asks with weekday "1" (a string: type-drift), sample 2 with 1. */
function evalZip(): Uint8Array {
  return zipSync({
    'header.json': strToU8(JSON.stringify({ version: 2, status: 'success', eval: { task: 'hours', model: 'mockllm/model' } })),
    'samples/1_epoch_1.json': strToU8(JSON.stringify(sample(1, '1'), null, 2)),
    'samples/2_epoch_1.json': strToU8(JSON.stringify(sample(2, 1), null, 2)),
  });
}

/** The 0-based line of the first occurrence of `needle` in `text`. */
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length - 1;

describe('Inspect AI .eval logs', () => {
  const file = wsUri('evals/hours.eval');
  const broken = wsUri('evals/broken.eval');

  before(async () => {
    await api();
    await vscode.workspace.fs.writeFile(file, evalZip());
    await vscode.workspace.fs.writeFile(broken, strToU8('PK\u0003\u0004 not really a zip'));
  });
  after(async () => {
    await closeAll();
    await vscode.workspace.fs.delete(wsUri('evals'), { recursive: true });
  });

  it('open as a read-only JSON view with squiggles on the call inside', async () => {
    const view = evalViewUri(file);
    const doc = await vscode.workspace.openTextDocument(view);
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(doc.languageId, 'json');
    assert.ok(doc.getText().startsWith('{"header": {"version":2'), doc.getText().slice(0, 40));
    await waitFor('diagnostics on the JSON view', () => ours(view).length > 0, 20000);
    const drift = ours(view).filter((d) => codeOf(d) === 'type-drift');
    assert.strictEqual(drift.length, 1, ours(view).map((d) => `${codeOf(d)} ${d.message}`).join('\n'));
    assert.strictEqual(drift[0].range.start.line, lineOf(doc.getText(), '"weekday": "1"'));
    assert.strictEqual(doc.getText(drift[0].range), '"1"');
  });

  it('list their calls on the calls page, each linked to its line in the JSON view', async () => {
    const read = await readEval(file);
    assert.ok('text' in read);
    const contract = new TextDecoder().decode(await vscode.workspace.fs.readFile(wsUri('fixtures/contracts/hours.contract.json')));
    const { contracts } = loadContracts([{ path: 'fixtures/contracts/hours.contract.json', text: contract }]);
    const page = evalPage(file, { text: read.text, table: await evalTable(read.text, file, contracts) });
    assert.match(page, /Content-Security-Policy" content="default-src 'none'; style-src 'nonce-/);
    assert.ok(!/<script/i.test(page), 'no scripts on the page');
    assert.match(page, /2 samples, 2 calls, 1 with findings/);
    const rows = [...page.matchAll(/<tr><td>([^<]*)<\/td><td>(\d+)<\/td><td><a href="([^"]+)">([^<]+)<\/a><\/td><td class="args">([^<]*)<\/td><td>(.*?)<\/td><\/tr>/g)];
    assert.strictEqual(rows.length, 2);
    const [first, second] = rows;
    assert.strictEqual(first[4], 'get_hours');
    assert.match(first[6], /type-drift/);
    assert.match(second[6], /ok/);
    // the link runs the open command with the file and the call's line
    const args = JSON.parse(decodeURIComponent(first[3].replace(/^command:contractGuard\.openEvalCalls\?/, '')));
    // (the call is the object opening on the line after `"tool_calls": [`)
    assert.deepStrictEqual(args, [file.toString(), lineOf(read.text, '"tool_calls"') + 1]);

    // the custom editor is what opens a .eval
    await vscode.commands.executeCommand('vscode.open', file);
    await waitFor('the calls page', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.viewType === 'contractGuard.evalLog' && input.uri.toString() === file.toString();
    });
  });

  it('open the JSON view at a call from the page (the command its links run)', async () => {
    const read = await readEval(file);
    assert.ok('text' in read);
    const line = lineOf(read.text, '"weekday": 1');
    await vscode.commands.executeCommand('contractGuard.openEvalCalls', file.toString(), line);
    const editor = await waitFor('the JSON view', () => vscode.window.activeTextEditor?.document.uri.scheme === 'contract-guard-eval' && vscode.window.activeTextEditor);
    assert.strictEqual(editor.document.uri.toString(), evalViewUri(file).toString());
    assert.strictEqual(editor.selection.active.line, line);
  });

  it('answer a file that is no .eval log with one line, and no diagnostics', async () => {
    const read = await readEval(broken);
    assert.ok('error' in read);
    assert.strictEqual(read.error, 'evals/broken.eval is not an Inspect AI .eval log (a zip of header.json and samples/*.json)');
    const doc = await vscode.workspace.openTextDocument(evalViewUri(broken));
    assert.deepStrictEqual(JSON.parse(doc.getText()), { error: read.error });
    const page = evalPage(broken, read);
    assert.ok(page.includes('evals/broken.eval is not an Inspect AI .eval log'), page);
  });

  it('are checked by Check Workspace Contracts, the findings shown on the JSON view', async () => {
    await closeAll();
    const view = evalViewUri(file);
    const summary = await vscode.commands.executeCommand<{ traces: number; message: string }>('contractGuard.checkWorkspace', { quiet: true });
    assert.ok(summary.traces > 0, summary.message);
    const drift = vscode.languages.getDiagnostics(view).filter((d) => codeOf(d) === 'type-drift');
    assert.strictEqual(drift.length, 1, JSON.stringify(vscode.languages.getDiagnostics(view).map((d) => d.message)));
    assert.ok(vscode.languages.getDiagnostics(broken).length === 0 && vscode.languages.getDiagnostics(evalViewUri(broken)).length === 0);
    // the whole workspace is checked: it holds the large suite's 10 MB traces by now
  }).timeout(120000);
});
