// The floor: the least any checker must do. Stream the JSONL, JSON.parse each line, decode each call's arguments,
// and run a precompiled ajv validator (same options and regex engine as the checker) per call. Nothing else.
'use strict';
const fs = require('node:fs');
const readline = require('node:readline');
const { validators: compileValidators } = require('./validators');

async function main(file, contractsDir) {
  const validators = compileValidators(contractsDir);
  let calls = 0;
  let invalid = 0;
  const rl = readline.createInterface({ input: fs.createReadStream(file, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line) continue;
    const doc = JSON.parse(line);
    for (const m of doc.messages) {
      if (!m.tool_calls) continue;
      for (const tc of m.tool_calls) {
        calls += 1;
        const v = validators[tc.function.name];
        if (v && !v(JSON.parse(tc.function.arguments))) invalid += 1;
      }
    }
  }
  process.stdout.write(JSON.stringify({ calls, invalid }) + '\n');
}

main(process.argv[2], process.argv[3] || 'fixtures/contracts');
