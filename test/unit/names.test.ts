// What a file's name says (src/core/names.ts), the one rule the CLI's walk, the editor's compare and the readers share.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JSONL_NAME, TRACE_NAME, walkSkips } from '../../src/core/names';

describe('file names', () => {
  it('JSON Lines names, whatever their case; other names are not', () => {
    assert.deepEqual(['a.jsonl', 'a.NDJSON', 'a.jsonlines', 'a.json', 'a.jsonl.gz', 'jsonl'].map((n) => JSONL_NAME.test(n)), [true, true, true, false, false, false]);
  });

  it('trace names a folder walk takes: JSON Lines, JSON, .traj, .eval, .af; not .txt, .log or .jsonc', () => {
    assert.deepEqual(['a.jsonl', 'a.json', 'run.traj', 'x.eval', 'agent.af', 'a.txt', 'a.log', 'c.jsonc'].map((n) => TRACE_NAME.test(n)), [true, true, true, true, true, false, false, false]);
  });

  it('the walk passes by build, dependency and hidden folders only', () => {
    assert.deepEqual(['node_modules', '.git', 'dist', 'out', '.vscode-test', '.cache', 'traces', 'output'].map(walkSkips), [true, true, true, true, true, true, false, false]);
  });
});
