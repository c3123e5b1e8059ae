// `contract-guard table` (issue 15): the decision table the webview shows, on the command line — and it agrees
// with `check` on every file of the shared corpus.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { TableJson } from '../../src/core/report/table-render';
import { CORPUS, ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface CheckDiagnostic {
  code: string;
  severity: string;
  tool?: string;
  callId?: string;
  turn?: number;
}

function corpusFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) corpusFiles(p, out);
    else if (!/\.md$/i.test(e)) out.push(p);
  }
  return out;
}

describe('contract-guard table', () => {
  before(() => assert.ok(existsSync(CLI), 'dist/cli.js is built by `npm run build`'));

  it('text: one row per call with its gates, the failing signals under it, then the key shapes', () => {
    const r = run(['table', 'fixtures/traces/hours.calls.jsonl', '--contracts', 'fixtures/contracts']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], 'fixtures/traces/hours.calls.jsonl (calls): 6 calls in 1 session, 5 failing');
    assert.match(r.stdout, /^ {2}where +tool +Envelope +Legal keys +Args changed +Bytes moved +Replays +arguments$/m);
    assert.match(r.stdout, /^ {2}3:1 +get_hours +n\/a +FAIL type-drift +pass +n\/a +- +\{"building": "Killam", "weekday": true\}$/m);
    assert.match(r.stdout, /^ {6}Legal keys: weekday wanted integer, got boolean true$/m);
    assert.match(r.stdout, /^ +1 {2}\{building, open, weekday\} {2}breaks: extra-key$/m);
  });

  it('--fixtures replays the frozen fixtures for the Replays gate', () => {
    const r = run(['table', 'fixtures/traces/hours.calls.jsonl', '--contracts', 'fixtures/contracts', '--fixtures', 'fixtures/frozen', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as TableJson;
    assert.ok(doc.fixtures > 10);
    assert.ok(doc.turns.flatMap((t) => t.rows).some((row) => row.gates.replay.status === 'pass'));
  });

  it('--format markdown: gate counts and the failing calls with file:line links', () => {
    const r = run(['table', 'fixtures/traces/hours.calls.jsonl', '--contracts', 'fixtures/contracts', '--format', 'markdown']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^\| Legal keys \| 1 \| 5 \| 0 \| 0 \|$/m);
    assert.match(r.stdout, /^\| \[fixtures\/traces\/hours\.calls\.jsonl:3\]\(fixtures\/traces\/hours\.calls\.jsonl#L3\) \| get\\_hours \| Legal keys `type-drift` \| weekday wanted integer, got boolean true \|$/m);
  });

  it('usage errors exit 2', () => {
    assert.equal(run(['table']).code, 2);
    assert.equal(run(['table', 'no/such.jsonl']).code, 2);
    assert.equal(run(['table', 'fixtures/traces/hours.calls.jsonl', '--format', 'html']).code, 2);
  });

  it('agrees with check on every corpus file: same calls, and each failing gate names a code check reports on that call', { skip: !existsSync(CORPUS) && 'no shared corpus here' }, () => {
    const files = corpusFiles(CORPUS);
    assert.ok(files.length > 20);
    const checked = run(['check', ...files, '--format', 'json', '--fail-on', 'never']);
    assert.equal(checked.code, 0, checked.stderr);
    const report = JSON.parse(checked.stdout) as { files: { path: string; calls: number; diagnostics: CheckDiagnostic[] }[] };
    const byPath = new Map(report.files.map((f) => [path.resolve(ROOT, f.path), f]));
    let rows = 0;
    let failing = 0;
    for (const file of files) {
      const t = run(['table', file, '--format', 'json']);
      assert.equal(t.code, 0, `${file}: ${t.stderr}`);
      const table = JSON.parse(t.stdout) as TableJson;
      const check = byPath.get(file);
      assert.ok(check, `check reported ${file}`);
      const tableRows = table.turns.flatMap((x) => x.rows);
      assert.equal(table.calls, check.calls, `${file}: calls`);
      assert.equal(tableRows.length, check.calls, `${file}: one row per call`);
      rows += tableRows.length;
      for (const row of tableRows) {
        for (const [gate, cell] of Object.entries(row.gates)) {
          if (cell.status !== 'fail') continue;
          failing++;
          const onCall = check.diagnostics.some((d) => d.code === cell.code && d.tool === row.tool && d.turn === row.turn && (row.callId === undefined || d.callId === row.callId));
          assert.ok(onCall, `${file}:${row.line}: the ${gate} gate fails with ${cell.code}, which check does not report on ${row.tool} (turn ${row.turn})`);
        }
      }
    }
    assert.ok(rows > 100 && failing > 0, `${rows} rows, ${failing} failing gates`);
  });
});
