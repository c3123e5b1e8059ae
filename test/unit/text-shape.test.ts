// How text is read is decided from its bytes (parse/reader textShape), and units inside wrappers are found.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText } from '../../src/core';
import { textShape } from '../../src/core/parse/reader';
import { fixtureContracts, ROOT } from './helpers';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const call = (weekday: unknown) => JSON.stringify({ name: 'get_hours', arguments: { building: 'Main', weekday } });

describe('textShape: lines or one document, from the bytes', () => {
  it('JSON lines are lines whatever the name', () => {
    const text = `${call(1)}\n${call(2)}\n`;
    for (const name of [undefined, 'x.txt', 'x.log', 'x.chunks', 'x.json', 'x']) assert.equal(textShape(text, name), 'lines', String(name));
  });
  it('a pretty-printed document is a document, also when its lines hold JSON objects alone', () => {
    assert.equal(textShape('{\n  "a": 1\n}\n'), 'document');
    assert.equal(textShape('[\n  {"a": 1},\n  {"b": 2}\n]\n'), 'document');
    assert.equal(textShape('[\n{"a": 1}\n]'), 'document', 'an array of one-line objects is one document');
  });
  it('one line is a document, unless the name says JSONL', () => {
    assert.equal(textShape(`${call(1)}\n`), 'document');
    assert.equal(textShape(`${call(1)}\n`, 'run.jsonl'), 'lines');
  });
  it('JSONL whose first line is broken is still lines', () => {
    assert.equal(textShape(`{"name": "get_hours", "argum\n${call(1)}\n${call(2)}\n`), 'lines');
  });
  it('a recorded SSE body is lines; blank lines and a BOM before the first line do not matter', () => {
    assert.equal(textShape('data: {"a": 1}\r\n\r\ndata: {"b": 2}\r\n\r\n'), 'lines');
    assert.equal(textShape('event: message_start\ndata: {"a": 1}\n'), 'lines');
    assert.equal(textShape(`\uFEFF\n\n${call(1)}\n${call(2)}`), 'lines');
  });
  it('given only a head, a text whose first line is not JSON alone is left to the whole', () => {
    assert.equal(textShape('[\n{"a": 1}\n', undefined, false), 'document');
    assert.equal(textShape(`${call(1)}\n{"name": "get_ho`, undefined, false), 'lines');
  });
});

describe('reading: content decides, wrappers are looked inside', () => {
  const c = fixtureContracts();
  it('a JSONL file named .txt is checked line by line, findings on their lines', () => {
    const text = `${call(1)}\n${call(true)}\n${call('2')}\n`;
    const r = checkText(text, { fileName: 'calls.txt', contracts: c });
    assert.equal(r.format, 'calls');
    assert.equal(r.calls, 3);
    const drift = r.findings.filter((f) => f.code === 'type-drift');
    assert.deepEqual(drift.map((f) => text.slice(f.span.start, f.span.end)), ['true', '"2"']);
  });
  it('SSE data lines are events; their findings point into the data line', () => {
    const chunk = (delta: object) => JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] });
    const text = [
      'event: chunk',
      'data: ' + chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'get_hours', arguments: '{"building": "Main", ' } }] }),
      '',
      'data: ' + chunk({ tool_calls: [{ index: 0, function: { arguments: '"weekday": "3"}' } }] }),
      '',
      ': keep-alive comment',
      'data: [DONE]',
    ].join('\n');
    const r = checkText(text, { contracts: c });
    assert.equal(r.format, 'stream');
    assert.equal(r.calls, 1);
    const drift = r.findings.find((f) => f.code === 'type-drift');
    assert.ok(drift, 'the assembled arguments are checked');
    assert.ok(drift.span.start > text.indexOf('data: ' + chunk({ tool_calls: [{ index: 0, function: { arguments: '"weekday": "3"}' } }] })), 'on the completing data line');
  });
  it('a capture that holds the response one level down is read, positions exact', () => {
    const response = { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_hours', arguments: '{"building": "Main", "weekday": true}' } }] } }] };
    const text = JSON.stringify({ captured: '2026-01-01', exchange: { request: { url: '/v1/chat/completions' }, response } }, null, 2);
    const r = checkText(text, { contracts: c });
    assert.equal(r.format, 'openai-chat');
    assert.equal(r.calls, 1);
    const drift = r.findings.find((f) => f.code === 'type-drift');
    assert.ok(drift);
    assert.equal(text.slice(drift.span.start - 11, drift.span.end), 'weekday\\": true');
  });
  it('an array of wrapped records is read record by record', () => {
    const rec = (weekday: unknown) => ({ ts: 1, event: JSON.parse(call(weekday)) });
    const text = JSON.stringify({ records: [rec(1), rec(false)] });
    const r = checkText(text, { contracts: c });
    assert.equal(r.format, 'calls');
    assert.equal(r.calls, 2);
    assert.equal(r.findings.filter((f) => f.code === 'type-drift').length, 1);
  });
  it('the junk lines of a known format are not searched for wrapped units', () => {
    // the second line holds a call record inside a wrapper, but the file is OpenAI chat lines: it is skipped
    const text = [
      JSON.stringify({ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_hours', arguments: '{"building": "Main", "weekday": 1}' } }] }),
      JSON.stringify({ note: { name: 'get_hours', arguments: { building: 'Main', weekday: true } } }),
    ].join('\n');
    const r = checkText(text, { contracts: c });
    assert.equal(r.format, 'openai-chat');
    assert.equal(r.calls, 1);
  });
  it('JSON that is no trace stays unread, however deep its objects', () => {
    for (const name of ['package.json', 'package-lock.json', 'tsconfig.json']) {
      const r = checkText(readFileSync(path.join(ROOT, name), 'utf8'), { fileName: name });
      assert.equal(r.format, undefined, name);
      assert.equal(r.calls, 0, name);
    }
  });
});
