// Frozen fixtures in the real VS Code: the quick-fix on a flagged call writes the fixture (the same bytes as the
// CLI's `freeze`) and opens it; applying it again overwrites nothing; a CodeLens per call; the Test Explorer
// controller lists one test per fixture grouped by tool and runs them (pass, drift, unreadable).
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ContractGuardApi } from '../../../src/extension/extension';
import type { FreezeOutcome } from '../../../src/extension/fixtures/freeze';
import type { FixtureRunSummary } from '../../../src/extension/fixtures/testing';
import { api, closeAll, codeOf, EXTENSION_ID, openChecked, ours, setSetting, waitFor, wsUri } from './helpers';

const HOURS = 'fixtures/traces/hours.calls.jsonl';
const FOLDER = 'frozen-by-suite';
const TITLE = 'Freeze this call as a fixture';

const read = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));

/** What the CLI writes for the same call (independent of the editor: another process, node:fs). */
function cliFreeze(target: string): { relative: string; text: string } {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-suite-'));
  try {
    const r = spawnSync(process.execPath, [vscode.Uri.joinPath(ext.extensionUri, 'dist', 'cli.js').fsPath, 'freeze', target, '--contracts', 'fixtures/contracts', '--out', out], {
      cwd: wsUri('').fsPath, encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    assert.strictEqual(r.status, 0, r.stderr);
    const [tool] = fs.readdirSync(out);
    const [file] = fs.readdirSync(path.join(out, tool));
    return { relative: `${tool}/${file}`, text: fs.readFileSync(path.join(out, tool, file), 'utf8') };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

function testTree(cg: ContractGuardApi): Record<string, string[]> {
  const tree: Record<string, string[]> = {};
  cg.fixtures.tests.controller.items.forEach((group) => {
    const names: string[] = [];
    group.children.forEach((i) => void names.push(i.label));
    tree[group.label] = names.sort();
  });
  return tree;
}

describe('frozen fixtures', () => {
  let cg: ContractGuardApi;
  let fixture: vscode.Uri;
  let firstText: string;

  before(async () => {
    cg = await api();
    await setSetting('contractGuard.fixturesFolder', FOLDER);
  });
  after(async () => {
    await setSetting('contractGuard.fixturesFolder', undefined);
    await vscode.workspace.fs.delete(wsUri(FOLDER), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });
  afterEach(closeAll);

  it('the quick-fix on a flagged call writes the fixture (as the CLI would) and opens it', async () => {
    const editor = await openChecked(cg, HOURS);
    const uri = editor.document.uri;
    const flagged = await waitFor('type-drift on `true`', () => ours(uri).find((d) => codeOf(d) === 'type-drift' && d.range.start.line === 2));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, flagged.range);
    const fixes = actions.filter((a) => a.title === TITLE);
    assert.strictEqual(fixes.length, 1, 'one freeze action for the call');
    assert.strictEqual(fixes[0].kind?.value, vscode.CodeActionKind.QuickFix.value);
    // The quick-fix is offered on every Contract Guard diagnostic of a call, and on nothing else.
    for (const d of ours(uri)) {
      const acts = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range);
      assert.strictEqual(acts.filter((a) => a.title === TITLE).length, 1, `on ${codeOf(d)} at line ${d.range.start.line + 1}`);
    }

    const cmd = fixes[0].command!;
    const outcome = await vscode.commands.executeCommand<FreezeOutcome>(cmd.command, ...(cmd.arguments ?? []), { quiet: true });
    assert.strictEqual(outcome.status, 'written');
    assert.match(outcome.relativePath, /^get_hours\/get_hours-[0-9a-f]{12}\.fixture\.json$/);
    fixture = vscode.Uri.parse(outcome.uri);
    assert.strictEqual(fixture.toString(), wsUri(`${FOLDER}/${outcome.relativePath}`).toString());

    firstText = await read(fixture);
    const f = JSON.parse(firstText);
    assert.strictEqual(f.tool, 'get_hours');
    assert.deepStrictEqual(f.args, { building: 'Killam', weekday: true });
    assert.strictEqual(f.encoding, 'object');
    assert.deepStrictEqual(f.verdict, { ok: false, codes: ['type-drift'], messages: ['type-drift: weekday wanted integer, got boolean true'] });
    assert.strictEqual(f.source.file, HOURS);
    assert.strictEqual(f.source.line, 3);
    assert.match(f.source.trace, /^sha256:[0-9a-f]{64}$/);
    assert.match(f.contract, /^sha256:[0-9a-f]{64}$/);
    // The CLI freezing the same line writes the same file name and the same bytes.
    const cli = cliFreeze(`${HOURS}:3`);
    assert.strictEqual(cli.relative, outcome.relativePath);
    assert.strictEqual(cli.text, firstText);

    await waitFor('the fixture open in an editor', () => vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === fixture.toString()));
    // An open fixture gets no trace diagnostics of its own.
    assert.deepStrictEqual(ours(fixture), []);
  });

  it('applying it again overwrites nothing, and opens the fixture that is there', async () => {
    // Edit the fixture on disk: if anything overwrote it, the edit would be gone.
    const edited = firstText.replace('"version": 1,', '"version": 1,\n  "$schema": "kept-by-the-suite",');
    await vscode.workspace.fs.writeFile(fixture, new TextEncoder().encode(edited));
    const before = await vscode.workspace.fs.stat(fixture);
    const editor = await openChecked(cg, HOURS);
    const outcome = await vscode.commands.executeCommand<FreezeOutcome>('contractGuard.freezeCall', editor.document.uri, new vscode.Position(2, 5), { quiet: true });
    assert.strictEqual(outcome.status, 'exists');
    assert.strictEqual(outcome.uri, fixture.toString());
    assert.strictEqual(await read(fixture), edited);
    assert.strictEqual((await vscode.workspace.fs.stat(fixture)).mtime, before.mtime);
    await waitFor('the existing fixture open', () => vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === fixture.toString()));
    const entries = await vscode.workspace.fs.readDirectory(wsUri(`${FOLDER}/get_hours`));
    assert.deepStrictEqual(entries.map(([n]) => n), [outcome.relativePath.split('/')[1]], 'one file, no temp files left');
  });

  it('shows a CodeLens on each call, with its verdict (contractGuard.codeLens: all)', async () => {
    await setSetting('contractGuard.codeLens', 'all');
    const editor = await openChecked(cg, HOURS);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri, 1000);
    const ours = lenses.filter((l) => l.command?.command === 'contractGuard.freezeCall');
    assert.deepStrictEqual(ours.map((l) => `${l.range.start.line}: ${l.command!.title}`), [
      '0: $(beaker) Freeze get_hours as fixture (ok)',
      '1: $(beaker) Freeze get_hours as fixture (type-drift)',
      '2: $(beaker) Freeze get_hours as fixture (type-drift)',
      '3: $(beaker) Freeze get_hours as fixture (type-drift)',
      '4: $(beaker) Freeze get_hours as fixture (extra-key)',
      '5: $(beaker) Freeze get_open_now as fixture (unknown-tool)',
    ]);
    await setSetting('contractGuard.codeLens', undefined);
  });

  it('freezes the right call after an incremental re-check (a patched result keeps no model)', async () => {
    const editor = await openChecked(cg, 'fixtures/traces/weather.openai-chat.jsonl');
    const doc = editor.document;
    await waitFor('the line table', () => cg.lastCheck(doc.uri)?.lineIndependent);
    const bad = doc.lineAt(0).text.replace('\\"units\\": \\"metric\\"', '\\"units\\": \\"kelvin\\", \\"days\\": 3');
    assert.notStrictEqual(bad, doc.lineAt(0).text);
    await editor.edit((b) => b.insert(new vscode.Position(1, 0), `${bad}\n`));
    await waitFor('an incremental check', () => cg.lastCheck(doc.uri)?.incremental?.lines === doc.lineCount);
    const flagged = await waitFor('the new line flagged', () => ours(doc.uri).find((d) => d.range.start.line === 1 && codeOf(d) === 'constraint'));
    // by default only the calls with findings get a lens: the new line is one of them
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 1000)).filter((l) => l.command?.command === 'contractGuard.freezeCall');
    const failing = new Set(ours(doc.uri).map((d) => d.range.start.line));
    assert.ok(lenses.length > 0 && lenses.every((l) => failing.has(l.range.start.line)), 'lenses on calls with findings only, without a kept model');
    const onNew = lenses.find((l) => l.range.start.line === 1)!;
    assert.match(onNew.command!.title, /^\$\(beaker\) Freeze get_weather as fixture \(.*constraint.*\)$/);
    const [fix] = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, flagged.range)).filter((a) => a.title === TITLE);
    const outcome = await vscode.commands.executeCommand<FreezeOutcome>(fix.command!.command, ...(fix.command!.arguments ?? []), { quiet: true });
    const f = JSON.parse(await read(vscode.Uri.parse(outcome.uri)));
    assert.strictEqual(f.source.line, 2);
    assert.strictEqual(JSON.parse(f.argumentsRaw).units, 'kelvin');
    assert.strictEqual(JSON.parse(f.argumentsRaw).days, 3);
    const viaLens = await vscode.commands.executeCommand<FreezeOutcome>(onNew.command!.command, ...(onNew.command!.arguments ?? []), { quiet: true });
    assert.deepStrictEqual([viaLens.status, viaLens.uri], ['exists', outcome.uri], 'the lens freezes the same call');
    await vscode.workspace.fs.delete(vscode.Uri.parse(outcome.uri));
  });

  it('runs the fixtures from the Test Explorer controller: pass, drift (frozen vs now) and unreadable', async () => {
    const drifted = wsUri(`${FOLDER}/get_hours/drifted.fixture.json`);
    const f = JSON.parse(firstText);
    f.verdict = { ok: true }; // as if frozen when the guard let `weekday: true` through
    await vscode.workspace.fs.writeFile(drifted, new TextEncoder().encode(JSON.stringify(f, null, 2)));
    const broken = wsUri(`${FOLDER}/broken/broken.fixture.json`);
    await vscode.workspace.fs.writeFile(broken, new TextEncoder().encode('{"tool": "x"'));

    const summary = await vscode.commands.executeCommand<FixtureRunSummary>('contractGuard.replayFixtures');
    const name = fixture.path.slice(fixture.path.lastIndexOf('/') + 1).replace('.fixture.json', '');
    assert.deepStrictEqual(testTree(cg), { get_hours: [name, 'drifted'].sort(), '(unreadable fixtures)': ['broken'] });
    const byFile = new Map(summary.results.map((r) => [vscode.Uri.parse(r.uri).path.split('/').pop(), r]));
    assert.deepStrictEqual([summary.passed, summary.failed, summary.errored], [1, 1, 1]);
    assert.strictEqual(byFile.get(`${name}.fixture.json`)!.state, 'passed');
    const d = byFile.get('drifted.fixture.json')!;
    assert.deepStrictEqual([d.state, d.status, d.frozen, d.now], ['failed', 'tightened', 'ok', 'type-drift']);
    assert.strictEqual(byFile.get('broken.fixture.json')!.state, 'errored');
  });

  it("runs the repo's frozen fixtures with no drift", async () => {
    await setSetting('contractGuard.fixturesFolder', 'fixtures/frozen');
    try {
      const files = await vscode.workspace.findFiles('fixtures/frozen/**/*.fixture.json');
      const summary = await cg.fixtures.replay();
      assert.ok(files.length >= 30, `${files.length} fixture files`);
      const notPassed = summary.results.filter((r) => r.state !== 'passed').map((r) => `${r.uri}: ${r.state} ${r.detail}`);
      assert.deepStrictEqual(notPassed, []);
      assert.strictEqual(summary.passed, files.length);
      const tree = testTree(cg);
      assert.strictEqual(Object.values(tree).reduce((n, l) => n + l.length, 0), files.length);
      assert.ok(tree.get_hours.length >= 5 && tree.get_weather.length >= 5 && tree.book_room.length >= 4, JSON.stringify(Object.keys(tree)));
    } finally {
      await setSetting('contractGuard.fixturesFolder', FOLDER);
    }
  });
});
