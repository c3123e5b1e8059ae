// Reading bytes: JSONL quirks, broken lines, documents that are no trace, and offsets through string escapes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkText } from '../../src/core';
import { brief, checkAndLocate, fixtureContracts } from './helpers';

const contracts = fixtureContracts();
const good = '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2}}';
const bad = '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}';

describe('JSONL', () => {
  it('BOM, CRLF, blank lines and a missing final newline are fine', () => {
    const text = '\ufeff' + [good, '', '   ', bad].join('\r\n');
    const r = checkAndLocate(text, { fileName: 't.jsonl', contracts });
    assert.equal(r.calls, 2);
    assert.deepEqual(r.findings.map(brief), ['type-drift@4:70 true']);
  });

  it('a broken line is one parse-error and the lines after it are still checked', () => {
    const bad2 = bad.replace('Killam', 'Dunn');
    const text = [good, '{"name": "get_hours", "arguments": {"building": "Killam",, "weekday": 2}}', bad, 'not json at all', bad2].join('\n') + '\n';
    const r = checkAndLocate(text, { fileName: 't.jsonl', contracts });
    assert.equal(r.calls, 3);
    assert.deepEqual(r.findings.map(brief), [
      'parse-error@2:58 ,',
      'type-drift@3:70 true',
      'parse-error@4:1 not',
      'type-drift@5:68 true',
    ]);
    assert.equal(r.findings[0].message, 'expected a property name in double quotes');
  });

  it('a .json file whose lines are JSON is read as JSONL (BFCL ships those)', () => {
    const r = checkAndLocate([good, bad].join('\n'), { fileName: 'calls.json', contracts });
    assert.equal(r.calls, 2);
    assert.deepEqual(r.findings.map(brief), ['type-drift@2:70 true']);
  });

  it('a broken JSON document is one parse-error where the parser stopped', () => {
    const r = checkAndLocate('{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}', { fileName: 't.json' });
    assert.deepEqual(r.findings.map(brief), ['parse-error@3:21 "content"']);
    assert.equal(r.findings[0].message, "expected ',' or a closing bracket");
  });

  it('JSON that is no trace gets no format and no findings', () => {
    for (const text of ['{"name": "contract-guard", "version": "1.0.0", "scripts": {}}', '{"compilerOptions": {"strict": true}}', '[1, 2, 3]', '"just a string"', '']) {
      const r = checkText(text, { fileName: 'package.json' });
      assert.equal(r.format, undefined, text);
      assert.deepEqual(r.findings, [], text);
    }
  });

  it('absurd nesting is a finding, not a stack overflow', () => {
    const deep = '{"name": "get_hours", "arguments": ' + '['.repeat(100000) + ']'.repeat(100000) + '}';
    const r = checkText(deep, { fileName: 'deep.jsonl', contracts });
    assert.equal(r.findings.length, 1);
    assert.match(r.findings[0].code, /parse-error|arguments-encoding/);
  });
});

describe('offsets inside string-encoded arguments', () => {
  // Property: for any string value (quotes, backslashes, newlines, unicode, surrogate pairs), a type-drift on it
  // inside OpenAI-style string arguments points at exactly that value as written in the source, escapes and all.
  it('map back through every escape', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, v: { type: 'integer' } } };
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), (before, value) => {
        const args = JSON.stringify({ a: before, v: value });
        const text = JSON.stringify({
          tools: [{ type: 'function', function: { name: 't', parameters: schema } }],
          messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: args } }] }],
        });
        const r = checkText(text, {});
        const drift = r.findings.filter((f) => f.code === 'type-drift');
        assert.equal(drift.length, 1);
        const slice = text.slice(drift[0].span.start, drift[0].span.end);
        // The slice is the escaped form of the inner JSON token: unescape once to get the token, parse to get the value.
        assert.equal(JSON.parse(JSON.parse(`"${slice}"`)), value);
      }),
      { numRuns: 300 },
    );
  });

  it('fenced and double-encoded arguments point inside too', () => {
    const fenced = JSON.stringify({ name: 'get_hours', arguments: '```json\n{"building": "K", "weekday": "2"}\n```' });
    const r1 = checkAndLocate(fenced, { contracts });
    assert.deepEqual(r1.findings.map((f) => f.code + ' ' + f.token), ['arguments-encoding "```json\\n{\\"building\\": \\"K\\", \\"weekday\\": \\"2\\"}\\n```"', 'type-drift \\"2\\"']);
    const doubled = JSON.stringify({ name: 'get_hours', arguments: JSON.stringify(JSON.stringify({ building: 'K', weekday: true })) });
    const r2 = checkAndLocate(doubled, { contracts });
    assert.deepEqual(r2.findings.map((f) => f.code + ' ' + f.token), [r2.findings[0].code + ' ' + r2.findings[0].token, 'type-drift true']);
    assert.equal(r2.findings[0].code, 'arguments-encoding');
  });

  it('arguments that are not an object, null, or empty', () => {
    const lines = [
      { name: 'get_hours', arguments: '[1, 2]' },
      { name: 'get_hours', arguments: null },
      { name: 'get_hours', arguments: '{"building": ' },
    ].map((x) => JSON.stringify(x)).join('\n');
    const r = checkAndLocate(lines, { fileName: 'x.jsonl', contracts });
    assert.deepEqual(r.findings.map((f) => f.message), [
      'arguments of get_hours are not an object: got an array',
      'arguments of get_hours are not an object: got null',
      r.findings[2]?.message,
    ]);
    assert.match(r.findings[2].message, /^arguments of get_hours are not valid JSON/);
  });
});
