// Finding one's way in a trace, inside the real VS Code: the document symbols (sessions → turns → calls, with the
// finding marker), workspace symbols by tool name, which calls get lenses under `contractGuard.codeLens`, the
// language status items, and links to one call (Copy Link to Call, and what the URI handler does with the link).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, closeAll, openChecked, setSetting, waitFor, wsUri } from './helpers';

const HOURS = 'fixtures/traces/hours.calls.jsonl';
const BOUNDARY = 'fixtures/traces/boundary.anthropic.jsonl';

/** Our symbols among those of every provider (the JSON language's own come too). */
async function symbolsOf(uri: vscode.Uri): Promise<vscode.DocumentSymbol[]> {
  const all = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri)) ?? [];
  return all.filter((s) => s.name.startsWith('Session '));
}

const lensTitles = async (uri: vscode.Uri) =>
  ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 1000)) ?? []).map((l) => l.command?.title ?? '').sort();

describe('navigation: symbols, lenses, links', () => {
  afterEach(async () => {
    await setSetting('contractGuard.codeLens', undefined);
    await closeAll();
  });

  it('outlines a trace as sessions → turns → calls, marking the calls with findings', async () => {
    const cg = await api();
    const editor = await openChecked(cg, HOURS);
    const sessions = await symbolsOf(editor.document.uri);
    assert.strictEqual(sessions.length, 1);
    const [session] = sessions;
    assert.strictEqual(session.kind, vscode.SymbolKind.Namespace);
    assert.strictEqual(session.detail, '6 calls, 5 with findings');
    const calls = session.children.flatMap((t) => t.children);
    assert.deepStrictEqual(calls.map((c) => c.name), ['get_hours', 'get_hours', 'get_hours', 'get_hours', 'get_hours', 'get_open_now']);
    // a call's detail: the marker and codes, then the arguments
    assert.strictEqual(calls[0].detail, 'building: "Killam", weekday: 2');
    assert.match(calls[1].detail, /^[✗⚠] type-drift · building: "Killam", weekday: "2"$/);
    assert.match(calls[5].detail, /^[✗⚠] unknown-tool/);
    // each call's range is its line; the session's spans them all
    calls.forEach((c, i) => assert.strictEqual(c.range.start.line, i, c.name));
    assert.strictEqual(session.range.start.line, 0);
    assert.strictEqual(session.range.end.line, 5);
    for (const t of session.children) {
      assert.strictEqual(t.kind, vscode.SymbolKind.Event);
      assert.match(t.name, /^Turn \d+$/);
      for (const c of t.children) assert.ok(t.range.contains(c.range), `${t.name} holds ${c.name}`);
    }
  });

  it('outlines a large trace from the worker thread\'s call marks', async () => {
    await api();
    const uri = wsUri('large/outline.calls.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 12000; i++) lines.push(JSON.stringify({ name: i % 2 ? 'get_hours' : 'list_rooms', arguments: { building: `Building number ${i}`, weekday: i % 500 === 7 ? 'x' : i % 7 } }));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(lines.join('\n') + '\n'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    // asked at once: the provider waits for the check on the worker thread
    const all = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri)) ?? [];
    const sessions = all.filter((s) => /^(Session |… )/.test(s.name));
    assert.strictEqual(sessions.length, 2, 'a session, and the line that says how many calls the outline leaves out');
    const calls = sessions[0].children.flatMap((t) => t.children);
    assert.strictEqual(calls.length, 2000, 'the first 2,000 calls');
    assert.strictEqual(sessions[1].name, '… 10000 more calls');
    assert.strictEqual(calls[7].range.start.line, 7);
    assert.match(calls[7].detail, /^[✗⚠] type-drift · building: "Building number 7", weekday: "x"$/);
    await vscode.workspace.fs.delete(uri);
  });

  it('finds calls by tool name across the checked traces (Go to Symbol in Workspace)', async () => {
    const cg = await api();
    await openChecked(cg, HOURS);
    const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', 'get_open')) ?? [];
    const ours = found.filter((s) => s.kind === vscode.SymbolKind.Function && s.name === 'get_open_now');
    assert.ok(ours.some((s) => s.location.uri.toString() === wsUri(HOURS).toString() && s.location.range.start.line === 5), JSON.stringify(ours.map((s) => `${s.name} ${s.containerName}`)));
    // a trace that is not open is found too (read once by the index), its place resolved when chosen
    const write = (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', 'write_note')) ?? [];
    const inBoundary = write.filter((s) => s.location.uri.path.endsWith('boundary.anthropic.jsonl'));
    assert.strictEqual(inBoundary.length, 2, JSON.stringify(write.map((s) => s.containerName)));
    // the one that claimed a write without moving the digest carries its code
    assert.ok(inBoundary.some((s) => /^[✗⚠] stale-digest · turn \d+ · path: "notes\/a\.md"/.test(s.containerName)), JSON.stringify(inBoundary.map((s) => s.containerName)));
  });

  it('puts freeze lenses on failing calls only by default; all or none as contractGuard.codeLens says', async () => {
    const cg = await api();
    const editor = await openChecked(cg, HOURS);
    const uri = editor.document.uri;
    const freeze = (titles: string[]) => titles.filter((t) => t.includes('as fixture'));
    const byDefault = await lensTitles(uri);
    assert.deepStrictEqual(freeze(byDefault).length, 5, JSON.stringify(byDefault));
    assert.ok(!byDefault.some((t) => /\(ok\)/.test(t)), 'no lens on the clean call');
    assert.strictEqual(byDefault.filter((t) => t.includes('Decision table')).length, 1, 'one decision table lens for the one session');
    await setSetting('contractGuard.codeLens', 'all');
    await waitFor('a lens on every call', async () => freeze(await lensTitles(uri)).length === 6);
    assert.ok((await lensTitles(uri)).some((t) => t === '$(beaker) Freeze get_hours as fixture (ok)'));
    await setSetting('contractGuard.codeLens', 'off');
    await waitFor('no lens', async () => (await lensTitles(uri)).length === 0);
  });

  it('shows findings and contracts in the language status', async () => {
    const cg = await api();
    const editor = await openChecked(cg, HOURS);
    const status = await waitFor('the language status', () => cg.traceStatus());
    const { error, warning, info } = cg.status(editor.document.uri)!;
    assert.strictEqual(error, 5, 'the five broken calls');
    assert.strictEqual(status.findings, `$(warning) ${error + warning + info} findings (5 errors, ${warning} warning${warning === 1 ? '' : 's'}${info ? `, ${info} info` : ''})`);
    assert.match(status.contracts, /^\$\(symbol-interface\) 1 contract file \(fixtures\/contracts\/hours\.contract\.json\)$/);
  });

  it('copies a link to the call under the cursor, and the link opens the trace at that call', async () => {
    const cg = await api();
    const editor = await openChecked(cg, BOUNDARY);
    const text = editor.document.getText();
    const at = editor.document.positionAt(text.indexOf('"id": "toolu_t1"'));
    editor.selection = new vscode.Selection(at, at);
    const link = await vscode.commands.executeCommand<string>('contractGuard.copyLinkToCall');
    assert.strictEqual(link, `${vscode.env.uriScheme}://contract-guard.contract-guard/open?file=fixtures%2Ftraces%2Fboundary.anthropic.jsonl&call=0:8`);
    assert.strictEqual(await vscode.env.clipboard.readText(), link);
    await closeAll();
    // what the URI handler does with it: the trace opens with the call selected
    assert.strictEqual(await cg.openLink(vscode.Uri.parse(link)), undefined);
    const opened = await waitFor('the trace at the call', () => vscode.window.activeTextEditor?.document.uri.path.endsWith('boundary.anthropic.jsonl') && vscode.window.activeTextEditor);
    assert.strictEqual(opened.selection.start.line, 17, 'toolu_t1 is on line 18');
    assert.ok(opened.document.getText(opened.selection).startsWith('{"type": "tool_use", "id": "toolu_t1"'));
    // a bad link gets one line, not a crash
    assert.match((await cg.openLink(vscode.Uri.parse(`${vscode.env.uriScheme}://contract-guard.contract-guard/open?file=nope.jsonl&call=0:1`)))!, /nope\.jsonl is not in this workspace/);
    assert.match((await cg.openLink(vscode.Uri.parse(`${vscode.env.uriScheme}://contract-guard.contract-guard/open?file=${encodeURIComponent(BOUNDARY)}&call=9:9`)))!, /has no call 9:9/);
  });
});
