// A trace growing on disk, followed on the worker thread that checked it (src/extension/background.ts ThreadGrowing,
// src/extension/checkWorker.ts): the thread stays after its reply, checks what the host says was appended, in
// order, with the results of a whole check of the grown text; line-independent JSONL and documents do not stay;
// letting the growing trace go ends the thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText, loadContracts } from '../../src/core';
import { BackgroundChecks, type ContractSources } from '../../src/extension/background';
import { fixture, ROOT } from './helpers';

const WORKER = path.join(ROOT, 'dist', 'checkWorker.js');

function sources(): ContractSources {
  const dir = path.join(ROOT, 'fixtures', 'contracts');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ path: `fixtures/contracts/${f}`, text: readFileSync(path.join(dir, f), 'utf8') }));
  return { files, profile: 'strict' };
}

const call = (weekday: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ name: 'get_hours', arguments: { building: 'Killam', weekday, ...extra } });

test('a growing trace followed on its worker thread', { skip: !existsSync(WORKER) && 'dist/checkWorker.js is not built (npm run build)' }, async (t) => {
  const background = new BackgroundChecks(WORKER);
  const src = sources();
  const { contracts } = loadContracts(src.files, src.profile);
  t.after(() => background.dispose());

  await t.test('appended lines, then a partial line, equal whole checks of the grown text', async () => {
    const fileName = 'grow.calls.jsonl';
    let text = `${call(2)}\n${call('2')}\n`;
    const first = await background.check({ text, options: { fileName }, contracts: src, grow: true })!;
    assert.ok(first.growing, 'a one-conversation trace: the thread stays');
    assert.equal(first.growing.consumed, text.length);
    const more = `${call(2)}\n${call(2, { open: true })}\n`;
    // sent at once: answered in order
    const [a, b] = await Promise.all([first.growing.append(more), first.growing.append(`${call(true)}\n`, call(3).slice(0, 25))]);
    assert.deepEqual(a, checkText(text + more, { fileName, contracts }));
    text += more + `${call(true)}\n`;
    assert.deepEqual(b, checkText(text + call(3).slice(0, 25), { fileName, contracts }), 'the partial line is the parse error it is');
    assert.ok(a.findings.some((f) => f.code === 'duplicate-fingerprint'), 'the repeat of line 1, read by the thread long before');
    assert.equal(first.growing.consumed, text.length);
    first.growing.dispose!();
    await assert.rejects(Promise.resolve(first.growing.append(`${call(1)}\n`)), /let go/);
  });

  await t.test('a trace whose lines are each a unit of their own, or a document, does not keep a thread', async () => {
    const fine = await background.check({ text: fixture('traces/weather.openai-chat.jsonl'), options: { fileName: 'w.jsonl' }, contracts: src, grow: true })!;
    assert.equal(fine.growing, undefined);
    assert.equal(fine.independent, true);
    const doc = await background.check({ text: fixture('traces/rooms.openai-chat.json'), options: { fileName: 'r.json' }, contracts: src, grow: true })!;
    assert.equal(doc.growing, undefined);
  });
});
