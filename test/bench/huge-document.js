// One large JSON document read in parts (core/bytes.ts checkDocumentStream): `check` on the OTLP bench document
// (one document of resourceSpans, BENCH_MB, 100 MB by default), plain and gzipped, its peak RSS against the goal
// (300 MB; reading it whole peaked at 614 MB). One line:
//   huge document: 100 MB OTLP JSON, peak RSS N MB (goal ≤ 300 MB), S s; as .json.gz N MB, S s
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { generateOtlp } = require('./formats');

const ROOT = path.resolve(__dirname, '..', '..');
const MB = Number(process.env.BENCH_MB || 100);
const GOAL_MB = 300;
const dir = path.join(ROOT, '.bench');

/** `check --format json` of one file, measured from inside (rss.js): seconds and peak RSS. */
function check(file) {
  const rssFile = path.join(os.tmpdir(), `cg-bench-huge-${process.pid}`);
  fs.rmSync(rssFile, { force: true });
  const started = process.hrtime.bigint();
  const r = spawnSync('node', ['--require', path.join(__dirname, 'rss.js'), path.join(ROOT, 'dist', 'cli.js'), 'check', file, '--contracts', 'fixtures/contracts', '--format', 'json'],
    { cwd: ROOT, env: { ...process.env, BENCH_RSS_FILE: rssFile }, maxBuffer: 1 << 30, encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0 && r.status !== 1) throw new Error(`check ${file} failed (${r.status}): ${r.stderr}`);
  const calls = JSON.parse(r.stdout).summary.calls;
  return { seconds, calls, peakMb: JSON.parse(fs.readFileSync(rssFile, 'utf8')).maxRssKb / 1024 };
}

function main() {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `otlp-${MB}mb.json`); // the same file formats.js's OTLP case checks
  if (!fs.existsSync(file)) generateOtlp(file, MB);
  const gz = `${file}.gz`;
  if (!fs.existsSync(gz)) fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(file), { level: 1 }));
  const plain = check(file);
  const zipped = check(gz);
  if (zipped.calls !== plain.calls) throw new Error(`the .json.gz read ${zipped.calls} calls, the .json ${plain.calls}`);
  console.log(`huge document: ${MB} MB OTLP JSON, ${plain.calls} calls, peak RSS ${plain.peakMb.toFixed(0)} MB (goal ≤ ${GOAL_MB} MB), ${plain.seconds.toFixed(2)} s; as .json.gz ${zipped.peakMb.toFixed(0)} MB, ${zipped.seconds.toFixed(2)} s`);
}

main();
