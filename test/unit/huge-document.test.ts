// One JSON document larger than one V8 string can hold: a 2 GB OTLP export, gzipped (a few MB on disk), generated
// here through zlib into a temp file (never held in memory), checked with the built CLI to the end. It used to end
// in a V8 fatal error; now it is read in parts (core/bytes.ts checkDocumentStream) and its findings are those of
// the few tool spans planted in it, one of whose traces spans the two resourceSpans (so two parts). Run time: the
// two passes over 2 GB of text, about a minute on an idle two-core machine (several on a busy one);
// CG_HUGE_DOC_MB sets a smaller size while developing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const MB = Number(process.env.CG_HUGE_DOC_MB ?? 2048);

const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
const PAD = 'x'.repeat(640);

/** A planted model call (get_hours with `weekday: true`: a type-drift) and where its spans go. */
interface Planted {
  callId: string;
  traceId: string;
  /** The 1-based line of its chat span (where the finding points). */
  line?: number;
}

/**
 * Write the export: two resourceSpans of plain HTTP spans (traces of 50 spans, one span per line), with a GenAI
 * trace (a chat span whose tool call has a drifted argument, and the execute_tool span answering it) planted at a
 * few places; the last planted trace's chat span ends the first resourceSpans, its tool span starts the second.
 */
async function writeExport(file: string, megabytes: number): Promise<{ planted: Planted[]; bytes: number }> {
  const gzip = createGzip({ level: 1 });
  const out = createWriteStream(file);
  gzip.pipe(out);
  let bytes = 0;
  let line = 1;
  let batch: string[] = [];
  let batchBytes = 0;
  const write = async (text: string) => {
    batch.push(text);
    batchBytes += text.length;
    bytes += text.length;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) line++;
    if (batchBytes < 1 << 20) return;
    const chunk = batch.join('');
    batch = [];
    batchBytes = 0;
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  const target = megabytes * 2 ** 20;
  const planted: Planted[] = [0.1, 0.3, 0.45, 0.8].map((_, i) => ({ callId: `call_planted_${i}`, traceId: `feed${String(i).padStart(28, '0')}` }));
  const plantAt = [0.1, 0.3, 0.45].map((f) => f * target);
  let n = 0;
  let first = true;
  const span = async (o: object) => {
    await write((first ? '' : ',\n') + JSON.stringify(o));
    first = false;
  };
  const chat = async (p: Planted) => {
    const output = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: p.callId, name: 'get_hours', arguments: { building: 'Killam', weekday: true } }] }]);
    if (!first) await write(',\n');
    first = true;
    p.line = line;
    await span({ traceId: p.traceId, spanId: `${p.callId}_chat`, name: 'chat', kind: 3, startTimeUnixNano: '1000', endTimeUnixNano: '2000', attributes: [s('gen_ai.operation.name', 'chat'), s('gen_ai.output.messages', output)] });
  };
  const tool = (p: Planted) => span({ traceId: p.traceId, spanId: `${p.callId}_tool`, parentSpanId: `${p.callId}_chat`, name: 'execute_tool get_hours', kind: 1, startTimeUnixNano: '3000', endTimeUnixNano: '4000', status: { code: 1 },
    attributes: [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', 'get_hours'), s('gen_ai.tool.call.id', p.callId), s('gen_ai.tool.call.result', '{"open": "08:00"}')] });
  const plain = () => {
    const trace = Math.floor(n / 50).toString(16).padStart(32, '0');
    const t = String(1_700_000_000_000_000_000n + BigInt(n) * 1000n);
    n++;
    return span({ traceId: trace, spanId: n.toString(16).padStart(16, '0'), name: 'GET /api/catalog/items', kind: 2, startTimeUnixNano: t, endTimeUnixNano: t,
      attributes: [s('http.request.method', 'GET'), s('url.full', `https://shop.example/api/catalog/items?page=${n}&q=${PAD}`), { key: 'http.response.status_code', value: { intValue: '200' } }], status: {} });
  };
  const resource = (name: string) => `{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"${name}"}}]},"scopeSpans":[{"scope":{"name":"http"},"spans":[\n`;
  await write(`{"resourceSpans":[${resource('shop')}`);
  let next = 0;
  while (bytes < target / 2) {
    if (next < plantAt.length && bytes >= plantAt[next]) {
      await chat(planted[next]);
      await tool(planted[next]);
      next++;
    } else await plain();
  }
  await chat(planted[3]);
  await write(`\n]}]},\n${resource('agent')}`);
  first = true;
  await tool(planted[3]);
  while (bytes < target) await plain();
  await write('\n]}]}]}\n');
  gzip.end(batch.join(''));
  await once(out, 'finish');
  return { planted, bytes };
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

interface Diagnostic {
  code: string;
  severity: string;
  line: number;
  tool?: string;
  callId?: string;
  message: string;
}

test(`a ${MB} MB one-document OTLP .json.gz is checked to the end`, { skip: !existsSync(CLI) && 'dist/cli.js is built by `npm run build`' }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cg-huge-'));
  try {
    const file = path.join(dir, 'export.json.gz');
    const { planted, bytes } = await writeExport(file, MB);
    assert.ok(bytes >= MB * 2 ** 20, 'the document is as large as asked');
    if (MB >= 1024) assert.ok(bytes > 0x1fffffe8, 'more characters than one V8 string holds');
    assert.ok(statSync(file).size < bytes / 20, 'gzipped small on disk');
    const r = await runCli(['check', file, '--contracts', 'fixtures/contracts', '--format', 'json']);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 1, 'errors were found (exit 1), not a limit (exit 2) nor a crash');
    const doc = JSON.parse(r.stdout) as { files: { format: string; calls: number; diagnostics: Diagnostic[] }[] };
    const [checked] = doc.files;
    assert.equal(checked.format, 'otel');
    assert.equal(checked.calls, planted.length);
    const drift = checked.diagnostics.filter((d) => d.code === 'type-drift');
    assert.deepEqual(
      drift.map((d) => ({ callId: d.callId, tool: d.tool, line: d.line, message: d.message })),
      planted.map((p) => ({ callId: p.callId, tool: 'get_hours', line: p.line, message: 'weekday wanted integer, got boolean true' })),
    );
    // every call found its result, also the one whose spans are in two resourceSpans
    assert.deepEqual(checked.diagnostics.filter((d) => d.code !== 'type-drift').map((d) => d.code), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
