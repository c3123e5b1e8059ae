// The recording proxy when things go wrong, driven as a user runs it (the built CLI, `contract-guard record`) with
// the official openai client: the upstream refusing connections, closing mid-stream; the client going away
// mid-stream; `kill -9` of the proxy mid-stream. Nothing recorded is lost, nothing hangs: every step has a
// timeout and every process started here is killed at the end.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import OpenAI from 'openai';
import { CHAT_TOOLS, checked, CLI, fake, OPENAI_KEY, type FakeUpstream } from './live-record-helpers';


interface Running {
  child: ChildProcess;
  url: string;
  stdout: string[];
  stderr: string[];
}

const started: ChildProcess[] = [];

/** `contract-guard record` on a free port; resolves with the URL its first line names. */
function record(upstream: string, out: string, ...flags: string[]): Promise<Running> {
  const child = spawn('node', [CLI, 'record', '--upstream', upstream, '--out', out, ...flags], { cwd: path.dirname(out), stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const run: Running = { child, url: '', stdout: [], stderr: [] };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`record did not start: ${run.stderr.join('')}`)), 10_000);
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        run.stdout.push(l);
        const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)\/ /.exec(l);
        if (m && !run.url) {
          run.url = m[1];
          clearTimeout(timer);
          resolve(run);
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => run.stderr.push(d));
    child.once('exit', (code) => reject(new Error(`record exited ${code}: ${run.stderr.join('')}`)));
  });
}

const until = async (what: string, ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('record: faults', { timeout: 90_000 }, () => {
  let upstream: FakeUpstream;
  let dir: string;

  before(async () => {
    upstream = await fake.startFakeUpstream();
    dir = mkdtempSync(path.join(os.tmpdir(), 'cg-record-faults-'));
  });

  after(async () => {
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const client = (url: string) => new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${url}/v1`, maxRetries: 0, timeout: 15_000 });
  const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: `ask ${model}` }], tools: CHAT_TOOLS });

  it('the upstream refusing connections: 502 with a one-line JSON error, recorded, and the proxy keeps serving', async () => {
    const out = path.join(dir, 'refused.jsonl');
    const run = await record(`http://127.0.0.1:${await deadPort()}`, out);
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${run.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ask('weather')) });
      assert.equal(r.status, 502);
      const text = await r.text();
      assert.equal(text.trim().split('\n').length, 1, 'one line');
      const body = JSON.parse(text) as { error: { type: string; message: string } };
      assert.equal(body.error.type, 'upstream_unreachable');
      assert.match(body.error.message, /ECONNREFUSED/);
    }
    await assert.rejects(client(run.url).chat.completions.create(ask('weather')), (e: { status?: number }) => e.status === 502);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(lines.length, 3);
    for (const l of lines) assert.equal((JSON.parse(l) as { recorded: { status: number } }).recorded.status, 502);
    assert.equal(run.child.exitCode, null, 'still running');
    run.child.kill('SIGTERM');
    await new Promise((r) => run.child.once('exit', r));
  });

  it('the upstream closing mid-stream: the client sees the cut, what came is recorded as incomplete', async () => {
    const out = path.join(dir, 'cut.jsonl');
    const run = await record(upstream.url, out);
    const stream = await client(run.url).chat.completions.create({ ...ask('cut'), stream: true as const });
    let chunks = 0;
    await assert.rejects(async () => {
      for await (const _ of stream) chunks += 1;
    });
    assert.ok(chunks > 0, 'the first chunks arrived');
    await until('the line', () => readFileSync(out, 'utf8').includes('\n'));
    const rec = JSON.parse(readFileSync(out, 'utf8').trim()) as { recorded: { incomplete: string }; choices: { message: { tool_calls: { function: { name: string } }[] } }[] };
    assert.match(rec.recorded.incomplete, /upstream closed/);
    assert.equal(rec.choices[0].message.tool_calls[0].function.name, 'get_weather');
    // and the next exchange goes through
    const ok = await client(run.url).chat.completions.create(ask('text'));
    assert.equal(ok.choices[0].message.content, 'It is sunny.');
    run.child.kill('SIGTERM');
    await new Promise((r) => run.child.once('exit', r));
  });

  it('the client going away mid-stream: recorded as incomplete, the upstream call stopped', async () => {
    const out = path.join(dir, 'gone.jsonl');
    const run = await record(upstream.url, out);
    const before = upstream.sent.length;
    const abort = new AbortController();
    const stream = await client(run.url).chat.completions.create({ ...ask('slow'), stream: true as const }, { signal: abort.signal });
    let chunks = 0;
    try {
      for await (const _ of stream) {
        chunks += 1;
        if (chunks === 3) abort.abort();
      }
    } catch {
      // an aborted stream may end or throw, as the SDK likes
    }
    assert.equal(chunks, 3, 'the client stopped reading at once');
    await until('the line', () => readFileSync(out, 'utf8').includes('\n'));
    const rec = JSON.parse(readFileSync(out, 'utf8').trim()) as { recorded: { incomplete: string }; choices: { message: { content: string } }[] };
    assert.match(rec.recorded.incomplete, /client closed/);
    assert.ok(rec.choices[0].message.content.startsWith('tick'));
    // the slow stream would take 4 s: it was stopped well before (its bytes stop growing)
    let sent = -1;
    while (upstream.sent[before].body.length !== sent) {
      sent = upstream.sent[before].body.length;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(sent < 20 * 150, `the upstream stream was stopped after a few events (${sent} bytes), not sent whole`);
    run.child.kill('SIGTERM');
    await new Promise((r) => run.child.once('exit', r));
  });

  it('kill -9 of the proxy mid-stream: earlier lines intact; a partial last line is one parse-error; it records on after a restart', async () => {
    const out = path.join(dir, 'killed.jsonl');
    let run = await record(upstream.url, out);
    const c = client(run.url);
    await c.chat.completions.create(ask('weather'));
    const s = await c.chat.completions.create({ ...ask('fenced'), stream: true as const });
    for await (const _ of s) void _;
    await until('two findings', () => run.stdout.filter((l) => l.startsWith('  ')).length >= 2);
    const slow = await c.chat.completions.create({ ...ask('slow'), stream: true as const });
    let chunks = 0;
    const reading = (async () => {
      for await (const _ of slow) {
        chunks += 1;
        if (chunks === 5) run.child.kill('SIGKILL');
      }
    })();
    await assert.rejects(reading);
    if (run.child.exitCode === null && run.child.signalCode === null) await new Promise((r) => run.child.once('exit', r));
    const text = readFileSync(out, 'utf8');
    const lines = text.split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a whole line');
    assert.equal(lines.length, 2);
    for (const l of lines) JSON.parse(l);
    let c1 = checked(out);
    assert.equal(c1.parseErrors, 0);
    assert.deepEqual(c1.places.filter((p) => /extra-key|arguments-encoding/.test(p)).map((p) => p.split(' ')[1]), ['extra-key', 'arguments-encoding']);
    // a crash in the middle of writing a line leaves a partial last line: one parse-error, the rest still read
    appendFileSync(out, lines[0].slice(0, 200));
    c1 = checked(out);
    assert.equal(c1.parseErrors, 1);
    assert.equal(c1.calls, 2);
    // a restarted proxy ends that line and records after it
    run = await record(upstream.url, out);
    await client(run.url).chat.completions.create(ask('weather'));
    await until('the new line', () => readFileSync(out, 'utf8').split('\n').length === 5);
    const c2 = checked(out);
    assert.equal(c2.parseErrors, 1);
    assert.equal(c2.calls, 3);
    run.child.kill('SIGTERM');
    await new Promise((r) => run.child.once('exit', r));
  });

  it('--contracts names the contract: it wins over the request tools (and their disagreement is schema-drift)', async () => {
    const out = path.join(dir, 'contracts.jsonl');
    const contract = path.join(dir, 'weather.contract.json');
    writeFileSync(contract, JSON.stringify([{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' }, lang: { type: 'string' } }, required: ['city'] } } }]));
    const run = await record(upstream.url, out, '--contracts', contract);
    await client(run.url).chat.completions.create(ask('weather'));
    await until('the exchange line on stderr', () => run.stderr.join('').includes('contracts.jsonl:1'));
    const printed = run.stdout.filter((l) => l.startsWith('  '));
    assert.ok(!printed.some((l) => /extra-key/.test(l)), 'lang is declared by the named contract');
    assert.ok(printed.some((l) => /schema-drift/.test(l)), printed.join('\n'));
    run.child.kill('SIGTERM');
    await new Promise((r) => run.child.once('exit', r));
  });

  it('usage errors are one line and exit 2', async () => {
    const r = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn('node', [CLI, 'record', '--upstream', 'ftp://x'], { stdio: ['ignore', 'ignore', 'pipe'] });
      started.push(child);
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.once('exit', (code) => resolve({ code, err }));
    });
    assert.equal(r.code, 2);
    assert.equal(r.err.trim().split('\n').length, 1);
    assert.match(r.err, /--upstream must be an http\(s\) URL/);
  });
});
