// The main thread as one of the pool's workers (src/cli/pool.ts `here`): it takes only the jobs that may run on it,
// only once every thread it may have is started and busy, and never with --jobs 1.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkerPool } from '../../src/cli/pool';

interface Job {
  n: number;
}
interface Answer {
  id: number;
  n: number;
  by: string;
}

describe('worker pool: jobs on the main thread too', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cg-pool-'));
    file = path.join(dir, 'echo.js');
    // a thread that answers each job after a while, naming itself
    writeFileSync(file, "const { parentPort, threadId } = require('node:worker_threads');\nparentPort.on('message', (m) => setTimeout(() => parentPort.postMessage({ id: m.id, n: m.n, by: 'thread ' + threadId }), 30));\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const here = (job: Job & { id: number }) => Promise.resolve({ id: job.id, n: job.n, by: 'here' });

  async function runAll(limit: number, count: number, hereToo: boolean): Promise<Answer[]> {
    const pool = new WorkerPool<Job, Answer>(file, limit, undefined, 64, here);
    try {
      return await Promise.all(Array.from({ length: count }, (_, n) => pool.run({ n }, undefined, hereToo)));
    } finally {
      await pool.close();
    }
  }

  it('shares jobs between its threads (jobs - 1) and this thread, each answered once, in any order', async () => {
    const answers = await runAll(2, 12, true);
    assert.deepEqual(answers.map((a) => a.n), Array.from({ length: 12 }, (_, n) => n));
    const by = new Set(answers.map((a) => a.by));
    assert.ok(by.has('here'), 'the main thread took some jobs');
    const threads = [...by].filter((b) => b !== 'here');
    assert.equal(threads.length, 1, `one thread beside the main thread: ${[...by].join(', ')}`);
    // the first job finds no thread busy: a thread is started for it rather than this thread taking it
    assert.notEqual(answers[0].by, 'here');
  });

  it('runs a job that may not run here on threads only, up to --jobs of them', async () => {
    const answers = await runAll(2, 8, false);
    const by = new Set(answers.map((a) => a.by));
    assert.ok(!by.has('here'));
    assert.equal(by.size, 2, `two threads: ${[...by].join(', ')}`);
  });

  it("checks a run's first job here while its threads start, then hands the rest out as before", async () => {
    const pool = new WorkerPool<Job, Answer>(file, 2, undefined, 64, here);
    try {
      const first = await pool.run({ n: 0 }, undefined, 'first');
      assert.equal(first.by, 'here', 'the first job did not wait for a thread to start');
      const rest = await Promise.all(Array.from({ length: 6 }, (_, i) => pool.run({ n: i + 1 }, undefined, true)));
      assert.deepEqual(rest.map((a) => a.n), [1, 2, 3, 4, 5, 6]);
      assert.ok(rest.some((a) => a.by !== 'here'), `the started thread took jobs: ${rest.map((a) => a.by).join(', ')}`);
      // 'first' once a thread is started is an ordinary job that may run here
      assert.equal((await pool.run({ n: 7 }, undefined, 'first')).n, 7);
    } finally {
      await pool.close();
    }
    // with --jobs 1 there is no here: the first job goes to the thread
    const one = new WorkerPool<Job, Answer>(file, 1, undefined, 64, here);
    try {
      assert.notEqual((await one.run({ n: 0 }, undefined, 'first')).by, 'here');
    } finally {
      await one.close();
    }
  });

  it('never runs jobs here with --jobs 1', async () => {
    const answers = await runAll(1, 6, true);
    assert.equal(new Set(answers.map((a) => a.by)).size, 1);
    assert.ok(answers.every((a) => a.by !== 'here'));
  });
});
