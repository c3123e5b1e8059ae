// Grammar test: the injection grammar tokenized on top of VS Code's own JSON and JSON Lines grammars (from the
// VS Code the harness installs), with VS Code's own TextMate engine. Run: node --test test/grammar/
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');

const repo = path.resolve(__dirname, '..', '..');
const vscodeRoot = path.join(repo, 'test', 'harness', 'node_modules', 'code-server', 'lib', 'vscode');
const modules = path.join(vscodeRoot, 'node_modules');
const jsonSyntaxes = path.join(vscodeRoot, 'extensions', 'json', 'syntaxes');
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
const contribution = pkg.contributes.grammars.find((g) => g.scopeName === 'contract-guard.trace.injection');

const installed = fs.existsSync(path.join(modules, 'vscode-textmate'));
const skip = installed ? false : 'the VS Code harness is not installed (.ci/install-harness.sh)';

let registry;
async function grammarFor(scope) {
  if (!registry) {
    const tm = require(path.join(modules, 'vscode-textmate'));
    const onig = require(path.join(modules, 'vscode-oniguruma'));
    const wasm = fs.readFileSync(path.join(modules, 'vscode-oniguruma', 'release', 'onig.wasm'));
    await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const files = {
      'source.json': path.join(jsonSyntaxes, 'JSON.tmLanguage.json'),
      'source.json.lines': path.join(jsonSyntaxes, 'JSONL.tmLanguage.json'),
      [contribution.scopeName]: path.join(repo, contribution.path),
    };
    registry = new tm.Registry({
      onigLib: Promise.resolve({ createOnigScanner: (p) => new onig.OnigScanner(p), createOnigString: (s) => new onig.OnigString(s) }),
      loadGrammar: async (s) => (files[s] ? tm.parseRawGrammar(fs.readFileSync(files[s], 'utf8'), files[s]) : null),
      // as VS Code does with `injectTo`
      getInjections: (s) => (contribution.injectTo.includes(s) ? [contribution.scopeName] : []),
    });
  }
  return registry.loadGrammar(scope);
}

/** [text, scopes] for every token of the given lines. */
async function tokens(scope, lines) {
  const grammar = await grammarFor(scope);
  const tm = require(path.join(modules, 'vscode-textmate'));
  let state = tm.INITIAL;
  const out = [];
  for (const line of lines) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) out.push([line.slice(t.startIndex, t.endIndex), t.scopes]);
    state = r.ruleStack;
  }
  return out;
}

const scopesOf = (toks, text) => toks.filter(([t]) => t === text).map(([, s]) => s);
const has = (toks, text, scope) => scopesOf(toks, text).some((s) => s.includes(scope));

test('the contribution injects into the built-in JSON and JSON Lines grammars', () => {
  assert.deepStrictEqual([...contribution.injectTo].sort(), ['source.json', 'source.json.lines']);
  assert.ok(fs.existsSync(path.join(repo, contribution.path)));
});

test('JSON Lines: roles, tool names and call ids of an OpenAI chat line', { skip }, async () => {
  const line = '{"role":"assistant","tool_calls":[{"id":"call_7","type":"function","function":{"name":"get_hours","arguments":"{\\"weekday\\": true}"}}]}';
  const toks = await tokens('source.json.lines', [line, '{"role": "tool", "tool_call_id": "call_7", "content": "{\\"name\\": \\"x\\"}"}']);
  assert.ok(has(toks, 'assistant', 'keyword.other.role.contract-guard'), 'role');
  assert.ok(has(toks, 'tool', 'keyword.other.role.contract-guard'), 'tool role');
  assert.ok(has(toks, 'get_hours', 'entity.name.function.tool.contract-guard'), 'tool name');
  const ids = scopesOf(toks, 'call_7');
  assert.strictEqual(ids.length, 2);
  for (const s of ids) assert.ok(s.includes('variable.other.constant.call-id.contract-guard'), s.join(' '));
  // the JSON grammar keeps its structure: no illegal tokens, and keys stay keys
  assert.ok(!toks.some(([, s]) => s.some((x) => x.startsWith('invalid'))), 'no invalid tokens');
  assert.ok(has(toks, 'tool_calls', 'support.type.property-name.json.lines'));
  // nothing inside strings: the escaped JSON in `arguments`/`content` is not coloured
  assert.ok(!has(toks, 'x', 'entity.name.function.tool.contract-guard'));
});

test('JSON: Anthropic tool_use block and a pretty-printed role', { skip }, async () => {
  const toks = await tokens('source.json', [
    '{',
    '  "role": "assistant",',
    '  "content": [{"type": "tool_use", "id": "toolu_01", "name": "book_room", "input": {"minutes": 180}}]',
    '}',
  ]);
  assert.ok(has(toks, 'assistant', 'keyword.other.role.contract-guard'));
  assert.ok(has(toks, 'book_room', 'entity.name.function.tool.contract-guard'));
  assert.ok(has(toks, 'toolu_01', 'variable.other.constant.call-id.contract-guard'));
  assert.ok(!toks.some(([, s]) => s.some((x) => x.startsWith('invalid'))));
});

test('plain JSON keeps its plain colours: package.json-like content is not a trace', { skip }, async () => {
  const toks = await tokens('source.json', ['{', '  "name": "contract-guard",', '  "id": "12",', '  "role": "admin"', '}']);
  assert.ok(!toks.some(([, s]) => s.some((x) => x.endsWith('.contract-guard'))), JSON.stringify(toks));
  assert.ok(has(toks, 'contract-guard', 'string.quoted.double.json'));
});
