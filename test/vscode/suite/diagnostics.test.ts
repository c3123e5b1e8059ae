// Live diagnostics on trace documents: exact tokens, codes with documentation links, severities, following edits,
// nothing on plain JSON, severity settings.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as vscode from 'vscode';
import type { ContractGuardApi } from '../../../src/extension/extension';
import { api, argDiagnostics, brief, closeAll, codeOf, EXTENSION_ID, open, openChecked, ours, setSetting, sleep, waitFor, wsUri } from './helpers';

const HOURS = 'fixtures/traces/hours.calls.jsonl';

/** Where `token` sits inside `context` on line `line` (0-based) of `text`, as a 0-based range string. */
function rangeOf(text: string, line: number, context: string, token: string): string {
  const l = text.split('\n')[line];
  const at = l.indexOf(context);
  assert.ok(at >= 0 && context.includes(token), `"${context}" on line ${line + 1}`);
  const s = at + context.indexOf(token);
  return `${line}:${s}-${line}:${s + token.length}`;
}

/** The CLI's findings (an independent offset-to-position conversion) for files of the workspace. */
function cliReport(files: string[]): Map<string, { code: string; severity: string; line: number; column: number; endLine: number; endColumn: number }[]> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  const cli = vscode.Uri.joinPath(ext.extensionUri, 'dist', 'cli.js').fsPath;
  const root = wsUri('').fsPath;
  const r = spawnSync(process.execPath, [cli, 'check', ...files, '--contracts', 'fixtures/contracts', '--format', 'json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  assert.ok(r.status === 0 || r.status === 1, `CLI exit ${r.status}: ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { files: { path: string; diagnostics: never[] }[] };
  return new Map(report.files.map((f) => [f.path, f.diagnostics]));
}

describe('live diagnostics', () => {
  let cg: ContractGuardApi;
  before(async () => {
    cg = await api();
  });
  afterEach(closeAll);

  it('marks the exact token of every finding in hours.calls.jsonl', async () => {
    const editor = await openChecked(cg, HOURS);
    const text = editor.document.getText();
    const got = argDiagnostics(editor.document.uri).map(brief);
    const E = 'Error';
    assert.deepStrictEqual(got, [
      { code: 'type-drift', severity: E, range: rangeOf(text, 1, '"weekday": "2"', '"2"') },
      { code: 'type-drift', severity: E, range: rangeOf(text, 2, '"weekday": true', 'true') },
      { code: 'type-drift', severity: E, range: rangeOf(text, 3, '"weekday": 2.0', '2.0') },
      { code: 'extra-key', severity: E, range: rangeOf(text, 4, '"open"', '"open"') },
      { code: 'unknown-tool', severity: E, range: rangeOf(text, 5, '"get_open_now"', '"get_open_now"') },
    ]);
    const [first] = argDiagnostics(editor.document.uri);
    assert.strictEqual(first.source, 'Contract Guard');
    assert.strictEqual(first.message, 'weekday wanted integer, got string "2"');
    const code = first.code as { value: string; target: vscode.Uri };
    assert.strictEqual(code.value, 'type-drift');
    assert.ok(code.target instanceof vscode.Uri, 'code links to its documentation');
    assert.strictEqual(code.target.fragment, 'type-drift');
  });

  it('links a repeat to where it was first seen (relatedInformation)', async () => {
    const editor = await openChecked(cg, HOURS);
    const doc = editor.document;
    const repeat = ours(doc.uri).find((d) => codeOf(d) === 'duplicate-fingerprint');
    assert.ok(repeat, 'the 2.0 call repeats the first one');
    assert.strictEqual(repeat.range.start.line, 3);
    assert.strictEqual(repeat.severity, vscode.DiagnosticSeverity.Warning);
    const [first] = repeat.relatedInformation ?? [];
    assert.ok(first, 'related information');
    assert.strictEqual(first.location.uri.toString(), doc.uri.toString());
    assert.strictEqual(first.location.range.start.line, 0);
    assert.strictEqual(doc.getText(first.location.range), doc.getText(repeat.range), 'the same tool name, first seen on line 1');
    assert.match(first.message, /first/i);
  });

  it('agrees with the CLI on every fixture trace (code, severity, range)', async () => {
    const traces = (await vscode.workspace.fs.readDirectory(wsUri('fixtures/traces')))
      .map(([name]) => `fixtures/traces/${name}`)
      .sort();
    assert.ok(traces.length >= 6, `fixture traces: ${traces.join(', ')}`);
    const cli = cliReport(traces);
    let compared = 0;
    for (const rel of traces) {
      const editor = await openChecked(cg, rel);
      const expected = (cli.get(rel) ?? []).map((d) => ({
        code: d.code,
        severity: { error: 'Error', warning: 'Warning', info: 'Information' }[d.severity],
        range: `${d.line - 1}:${d.column - 1}-${d.endLine - 1}:${d.endColumn - 1}`,
      }));
      const got = ours(editor.document.uri).map(brief);
      const key = (x: { code?: string; range: string }) => `${x.range} ${x.code}`;
      assert.deepStrictEqual(got.sort((a, b) => key(a).localeCompare(key(b))), expected.sort((a, b) => key(a).localeCompare(key(b))), rel);
      assert.strictEqual(cg.status(editor.document.uri)?.error, expected.filter((d) => d.severity === 'Error').length);
      compared += expected.length;
    }
    assert.ok(compared >= 20, `only ${compared} findings compared`);
  });

  it('follows edits: a fixed value loses its squiggle, inserted lines move the others', async () => {
    const editor = await openChecked(cg, HOURS);
    const doc = editor.document;
    const line1 = doc.lineAt(1).text;
    const at = line1.indexOf('"2"');
    // fix the string "2" -> 2
    await editor.edit((b) => b.replace(new vscode.Range(1, at, 1, at + 3), '2'));
    await waitFor('the fixed line to lose its diagnostic', () => !argDiagnostics(doc.uri).some((d) => d.range.start.line === 1));
    assert.deepStrictEqual(argDiagnostics(doc.uri).map((d) => d.range.start.line), [2, 3, 4, 5]);
    // insert two lines on top: everything moves down by two, and the new bad line is flagged
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '{"name": "get_hours", "arguments": {"building": "Killam"}}\n\n'));
    await waitFor('diagnostics to move', () => argDiagnostics(doc.uri).length === 5 && argDiagnostics(doc.uri)[0].range.start.line === 0);
    assert.deepStrictEqual(
      argDiagnostics(doc.uri).map((d) => `${d.range.start.line} ${codeOf(d)}`),
      ['0 missing-key', '4 type-drift', '5 type-drift', '6 extra-key', '7 unknown-tool'],
    );
  });

  it('drops stale results: only the last of rapid edits is published', async () => {
    const editor = await openChecked(cg, HOURS);
    const doc = editor.document;
    let publications = 0;
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === doc.uri.toString())) publications++;
    });
    try {
      for (let i = 0; i < 5; i++) {
        // each edit breaks then re-fixes line 1 differently; only the final text matters
        await editor.edit((b) => b.insert(new vscode.Position(0, 0), i % 2 ? '' : ' '));
        await editor.edit((b) => b.insert(doc.lineAt(0).range.end, ' '));
      }
      await editor.edit((b) => b.delete(doc.lineAt(5).rangeIncludingLineBreak)); // remove the unknown-tool line
      await cg.settled();
      await waitFor('the final text to be checked', () => !ours(doc.uri).some((d) => codeOf(d) === 'unknown-tool'));
      await sleep(400);
      assert.ok(publications <= 2, `${publications} publications for one burst of edits`);
      assert.deepStrictEqual(argDiagnostics(doc.uri).map((d) => codeOf(d)), ['type-drift', 'type-drift', 'type-drift', 'extra-key']);
    } finally {
      sub.dispose();
    }
  });

  it('clears a trace’s diagnostics when it is closed', async () => {
    // opened through the workbench (vscode.open), not openTextDocument: the extension API keeps documents it
    // opened alive for minutes after their editor closes, the workbench does not
    const uri = wsUri('fixtures/vscode/closing.calls.jsonl');
    await vscode.commands.executeCommand('vscode.open', uri);
    await waitFor('diagnostics on open', () => ours(uri).length === 2);
    let closed = false;
    const sub = vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.toString() === uri.toString()) closed = true;
    });
    try {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitFor('the document to close', () => closed, 20000);
      await waitFor('diagnostics cleared on close', () => ours(uri).length === 0, 2000);
      assert.strictEqual(cg.status(uri), undefined);
    } finally {
      sub.dispose();
    }
  }).timeout(30000);

  it('leaves the project’s own package.json alone (while a trace beside it is flagged)', async () => {
    const trace = await openChecked(cg, HOURS);
    const pkg = await open('package.json');
    await sleep(DEBOUNCE_SETTLE);
    await cg.settled();
    assert.ok(ours(trace.document.uri).length > 0, 'the trace is flagged');
    assert.deepStrictEqual(ours(pkg.document.uri), []);
    assert.strictEqual(cg.status(pkg.document.uri), undefined);
    assert.strictEqual(cg.statusText(), undefined, 'no status bar item for package.json');
  });

  it('maps severities from settings, including off', async () => {
    const editor = await openChecked(cg, HOURS);
    const uri = editor.document.uri;
    try {
      await setSetting('contractGuard.severity', { 'type-drift': 'off', 'extra-key': 'hint' });
      await waitFor('type-drift switched off', () => !ours(uri).some((d) => codeOf(d) === 'type-drift'));
      assert.deepStrictEqual(argDiagnostics(uri).map((d) => `${codeOf(d)} ${vscode.DiagnosticSeverity[d.severity]}`), [
        'extra-key Hint',
        'unknown-tool Error',
      ]);
      const errors = ours(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
      assert.match(cg.statusText() ?? '', new RegExp(`\\$\\(error\\) ${errors} `));
    } finally {
      await setSetting('contractGuard.severity', undefined);
    }
    await waitFor('defaults back', () => argDiagnostics(uri).length === 5);
  });

  it('contractGuard.enable: false clears the diagnostics and the status bar; true brings them back', async () => {
    const editor = await openChecked(cg, HOURS);
    const uri = editor.document.uri;
    try {
      await setSetting('contractGuard.enable', false);
      await waitFor('diagnostics cleared', () => ours(uri).length === 0);
      assert.strictEqual(cg.status(uri), undefined);
      assert.strictEqual(cg.statusText(), undefined);
    } finally {
      await setSetting('contractGuard.enable', undefined);
    }
    await waitFor('diagnostics back', () => argDiagnostics(uri).length === 5);
  });

  it('exempts the volatileTools setting’s tools from duplicate-fingerprint', async () => {
    const editor = await openChecked(cg, HOURS);
    const uri = editor.document.uri;
    const dupes = () => ours(uri).filter((d) => codeOf(d) === 'duplicate-fingerprint');
    assert.ok(dupes().length > 0, 'hours.calls.jsonl repeats a get_hours call');
    try {
      await setSetting('contractGuard.volatileTools', ['get_hours']);
      await waitFor('duplicate-fingerprint to go', () => dupes().length === 0);
      assert.strictEqual(argDiagnostics(uri).length, 5, 'the other findings stay');
    } finally {
      await setSetting('contractGuard.volatileTools', undefined);
    }
    await waitFor('duplicate-fingerprint back', () => dupes().length > 0);
  });

  it('shows the active trace’s counts in the status bar', async () => {
    const editor = await openChecked(cg, HOURS);
    const count = (s: vscode.DiagnosticSeverity) => ours(editor.document.uri).filter((d) => d.severity === s).length;
    const info = count(vscode.DiagnosticSeverity.Information);
    assert.strictEqual(count(vscode.DiagnosticSeverity.Error), 5);
    assert.strictEqual(
      cg.statusText(),
      `$(checklist) 6 calls  $(error) 5  $(warning) ${count(vscode.DiagnosticSeverity.Warning)}` + (info ? `  $(info) ${info}` : ''),
    );
  });
});

const DEBOUNCE_SETTLE = 500;
