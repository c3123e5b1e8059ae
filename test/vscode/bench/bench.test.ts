// Time to first diagnostics for a 20 MB JSONL trace opened in the editor, and the re-check after a one-line edit
// as a share of the whole check. Two shapes: lines that are whole conversations (re-checked line by line), and
// one conversation spread over event lines (checked whole). Results: .bench/editor.json in the repo.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, EXTENSION_ID, ours, waitFor, wsUri } from '../suite/helpers';

const TARGET = 20 * 1024 * 1024;

/** Mostly good lines, one bad line in a hundred. */
function generate(good: (i: number) => string, bad: (i: number) => string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < TARGET; i++) {
    const line = i % 100 === 37 ? bad(i) : good(i);
    parts.push(line);
    size += line.length + 1;
  }
  return parts.join('\n') + '\n';
}

const conversation = (city: string, args: Record<string, unknown>) =>
  JSON.stringify({
    messages: [
      { role: 'user', content: `Weather in ${city}?` },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(args) } }] },
      { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify({ summary: `${city}: 4 C, light rain` }) },
    ],
  });

const SHAPES = [
  {
    name: 'whole conversations per line (openai-chat)',
    file: 'bench/conversations.jsonl',
    text: () => generate((i) => conversation(`City${i}`, { city: `City${i}`, units: 'metric' }), (i) => conversation(`City${i}`, { city: `City${i}`, units: 'metric', lang: 'no' })),
  },
  {
    name: 'one conversation of call lines (calls)',
    file: 'bench/calls.jsonl',
    text: () => generate((i) => JSON.stringify({ name: 'get_hours', arguments: { building: `Building ${i}`, weekday: i % 7 } }), (i) => JSON.stringify({ name: 'get_hours', arguments: { building: `Building ${i}`, weekday: String(i % 7) } })),
  },
];

describe('editor benchmark (20 MB JSONL)', () => {
  const results: Record<string, unknown>[] = [];

  after(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const out = vscode.Uri.joinPath(ext.extensionUri, '.bench', 'editor.json');
    await vscode.workspace.fs.writeFile(out, new TextEncoder().encode(JSON.stringify({ vscode: vscode.version, results }, null, 2) + '\n'));
    console.log(`results: ${JSON.stringify(results, null, 2)}`);
  });

  for (const shape of SHAPES) {
    it(shape.name, async () => {
      const cg = await api();
      const uri = wsUri(shape.file);
      const text = shape.text();
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));

      const t0 = Date.now();
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      await waitFor('first diagnostics', () => ours(uri).length > 0, 120000);
      const firstDiagnostics = Date.now() - t0;
      const full = cg.lastCheck(uri)!;
      assert.strictEqual(full.incremental, undefined);
      const calls = cg.status(uri)!.calls;
      await new Promise((r) => setTimeout(r, 50)); // the line table is built right after publishing

      // one-line edit in the middle: break a good value
      const line = Math.floor(doc.lineCount / 2) + 1;
      const lineText = doc.lineAt(line).text;
      const target = lineText.includes('metric') ? 'metric' : lineText.match(/"weekday":\d/)![0];
      const at = lineText.indexOf(target);
      const replacement = target === 'metric' ? 'kelvin' : '"weekday":true';
      const before = ours(uri).length;
      const t1 = Date.now();
      await editor.edit((b) => b.replace(new vscode.Range(line, at, line, at + target.length), replacement));
      await waitFor('the re-check', () => cg.lastCheck(uri) !== full && cg.lastCheck(uri)!.millis !== undefined && cg.status(uri) && ours(uri).some((d) => d.range.start.line === line), 120000);
      const editWall = Date.now() - t1;
      const edit = cg.lastCheck(uri)!;
      const row = {
        shape: shape.name,
        megabytes: +(text.length / 1024 / 1024).toFixed(1),
        lines: doc.lineCount,
        calls,
        findings: before,
        firstDiagnosticsMs: firstDiagnostics,
        fullCheckMs: full.millis,
        editCheckMs: edit.millis,
        editWallMs: editWall,
        incremental: edit.incremental ?? null,
        editShareOfFull: +(edit.millis / Math.max(1, full.millis)).toFixed(4),
      };
      results.push(row);
      console.log(JSON.stringify(row));
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });
  }
});
