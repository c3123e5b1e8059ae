// npm run bench: times `contract-guard check --format json` on a large generated trace against a floor (JSON.parse
// per line + a precompiled ajv validator per call, nothing else) and, where Debian's python3-jsonschema is
// installed, a Python checker a user would write. All in one run, on the same file; then `compare` of the fine-tune
// trace (A) with a second run of it (B: another seed, with a shape A never had) against checking A and B:
//   compare: compare/(check A + check B) R.RR, peak RSS N MB
// The last line is the verdict:
//   bench: check/floor R.RR, python/check P.P, peak RSS N MB
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { generate } = require('./generate');
const { formatCases } = require('./formats');
const { smallFilesCase } = require('./small-files');

const ROOT = path.resolve(__dirname, '..', '..');
const MB = Number(process.env.BENCH_MB || 100);
const RUNS = Number(process.env.BENCH_RUNS || 2);
const dir = path.join(ROOT, '.bench');
/** `check` runs with its default --jobs: every core. */
const JOBS = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
const FORMATS = ['json', 'jsonl', 'sarif', 'text', 'markdown'];
fs.mkdirSync(dir, { recursive: true });

/** Run a command; Node commands are measured from inside too (peak RSS and CPU seconds, through rss.js). */
function time(cmd, args) {
  const measured = cmd === 'node';
  const rssFile = path.join(os.tmpdir(), `cg-bench-rss-${process.pid}`);
  fs.rmSync(rssFile, { force: true });
  const env = { ...process.env, BENCH_RSS_FILE: measured ? rssFile : '' };
  const argv = measured ? ['--require', path.join(__dirname, 'rss.js'), ...args] : args;
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd: ROOT, env, maxBuffer: 1 << 30, encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const inside = measured && fs.existsSync(rssFile) ? JSON.parse(fs.readFileSync(rssFile, 'utf8')) : undefined;
  return { seconds, stdout: r.stdout, peakMb: inside ? inside.maxRssKb / 1024 : undefined, cpu: inside?.cpuSeconds };
}

function best(runs, f) {
  let out;
  for (let i = 0; i < runs; i++) {
    const r = f();
    if (!out) out = r;
    else out = { ...(r.seconds < out.seconds ? r : out), cpu: Math.min(r.cpu ?? Infinity, out.cpu ?? Infinity), peakMb: Math.max(r.peakMb ?? 0, out.peakMb ?? 0) };
  }
  return out;
}

function hasPythonJsonschema() {
  return spawnSync('/usr/bin/python3', ['-c', 'import jsonschema'], { stdio: 'ignore' }).status === 0;
}

/** Cases: each a generated trace and the floor that reads it. Other formats add entries here. */
const CASES = [
  {
    name: 'openai fine-tune JSONL',
    file: path.join(dir, `finetune-${MB}mb.v2.jsonl`), // bump the version when generate.js writes something else
    generate: (file) => generate(file, MB, path.join(ROOT, 'fixtures', 'contracts')),
    floor: (file) => ['node', [path.join(__dirname, 'floor.js'), file, 'fixtures/contracts']],
    python: (file) => ['/usr/bin/python3', [path.join(__dirname, 'floor.py'), file, 'fixtures/contracts']],
  },
  // Two of the trace formats of issue 7 (Claude Code session JSONL, OTLP JSON), each with its own floor.
  ...formatCases(dir, MB, ROOT),
];

/** compare A B, timed against the two checks it replaces (check A is the fine-tune case's, measured above). */
function compareCase(a, checkA) {
  const b = path.join(dir, `finetune-${MB}mb.v2.variant43.jsonl`);
  if (!fs.existsSync(b)) {
    const g = generate(b, MB, path.join(ROOT, 'fixtures', 'contracts'), 43, true);
    console.log(`generated ${path.relative(ROOT, b)}: ${(g.bytes / 1048576).toFixed(1)} MB, ${g.calls} calls, ${g.lines} lines`);
  }
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const checkB = best(RUNS, () => time('node', [cli, 'check', b, '--contracts', 'fixtures/contracts', '--format', 'json']));
  const cmp = best(RUNS, () => time('node', [cli, 'compare', a, b, '--contracts', 'fixtures/contracts', '--format', 'json']));
  const doc = JSON.parse(cmp.stdout);
  const checks = checkA.seconds + checkB.seconds;
  const ratio = cmp.seconds / checks;
  const cpu = cmp.cpu && checkA.cpu && checkB.cpu ? cmp.cpu / (checkA.cpu + checkB.cpu) : undefined;
  console.log(`compare of two ${MB} MB runs: ${doc.a.calls} and ${doc.b.calls} calls; B has ${doc.newShapes} new shapes, ${doc.findings.new.length} new, ${doc.findings.fixed.length} fixed and ${doc.findings.unchanged.length} unchanged findings`);
  console.log(`  check A ${checkA.seconds.toFixed(2)} s + check B ${checkB.seconds.toFixed(2)} s = ${checks.toFixed(2)} s; compare A B ${cmp.seconds.toFixed(2)} s, peak RSS ${cmp.peakMb.toFixed(0)} MB (check ${Math.max(checkA.peakMb, checkB.peakMb).toFixed(0)} MB)`);
  console.log(`compare: compare/(check A + check B) ${ratio.toFixed(2)} wall${cpu ? `, ${cpu.toFixed(2)} CPU` : ''}, peak RSS ${cmp.peakMb.toFixed(0)} MB`);
}

function main() {
  let verdict;
  for (const c of CASES) {
    if (!fs.existsSync(c.file)) {
      const g = c.generate(c.file);
      console.log(`generated ${path.relative(ROOT, c.file)}: ${(g.bytes / 1048576).toFixed(1)} MB, ${g.calls} calls, ${g.lines} lines`);
    }
    const size = fs.statSync(c.file).size / 1048576;
    const [fcmd, fargs] = c.floor(c.file);
    const floor = best(RUNS, () => time(fcmd, fargs));
    const check = best(RUNS, () => time('node', [path.join(ROOT, 'dist', 'cli.js'), 'check', c.file, '--contracts', 'fixtures/contracts', '--format', 'json']));
    const report = JSON.parse(check.stdout);
    const floorOut = JSON.parse(floor.stdout);
    const s = report.summary;
    console.log(`${c.name}: ${size.toFixed(1)} MB, ${s.calls} calls (floor saw ${floorOut.calls}, ${floorOut.invalid} invalid); findings: ${s.error} errors, ${s.warning} warnings, ${s.info} info`);
    console.log(`  floor ${floor.seconds.toFixed(2)} s, check ${check.seconds.toFixed(2)} s (${(s.calls / check.seconds / 1000).toFixed(0)}k calls/s, ${(size / check.seconds).toFixed(1)} MB/s), peak RSS ${check.peakMb.toFixed(0)} MB`);
    let python;
    if (c.python && hasPythonJsonschema()) {
      const [pcmd, pargs] = c.python(c.file);
      python = time(pcmd, pargs);
      console.log(`  python (json.loads + jsonschema.validate) ${python.seconds.toFixed(2)} s`);
    }
    const ratio = check.seconds / floor.seconds;
    const cpuRatio = check.cpu && floor.cpu ? check.cpu / floor.cpu : undefined;
    console.log(`  check/floor ${ratio.toFixed(2)} wall` + (cpuRatio ? `, ${cpuRatio.toFixed(2)} CPU (${check.cpu.toFixed(2)} s / ${floor.cpu.toFixed(2)} s)` : '') + ` (check on ${JOBS} threads, floor on one)`);
    // the report is written as it is made: peak RSS in every output format (the JSONL cases; OTLP is one document)
    if (/\.jsonl$/.test(c.file)) {
      const peaks = FORMATS.map((f) => `${f} ${(f === 'json' ? check : time('node', [path.join(ROOT, 'dist', 'cli.js'), 'check', c.file, '--contracts', 'fixtures/contracts', '--format', f, '--output', path.join(dir, 'report.out')])).peakMb.toFixed(0)} MB`);
      console.log(`  peak RSS by format: ${peaks.join(', ')}`);
    }
    verdict ??= { ratio, cpuRatio, python: python ? python.seconds / check.seconds : undefined, rss: check.peakMb, file: c.file, check };
  }
  compareCase(verdict.file, verdict.check);
  // the recording proxy's overhead against the fake upstream called directly (two lines)
  spawnSync('node', [path.join(__dirname, 'proxy.js')], { cwd: ROOT, stdio: 'inherit' });
  // session state: one appended line checked from the saved state, and peak RSS of one long session (append.js)
  spawnSync('node', [path.join(__dirname, 'append.js')], { cwd: ROOT, stdio: 'inherit' });
  // one large JSON document read in parts, plain and gzipped: peak RSS (huge-document.js, one line)
  spawnSync('node', [path.join(__dirname, 'huge-document.js')], { cwd: ROOT, stdio: 'inherit' });
  const py = verdict.python === undefined ? 'n/a (python3-jsonschema not installed)' : verdict.python.toFixed(1);
  if (verdict.cpuRatio) console.log(`(CPU time, steadier on a busy machine: check/floor ${verdict.cpuRatio.toFixed(2)})`);
  console.log(`bench: check/floor ${verdict.ratio.toFixed(2)}, python/check ${py}, peak RSS ${verdict.rss.toFixed(0)} MB`);
}

main();
smallFilesCase(ROOT, dir, time).catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
