// `contract-guard serve [fixtures...] --port N`: a frozen tool server on 127.0.0.1. A POSTed {"name", "args"}
// gets the frozen envelope of the fixture with that call's fingerprint; an unknown call gets 404 and
// {"ok": false, "error": "unknown", "result": null}; a malformed request 400 with the reason; a body over the
// limit 413. One log line per request; SIGINT/SIGTERM stop it cleanly.
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { answer, type FixtureIndex, indexFixtures } from '../core';
import { collectBody } from './body';
import { configuredFixturesFolder, DEFAULT_FIXTURES_FOLDER, findFixtureFiles } from './fixture-files';
import { displayPath, UsageError } from './files';

export const SERVE_USAGE = `usage: contract-guard serve [fixtures...] [--port N] [--max-body BYTES]

Serves the fixtures (*.fixture.json under the given files or folders; default ${DEFAULT_FIXTURES_FOLDER}) as a frozen
tool server on 127.0.0.1 (never another interface). POST {"name": TOOL, "args": {...}} to any path: the
recorded result of the fixture with that tool and arguments (keys in any order), with its recorded HTTP status
(default 200); an unknown call: 404 {"ok": false, "error": "unknown", "result": null}; a malformed request: 400
with the reason; a body over --max-body (default 1048576 bytes): 413. --port 0 (the default) picks a free
port; the first line printed says which. Stops on SIGINT or SIGTERM.`;

export const HOST = '127.0.0.1';
export const DEFAULT_MAX_BODY = 1024 * 1024;

export interface FixtureServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  port?: number;
  maxBody?: number;
  log?: (line: string) => void;
}

function send(res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body === undefined ? null : body) + '\n';
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...extra });
  res.end(text);
}

const refusal = (reason: string) => ({ ok: false, error: `bad request: ${reason}`, result: null });

/** Start serving an index of fixtures on 127.0.0.1. */
export function startFixtureServer(index: FixtureIndex, options: ServerOptions = {}): Promise<FixtureServer> {
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const log = options.log ?? ((line: string) => process.stdout.write(line + '\n'));
  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const done = (status: number, note: string) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(`${new Date().toISOString()} ${req.method} ${req.url} ${status} ${note} ${ms.toFixed(1)}ms`);
    };
    if (req.method !== 'POST') {
      req.resume();
      send(res, 405, refusal(`method ${req.method} not allowed; POST {"name", "args"}`), { allow: 'POST' });
      done(405, `method ${req.method} not allowed`);
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBody) {
      // Refused before reading: the body is drained and thrown away, never buffered.
      req.resume();
      send(res, 413, refusal(`body of ${declared} bytes is over the ${maxBody}-byte limit`), { connection: 'close' });
      done(413, `body over limit (${declared} bytes)`);
      return;
    }
    collectBody(req, maxBody, () => {
      send(res, 413, refusal(`body is over the ${maxBody}-byte limit`), { connection: 'close' });
      done(413, `body over limit (more than ${maxBody} bytes)`);
    }, (body) => {
      let reply;
      try {
        reply = answer(index, body.toString('utf8'));
      } catch (e) {
        // whatever a request does to the answering code, the server answers 500 and keeps serving
        reply = { status: 500, body: { ok: false, error: 'internal error', result: null }, note: `internal error: ${String((e as Error)?.message ?? e).split('\n')[0]}` };
      }
      send(res, reply.status, reply.body);
      done(reply.status, reply.note);
    });
    req.on('error', () => {
      if (!res.headersSent) res.destroy();
    });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        url: `http://${HOST}:${port}/`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Read and index fixture files from disk. */
export async function loadFixtureIndex(paths: string[]): Promise<{ index: FixtureIndex; files: number }> {
  const files = await findFixtureFiles(paths);
  const read = await Promise.all(files.map(async (f) => ({ name: displayPath(path.resolve(f)), text: await fs.readFile(f, 'utf8') })));
  return { index: indexFixtures(read), files: files.length };
}

export async function serveCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'max-body': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(SERVE_USAGE + '\n');
    return 0;
  }
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer 0..65535, not ${values.port}`);
  const maxBody = Number(values['max-body'] ?? DEFAULT_MAX_BODY);
  if (!Number.isInteger(maxBody) || maxBody < 1) throw new UsageError(`--max-body must be a positive integer, not ${values['max-body']}`);
  const folders = positionals.length ? positionals : [await configuredFixturesFolder()];
  const { index, files } = await loadFixtureIndex(folders);
  if (!files) throw new UsageError(`no fixtures (*.fixture.json) under ${folders.join(', ')}`);
  let server: FixtureServer;
  try {
    server = await startFixtureServer(index, { port, maxBody });
  } catch (e) {
    throw new UsageError(`cannot listen on ${HOST}:${port}: ${(e as Error).message}`);
  }
  const log = (line: string) => process.stdout.write(line + '\n');
  log(`listening on ${server.url} (${index.byFingerprint.size} of ${files} fixtures served; POST {"name", "args"})`);
  for (const s of index.skipped) log(`not served: ${s.name}: ${s.reason}`);
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      log(`${signal}: stopping`);
      void server.close().then(() => {
        log('stopped');
        resolve(0);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
