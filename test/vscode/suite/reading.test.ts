// Reading any file: a trace saved as .txt, .log, .chunks or without an extension is checked like the same trace
// as .jsonl; Read Trace As… and the contractGuard.readAs setting force a reader (on the worker thread too); a file
// that looks like a trace but that no reader read says so in the status bar; configuration files get nothing.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { readerIds } from '../../../src/core';
import type { ContractGuardApi } from '../../../src/extension/extension';
import { api, brief, closeAll, codeOf, open, openChecked, ours, setSetting, sleep, waitFor, wsUri } from './helpers';

const CHAT = 'fixtures/traces/weather.openai-chat.jsonl';
const HOURS = 'fixtures/traces/hours.calls.jsonl';
const NOT_READ = 'Contract Guard: not read as a trace';

const enc = (s: string) => new TextEncoder().encode(s);
const read = async (rel: string) => new TextDecoder().decode(await vscode.workspace.fs.readFile(wsUri(rel)));

async function write(rel: string, text: string): Promise<vscode.Uri> {
  const uri = wsUri(rel);
  await vscode.workspace.fs.writeFile(uri, enc(text));
  return uri;
}

/** Our diagnostics as comparable records, with the code. */
const briefs = (uri: vscode.Uri) => ours(uri).map(brief);

/** Opens a file that is expected not to be read, and waits until the extension is idle. */
async function openIdle(cg: ContractGuardApi, rel: string): Promise<vscode.TextEditor> {
  const editor = await open(rel);
  await sleep(400);
  await cg.settled();
  return editor;
}

/** An OpenAI-style SSE recording: a get_hours call whose arguments arrive in two deltas, weekday a string. */
const SSE = [
  { delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_hours', arguments: '' } }] } },
  { delta: { tool_calls: [{ index: 0, function: { arguments: '{"building": "Killam", ' } }] } },
  { delta: { tool_calls: [{ index: 0, function: { arguments: '"weekday": "2"}' } }] } },
  { delta: {}, finish_reason: 'tool_calls' },
]
  .map((choice) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, ...choice }] })}\n\n`)
  .join('') + 'data: [DONE]\n';

describe('reading any file', () => {
  let cg: ContractGuardApi;
  before(async () => {
    cg = await api();
  });
  afterEach(closeAll);

  it('checks a .txt and a .log of JSONL chat lines exactly like the .jsonl', async () => {
    const text = await read(CHAT);
    const original = (await openChecked(cg, CHAT)).document.uri;
    const expected = briefs(original);
    const calls = cg.status(original)?.calls ?? 0;
    assert.ok(calls > 5, `${calls} calls in the .jsonl`);
    assert.ok(expected.length >= 5, `${expected.length} diagnostics on the .jsonl`);
    for (const rel of ['reading/chat.txt', 'reading/agent.log']) {
      await write(rel, text);
      const editor = await openChecked(cg, rel);
      assert.strictEqual(editor.document.languageId, rel.endsWith('.txt') ? 'plaintext' : 'log');
      assert.strictEqual(cg.status(editor.document.uri)?.format, 'openai-chat', rel);
      assert.deepStrictEqual(briefs(editor.document.uri), expected, rel);
      assert.strictEqual(cg.status(editor.document.uri)?.calls, calls, rel);
      assert.match(cg.statusText() ?? '', new RegExp(`\\b${calls} calls`));
    }
  });

  it('checks an extensionless file and a .chunks SSE recording', async () => {
    await write('reading/hours', await read(HOURS));
    const plain = await openChecked(cg, 'reading/hours');
    assert.strictEqual(plain.document.languageId, 'plaintext');
    assert.strictEqual(cg.status(plain.document.uri)?.format, 'calls');
    const codes = ours(plain.document.uri).map((d) => `${codeOf(d)}@${d.range.start.line}`);
    assert.deepStrictEqual(codes.filter((c) => c.startsWith('type-drift')), ['type-drift@1', 'type-drift@2', 'type-drift@3']);

    await write('reading/stream.chunks', SSE);
    const chunks = await openChecked(cg, 'reading/stream.chunks');
    assert.strictEqual(chunks.document.languageId, 'plaintext');
    assert.strictEqual(cg.status(chunks.document.uri)?.format, 'stream');
    const drift = ours(chunks.document.uri).filter((d) => brief(d).code === 'type-drift');
    assert.strictEqual(drift.length, 1, 'weekday "2" assembled from the deltas');
    assert.strictEqual(drift[0].range.start.line, 4, 'on the data line with the weekday');
    assert.ok(chunks.document.getText(drift[0].range).includes('\\"2\\"'), chunks.document.getText(drift[0].range));
  });

  it('checks a VCR.py YAML cassette, the squiggle on the argument inside the quoted body; other YAML gets nothing', async () => {
    const call = { id: 'call_7', type: 'function', function: { name: 'get_hours', arguments: '{"building": "Killam", "weekday": "2"}' } };
    const response = { id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }] };
    const request = { model: 'gpt-4o', messages: [{ role: 'user', content: 'When is Killam open on Tuesday?' }] };
    // VCR.py writes bodies as single-quoted YAML scalars ('' is a quote; none here)
    const yaml = ['interactions:', '- request:', `    body: '${JSON.stringify(request)}'`, '    method: POST', '    uri: https://api.openai.com/v1/chat/completions',
      '  response:', '    body:', `      string: '${JSON.stringify(response)}'`, '    status:', '      code: 200', '      message: OK', 'version: 1', ''].join('\n');
    const uri = await write('reading/test_hours.yaml', yaml);
    const editor = await openChecked(cg, 'reading/test_hours.yaml');
    assert.strictEqual(cg.status(uri)?.format, 'http-cassette');
    assert.strictEqual(cg.status(uri)?.calls, 1);
    const drift = ours(uri).filter((d) => codeOf(d) === 'type-drift');
    assert.strictEqual(drift.length, 1, briefs(uri).map((b) => b.code).join());
    assert.strictEqual(drift[0].range.start.line, 7, 'on the response body line');
    assert.strictEqual(editor.document.getText(drift[0].range), '\\"2\\"', 'the weekday value as written in the body');

    // a YAML file that is not a cassette (a CI config) is not read
    const config = await write('reading/ci.yaml', ['name: build', 'on: [push]', 'jobs:', '  test:', '    runs-on: ubuntu-latest', ''].join('\n'));
    await openIdle(cg, 'reading/ci.yaml');
    assert.deepStrictEqual(briefs(config), []);
    assert.strictEqual(cg.status(config), undefined);
  });

  it('Read Trace As… forces a reader for one document, and "Detect automatically" (first in the pick) undoes it', async () => {
    const uri = await write('reading/forced.txt', await read(CHAT));
    await openChecked(cg, 'reading/forced.txt');
    const detected = briefs(uri);
    assert.strictEqual(cg.status(uri)?.format, 'openai-chat');
    const calls = cg.status(uri)?.calls ?? 0;
    assert.deepStrictEqual(cg.languageStatus(), { text: '$(checklist) openai-chat', detail: `${calls} calls`, warning: false });

    // a reader that does not read this format: nothing is read, and the status bar says so
    assert.strictEqual(await vscode.commands.executeCommand('contractGuard.readAs', uri, 'anthropic'), 'anthropic');
    await waitFor('the forced check', () => cg.reading(uri).unread);
    await cg.settled();
    assert.deepStrictEqual(briefs(uri), []);
    assert.strictEqual(cg.status(uri), undefined);
    assert.deepStrictEqual(cg.reading(uri), { readAs: 'anthropic', unread: { sign: 'messages', parseErrors: 1 } });
    assert.strictEqual(cg.statusText(), `$(circle-slash) ${NOT_READ}`);
    assert.deepStrictEqual(cg.languageStatus(), { text: 'Not read as a trace', detail: 'read as anthropic: nothing', warning: true });

    if (readerIds().includes('generic')) {
      // the shape reader finds calls by name and arguments: other findings than the openai-chat reader's
      await vscode.commands.executeCommand('contractGuard.readAs', uri, 'generic');
      await waitFor('the generic read', () => cg.status(uri)?.format === 'generic');
      await cg.settled();
      assert.ok(ours(uri).length > 0, 'the shape reader reads calls');
      assert.notDeepStrictEqual(briefs(uri), detected);
      assert.match(cg.languageStatus()?.detail ?? '', /chosen reader/);
    }

    // kept for the session: closing and reopening the document does not forget the choice
    await closeAll();
    await openIdle(cg, 'reading/forced.txt');
    assert.notStrictEqual(cg.status(uri)?.format, 'openai-chat');
    assert.ok(cg.reading(uri).readAs);

    // the quick pick (on the active document): its first item is "Detect automatically"
    const picked = vscode.commands.executeCommand<string | undefined>('contractGuard.readAs');
    await sleep(500);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.strictEqual(await picked, undefined);
    await waitFor('detection again', () => cg.status(uri)?.format === 'openai-chat');
    await cg.settled();
    assert.deepStrictEqual(briefs(uri), detected);
    assert.strictEqual(cg.reading(uri).readAs, undefined);
  });

  it('the contractGuard.readAs setting forces a reader, for a large file on the worker thread too', async () => {
    // whole conversations, one a line, each with a bad weekday: 0.7 MB, above the size checked on a worker thread
    const line = (i: number) =>
      JSON.stringify({
        messages: [
          { role: 'user', content: `Hours of building ${i}?` },
          { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'get_hours', arguments: JSON.stringify({ building: `B${i}`, weekday: 'x' }) } }] },
        ],
      });
    const lines: string[] = [];
    for (let i = 0; lines.join('\n').length < 700 * 1024; i += 100) for (let k = i; k < i + 100; k++) lines.push(line(k));
    const big = await write('reading/big.txt', lines.join('\n') + '\n');
    const small = await write('reading/small.txt', lines.slice(0, 3).join('\n') + '\n');
    try {
      await openChecked(cg, 'reading/big.txt');
      assert.strictEqual(cg.status(big)?.format, 'openai-chat');
      assert.strictEqual(cg.status(big)?.calls, lines.length);
      await setSetting('contractGuard.readAs', 'claude-code');
      await waitFor('the big file re-read as claude-code', () => cg.reading(big).unread);
      assert.strictEqual(cg.reading(big).readAs, 'claude-code');
      assert.deepStrictEqual(ours(big), []);
      await openIdle(cg, 'reading/small.txt');
      assert.strictEqual(cg.reading(small).unread?.sign, 'messages', 'the setting reaches every document of the folder');
      assert.match(cg.statusText() ?? '', /not read as a trace/);
      // a choice for one document wins over the setting
      await vscode.commands.executeCommand('contractGuard.readAs', small, 'auto');
      await waitFor('the small file detected again', () => cg.status(small)?.format === 'openai-chat');
    } finally {
      await setSetting('contractGuard.readAs', undefined);
    }
    await waitFor('the big file read again', () => cg.status(big)?.format === 'openai-chat', 20000);
  });

  it('a file that looks like a trace but that no reader reads gets the status item, with the command', async () => {
    const uri = await write('reading/export.json', JSON.stringify({ events: [{ kind: 'step', payload: { text: 'looked it up' } }, { kind: 'step', payload: { text: 'done' } }] }, null, 2));
    await openIdle(cg, 'reading/export.json');
    assert.deepStrictEqual(cg.reading(uri), { readAs: undefined, unread: { sign: 'events', parseErrors: 0 } });
    assert.strictEqual(cg.statusText(), `$(circle-slash) ${NOT_READ}`);
    assert.strictEqual(cg.languageStatus()?.warning, true);
    assert.deepStrictEqual(ours(uri), []);

    // a trace document broken in the middle: not read, but not silent either
    const broken = await write('reading/broken.json', '{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}\n');
    await openIdle(cg, 'reading/broken.json');
    assert.deepStrictEqual(cg.reading(broken).unread, { sign: 'messages', parseErrors: 1 });
    assert.strictEqual(cg.statusText(), `$(circle-slash) ${NOT_READ}`);
  });

  it('configuration, logs, untitled text and plain data get nothing', async () => {
    await write('tsconfig.json', '{\n  "compilerOptions": { "strict": true },\n  "include": ["src"]\n}\n');
    await write('reading/server.log', '[2024-05-01 10:00:00] INFO {"request": 1} tool_calls=3\n[2024-05-01 10:00:01] INFO done\n');
    await write('reading/rows.txt', '[1, 2, 3]\n[4, 5, 6]\n');
    for (const rel of ['package.json', 'tsconfig.json', 'reading/server.log', 'reading/rows.txt']) {
      const editor = await openIdle(cg, rel);
      assert.strictEqual(cg.status(editor.document.uri), undefined, rel);
      assert.deepStrictEqual(cg.reading(editor.document.uri), { readAs: undefined, unread: undefined }, rel);
      assert.strictEqual(cg.statusText(), undefined, rel);
      assert.strictEqual(cg.languageStatus(), undefined, rel);
      assert.deepStrictEqual(ours(editor.document.uri), [], rel);
    }
    // an untitled plain-text document is never read, whatever it holds; an untitled JSON one is
    const text = await read(CHAT);
    const untitled = await vscode.workspace.openTextDocument({ language: 'plaintext', content: text });
    await vscode.window.showTextDocument(untitled);
    await sleep(400);
    await cg.settled();
    assert.strictEqual(cg.status(untitled.uri), undefined);
    assert.strictEqual(cg.statusText(), undefined);
    const json = await vscode.workspace.openTextDocument({ language: 'jsonl', content: text });
    await vscode.window.showTextDocument(json);
    await waitFor('the untitled JSONL checked', () => cg.status(json.uri));
    assert.strictEqual(cg.status(json.uri)?.format, 'openai-chat');
    for (const doc of [json, untitled]) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
});
