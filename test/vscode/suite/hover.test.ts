// Hovers: the finding, the value found, the relevant part of the contract and where it came from.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, closeAll, open, openChecked } from './helpers';

async function hoverText(uri: vscode.Uri, pos: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos);
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n')
    .replace(/\\(.)/g, '$1');
}

describe('hovers', () => {
  afterEach(closeAll);

  it('on a bad value: message, value found, the argument’s schema and its contract file', async () => {
    const cg = await api();
    const editor = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const line = editor.document.lineAt(2).text;
    const text = await hoverText(editor.document.uri, new vscode.Position(2, line.indexOf('true') + 1));
    assert.match(text, /Contract Guard/);
    assert.match(text, /\[`type-drift`\]\(https?:[^)]*#type-drift\)/);
    assert.match(text, /type-drift`\]\([^)]*\) — The value's JSON type is not the declared one/);
    assert.match(text, /Found: `true`/);
    assert.match(text, /Contract of `get_hours`, argument `weekday` — from `fixtures\/contracts\/hours\.contract\.json`/);
    assert.match(text, /"weekday": \{\s*"type": "integer",\s*"minimum": 0,\s*"maximum": 6\s*\}/);
  });

  it('on a call name without findings: the tool’s contract', async () => {
    const cg = await api();
    const editor = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const line = editor.document.lineAt(0).text;
    const text = await hoverText(editor.document.uri, new vscode.Position(0, line.indexOf('get_hours') + 2));
    assert.match(text, /Contract of `get_hours` — from `fixtures\/contracts\/hours\.contract\.json`/);
    assert.match(text, /"required": \[\s*"building",\s*"weekday"\s*\]/);
    assert.doesNotMatch(text, /type-drift/);
  });

  it('for a tool defined only in the trace: "embedded in this trace"', async () => {
    const cg = await api();
    const editor = await openChecked(cg, 'fixtures/vscode/embedded.openai-chat.jsonl');
    const line = editor.document.lineAt(0).text;
    const text = await hoverText(editor.document.uri, new vscode.Position(0, line.indexOf('kelvin') + 2));
    assert.match(text, /`constraint`/);
    assert.match(text, /Found: `"kelvin"`/);
    assert.match(text, /Contract of `lookup_forecast`, argument `units` — embedded in this trace/);
    assert.match(text, /"units": \{\s*"type": "string",\s*"enum": \[/);
  });

  it('nothing on plain JSON', async () => {
    const editor = await open('package.json');
    const text = await hoverText(editor.document.uri, new vscode.Position(1, 5));
    assert.doesNotMatch(text, /Contract Guard/);
  });
});
