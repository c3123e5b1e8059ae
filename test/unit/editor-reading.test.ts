// The editor's side of reading any file (src/extension/reading.ts): which plain-text documents are worth a check,
// whether a document no reader read still looks like a trace, and the manifest's reader list kept equal to the core's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readerIds } from '../../src/core';
import { isConfigName, startsLikeJson, traceLike } from '../../src/extension/reading';
import { ROOT } from './helpers';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

const chatLine = JSON.stringify({
  messages: [
    { role: 'user', content: 'hours?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_hours', arguments: '{}' } }] },
  ],
});

describe('the manifest', () => {
  it('contractGuard.readAs offers exactly the core readers (empty first: the content decides)', () => {
    const setting = manifest.contributes.configuration.properties['contractGuard.readAs'];
    const want = ['', ...readerIds()];
    assert.deepEqual(setting.enum, want, `package.json contractGuard.readAs "enum" is not the core readers (npm run build, then node test/docs/reader-enum.js). It must be:\n"enum": ${JSON.stringify(want)}`);
    assert.equal(setting.default, '');
    assert.equal(setting.scope, 'resource');
  });

  it('declares Read Trace As… and activates on plain text and logs', () => {
    const cmd = manifest.contributes.commands.find((c: { command: string }) => c.command === 'contractGuard.readAs');
    assert.equal(cmd?.title, 'Read Trace As…');
    for (const e of ['onLanguage:plaintext', 'onLanguage:log', 'onLanguage:json', 'onLanguage:jsonl']) assert.ok(manifest.activationEvents.includes(e), e);
  });
});

describe('a plain-text document starts like JSON', () => {
  it('objects, arrays of objects, JSONL and recorded SSE streams do', () => {
    for (const head of [chatLine + '\n' + chatLine, '\ufeff  {\n  "messages": []}', '[{"name": "x"}]', '[\n  [1]]', 'event: message_start\ndata: {"type": "message_start"}\n', 'data: {"choices": []}\n\n', '{}', '{']) {
      assert.equal(startsLikeJson(head), true, head);
    }
  });

  it('logs, templates, prose and SSE without JSON do not', () => {
    for (const head of ['[2024-05-01 10:00:00] INFO started', '{{ template }}', 'Hello {"a": 1}', '', '   ', 'id: 3\nretry: 100\n', '[1, 2, 3]', '["a"]', 'data: hello']) {
      assert.equal(startsLikeJson(head), false, head);
    }
  });
});

describe('a document no reader read looks like a trace', () => {
  it('by a tool key, a message role, or an array of messages/events/spans', () => {
    assert.equal(traceLike(chatLine + '\n' + chatLine + '\n', 'a.txt'), 'messages');
    assert.equal(traceLike('{"steps": [{"toolUse": {"name": "x"}}]}', 'run.json'), 'steps');
    assert.equal(traceLike('{"data": {"x": {"functionCall": {"name": "f"}}}}', 'run.json'), 'functionCall');
    assert.equal(traceLike('{"log": [{"role": "assistant", "content": "hi"}]}', 'run.json'), 'role');
    assert.equal(traceLike('{"items": [{"type": "tool_use", "id": "t"}]}', 'x.json'), 'type: tool_use');
    assert.equal(traceLike('{"resourceSpans": [{"scopeSpans": []}]}', 'x.json'), 'resourceSpans');
    assert.equal(traceLike('event: x\ndata: {"delta": {"tool_calls": [{"index": 0}]}}\n\ndata: [DONE]\n', 'x.chunks'), 'tool_calls');
  });

  it('a document cut by the look (or broken further on) is judged by what parsed', () => {
    const big = '{\n  "meta": {"id": 1},\n  "events": [\n    {"kind": "a", "text": "' + 'x'.repeat(500) + '"},\n    {"kind": "b", "te';
    assert.equal(traceLike(big, 'export.json'), 'events');
    assert.equal(traceLike('{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}', 't.json'), 'messages');
  });

  it('configuration and plain data do not', () => {
    const pkg = JSON.stringify({ name: 'x', version: '1.0.0', contributes: { messages: [{ role: 'user', content: 'x' }] }, dependencies: { events: '^3.0.0' } });
    assert.equal(traceLike(pkg, 'package.json'), undefined, 'a config name never is');
    assert.equal(traceLike(pkg, 'sub/.vscode/settings.json'), undefined);
    assert.equal(traceLike('{"compilerOptions": {"strict": true}}', 'tsconfig.base.json'), undefined);
    assert.equal(traceLike(JSON.stringify({ packages: { 'node_modules/events': { version: '3.3.0' } }, dependencies: { events: '^3.0.0' } }), 'deps.json'), undefined);
    assert.equal(traceLike('{"events": [], "messages": "none", "role": "admin"}', 'data.json'), undefined, 'empty arrays and strings are not conversations');
    assert.equal(traceLike('[1, 2, 3]\n[4, 5]\n', 'rows.txt'), undefined);
    assert.equal(traceLike('not json at all', 'notes.txt'), undefined);
  });

  it('knows configuration files by name', () => {
    for (const p of ['package.json', 'a/package-lock.json', 'tsconfig.json', 'tsconfig.build.json', '.vscode/launch.json', 'x.code-workspace', 'b/weather.contract.json', 'hours.fixture.json', '.eslintrc.json']) {
      assert.equal(isConfigName(p), true, p);
    }
    for (const p of ['trace.json', 'package.jsonl', 'runs/settings-sweep.jsonl', 'session.txt']) assert.equal(isConfigName(p), false, p);
  });
});
