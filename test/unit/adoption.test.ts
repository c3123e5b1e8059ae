// Adopting Contract Guard in an existing CI, through the built CLI: a baseline of accepted findings (matched by a
// fingerprint that survives lines moving, also SARIF partialFingerprints), contract-guard.config.json under the
// flags, --only/--ignore/--output/stdin, gzipped traces, truncated values in messages, and infer never
// overwriting a contract.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { checkText } from '../../src/core';
import { redactMessage } from '../../src/core/redact';
import { globToRegExp, isIgnored, mergeConfig, parseConfig } from '../../src/core/config';
import { fixtureContracts, ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

function run(args: string[], cwd: string, input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Diag { code: string; line: number; column: number; fingerprint?: string; baselined?: boolean; message: string; tool?: string }
const diagnostics = (stdout: string): Diag[] => JSON.parse(stdout).files.flatMap((f: { diagnostics: Diag[] }) => f.diagnostics);

/** A workspace: the hours contract and trace of the fixtures, copied to a temporary folder. */
function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cg-adopt-'));
  copyFileSync(path.join(ROOT, 'fixtures', 'contracts', 'hours.contract.json'), path.join(dir, 'hours.contract.json'));
  copyFileSync(path.join(ROOT, 'fixtures', 'traces', 'hours.calls.jsonl'), path.join(dir, 'run.jsonl'));
  return dir;
}

const call = (args: unknown) => JSON.stringify({ name: 'get_hours', arguments: args });

describe('baseline: CI accepts known findings and fails on new ones', () => {
  before(() => assert.ok(existsSync(CLI), 'dist/cli.js is built by `npm run build`'));

  it('write a baseline, add a drift call, move lines: only the new call fails', () => {
    const dir = workspace();
    const base = ['check', 'run.jsonl', '--contracts', 'hours.contract.json', '--baseline', 'baseline.json'];
    const before = run(['check', 'run.jsonl', '--contracts', 'hours.contract.json', '--format', 'json'], dir);
    assert.equal(before.code, 1);
    const known = diagnostics(before.stdout);
    assert.ok(known.length >= 5);

    const w = run([...base, '--update-baseline'], dir);
    assert.equal(w.code, 0, w.stderr);
    assert.match(w.stderr, new RegExp(`wrote ${known.length} findings to the baseline`));
    const file = JSON.parse(readFileSync(path.join(dir, 'baseline.json'), 'utf8'));
    assert.equal(file.version, 1);
    assert.ok(file.findings.every((f: { path: string; fingerprint: string }) => f.path === 'run.jsonl' && /^[0-9a-f]{16}$/.test(f.fingerprint)));

    const clean = run([...base, '--format', 'json'], dir);
    assert.equal(clean.code, 0, 'every finding is in the baseline');
    assert.ok(diagnostics(clean.stdout).every((d) => d.baselined));
    assert.equal(JSON.parse(clean.stdout).summary.baselined, known.length);
    assert.equal(JSON.parse(clean.stdout).summary.error, 0);

    // A new drift call at the end, and the old lines moved down by two new good calls at the top.
    const lines = readFileSync(path.join(dir, 'run.jsonl'), 'utf8').trimEnd().split('\n');
    const moved = [call({ building: 'Dunn', weekday: 1 }), call({ building: 'Dunn', weekday: 2 }), ...lines, call({ building: 'Killam', weekday: 'Friday' })];
    writeFileSync(path.join(dir, 'run.jsonl'), moved.join('\n') + '\n');
    const after = run([...base, '--format', 'json'], dir);
    assert.equal(after.code, 1);
    const fresh = diagnostics(after.stdout).filter((d) => !d.baselined);
    assert.deepEqual(fresh.map((d) => `${d.code} ${d.line} ${d.message}`), [`type-drift ${moved.length} weekday wanted integer, got string "Friday"`]);
    assert.equal(diagnostics(after.stdout).filter((d) => d.baselined).length, known.length, 'the moved findings still match');

    // The text report shows only the new finding, and says how many the baseline accepted.
    const text = run(base, dir);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /run\.jsonl:\d+:\d+ +error +type-drift +weekday wanted integer, got string "Friday"/);
    assert.doesNotMatch(text.stdout, /got boolean true/);
    assert.match(text.stdout, new RegExp(`\\(${known.length} more accepted by the baseline\\)`));

    // A second copy of an accepted drift call is new: the baseline counts.
    writeFileSync(path.join(dir, 'run.jsonl'), [...moved, lines[2]].join('\n') + '\n');
    const twice = diagnostics(run([...base, '--format', 'json'], dir).stdout).filter((d) => !d.baselined).map((d) => `${d.code} ${d.line}`);
    const last = moved.length + 1;
    assert.deepEqual(twice, [`type-drift ${moved.length}`, `duplicate-fingerprint ${last}`, `type-drift ${last}`]);
  });

  it('the baseline file is never read as a trace when a folder is checked', () => {
    const dir = workspace();
    assert.equal(run(['check', '.', '--contracts', 'hours.contract.json', '--baseline', 'baseline.json', '--update-baseline'], dir).code, 0);
    const r = run(['check', '.', '--contracts', 'hours.contract.json', '--baseline', 'baseline.json', '--format', 'json'], dir);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path), ['run.jsonl']);
  });

  it('SARIF carries partialFingerprints and, with a baseline, baselineState', () => {
    const dir = workspace();
    run(['check', 'run.jsonl', '--contracts', 'hours.contract.json', '--baseline', 'b.json', '--update-baseline'], dir);
    writeFileSync(path.join(dir, 'run.jsonl'), readFileSync(path.join(dir, 'run.jsonl'), 'utf8') + call({ building: 'X', weekday: true, lang: 'en' }) + '\n');
    const r = run(['check', 'run.jsonl', '--contracts', 'hours.contract.json', '--baseline', 'b.json', '--format', 'sarif'], dir);
    assert.equal(r.code, 1);
    const results = JSON.parse(r.stdout).runs[0].results as { ruleId: string; partialFingerprints: Record<string, string>; baselineState: string }[];
    assert.ok(results.every((x) => /^[0-9a-f]{16}$/.test(x.partialFingerprints['contractGuard/v1'])));
    assert.deepEqual(results.filter((x) => x.baselineState === 'new').map((x) => x.ruleId).sort(), ['extra-key', 'type-drift']);
    assert.ok(results.filter((x) => x.baselineState === 'unchanged').length >= 5);
  });

  it('a broken baseline is a usage error with its reason', () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'b.json'), '{"findings": 3}');
    const r = run(['check', 'run.jsonl', '--contracts', 'hours.contract.json', '--baseline', 'b.json'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /b\.json: expected \{"version": 1, "findings": \[\.\.\.\]\}/);
  });
});

describe('contract-guard.config.json and the flags over it', () => {
  it('globs, severity, ignores and packs from the config; flags win', () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'contract-guard.config.json'), JSON.stringify({
      contracts: ['*.contract.json'],
      traces: ['*.jsonl'],
      severity: { 'duplicate-fingerprint': 'off' },
      ignore: [{ code: 'unknown-tool', tool: 'get_open_now', path: 'run.jsonl' }],
    }));
    const r = run(['check', '--format', 'json'], dir);
    assert.equal(r.code, 1, r.stderr);
    const codes = diagnostics(r.stdout).map((d) => d.code);
    assert.ok(!codes.includes('duplicate-fingerprint') && !codes.includes('unknown-tool'), codes.join());
    assert.ok(codes.includes('type-drift'));
    // --only keeps one code; --ignore drops one; --fail-on never passes.
    assert.deepEqual([...new Set(diagnostics(run(['check', '--format', 'json', '--only', 'extra-key'], dir).stdout).map((d) => d.code))], ['extra-key']);
    assert.ok(!diagnostics(run(['check', '--format', 'json', '--ignore', 'type-drift,extra-key'], dir).stdout).some((d) => d.code === 'type-drift' || d.code === 'extra-key'));
    assert.equal(run(['check', '--fail-on', 'never'], dir).code, 0);
    assert.equal(run(['check', '--only', 'no-such-code'], dir).code, 2);
  });

  it('fixturesFolder: freeze writes there and replay reads there by default', () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'contract-guard.config.json'), JSON.stringify({ fixturesFolder: 'frozen-here' }));
    const f = run(['freeze', 'run.jsonl:1', '--contracts', 'hours.contract.json'], dir);
    assert.equal(f.code, 0, f.stderr);
    assert.ok(readdirSync(path.join(dir, 'frozen-here', 'get_hours')).some((n) => n.endsWith('.fixture.json')));
    const r = run(['replay', '--contracts', 'hours.contract.json'], dir);
    assert.equal(r.code, 0, r.stderr + r.stdout);
  });

  it('a config that breaks its schema is a usage error naming the setting', () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'contract-guard.config.json'), '{"profil": "strict"}');
    const r = run(['check'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /contract-guard\.config\.json: \/profil is not a setting/);
  });

  it('--config names the file; --output writes the report there; - reads the trace from stdin', () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'cg.json'), JSON.stringify({ contracts: ['hours.contract.json'], failOn: 'warning' }));
    const out = path.join(dir, 'report.json');
    const r = run(['check', '-', '--config', 'cg.json', '--format', 'json', '--output', out], dir, call({ building: 'Killam', weekday: '2' }) + '\n');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(doc.files[0].path, '-');
    assert.deepEqual(doc.files[0].diagnostics.map((d: Diag) => `${d.code} ${d.line}:${d.column}`), ['type-drift 1:64']);
  });

  it('reads .jsonl.gz traces directly, with positions in the decompressed text', () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'run.jsonl.gz'), gzipSync(readFileSync(path.join(dir, 'run.jsonl'))));
    const plain = diagnostics(run(['check', 'run.jsonl', '--contracts', 'hours.contract.json', '--format', 'json'], dir).stdout);
    const gz = JSON.parse(run(['check', 'run.jsonl.gz', '--contracts', 'hours.contract.json', '--format', 'json'], dir).stdout);
    assert.equal(gz.files[0].format, 'calls');
    assert.deepEqual(gz.files[0].diagnostics.map((d: Diag) => `${d.code} ${d.line}:${d.column}`), plain.map((d) => `${d.code} ${d.line}:${d.column}`));
  });

  it('a broken .gz is a parse-error on the file, not a crash', () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'bad.jsonl.gz'), 'not gzip at all');
    const r = run(['check', 'bad.jsonl.gz', '--format', 'json'], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(diagnostics(r.stdout).map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`), ['parse-error 1:1 not a readable gzip file (incorrect header check)']);
  });

  it('config layers: later wins, severity merges per code, ignores add up; globs', () => {
    const merged = mergeConfig({ profile: 'strict', severity: { a: 'off', b: 'info' }, ignore: [{ code: 'x' }] }, { profile: 'json-schema', severity: { b: 'error' }, ignore: [{ tool: 't' }] }, undefined);
    assert.deepEqual(merged, { profile: 'json-schema', severity: { a: 'off', b: 'error' }, ignore: [{ code: 'x' }, { tool: 't' }] });
    assert.ok(globToRegExp('traces/**/*.jsonl').test('traces/a/b/c.jsonl') && globToRegExp('traces/**/*.jsonl').test('traces/c.jsonl'));
    assert.ok(globToRegExp('*.{json,jsonl}').test('deep/x.jsonl') && !globToRegExp('traces/*.json').test('traces/a/x.json'));
    assert.ok(isIgnored([{ code: 'no-contract', path: 'legacy/**' }], { code: 'no-contract', tool: 'x' }, 'legacy/a/run.jsonl'));
    assert.ok(!isIgnored([{ code: 'no-contract', path: 'legacy/**' }], { code: 'no-contract', tool: 'x' }, 'new/run.jsonl'));
    assert.match(parseConfig('{"packs": ["claude-code", "nope"]}') as string, /^\/packs /);
    assert.deepEqual(parseConfig('// comments are allowed\n{"packs": ["claude-code"], "maxValueLength": 20,}'), { packs: ['claude-code'], maxValueLength: 20 });
  });
});

describe('redaction: quoted values are cut', () => {
  const secret = 'sk-' + 'x'.repeat(200);

  it('messages quote at most maxValueLength characters of a value', () => {
    const text = JSON.stringify({ name: 'get_hours', arguments: { building: secret, weekday: secret } }) + '\n';
    const contracts = fixtureContracts();
    const r = checkText(text, { fileName: 'x.jsonl', contracts, maxValueLength: 12 });
    const drift = r.findings.find((f) => f.code === 'type-drift')!;
    // The value describer already cut the value at 40 characters; the setting cuts it further.
    assert.equal(drift.message, 'weekday wanted integer, got string "sk-xxxxxxxxx…');
    assert.ok(r.findings.every((f) => !f.message.includes(secret)));
    const whole = checkText(text, { fileName: 'x.jsonl', contracts, maxValueLength: 0 }).findings.find((f) => f.code === 'type-drift')!;
    assert.equal(whole.message, `weekday wanted integer, got string "sk-${'x'.repeat(33)}...`, '0: only the describer\'s own 40-character cut');
  });

  it('never cuts inside an escape or a surrogate pair', () => {
    assert.equal(redactMessage('got "ab\\ncd"', 3), 'got "ab…" (6 chars)');
    assert.equal(redactMessage('got "a😀b"', 2), 'got "a…" (4 chars)');
    assert.equal(redactMessage('short "ok"', 5), 'short "ok"');
    assert.equal(redactMessage('got "' + 'y'.repeat(30) + '" and "' + 'z'.repeat(5) + '"', 10), 'got "yyyyyyyyyy…" (30 chars) and "zzzzz"');
  });

  it('--max-value-length reaches CLI reports', () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'run.jsonl'), call({ building: 'Killam', weekday: secret }) + '\n');
    const r = run(['check', 'run.jsonl', '--contracts', 'hours.contract.json', '--format', 'sarif', '--max-value-length', '8'], dir);
    assert.equal(r.code, 1);
    assert.ok(!r.stdout.includes('x'.repeat(9)));
    assert.match(r.stdout, /got string \\"sk-xxxxx…/);
  });
});

describe('infer from the CLI', () => {
  it('writes a contract that check accepts, and never overwrites one', () => {
    const dir = workspace();
    const w = run(['infer', 'run.jsonl', '--output', 'inferred.contract.json'], dir);
    assert.equal(w.code, 0, w.stderr);
    const contract = JSON.parse(readFileSync(path.join(dir, 'inferred.contract.json'), 'utf8'));
    assert.deepEqual(Object.keys(contract.tools), ['get_hours', 'get_open_now']);
    const again = run(['infer', 'run.jsonl', '--output', 'inferred.contract.json'], dir);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already exists; infer never overwrites a contract/);
    assert.equal(run(['check', 'run.jsonl', '--contracts', 'inferred.contract.json'], dir).code !== 2, true);
  });
});
