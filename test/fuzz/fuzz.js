#!/usr/bin/env node
// npm run fuzz -- [--seed S] [--count N] [--time SECONDS] [--timeout MS] [--special-timeout MS] [--workers W] [--start I]
//                 [--special-every K] [--heap-every M] [--heap-log FILE] [--out DIR] [--progress SECONDS] [--json]
// Environment: FUZZ_SEED, FUZZ_COUNT, FUZZ_TIME, FUZZ_TIMEOUT, FUZZ_WORKERS (flags win).
//
// Feeds mutated traces, bytes and contracts (test/fuzz/inputs.js) through the core's entry points in worker
// threads. An input that throws is a crash; one still running after --timeout is a hang (its worker is killed and
// replaced); a polluted prototype or a malformed result is a failure too; the heap after GC is sampled every
// --heap-every inputs and growth across the run is a leak. Failing inputs are saved under --out (default
// test/fuzz/failures/) with a line in failures.jsonl naming seed and index, which regenerate them exactly.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const { makeInput } = require('./inputs');

function parseFlags(argv) {
  const env = process.env;
  const o = {
    seed: env.FUZZ_SEED ?? 'contract-guard',
    count: env.FUZZ_COUNT ? Number(env.FUZZ_COUNT) : undefined,
    time: env.FUZZ_TIME ? Number(env.FUZZ_TIME) : undefined,
    timeout: Number(env.FUZZ_TIMEOUT ?? 60000),
    specialTimeout: 180000,
    workers: Number(env.FUZZ_WORKERS ?? Math.max(1, Math.min(2, os.availableParallelism?.() ?? os.cpus().length))),
    start: 0,
    specialEvery: 2500,
    heapEvery: 1000,
    batch: 250,
    out: path.resolve(__dirname, 'failures'),
    json: false,
    leakMb: 64,
    progressEvery: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const name = a.replace(/=.*$/, '');
    if (name === '--seed') o.seed = val();
    else if (name === '--count') o.count = Number(val());
    else if (name === '--time') o.time = Number(val());
    else if (name === '--timeout') o.timeout = Number(val());
    else if (name === '--special-timeout') o.specialTimeout = Number(val());
    else if (name === '--workers') o.workers = Number(val());
    else if (name === '--start') o.start = Number(val());
    else if (name === '--special-every') o.specialEvery = Number(val());
    else if (name === '--heap-every') o.heapEvery = Number(val());
    else if (name === '--batch') o.batch = Number(val());
    else if (name === '--out') o.out = path.resolve(val());
    else if (name === '--leak-mb') o.leakMb = Number(val());
    else if (name === '--json') o.json = true;
    else if (name === '--progress') o.progressEvery = Number(val());
    else if (name === '--heap-log') o.heapLog = path.resolve(val());
    else throw new Error(`unknown flag ${a}`);
  }
  if (o.count === undefined && o.time === undefined) o.count = 20000;
  return o;
}

function saveFailure(o, index, kind, message) {
  fs.mkdirSync(o.out, { recursive: true });
  let file;
  let name = '?';
  try {
    const input = makeInput(o.seed, index, o.specialEvery);
    name = input.name;
    const data = input.kind === 'bytes' ? Buffer.from(input.bytes) : Buffer.from(input.kind === 'contract' ? input.text : input.text, 'utf8');
    if (data.length <= 4 * 1024 * 1024) {
      const ext = input.kind === 'bytes' ? path.extname(input.name) || '.bin' : input.kind === 'contract' ? '.contract.json' : path.extname(input.name) || '.txt';
      file = `${String(o.seed).replace(/[^\w.-]/g, '_')}-${index}-${kind}${ext}`;
      const tmp = path.join(o.out, `.${file}.${process.pid}.tmp`);
      fs.writeFileSync(tmp, data);
      fs.renameSync(tmp, path.join(o.out, file));
      if (input.kind === 'contract') fs.writeFileSync(path.join(o.out, file.replace(/\.contract\.json$/, '.trace' + path.extname(input.trace.name))), input.trace.text);
    }
  } catch (e) {
    message += ` (could not regenerate: ${e.message})`;
  }
  fs.appendFileSync(path.join(o.out, 'failures.jsonl'), JSON.stringify({ seed: o.seed, index, specialEvery: o.specialEvery, kind, name, file, message }) + '\n');
}

async function main() {
  const o = parseFlags(process.argv.slice(2));
  const started = Date.now();
  const deadline = o.time !== undefined ? started + o.time * 1000 : Infinity;
  const end = o.count !== undefined ? o.start + o.count : Infinity;
  let next = o.start;
  const failures = { crash: 0, hang: 0, pollution: 0, invalid: 0, generator: 0 };
  const firstMessages = [];
  const heap = [];
  let hangsDone = 0;
  let lastProgress = Date.now();
  let finishedWorkers = 0;

  const takeBatch = () => {
    if (next >= end || Date.now() >= deadline) return undefined;
    const from = next;
    next = Math.min(end, next + o.batch);
    return { from, to: next };
  };

  const record = (index, kind, message) => {
    failures[kind] = (failures[kind] ?? 0) + 1;
    if (firstMessages.length < 20) firstMessages.push(`#${index} ${kind}: ${message.split('\n').slice(0, 4).join(' | ')}`);
    saveFailure(o, index, kind, message);
  };

  await new Promise((resolve) => {
    const slots = [];
    const finishSlot = () => {
      finishedWorkers += 1;
      if (finishedWorkers === slots.length) resolve();
    };
    const spawn = (slot) => {
      const progress = new SharedArrayBuffer(12);
      const view = new Int32Array(progress);
      const worker = new Worker(path.join(__dirname, 'worker.js'), { workerData: { progress }, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
      Object.assign(slot, { worker, view, batch: undefined, lastIndex: -1, since: Date.now(), dead: false, doneBase: slot.doneBase ?? 0 });
      const dispatch = (batch) => {
        slot.batch = batch;
        if (!batch) {
          worker.terminate();
          finishSlot();
          return;
        }
        slot.lastIndex = -1;
        slot.since = Date.now();
        worker.postMessage({ type: 'run', seed: o.seed, from: batch.from, to: batch.to, specialEvery: o.specialEvery, heapEvery: o.heapEvery });
      };
      slot.dispatch = dispatch;
      worker.on('message', (m) => {
        if (m.type === 'fail') return record(m.index, m.kind, m.message);
        if (slot.worker !== worker) return; // a replaced worker's last words
        if (m.type === 'ready') dispatch(slot.pending ?? takeBatch());
        else if (m.type === 'heap') heap.push({ worker: slot.id, done: m.done, heap: m.heap });
        else if (m.type === 'done') {
          slot.pending = undefined;
          dispatch(takeBatch());
        }
      });
      worker.on('error', (e) => {
        if (slot.dead || slot.worker !== worker) return;
        slot.dead = true;
        const at = Atomics.load(view, 0);
        slot.doneBase += Atomics.load(view, 1);
        record(at, 'crash', `worker died: ${e && e.message}`);
        hangsDone += 1;
        slot.pending = slot.batch && at + 1 < slot.batch.to ? { from: at + 1, to: slot.batch.to } : undefined;
        spawn(slot);
      });
    };
    for (let id = 0; id < o.workers; id++) {
      const slot = { id, doneBase: 0 };
      slots.push(slot);
      spawn(slot);
    }
    // the watchdog: an input still running after --timeout is a hang; its worker is replaced
    const timer = setInterval(() => {
      for (const slot of slots) {
        if (!slot.batch || slot.dead) continue;
        const at = Atomics.load(slot.view, 0);
        if (at !== slot.lastIndex) {
          slot.lastIndex = at;
          slot.since = Date.now();
        } else if (at >= 0 && Date.now() - slot.since > (Atomics.load(slot.view, 2) ? o.specialTimeout : o.timeout)) {
          slot.dead = true;
          slot.doneBase += Atomics.load(slot.view, 1);
          record(at, 'hang', `still running after ${Date.now() - slot.since} ms`);
          hangsDone += 1;
          const rest = at + 1 < slot.batch.to ? { from: at + 1, to: slot.batch.to } : undefined;
          slot.worker.terminate();
          slot.pending = rest;
          spawn(slot);
        }
      }
      if (finishedWorkers === slots.length) clearInterval(timer);
      if (o.progressEvery > 0 && Date.now() - lastProgress >= o.progressEvery * 1000) {
        lastProgress = Date.now();
        const done = slots.reduce((n, s) => n + s.doneBase + (s.dead ? 0 : Atomics.load(s.view, 1)), 0) + hangsDone;
        const crashes = failures.crash + failures.pollution + failures.invalid + failures.generator;
        console.log(`fuzz: ${done} inputs so far, ${crashes} crashes, ${failures.hang} hangs (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
    }, 100);
    timer.unref?.();
    slots.forEach((s) => (s.all = slots));
    main.slots = slots;
  });

  const slots = main.slots;
  const inputs = slots.reduce((n, s) => n + s.doneBase + (s.dead ? 0 : Atomics.load(s.view, 1)), 0) + hangsDone;
  const seconds = (Date.now() - started) / 1000;
  // memory: per worker, the heap after GC. Caches fill up to their bounds early (compiled schemas: 1000), so a leak
  // is growth over the second half of the run: the median of the last quarter of the samples against the median
  // of the second quarter. First and last samples are printed as well.
  const leaks = [];
  const heapLines = [];
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const slot of slots) {
    const mine = heap.filter((h) => h.worker === slot.id);
    if (mine.length < 2) continue;
    const mb = (b) => (b / 1048576).toFixed(1);
    const q = Math.max(1, Math.floor(mine.length / 4));
    const second = median(mine.slice(q, 2 * q).map((h) => h.heap));
    const fourth = median(mine.slice(-q).map((h) => h.heap));
    heapLines.push(`worker ${slot.id}: ${mb(mine[0].heap)} MB after ${mine[0].done} inputs, median ${mb(second)} MB in the second quarter of its samples, ` +
      `${mb(fourth)} MB in the last, ${mb(mine[mine.length - 1].heap)} MB after ${mine[mine.length - 1].done}`);
    if (mine.length >= 8 && fourth - second > o.leakMb * 1048576) leaks.push(`worker ${slot.id} grew ${mb(fourth - second)} MB over the second half of its inputs`);
  }
  if (o.heapLog) fs.writeFileSync(o.heapLog, heap.map((h) => JSON.stringify(h)).join('\n') + '\n');
  const crashes = failures.crash + failures.pollution + failures.invalid + failures.generator;
  console.log(`fuzz: ${inputs} inputs, ${crashes} crashes, ${failures.hang} hangs`);
  console.log(`  seed ${o.seed}, ${seconds.toFixed(1)} s, ${(inputs / seconds).toFixed(0)} inputs/s, ${o.workers} workers; ` +
    `crashes: ${failures.crash} thrown, ${failures.pollution} pollution, ${failures.invalid} malformed results; leaks: ${leaks.length}`);
  for (const l of heapLines) console.log(`  heap after GC, ${l}`);
  for (const m of firstMessages) console.log(`  ${m}`);
  for (const l of leaks) console.log(`  leak: ${l}`);
  if (crashes + failures.hang > 0) console.log(`  failing inputs saved under ${path.relative(process.cwd(), o.out) || '.'}`);
  if (o.json) console.log(JSON.stringify({ inputs, crashes, hangs: failures.hang, failures, leaks, heap: heapLines, seconds }));
  process.exitCode = crashes + failures.hang + leaks.length > 0 ? 1 : 0;
}

main().catch((e) => {
  console.error(`fuzz: ${e.message}`);
  process.exit(2);
});
