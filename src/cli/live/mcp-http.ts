// `mcp wrap --upstream URL`: a Streamable HTTP MCP server behind a proxy on 127.0.0.1. Requests go upstream with
// their headers (the `mcp-session-id` among them) and answers come back as they arrive: a JSON body, or an SSE
// stream relayed chunk by chunk, never held whole. The client's POSTed messages and the server's answers (each
// SSE event's data) are handed to the recorder.
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { McpRecorder } from './mcp-recorder';
import { SseReader } from './sse';
import { collectBody } from '../body';
import { HOST } from '../serve';

/** A JSON-RPC body larger than this is refused (413): a message, not a file transfer. */
const MAX_BODY = 64 * 1024 * 1024;

// Headers of one hop, never passed on (RFC 9110 7.6.1), and `host`, which names the upstream instead.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

function passed(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
  return out;
}

function refuse(res: http.ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }) + '\n';
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export interface McpHttpProxy {
  port: number;
  /** The URL the client uses: ours, with the upstream's path. */
  url: string;
  close(): Promise<void>;
}

/** Relay the upstream's answer as it comes, handing its messages to the recorder. */
function relay(up: http.IncomingMessage, res: http.ServerResponse, recorder: McpRecorder): void {
  const headers = passed(up.headers);
  res.writeHead(up.statusCode ?? 502, up.statusMessage, headers);
  res.flushHeaders();
  const type = String(up.headers['content-type'] ?? '');
  const sse = type.startsWith('text/event-stream') ? new SseReader((data) => recorder.message('server', data)) : undefined;
  const json = !sse && type.includes('json') ? ([] as Buffer[]) : undefined;
  let size = 0;
  up.on('data', (chunk: Buffer) => {
    if (!res.write(chunk)) {
      up.pause();
      res.once('drain', () => up.resume());
    }
    if (sse) sse.push(chunk);
    else if (json && (size += chunk.length) <= MAX_BODY) json.push(chunk);
  });
  up.on('end', () => {
    res.end();
    sse?.end();
    if (json && size <= MAX_BODY) recorder.message('server', Buffer.concat(json).toString('utf8'));
  });
  up.on('error', () => res.destroy());
}

export function startMcpHttpProxy(upstream: URL, recorder: McpRecorder, port = 0): Promise<McpHttpProxy> {
  const client = upstream.protocol === 'https:' ? https : http;
  const server = http.createServer((req, res) => {
    req.on('error', () => res.destroy());
    collectBody(req, MAX_BODY, () => refuse(res, 413, `request body is over the ${MAX_BODY}-byte limit`), (body) => {
      if (body.length && String(req.headers['content-type'] ?? '').includes('json')) recorder.message('client', body.toString('utf8'));
      const target = new URL(req.url ?? '/', upstream);
      const headers = passed(req.headers);
      // answers come back uncompressed, so the messages in them can be read as they pass
      delete headers['accept-encoding'];
      if (body.length || req.method === 'POST') headers['content-length'] = body.length;
      const out = client.request(target, { method: req.method, headers }, (up) => relay(up, res, recorder));
      out.on('error', (e) => {
        if (!res.headersSent) refuse(res, 502, `upstream ${upstream.origin} failed: ${e.message}`);
        else res.destroy();
      });
      // the client went away: so does the upstream request (a long SSE stream included)
      res.on('close', () => {
        if (!res.writableFinished) out.destroy();
      });
      out.end(body);
    });
  });
  server.headersTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      const actual = (server.address() as AddressInfo).port;
      resolve({
        port: actual,
        url: `http://${HOST}:${actual}${upstream.pathname}${upstream.search}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
