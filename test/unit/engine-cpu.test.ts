// The engine's per-finding path made cheaper (issue 13) without changing what it answers: string literals skipped
// by one search then, for literals with escapes, character by character; a finding's fingerprint and its place in
// the call written out without arrays; every schema fault of one shape. Each is held to a plain reference.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseTree, type Node } from 'jsonc-parser';
import { locate, newLocateCache } from '../../src/core/parse/locate';
import { findingFingerprint, hash64, callPrint } from '../../src/core/fingerprint';
import { validateArguments } from '../../src/core/checks/validation';
import { topDoc } from '../../src/core/parse/doc';
import type { ToolCall } from '../../src/core/model';

/** A small seeded generator of JSON values whose strings are dense with quotes, backslashes and JSON inside. */
function values(seed: number, count: number): unknown[] {
  let s = seed;
  const rand = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s % n;
  };
  const STRINGS = ['', '"', '\\', '\\"', 'a\\\\"b', '{"city": "Oslo", "q": "say \\"hi\\""}', 'é\n"x"', 'end\\', '\u2028"'];
  const make = (depth: number): unknown => {
    const kind = depth > 3 ? rand(3) : rand(5);
    if (kind === 0) return STRINGS[rand(STRINGS.length)] + STRINGS[rand(STRINGS.length)];
    if (kind === 1) return rand(2) ? rand(100) : null;
    if (kind === 2) return JSON.stringify({ args: STRINGS[rand(STRINGS.length)], n: rand(9) });
    if (kind === 3) return Array.from({ length: rand(4) }, () => make(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = 0, n = rand(5); i < n; i++) o[`k${rand(6)}${STRINGS[rand(3)]}`] = make(depth + 1);
    return o;
  };
  return Array.from({ length: count }, () => make(0));
}

/** Every node's path and [start, end) as a full parser sees it. */
function nodes(tree: Node, path: (string | number)[] = [], out: { path: (string | number)[]; span: [number, number] }[] = []) {
  out.push({ path, span: [tree.offset, tree.offset + tree.length] });
  if (tree.type === 'object') for (const p of tree.children ?? []) nodes(p.children![1], [...path, p.children![0].value as string], out);
  if (tree.type === 'array') (tree.children ?? []).forEach((c, i) => nodes(c, [...path, i], out));
  return out;
}

describe('locating nodes in texts dense with escapes', () => {
  it('every node of generated documents is where a full parser puts it, compact and indented', () => {
    let checked = 0;
    for (const v of values(7, 300)) {
      for (const text of [JSON.stringify({ root: v, after: 'x' }), JSON.stringify({ root: v, after: '\\"' }, null, 2)]) {
        const all = nodes(parseTree(text)!);
        // keys that repeat after escaping differently are not in these documents: one node per path
        if (new Set(all.map((n) => JSON.stringify(n.path))).size !== all.length) continue;
        const cache = newLocateCache();
        for (const n of all) {
          const fresh = locate(text, n.path);
          const cached = locate(text, n.path, cache);
          assert.deepEqual(fresh && [fresh.start, fresh.end], n.span, `${JSON.stringify(n.path)} in ${text}`);
          assert.deepEqual(cached && [cached.start, cached.end], n.span, `(cached) ${JSON.stringify(n.path)} in ${text}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 2000, `${checked} nodes checked`);
  });

  it('a closing quote after an escaped backslash ends the literal; an escaped quote does not', () => {
    const text = '{"a": "x\\\\", "b": "y\\"z", "c": "\\\\\\"", "d": 1}';
    const span = (k: string) => {
      const n = locate(text, [k])!;
      return text.slice(n.start, n.end);
    };
    assert.equal(span('a'), '"x\\\\"');
    assert.equal(span('b'), '"y\\"z"');
    assert.equal(span('c'), '"\\\\\\""');
    assert.equal(span('d'), '1');
  });
});

describe('finding fingerprints', () => {
  const argsDoc = topDoc('{"city": "Oslo", "slots": [{"start": 1}]}', 0, { city: 'Oslo', slots: [{ start: 1 }] });
  const line = topDoc('{"messages": []}', 100, { messages: [] });
  const call = {
    name: 'get_weather', id: 'c1', turn: 0, index: 0, args: argsDoc.value, argsDoc, argsPath: [], encoding: 'string',
    at: { doc: line, path: ['messages', 0] }, nameAt: { doc: line, path: ['messages', 0, 'name'] }, argsAt: { doc: line, path: ['messages', 0, 'arguments'] },
  } as unknown as ToolCall;
  /** The definition: the parts joined by NUL, the place in the call as a '/'-joined path. */
  const reference = (code: string, place: string) => hash64([code, call.name, callPrint(call), place].join('\u0000'));

  it('name, arguments (nested, on a key) and elsewhere, as the joined parts say', () => {
    assert.equal(findingFingerprint({ code: 'x', message: 'm', at: call.nameAt, call }), reference('x', 'name'));
    assert.equal(findingFingerprint({ code: 'x', message: 'm', at: { doc: argsDoc, path: ['slots', 0, 'start'] }, call }), reference('x', 'args/slots/0/start'));
    assert.equal(findingFingerprint({ code: 'x', message: 'm', at: { doc: argsDoc, path: ['city'], part: 'key' }, call }), reference('x', 'args/city#key'));
    assert.equal(findingFingerprint({ code: 'x', message: 'm', at: { doc: argsDoc, path: [] }, call }), reference('x', 'args/'));
    assert.equal(findingFingerprint({ code: 'x', message: 'm', at: { doc: line, path: ['messages', 0, 'arguments', 'k'] }, call }), reference('x', 'args/k'));
    assert.equal(findingFingerprint({ code: 'x', message: 'm', at: { doc: line, path: ['messages', 0, 'name', 'deeper'] }, call }), reference('x', 'other'));
    assert.equal(findingFingerprint({ code: 'x', message: 'm', at: { doc: line, path: ['messages'] }, call }), reference('x', 'other'));
    assert.equal(findingFingerprint({ code: 'parse-error', message: 'bad' }), hash64(['parse-error', 'bad'].join('\u0000')));
  });
});

describe('schema faults', () => {
  it('every fault has the same fields in the same order, whatever its code', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string', minLength: 3 } }, required: ['a', 'c'] };
    const faults = validateArguments(schema, { a: 'x', b: 'y', d: 1 }, 'strict', undefined, []);
    assert.deepEqual(faults.map((f) => f.code).sort(), ['constraint', 'extra-key', 'missing-key', 'type-drift']);
    for (const f of faults) assert.deepEqual(Object.keys(f), ['code', 'path', 'onKey', 'key', 'message'], f.code);
  });
});

describe('number lexemes in a large doc', () => {
  // a log line holding the arguments as an object, longer than a small doc, with non-integer lexemes elsewhere
  const schema = { type: 'object', properties: { weekday: { type: 'integer' }, n: { type: 'integer' }, note: { type: 'string' } } };
  const line = (args: string) => {
    const text = `{"pad": "${'x'.repeat(5000)}", "other": 3.5, "input": ${args}, "after": 1e3}`;
    return topDoc(text, 0, JSON.parse(text));
  };
  const faults = (args: string) => {
    const doc = line(args);
    return validateArguments(schema, (doc.value as { input: unknown }).input, 'strict', doc, ['input']).map((f) => f.message);
  };

  it('an integer written 2.0 inside the arguments is not an integer; one written 2 is, whatever the rest of the line writes', () => {
    assert.deepEqual(faults('{"weekday": 2.0, "n": 4}'), ['weekday wanted integer, got number 2.0']);
    assert.deepEqual(faults('{"weekday": 2, "n": 4E0}'), ['n wanted integer, got number 4E0']);
    assert.deepEqual(faults('{"weekday": 2, "n": 4}'), []);
    assert.deepEqual(faults('{"weekday": 2, "n": 4, "note": "v1.5"}'), []);
  });
});
