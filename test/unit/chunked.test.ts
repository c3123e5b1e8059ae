// checkTextChunked: the same result as checkText, in slices that yield to the event loop, cancellable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText, checkTextChunked, type CheckOptions } from '../../src/core';
import { ROOT, fixtureContracts, traceFilesIn } from './helpers';

function traceFiles(): { name: string; text: string }[] {
  return traceFilesIn(['fixtures/traces', 'fixtures/vscode', 'corpus'], /\.(jsonl?|traj)$/);
}

test('checkTextChunked', async (t) => {
  const contracts = fixtureContracts();

  await t.test('equals checkText on every fixture and corpus trace, with a slice per line', async () => {
    const files = traceFiles();
    assert.ok(files.length >= 7);
    for (const f of files) {
      for (const options of [{ fileName: f.name, contracts }, { fileName: f.name }] as CheckOptions[]) {
        const expected = checkText(f.text, options);
        const got = await checkTextChunked(f.text, options, { sliceMs: 0 });
        assert.deepEqual(got, expected, f.name);
      }
    }
  });

  await t.test('equals checkText on mixed, broken and BOM-prefixed texts (sessions span slices)', async () => {
    const calls = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'hours.calls.jsonl'), 'utf8');
    const texts: [string, string][] = [
      ['\ufeff' + calls, 'a.jsonl'],
      [calls.replace(/\n/g, '\r\n') + '{"broken": \n\n', 'b.jsonl'],
      [calls, 'not-jsonl-by-name.json'],
      ['{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}', 'one.json'],
      ['{"oops"', 'broken.json'],
      ['', 'empty.jsonl'],
      ['   \n  ', 'blank.json'],
    ];
    for (const [text, fileName] of texts) {
      const expected = checkText(text, { fileName, contracts });
      assert.deepEqual(await checkTextChunked(text, { fileName, contracts }, { sliceMs: 0 }), expected, fileName);
    }
  });

  await t.test('yields to the event loop between slices: a timer set before the check fires before it ends', async () => {
    const line = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'hours.calls.jsonl'), 'utf8');
    const text = line.repeat(200);
    let fired = false;
    setTimeout(() => (fired = true), 0);
    let sawTimerDuringCheck = false;
    const result = await checkTextChunked(text, { fileName: 'big.jsonl', contracts }, { sliceMs: 0, onProgress: () => (sawTimerDuringCheck ||= fired) });
    assert.ok(sawTimerDuringCheck, 'the timer ran while the check was in progress');
    assert.deepEqual(result, checkText(text, { fileName: 'big.jsonl', contracts }));
  });

  await t.test('onLine sees every line with its offset, as checkText splits them', async () => {
    const text = '{"a": 1}\r\n\n{"b": 2}';
    const seen: [string, number][] = [];
    await checkTextChunked(text, { fileName: 'x.jsonl' }, { onLine: (l, base) => seen.push([l, base]) });
    assert.deepEqual(seen, [['{"a": 1}', 0], ['', 10], ['{"b": 2}', 11]]);
  });

  await t.test('cancelled by its signal: rejects with the reason and stops', async () => {
    const line = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'hours.calls.jsonl'), 'utf8');
    const controller = new AbortController();
    let slices = 0;
    const pending = checkTextChunked(line.repeat(500), { fileName: 'big.jsonl', contracts }, {
      sliceMs: 0,
      signal: controller.signal,
      onProgress: () => {
        slices += 1;
        if (slices === 3) controller.abort(new Error('document changed'));
      },
    });
    await assert.rejects(pending, /document changed/);
    assert.equal(slices, 3);
    const already = new AbortController();
    already.abort();
    await assert.rejects(checkTextChunked('{}', {}, { signal: already.signal }), (e: Error) => e.name === 'AbortError');
  });
});
