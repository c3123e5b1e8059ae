// contract-guard: the command-line twin of the extension. `check` holds every tool call in the given traces to
// its contract and prints text, JSON or SARIF. Exit 0: nothing at or above --fail-on; 1: findings; 2: usage,
// I/O or contract error (one line on stderr).
import './heap-flags'; // first: `check` sets its V8 flags before the rest of the CLI loads
import { parseArgs } from 'node:util';
import { checkText, CODES, codesMarkdown, decodeText, jsonlWriter, jsonWriter, LineIndex, markdownWriter, packsMarkdown, sarifWriter, type Severity, textWriter } from '../core';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadConfiguredContracts } from './contracts';
import { displayPath, findTraceFiles, UsageError } from './files';
import { CHECKING_FLAGS, checkingSettings, filterByGlobs, oneOf, positiveFlag } from './settings';
import { checkFiles, defaultJobs, type TraceTarget } from './check-files';
import { diagnosticsOf, fileEntry, type EntrySettings, type FileReport } from './entry';
import { writeReport } from './report-run';
import { freezeCommand } from './freeze';
import { replayCommand } from './replay';
import { serveCommand } from './serve';
import { mcpCommand } from './live/mcp';
import { otlpCommand } from './live/otlp';
import { recordCommand } from './live/record';
import { watchCommand } from './watch';
import { inferCommand } from './infer';
import { compareCommand } from './compare';
import { tableCommand } from './table';
import { markdownLinks } from './links';
import { leaveNoTemporariesOnSignal } from './atomic';

const VERSION = '0.1.0';

const USAGE = `usage: contract-guard check [paths...|-] [--contracts PATH]... [--format text|json|jsonl|sarif|markdown]
                            [--profile strict|json-schema] [--fail-on error|warning|info|never]
                            [--config FILE] [--only CODE,...] [--ignore CODE,...] [--output FILE] [--no-packs]
                            [--max-value-length N] [--baseline FILE [--update-baseline]] [--read-as READER] [--jobs N]
       contract-guard compare A B [--contracts PATH]... [--format text|json|markdown] [--fail-on new-findings|new-shapes|never]
       contract-guard compare --fixtures DIR TRACES... [--contracts PATH]... [--format text|json|markdown]
       contract-guard table FILE [--contracts PATH]... [--format text|json|markdown] [--fixtures DIR]
       contract-guard infer <traces...> [--output FILE]

Checks every tool call in the trace files under PATHS (files or folders, .gz read directly, - for stdin;
default: the config's "traces" globs, else .) against the contracts given with --contracts (contract files or
folders; default: the config's "contracts" globs), the tool definitions recorded in the traces and the built-in
packs of the agent that wrote them (Claude Code, Codex, OpenHands, SWE-agent, MCP servers; --no-packs: none).
Settings come from contract-guard.config.json in the working folder (or --config FILE); flags override it.
--only / --ignore keep or drop diagnostic codes; --max-value-length cuts quoted values in messages (default 80).
A file is read as JSONL or as one JSON document by its content, whatever its name; the format is recognised by
its content too (--read-as READER forces one: an adapter id such as claude-code or gemini, or generic, the shape
reader). A file named here (or by the config's "traces") that no reader understands is an unknown-format
warning; non-trace JSON met while walking a folder is only counted as "not read" in the summary.
--baseline FILE: findings in the baseline are reported as accepted and do not fail the run; with
--update-baseline, write every current finding to FILE instead.
The report is written as files are checked. --format jsonl: one JSON line per finding ("path" first), then one
{"summary": ...} line. --jobs N: check on N threads (default: the machine's cores); files, and the slices of a
large JSONL whose lines are each a whole conversation, are checked at once; the output is the same as --jobs 1.
--format markdown prints a summary for a pull-request comment or $GITHUB_STEP_SUMMARY (counts, a table, the first
findings with file:line links relative to the repository root; on GitHub Actions, links to the commit).
compare: what changed between two runs (key shapes, findings new / fixed / unchanged), or with --fixtures which
shapes of the traces no fixture covers (see compare --help). table: the decision table of one trace.
infer writes a starter contract (Contract Guard format) from the calls in the traces; it never overwrites a file.

Exit codes: 0 nothing at or above --fail-on (default error), 1 findings, 2 usage, I/O or contract error.

Frozen fixtures: contract-guard freeze FILE:LINE | replay [fixtures...] | serve [fixtures...] (each with --help).
Live: contract-guard record --upstream URL (a recording proxy for model APIs; see record --help).
Live: contract-guard watch [PATHS...] (follows growing traces, prints new findings; see watch --help).
Live: contract-guard mcp wrap -- COMMAND (an MCP server behind a recording proxy; also --upstream URL for HTTP).
Live: contract-guard otlp [--port N] (an OTLP/HTTP trace receiver that checks tool spans as they arrive).
Diagnostic codes: contract-guard codes (markdown documentation of every code).
Built-in contract packs: contract-guard packs (markdown: each pack, the version it describes, its tools).`;

async function check(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...CHECKING_FLAGS,
      format: { type: 'string' },
      'fail-on': { type: 'string' },
      output: { type: 'string', short: 'o' },
      baseline: { type: 'string' },
      'update-baseline': { type: 'boolean' },
      jobs: { type: 'string', short: 'j' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  leaveNoTemporariesOnSignal();
  const { config, root, readAs, severity } = await checkingSettings(values, {
    failOn: values['fail-on'] === undefined ? undefined : oneOf<Severity | 'never'>('fail-on', values['fail-on'], ['error', 'warning', 'info', 'never'] as const, 'error'),
  });
  const fromRoot = (p: string) => path.resolve(root, p);
  const format = oneOf('format', values.format, ['text', 'json', 'jsonl', 'sarif', 'markdown'] as const, 'text');
  const jobs = values.jobs === undefined ? defaultJobs() : positiveFlag('jobs', values.jobs);
  const profile = config.profile ?? 'strict';
  const failOn = config.failOn ?? 'error';

  const { contracts, paths: contractPaths, files: contractFiles } = await loadConfiguredContracts(values.contracts, config.contracts, root, profile);

  // Traces: the paths given (`-` is stdin), else the config's globs, else the working folder (never the baseline).
  const baselineFile = values.baseline ?? (config.baseline !== undefined ? fromRoot(config.baseline) : undefined);
  const notTraces = new Set([...contractPaths, ...(baselineFile ? [path.resolve(baselineFile)] : [])]);
  const stdin = positionals.includes('-');
  const given = positionals.filter((p) => p !== '-');
  let traces: string[] = [];
  // Files the user named (on the command line, or by the config's globs) must be traces: one that is not is a warning.
  const named = new Set<string>();
  if (given.length) {
    traces = await findTraceFiles(given, notTraces);
    for (const p of await namedFiles(given)) named.add(p);
  } else if (!stdin) {
    traces = await findTraceFiles(config.traces?.length ? [root] : ['.'], notTraces);
    if (config.traces?.length) {
      traces = filterByGlobs(traces, root, config.traces);
      for (const t of traces) named.add(t);
    }
  }
  const settings = { profile, severity, volatileTools: config.volatileTools, packs: config.packs, maxValueLength: config.maxValueLength, readAs };
  const options = { ...settings, contracts };
  const json = format === 'json' && baselineFile === undefined && values['update-baseline'] !== true;
  const entry: EntrySettings = { ignore: config.ignore, unknownSeverity: severity?.['unknown-format'] ?? CODES['unknown-format'].severity, readAs, ...(json && { json }) };
  const targets: TraceTarget[] = traces.map((file) => ({ file, shown: displayPath(file), rel: path.relative(root, file).split(path.sep).join('/'), wanted: named.has(file) }));
  const checked = checkFiles({ targets, options, settings: { options: settings, contracts: { files: contractFiles, profile }, entry }, jobs });
  async function* entries(): AsyncGenerator<FileReport> {
    if (stdin) {
      const text = await readStdin();
      const result = checkText(text, options);
      const index = LineIndex.of(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      yield fileEntry('-', result.format, result.calls, diagnosticsOf(result.findings, index, '-', entry), true, entry);
    }
    yield* checked;
  }

  // Baseline: findings it accepts are reported as baselined and do not fail the run; --update-baseline writes it.
  const toFile = values.output !== undefined && values.output !== '-';
  const writer = format === 'json' ? jsonWriter()
    : format === 'jsonl' ? jsonlWriter()
      : format === 'sarif' ? sarifWriter(VERSION, baselineFile !== undefined)
        : format === 'markdown' ? markdownWriter(markdownLinks())
          : textWriter(!toFile && process.stdout.isTTY === true);
  return writeReport(entries(), { writer, output: values.output, failOn, baselineFile, updateBaseline: values['update-baseline'] === true });
}

/** The given paths that are files (not folders), resolved as findTraceFiles resolves them. */
async function namedFiles(given: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of given) {
    const stat = await fs.stat(p).catch(() => undefined);
    if (stat?.isFile()) out.push(path.resolve(p));
  }
  return out;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return decodeText(Buffer.concat(chunks)); // UTF-8 or UTF-16 (PowerShell's pipe), without its BOM
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
  if (command === 'record') return recordCommand(rest);
  if (command === 'watch') return watchCommand(rest);
  if (command === 'infer') return inferCommand(rest);
  if (command === 'compare') return compareCommand(rest);
  if (command === 'table') return tableCommand(rest);
  if (command === 'mcp') return mcpCommand(rest);
  if (command === 'otlp') return otlpCommand(rest);
  if (command === 'packs') {
    process.stdout.write(packsMarkdown());
    return 0;
  }
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
