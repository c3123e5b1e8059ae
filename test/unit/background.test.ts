// Background checks (src/extension/background.ts): a worker thread running the bundled dist/checkWorker.js gives
// the same findings as checkText in place, compiles the contracts from their sources, answers a broken text with
// findings, is terminated when the check is cancelled, and is simply absent where no worker file is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText, loadContracts } from '../../src/core';
import { buildDecisionTable } from '../../src/core/report/decision-table';
import { BackgroundChecks, type ContractSources } from '../../src/extension/background';
import { ROOT } from './helpers';

const WORKER = path.join(ROOT, 'dist', 'checkWorker.js');

function sources(): ContractSources {
  const dir = path.join(ROOT, 'fixtures', 'contracts');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ path: `fixtures/contracts/${f}`, text: readFileSync(path.join(dir, f), 'utf8') }));
  return { files, profile: 'strict' };
}

test('background checks', { skip: !existsSync(WORKER) && 'dist/checkWorker.js is not built (npm run build)' }, async (t) => {
  const background = new BackgroundChecks(WORKER);
  const src = sources();
  const { contracts } = loadContracts(src.files, src.profile);
  t.after(() => background.dispose());

  await t.test('give the findings checkText gives, for every fixture trace', async () => {
    const dir = path.join(ROOT, 'fixtures', 'traces');
    const names = readdirSync(dir).filter((f) => /\.jsonl?$/.test(f)).sort();
    assert.ok(names.length >= 7, `${names.length} traces`);
    for (const name of names) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      const fileName = `fixtures/traces/${name}`;
      const here = checkText(text, { fileName, contracts });
      const there = await background.check({ text, options: { fileName }, contracts: src })!;
      assert.ok(here.findings.length > 0, `${name} has findings`);
      const { model: _none, ...expected } = here; // the model never crosses threads
      assert.deepStrictEqual(there.result, expected, name);
    }
  });

  await t.test('say whether every JSONL line is read on its own (the editor patches such files line by line)', async () => {
    const fineTune = JSON.stringify({ messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_hours', arguments: '{"building": "A", "weekday": 1}' } }] }] });
    const own = await background.check({ text: `${fineTune}\n${fineTune}\n`, options: { fileName: 'a.jsonl' }, contracts: src })!;
    assert.equal(own.independent, true);
    assert.equal(own.result.calls, 2);
    const events = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'boundary.anthropic.jsonl'), 'utf8');
    const session = await background.check({ text: events, options: { fileName: 'boundary.anthropic.jsonl' }, contracts: src })!;
    assert.equal(session.independent, false);
  });

  await t.test('build the decision table there, equal to the table built in place, and send no model', async () => {
    const text = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'boundary.anthropic.jsonl'), 'utf8');
    const fileName = 'fixtures/traces/boundary.anthropic.jsonl';
    const here = buildDecisionTable(checkText(text, { fileName, contracts, keepModel: true }), { contracts, profile: 'strict' });
    const there = await background.check({ text, options: { fileName }, contracts: src, table: { profile: 'strict' } })!;
    assert.equal(there.table?.calls, 20);
    assert.deepStrictEqual(there.table, here);
    assert.equal(there.result.model, undefined);
    const plain = await background.check({ text, options: { fileName }, contracts: src })!;
    assert.equal(plain.table, undefined);
  });

  await t.test('answer a broken line with a parse-error and check the others', async () => {
    const text = '{"name": "get_hours", "arguments": {"building": "A", "weekday": "x"}}\n{"name": \n{"name": "get_hours", "arguments": {"building": "B", "weekday": 2}}\n';
    const { result } = await background.check({ text, options: { fileName: 'broken.calls.jsonl' }, contracts: src })!;
    assert.deepStrictEqual(result.findings.map((f) => f.code).sort(), ['parse-error', 'type-drift']);
    assert.equal(result.calls, 2);
  });

  await t.test('are cancelled: the promise rejects with an AbortError and the worker is gone', async () => {
    let big = '';
    for (let i = 0; big.length < 8 * 1024 * 1024; i++) big += `{"name": "get_hours", "arguments": {"building": "B${i}", "weekday": ${i % 7}}}\n`;
    const controller = new AbortController();
    const running = background.check({ text: big, options: { fileName: 'big.calls.jsonl' }, contracts: src }, controller.signal)!;
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(running, (e: Error) => e.name === 'AbortError');
    assert.equal((background as unknown as { running: Set<unknown> }).running.size, 0, 'no worker left running');
    const already = new AbortController();
    already.abort();
    await assert.rejects(background.check({ text: '{}', options: {}, contracts: src }, already.signal)!, (e: Error) => e.name === 'AbortError');
  });

  await t.test('reject with a one-line error when the worker cannot start (the editor then checks in place)', async () => {
    const missing = new BackgroundChecks(path.join(ROOT, 'dist', 'no-such-worker.js'));
    await assert.rejects(missing.check({ text: '{}', options: {}, contracts: src })!, (e: Error) => e.name !== 'AbortError' && /background check/.test(e.message) && !e.message.includes('\n'));
  });

  await t.test('are not offered without a worker file (the web host checks in slices instead)', () => {
    const none = new BackgroundChecks(undefined);
    assert.equal(none.available, false);
    assert.equal(none.check({ text: '{}', options: {}, contracts: src }), undefined);
  });
});
