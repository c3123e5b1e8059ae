// The frozen tool server under hostile requests: nested past any printer, prototype keys, control characters
// in names, invalid UTF-8, a request left unfinished. Each gets an answer (never a crash), every request is one
// log line, and the server keeps serving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { indexFixtures } from '../../src/core/fixtures';
import { startFixtureServer } from '../../src/cli/serve';

function post(port: number, body: string | Buffer): Promise<{ status: number; body: { ok: boolean; error: string; result: null } }> {
  return new Promise((resolve, reject) => {
    const buf = Buffer.from(body);
    const req = http.request({ host: '127.0.0.1', port, path: '/', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': buf.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(buf);
  });
}

test('frozen tool server: hostile requests get answers and the server keeps serving', async () => {
  const log: string[] = [];
  const server = await startFixtureServer(indexFixtures([]), { maxBody: 4 * 1024 * 1024, log: (l) => log.push(l) });
  try {
    const cases: [string | Buffer, number, RegExp][] = [
      ['{"name": "x", "args": ' + '{"a":'.repeat(100000) + '1' + '}'.repeat(100000) + '}', 400, /^bad request: "args" is nested too deeply$/],
      [JSON.stringify({ name: 'x', args: '['.repeat(100000) + ']'.repeat(100000) }), 400, /^bad request: "args" must be a JSON object/],
      ['{"name": "__proto__", "args": {"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}}', 404, /^unknown$/],
      ['{"name": {"toString": 1}, "args": {}}', 400, /^bad request: "name" must be a non-empty string$/],
      ['{"name": "get_hours\\n2026-01-01T00:00:00.000Z POST / 200 hit forged", "args": {"toString": {"a": 1}}}', 404, /^unknown$/],
      [Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 404, /^unknown$/],
      ['{"name": "x", "args": {"n": 1e400, "s": "\\ud800"}}', 404, /^unknown$/],
      ['\u0000', 400, /^bad request: body is not JSON/],
    ];
    for (const [body, status, error] of cases) {
      const r = await post(server.port, body);
      assert.equal(r.status, status, String(body).slice(0, 60));
      assert.match(r.body.error, error);
      assert.equal(r.body.result, null);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    // a client that opens a request and never finishes it does not hold up the others
    const stuck = net.connect(server.port, '127.0.0.1');
    await new Promise((r) => stuck.once('connect', r));
    stuck.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"name":');
    const after = await post(server.port, '{"name": "get_hours", "args": {}}');
    assert.equal(after.status, 404);
    stuck.destroy();
    // one log line per answered request; the name with a line break is quoted, so no line is forged
    const lines = log.join('\n').split('\n');
    assert.equal(lines.length, cases.length + 1);
    assert.ok(lines.every((l) => / POST \/ (400|404) /.test(l)), lines.join('\n'));
    assert.ok(lines.some((l) => l.includes('miss "get_hours\\n2026-01-01T00:00:00.000Z POST / 200 hit forged"')));
  } finally {
    await server.close();
  }
});
