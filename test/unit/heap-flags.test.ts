// The V8 flags of a `check` run (src/cli/heap-flags.ts): set by the CLI's `check` before its threads start, set
// again by each of its threads as it starts (V8 resets one of them whenever it makes a heap), and by nothing else
// (another command, the extension host). A preloaded script records every v8.setFlagsFromString call, on the main
// thread and on the threads.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CHECK_HEAP_FLAGS } from '../../src/cli/heap-flags';
import { ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

interface FlagSet {
  flag: string;
  /** `main`, or the thread's id. */
  where: string;
  /** Threads the main thread had started when it was set. */
  threadsBefore: number;
}

describe('heap flags of check', () => {
  let dir: string;
  let preload: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cg-heap-flags-'));
    preload = path.join(dir, 'record.js');
    writeFileSync(preload, `
      const v8 = require('node:v8');
      const fs = require('node:fs');
      const worker = require('node:worker_threads');
      const set = v8.setFlagsFromString;
      let threads = 0;
      const W = worker.Worker;
      worker.Worker = class extends W { constructor(...a) { super(...a); threads++; } };
      const where = worker.isMainThread ? 'main' : String(worker.threadId);
      v8.setFlagsFromString = (flag) => { fs.appendFileSync(process.env.FLAGS_FILE, flag + ' ' + where + ' ' + threads + '\\n'); set(flag); };
    `);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function flagsOf(args: string[], env: NodeJS.ProcessEnv = {}): FlagSet[] {
    const file = path.join(dir, `flags-${Math.random().toString(36).slice(2)}`);
    const r = spawnSync(process.execPath, ['-r', preload, CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env, FLAGS_FILE: file }, encoding: 'utf8' });
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').trim().split('\n').map((l) => {
      const [flag, where, n] = l.split(' ');
      return { flag, where, threadsBefore: Number(n) };
    });
  }

  it('check sets them once before any thread starts, and each thread again as it starts', () => {
    const set = flagsOf(['check', 'fixtures/traces', '--contracts', 'fixtures/contracts', '--format', 'json', '--jobs', '2'], { CONTRACT_GUARD_THREADS: 'always' });
    const main = set.filter((s) => s.where === 'main');
    assert.deepEqual(main.map((s) => s.flag), CHECK_HEAP_FLAGS);
    assert.ok(main.every((s) => s.threadsBefore === 0), 'no thread had started when the main thread set them');
    const threads = [...new Set(set.filter((s) => s.where !== 'main').map((s) => s.where))];
    assert.ok(threads.length >= 1, 'the run had threads');
    for (const t of threads) assert.deepEqual(set.filter((s) => s.where === t).map((s) => s.flag), CHECK_HEAP_FLAGS, `thread ${t}`);
  });

  it('other commands, and a check on this thread alone, leave the threads out; other commands set none', () => {
    assert.deepEqual(flagsOf(['codes']), []);
    assert.deepEqual(flagsOf(['--version']), []);
    const alone = flagsOf(['check', 'fixtures/traces', '--contracts', 'fixtures/contracts', '--format', 'json'], { CONTRACT_GUARD_THREADS: 'never' });
    assert.deepEqual(alone.map((s) => s.where), CHECK_HEAP_FLAGS.map(() => 'main'));
  });

  it('the extension bundle holds none of them (the extension host keeps V8 defaults)', () => {
    const text = readFileSync(path.join(ROOT, 'dist', 'extension.js'), 'utf8');
    for (const flag of CHECK_HEAP_FLAGS) assert.ok(!text.includes(flag), `${flag} in dist/extension.js`);
    assert.ok(!text.includes('setFlagsFromString'));
  });
});
