// The recording proxy: model API clients point their base URL at it (127.0.0.1 only) and get the upstream's answer
// unchanged, plain or streamed, chunk by chunk as it arrives. Each exchange of `/chat/completions`, `/responses` and
// `/messages` becomes one line of the recording (exchange.ts), written before the answer's last bytes reach the
// client, checked at once, and its new findings printed (findings.ts): so a client that got its answer can already
// read what was wrong with it. Other paths pass through unrecorded. The upstream down or failing never stops it:
// the client gets the upstream's status, or 502 with a one-line JSON error.
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import { checkText, type CheckOptions } from '../../core';
import { assembler, type ApiKind, type Assembler } from './assemble';
import { apiKind, bodyValue, exchangeLine, type Recorded } from './exchange';
import { LiveFindings } from './findings';
import { JsonlOut } from './jsonl';
import { redactHeaders, redactPath } from './redact-headers';
import { SseReader, sseJson } from './sse';

export const HOST = '127.0.0.1';

/** The most of one request or answer body a recording keeps (the client always gets all of it). */
export const MAX_KEPT = 64 * 1024 * 1024;

/** What the recording keeps of a body as it passes: its bytes up to a cap; beyond it, only that it was over. */
class Kept {
  private chunks: Buffer[] = [];
  private size = 0;
  over = false;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    if (this.over) return;
    this.size += chunk.length;
    if (this.size > this.cap) {
      this.over = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(chunk);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export interface RecordOptions {
  /** The API's origin (`https://api.openai.com`); a path on it is put before each request's path. */
  upstream: string;
  port?: number;
  /** The recording (JSONL), appended to. */
  out: string;
  /** How the recorded exchanges are checked (contracts, profile, severities). */
  check?: Omit<CheckOptions, 'fileName' | 'keepModel' | 'onSession'>;
  /** How the recording is named in printed findings. */
  shownAs?: string;
  /** Each new finding, as a `check` text line. */
  onFinding?: (line: string) => void;
  /** One line per exchange (and per upstream failure). */
  log?: (line: string) => void;
  /** The most of a body a line keeps (default MAX_KEPT). */
  maxKept?: number;
}

export interface RecordingProxy {
  port: number;
  /** `http://127.0.0.1:PORT` (no trailing slash: clients append `/v1/...`). */
  url: string;
  out: string;
  /** Exchanges recorded so far. */
  readonly exchanges: number;
  findings: LiveFindings;
  close(): Promise<void>;
}

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function withoutHopByHop(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/** The upstream URL of a request path: the upstream's path prefix, then the request's (a prefix ending in `/v1`
 *  is not doubled by a client that sends `/v1/...` itself). */
export function targetUrl(upstream: URL, pathAndQuery: string): URL {
  let prefix = upstream.pathname.replace(/\/+$/, '');
  if (prefix.endsWith('/v1') && /^\/v1(\/|\?|$)/.test(pathAndQuery)) prefix = prefix.slice(0, -3);
  return new URL(upstream.origin + prefix + (pathAndQuery.startsWith('/') ? pathAndQuery : '/' + pathAndQuery));
}

/** The upstream URL as `record` takes it, or a one-line reason it is not one. */
export function parseUpstream(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `--upstream must be an http(s) URL such as https://api.openai.com, not ${JSON.stringify(text)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--upstream must be an http(s) URL, not ${url.protocol}`;
  return url;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  const e = (encoding ?? '').trim().toLowerCase();
  try {
    if (e === 'gzip' || e === 'x-gzip') return gunzipSync(body);
    if (e === 'deflate') return inflateSync(body);
    if (e === 'br') return brotliDecompressSync(body);
  } catch {
    // kept as it came: the recording says what it could
  }
  return body;
}

export async function startRecordingProxy(options: RecordOptions): Promise<RecordingProxy> {
  const upstream = parseUpstream(options.upstream);
  if (typeof upstream === 'string') throw new Error(upstream);
  const out = JsonlOut.open(options.out, true);
  const shown = options.shownAs ?? options.out;
  const log = options.log ?? (() => undefined);
  const findings = new LiveFindings(options.onFinding ?? (() => undefined), { once: 'fingerprint' });
  const client = upstream.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  let exchanges = 0;

  /** Append the exchange, check it, print its new findings: before the client gets the answer's end. */
  const record = (kind: ApiKind, requestText: string, answer: unknown, recorded: Recorded): void => {
    let note: string;
    try {
      const line = exchangeLine(kind, requestText, answer, recorded);
      const base = out.append(line);
      exchanges += 1;
      const lineNo = out.index.position(base).line;
      const result = checkText(line, { ...options.check, fileName: options.out });
      const fresh = findings.report(shown, result.findings, (o) => out.index.position(base + o));
      note = `${shown}:${lineNo} (${result.calls} call${result.calls === 1 ? '' : 's'}, ${fresh} new finding${fresh === 1 ? '' : 's'})`;
    } catch (e) {
      // a recording that cannot be written or checked is said once; the client's answer is not held for it
      note = `not recorded: ${String((e as Error)?.message ?? e).split('\n')[0]}`;
    }
    log(`${recorded.at} POST ${recorded.path} ${recorded.status}${recorded.incomplete ? ` (${recorded.incomplete})` : ''} ${recorded.ms.toFixed(1)}ms -> ${note}`);
  };

  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const pathAndQuery = req.url ?? '/';
    const kind = apiKind(req.method, pathAndQuery);
    const target = targetUrl(upstream, pathAndQuery);
    const cap = options.maxKept ?? MAX_KEPT;
    const requestKept = new Kept(cap);
    let settled = false;
    /** What a client going away costs: before the answer, only the request is recorded. */
    let onClientGone = () => {
      if (kind) {
        const m = meta(0, false);
        m.incomplete = 'the client closed the connection before the answer';
        record(kind, requestText(), undefined, m);
      }
    };
    res.on('close', () => {
      if (settled) return;
      settled = true;
      onClientGone();
      up.destroy();
    });
    const meta = (status: number, stream: boolean): Recorded => {
      const m: Recorded = { at: new Date().toISOString(), path: redactPath(pathAndQuery), status, stream, ms: Number(process.hrtime.bigint() - started) / 1e6, headers: redactHeaders(req.headers) };
      if (requestKept.over) m.incomplete = `the request is over ${cap} bytes: not kept`;
      return m;
    };
    const requestText = () => requestKept.bytes().toString('utf8');

    const headers = withoutHopByHop(req.headers);
    delete headers.host;
    // the answer is recorded as it passes: ask for it unencoded (the client gets what the upstream sent either way)
    if (kind) headers['accept-encoding'] = 'identity';
    const up = client.request(target, { method: req.method, headers, agent });

    up.on('response', (answer) => {
      const status = answer.statusCode ?? 502;
      const type = String(answer.headers['content-type'] ?? '');
      const encoding = answer.headers['content-encoding'];
      const stream = /^text\/event-stream/i.test(type);
      res.writeHead(status, answer.statusMessage, withoutHopByHop(answer.headers));
      // What the recording keeps of the answer: the assembled stream, or the body's bytes.
      let assembled: Assembler | undefined;
      let sse: SseReader | undefined;
      const body = new Kept(cap);
      if (kind && stream && !encoding) {
        const a = (assembled = assembler(kind));
        sse = new SseReader((d) => a.event(sseJson(d)));
      }
      const answerValue = (): unknown => {
        if (assembled) return assembled.response();
        if (body.over) return undefined;
        const bytes = decode(body.bytes(), encoding);
        if (kind && stream) {
          // an encoded stream, decoded whole at the end
          const a = assembler(kind);
          const r = new SseReader((d) => a.event(sseJson(d)));
          r.push(bytes);
          r.end();
          return a.response();
        }
        return bodyValue(bytes.toString('utf8'));
      };
      // With a declared length the client knows the body is whole at its last byte: that chunk waits for the record.
      const declared = Number(answer.headers['content-length']);
      let received = 0;
      let held: Buffer | undefined;
      answer.on('data', (chunk: Buffer) => {
        if (kind) {
          if (sse) sse.push(chunk);
          else body.push(chunk);
        }
        received += chunk.length;
        if (kind && Number.isFinite(declared) && received >= declared) {
          held = held ? Buffer.concat([held, chunk]) : chunk;
          return;
        }
        if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.on('end', () => {
        if (settled) return;
        settled = true;
        if (kind) {
          sse?.end();
          const m = meta(status, stream);
          if (body.over) m.incomplete = `the answer is over ${cap} bytes: not kept`;
          record(kind, requestText(), answerValue(), m);
        }
        res.end(held);
      });
      answer.on('aborted', () => cut('the upstream closed the connection mid-answer'));
      answer.on('error', () => cut('the upstream closed the connection mid-answer'));
      const cut = (why: string) => {
        if (settled) return;
        settled = true;
        if (kind) {
          sse?.end();
          const m = meta(status, stream);
          m.incomplete = why;
          record(kind, requestText(), answerValue(), m);
        }
        if (held) res.write(held);
        res.destroy(); // the client sees the same cut
      };
      onClientGone = () => {
        if (kind) {
          sse?.end();
          const m = meta(status, stream);
          m.incomplete = 'the client closed the connection mid-answer';
          record(kind, requestText(), answerValue(), m);
        }
        answer.destroy();
      };
    });

    up.on('error', (e: Error & { code?: string }) => {
      if (settled) return;
      settled = true;
      const reason = `cannot reach the upstream ${upstream.origin}: ${e.code ?? e.message}`;
      if (kind) {
        const m = meta(502, false);
        m.incomplete = 'the upstream was not reached';
        m.error = reason;
        record(kind, requestText(), undefined, m);
      } else {
        log(`${new Date().toISOString()} ${req.method} ${redactPath(pathAndQuery)} 502 ${reason}`);
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const body = JSON.stringify({ error: { type: 'upstream_unreachable', message: reason } }) + '\n';
      res.writeHead(502, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });

    req.on('data', (chunk: Buffer) => {
      if (kind) requestKept.push(chunk);
      if (!up.write(chunk)) {
        req.pause();
        up.once('drain', () => req.resume());
      }
    });
    req.on('end', () => up.end());
  });
  // streams run long: no timeout on an answer in progress; a client that never sends its headers is dropped
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((e: unknown) => {
    out.close();
    throw e;
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${HOST}:${port}`,
    out: options.out,
    get exchanges() {
      return exchanges;
    },
    findings,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => {
          agent.destroy();
          out.close();
          done();
        });
        server.closeAllConnections();
      }),
  };
}
