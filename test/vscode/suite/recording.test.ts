// "Contract Guard: Start Recording Proxy…" in the real extension host: started through its command against the
// scripted fake upstream (test/live/fake-upstream.js, on 127.0.0.1 in this host), one request sent with the official
// openai client through it; the recorded trace opens and gets its diagnostics as it grows; the status bar item stops it.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import OpenAI from 'openai';
import { api, closeAll, codeOf, EXTENSION_ID, ours, waitFor } from './helpers';

interface FakeUpstream {
  url: string;
  sent: { headers: Record<string, unknown> }[];
  close(): Promise<void>;
}

const TOOLS = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' } }, required: ['city'] } } }];

describe('recording proxy', () => {
  let upstream: FakeUpstream;

  before(async () => {
    await api();
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fake = require(path.join(ext.extensionPath, 'test', 'live', 'fake-upstream.js')) as { startFakeUpstream(): Promise<FakeUpstream> };
    upstream = await fake.startFakeUpstream();
  });

  after(async () => {
    await vscode.commands.executeCommand('contractGuard.stopRecording');
    await upstream?.close();
    await closeAll();
  });

  it('records an openai client call through the proxy and shows its findings on the recorded trace as it grows', async function () {
    this.timeout(60_000);
    const info = await vscode.commands.executeCommand<{ url: string; file: vscode.Uri } | undefined>('contractGuard.startRecording', { upstream: upstream.url });
    assert.ok(info, 'the proxy started');
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    await waitFor('the recorded trace open', () => vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === info.file.fsPath));
    assert.match(vscode.workspace.asRelativePath(info.file), /^traces\/recorded-.*\.jsonl$/);

    const client = new OpenAI({ apiKey: 'sk-test-INVENTEDkey0123456789abcdef', baseURL: `${info.url}/v1`, maxRetries: 0, timeout: 20_000 });
    const answer = await client.chat.completions.create({ model: 'weather', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: TOOLS });
    assert.strictEqual(answer.choices[0].message.tool_calls?.[0].type, 'function');
    await waitFor('the extra-key diagnostic on the first recorded line', () => ours(info.file).some((d) => codeOf(d) === 'extra-key' && d.range.start.line === 0 && /lang/.test(d.message)), 30_000);

    // the trace grows: a second exchange, a fenced argument string on line 2
    const stream = await client.chat.completions.create({ model: 'fenced', stream: true, messages: [{ role: 'user', content: 'And in Lyon?' }], tools: TOOLS });
    for await (const chunk of stream) void chunk;
    await waitFor('the arguments-encoding diagnostic on the second line', () => ours(info.file).some((d) => codeOf(d) === 'arguments-encoding' && d.range.start.line === 1), 30_000);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === info.file.fsPath);
    assert.ok(doc && !doc.getText().includes('INVENTEDkey'), 'no key in the recording');

    assert.strictEqual(await vscode.commands.executeCommand('contractGuard.stopRecording'), true, 'stopped');
    await assert.rejects(fetch(`${info.url}/v1/models`), 'nothing listens after stop');
    await closeAll();
    await vscode.workspace.fs.delete(info.file); // other suites count the workspace's traces
  });
});
