// `contract-guard mcp wrap`: an MCP server behind a transparent proxy that records every JSON-RPC message to a
// JSONL file (`check FILE` reads it) and prints the findings of the calls as they are made. Over stdio the
// findings go to stderr (stdout is the protocol's); over Streamable HTTP to stdout, after the line that says where
// the proxy listens.
import { constants } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { displayPath, UsageError } from '../files';
import { HOST } from '../serve';
import { LiveFindings } from './findings';
import { JsonlOut, outFile } from './jsonl';
import { startMcpHttpProxy } from './mcp-http';
import { McpRecorder } from './mcp-recorder';
import { wrapStdio } from './mcp-stdio';
import { liveCheckOptions } from './options';

export const MCP_USAGE = `usage: contract-guard mcp wrap [--out FILE] [--contracts PATH]... -- COMMAND [ARGS...]
       contract-guard mcp wrap --upstream URL [--port N] [--out FILE] [--contracts PATH]...

Runs the MCP stdio server COMMAND behind a transparent proxy: a client configured to run
"contract-guard mcp wrap -- npx some-server" instead of the server gets the server's bytes unchanged on stdout,
and every JSON-RPC message both ways is recorded to FILE as JSONL (default traces/mcp-<date>T<time>.jsonl; --out
FOLDER/ puts that name in FOLDER; a FILE is written afresh: one file is one session). Each tools/call is held to the server's own tools/list (inputSchema, and
outputSchema for structuredContent) and to the contracts --contracts names (else the config's); findings are
printed to stderr as they are found, in check's text line format. Signals are passed to the server, and its exit
code (or the signal that ended it) is the wrapper's.
With --upstream URL, a Streamable HTTP server: the proxy listens on ${HOST}:N (--port, default 0: a free port;
the first line printed says where), passes requests and the mcp-session-id header upstream and relays JSON and
SSE answers as they arrive; findings are printed to stdout. Stops on SIGINT or SIGTERM.`;

export async function mcpCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(MCP_USAGE + '\n');
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'wrap') throw new UsageError(`unknown mcp command ${sub}; try: contract-guard mcp wrap --help`);
  // everything after `--` is the server's command line, never our options
  const dash = rest.indexOf('--');
  const { values, positionals } = parseArgs({
    args: dash === -1 ? rest : rest.slice(0, dash),
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      contracts: { type: 'string', multiple: true },
      upstream: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(MCP_USAGE + '\n');
    return 0;
  }
  const command = [...positionals, ...(dash === -1 ? [] : rest.slice(dash + 1))];
  if (values.upstream !== undefined) {
    if (command.length) throw new UsageError('give either --upstream URL or -- COMMAND, not both');
    return wrapHttp(upstreamUrl(values.upstream), portOf(values.port), values.out, values.contracts);
  }
  if (values.port !== undefined) throw new UsageError('--port needs --upstream URL (a stdio server has no port)');
  if (!command.length) throw new UsageError('no server command: contract-guard mcp wrap -- COMMAND [ARGS...]');
  return wrapCommand(command, values.out, values.contracts);
}

function upstreamUrl(given: string): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`--upstream must be an http(s) URL, not ${given}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--upstream must be an http(s) URL, not ${given}`);
  return url;
}

function portOf(given: string | undefined): number {
  const port = Number(given ?? '0');
  if (!/^\d+$/.test(given ?? '0') || port > 65535) throw new UsageError(`--port must be an integer 0..65535, not ${given}`);
  return port;
}

async function recorderFor(out: string | undefined, contracts: string[] | undefined, write: (line: string) => void): Promise<{ recorder: McpRecorder; file: JsonlOut; findings: LiveFindings }> {
  const options = await liveCheckOptions(contracts);
  const file = JsonlOut.open(outFile(out, 'mcp'), false);
  const findings = new LiveFindings(write);
  return { recorder: new McpRecorder(file, displayPath(path.resolve(file.file)), options, findings), file, findings };
}

const summary = (r: McpRecorder, f: LiveFindings, file: JsonlOut) =>
  `${r.messages} message${r.messages === 1 ? '' : 's'} recorded to ${displayPath(path.resolve(file.file))}; ${f.shown.length} finding${f.shown.length === 1 ? '' : 's'}`;

async function wrapCommand(command: string[], out: string | undefined, contracts: string[] | undefined): Promise<number> {
  const err = (line: string) => process.stderr.write(line + '\n');
  const { recorder, file, findings } = await recorderFor(out, contracts, err);
  err(`contract-guard: recording ${command.join(' ')} to ${displayPath(path.resolve(file.file))}`);
  let exit;
  try {
    exit = await wrapStdio(command, recorder);
  } finally {
    recorder.end();
  }
  err(`contract-guard: ${summary(recorder, findings, file)}`);
  if (exit.signal) {
    // end the way the server ended: our parent sees the same signal
    process.kill(process.pid, exit.signal);
    return 128 + (constants.signals[exit.signal] ?? 0);
  }
  return exit.code ?? 1;
}

async function wrapHttp(upstream: URL, port: number, out: string | undefined, contracts: string[] | undefined): Promise<number> {
  const log = (line: string) => process.stdout.write(line + '\n');
  const { recorder, file, findings } = await recorderFor(out, contracts, log);
  let proxy;
  try {
    proxy = await startMcpHttpProxy(upstream, recorder, port);
  } catch (e) {
    recorder.end();
    throw new UsageError(`cannot listen on ${HOST}:${port}: ${(e as Error).message}`);
  }
  log(`listening on ${proxy.url} (MCP proxy for ${upstream.href}; recording to ${displayPath(path.resolve(file.file))})`);
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      log(`${signal}: stopping`);
      void proxy.close().then(() => {
        recorder.end();
        log(`stopped: ${summary(recorder, findings, file)}`);
        resolve(0);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
