// A fuzz worker thread: runs the inputs [from, to) of a seed, writes the index it is on into shared memory (so
// the main thread can tell a hang and kill it), reports failures, and measures the heap after a GC now and then.
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const v8 = require('node:v8');
const vm = require('node:vm');
const { makeInput } = require('./inputs');
const { loadCore, runInput } = require('./run-input');

v8.setFlagsFromString('--expose-gc');
const gc = globalThis.gc ?? vm.runInNewContext('gc');

const progress = new Int32Array(workerData.progress); // [index being run, inputs done by this worker, is it a big one]
const loaded = loadCore();

// Checks keep the last session's state until the next check (pairing, fingerprints): a small check first, so
// that what is measured is growth across inputs, not the last big input still held.
const fs = require('node:fs');
const path = require('node:path');
const flushText = fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'traces', 'hours.calls.jsonl'), 'utf8');

function heapAfterGc() {
  loaded.core.checkText(flushText, { fileName: 'flush.jsonl' });
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

parentPort.on('message', (msg) => {
  if (msg.type !== 'run') return;
  const { seed, from, to, specialEvery, heapEvery } = msg;
  for (let i = from; i < to; i++) {
    Atomics.store(progress, 0, i);
    let input;
    try {
      input = makeInput(seed, i, specialEvery);
    } catch (e) {
      parentPort.postMessage({ type: 'fail', index: i, kind: 'generator', message: String(e && e.stack || e) });
      continue;
    }
    Atomics.store(progress, 2, input.special ? 1 : 0);
    const problem = runInput(loaded, input, i);
    // eslint-disable-next-line no-useless-assignment -- drops the input before the heap is measured below
    input = undefined;
    if (problem) parentPort.postMessage({ type: 'fail', index: i, ...problem });
    const done = Atomics.add(progress, 1, 1) + 1;
    if (heapEvery > 0 && done % heapEvery === 0) parentPort.postMessage({ type: 'heap', index: i, done, heap: heapAfterGc() });
  }
  Atomics.store(progress, 0, -1);
  parentPort.postMessage({ type: 'done', from, to });
});
parentPort.postMessage({ type: 'ready', heap: heapAfterGc() });
