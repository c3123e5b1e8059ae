// Frozen fixtures, part 3: the frozen tool server, over real HTTP on 127.0.0.1 (ephemeral ports): hit, miss,
// malformed, oversized, wrong method, one log line per request, shutdown; and the CLI's serve stopping on SIGTERM.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { loadContracts } from '../../src/core';
import { checkForFreeze, freeze, indexFixtures } from '../../src/core/fixtures';
import { startFixtureServer, type FixtureServer } from '../../src/cli/serve';

const ROOT = path.resolve(__dirname, '../../..');

interface Reply {
  status: number;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

function request(port: number, body: string | Buffer, options: { method?: string; chunked?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
    if (!options.chunked) headers['content-length'] = Buffer.byteLength(body);
    const req = http.request({ host: '127.0.0.1', port, path: '/', method: options.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: res.headers }));
    });
    req.on('error', reject);
    if (options.chunked) {
      // Written in pieces, with no length up front: the limit must be enforced while reading.
      const buf = Buffer.from(body);
      for (let i = 0; i < buf.length; i += 65536) req.write(buf.subarray(i, i + 65536));
      req.end();
    } else {
      req.end(body);
    }
  });
}

const CONTRACTS = loadContracts([{ path: 'c.json', text: JSON.stringify({ tools: { get_hours: { arguments: { type: 'object' } }, run_tests: { arguments: { type: 'object' } } } }) }]).contracts;

function fixture(line: string): { name: string; text: string } {
  const checked = checkForFreeze(line + '\n', { fileName: 't.jsonl', contracts: CONTRACTS });
  const f = freeze(checked, checked.sites[0]);
  return { name: f.relativePath, text: f.text };
}

describe('frozen tool server (real HTTP on 127.0.0.1)', () => {
  let server: FixtureServer;
  const log: string[] = [];
  const files = [
    fixture('{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2}, "result": {"ok": true, "error": null, "result": "08:00-23:00"}}'),
    fixture('{"name": "run_tests", "arguments": {"target": "t.py"}, "result": "{\\"status\\": 503, \\"body\\": {\\"ok\\": false, \\"error\\": \\"busy\\", \\"result\\": null}}"}'),
    fixture('{"name": "get_hours", "arguments": {"building": "CS"}}'),
    { name: 'broken.fixture.json', text: '{"tool": ' },
  ];
  const index = indexFixtures(files);

  before(async () => {
    server = await startFixtureServer(index, { port: 0, maxBody: 4096, log: (l) => log.push(l) });
  });
  after(async () => {
    await server.close();
  });

  it('indexes fixtures with a recorded result and says why the others are not served', () => {
    assert.equal(index.byFingerprint.size, 2);
    assert.deepEqual(index.skipped.map((s) => s.name), [files[2].name, 'broken.fixture.json']);
    assert.equal(index.skipped[0].reason, 'no recorded result to serve');
    assert.match(index.skipped[1].reason, /^not valid JSON: .*expected a value at offset \d+$/);
  });

  it('binds 127.0.0.1 on an ephemeral port', () => {
    assert.ok(server.port > 0);
    assert.equal(server.url, `http://127.0.0.1:${server.port}/`);
  });

  it('hit: the frozen envelope, whatever the key order or argument encoding', async () => {
    const a = await request(server.port, JSON.stringify({ name: 'get_hours', args: { building: 'Killam', weekday: 2 } }));
    assert.equal(a.status, 200);
    assert.deepEqual(a.body, { ok: true, error: null, result: '08:00-23:00' });
    assert.match(String(a.headers['content-type']), /^application\/json/);
    const b = await request(server.port, JSON.stringify({ args: '{"weekday": 2.0, "building": "Killam"}', name: 'get_hours' }));
    assert.equal(b.status, 200);
    assert.deepEqual(b.body, a.body);
  });

  it('hit: a recorded HTTP wrapper is answered with its status and body', async () => {
    const r = await request(server.port, JSON.stringify({ name: 'run_tests', args: { target: 't.py' } }));
    assert.equal(r.status, 503);
    assert.deepEqual(r.body, { ok: false, error: 'busy', result: null });
  });

  it('miss: 404 with the unknown envelope (other arguments, other tool, a fixture without a result)', async () => {
    for (const body of [{ name: 'get_hours', args: { building: 'Killam', weekday: 3 } }, { name: 'get_open_now', args: {} }, { name: 'get_hours', args: { building: 'CS' } }]) {
      const r = await request(server.port, JSON.stringify(body));
      assert.equal(r.status, 404);
      assert.deepEqual(r.body, { ok: false, error: 'unknown', result: null });
    }
  });

  it('malformed: 400 with the reason', async () => {
    const cases: [string, string][] = [
      ['{"name": "get_hours", ', 'bad request: body is not JSON'],
      ['[1, 2]', 'bad request: body must be a JSON object {"name", "args"}'],
      ['{"args": {}}', 'bad request: "name" must be a non-empty string'],
      ['{"name": "get_hours", "args": [1]}', 'bad request: "args" must be a JSON object (or a string holding one), got an array'],
      ['{"name": "get_hours", "args": "{not json"}', 'bad request: "args" must be a JSON object (or a string holding one), got a string that is not a JSON object'],
    ];
    for (const [body, reason] of cases) {
      const r = await request(server.port, body);
      assert.equal(r.status, 400, body);
      const env = r.body as { ok: boolean; error: string; result: null };
      assert.equal(env.ok, false);
      assert.equal(env.result, null);
      assert.ok(env.error.startsWith(reason), `${env.error} starts with ${reason}`);
    }
  });

  it('oversized: 413, by declared length and while reading a chunked body; the server keeps serving', async () => {
    const big = JSON.stringify({ name: 'get_hours', args: { pad: 'x'.repeat(10000) } });
    const declared = await request(server.port, big);
    assert.equal(declared.status, 413);
    assert.match((declared.body as { error: string }).error, /over the 4096-byte limit/);
    const chunked = await request(server.port, 'x'.repeat(300000), { chunked: true });
    assert.equal(chunked.status, 413);
    const after = await request(server.port, JSON.stringify({ name: 'get_hours', args: { building: 'Killam', weekday: 2 } }));
    assert.equal(after.status, 200);
  });

  it('only POST: 405 with Allow', async () => {
    const r = await request(server.port, '', { method: 'GET' });
    assert.equal(r.status, 405);
    assert.equal(r.headers.allow, 'POST');
  });

  it('logs one line per request', async () => {
    log.length = 0;
    await request(server.port, JSON.stringify({ name: 'get_hours', args: { building: 'Killam', weekday: 2 } }));
    await request(server.port, JSON.stringify({ name: 'nope' }));
    await request(server.port, 'nope');
    assert.equal(log.length, 3);
    assert.match(log[0], /^\d{4}-\d\d-\d\dT[\d:.]+Z POST \/ 200 hit get_hours\/get_hours-[0-9a-f]{12}\.fixture\.json [\d.]+ms$/);
    assert.match(log[1], / POST \/ 404 miss nope [0-9a-f]{12} /);
    assert.match(log[2], / POST \/ 400 bad request: body is not JSON/);
  });

  it('stops: close() ends open connections and the port refuses afterwards', async () => {
    const s = await startFixtureServer(index, { port: 0, log: () => undefined });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: s.port, method: 'POST', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end('{"name": "x"}');
    });
    const t0 = Date.now();
    await s.close();
    assert.ok(Date.now() - t0 < 2000, 'a kept-alive connection does not hold the shutdown');
    await assert.rejects(request(s.port, '{"name": "x"}'), /ECONNREFUSED/);
    agent.destroy();
  });
});

describe('contract-guard serve (the CLI process)', () => {
  it('serves the repo fixtures on 127.0.0.1 and stops cleanly on SIGTERM', { timeout: 20000 }, async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'serve', path.join(ROOT, 'fixtures/frozen'), '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (d: string) => {
          out += d;
          const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', () => reject(new Error(`exited early: ${out}`)));
      });
      const hit = await request(port, JSON.stringify({ name: 'get_hours', args: { weekday: 2, building: 'Killam' } }));
      assert.equal(hit.status, 200);
      assert.equal(hit.body, 'Killam Library: 08:00-23:00');
      const miss = await request(port, JSON.stringify({ name: 'get_hours', args: { building: 'Killam', weekday: 9 } }));
      assert.deepEqual([miss.status, miss.body], [404, { ok: false, error: 'unknown', result: null }]);
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      assert.match(out, /SIGTERM: stopping\nstopped\n$/);
      assert.equal(out.split('\n').filter((l) => / POST \/ /.test(l)).length, 2);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
