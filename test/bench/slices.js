#!/usr/bin/env node
// The longest synchronous slice: how long checkTextChunked holds the thread at most, on a generated 20 MB trace and
// on the pathological inputs of the fuzzer, next to how long the blocking checkText holds it.
//   node test/bench/slices.js [--slice-ms 10] [--only NAME]      (after npm run build)
// Each slice is timed from its resume to its yield (the core yields through setImmediate, wrapped here: a direct
// measurement; perf_hooks.monitorEventLoopDelay samples and missed whole multi-second blocks in trials).
// Traces are generated under .bench/ (not committed).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const ROOT = path.resolve(__dirname, '..', '..');
const core = require(path.join(ROOT, 'out', 'src', 'core'));
const { generate } = require('./generate');

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const sliceMs = Number(flag('--slice-ms', '10'));
const only = flag('--only', undefined);

function contracts() {
  const dir = path.join(ROOT, 'fixtures', 'contracts');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ path: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
  return core.loadContracts(files).contracts;
}

function inputs() {
  const dir = path.join(ROOT, '.bench', 'slices');
  fs.mkdirSync(dir, { recursive: true });
  const finetune = path.join(dir, 'finetune-20mb.jsonl');
  if (!fs.existsSync(finetune)) generate(finetune, 20, path.join(ROOT, 'fixtures', 'contracts'), 7);
  const weather = (i) => JSON.stringify({ name: 'get_weather', arguments: { city: ['Oslo', 'Lisbon', 'Kyoto'][i % 3], units: i % 7 ? 'metric' : 'kelvin' } });
  let calls = '';
  for (let i = 0; calls.length < 20 * 1024 * 1024; i++) calls += weather(i) + '\n';
  const chat = { messages: [] };
  for (let i = 0, size = 0; size < 20 * 1024 * 1024; i++) {
    const m = { role: 'assistant', tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city: 'Oslo', units: 'metric', n: i }) } }] };
    const r = { role: 'tool', tool_call_id: `c${i}`, content: '{"ok": true, "error": null, "result": {"t": 3}}' };
    chat.messages.push(m, r);
    size += 230;
  }
  return [
    { name: 'finetune-20mb.jsonl (generated: one conversation per line)', file: 'finetune.jsonl', text: () => fs.readFileSync(finetune, 'utf8') },
    { name: 'calls-20mb.jsonl (one session over every line)', file: 'calls.jsonl', text: () => calls },
    { name: 'chat-20mb.json (one JSON document)', file: 'chat.json', text: () => JSON.stringify(chat) },
    { name: 'single-line-50mb.jsonl', file: 'single.jsonl', text: () => JSON.stringify({ name: 'get_weather', arguments: { city: 'Oslo', units: 'metric', note: 'x'.repeat(50 * 1024 * 1024) } }) + '\n' },
    { name: 'tiny-lines-1m.jsonl', file: 'tiny.jsonl', text: () => '{}\n'.repeat(1000000) },
    { name: 'deep-100k.jsonl (one line nested 100k deep, then calls)', file: 'deep.jsonl', text: () => '{"a":'.repeat(100000) + '1' + '}'.repeat(100000) + '\n' + (weather(1) + '\n').repeat(20000) },
    { name: 'deep-unclosed-100k.json', file: 'deep.json', text: () => '{"messages":' + '['.repeat(100000) },
  ];
}

async function measure(text, options) {
  // blocking: the whole check is one slice
  let t0 = performance.now();
  const expected = core.checkText(text, options);
  const blocking = performance.now() - t0;
  // chunked: every slice timed from the moment it resumes to the moment it yields (the core yields through
  // setImmediate in Node; the wrapper below sees each yield and each resume)
  let longest = 0;
  let slices = 0;
  let sliceStart = performance.now();
  const real = globalThis.setImmediate;
  globalThis.setImmediate = (fn, ...rest) => {
    longest = Math.max(longest, performance.now() - sliceStart);
    slices += 1;
    return real(() => {
      sliceStart = performance.now();
      fn(...rest);
    });
  };
  t0 = performance.now();
  sliceStart = t0;
  let result;
  try {
    result = await core.checkTextChunked(text, options, { sliceMs });
    longest = Math.max(longest, performance.now() - sliceStart);
  } finally {
    globalThis.setImmediate = real;
  }
  const total = performance.now() - t0;
  const same = JSON.stringify(result) === JSON.stringify(expected);
  return { blocking, total, longest, slices, same, findings: result.findings.length };
}

async function main() {
  const options = { contracts: contracts() };
  console.log(`slice budget ${sliceMs} ms; Node ${process.version}`);
  console.log('input | blocking checkText ms | chunked total ms | longest slice ms | slices | same result');
  for (const input of inputs()) {
    if (only && !input.name.includes(only)) continue;
    const text = input.text();
    const r = await measure(text, { ...options, fileName: input.file });
    console.log(`${input.name} (${(text.length / 1048576).toFixed(1)} M chars) | ${r.blocking.toFixed(0)} | ${r.total.toFixed(0)} | ${r.longest.toFixed(1)} | ${r.slices} | ${r.same ? 'yes' : 'NO'} (${r.findings} findings)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
