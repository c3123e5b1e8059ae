// A real MCP server from npm, @modelcontextprotocol/server-everything, over Streamable HTTP on 127.0.0.1 only
// (its own launcher listens on every interface). Prints {"port": N} once listening; stops on SIGTERM, when its
// stdin closes (the test that started it is gone), or by itself after a minute.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createServer } from '@modelcontextprotocol/server-everything/dist/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const sessions = new Map();

function refuse(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

const server = http.createServer(async (req, res) => {
  if (!req.url.startsWith('/mcp')) return refuse(res, 404, 'not found');
  const id = req.headers['mcp-session-id'];
  let transport = id ? sessions.get(id) : undefined;
  if (!transport) {
    if (id || req.method !== 'POST') return refuse(res, 400, 'no valid session id');
    const { server: mcp } = createServer();
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    await mcp.connect(transport);
  }
  try {
    await transport.handleRequest(req, res);
  } catch (e) {
    if (!res.headersSent) refuse(res, 500, String(e));
  }
});

server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
setTimeout(stop, 60_000);
