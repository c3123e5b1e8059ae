// Finding positions (src/core/parse/locate.ts, doc.ts, escapes.ts): the walk that resumes from the last path, the
// shortcut that rules out a later duplicate of a root key, member and element caches past 32, large texts, and
// offsets mapped through the escapes of string-encoded arguments.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { locate, newLocateCache } from '../../src/core/parse/locate';
import { escapeMap, sourceOffset } from '../../src/core/parse/escapes';
import { embeddedDoc, spanOf, topDoc } from '../../src/core/parse/doc';

/** The [start, end) of `needle` in `text`, which must occur exactly once. */
function at(text: string, needle: string): [number, number] {
  const i = text.indexOf(needle);
  assert.ok(i >= 0 && text.indexOf(needle, i + 1) === -1, `${needle} once in ${text}`);
  return [i, i + needle.length];
}

function value(text: string, path: (string | number)[], cache = newLocateCache()): [number, number] | undefined {
  const n = locate(text, path, cache);
  return n && [n.start, n.end];
}

describe('locating nodes', () => {
  it('the last of duplicate keys, as JSON.parse keeps it: at the root, spelled with \\u, and nested', () => {
    const root = '{"a": "first", "b": 1, "a": "last"}';
    assert.deepEqual(value(root, ['a']), at(root, '"last"'));
    const n = locate(root, ['a'])!;
    assert.deepEqual([n.keyStart, n.keyEnd], [at(root, '"a": "last"')[0], at(root, '"a": "last"')[0] + 3]);
    const escaped = '{"a": "first", "\\u0061": "last"}';
    assert.deepEqual(value(escaped, ['a']), at(escaped, '"last"'));
    const nested = '{"x": {"k": "first", "k": "last"}, "y": {"k": "other"}}';
    assert.deepEqual(value(nested, ['x', 'k']), at(nested, '"last"'));
    // the key's literal inside a later string value is not a member: the first one stands
    const quoted = '{"m": "one", "t": "say \\"m\\""}';
    assert.deepEqual(value(quoted, ['m']), at(quoted, '"one"'));
  });

  it('one cache, any order: the same spans as fresh walks, across arrays and objects past 32 entries', () => {
    const doc = {
      messages: Array.from({ length: 40 }, (_, i) => ({ role: 'tool', content: `c${i}`, tool_calls: [{ function: { name: `n${i}`, arguments: `{"v": ${i}}` } }] })),
      wide: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, `w${i}`])),
    };
    const text = JSON.stringify(doc, null, 1);
    const paths: (string | number)[][] = [];
    for (let i = 0; i < 40; i++) paths.push(['messages', i, 'content'], ['messages', i, 'tool_calls', 0, 'function', 'arguments']);
    for (let i = 0; i < 50; i++) paths.push(['wide', `k${i}`]);
    const shuffled = paths.map((p, i) => [(i * 7919) % paths.length, p] as const).sort((a, b) => a[0] - b[0]).map(([, p]) => p);
    const cache = newLocateCache();
    for (const p of [...shuffled, ...paths.slice().reverse()]) assert.deepEqual(value(text, p, cache), value(text, p), JSON.stringify(p));
    assert.deepEqual(value(text, ['messages', 39, 'content'], cache), at(text, '"c39"'));
    assert.deepEqual(value(text, ['wide', 'k49'], cache), at(text, '"w49"'));
    assert.equal(locate(text, ['messages', 40], cache), undefined);
    assert.equal(locate(text, ['wide', 'k50'], cache), undefined);
  });

  it('a path array the caller changes after asking is not mistaken for the path it was', () => {
    const text = '{"a": [10, 20, 30]}';
    const cache = newLocateCache();
    const path: (string | number)[] = ['a', 0];
    assert.deepEqual(value(text, path, cache), at(text, '10'));
    path[1] = 2;
    assert.deepEqual(value(text, path, cache), at(text, '30'));
  });

  it('a large text (an export): the same spans, duplicates included', () => {
    const spans = Array.from({ length: 2000 }, (_, i) => `{"id": "s${i}", "name": "x", "name": "n${i}"}`);
    const text = `{"spans": [${spans.join(', ')}], "spans2": []}`;
    assert.ok(text.length > 16384);
    const cache = newLocateCache();
    for (const i of [1999, 3, 1500, 0]) assert.deepEqual(value(text, ['spans', i, 'name'], cache), at(text, `"n${i}"`));
  });
});

describe('offsets inside string-encoded arguments', () => {
  it('sourceOffset agrees with the escape map, for short literals and long ones', () => {
    for (const decoded of ['{"a": "é\\n\\"x\\""}', 'plain', '', `{"long": "${'ü\\t'.repeat(600)}"}`]) {
      // non-ASCII written as \u escapes: six source characters for one decoded
      const literal = JSON.stringify(decoded).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      const text = `{"arguments": ${literal}}`;
      const start = text.indexOf(literal);
      const end = start + literal.length;
      const map = escapeMap(text, start, end);
      for (let i = 0; i <= decoded.length + 2; i++) assert.equal(sourceOffset(text, start, end, i), map[Math.min(i, map.length - 1)], `${i} of ${decoded.slice(0, 20)}`);
    }
  });

  it('a finding inside the arguments points at the source characters, escapes and all', () => {
    const args = '{"city": "Montr\\u00e9al", "units": 7}';
    const line = JSON.stringify({ function: { name: 'get_weather', arguments: args } });
    const doc = topDoc(line, 100, JSON.parse(line));
    const inner = embeddedDoc(doc, ['function', 'arguments'], args, 0, args, JSON.parse(args));
    const span = spanOf({ doc: inner, path: ['units'] });
    assert.equal(line.slice(span.start - 100, span.end - 100), '7');
    const key = spanOf({ doc: inner, path: ['city'], part: 'key' });
    assert.equal(line.slice(key.start - 100, key.end - 100), '\\"city\\"');
  });
});
