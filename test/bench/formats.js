// Bench cases in two of the formats added for issue 7, on the same seed calls as the fine-tune case:
// - Claude Code session JSONL: one record per line, each API message over two lines (text, then tool_use
//   blocks, sharing message.id), tool_result lines with is_error and a structured toolUseResult; a new sessionId
//   every 200 turns, a sidechain now and then.
// Like a real agent (and the fine-tune case), each session lists the rooms before it books one.
// - OpenTelemetry OTLP JSON: one document of resourceSpans; per trace a chat span whose gen_ai.output.messages
//   (a JSON string) holds tool_call parts, and an execute_tool span per call with its result and span status.
// Each case has a floor: the least a checker of that format must do (parse, find the calls, run a precompiled ajv
// validator per call), in floor-formats.js.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { makeCall, rng, ROOMS } = require('./generate');

function writer(file) {
  const fd = fs.openSync(file, 'w');
  const chunk = [];
  let bytes = 0;
  return {
    write(s) {
      chunk.push(s);
      bytes += Buffer.byteLength(s);
      if (chunk.length >= 1000) fs.writeSync(fd, chunk.splice(0).join(''));
    },
    get bytes() {
      return bytes;
    },
    close() {
      fs.writeSync(fd, chunk.join(''));
      fs.closeSync(fd);
    },
  };
}

/** `options.sessionTurns`: turns per sessionId (default 200; Infinity: one session); `options.sidechains`: the share
 *  of turns run as sidechains, sessions of their own (default 0.05); `options.writer`: where the lines go instead of
 *  `file` (an object with write, bytes and close, like `writer`). */
function generateClaudeCode(file, megabytes, seed = 7, options = {}) {
  const r = rng(seed);
  const w = options.writer ?? writer(file);
  const sessionTurns = options.sessionTurns ?? 200;
  const sidechains = options.sidechains ?? 0.05;
  const target = megabytes * 1024 * 1024;
  let calls = 0;
  let lines = 0;
  let turn = 0;
  let parent = null;
  let uuid = 0;
  const line = (o) => {
    w.write(JSON.stringify(o) + '\n');
    lines += 1;
  };
  let listedIn = '';
  while (w.bytes < target) {
    const sessionId = `session-${Math.floor(turn / sessionTurns)}`;
    const sidechain = r() < sidechains;
    const base = { parentUuid: parent, isSidechain: sidechain, userType: 'external', cwd: '/home/dev/campus', sessionId, version: '1.0.0' };
    const next = () => `u-${(uuid += 1)}`;
    const u = next();
    line({ ...base, type: 'user', uuid: u, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: `Turn ${turn}: plan my day around the library and the weather.` } });
    const msgId = `msg_${turn}`;
    const k = 1 + Math.floor(r() * 3);
    const uses = [];
    for (let i = 0; i < k; i++) {
      let c = makeCall(r);
      if (c.name === 'book_room' && listedIn !== sessionId) c = { name: 'list_rooms', args: { quiet_only: false } };
      if (c.name === 'list_rooms') listedIn = sessionId;
      uses.push({ type: 'tool_use', id: `toolu_${turn}_${i}`, name: c.name, input: c.args });
    }
    const a1 = next();
    line({ ...base, parentUuid: u, type: 'assistant', uuid: a1, requestId: `req_${turn}`, message: { id: msgId, type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'Let me check.' }] } });
    const a2 = next();
    line({ ...base, parentUuid: a1, type: 'assistant', uuid: a2, requestId: `req_${turn}`, message: { id: msgId, type: 'message', role: 'assistant', model: 'claude', content: uses } });
    let p = a2;
    for (const use of uses) {
      const res = next();
      line({ ...base, parentUuid: p, type: 'user', uuid: res, toolUseResult: { ok: true, n: turn },
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: JSON.stringify({ ok: true, error: null, result: use.name === 'list_rooms' ? { rooms: ROOMS } : { note: 'done' } }), is_error: false }] } });
      p = res;
    }
    parent = p;
    calls += k;
    turn += 1;
  }
  w.close();
  return { bytes: w.bytes, calls, lines };
}

function generateOtlp(file, megabytes, seed = 11) {
  const r = rng(seed);
  const w = writer(file);
  const target = megabytes * 1024 * 1024;
  const s = (key, value) => ({ key, value: { stringValue: value } });
  let calls = 0;
  let spans = 0;
  let t = 0;
  w.write('{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"campus-agent"}}]},"scopeSpans":[{"scope":{"name":"bench"},"spans":[\n');
  let first = true;
  const span = (o) => {
    w.write((first ? '' : ',\n') + JSON.stringify(o));
    first = false;
    spans += 1;
  };
  while (w.bytes < target) {
    const traceId = t.toString(16).padStart(32, '0');
    const k = 1 + Math.floor(r() * 3);
    const parts = [];
    for (let i = 0; i < k; i++) {
      const c = makeCall(r);
      parts.push({ type: 'tool_call', id: `call_${t}_${i}`, name: c.name, arguments: c.args });
    }
    const start = BigInt(t + 1) * 1000000n;
    if (parts.some((p) => p.name === 'book_room')) {
      const id = `call_${t}_list`;
      span({ traceId, spanId: `${t}l`, name: 'chat campus', kind: 3, startTimeUnixNano: String(start - 200n), endTimeUnixNano: String(start - 150n), status: { code: 1 },
        attributes: [s('gen_ai.operation.name', 'chat'), s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id, name: 'list_rooms', arguments: { quiet_only: false } }] }]))] });
      span({ traceId, spanId: `${t}m`, parentSpanId: `${t}l`, name: 'execute_tool list_rooms', kind: 1, startTimeUnixNano: String(start - 100n), endTimeUnixNano: String(start - 50n), status: { code: 1 },
        attributes: [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', 'list_rooms'), s('gen_ai.tool.call.id', id),
          s('gen_ai.tool.call.result', JSON.stringify({ ok: true, error: null, result: { rooms: ROOMS } }))] });
      calls += 1;
    }
    span({ traceId, spanId: `${t}a`, name: 'chat campus', kind: 3, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 500n), status: { code: 1 },
      attributes: [s('gen_ai.operation.name', 'chat'), s('gen_ai.request.model', 'bench-model'),
        s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Let me check.' }, ...parts] }]))] });
    parts.forEach((p, i) => {
      const failed = r() < 0.05;
      span({ traceId, spanId: `${t}b${i}`, parentSpanId: `${t}a`, name: `execute_tool ${p.name}`, kind: 1,
        startTimeUnixNano: String(start + 600n + BigInt(i)), endTimeUnixNano: String(start + 900n + BigInt(i)), status: { code: failed ? 2 : 1 },
        attributes: [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', p.name), s('gen_ai.tool.call.id', p.id),
          s('gen_ai.tool.call.result', JSON.stringify(failed ? { ok: false, error: 'unavailable', result: null } : { ok: true, error: null, result: { note: 'done' } }))] });
    });
    calls += k;
    t += 1;
  }
  w.write('\n]}]}]}\n');
  w.close();
  return { bytes: w.bytes, calls, lines: spans };
}

/** Bench cases for bench.js's CASES, in the same shape as its fine-tune case. */
function formatCases(dir, megabytes, root) {
  const floor = (format) => (file) => ['node', [path.join(__dirname, 'floor-formats.js'), format, file, 'fixtures/contracts']];
  return [
    { name: 'Claude Code session JSONL', file: path.join(dir, `claude-code-${megabytes}mb.jsonl`), generate: (file) => generateClaudeCode(file, megabytes), floor: floor('claude-code') },
    { name: 'OpenTelemetry OTLP JSON', file: path.join(dir, `otlp-${megabytes}mb.json`), generate: (file) => generateOtlp(file, megabytes), floor: floor('otlp') },
  ].map((c) => ({ ...c, root }));
}

module.exports = { generateClaudeCode, generateOtlp, formatCases };

if (require.main === module) {
  const [format = 'claude-code', file = '.bench/cc.jsonl', mb = '10'] = process.argv.slice(2);
  console.log((format === 'otlp' ? generateOtlp : generateClaudeCode)(file, Number(mb)));
}
