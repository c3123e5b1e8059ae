// A trace growing on disk while it is open (an agent writing it): what is appended is checked from the state saved
// after the lines before, and the diagnostics are exactly those of a whole check of the grown file.
import * as assert from 'assert';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ContractGuardApi } from '../../../src/extension/extension';
import { api, brief, closeAll, codeOf, open, ours, waitFor, wsUri } from './helpers';

const all = (uri: vscode.Uri) => ours(uri).map((d) => ({ ...brief(d), message: d.message }));
const call = (weekday: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ name: 'get_hours', arguments: { building: 'Killam', weekday, ...extra } });

describe('a trace growing on disk', () => {
  let cg: ContractGuardApi;
  before(async () => {
    cg = await api();
    mkdirSync(wsUri('grow').fsPath, { recursive: true });
  });
  afterEach(closeAll);
  // the suites after this one count the workspace's traces
  after(() => rmSync(wsUri('grow').fsPath, { recursive: true, force: true }));

  it('checks appended lines of one conversation from the saved state, with the result of a whole check', async () => {
    const rel = 'grow/growing.calls.jsonl';
    const uri = wsUri(rel);
    writeFileSync(uri.fsPath, `${call(2)}\n${call('2')}\n`);
    const editor = await open(rel);
    const doc = editor.document;
    await waitFor('the first check', () => cg.lastCheck(uri)?.growing && ours(uri).length === 1);
    const first = cg.lastCheck(uri);

    // a repeat of line 1 and a bad call arrive: the cross-call finding needs line 1, which is not read again
    appendFileSync(uri.fsPath, `${call(2)}\n${call(2, { open: true })}\n`);
    await waitFor('the appended check', () => cg.lastCheck(uri) !== first && cg.lastCheck(uri)?.appended && doc.lineCount === 5, 15000);
    assert.strictEqual(cg.lastCheck(uri)!.appended!.lines, 2);
    assert.ok(ours(uri).some((d) => d.range.start.line === 2 && codeOf(d) === 'duplicate-fingerprint'), 'the repeat of line 1');
    assert.ok(ours(uri).some((d) => d.range.start.line === 3 && codeOf(d) === 'extra-key'));
    const appended = all(uri);

    // half a line: read as it stands (a parse error at the end), then whole once its newline comes
    const bad = call(true);
    appendFileSync(uri.fsPath, bad.slice(0, 20));
    await waitFor('the partial line', () => cg.lastCheck(uri)?.appended && ours(uri).some((d) => codeOf(d) === 'parse-error'), 15000);
    appendFileSync(uri.fsPath, `${bad.slice(20)}\n`);
    await waitFor('the completed line', () => cg.lastCheck(uri)?.appended && !ours(uri).some((d) => codeOf(d) === 'parse-error') && ours(uri).some((d) => d.range.start.line === 4 && codeOf(d) === 'type-drift'), 15000);
    const grown = all(uri);
    assert.deepStrictEqual(grown.slice(0, appended.length), appended, 'what was there stays');

    // the same file checked whole gives exactly the same diagnostics
    const last = cg.lastCheck(uri);
    cg.recheck(uri);
    await waitFor('a whole check', () => cg.lastCheck(uri) !== last && cg.lastCheck(uri)?.appended === undefined);
    assert.deepStrictEqual(all(uri), grown);
    assert.strictEqual(cg.status(uri)?.calls, 5);
    assert.ok(!doc.isDirty);
  });

  it('follows a large trace on the worker thread that checked it', async () => {
    const rel = 'grow/large.calls.jsonl';
    const uri = wsUri(rel);
    const lines: string[] = [];
    for (let i = 0; lines.length * 80 < 1024 * 1024; i++) lines.push(call(i % 7, { building: `Hall ${i}` }));
    writeFileSync(uri.fsPath, `${lines.join('\n')}\n`);
    await open(rel);
    await waitFor('the first check', () => cg.lastCheck(uri)?.growing && cg.status(uri), 60000);
    const first = cg.lastCheck(uri);
    assert.deepStrictEqual(ours(uri).map(codeOf), [], 'good calls');
    appendFileSync(uri.fsPath, `${call('3')}\n${call(0, { building: 'Hall 0' })}\n`);
    await waitFor('the appended check', () => cg.lastCheck(uri) !== first && cg.lastCheck(uri)?.appended, 30000);
    assert.strictEqual(cg.lastCheck(uri)!.appended!.lines, 2);
    const appended = all(uri);
    assert.ok(appended.some((d) => d.range.startsWith(`${lines.length}:`) && d.code === 'type-drift'), JSON.stringify(appended));
    assert.ok(appended.some((d) => d.range.startsWith(`${lines.length + 1}:`) && d.code === 'duplicate-fingerprint'), 'a repeat of line 2, read long before');
    const last = cg.lastCheck(uri);
    cg.recheck(uri);
    await waitFor('a whole check', () => cg.lastCheck(uri) !== last && cg.lastCheck(uri)?.appended === undefined && cg.lastCheck(uri)?.growing, 60000);
    assert.deepStrictEqual(all(uri), appended);
  });

  it('an edit above the end is checked whole (the saved state is past it)', async () => {
    const rel = 'grow/edited.calls.jsonl';
    const uri = wsUri(rel);
    writeFileSync(uri.fsPath, `${call(2)}\n${call('2')}\n`);
    const editor = await open(rel);
    await waitFor('the first check', () => cg.lastCheck(uri)?.growing);
    const first = cg.lastCheck(uri);
    await editor.edit((b) => b.replace(new vscode.Range(1, 0, 1, editor.document.lineAt(1).text.length), call(3)));
    await waitFor('the check after the edit', () => cg.lastCheck(uri) !== first && cg.status(uri) !== undefined);
    await cg.settled();
    assert.strictEqual(cg.lastCheck(uri)!.appended, undefined);
    assert.deepStrictEqual(ours(uri).map(codeOf), [], 'the bad line was fixed');
  });
});
