// Contract files in every accepted form, and every way one can be broken.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts } from '../../src/core';

const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const call = '{"name": "get_weather", "arguments": {"town": "Oslo"}}';

function codesWith(files: { path: string; text: string }[]): string[] {
  const { contracts, findings } = loadContracts(files);
  assert.deepEqual(findings, []);
  return checkText(call, { contracts }).findings.map((f) => f.code).sort();
}

describe('contract forms', () => {
  const expected = ['extra-key', 'missing-key'];
  it('OpenAI tools array', () => {
    assert.deepEqual(codesWith([{ path: 'a.json', text: JSON.stringify([{ type: 'function', function: { name: 'get_weather', parameters: weatherSchema } }]) }]), expected);
  });
  it('Anthropic tools with input_schema', () => {
    assert.deepEqual(codesWith([{ path: 'a.json', text: JSON.stringify({ tools: [{ name: 'get_weather', input_schema: weatherSchema }] }) }]), expected);
  });
  it('MCP tools/list result (bare and as a JSON-RPC response)', () => {
    assert.deepEqual(codesWith([{ path: 'a.json', text: JSON.stringify({ tools: [{ name: 'get_weather', inputSchema: weatherSchema }] }) }]), expected);
    assert.deepEqual(codesWith([{ path: 'a.json', text: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'get_weather', inputSchema: weatherSchema }] } }) }]), expected);
  });
  it("Contract Guard's own format, with comments (JSONC)", () => {
    assert.deepEqual(codesWith([{ path: 'a.contract.json', text: '// weather\n{"version": 1, "tools": {"get_weather": {"arguments": ' + JSON.stringify(weatherSchema) + '}}}' }]), expected);
  });
  it('draft 2020-12 schemas compile with prefixItems', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { p: { type: 'array', prefixItems: [{ type: 'integer' }] } } };
    const { contracts, findings } = loadContracts([{ path: 'a.json', text: JSON.stringify([{ name: 'f', parameters: schema }]) }]);
    assert.deepEqual(findings, []);
    const r = checkText('{"name": "f", "arguments": {"p": ["x"]}}', { contracts });
    assert.deepEqual(r.findings.map((f) => f.message), ['p[0] wanted integer, got string "x"']);
  });
});

describe('broken contract files are findings on the file, never a throw', () => {
  function problem(text: string) {
    const { findings } = loadContracts([{ path: 'bad.json', text }]);
    assert.equal(findings.length, 1, JSON.stringify(findings));
    const f = findings[0];
    assert.equal(f.finding.code, 'contract-invalid');
    return { pointer: f.pointer, message: f.finding.message, token: text.slice(f.finding.span.start, f.finding.span.end) };
  }
  it('not JSON', () => {
    const p = problem('{"tools": [');
    assert.match(p.message, /^not valid JSON: /);
  });
  it('not a contract form', () => {
    assert.match(problem('{"name": "x"}').message, /^not a contract file: /);
  });
  it('a type that JSON Schema does not have (BFCL writes "dict")', () => {
    const p = problem(JSON.stringify([{ name: 'f', parameters: { type: 'dict', properties: {} } }], null, 1));
    assert.equal(p.pointer, '/0/parameters/type');
    assert.match(p.message, /^f: schema does not compile: /);
  });
  it('a pattern the linear-time engine cannot run (lookahead) names the keyword', () => {
    const p = problem(JSON.stringify([{ name: 'f', parameters: { type: 'object', properties: { s: { type: 'string', pattern: '^(?=a)a+$' } } } }]));
    assert.equal(p.pointer, '/0/parameters/properties/s/pattern');
    assert.equal(p.token, '"pattern"');
  });
  it('a remote $ref is not fetched: it is reported', () => {
    const p = problem(JSON.stringify([{ name: 'f', parameters: { $ref: 'https://example.com/schema.json' } }]));
    assert.match(p.message, /can't resolve reference|resolve/i);
  });
  it('an unknown field in our own format, pointing at the key', () => {
    const p = problem('{"tools": {"f": {"arguments": {}, "volatil": true}}}');
    assert.equal(p.pointer, '/tools/f/volatil');
    assert.equal(p.token, '"volatil"');
  });
  it('a broken tool stays known (no unknown-tool storm) but unchecked', () => {
    const { contracts } = loadContracts([{ path: 'bad.json', text: JSON.stringify([{ name: 'f', parameters: { type: 'dict' } }]) }]);
    assert.deepEqual(checkText('{"name": "f", "arguments": {"x": 1}}', { contracts }).findings, []);
  });
  // A backtracking engine would never finish this one: the test's timeout is the hang detector.
  it('a catastrophic pattern cannot hang validation (linear-time engine)', { timeout: 20000 }, () => {
    const { contracts, findings } = loadContracts([{ path: 'a.json', text: JSON.stringify([{ name: 'f', parameters: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } }]) }]);
    assert.deepEqual(findings, []);
    const r = checkText(JSON.stringify({ name: 'f', arguments: { s: 'a'.repeat(5000) + '!' } }), { contracts });
    assert.deepEqual(r.findings.map((f) => f.code), ['constraint']);
  });
});
