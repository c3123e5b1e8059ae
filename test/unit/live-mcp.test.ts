// `contract-guard mcp wrap`: the official MCP SDK client talking to a real server from npm
// (@modelcontextprotocol/server-everything) through the wrapper, over stdio and over Streamable HTTP. A call with a
// wrong argument type is a finding while the protocol goes on untouched, and the recording, read by `check`, gives
// the same findings. Everything binds to 127.0.0.1; every child is killed when its test ends.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT } from './helpers';
import { checkRecording, CLI, findingLines, keys, start, tempDir, waitFor, type Proc } from './live-mcp-otlp-helpers';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const EVERYTHING_HTTP = path.join(ROOT, 'test', 'live', 'everything-http.mjs');
const DRIFT = path.join(ROOT, 'test', 'live', 'mcp-drift-server.js');

type CallResult = { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: unknown };

function text(r: CallResult): string {
  return (r.content ?? []).map((c) => c.text ?? '').join('');
}

describe('mcp wrap over stdio (SDK client, server-everything)', () => {
  it('reports a wrong argument type on stderr while the protocol goes on, and the recording checks the same', { timeout: 30000 }, async () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is built by `npm run build`');
    const out = path.join(tempDir('mcp'), 'session.jsonl');
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', 'wrap', '--out', out, '--', process.execPath, EVERYTHING, 'stdio'], cwd: ROOT, stderr: 'pipe' });
    let err = '';
    transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const client = new Client({ name: 'contract-guard-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'get-sum'), 'the real server lists get-sum');

      // a is declared a number: the server refuses the call, and the wrapper reports it while we are connected
      const bad = (await client.callTool({ name: 'get-sum', arguments: { a: '1', b: 2 } })) as CallResult;
      assert.equal(bad.isError, true);
      const live = await waitFor(() => err, /^ {2}\S+:\d+:\d+ +error +type-drift +a wanted number, got string "1"$/m);

      // the protocol is intact: the next calls get their answers
      const good = (await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } })) as CallResult;
      assert.equal(text(good), 'The sum of 1 and 2 is 3.');
      const weather = (await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } })) as CallResult;
      assert.deepEqual(weather.structuredContent, { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
      assert.ok(transport.pid !== null, 'the wrapper still runs');
      assert.ok(live.index >= 0);
    } finally {
      await client.close();
    }
    await waitFor(() => err, /contract-guard: \d+ messages recorded to /);

    // every message both ways is a line; the server's tool list and each call are among them
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { jsonrpc: string; method?: string });
    assert.ok(lines.every((m) => m.jsonrpc === '2.0'));
    assert.equal(lines.filter((m) => m.method === 'tools/call').length, 3);
    assert.equal(lines.filter((m) => m.method === 'tools/list').length, 1);

    const checked = checkRecording(out);
    assert.equal(checked.format, 'mcp');
    assert.equal(checked.calls, 3);
    assert.ok(checked.findings.some((f) => f.code === 'type-drift' && f.message === 'a wanted number, got string "1"'));
    assert.deepEqual(keys(findingLines(err)), keys(checked.findings), 'the live findings are those check gives');
  });
});

/** The messages a client sends the drift server: one call with two argument faults, one good call. */
const SCRIPT = [
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Zürich","days":"3"}}}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Bern","days":2}}}',
];

/** Feed the script to a process (the last message in two writes), wait for its four answers, close its stdin. */
async function drive(p: Proc): Promise<void> {
  for (const line of SCRIPT.slice(0, -1)) p.child.stdin.write(line + '\n');
  const last = SCRIPT[SCRIPT.length - 1] + '\n';
  p.child.stdin.write(last.slice(0, 40));
  await new Promise((r) => setTimeout(r, 50));
  p.child.stdin.write(last.slice(40));
  await waitFor(p.out, /"id":3}\n$/);
  p.child.stdin.end();
}

describe('mcp wrap over stdio (byte for byte, exit codes, signals)', () => {
  it('passes the server stdout through unchanged and exits with its exit code', { timeout: 30000 }, async () => {
    const direct = start([DRIFT, '--exit-code', '7']);
    const out = path.join(tempDir('mcp'), 'drift.jsonl');
    const wrapped = start([CLI, 'mcp', 'wrap', '--out', out, '--', process.execPath, DRIFT, '--exit-code', '7']);
    try {
      await drive(direct);
      await drive(wrapped);
      const [d, w] = [await direct.exited, await wrapped.exited];
      assert.deepEqual(d, { code: 7, signal: null });
      assert.deepEqual(w, { code: 7, signal: null }, wrapped.err());
      assert.ok(Buffer.from(wrapped.out()).equals(Buffer.from(direct.out())), 'stdout is the server\'s bytes');
      assert.equal(wrapped.out().split('\n').filter(Boolean).length, 4, 'four answers, nothing else');

      // the argument fault and the result that drifts from the declared outputSchema, on stderr
      const live = findingLines(wrapped.err());
      assert.ok(live.some((f) => f.code === 'type-drift' && f.message === 'days wanted integer, got string "3"'), wrapped.err());
      assert.ok(live.some((f) => f.code === 'result-contract' && /temperature wanted number, got string "warm"/.test(f.message)), wrapped.err());
      assert.deepEqual(keys(live), keys(checkRecording(out).findings));
    } finally {
      direct.stop();
      wrapped.stop();
    }
  });

  it('holds the calls to --contracts, which win over the server\'s list (a disagreement is schema-drift)', { timeout: 30000 }, async () => {
    const contracts = path.join(ROOT, 'test', 'live', 'get-forecast.tools.json'); // days: a string here
    const out = path.join(tempDir('mcp'), 'contracts.jsonl');
    const wrapped = start([CLI, 'mcp', 'wrap', '--out', out, '--contracts', contracts, '--', process.execPath, DRIFT]);
    try {
      await drive(wrapped);
      assert.equal((await wrapped.exited).code, 0);
      const live = findingLines(wrapped.err());
      assert.ok(live.some((f) => f.code === 'schema-drift' && /get_forecast recorded in the trace differs from .*get-forecast\.tools\.json/.test(f.message)), wrapped.err());
      // the contract file's days (a string) is the one calls are held to: "3" passes, 2 does not
      assert.deepEqual(live.filter((f) => f.code === 'type-drift').map((f) => f.message), ['days wanted string, got number 2']);
      assert.deepEqual(keys(live), keys(checkRecording(out, ['--contracts', contracts]).findings));
    } finally {
      wrapped.stop();
    }
  });

  it('passes a signal to the server and ends the way it ended', { timeout: 20000 }, async () => {
    const out = path.join(tempDir('mcp'), 'signal.jsonl');
    const wrapped = start([CLI, 'mcp', 'wrap', '--out', out, '--', process.execPath, DRIFT]);
    try {
      wrapped.child.stdin.write(SCRIPT[0] + '\n');
      await waitFor(wrapped.out, /"id":0}\n$/);
      wrapped.child.kill('SIGTERM');
      assert.deepEqual(await wrapped.exited, { code: null, signal: 'SIGTERM' });
      assert.match(wrapped.err(), /drift-server: got SIGTERM/);
      assert.equal(readFileSync(out, 'utf8').trimEnd().split('\n').length, 2, 'the request and its answer were recorded');
    } finally {
      wrapped.stop();
    }
  });

  it('answers a command that cannot run, and usage faults, in one line with exit 2', { timeout: 20000 }, async () => {
    const dir = tempDir('mcp');
    const cases: [string[], RegExp][] = [
      [['mcp', 'wrap', '--out', path.join(dir, 'x.jsonl'), '--', 'contract-guard-no-such-command'], /^contract-guard: cannot run contract-guard-no-such-command: no such command$/m],
      [['mcp', 'wrap'], /^contract-guard: no server command: contract-guard mcp wrap -- COMMAND \[ARGS\.\.\.\]\n$/],
      [['mcp', 'frob'], /^contract-guard: unknown mcp command frob; try: contract-guard mcp wrap --help\n$/],
      [['mcp', 'wrap', '--upstream', 'ftp://x', '--port', '0'], /^contract-guard: --upstream must be an http\(s\) URL, not ftp:\/\/x\n$/],
      [['mcp', 'wrap', '--port', '1', '--', 'node'], /^contract-guard: --port needs --upstream URL/],
    ];
    for (const [args, re] of cases) {
      const p = start([CLI, ...args]);
      try {
        p.child.stdin.end();
        const exit = await p.exited;
        assert.equal(exit.code, 2, `${args.join(' ')}: ${p.err()}`);
        assert.match(p.err(), re);
        assert.equal(p.out(), '');
      } finally {
        p.stop();
      }
    }
  });
});

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function post(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      let b = '';
      res.setEncoding('utf8').on('data', (d: string) => (b += d)).on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('mcp wrap --upstream (Streamable HTTP)', () => {
  it('proxies the SDK client to server-everything over HTTP, SSE answers included, and reports the bad call', { timeout: 40000 }, async () => {
    const upstream = start([EVERYTHING_HTTP]);
    const out = path.join(tempDir('mcp'), 'http.jsonl');
    let proxy: Proc | undefined;
    const client = new Client({ name: 'contract-guard-test', version: '1.0.0' });
    try {
      const port = Number((await waitFor(upstream.out, /\{"port":(\d+)\}/))[1]);
      proxy = start([CLI, 'mcp', 'wrap', '--upstream', `http://127.0.0.1:${port}/mcp`, '--port', '0', '--out', out]);
      const p = proxy;
      const url = (await waitFor(p.out, /^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp) \(MCP proxy for /))[1];
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      assert.match(transport.sessionId ?? '', /^[0-9a-f-]{36}$/, 'the session header came back through the proxy');
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'get-sum'));
      const bad = (await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 'two' } })) as CallResult;
      assert.equal(bad.isError, true);
      await waitFor(p.out, /^ {2}\S+:\d+:\d+ +error +type-drift +b wanted number, got string "two"$/m);
      const good = (await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 2 } })) as CallResult;
      assert.equal(text(good), 'The sum of 2 and 2 is 4.');
      await transport.terminateSession();
      await client.close();
      p.child.kill('SIGTERM');
      assert.deepEqual(await p.exited, { code: 0, signal: null });
      assert.match(p.out(), /SIGTERM: stopping\nstopped: \d+ messages recorded to /);
      const checked = checkRecording(out);
      assert.equal(checked.format, 'mcp');
      assert.equal(checked.calls, 2);
      assert.deepEqual(keys(findingLines(p.out())), keys(checked.findings));
    } finally {
      await client.close().catch(() => undefined);
      proxy?.stop();
      upstream.stop();
    }
  });

  it('answers 502 with a JSON-RPC error when the upstream is down, and keeps serving', { timeout: 20000 }, async () => {
    const down = await closedPort();
    const proxy = start([CLI, 'mcp', 'wrap', '--upstream', `http://127.0.0.1:${down}/mcp`, '--port', '0', '--out', path.join(tempDir('mcp'), 'down.jsonl')]);
    try {
      const url = (await waitFor(proxy.out, /^listening on (\S+) /))[1];
      for (let i = 0; i < 2; i++) {
        const r = await post(url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
        assert.equal(r.status, 502);
        const body = JSON.parse(r.body) as { jsonrpc: string; error: { message: string } };
        assert.equal(body.jsonrpc, '2.0');
        assert.match(body.error.message, /^upstream http:\/\/127\.0\.0\.1:\d+ failed: .*ECONNREFUSED/);
      }
      proxy.child.kill('SIGTERM');
      assert.equal((await proxy.exited).code, 0);
    } finally {
      proxy.stop();
    }
  });
});
