// Python's NaN / Infinity / -Infinity (json.dumps writes them by default) in a trace (core parse/non-finite.ts):
// the record is read, not lost to a parse-error, and every offset stays where it was.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { checkText } from '../../src/core';
import { finiteJson, parseJsonOrPython, pythonJson } from '../../src/core/parse/non-finite';
import { ROOT } from './helpers';

describe("Python's non-finite numbers", () => {
  it('rewrites the bare words outside strings, to JSON of the same length', () => {
    const text = '{"a": NaN, "b": [Infinity,-Infinity, 1], "NaN": "NaN Infinity", "c": {"d":NaN}}';
    const finite = finiteJson(text)!;
    assert.equal(finite.length, text.length);
    assert.deepEqual(JSON.parse(finite), { a: 0, b: [Infinity, -Infinity, 1], NaN: 'NaN Infinity', c: { d: 0 } });
    assert.equal(finite.indexOf('"NaN Infinity"'), text.indexOf('"NaN Infinity"'));
    assert.equal(finiteJson('{"a": "x\\"NaN", "b": 1}'), undefined); // inside a string with an escaped quote
    assert.equal(finiteJson('{"a": NaNx}'), undefined); // not the word
    assert.equal(finiteJson('{"a": 1}'), undefined);
    assert.throws(() => parseJsonOrPython('{"a": NaN'), SyntaxError); // still broken: JSON.parse's error
    assert.deepEqual(parseJsonOrPython('[1]'), [1]);
    assert.equal(pythonJson('[1]'), undefined); // nothing to rewrite
  });

  it('any JSON value written the Python way reads as the value, its offsets kept (property)', () => {
    const pythonDumps = (v: unknown): string => {
      if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : JSON.stringify(v);
      if (Array.isArray(v)) return `[${v.map(pythonDumps).join(', ')}]`;
      if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pythonDumps(x)}`).join(', ')}}`;
      return JSON.stringify(v);
    };
    const finiteOf = (v: unknown): unknown => (typeof v === 'number' && (Number.isNaN(v) || v === 0) ? 0 : Array.isArray(v) ? v.map(finiteOf) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, finiteOf(x)])) : v);
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.double(), fc.constantFrom(NaN, Infinity, -Infinity), fc.string(), fc.constantFrom('NaN', 'Infinity', '"NaN"'), fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('v'), { maxKeys: 4 })),
    })).v;
    fc.assert(fc.property(value, (v) => {
      const text = pythonDumps(v);
      const parsed = pythonJson(text) ?? { value: JSON.parse(text), text };
      assert.equal(parsed.text.length, text.length);
      assert.deepEqual(parsed.value, finiteOf(v));
      assert.deepEqual(parseJsonOrPython(text), finiteOf(v));
    }), { numRuns: 300 });
  });

  it('a trace whose records carry a NaN or Infinity metric is checked as without it', () => {
    const text = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'boundary.anthropic.jsonl'), 'utf8');
    const want = checkText(text, { fileName: 'trace.jsonl' });
    assert.ok(want.calls > 10 && want.findings.length > 3);
    // a metric at the end of each record: the findings before it stay at their offsets
    const withMetric = text.trim().split('\n').map((l, i) => `${l.slice(0, -1)}, "score": ${['NaN', 'Infinity', '-Infinity'][i % 3]}}`).join('\n') + '\n';
    const got = checkText(withMetric, { fileName: 'trace.jsonl' });
    assert.equal(got.calls, want.calls);
    assert.equal(got.findings.filter((f) => f.code === 'parse-error').length, 0);
    const lineOf = (t: string, at: number) => t.slice(0, at).split('\n').length;
    assert.deepEqual(got.findings.map((f) => [f.code, lineOf(withMetric, f.span.start)]), want.findings.map((f) => [f.code, lineOf(text, f.span.start)]));
  });
});

