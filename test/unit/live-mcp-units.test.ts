// The parts of `mcp wrap` that cut streams into messages, and the recording file they write to, on their own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText, LineIndex } from '../../src/core';
import { LiveFindings } from '../../src/cli/live/findings';
import { JsonlOut, outFile } from '../../src/cli/live/jsonl';
import { SseReader } from '../../src/cli/live/sse';
import { McpRecorder } from '../../src/cli/live/mcp-recorder';
import { LineSplitter } from '../../src/cli/live/mcp-stdio';
import { tempDir } from './live-mcp-otlp-helpers';

describe('LineSplitter', () => {
  it('cuts bytes into lines across chunks, a character split between chunks included', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('{"a":"ü"}\r\n{"b":1}\n\n{"c":"☀"}');
    // every chunk boundary, one byte at a time
    for (let i = 0; i < bytes.length; i++) s.push(bytes.subarray(i, i + 1));
    assert.deepEqual(lines, ['{"a":"ü"}', '{"b":1}', '']);
    s.end();
    assert.deepEqual(lines, ['{"a":"ü"}', '{"b":1}', '', '{"c":"☀"}'], 'a last line without its newline still counts');
  });
});

describe('SseReader', () => {
  it('gives each event\'s data once the event ends, its data lines joined', () => {
    const data: string[] = [];
    const r = new SseReader((d) => data.push(d));
    const text = 'event: message\r\nid: 1\r\ndata: {"jsonrpc":"2.0",\r\ndata:"id":1}\r\n\r\n: a comment\n\ndata: {"x":"€"}\n\n';
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 5) r.push(bytes.subarray(i, i + 5));
    r.end();
    assert.deepEqual(data, ['{"jsonrpc":"2.0",\n"id":1}', '{"x":"€"}']);
  });
});

describe('JsonlOut', () => {
  it('appends whole lines after what a file held, and knows where its lines start in UTF-16 offsets', () => {
    const file = path.join(tempDir('jsonl'), 'a.jsonl');
    writeFileSync(file, '{"x":"𝄞ü"}\n{"y":2}'); // no newline at the end; a surrogate pair and a two-byte character
    const out = JsonlOut.open(file, true);
    const base = out.append('{"z":3}');
    out.close();
    const text = readFileSync(file, 'utf8');
    assert.equal(text, '{"x":"𝄞ü"}\n{"y":2}\n{"z":3}\n');
    assert.equal(base, text.indexOf('{"z"'));
    assert.deepEqual(out.index.position(base + 5), LineIndex.of(text).position(base + 5));
    assert.deepEqual(out.index.position(base), { line: 3, column: 1 });
  });

  it('starts afresh when not appending, once the first line comes', () => {
    const file = path.join(tempDir('jsonl'), 'b.jsonl');
    writeFileSync(file, 'old\n');
    const out = JsonlOut.open(file, false);
    assert.equal(readFileSync(file, 'utf8'), 'old\n', 'a run that records nothing (it could not start) loses nothing');
    assert.equal(out.append('{}'), 0);
    out.close();
    assert.equal(readFileSync(file, 'utf8'), '{}\n');
  });
});

describe('outFile', () => {
  it('is the file given, a new file in a folder given, or one under traces/', () => {
    const dir = tempDir('out');
    assert.equal(outFile(path.join(dir, 'a.jsonl'), 'mcp'), path.join(dir, 'a.jsonl'));
    const inFolder = outFile(dir, 'mcp');
    assert.equal(path.dirname(inFolder), dir);
    assert.match(path.basename(inFolder), /^mcp-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.jsonl$/);
    assert.match(outFile('not-yet/', 'otlp'), /^not-yet[\\/]otlp-.*\.jsonl$/);
    assert.match(outFile(undefined, 'otlp'), /^traces[\\/]otlp-.*\.jsonl$/);
  });
});

describe('McpRecorder', () => {
  it('records a batch one message a line and a line that is not JSON as it is, and prints what check finds', async () => {
    const file = path.join(tempDir('rec'), 'r.jsonl');
    const out = JsonlOut.open(file, false);
    const printed: string[] = [];
    const rec = new McpRecorder(out, 'r.jsonl', {}, new LiveFindings((l) => printed.push(l)));
    rec.message('client', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    rec.message('server', JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }] } }, null, 2));
    rec.message('client', '[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":"1"}}},{"jsonrpc":"2.0","method":"notifications/x"}]');
    rec.message('server', 'not json\r');
    await new Promise((r) => setImmediate(r));
    rec.end();
    const text = readFileSync(file, 'utf8');
    assert.equal(text.split('\n').length - 1, 5, 'tools/list, its answer (one line), the two batched messages, the junk line');
    assert.equal(rec.messages, 5);
    const checked = checkText(text).findings.map((f) => f.code).sort();
    assert.deepEqual(checked, ['parse-error', 'type-drift']); // no result yet: no orphan-call (the session records none)
    assert.deepEqual(printed.map((l) => /^ {2}r\.jsonl:\d+:\d+ +\S+ +(\S+)/.exec(l)?.[1]).sort(), checked);
  });
});
