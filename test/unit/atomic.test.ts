// Report and baseline writes replace the file atomically and leave no temporary file behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic } from '../../src/cli/atomic';

test('writeFileAtomic: replaces in one step, concurrent writers leave one whole file, no temp files', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-atomic-'));
  try {
    const file = path.join(dir, 'report.sarif');
    writeFileSync(file, 'OLD');
    await writeFileAtomic(file, 'NEW');
    assert.equal(readFileSync(file, 'utf8'), 'NEW');
    const texts = ['A', 'B', 'C', 'D'].map((c) => c.repeat(2_000_000));
    await Promise.all(texts.map((t) => writeFileAtomic(file, t)));
    const final = readFileSync(file, 'utf8');
    assert.ok(texts.includes(final), 'the file is one writer\'s whole text, not a mix');
    assert.deepEqual(readdirSync(dir), ['report.sarif']);
    await assert.rejects(writeFileAtomic(path.join(dir, 'missing', 'x.json'), 'x'));
    assert.deepEqual(readdirSync(dir), ['report.sarif']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
