// Floors for the format cases (formats.js): the least a checker of each format must do. Claude Code: stream the
// JSONL, JSON.parse each line, take the tool_use blocks, validate each input with a precompiled ajv validator.
// OTLP: JSON.parse the document, walk the spans, JSON.parse each gen_ai.output.messages string, validate each
// tool_call part's arguments. Same ajv options and regex engine as the checker; nothing else.
'use strict';
const fs = require('node:fs');
const readline = require('node:readline');
const { validators } = require('./validators');

async function claudeCode(file, v) {
  let calls = 0;
  let invalid = 0;
  const rl = readline.createInterface({ input: fs.createReadStream(file, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line) continue;
    const rec = JSON.parse(line);
    if (rec.type !== 'assistant' || !Array.isArray(rec.message.content)) continue;
    for (const b of rec.message.content) {
      if (b.type !== 'tool_use') continue;
      calls += 1;
      const f = v[b.name];
      if (f && !f(b.input)) invalid += 1;
    }
  }
  return { calls, invalid };
}

function otlp(file, v) {
  let calls = 0;
  let invalid = 0;
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const rs of doc.resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        const out = span.attributes.find((a) => a.key === 'gen_ai.output.messages');
        if (!out) continue;
        for (const m of JSON.parse(out.value.stringValue)) {
          for (const p of m.parts) {
            if (p.type !== 'tool_call') continue;
            calls += 1;
            const f = v[p.name];
            if (f && !f(p.arguments)) invalid += 1;
          }
        }
      }
    }
  }
  return { calls, invalid };
}

async function main(format, file, contractsDir) {
  const v = validators(contractsDir);
  const r = format === 'otlp' ? otlp(file, v) : await claudeCode(file, v);
  process.stdout.write(JSON.stringify(r) + '\n');
}

main(process.argv[2], process.argv[3], process.argv[4] || 'fixtures/contracts');
