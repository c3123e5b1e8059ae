// Large traces are checked on a worker thread: the extension host stays responsive while they are read, and an
// edit made while a check is under way wins (the stale check is dropped, never published).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { checkText, loadContracts } from '../../../src/core';
import type { ContractGuardApi } from '../../../src/extension/extension';
import { api, closeAll, codeOf, longestPause, ours, setSetting, waitFor, workspaceContracts, wsUri } from './helpers';
import { MAX_LENSES } from '../../../src/extension/fixtures/providers';

/** One conversation of call lines (so the file is always checked whole), every 500th call bad. */
function bigCalls(megabytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < megabytes * 1024 * 1024; i++) {
    const weekday = i % 500 === 250 ? '"x"' : String(i % 7);
    const line = `{"name": "get_hours", "arguments": {"building": "Building ${i}", "weekday": ${weekday}}}`;
    parts.push(line);
    size += line.length + 1;
  }
  return parts.join('\n') + '\n';
}

/** Lines that are whole conversations (each checked as its lines are read), every 500th call bad. */
function bigConversations(megabytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < megabytes * 1024 * 1024; i++) {
    const args = JSON.stringify({ building: `Building ${i}`, weekday: i % 500 === 250 ? 'x' : i % 7 });
    const line = JSON.stringify({
      messages: [
        { role: 'user', content: `Hours of Building ${i}?` },
        { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'get_hours', arguments: args } }] },
        { role: 'tool', tool_call_id: `call_${i}`, content: '{"open": "08:00-22:00"}' },
      ],
    });
    parts.push(line);
    size += line.length + 1;
  }
  return parts.join('\n') + '\n';
}

describe('large traces', () => {
  let cg: ContractGuardApi;
  before(async () => {
    cg = await api();
  });
  afterEach(closeAll);

  it('are checked off the host: the extension host keeps answering while a 10 MB trace is read', async () => {
    const text = bigConversations(10);
    const uri = wsUri('large/sliced.openai-chat.jsonl');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    // how long one blocking check of the same text takes here
    const t0 = Date.now();
    const contract = new TextDecoder().decode(await vscode.workspace.fs.readFile(wsUri('fixtures/contracts/hours.contract.json')));
    const { contracts } = loadContracts([{ path: 'fixtures/contracts/hours.contract.json', text: contract }]);
    const whole = checkText(text, { fileName: 'sliced.openai-chat.jsonl', contracts });
    const blocking = Date.now() - t0;
    assert.ok(whole.calls > 10000, `${whole.calls} calls`);

    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await waitFor('diagnostics on the large trace', () => ours(uri).length > 0, 60000);
    assert.strictEqual(cg.status(uri)?.calls, whole.calls);
    const first = cg.lastCheck(uri);

    // a check of the open document again, timed alone (opening a 10 MB editor is VS Code's own pause, not ours)
    const { pause: maxGap } = await longestPause(async () => {
      cg.recheck(uri);
      await waitFor('the check again', () => cg.lastCheck(uri) !== first, 60000);
      await cg.settled();
    });
    console.log(`      blocking check ${blocking} ms; longest pause of the extension host while it checks on a worker thread ${maxGap} ms`);
    // a blocking check holds the host for the whole check; off the host's thread the pauses are a fraction of it
    assert.ok(maxGap < blocking, `the host paused ${maxGap} ms at once; a blocking check takes ${blocking} ms`);
    assert.strictEqual(cg.status(uri)?.calls, whole.calls);
  }).timeout(120000);

  it('keep their lenses when checked on the worker thread (call marks come back with the findings)', async () => {
    const text = bigCalls(3);
    const uri = wsUri('large/lenses.calls.jsonl');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await waitFor('diagnostics on the 3 MB trace', () => ours(uri).length > 0, 60000);
    await cg.settled();
    await setSetting('contractGuard.codeLens', 'all');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 5000);
    await setSetting('contractGuard.codeLens', undefined);
    const titles = lenses.map((l) => `${l.range.start.line} ${l.command?.title ?? ''}`);
    const freeze = titles.filter((t) => / Freeze get_hours as fixture /.test(t));
    assert.strictEqual(freeze.length, MAX_LENSES, 'one freeze lens per call (contractGuard.codeLens: all), for the first calls of a trace checked on the worker');
    assert.ok(titles.includes('250 $(beaker) Freeze get_hours as fixture (type-drift)'), titles.slice(245, 255).join('\n'));
    assert.ok(titles.includes('251 $(beaker) Freeze get_hours as fixture (ok)'));
    assert.ok(titles.includes('0 $(table) Decision table'), 'the session lens above the first call');
  }).timeout(120000);

  it('are checked on the worker by Check Workspace Contracts too, unopened', async () => {
    const text = bigCalls(3);
    const uri = wsUri('large/unopened.calls.jsonl');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    await closeAll();
    const summary = await vscode.commands.executeCommand<{ traces: number; message: string }>('contractGuard.checkWorkspace', { quiet: true });
    assert.ok(summary.traces > 0, summary.message);
    const got = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Contract Guard');
    const expected = checkText(text, { fileName: 'large/unopened.calls.jsonl', contracts: (await workspaceContracts()) }).findings;
    assert.ok(got.length > 0 && got.length === expected.length, `${got.length} diagnostics, ${expected.length} findings`);
    assert.ok(got.some((d) => d.range.start.line === 250 && codeOf(d) === 'type-drift'));
  }).timeout(120000);

  it('drop a check overtaken by an edit: only the edited text’s result is published', async () => {
    const text = bigCalls(4);
    const uri = wsUri('large/edited.calls.jsonl');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    // a result for the text before the edit, published after it, would flag line 250 again
    let editedVersion = Infinity;
    let stalePublished = false;
    // (the extension's own event, fired as it publishes: VS Code's onDidChangeDiagnostics is debounced and can
    // arrive after the edit for a publication made before it)
    const sub = cg.onDidCheck((checked) => {
      if (checked.toString() !== uri.toString()) return;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (doc && doc.version >= editedVersion && ours(uri).some((d) => d.range.start.line === 250)) stalePublished = true;
    });
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      // straight away, while the first check is (most likely) under way: fix the first bad call
      const bad = doc.getText().indexOf('"weekday": "x"');
      const line = doc.positionAt(bad).line;
      assert.strictEqual(line, 250);
      editedVersion = doc.version + 1;
      await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(bad + 11), doc.positionAt(bad + 14)), '3'));
      await waitFor('diagnostics after the edit', () => cg.status(uri) && ours(uri).length > 0 && !ours(uri).some((d) => d.range.start.line === 250), 60000);
      await cg.settled();
      assert.ok(!ours(uri).some((d) => d.range.start.line === 250), 'the fixed line is clean');
      assert.ok(ours(uri).some((d) => d.range.start.line === 750 && codeOf(d) === 'type-drift'), 'the next bad call is flagged');
      assert.strictEqual(stalePublished, false, 'the check of the text before the edit was never published after it');
    } finally {
      sub.dispose();
    }
  }).timeout(120000);
});
