// Tests are found from what they test: every check code and every reader id leads to its tests, by a file named
// after it (check-<code>.test.ts, format-<id>.test.ts) or by a row of test-index.ts, and the index cannot rot.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CHECKS, readerIds } from '../../src/core';
import { ROOT } from './helpers';
import { CHECK_TESTS, FORMAT_TESTS } from './test-index';

const DIR = path.join(ROOT, 'test', 'unit');
const own = (prefix: string, id: string) => `${prefix}-${id}.test.ts`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a test file names `id` as a whole word (not inside a longer id: `orphan-call` is not `call`). */
function names(file: string, id: string): boolean {
  return new RegExp(`(?<![\\w-])${escape(id)}(?![\\w-])`).test(readFileSync(path.join(DIR, file), 'utf8'));
}

/** The test files of `id`: its own file when there is one, then its index row. */
function testsOf(prefix: string, id: string, index: Record<string, string[]>): string[] {
  return [...(existsSync(path.join(DIR, own(prefix, id))) ? [own(prefix, id)] : []), ...(index[id] ?? [])];
}

function suite(what: string, prefix: string, ids: string[], index: Record<string, string[]>): void {
  describe(what, () => {
    it('each has a file named after it or a row in test-index.ts', () => {
      assert.deepEqual(ids.filter((id) => testsOf(prefix, id, index).length === 0), []);
    });

    it('each file listed exists and names what it is listed for', () => {
      const broken = Object.entries(index).flatMap(([id, files]) =>
        files.filter((f) => !existsSync(path.join(DIR, f)) || !names(f, id)).map((f) => `${id}: ${f}`));
      assert.deepEqual(broken, []);
    });

    it('no row or file outlives its subject', () => {
      const known = new Set(ids);
      assert.deepEqual(Object.keys(index).filter((id) => !known.has(id)), [], 'index rows of no current id');
      const strays = readdirSync(DIR)
        .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.test.ts'))
        .filter((f) => !known.has(f.slice(prefix.length + 1, -'.test.ts'.length)))
        .filter((f) => !Object.values(index).some((files) => files.includes(f)));
      assert.deepEqual(strays, [], `a ${prefix}-*.test.ts file named after no current id must be listed in the index`);
    });
  });
}

suite('check codes', 'check', CHECKS.map((c) => c.code), CHECK_TESTS);
suite('reader ids', 'format', readerIds(), FORMAT_TESTS);
