// What a walk of folders takes (core names.ts, cli/files.ts): `.har` recordings, and `.log` / `.txt` files whose head
// reads like a trace (JSON lines, a recorded SSE stream, Claude Desktop's framed MCP log); other text is passed by.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { traceTextHead } from '../../src/core';
import { ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const J = JSON.stringify;

describe('a walk of folders', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cg-walk-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('tells a trace-like text head from other text', () => {
    assert.equal(traceTextHead('\n  {"role": "user", "content": "hi"}\n{"role"'), true);
    assert.equal(traceTextHead('\ufeff[{"a": 1}]'), true);
    assert.equal(traceTextHead('data: {"type":"message_start"}\n\n'), true);
    assert.equal(traceTextHead('2025-05-01T10:00:00.000Z [fs] [info] Initializing server...\n'), true);
    assert.equal(traceTextHead('hello world\n{"a": 1}'), false);
    assert.equal(traceTextHead('2025-05-01 INFO {"a": 1}'), false);
    assert.equal(traceTextHead('{"a": 1'), false); // a first line that is not JSON alone
    assert.equal(traceTextHead('   '), false);
  });

  it('checks .har recordings and trace-like .log / .txt files, and passes other text by', () => {
    mkdirSync(path.join(dir, 'logs'));
    copyFileSync(path.join(ROOT, 'fixtures', 'traces', 'boundary.anthropic.jsonl'), path.join(dir, 'logs', 'agent.log'));
    writeFileSync(path.join(dir, 'notes.txt'), 'todo: look at the flaky test\n');
    writeFileSync(path.join(dir, 'build.log'), '[12:00:01] compiling...\n{"not": "first"}\n');
    const calls = [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }];
    const har = { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [{
      request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', postData: { mimeType: 'application/json', text: J({ model: 'gpt-4o', messages: [{ role: 'user', content: 'weather?' }] }) } },
      response: { status: 200, content: { mimeType: 'application/json', text: J({ id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' }] }) } },
    }] } };
    writeFileSync(path.join(dir, 'session.har'), J(har));
    const r = spawnSync(process.execPath, [CLI, 'check', dir, '--contracts', 'fixtures/contracts', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    const files = (JSON.parse(r.stdout) as { files: { path: string; format?: string; calls: number }[] }).files;
    const byName = new Map(files.map((f) => [path.basename(f.path), f]));
    assert.deepEqual([...byName.keys()].sort(), ['agent.log', 'session.har']);
    assert.equal(byName.get('agent.log')!.format, 'anthropic');
    assert.equal(byName.get('agent.log')!.calls, 20);
    assert.equal(byName.get('session.har')!.format, 'http-cassette');
    assert.equal(byName.get('session.har')!.calls, 1);
  });
});
