// Workspace contracts: discovered by glob, watched, re-checking open traces on change, and diagnosed when broken.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContractGuardApi } from '../../../src/extension/extension';
import { api, argDiagnostics, closeAll, codeOf, open, openChecked, ours, waitFor, wsUri } from './helpers';

const HOURS_TRACE = 'fixtures/traces/hours.calls.jsonl';
const HOURS_CONTRACT = 'fixtures/contracts/hours.contract.json';
const enc = new TextEncoder();
const dec = new TextDecoder();

describe('workspace contracts', () => {
  let cg: ContractGuardApi;
  let original: string;
  before(async () => {
    cg = await api();
    original = dec.decode(await vscode.workspace.fs.readFile(wsUri(HOURS_CONTRACT)));
  });
  afterEach(async () => {
    await closeAll();
    await vscode.workspace.fs.writeFile(wsUri(HOURS_CONTRACT), enc.encode(original));
    await vscode.workspace.fs.delete(wsUri('fixtures/contracts/broken.contract.json')).then(undefined, () => undefined);
    await cg.settled();
  });

  it('the fixture contracts load without diagnostics of their own', async () => {
    for (const name of ['hours.contract.json', 'rooms.contract.json', 'weather.tools.json']) {
      assert.deepStrictEqual(ours(wsUri(`fixtures/contracts/${name}`)), [], name);
    }
  });

  it('a schema broken while editing gets a diagnostic on the contract, and loses it when fixed', async () => {
    const editor = await open(HOURS_CONTRACT);
    const doc = editor.document;
    const at = doc.getText().indexOf('"integer"');
    await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(at), doc.positionAt(at + 9)), '"integr"'));
    const [d] = await waitFor('a diagnostic on the contract', () => ours(doc.uri).length > 0 && ours(doc.uri));
    assert.strictEqual(codeOf(d), 'contract-invalid');
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /get_hours/);
    // it points into the broken schema: the edited line (the keyword, its value, or the schema around it)
    const edited = doc.positionAt(at).line;
    assert.ok(d.range.start.line <= edited && edited <= d.range.end.line, `range ${JSON.stringify(d.range)} covers line ${edited + 1}`);
    await vscode.commands.executeCommand('undo');
    await waitFor('the diagnostic to go', () => ours(doc.uri).length === 0);
  });

  it('a new broken contract file on disk is found by the watcher and diagnosed; deleting it clears that', async () => {
    const uri = wsUri('fixtures/contracts/broken.contract.json');
    await vscode.workspace.fs.writeFile(uri, enc.encode('{"version": 1, "tools": {'));
    const [d] = await waitFor('a diagnostic on the new file', () => ours(uri).length > 0 && ours(uri), 15000);
    assert.strictEqual(codeOf(d), 'contract-invalid');
    assert.match(d.message, /not valid JSON/);
    assert.strictEqual(d.range.start.line, 0);
    await vscode.workspace.fs.delete(uri);
    await waitFor('the diagnostic to go with the file', () => ours(uri).length === 0, 15000);
  }).timeout(40000);

  it('a contract change on disk re-checks the open traces', async () => {
    const editor = await openChecked(cg, HOURS_TRACE);
    const uri = editor.document.uri;
    assert.ok(ours(uri).some((d) => codeOf(d) === 'extra-key'));
    // declare the `open` argument the trace's fifth call passes
    const widened = original.replace('"weekday": {', '"open": { "type": "boolean" },\n          "weekday": {');
    assert.notStrictEqual(widened, original);
    await vscode.workspace.fs.writeFile(wsUri(HOURS_CONTRACT), enc.encode(widened));
    await waitFor('extra-key to disappear', () => !ours(uri).some((d) => codeOf(d) === 'extra-key'), 15000);
    assert.deepStrictEqual(argDiagnostics(uri).map(codeOf), ['type-drift', 'type-drift', 'type-drift', 'unknown-tool']);
    await vscode.workspace.fs.writeFile(wsUri(HOURS_CONTRACT), enc.encode(original));
    await waitFor('extra-key to come back', () => ours(uri).some((d) => codeOf(d) === 'extra-key'), 15000);
  }).timeout(40000);
});
