// contract-guard: the command-line twin of the extension. `check` holds every tool call in the given traces to
// its contract and prints text, JSON or SARIF. Exit 0: nothing at or above --fail-on; 1: findings; 2: usage,
// I/O or contract error (one line on stderr).
import { parseArgs } from 'node:util';
import type { Profile } from '../core/contracts/compile';
import { buildReport, hasFindingsAtOrAbove, reportFile, type ReportFile } from '../core/report/model';
import { renderJson } from '../core/report/json';
import { renderSarif } from '../core/report/sarif';
import { renderText } from '../core/report/text';
import type { Severity } from '../core/model';
import { loadContractPaths } from './contracts';
import { displayPath, findTraceFiles, UsageError } from './files';
import { checkFile } from './stream';
import { freezeCommand } from './freeze';
import { replayCommand } from './replay';
import { serveCommand } from './serve';
import { codesMarkdown } from '../core/report/codes-doc';

const VERSION = '0.1.0';

const USAGE = `usage: contract-guard check [paths...] [--contracts PATH]... [--format text|json|sarif]
                            [--profile strict|json-schema] [--fail-on error|warning|info|never]

Checks every tool call in the trace files under PATHS (files or folders; default: .) against the contracts
given with --contracts (contract files or folders) and the tool definitions recorded in the traces.

Exit codes: 0 nothing at or above --fail-on (default error), 1 findings, 2 usage, I/O or contract error.

Frozen fixtures: contract-guard freeze FILE:LINE | replay [fixtures...] | serve [fixtures...] (each with --help).
Diagnostic codes: contract-guard codes (markdown documentation of every code).`;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not ${value}`);
  return value as T;
}

async function check(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      contracts: { type: 'string', multiple: true },
      format: { type: 'string' },
      profile: { type: 'string' },
      'fail-on': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const format = oneOf('format', values.format, ['text', 'json', 'sarif'] as const, 'text');
  const profile = oneOf<Profile>('profile', values.profile, ['strict', 'json-schema'] as const, 'strict');
  const failOn = oneOf<Severity | 'never'>('fail-on', values['fail-on'], ['error', 'warning', 'info', 'never'] as const, 'error');

  const { contracts, paths: contractPaths } = await loadContractPaths(values.contracts ?? [], profile);

  const traces = await findTraceFiles(positionals.length ? positionals : ['.'], new Set(contractPaths));
  const reported: ReportFile[] = [];
  for (const file of traces) {
    const { result, index } = await checkFile(file, { contracts, profile });
    const entry = reportFile(displayPath(file), result, index);
    if (result.format === undefined && result.findings.length === 0) {
      entry.diagnostics.push({ code: 'unknown-format', severity: 'info', message: 'not a trace in any known format; nothing was checked', line: 1, column: 1, endLine: 1, endColumn: 1 });
    }
    reported.push(entry);
  }
  const report = buildReport(reported);
  const out = format === 'json' ? renderJson(report) : format === 'sarif' ? renderSarif(report, VERSION) : renderText(report, process.stdout.isTTY === true);
  await new Promise<void>((resolve) => process.stdout.write(out, () => resolve()));
  return hasFindingsAtOrAbove(report, failOn) ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') {
    process.stdout.write(VERSION + '\n');
    return 0;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return command === undefined ? 2 : 0;
  }
  if (command === 'check') return check(rest);
  if (command === 'codes') {
    process.stdout.write(codesMarkdown());
    return 0;
  }
  if (command === 'freeze') return freezeCommand(rest);
  if (command === 'replay') return replayCommand(rest);
  if (command === 'serve') return serveCommand(rest);
  throw new UsageError(`unknown command ${command}; try: contract-guard check --help`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const message = e instanceof UsageError || (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || (e as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')
      ? (e as Error).message
      : `internal error: ${(e as Error)?.stack ?? String(e)}`;
    process.stderr.write(`contract-guard: ${message.split('\n')[0]}\n`);
    process.exitCode = 2;
  },
);
