// Incremental re-checking: an edit to one line of a line-independent JSONL trace re-checks that line only, and the
// result is exactly what a whole check gives.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContractGuardApi } from '../../../src/extension/extension';
import { api, brief, closeAll, codeOf, openChecked, ours, waitFor } from './helpers';

const all = (uri: vscode.Uri) => ours(uri).map((d) => ({ ...brief(d), message: d.message, related: d.relatedInformation?.map((r) => `${r.location.range.start.line}:${r.location.range.start.character} ${r.message}`) }));

describe('incremental re-checking', () => {
  let cg: ContractGuardApi;
  before(async () => {
    cg = await api();
  });
  afterEach(closeAll);

  it('re-checks only the edited line of a trace whose lines are whole conversations, with the same result as a whole check', async () => {
    const editor = await openChecked(cg, 'fixtures/traces/weather.openai-chat.jsonl');
    const doc = editor.document;
    await waitFor('the line table', () => cg.lastCheck(doc.uri)?.lineIndependent);
    const before = ours(doc.uri).length;
    assert.ok(ours(doc.uri).some((d) => d.range.start.line === 1 && codeOf(d) === 'extra-key'));

    // drop the invented "lang" of line 2, and insert a new bad conversation above it (moves everything below)
    const line1 = doc.lineAt(1).text;
    const lang = line1.indexOf('\\"lang\\": \\"no\\", ');
    assert.ok(lang > 0);
    const bad = doc.lineAt(0).text.replace('\\"units\\": \\"metric\\"', '\\"units\\": \\"kelvin\\"');
    await editor.edit((b) => {
      b.delete(new vscode.Range(1, lang, 1, lang + '\\"lang\\": \\"no\\", '.length));
      b.insert(new vscode.Position(1, 0), `${bad}\n`);
    });
    await waitFor('an incremental check', () => cg.lastCheck(doc.uri)?.incremental && cg.lastCheck(doc.uri)?.incremental?.lines === doc.lineCount);
    const last = cg.lastCheck(doc.uri)!;
    assert.strictEqual(last.incremental!.checked, 2, 'the inserted line and the edited one');
    const patched = all(doc.uri);
    assert.ok(!patched.some((d) => d.range.startsWith('2:') && d.code === 'extra-key'), 'lang is gone');
    assert.ok(patched.some((d) => d.range.startsWith('1:') && d.code === 'constraint'), 'the new line is flagged');
    assert.strictEqual(patched.length, before, 'one finding gone, one new');

    // the same document checked whole gives exactly the same diagnostics
    cg.recheck(doc.uri);
    await waitFor('a whole check', () => cg.lastCheck(doc.uri)?.incremental === undefined);
    assert.deepStrictEqual(all(doc.uri), patched);
    assert.strictEqual(cg.status(doc.uri)?.calls, 9);
  });

  it('checks an event-per-line trace whole (its calls form one conversation)', async () => {
    const editor = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const doc = editor.document;
    await new Promise((r) => setTimeout(r, 100));
    assert.strictEqual(cg.lastCheck(doc.uri)?.lineIndependent, false);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), ' '));
    await waitFor('a check after the edit', () => cg.lastCheck(doc.uri) && ours(doc.uri).length > 0 && cg.status(doc.uri) !== undefined);
    await cg.settled();
    assert.strictEqual(cg.lastCheck(doc.uri)?.incremental, undefined);
  });
});
