// Issue 13.1: session state bounded by what the checks need, and resumable. Two figures:
// - append: a 100 MB one-session Claude Code trace is checked whole, its state handed over (`snapshot`), one line
//   appended and checked from that state (`resume`): the time of that against the full check (goal < 1%);
// - memory: peak RSS of `check` on a 500 MB one-session `.jsonl.gz` (generated streaming, gzipped through zlib)
//   against the 100 MB one (goal ≤ 300 MB and flat).
// Sizes shrink with BENCH_MB (100 by default: 100 MB and 5 × 100 MB). Needs `npm run build` (dist/ and out/).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');
const { generateClaudeCode } = require('./formats');

const ROOT = path.resolve(__dirname, '..', '..');
const MB = Number(process.env.BENCH_MB || 100);
const dir = path.join(ROOT, '.bench');
const core = require(path.join(ROOT, 'out', 'src', 'core'));

/** A writer (formats.js's shape) that gzips as it goes: each chunk is a gzip member, so nothing is held whole. */
function gzipWriter(file) {
  const fd = fs.openSync(file, 'w');
  const chunk = [];
  let bytes = 0;
  const flush = () => fs.writeSync(fd, zlib.gzipSync(chunk.splice(0).join(''), { level: 1 }));
  return {
    write(s) {
      chunk.push(s);
      bytes += Buffer.byteLength(s);
      if (chunk.length >= 5000) flush();
    },
    get bytes() {
      return bytes;
    },
    close() {
      flush();
      fs.closeSync(fd);
    },
  };
}

function ensure(file, make) {
  if (!fs.existsSync(file)) make(file);
  return file;
}

function contracts() {
  const cdir = path.join(ROOT, 'fixtures', 'contracts');
  const files = fs.readdirSync(cdir).filter((f) => f.endsWith('.json')).map((f) => ({ path: `fixtures/contracts/${f}`, text: fs.readFileSync(path.join(cdir, f), 'utf8') }));
  return core.loadContracts(files).contracts;
}

function appendCase(file) {
  const text = fs.readFileSync(file, 'utf8');
  const options = { fileName: file, contracts: contracts() };
  const t0 = process.hrtime.bigint();
  const checker = new core.TraceChecker(options);
  let base = 0;
  for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', base)) {
    checker.addLine(text.slice(base, end), base);
    base = end + 1;
  }
  const full = checker.peek();
  const state = checker.snapshot();
  const fullMs = Number(process.hrtime.bigint() - t0) / 1e6;
  // one more call of the same session, as an agent would append it
  const last = JSON.parse(text.slice(text.lastIndexOf('\n', text.length - 2) + 1));
  const appended = JSON.stringify({ ...last, uuid: 'u-appended', parentUuid: last.uuid, type: 'assistant', toolUseResult: undefined,
    message: { id: 'msg_appended', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'tool_use', id: 'toolu_appended', name: 'get_weather', input: { city: 'Lisbon', units: 'kelvin' } }] } });
  const t1 = process.hrtime.bigint();
  const resumed = new core.TraceChecker({ ...options, resume: state });
  resumed.addLine(appended, base);
  const after = resumed.finish();
  const appendMs = Number(process.hrtime.bigint() - t1) / 1e6;
  // the same as checking the whole text with the line, the session held whole (onSession asks for it whole)
  const whole = core.checkText(text + appended + '\n', { ...options, onSession: () => undefined });
  const same = JSON.stringify(whole.findings) === JSON.stringify(after.findings);
  console.log(`  full check ${(fullMs / 1000).toFixed(2)} s (${full.calls} calls, ${full.sessions} session${full.sessions === 1 ? '' : 's'}, ${full.findings.length} findings); one appended line from the state ${appendMs.toFixed(1)} ms; same findings as a whole check: ${same ? 'yes' : 'NO'}`);
  console.log(`append: one appended line from saved state ${(appendMs / fullMs).toFixed(4)} of the full check`);
  if (!same) process.exitCode = 1;
}

function peakMb(file) {
  const out = path.join(dir, 'append-rss.json');
  const r = spawnSync('node', ['--require', path.join(__dirname, 'rss.js'), path.join(ROOT, 'dist', 'cli.js'), 'check', file, '--contracts', 'fixtures/contracts', '--format', 'json', '--output', path.join(dir, 'report.out')],
    { cwd: ROOT, env: { ...process.env, BENCH_RSS_FILE: out }, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0 && r.status !== 1) throw new Error(`check ${file} exited ${r.status}`);
  return JSON.parse(fs.readFileSync(out, 'utf8')).maxRssKb / 1024;
}

function main() {
  fs.mkdirSync(dir, { recursive: true });
  const one = ensure(path.join(dir, `claude-code-session-${MB}mb.jsonl`), (f) => generateClaudeCode(f, MB, 7, { sessionTurns: Infinity, sidechains: 0 }));
  console.log(`append and session state (${MB} MB one-session Claude Code trace):`);
  appendCase(one);
  const big = ensure(path.join(dir, `claude-code-session-${5 * MB}mb.jsonl.gz`), (f) => generateClaudeCode(f, 5 * MB, 7, { sessionTurns: Infinity, sidechains: 0, writer: gzipWriter(f) }));
  const small = peakMb(one);
  const large = peakMb(big);
  console.log(`session state: peak RSS ${small.toFixed(0)} MB on ${MB} MB, ${large.toFixed(0)} MB on ${5 * MB} MB (.jsonl.gz) of one session (goal ≤ 300 MB, flat)`);
}

main();
