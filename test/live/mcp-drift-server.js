// A small MCP stdio server whose answers drift from what it declares: `get_forecast` lists an outputSchema and
// returns structuredContent of another type (a result-contract finding), and answers any arguments (so a bad call
// gets an answer, not an error). Built on the SDK's low-level Server, which does not validate its own answers.
// --exit-code N: exit with N when stdin closes. On SIGTERM it says so on stderr, then dies of that signal.
// Stops by itself after a minute.
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

const exitAt = process.argv.indexOf('--exit-code');
const exitCode = exitAt === -1 ? 0 : Number(process.argv[exitAt + 1]);

const server = new Server({ name: 'drift', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{
    name: 'get_forecast',
    description: 'Forecast for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'], additionalProperties: false },
    outputSchema: { type: 'object', properties: { temperature: { type: 'number' }, conditions: { type: 'string' } }, required: ['temperature', 'conditions'], additionalProperties: false },
  }],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const city = String(req.params.arguments?.city);
  const forecast = { temperature: 'warm', conditions: `sonnig in ${city} ☀` };
  return { content: [{ type: 'text', text: JSON.stringify(forecast) }], structuredContent: forecast };
});

process.on('SIGTERM', () => {
  process.stderr.write('drift-server: got SIGTERM\n');
  process.removeAllListeners('SIGTERM');
  process.kill(process.pid, 'SIGTERM');
});
process.stdin.on('end', () => process.exit(exitCode));
setTimeout(() => process.exit(exitCode), 60_000).unref();
server.connect(new StdioServerTransport()).catch((e) => {
  process.stderr.write(`drift-server: ${e}\n`);
  process.exit(1);
});
