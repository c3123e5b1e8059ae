// `contract-guard otlp`: an OTLP/HTTP trace receiver on 127.0.0.1. Exporters POST /v1/traces (JSON or protobuf,
// gzip or not) and get a collector's answer; the spans go to a JSONL recording as OTLP JSON (one line per trace id
// per request, which the otel reader reads), and each trace that got spans is re-checked as its own session, its new
// findings printed at once. A body that is not an export request gets 400, and the receiver goes on.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import * as zlib from 'node:zlib';
import type { CheckOptions } from '../../core';
import { collectBody } from '../body';
import { displayPath, UsageError } from '../files';
import { HOST } from '../serve';
import { Coalesced, LiveFindings, SessionLines, settled } from './findings';
import { JsonlOut, outFile } from './jsonl';
import { liveCheckOptions } from './options';
import { decodeTraceRequest, encodeRpcStatus } from './otlp-proto';
import { requestFault, splitByTrace } from './otlp-request';

export const OTLP_USAGE = `usage: contract-guard otlp [--port N] [--out FILE] [--contracts PATH]...

An OTLP/HTTP trace receiver on ${HOST} (never another interface): point an exporter at it
(OTEL_EXPORTER_OTLP_ENDPOINT=http://${HOST}:4318) and it takes POST /v1/traces as JSON or protobuf, gzip or
not, answering as a collector does (200 and an empty partial success). The spans are appended to FILE (default
traces/otlp-<date>T<time>.jsonl; --out FOLDER/ puts that name in FOLDER) as OTLP JSON lines, one per trace and request, which check reads; each trace's
tool calls are held to the contracts --contracts names (else the config's) and to the tool definitions its spans
carry, and findings are printed as the spans arrive, in check's text line format. A body that is not an export
request gets 400 (the receiver goes on). --port: default 4318, the OTLP/HTTP port (0 picks a free port); the
first line printed says where it listens. Stops on SIGINT or SIGTERM.`;

export const DEFAULT_OTLP_PORT = 4318;
/** An export request larger than this (before or after gunzip) is refused with 413. */
const MAX_BODY = 64 * 1024 * 1024;
/** Traces kept for re-checking; past this the least recently fed one is settled and let go. */
const MAX_TRACES = 1000;
/** A trace whose root span came is over once no span of it came for this long. */
const QUIET_MS = 1500;
/** Spans of one trace arrive in any order (exporters send batches concurrently): a tool span may come before the
 *  model span that carries its definition, a result before its call. Until the trace is over, these wait. */
const ORDER_DEPENDENT: ReadonlySet<string> = new Set(['no-contract', 'unknown-tool', 'orphan-result']);

interface Trace {
  lines: SessionLines;
  root: boolean;
  ended: boolean;
  quiet?: NodeJS.Timeout;
}

/** The traces being received, each a growing session, re-checked once per burst of requests. */
class Traces {
  private readonly traces = new Map<string, Trace>();
  private readonly dirty = new Set<string>();
  private readonly recheck = new Coalesced(() => this.checkDirty());

  constructor(private readonly out: JsonlOut, private readonly shown: string, private readonly options: CheckOptions, private readonly findings: LiveFindings) {}

  add(traceId: string, line: string, root: boolean): void {
    const base = this.out.append(line);
    let t = this.traces.get(traceId);
    if (t) this.traces.delete(traceId); // re-inserted: the map's order is least recently fed first
    else t = { lines: new SessionLines(), root: false, ended: false };
    t.lines.add(line, base);
    t.root ||= root;
    this.traces.set(traceId, t);
    if (t.root && !t.ended) {
      clearTimeout(t.quiet);
      const trace = t;
      t.quiet = setTimeout(() => {
        trace.ended = true;
        this.report(trace);
      }, QUIET_MS);
      t.quiet.unref();
    }
    this.dirty.add(traceId);
    if (this.traces.size > MAX_TRACES) {
      const [oldest] = this.traces.keys();
      this.settle(oldest);
    }
    this.recheck.schedule();
  }

  /** The receiver stops: every trace is over. */
  end(): void {
    for (const id of [...this.traces.keys()]) this.settle(id);
    this.out.close();
  }

  private settle(id: string): void {
    const t = this.traces.get(id);
    if (!t) return;
    clearTimeout(t.quiet);
    t.ended = true;
    this.report(t);
    this.traces.delete(id);
    this.dirty.delete(id);
  }

  private checkDirty(): void {
    for (const id of this.dirty) {
      const t = this.traces.get(id);
      if (t) this.report(t);
    }
    this.dirty.clear();
  }

  private report(t: Trace): void {
    const found = settled(t.lines.check(this.options).findings, t.ended, ORDER_DEPENDENT);
    this.findings.report(this.shown, found, (o) => this.out.index.position(o));
  }
}

type Encoding = 'json' | 'protobuf';

/** A refusal, in the encoding of the request: a google.rpc.Status (code 3: INVALID_ARGUMENT, or as given). */
function refuse(res: http.ServerResponse, status: number, message: string, encoding: Encoding = 'json', extra: http.OutgoingHttpHeaders = {}): void {
  const body = encoding === 'protobuf' ? Buffer.from(encodeRpcStatus(3, message)) : Buffer.from(JSON.stringify({ code: 3, message }) + '\n');
  res.writeHead(status, { 'content-type': encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json', 'content-length': body.length, ...extra });
  res.end(body);
}

function encodingOf(contentType: string | undefined): Encoding | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  return undefined;
}

function gunzip(body: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => zlib.gunzip(body, { maxOutputLength: MAX_BODY }, (e, out) => (e ? reject(e) : resolve(out))));
}

/** The request's body as OTLP JSON; throws with the reason it is not an export request. */
function decode(body: Buffer, encoding: Encoding): Record<string, unknown> {
  if (encoding === 'protobuf') {
    try {
      return decodeTraceRequest(body);
    } catch (e) {
      throw new Error(`not an OTLP protobuf ExportTraceServiceRequest: ${(e as Error).message}`, { cause: e });
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new Error(`not JSON: ${(e as Error).message}`, { cause: e });
  }
  const fault = requestFault(value);
  if (fault) throw new Error(`not an OTLP ExportTraceServiceRequest: ${fault}`);
  return value as Record<string, unknown>;
}

export interface OtlpReceiver {
  port: number;
  /** Where exporters send: http://127.0.0.1:PORT/v1/traces. */
  url: string;
  /** Stop taking requests and settle every trace (its last findings printed). */
  close(): Promise<void>;
}

export interface OtlpOptions {
  port?: number;
  out: JsonlOut;
  options: CheckOptions;
  findings: LiveFindings;
  /** A line about a refused request. */
  log?: (line: string) => void;
}

export function startOtlpReceiver(o: OtlpOptions): Promise<OtlpReceiver> {
  const traces = new Traces(o.out, displayPath(path.resolve(o.out.file)), o.options, o.findings);
  const log = o.log ?? (() => undefined);
  const server = http.createServer((req, res) => {
    const where = `${req.method} ${req.url}`;
    const no = (status: number, message: string, encoding?: Encoding, extra?: http.OutgoingHttpHeaders) => {
      log(`${status} ${where}: ${message}`);
      refuse(res, status, message, encoding, extra);
    };
    if ((req.url ?? '').split('?')[0] !== '/v1/traces') {
      req.resume();
      return no(404, 'only POST /v1/traces is served here (traces; not metrics or logs)');
    }
    if (req.method !== 'POST') {
      req.resume();
      return no(405, `method ${req.method} not allowed; POST an ExportTraceServiceRequest`, undefined, { allow: 'POST' });
    }
    const encoding = encodingOf(req.headers['content-type']);
    const zip = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (!encoding || (zip !== 'gzip' && zip !== 'identity')) {
      req.resume();
      const what = !encoding ? `content type ${req.headers['content-type'] ?? '(none)'}` : `content encoding ${zip}`;
      return no(415, `unsupported ${what}; send application/json or application/x-protobuf, gzip or not`, encoding);
    }
    req.on('error', () => res.destroy());
    collectBody(req, MAX_BODY, () => no(413, `body is over the ${MAX_BODY}-byte limit`, encoding, { connection: 'close' }), (raw) => {
      void (zip === 'gzip' ? gunzip(raw) : Promise.resolve(raw)).then(
        (body) => {
          let request;
          try {
            request = decode(body, encoding);
          } catch (e) {
            return no(400, (e as Error).message.split('\n')[0], encoding);
          }
          for (const t of splitByTrace(request)) traces.add(t.traceId, t.line, t.root);
          // a collector's answer: nothing rejected (an empty ExportTraceServiceResponse in protobuf)
          const ok = encoding === 'protobuf' ? Buffer.alloc(0) : Buffer.from('{"partialSuccess":{}}');
          res.writeHead(200, { 'content-type': encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json', 'content-length': ok.length });
          res.end(ok);
        },
        (e: Error) => no(e.message.includes('maxOutputLength') || (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 413 : 400, `body is not valid gzip: ${e.message}`, encoding),
      );
    });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? DEFAULT_OTLP_PORT, HOST, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        url: `http://${HOST}:${port}/v1/traces`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => {
              traces.end();
              done();
            });
            server.closeAllConnections();
          }),
      });
    });
  });
}

export async function otlpCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      out: { type: 'string', short: 'o' },
      contracts: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(OTLP_USAGE + '\n');
    return 0;
  }
  const port = Number(values.port ?? DEFAULT_OTLP_PORT);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) throw new UsageError(`--port must be an integer 0..65535, not ${values.port}`);
  const options = await liveCheckOptions(values.contracts);
  const out = JsonlOut.open(outFile(values.out, 'otlp'), true);
  const print = (line: string) => process.stdout.write(line + '\n');
  const findings = new LiveFindings(print);
  let receiver: OtlpReceiver;
  try {
    receiver = await startOtlpReceiver({ port, out, options, findings, log: (line) => process.stderr.write(`contract-guard: ${line}\n`) });
  } catch (e) {
    out.close();
    throw new UsageError(`cannot listen on ${HOST}:${port}: ${(e as Error).message}`);
  }
  const shown = displayPath(path.resolve(out.file));
  print(`listening on ${receiver.url} (OTLP/HTTP traces, JSON and protobuf; recording to ${shown})`);
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      print(`${signal}: stopping`);
      void receiver.close().then(() => {
        print(`stopped: ${findings.shown.length} finding${findings.shown.length === 1 ? '' : 's'}; spans recorded to ${shown}`);
        resolve(0);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
