// Compare runs in the editor: the commands on two runs (files, folders, the explorer's Select for Compare / Compare
// with Selected), what the webview shows (read back from its DOM through the page's report), a click's reveal,
// mock coverage against the frozen fixtures with one freeze per uncovered shape, and cancellation.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ComparePanel } from '../../../src/extension/compare/panel';
import { api, waitFor, wsUri } from './helpers';

const A = [
  '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2}}',
  '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}',
  '{"name": "get_hours", "arguments": {"building": "", "weekday": 3}}',
];
// B: a call moved up (its type-drift must stay "unchanged"), a new type-drift, a new key shape; A's constraint gone
const B = [
  '{"name": "get_hours", "arguments": {"building": "Dal", "weekday": 1}}',
  '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}',
  '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": "2"}}',
  '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2, "lang": "en"}}',
];
const NEW_SHAPE = 'get_hours {building, lang, weekday}';

async function write(rel: string, text: string): Promise<vscode.Uri> {
  const uri = wsUri(rel);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

async function finished(panel: ComparePanel | undefined): Promise<ComparePanel> {
  assert.ok(panel, 'a compare panel');
  const failure = await panel.done;
  assert.strictEqual(failure, undefined, failure);
  return panel;
}

describe('Compare Traces', function () {
  this.timeout(60000);
  let a: vscode.Uri;
  let b: vscode.Uri;

  before(async () => {
    await api();
    a = await write('compare-runs/a/hours.calls.jsonl', A.join('\n') + '\n');
    b = await write('compare-runs/b/hours.calls.jsonl', B.join('\n') + '\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // later suites count the workspace's traces
    await vscode.workspace.fs.delete(wsUri('compare-runs'), { recursive: true });
  });

  it('shows the new shape and the new findings of B, matched across moved lines, checked on threads', async () => {
    const cg = await api();
    await vscode.commands.executeCommand('contractGuard.compareTraces', { a, b });
    const panel = await finished(cg.compare.current());
    const report = await panel.rendered();
    assert.deepStrictEqual(report.newShapes, [NEW_SHAPE]);
    assert.deepStrictEqual(report.newFindings.sort(), ['extra-key get_hours', 'type-drift get_hours']);
    assert.deepStrictEqual(report.fixedFindings, ['constraint get_hours']);
    assert.strictEqual(report.unchanged, 1, 'the moved weekday: true is the same finding');
    const view = panel.view!;
    assert.strictEqual(view.differs, true);
    assert.strictEqual(view.newShapes, 1);
    assert.deepStrictEqual([view.a.calls, view.b.calls], [3, 4]);
    const tool = view.tools.find((t) => t.tool === 'get_hours')!;
    const shape = tool.shapes.find((s) => s.isNew)!;
    assert.deepStrictEqual([shape.countA, shape.countB, shape.extra], [0, 1, ['lang']]);
    assert.strictEqual(shape.where, 'compare-runs/b/hours.calls.jsonl:4');
    assert.deepStrictEqual(panel.threads, { a: true, b: true }, 'both sides checked on compare threads');
    assert.strictEqual(panel.panel.title, 'Compare: hours.calls.jsonl ↔ hours.calls.jsonl');

    // a click on the new shape (what the page posts) reveals and selects its call in B
    const editor = await panel.revealPlace(shape.ref);
    assert.ok(editor);
    assert.strictEqual(editor.document.uri.toString(), b.toString());
    assert.strictEqual(editor.selection.start.line, 3);
    assert.strictEqual(editor.document.getText(editor.selection), B[3]);
    // and a new finding's link selects the offending value
    const drift = view.findings.new.items.find((f) => f.code === 'type-drift')!;
    const at = await panel.revealPlace(drift.ref);
    assert.strictEqual(at!.document.getText(at!.selection), '"2"');
  });

  it('a run compared with itself agrees; folders are runs too', async () => {
    const cg = await api();
    await vscode.commands.executeCommand('contractGuard.compareTraces', { a: wsUri('compare-runs/b'), b: wsUri('compare-runs/b') });
    const same = await finished(cg.compare.current());
    const r = await same.rendered();
    assert.strictEqual(same.view!.differs, false);
    assert.deepStrictEqual([r.newShapes, r.newFindings, r.fixedFindings], [[], [], []]);
    assert.strictEqual(r.unchanged, same.view!.b.findings);
    assert.strictEqual(same.view!.a.label, 'compare-runs/b');

    // the explorer's Select for Compare, then Compare with Selected on the other folder
    await vscode.commands.executeCommand('contractGuard.selectForCompare', wsUri('compare-runs/a'), [wsUri('compare-runs/a')]);
    await vscode.commands.executeCommand('contractGuard.compareWithSelected', wsUri('compare-runs/b'), [wsUri('compare-runs/b')]);
    const folders = await finished(cg.compare.current());
    assert.notStrictEqual(folders, same);
    assert.deepStrictEqual([folders.view!.a.label, folders.view!.b.label], ['compare-runs/a', 'compare-runs/b']);
    assert.deepStrictEqual((await folders.rendered()).newShapes, [NEW_SHAPE]);
  });

  it('mock coverage: lists the shapes no fixture covers, and freezes one example of each without overwriting', async () => {
    const cg = await api();
    await vscode.commands.executeCommand('contractGuard.compareWithFixtures', b, [b]);
    const panel = await finished(cg.compare.current());
    const r = await panel.rendered();
    const cov = panel.view!.coverage;
    assert.ok(cov, 'coverage against the fixtures folder');
    assert.strictEqual(panel.view!.a.fixtures, true);
    assert.ok(cov.fixtures.files >= 30, `the frozen fixtures read (${cov.fixtures.files})`);
    assert.ok(r.uncovered.includes(NEW_SHAPE), r.uncovered.join(' | '));
    assert.ok(!r.uncovered.includes('get_hours {building, weekday}'), 'frozen get_hours calls cover their shape');
    const shape = cov.tools.find((t) => t.tool === 'get_hours')!.uncovered.find((s) => s.label === '{building, lang, weekday}')!;

    const first = await panel.freeze(shape.ref);
    assert.strictEqual(first?.status, 'written');
    const fixture = vscode.Uri.parse(first.uri);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(fixture));
    assert.deepStrictEqual(JSON.parse(text).args, { building: 'Killam', weekday: 2, lang: 'en' });
    await waitFor('the page marks it frozen', () => panel.report?.frozen.includes(NEW_SHAPE));
    const again = await panel.freeze(shape.ref);
    assert.strictEqual(again?.status, 'exists', 'never overwritten');
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(fixture)), text);
    await vscode.workspace.fs.delete(fixture);
  });

  it('a compare can be cancelled: closing the panel stops the threads', async () => {
    const cg = await api();
    const line = (i: number) => `{"name": "get_hours", "id": "c${i}", "arguments": {"building": "B${i}", "weekday": ${i % 7}}}`;
    const big = await write('compare-runs/big/big.calls.jsonl', Array.from({ length: 200000 }, (_, i) => line(i)).join('\n') + '\n');
    const panel = cg.compare.compare({ a: [big], b: [b] });
    await new Promise((r) => setTimeout(r, 300));
    panel.panel.dispose();
    const failure = await panel.done;
    assert.match(failure ?? '', /^Cancelled/);
  });
});
