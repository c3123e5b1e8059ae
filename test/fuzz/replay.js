#!/usr/bin/env node
// Re-run one fuzz input: node test/fuzz/replay.js SEED INDEX [SPECIAL_EVERY]  (the numbers failures.jsonl records)
// Prints the input's kind and name, what the judge says (undefined = fine) and how long it took.
'use strict';
const { makeInput } = require('./inputs');
const { loadCore, runInput } = require('./run-input');

const [seed, index, every = '2500'] = process.argv.slice(2);
if (seed === undefined || index === undefined) {
  console.error('usage: node test/fuzz/replay.js SEED INDEX [SPECIAL_EVERY]');
  process.exit(2);
}
const loaded = loadCore();
const input = makeInput(seed, Number(index), Number(every));
console.log(`${input.kind} ${input.name}${input.lines ? ' (line by line)' : ''}, ${(input.text ?? input.bytes).length} characters/bytes`);
const started = Date.now();
const problem = runInput(loaded, input, Number(index));
console.log(problem ? `${problem.kind}: ${problem.message}` : 'fine', `(${Date.now() - started} ms)`);
process.exitCode = problem ? 1 : 0;
