// Regression tests for every input the fuzzer (npm run fuzz) broke, and for each hostile contract of issue 8.
// Inputs are built in code (the fuzzer's originals were mutations of the fixtures: seed and index are noted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts } from '../../src/core';
import { compileSchema, refCycle } from '../../src/core/contracts/compile';
import { globToRegExp } from '../../src/core/config';
import { fixture } from './helpers';

const weatherCall = (args: unknown) => JSON.stringify({ name: 'get_weather', arguments: args });

function contractOf(schema: unknown, form: 'own' | 'openai' = 'own') {
  const text = form === 'own'
    ? JSON.stringify({ tools: { get_weather: { arguments: schema } } })
    : JSON.stringify([{ type: 'function', function: { name: 'get_weather', parameters: schema } }]);
  return { text, ...loadContracts([{ path: 'hostile.contract.json', text }]) };
}

const messages = (l: ReturnType<typeof loadContracts>) => l.findings.map((f) => `${f.finding.severity} ${f.pointer} ${f.finding.message}`);

test('fuzz regressions: readers and checks', async (t) => {
  await t.test('a contract nested 100k deep is a finding on the file, not a stack overflow (fuzz contract-guard #1812)', () => {
    const base = fixture('contracts/hours.contract.json');
    const at = base.indexOf('"type": "integer"') + '"type": '.length;
    const text = base.slice(0, at) + '['.repeat(100000) + base.slice(at);
    const { findings } = loadContracts([{ path: 'hours.contract.json', text }]);
    assert.equal(findings.length, 1);
    assert.equal(findings[0].finding.message, 'nested too deeply: more than 1000 levels of brackets');
    assert.equal(findings[0].finding.span.start, at + 994); // the 1001st bracket: five levels were open before
  });

  await t.test('a broken string ends at its line, as jsonc-parser reads it: deep brackets after it are still refused (fuzz ci #18631)', () => {
    const text = '{"tools": {"a": {"description": "unterminated\n' + '['.repeat(100000) + '}}}';
    const { findings } = loadContracts([{ path: 'a.contract.json', text }]);
    assert.deepEqual(findings.map((f) => [f.finding.message, f.finding.span.start]), [['nested too deeply: more than 1000 levels of brackets', 46 + 997]]);
  });

  await t.test('an embedded schema too deep to print is a compile error, not a throw (fuzz contract-guard #7389, #7990)', () => {
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 20000; i++) deep = { properties: { a: deep } };
    const compiled = compileSchema(deep, 'strict');
    assert.equal(compiled.validate, undefined);
    assert.equal(compiled.error?.message, 'nested too deeply to compile');
  });

  await t.test('an {"input": …} wrapper under a tool whose embedded schema has string "properties" (fuzz contract-guard #14190)', () => {
    const text = [
      JSON.stringify({ role: 'system', content: 'x', tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: '{"a":1}' } } }] }),
      JSON.stringify({ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"input": {"city": "Oslo"}}' } }] }),
    ].join('\n');
    const r = checkText(text, { fileName: 'weather.jsonl' });
    assert.ok(Array.isArray(r.findings));
  });

  await t.test('nesting too deep for the error locator: the parse-error stays inside the text (fuzz ci #6299, #6113)', () => {
    const doc = '{"messages": ' + '{"a":'.repeat(50000) + '{"a"';
    const r = checkText(doc, { fileName: 'deep.json' });
    assert.deepEqual(r.findings.map((f) => [f.code, f.message, f.span.start, f.span.end]), [
      ['parse-error', "unexpected end of input: Expected ':' after property name", doc.length - 1, doc.length],
    ]);
    const line = '[' + '['.repeat(50000) + '1,';
    const text = '{}\n' + line;
    const l = checkText(text, { fileName: 'deep.jsonl' });
    assert.deepEqual(l.findings.map((f) => [f.code, f.span.start, f.span.end]), [['parse-error', text.length - 1, text.length]]);
    assert.match(l.findings[0].message, /^unexpected end of input: /);
  });

  await t.test('a key named toString holding data does not break session naming (fuzz long #264274, #443798)', () => {
    const text = '[{"task_id": {"valueOf": 1}, "reward": 0, "info": {}, "traj": [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}], "trial": {"toString": {"polluted": "yes"}}}]';
    const r = checkText(text, { fileName: 'tau.json' });
    assert.equal(r.format, 'tau-bench');
    assert.equal(r.calls, 1);
  });

  await t.test('an embedded tool definition whose required list holds a {"toString": …} object (fuzz long2 #246413)', () => {
    const text = JSON.stringify({
      messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"}' } }] }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city', { toString: { a: 1 } }] } } }],
    });
    const { contracts } = contractOf({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, 'openai');
    const r = checkText(text, { fileName: 'weather.jsonl', contracts });
    assert.ok(r.findings.some((f) => f.code === 'schema-drift'), r.findings.map((f) => f.code).join());
  });

  await t.test('200k extra keys in one call are located in one scan of the object (fuzz special many-keys.json)', () => {
    const { contracts } = contractOf({ type: 'object', properties: { city: { type: 'string' } } });
    const keys = Array.from({ length: 200000 }, (_, i) => `k${i}`);
    const args = JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, i])));
    const text = JSON.stringify({ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: args } }] });
    const started = Date.now();
    const r = checkText(text, { fileName: 'many.json', contracts });
    assert.ok(Date.now() - started < 30000, `took ${Date.now() - started} ms`);
    const extra = r.findings.filter((f) => f.code === 'extra-key');
    assert.equal(extra.length, 200000);
    // the last key's finding points at that key inside the string-encoded arguments: \"k199999\"
    const last = extra[extra.length - 1];
    assert.equal(text.slice(last.span.start, last.span.end), '\\"k199999\\"');
  });

  await t.test('the quadratic path of many type faults stays linear: 20k wrong items', () => {
    const { contracts } = contractOf({ type: 'object', properties: { xs: { type: 'array', items: { type: 'integer' } } } });
    const started = Date.now();
    const r = checkText(weatherCall({ xs: Array.from({ length: 20000 }, () => 'x') }), { fileName: 'c.jsonl', contracts });
    assert.equal(r.findings.filter((f) => f.code === 'type-drift').length, 20000);
    assert.ok(Date.now() - started < 15000, `took ${Date.now() - started} ms`);
  });
});

test('hostile contracts', async (t) => {
  await t.test('catastrophic patterns run on re2js: linear on a 100k string', () => {
    for (const pattern of ['^(a+)+$', '(x+x+)+y', '^(a|a)*$', '(.*a){12}']) {
      const { contracts, findings } = contractOf({ type: 'object', properties: { city: { type: 'string', pattern } } });
      assert.deepEqual(findings, []);
      const started = Date.now();
      const r = checkText(weatherCall({ city: 'a'.repeat(100000) + '!' }), { fileName: 'c.jsonl', contracts });
      assert.ok(Date.now() - started < 5000, `${pattern} took ${Date.now() - started} ms`);
      assert.ok(r.findings.some((f) => f.code === 'constraint' || f.code === 'type-drift') || pattern === '(.*a){12}', pattern);
    }
  });

  await t.test('patterns RE2 cannot run (lookahead, backreference) are findings naming the keyword', () => {
    for (const [pattern, why] of [['^(?=a)a+$', 'invalid or unsupported Perl syntax: `(?=`'], ['(a)\\1', 'invalid escape sequence: `\\1`']]) {
      const l = contractOf({ type: 'object', properties: { city: { type: 'string', pattern } } });
      assert.deepEqual(messages(l), [`error /tools/get_weather/arguments/properties/city/pattern get_weather: schema does not compile: error parsing regexp: ${why}`]);
    }
  });

  await t.test('an enum of 100k values compiles and checks quickly; its message shows ten', () => {
    const values = Array.from({ length: 100000 }, (_, i) => `v${i}`);
    const started = Date.now();
    const l = contractOf({ type: 'object', properties: { city: { enum: values } } });
    assert.deepEqual(l.findings, []);
    const r = checkText([weatherCall({ city: 'v99999' }), weatherCall({ city: 'nope' })].join('\n'), { fileName: 'c.jsonl', contracts: l.contracts });
    assert.ok(Date.now() - started < 10000, `took ${Date.now() - started} ms`);
    assert.deepEqual(r.findings.map((f) => f.message), [
      'constraint: city wanted one of "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", … (100000 values), got string "nope"',
    ].map((m) => m.replace(/^constraint: /, '')).map((m) => r.findings[0].message.startsWith('city') ? m : `constraint: ${m}`));
  });

  await t.test('20k calls against a 100k-value enum: one set lookup each, not a scan', () => {
    const l = contractOf({ type: 'object', properties: { city: { enum: Array.from({ length: 100000 }, (_, i) => `v${i}`) }, n: { enum: Array.from({ length: 100 }, (_, i) => ({ k: i })) } } });
    const lines = Array.from({ length: 20000 }, (_, i) => weatherCall({ city: i % 2 ? 'nope' : 'v99999', n: { k: i % 100 } })).join('\n');
    const started = Date.now();
    const r = checkText(lines, { fileName: 'c.jsonl', contracts: l.contracts });
    assert.ok(Date.now() - started < 15000, `took ${Date.now() - started} ms`);
    assert.equal(r.findings.filter((f) => f.code === 'constraint').length, 10000);
    assert.equal(checkText(weatherCall({ city: 'v1', n: { k: 200 } }), { fileName: 'c.jsonl', contracts: l.contracts }).findings[0].message,
      'n wanted one of {"k":0}, {"k":1}, {"k":2}, {"k":3}, {"k":4}, {"k":5}, {"k":6}, {"k":7}, {"k":8}, {"k":9}, … (100 values), got object {"k":200}');
  });

  await t.test('a duplicate in a big enum is found without the quadratic meta-schema check', () => {
    const values = Array.from({ length: 50000 }, (_, i) => ({ k: i % 49999 }));
    const l = contractOf({ enum: values });
    assert.deepEqual(messages(l), ['error /tools/get_weather/arguments/enum get_weather: schema does not compile: schema is invalid: data/enum must NOT have duplicate items (items ## 49999 and 0 are identical)']);
  });

  await t.test('uniqueItems over 20k objects is one linear pass', () => {
    const { contracts } = contractOf({ type: 'object', properties: { xs: { type: 'array', uniqueItems: true } } });
    const xs = Array.from({ length: 20000 }, (_, i) => ({ i }));
    xs.push({ i: 7 });
    const started = Date.now();
    const r = checkText(weatherCall({ xs }), { fileName: 'c.jsonl', contracts });
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.deepEqual(r.findings.map((f) => f.code), ['constraint']);
  });

  await t.test('$ref cycles are refused at the keyword that closes them; recursion through properties is fine', () => {
    assert.deepEqual(messages(contractOf({ $ref: '#' })), [
      'error /tools/get_weather/arguments/$ref get_weather: schema does not compile: $ref at /$ref leads back to itself without reading any deeper into the value (/$ref): validation would never end',
    ]);
    assert.deepEqual(messages(contractOf({ definitions: { a: { $ref: '#/definitions/b' }, b: { allOf: [{ $ref: '#/definitions/a' }] } }, $ref: '#/definitions/a' })), [
      'error /tools/get_weather/arguments/definitions/a/$ref get_weather: schema does not compile: $ref at /definitions/a/$ref leads back to itself without reading any deeper into the value (/definitions/a/$ref -> /definitions/b/allOf/0 -> /definitions/b/allOf/0/$ref): validation would never end',
    ]);
    assert.equal(refCycle({ $schema: 'https://json-schema.org/draft/2020-12/schema', $dynamicRef: '#meta' })?.keyword, '$dynamicRef');
    const tree = contractOf({ type: 'object', properties: { name: { type: 'string' }, next: { $ref: '#' } } });
    assert.deepEqual(tree.findings, []);
    const r = checkText(weatherCall({ name: 'a', next: { name: 'b', next: { name: 3 } } }), { fileName: 'c.jsonl', contracts: tree.contracts });
    assert.deepEqual(r.findings.map((f) => `${f.code} ${f.message}`), ['type-drift next.next.name wanted string, got number 3']);
  });

  await t.test('remote $ref URLs are never fetched: a finding, and no network call is attempted', () => {
    // the modules themselves (an ES namespace import would be read-only)
    const http = require('node:http') as Record<string, unknown>;
    const https = require('node:https') as Record<string, unknown>;
    const net = require('node:net') as Record<string, unknown>;
    const attempts: string[] = [];
    const g = globalThis as { fetch?: unknown };
    const saved = { httpRequest: http.request, httpGet: http.get, httpsRequest: https.request, httpsGet: https.get, connect: net.connect, createConnection: net.createConnection, fetch: g.fetch };
    const trap = (what: string) => () => {
      attempts.push(what);
      throw new Error(`network attempt: ${what}`);
    };
    const mutable = (m: Record<string, unknown>) => m;
    mutable(http).request = trap('http.request');
    mutable(http).get = trap('http.get');
    mutable(https).request = trap('https.request');
    mutable(https).get = trap('https.get');
    mutable(net).connect = trap('net.connect');
    mutable(net).createConnection = trap('net.createConnection');
    g.fetch = trap('fetch');
    try {
      for (const ref of ['http://127.0.0.1:9/schema.json', 'https://example.invalid/s.json#/definitions/x', 'file:///etc/passwd']) {
        const l = contractOf({ type: 'object', properties: { city: { $ref: ref } } });
        assert.deepEqual(messages(l), [`error /tools/get_weather/arguments get_weather: schema does not compile: can't resolve reference ${ref} from id #`]);
      }
      const withId = contractOf({ $id: 'http://example.invalid/root.json', $ref: 'other.json' });
      assert.equal(withId.findings.length, 1);
    } finally {
      Object.assign(mutable(http), { request: saved.httpRequest, get: saved.httpGet });
      Object.assign(mutable(https), { request: saved.httpsRequest, get: saved.httpsGet });
      Object.assign(mutable(net), { connect: saved.connect, createConnection: saved.createConnection });
      g.fetch = saved.fetch;
    }
    assert.deepEqual(attempts, []);
  });

  await t.test('ajv is never given a loader: no loadSchema, so compileAsync could not fetch either', async () => {
    const { validate } = compileSchema({ type: 'string' }, 'strict');
    assert.ok(validate);
    // every ajv instance the core makes is reachable from a compiled function's closure only; check the options
    const Ajv = (await import('ajv')).default;
    void Ajv;
    const compileSource = (await import('node:fs')).readFileSync(require.resolve('../../src/core/contracts/compile'), 'utf8');
    assert.ok(!/loadSchema/.test(compileSource), 'compile.ts must not configure loadSchema');
  });

  await t.test('a config glob of nested ** cannot backtrack: linear match on a deep path (was 10 s for 8 of them)', () => {
    const started = Date.now();
    assert.equal(globToRegExp('**/'.repeat(30) + 'x').test('a/'.repeat(400) + 'y'), false);
    assert.equal(globToRegExp('**/'.repeat(30) + 'x').test('a/'.repeat(400) + 'x'), true);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  await t.test('unknown formats are a warning on the contract, and the tool stays checked', () => {
    const l = contractOf({ type: 'object', properties: { city: { type: 'string', format: 'no-such-format' } } });
    assert.deepEqual(messages(l), ['warning /tools/get_weather/arguments/properties/city/format get_weather: unknown format "no-such-format" (not checked)']);
    const r = checkText(weatherCall({ city: 7 }), { fileName: 'c.jsonl', contracts: l.contracts });
    assert.deepEqual(r.findings.map((f) => f.message), ['city wanted string, got number 7']);
  });

  await t.test('unknown keywords are ignored; a $id that names a meta-schema does not take the meta-schema away', () => {
    assert.deepEqual(contractOf({ type: 'object', 'x-anything': { deep: [1] }, properties: { city: { type: 'string' } } }).findings, []);
    const l = contractOf({ $id: 'http://json-schema.org/draft-07/schema', type: 'object' });
    assert.deepEqual(messages(l), ['error /tools/get_weather/arguments/$id get_weather: schema does not compile: $id "http://json-schema.org/draft-07/schema" is already taken by another schema']);
    // and the next contract still compiles against the draft-07 meta-schema
    assert.deepEqual(contractOf({ type: 'object', properties: { city: { type: 'string' } } }, 'openai').findings, []);
    assert.deepEqual(messages(contractOf({ type: 'nonsense' })), ['error /tools/get_weather/arguments/type get_weather: schema does not compile: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf']);
  });

  await t.test('a property named __proto__ pollutes nothing (ajv never treats __proto__ as a declared property: it is extra)', () => {
    const text = '{"tools": {"get_weather": {"arguments": {"type": "object", "properties": {"__proto__": {"type": "string"}, "city": {"type": "string"}}}}}}';
    const l = loadContracts([{ path: 'p.contract.json', text }]);
    assert.deepEqual(l.findings, []);
    const r = checkText('{"name": "get_weather", "arguments": {"__proto__": 5, "city": "Oslo"}}', { fileName: 'c.jsonl', contracts: l.contracts });
    assert.deepEqual(r.findings.map((f) => `${f.code} ${f.message}`), ['extra-key __proto__ is not declared by get_weather']);
    assert.equal(({} as Record<string, unknown>).type, undefined);
    assert.equal(Object.getPrototypeOf(l.contracts.tools.get('get_weather')!.arguments), Object.prototype);
  });
});
