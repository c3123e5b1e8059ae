// The engine's per-call path was made cheaper (issue 13) without changing what it answers: canonical JSON written
// natively where a subtree is already sorted, paths joined at their final length, a call's fingerprint shared by
// pairing and its findings, schema faults kept by the call's place, contracts resolved to one object each.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, callFingerprint, callPrint } from '../../src/core/fingerprint';
import { childPath, joinPath } from '../../src/core/parse/doc';
import { checkText, loadContracts } from '../../src/core';

/** The definition of canonical JSON, written plainly: keys sorted at every depth, numbers by value. */
function reference(v: unknown): string {
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : reference(x))).join(',') + ']';
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + reference(o[k])).join(',') + '}';
  }
  if (typeof v === 'number') return Number.isFinite(v) ? String(v === 0 ? 0 : v) : 'null';
  return JSON.stringify(v) ?? 'null';
}

/** A small seeded generator of JSON-like values (keys in any order, integer-like keys, nesting). */
function values(seed: number, count: number): unknown[] {
  let s = seed;
  const rand = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s % n;
  };
  const KEYS = ['b', 'a', 'c', '10', '2', 'é', 'Z', 'aa', '_', 'ok', 'error', 'result'];
  const make = (depth: number): unknown => {
    const kind = depth > 3 ? rand(4) : rand(7);
    if (kind === 0) return rand(1000) - 500;
    if (kind === 1) return ['x', 'y"z', '\u2028', ''][rand(4)];
    if (kind === 2) return [true, false, null, -0, 1.5][rand(5)];
    if (kind === 3) return rand(2) ? 2.0 : 1e21;
    if (kind === 4) return Array.from({ length: rand(4) }, () => make(depth + 1));
    const o: Record<string, unknown> = {};
    const n = kind === 6 ? 17 + rand(5) : rand(5);
    for (let i = 0; i < n; i++) o[i < KEYS.length ? KEYS[(i + rand(KEYS.length)) % KEYS.length] : `k${rand(100)}`] = make(depth + 1);
    return o;
  };
  return Array.from({ length: count }, () => make(0));
}

describe('canonical JSON on the fast paths', () => {
  it('equals the plain definition on sorted, unsorted and mixed values', () => {
    const cases: unknown[] = [
      { b: 1, a: { c: 1, d: { f: 2, e: 1 } } },
      { a: { d: 1, c: 2 }, b: [{ y: 1, x: 2 }, { x: 1 }] },
      { 10: 'x', 2: 'y', a: 'z', B: 'w' },
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${(i * 7) % 20}`, i])),
      { z: undefined, a: -0, m: [undefined, NaN, 1.50] },
      ...values(7, 400),
    ];
    for (const v of cases) assert.equal(canonicalJson(v), reference(v), JSON.stringify(v));
  });

  it('leaves the value it writes untouched', () => {
    const v = { b: 1, a: 2, c: { z: 1, y: 2 } };
    canonicalJson(v);
    assert.deepEqual(Object.keys(v), ['b', 'a', 'c']);
    assert.deepEqual(Object.keys(v.c), ['z', 'y']);
  });
});

describe('paths joined at their length', () => {
  it('are the spread of their parts, in new arrays', () => {
    const a = ['messages', 3];
    assert.deepEqual(joinPath(a, ['function', 'name']), ['messages', 3, 'function', 'name']);
    assert.deepEqual(joinPath([], []), []);
    assert.deepEqual(childPath(a, 'tool_calls'), ['messages', 3, 'tool_calls']);
    assert.deepEqual(childPath(a, 'tool_calls', 0), ['messages', 3, 'tool_calls', 0]);
    assert.deepEqual(childPath([], 0), [0]);
    const joined = joinPath(a, []);
    joined.push('x');
    assert.deepEqual(a, ['messages', 3], 'the parts are not shared');
  });
});

describe('a checked session answers the same through its caches', () => {
  const weather = { arguments: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } };
  const contracts = loadContracts([{ path: 'w.contract.json', text: JSON.stringify({ version: 1, tools: { get_weather: weather } }) }]).contracts;
  const line = (args: string) => JSON.stringify({ messages: [
    { role: 'user', content: 'weather?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: args } }, { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: args } }] },
    { role: 'tool', tool_call_id: 'c1', content: '{"ok":true}' },
    { role: 'tool', tool_call_id: 'c2', content: '{"ok":true}' },
  ], tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }] });

  it('gives a call outside the session the faults of its twin inside, and the fingerprint pairing uses', () => {
    const result = checkText(line('{"days":2.0,"units":"c"}') + '\n', { fileName: 't.jsonl', contracts, keepModel: true });
    const { session, context } = result.model![0];
    const inside = context.schemaFaults(session.calls[0]);
    assert.deepEqual(inside.map((f) => f.code).sort(), ['extra-key', 'missing-key', 'type-drift']);
    assert.equal(context.schemaFaults(session.calls[0]), inside, 'computed once');
    const twin = { ...session.calls[0] };
    assert.deepEqual(context.schemaFaults(twin), inside, 'a call object from elsewhere is validated too');
    assert.equal(context.pairing.fingerprint(session.calls[1]), callFingerprint('get_weather', session.calls[1].args, session.calls[1].argumentsRaw));
    assert.equal(callPrint(session.calls[1]), context.pairing.fingerprint(session.calls[1]));
    assert.ok(result.findings.some((f) => f.code === 'type-drift' && /got number 2\.0/.test(f.message)), 'the lexeme of a float-ish integer is still read');
  });

  it('resolves a contract to one object per source, the workspace first', () => {
    const result = checkText(line('{"city":"Oslo"}') + '\n', { fileName: 't.jsonl', contracts, keepModel: true });
    const { context } = result.model![0];
    const ws = context.contractFor('get_weather');
    assert.equal(ws?.source, 'workspace');
    assert.equal(context.contractFor('get_weather'), ws);
    assert.equal(context.embeddedContract('get_weather')?.name, 'get_weather');
    const bare = checkText(line('{"city":"Oslo"}') + '\n', { fileName: 't.jsonl', keepModel: true }).model![0].context;
    assert.equal(bare.contractFor('get_weather')?.source, 'embedded');
    assert.equal(bare.contractFor('get_weather')?.contract, bare.embeddedContract('get_weather'));
  });
});
