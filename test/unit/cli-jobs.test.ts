// `check --jobs N` (src/cli/check-files.ts, pool.ts, worker.ts): on worker threads, the report is byte for byte the
// one a check on this thread writes: on the corpus, the fixtures, and large generated traces (a fine-tune JSONL,
// whose slices are checked at once, and a Claude Code log, whose lines are read together).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { benchTraces, CORPUS, ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

function run(args: string[], threads: 'always' | 'never') {
  // slices from 1 MB: the large traces below are cut into several
  const env = { ...process.env, CONTRACT_GUARD_THREADS: threads, CONTRACT_GUARD_SLICE_BYTES: String(1 << 20) };
  const r = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same report here and on 1 and 3 threads. */
function sameEverywhere(args: string[]): string {
  const here = run(args, 'never');
  assert.ok(here.code === 0 || here.code === 1, here.stderr);
  for (const jobs of ['1', '3']) {
    const threads = run([...args, '--jobs', jobs], 'always');
    assert.equal(threads.stderr, here.stderr, `--jobs ${jobs}: ${args.join(' ')}`);
    assert.equal(threads.code, here.code, `--jobs ${jobs}: ${args.join(' ')}`);
    assert.ok(threads.stdout === here.stdout, `--jobs ${jobs} wrote another report for ${args.join(' ')}`);
  }
  return here.stdout;
}

describe('check --jobs', () => {
  let dir = '';
  before(() => {
    assert.ok(existsSync(path.join(ROOT, 'dist', 'cliWorker.js')), 'dist/cliWorker.js is built by `npm run build`');
    dir = mkdtempSync(path.join(tmpdir(), 'cg-jobs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the fixtures: the same report in every format', () => {
    for (const format of ['json', 'jsonl', 'sarif', 'text', 'markdown']) {
      const out = sameEverywhere(['fixtures/traces', '--contracts', 'fixtures/contracts', '--format', format]);
      assert.ok(out.length > 100);
    }
  });

  it('the corpus: the same report (JSON and SARIF)', { skip: !existsSync(CORPUS) && 'no ../shared/corpus' }, () => {
    const json = JSON.parse(sameEverywhere([CORPUS, '--format', 'json']));
    assert.ok(json.files.length >= 50 && json.summary.calls > 100);
    sameEverywhere([CORPUS, 'fixtures/traces', '--contracts', 'fixtures/contracts', '--format', 'sarif']);
  });

  it('large traces: a fine-tune JSONL in slices and a Claude Code log whole give the same report', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generate } = require(path.join(ROOT, 'test', 'bench', 'generate.js')) as { generate: (f: string, mb: number, contracts: string) => { calls: number } };
    const { generateClaudeCode } = benchTraces();
    const fine = path.join(dir, 'finetune.jsonl');
    const cc = path.join(dir, 'claude.jsonl');
    const calls = generate(fine, 6, path.join(ROOT, 'fixtures', 'contracts')).calls;
    generateClaudeCode(cc, 5);
    const doc = JSON.parse(sameEverywhere([fine, '--contracts', 'fixtures/contracts', '--format', 'json']));
    assert.equal(doc.summary.calls, calls);
    assert.ok(doc.summary.error > 100);
    sameEverywhere([fine, cc, '--contracts', 'fixtures/contracts', '--format', 'text']);
    // a BOM, CRLF line ends and characters of 2 to 4 UTF-8 bytes (and of two UTF-16 units) across the slices
    const odd = path.join(dir, 'odd.jsonl');
    const text = readFileSync(fine, 'utf8').slice(0, 3_000_000);
    writeFileSync(odd, '\ufeff' + text.slice(0, text.lastIndexOf('\n') + 1).replace(/Oslo/g, 'Ösló😀').replace(/\n/g, (nl, at: number) => (at % 7 ? nl : '\r\n')));
    const oddDoc = JSON.parse(sameEverywhere([odd, '--contracts', 'fixtures/contracts', '--format', 'json']));
    assert.ok(oddDoc.summary.error > 10);
  });

  it('a thread out of memory is one line and exit 2, never a V8 crash', () => {
    const { generateClaudeCode } = benchTraces();
    const cc = path.join(dir, 'oom.jsonl');
    generateClaudeCode(cc, 8);
    const r = spawnSync(process.execPath, [CLI, 'check', cc, '--contracts', 'fixtures/contracts', '--jobs', '1'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CONTRACT_GUARD_THREADS: 'always', CONTRACT_GUARD_THREAD_HEAP_MB: '8' } });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^contract-guard: .*oom\.jsonl: limit reached: more memory than a check thread may use \(.+\)\n$/);
  });

  it('a JSONL line longer than one string can hold is one line and exit 2', { skip: process.env.CONTRACT_GUARD_SLOW_TESTS ? false : 'set CONTRACT_GUARD_SLOW_TESTS=1 (writes a 600 MB line through zlib, ~30 s)' }, async () => {
    const { createGzip } = await import('node:zlib');
    const { createWriteStream } = await import('node:fs');
    const file = path.join(dir, 'long.jsonl.gz');
    await new Promise<void>((resolve, reject) => {
      const gz = createGzip({ level: 1 });
      gz.pipe(createWriteStream(file)).on('finish', resolve).on('error', reject);
      const chunk = 'x'.repeat(1 << 20);
      gz.write('{"messages":[{"role":"user","content":"');
      let n = 0;
      const more = () => {
        while (n < 600) {
          n++;
          if (!gz.write(chunk)) return void gz.once('drain', more);
        }
        gz.end('"}]}\n');
      };
      more();
    });
    const r = spawnSync(process.execPath, [CLI, 'check', file], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CONTRACT_GUARD_THREADS: 'always' } });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^contract-guard: .*long\.jsonl\.gz: limit reached: a text longer than .+\n$/);
  });

  it('--jobs takes a whole number of at least 1', () => {
    for (const bad of ['0', 'two', '-1']) {
      const r = run(['fixtures/traces', `--jobs=${bad}`], 'never');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^contract-guard: --jobs must be a whole number of at least 1, not .+\n$/);
    }
  });
});
