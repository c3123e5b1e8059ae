// Findings that leave as they are made (issue 13.2): the engine's FindingSink, the CLI's spool of diagnostics
// (src/cli/spool.ts: sorted runs in a temporary file, merged back in the report's order) and the compact id
// table of long sessions' state (src/core/id-table.ts). The report must be byte for byte the one of findings held
// whole and sorted, whatever the spool's bound.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TraceChecker, type Finding, type ReportDiagnostic } from '../../src/core';
import { IdTable } from '../../src/core/id-table';
import { DiagnosticSpool, SpooledDiagnostics } from '../../src/cli/spool';
import { benchTraces, fixtureContracts, ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

function diag(n: number): ReportDiagnostic {
  return { code: 'c', severity: n % 3 === 0 ? 'error' : 'warning', message: `m${n} ×`, line: n, column: 1, endLine: n, endColumn: 2 };
}

describe('DiagnosticSpool', () => {
  it('gives back what it was given in span order, ties in the order they were made, whatever its bound', () => {
    // 500 items on 40 spans (many ties), some of them held by two segmented runs placed at the end
    const made = Array.from({ length: 500 }, (_, i) => ({ i, start: (i * 7) % 40, end: (i * 7) % 40 + (i % 2), d: diag(i) }));
    // the engine's order: held items take places when their run ends; direct ones as they come
    const held = (i: number) => (i % 5 === 0 ? 0 : i % 5 === 1 ? 1 : -1);
    for (const limit of [3, 64, 100000]) {
      const spool = new DiagnosticSpool(limit);
      let order = 0;
      const ranks = new Map<number, number>();
      const runCount = [0, 0];
      const runItems: number[][] = [[], []];
      for (const m of made) {
        const h = held(m.i);
        if (h < 0) {
          ranks.set(m.i, order);
          spool.add(m.d, m.start, m.end, order++);
        } else {
          runItems[h].push(m.i);
          spool.add(m.d, m.start, m.end, runCount[h]++, h);
        }
      }
      for (const h of [1, 0]) {
        spool.place(h, order);
        runItems[h].forEach((i, k) => ranks.set(i, order + k));
        order += runCount[h];
      }
      const expected = [...made].sort((a, b) => a.start - b.start || a.end - b.end || ranks.get(a.i)! - ranks.get(b.i)!).map((m) => m.d.message);
      const data = spool.done();
      assert.equal(data.file !== undefined, limit < made.length, `a run is written only past the bound (${limit})`);
      const out = new SpooledDiagnostics(data);
      assert.deepEqual([...out].map((d) => d.message), expected, `bound ${limit}`);
      assert.deepEqual([...out].map((d) => d.message), expected, 'read twice, the same');
      assert.equal(out.length, 500);
      assert.equal(out.counts.error + out.counts.warning, 500);
      out.dispose();
      if (data.file) assert.ok(!existsSync(data.file), 'its file is removed');
    }
  });

  it('keeps text whole across reads (a UTF-8 sequence cut between two reads of its file)', () => {
    const spool = new DiagnosticSpool(10);
    const long = 'é'.repeat(40000); // runs of many reads' worth of two-byte characters
    for (let i = 0; i < 30; i++) spool.addInOrder({ ...diag(i), message: long + i });
    const out = new SpooledDiagnostics(spool.done());
    assert.deepEqual([...out].map((d) => d.message), Array.from({ length: 30 }, (_, i) => long + i));
    out.dispose();
  });
});

describe('FindingSink', () => {
  it('a checker with a sink hands out the findings the result holds, in an order that sorts to the same', () => {
    // a long Claude Code session checked in segments of 2 calls: findings of a run wait for their place
    const lines: string[] = [];
    for (let k = 0; k < 40; k++) {
      const id = `toolu_${k % 30}`; // ids used again: findings across segments
      lines.push(JSON.stringify({ type: 'assistant', sessionId: 's', uuid: `a${k}`, message: { id: `m${k}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'get_weather', input: k % 3 ? { city: 'Lisbon' } : { town: 1 } }] } }));
      if (k % 4) lines.push(JSON.stringify({ type: 'user', sessionId: 's', uuid: `u${k}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } }));
      if (k % 7 === 0) lines.push('not json');
    }
    const options = { fileName: 't.jsonl', contracts: fixtureContracts(), segmentCalls: 2 };
    const feed = (checker: TraceChecker) => {
      let base = 0;
      for (const l of lines) {
        checker.addLine(l, base);
        base += l.length + 1;
      }
      return checker.finish();
    };
    const whole = feed(new TraceChecker(options));
    assert.ok(whole.findings.length > 10, `findings to order (${whole.findings.length})`);
    const spool = new DiagnosticSpool(4);
    const given: Finding[] = [];
    const sunk = feed(new TraceChecker({ ...options, findings: {
      add(f, order, held) {
        given.push(f);
        spool.add({ ...diag(0), message: f.message, line: f.span.start, endLine: f.span.end }, f.span.start, f.span.end, order, held);
      },
      place: (held, order) => spool.place(held, order),
    } }));
    assert.equal(sunk.findings.length, 0, 'the result holds none');
    assert.equal(given.length, whole.findings.length);
    const out = new SpooledDiagnostics(spool.done());
    assert.deepEqual([...out].map((d) => [d.line, d.endLine, d.message]), whole.findings.map((f) => [f.span.start, f.span.end, f.message]));
    out.dispose();
  });
});

describe('IdTable', () => {
  it('numbers ids in the order they were added and knows each again', () => {
    const t = new IdTable();
    for (let i = 0; i < 50000; i++) assert.equal(t.add(`toolu_${i}`), i);
    assert.equal(t.size, 50000);
    for (let i = 0; i < 50000; i += 97) assert.equal(t.get(`toolu_${i}`), i);
    assert.equal(t.add('toolu_42'), 42, 'an id added again keeps its slot');
    assert.equal(t.has('toolu_50000'), false);
    assert.equal(t.get(''), -1);
    assert.equal(t.size, 50000);
  });
});

describe('check: the report through a spool', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cg-spool-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is the same report in every format, with a baseline too, when the spool writes runs every 5 findings', () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is built by `npm run build`');
    const { generateClaudeCode } = benchTraces();
    const one = path.join(dir, 'one-session.jsonl');
    generateClaudeCode(one, 1, 7, { sessionTurns: Infinity, sidechains: 0 });
    const baseline = path.join(dir, 'baseline.json');
    const run = (args: string[], items?: string) => {
      const env = { ...process.env, CONTRACT_GUARD_THREADS: 'never', ...(items ? { CONTRACT_GUARD_SPOOL_ITEMS: items } : {}) };
      const r = spawnSync(process.execPath, [CLI, 'check', ...args, '--contracts', 'fixtures/contracts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, env });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const first = run([one, '--format', 'json']);
    assert.equal(first.code, 1, first.stderr);
    assert.ok((JSON.parse(first.stdout) as { summary: { error: number } }).summary.error > 20, 'enough findings to spool');
    assert.equal(run([one, '--baseline', baseline, '--update-baseline']).code, 0);
    // a baseline that accepts every other kind of finding: some findings accepted, others not
    const written = JSON.parse(readFileSync(baseline, 'utf8')) as { findings: unknown[] };
    writeFileSync(baseline, JSON.stringify({ ...written, findings: written.findings.filter((_, i) => i % 2 === 0) }));
    const cases: [string, string[]][] = [['json', []], ['json', ['--baseline', baseline]], ['sarif', ['--baseline', baseline]], ['text', ['--baseline', baseline]], ['jsonl', []], ['markdown', []]];
    for (const [format, extra] of cases) {
      {
        const held = run([one, '--format', format, ...extra]);
        const spooled = run([one, '--format', format, ...extra], '5');
        assert.equal(spooled.stderr, held.stderr);
        assert.equal(spooled.code, held.code, `${format} ${extra.join(' ')}`);
        assert.ok(spooled.stdout === held.stdout, `--format ${format} ${extra.join(' ')}: another report through the spool`);
        if (format === 'json' && extra.length) assert.ok((JSON.parse(held.stdout) as { summary: { baselined: number } }).summary.baselined > 0, 'the baseline accepts some');
      }
    }
  });

  it('leaves no spool file and no temporary report behind when the run is stopped by SIGTERM (exit 143)', async () => {
    const { generateClaudeCode } = benchTraces();
    const big = path.join(dir, 'long-session.jsonl');
    generateClaudeCode(big, 8, 11, { sessionTurns: Infinity, sidechains: 0 });
    const env = { ...process.env, CONTRACT_GUARD_THREADS: 'never', CONTRACT_GUARD_SPOOL_ITEMS: '5' };
    const child = spawn(process.execPath, [CLI, 'check', big, '--contracts', 'fixtures/contracts', '--format', 'json', '--output', path.join(dir, 'out.json')], { cwd: ROOT, env, stdio: 'ignore' });
    const mine = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`contract-guard-${child.pid}-`) && n.endsWith('.spool'));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let seen = false;
    for (let i = 0; i < 600 && !seen && child.exitCode === null; i++) {
      seen = mine().length > 0;
      if (!seen) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(seen, 'the run wrote a spool file before it was stopped');
    child.kill('SIGTERM');
    assert.equal(await exited, 143);
    assert.deepEqual(mine(), []);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), [], 'the report being written in place is gone too');
    assert.ok(!existsSync(path.join(dir, 'out.json')), 'and the report was never put in place');
  });
});
