// The CLI as CI runs it: the built dist/cli.js in a child process, its outputs and exit codes.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CODES } from '../../src/core';
import { ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

function run(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('contract-guard check', () => {
  before(() => assert.ok(existsSync(CLI), 'dist/cli.js is built by `npm run build`'));

  it('--format json is one document in the shape DESIGN.md fixes', () => {
    const r = run(['check', 'fixtures/traces/hours.calls.jsonl', '--contracts', 'fixtures/contracts', '--format', 'json']);
    assert.equal(r.code, 1);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.version, 1);
    assert.equal(doc.files.length, 1);
    const file = doc.files[0];
    assert.equal(file.path, 'fixtures/traces/hours.calls.jsonl');
    assert.equal(file.format, 'calls');
    assert.equal(file.calls, 6);
    const drift = file.diagnostics.find((d: { code: string; line: number }) => d.code === 'type-drift' && d.line === 3);
    // `fingerprint`: the finding's line-independent identity (baselines, SARIF partialFingerprints).
    const { fingerprint, ...rest } = drift;
    assert.match(fingerprint, /^[0-9a-f]{16}$/);
    assert.deepEqual(rest, { code: 'type-drift', severity: 'error', message: 'weekday wanted integer, got boolean true', line: 3, column: 70, endLine: 3, endColumn: 74, tool: 'get_hours', turn: 3 });
    assert.equal(doc.summary.files, 1);
    assert.equal(doc.summary.calls, 6);
    assert.equal(doc.summary.error, file.diagnostics.filter((d: { severity: string }) => d.severity === 'error').length);
  });

  it('--format sarif is SARIF 2.1.0 with a rule (and help) for every code', () => {
    const r = run(['check', 'fixtures/traces', '--contracts', 'fixtures/contracts', '--format', 'sarif']);
    assert.equal(r.code, 1);
    const log = JSON.parse(r.stdout);
    assert.equal(log.version, '2.1.0');
    const run0 = log.runs[0];
    assert.equal(run0.tool.driver.name, 'Contract Guard');
    assert.deepEqual(run0.tool.driver.rules.map((x: { id: string }) => x.id).sort(), Object.keys(CODES).sort());
    assert.ok(run0.tool.driver.rules.every((x: { help: { text: string } }) => x.help.text.length > 20));
    const res = run0.results.find((x: { ruleId: string; message: { text: string } }) => x.ruleId === 'type-drift' && x.message.text.includes('boolean true'));
    assert.equal(res.level, 'error');
    assert.equal(res.locations[0].physicalLocation.artifactLocation.uri, 'fixtures/traces/hours.anthropic.json');
    assert.deepEqual(res.locations[0].physicalLocation.region, { startLine: 102, startColumn: 24, endLine: 102, endColumn: 28 });
  });

  it('text output: file:line:col  severity  code  message, and a summary line', () => {
    const r = run(['check', 'fixtures/traces/hours.calls.jsonl', '--contracts', 'fixtures/contracts']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^ {2}fixtures\/traces\/hours\.calls\.jsonl:3:70 +error +type-drift +weekday wanted integer, got boolean true$/m);
    assert.match(r.stdout.trimEnd().split('\n').pop()!, /^6 calls in 1 trace: \d+ errors, \d+ warnings?, \d+ info$/);
    // eslint-disable-next-line no-control-regex -- the escape character is what the test looks for
    assert.doesNotMatch(r.stdout, /\u001b\[/, 'no colour when stdout is not a TTY');
  });

  it('exit codes: 0 clean, 1 findings, 2 usage / I/O / contract errors with one line on stderr', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-cli-'));
    writeFileSync(path.join(dir, 'ok.jsonl'), '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2}}\n');
    writeFileSync(path.join(dir, 'bad.contract.json'), '{"tools": {"f": {"arguments": {"type": "object", "properties": {"s": {"pattern": "(?=x)"}}}}}}');
    assert.equal(run(['check', path.join(dir, 'ok.jsonl'), '--contracts', 'fixtures/contracts']).code, 0);
    assert.equal(run(['check', 'fixtures/traces/hours.calls.jsonl', '--contracts', 'fixtures/contracts', '--fail-on', 'never']).code, 0);
    const missing = run(['check', path.join(dir, 'nope.jsonl')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^contract-guard: .*nope\.jsonl: no such file or folder\n$/);
    const broken = run(['check', path.join(dir, 'ok.jsonl'), '--contracts', path.join(dir, 'bad.contract.json')]);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /^contract-guard: .*bad\.contract\.json:1:\d+: contract error at \/tools\/f\/arguments\/properties\/s\/pattern: .+\n$/);
    const usage = run(['check', '--format', 'xml']);
    assert.equal(usage.code, 2);
    assert.equal(usage.stderr, 'contract-guard: --format must be one of text, json, jsonl, sarif, markdown, not xml\n');
    assert.equal(run(['frobnicate']).code, 2);
    assert.equal(run(['check', '--bogus']).code, 2);
  });

  it('non-trace JSON met while walking a folder is quiet, and counted as not read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-cli-'));
    writeFileSync(path.join(dir, 'data.json'), '{"hello": "world"}');
    const r = run(['check', dir, '--format', 'json']);
    assert.equal(r.code, 0);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc.files[0].diagnostics, []);
    assert.equal(doc.summary.notRead, 1);
    assert.match(run(['check', dir]).stdout, /0 calls in 0 traces: 0 errors, 0 warnings, 0 info; 1 file not read as a trace/);
  });

  it('a file named on the command line that no reader understands is a warning; the exit code follows --fail-on', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-cli-'));
    const file = path.join(dir, 'notes.log');
    writeFileSync(file, '{"hello": "world"}\n{"again": 1}\n');
    const r = run(['check', file, '--format', 'json']);
    assert.equal(r.code, 0, 'a warning does not fail the default --fail-on error');
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc.files[0].diagnostics.map((d: { code: string; severity: string }) => `${d.code}:${d.severity}`), ['unknown-format:warning']);
    assert.equal(doc.summary.notRead, 1);
    assert.equal(run(['check', file, '--fail-on', 'warning']).code, 1);
    assert.equal(run(['check', file, '--fail-on', 'warning', '--ignore', 'unknown-format']).code, 0);
  });

  it('reads JSON lines whatever the file is called (.txt, extensionless), and a recorded SSE body', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-cli-'));
    const line = '{"name": "get_hours", "arguments": {"building": "Main", "weekday": true}}';
    for (const name of ['calls.txt', 'calls']) {
      writeFileSync(path.join(dir, name), `${line}\n${line}\n`);
      const doc = JSON.parse(run(['check', path.join(dir, name), '--contracts', 'fixtures/contracts', '--format', 'json']).stdout);
      assert.equal(doc.files[0].format, 'calls', name);
      assert.deepEqual(doc.files[0].diagnostics.filter((d: { code: string }) => d.code === 'type-drift').map((d: { line: number }) => d.line), [1, 2], name);
    }
    // an OpenAI chat stream saved as SSE: data lines hold the chunks, [DONE] and event lines are framing
    const chunk = (delta: object, finish: string | null = null) => JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    const sse = [
      'data: ' + chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_hours', arguments: '' } }] }),
      '',
      'data: ' + chunk({ tool_calls: [{ index: 0, function: { arguments: '{"building": "Main", "weekday": true}' } }] }),
      '',
      'data: ' + chunk({}, 'tool_calls'),
      '',
      'data: [DONE]',
      '',
    ].join('\r\n');
    writeFileSync(path.join(dir, 'stream.sse.txt'), sse);
    const doc = JSON.parse(run(['check', path.join(dir, 'stream.sse.txt'), '--contracts', 'fixtures/contracts', '--format', 'json']).stdout);
    assert.equal(doc.files[0].format, 'stream');
    assert.equal(doc.files[0].calls, 1);
    const drift = doc.files[0].diagnostics.find((d: { code: string }) => d.code === 'type-drift');
    assert.equal(drift?.line, 3, 'the finding is on the data line whose fragment completed the arguments');
  });

  it('--read-as forces a reader, and an unknown reader is a usage error', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-cli-'));
    const file = path.join(dir, 'run.json');
    writeFileSync(file, JSON.stringify([{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_hours', arguments: '{}' } }] }]));
    assert.equal(JSON.parse(run(['check', file, '--format', 'json']).stdout).files[0].format, 'openai-chat');
    const forced = JSON.parse(run(['check', file, '--format', 'json', '--read-as', 'anthropic']).stdout).files[0];
    assert.equal(forced.format, undefined, 'the anthropic reader does not read OpenAI chat messages');
    assert.match(forced.diagnostics[0].message, /the anthropic reader found no trace/);
    const bad = run(['check', file, '--read-as', 'nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--read-as must be one of .*claude-code/);
  });

  it('streams JSONL with CRLF and multi-byte text, keeping columns in UTF-16 units', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-cli-'));
    const line = '{"name": "get_hours", "arguments": {"building": "Kílläm 📚", "weekday": true}}';
    writeFileSync(path.join(dir, 't.jsonl'), [line, line].join('\r\n'));
    const doc = JSON.parse(run(['check', path.join(dir, 't.jsonl'), '--contracts', 'fixtures/contracts', '--format', 'json']).stdout);
    const drift = doc.files[0].diagnostics.filter((d: { code: string }) => d.code === 'type-drift');
    const col = line.indexOf('true') + 1;
    assert.deepEqual(drift.map((d: { line: number; column: number }) => `${d.line}:${d.column}`), [`1:${col}`, `2:${col}`]);
  });
});
