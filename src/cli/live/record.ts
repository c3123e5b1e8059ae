// `contract-guard record --upstream URL [--port N] [--out FILE] [--contracts PATH]...`: the recording proxy
// (proxy.ts) as a command. stdout: the line saying where it listens, then each new finding in `check`'s text line
// format; stderr: one line per exchange. Stops on SIGINT or SIGTERM.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { displayPath, UsageError } from '../files';
import { defaultOutFile } from './jsonl';
import { liveCheckOptions } from './options';
import { HOST, parseUpstream, startRecordingProxy, type RecordingProxy } from './proxy';

export const RECORD_USAGE = `usage: contract-guard record --upstream URL [--port N] [--out FILE] [--contracts PATH]...

A recording proxy for model APIs on ${HOST} (never another interface). Point a client's base URL at it
(OpenAI-compatible clients: http://${HOST}:PORT/v1; Anthropic: http://${HOST}:PORT): each call of
/v1/chat/completions, /v1/responses and /v1/messages goes to the upstream (e.g. https://api.openai.com) and its
answer comes back unchanged, plain or streamed as it arrives. Every exchange is appended to FILE (default
traces/recorded-<date and time>.jsonl) as one JSONL line that \`contract-guard check\` reads, and checked at once:
new findings are printed in check's text line format. The request's own tools are the contract unless --contracts
(or contract-guard.config.json's "contracts" globs) names contract files; the config's other settings apply as
check applies them to FILE. Credentials (Authorization, x-api-key, key-like headers and query values) never reach
FILE. An upstream that cannot be reached: the client gets 502 with a one-line JSON error. --port 0 (the default)
picks a free port; the first line printed says which. Stops on SIGINT or SIGTERM.`;

export async function recordCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string' },
      out: { type: 'string', short: 'o' },
      contracts: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(RECORD_USAGE + '\n');
    return 0;
  }
  if (values.upstream === undefined) throw new UsageError('record needs --upstream URL (e.g. --upstream https://api.openai.com)');
  const upstream = parseUpstream(values.upstream);
  if (typeof upstream === 'string') throw new UsageError(upstream);
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer 0..65535, not ${values.port}`);
  const check = await liveCheckOptions(values.contracts);
  const out = values.out ?? defaultOutFile('recorded');
  const write = (stream: NodeJS.WriteStream) => (line: string) => stream.write(line + '\n');
  let proxy: RecordingProxy;
  try {
    proxy = await startRecordingProxy({
      upstream: values.upstream,
      port,
      out,
      check,
      shownAs: displayPath(path.resolve(out)),
      onFinding: write(process.stdout),
      log: write(process.stderr),
    });
  } catch (e) {
    const message = (e as Error).message;
    throw new UsageError(message.startsWith(out) ? message : `cannot listen on ${HOST}:${port}: ${message}`);
  }
  const say = write(process.stdout);
  say(`listening on ${proxy.url}/ (recording ${upstream.origin}${upstream.pathname === '/' ? '' : upstream.pathname} to ${displayPath(path.resolve(out))}; base URL ${proxy.url}/v1 for OpenAI clients, ${proxy.url} for Anthropic)`);
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write(`${signal}: stopping (${proxy.exchanges} exchange${proxy.exchanges === 1 ? '' : 's'} recorded)\n`);
      void proxy.close().then(() => resolve(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
