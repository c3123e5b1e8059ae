// The recording proxy's overhead: the same exchanges sent to the scripted fake upstream (test/live/fake-upstream.js)
// directly and through `contract-guard record` (each in a process of its own; the client here, over keep-alive
// HTTP). Prints one line each:
//   proxy: added latency per exchange p50 +A ms, p99 +B ms (direct p50 .. / p99 .., through p50 .. / p99 ..; N exchanges)
//   proxy: time to first streamed byte p50 direct A ms, through B ms (+C ms); p99 direct .., through ..
// Run alone: `node test/bench/proxy.js` (BENCH_PROXY_N exchanges of each kind, default 400). Timings on a shared
// machine are noisy: the p50s are the figures to read.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const N = Number(process.env.BENCH_PROXY_N || 400);
const TOOLS = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' } } } } }];

/** Start a process and wait for its `listening on URL` line. */
function serve(args) {
  const child = spawn('node', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(buf);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One exchange; resolves with [ms to the first body byte, ms to the end]. */
function exchange(base, body) {
  const url = new URL('/v1/chat/completions', base);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), authorization: 'Bearer sk-bench-invented' } }, (res) => {
      let first;
      res.on('data', () => {
        first ??= ms();
      });
      res.on('end', () => resolve([first ?? ms(), ms()]));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function measure(base, stream) {
  const body = { model: 'weather', stream, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: TOOLS };
  for (let i = 0; i < 20; i++) await exchange(base, body); // warm up connections and code
  const first = [];
  const whole = [];
  for (let i = 0; i < N; i++) {
    const [f, w] = await exchange(base, body);
    first.push(f);
    whole.push(w);
  }
  return { first, whole };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-proxy-'));
  const started = [];
  try {
    const upstream = await serve([path.join(ROOT, 'test', 'live', 'fake-upstream.js')]);
    started.push(upstream.child);
    const proxy = await serve([path.join(ROOT, 'dist', 'cli.js'), 'record', '--upstream', upstream.url, '--out', path.join(dir, 'bench.jsonl')]);
    started.push(proxy.child);
    const f = (x) => x.toFixed(2);
    const directPlain = await measure(upstream.url, false);
    const throughPlain = await measure(proxy.url, false);
    const dp50 = pct(directPlain.whole, 50), dp99 = pct(directPlain.whole, 99), tp50 = pct(throughPlain.whole, 50), tp99 = pct(throughPlain.whole, 99);
    console.log(`proxy: added latency per exchange p50 +${f(tp50 - dp50)} ms, p99 +${f(tp99 - dp99)} ms (direct p50 ${f(dp50)} / p99 ${f(dp99)} ms, through p50 ${f(tp50)} / p99 ${f(tp99)} ms; ${N} exchanges, recorded and checked)`);
    const directStream = await measure(upstream.url, true);
    const throughStream = await measure(proxy.url, true);
    const d50 = pct(directStream.first, 50), t50 = pct(throughStream.first, 50);
    console.log(`proxy: time to first streamed byte p50 direct ${f(d50)} ms, through ${f(t50)} ms (+${f(t50 - d50)} ms); p99 direct ${f(pct(directStream.first, 99))}, through ${f(pct(throughStream.first, 99))} ms`);
    const lines = fs.readFileSync(path.join(dir, 'bench.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    if (lines !== 2 * (N + 20)) throw new Error(`the recording has ${lines} lines, not ${2 * (N + 20)}`);
  } finally {
    agent.destroy();
    for (const c of started) c.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`proxy bench: ${e.message}`);
  process.exitCode = 1;
});
