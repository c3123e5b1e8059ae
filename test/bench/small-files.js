// Many small files: a folder of 10,000 traces of 10 calls each, checked by one `contract-guard check` run, against
// checking one of them inside a warm process times 10,000 (contracts compiled once, no per-file start-up: the
// ratio says what each file costs beyond its own check). Prints
//   small files: 10,000 files R.RR s, one file × 10,000 R.RR s, ratio R.RR
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { makeCall, rng, ROOMS } = require('./generate');

const COUNT = Number(process.env.BENCH_SMALL_FILES || 10000);
const CALLS = 10;

/** One OpenAI chat trace (JSONL, one message a line) of `CALLS` calls, each answered. */
function smallTrace(r, n) {
  const lines = [JSON.stringify({ role: 'user', content: `Request ${n}: plan my day around the library.` })];
  let listed = false;
  for (let i = 0; i < CALLS; i++) {
    let c = makeCall(r);
    if (c.name === 'book_room' && !listed) c = { name: 'list_rooms', args: { quiet_only: false } };
    if (c.name === 'list_rooms') listed = true;
    const id = `call_${n}_${i}`;
    lines.push(JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }] }));
    lines.push(JSON.stringify({ role: 'tool', tool_call_id: id, content: JSON.stringify({ ok: true, result: c.name === 'list_rooms' ? { rooms: ROOMS } : { note: 'done' } }) }));
  }
  return lines.join('\n') + '\n';
}

/** The folder of small traces (written once; the marker file says it is complete). */
function smallFiles(dir) {
  const folder = path.join(dir, `small-${COUNT}`);
  const done = path.join(folder, '.complete');
  if (fs.existsSync(done)) return folder;
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  const r = rng(5);
  for (let n = 0; n < COUNT; n++) fs.writeFileSync(path.join(folder, `trace-${String(n).padStart(5, '0')}.jsonl`), smallTrace(r, n));
  fs.writeFileSync(done, '');
  return folder;
}

/** Seconds one small file's check takes in a warm process (the CLI's own reading and checking path, unbundled). */
function oneFileSeconds(root, file) {
  const { checkFile } = require(path.join(root, 'out', 'src', 'cli', 'stream.js'));
  const { loadContractPaths } = require(path.join(root, 'out', 'src', 'cli', 'contracts.js'));
  return (async () => {
    const { contracts } = await loadContractPaths([path.join(root, 'fixtures', 'contracts')], 'strict');
    const options = { contracts };
    for (let i = 0; i < 50; i++) await checkFile(file, options); // warm up
    const runs = 500;
    const started = process.hrtime.bigint();
    for (let i = 0; i < runs; i++) await checkFile(file, options);
    return Number(process.hrtime.bigint() - started) / 1e9 / runs;
  })();
}

/** `time`: bench.js's timer (peak RSS and CPU from inside). */
async function smallFilesCase(root, dir, time) {
  const folder = smallFiles(dir);
  const first = path.join(folder, 'trace-00000.jsonl');
  const one = await oneFileSeconds(root, first);
  const run = time('node', [path.join(root, 'dist', 'cli.js'), 'check', folder, '--contracts', 'fixtures/contracts', '--format', 'json']);
  const report = JSON.parse(run.stdout);
  const times = one * COUNT;
  console.log(`small files: ${report.summary.files} files of ${CALLS} calls, ${report.summary.calls} calls; one file ${(one * 1000).toFixed(2)} ms in a warm process; peak RSS ${run.peakMb.toFixed(0)} MB`);
  console.log(`small files: ${COUNT.toLocaleString('en-US')} files ${run.seconds.toFixed(2)} s, one file × ${COUNT.toLocaleString('en-US')} ${times.toFixed(2)} s, ratio ${(run.seconds / times).toFixed(2)}`);
}

module.exports = { smallFilesCase, smallTrace };
