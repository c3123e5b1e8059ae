// `contract-guard freeze FILE:LINE | FILE --all`: freeze the call(s) at a line of a trace as fixtures, so the
// editor's "Freeze this call" is also reachable from scripts and CI.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { callsOnLine, checkForFreeze, freeze, joinInside, verdictText } from '../core';
import { loadContractPaths } from './contracts';
import { configuredFixturesFolder, DEFAULT_FIXTURES_FOLDER, writeNewFile } from './fixture-files';
import { displayPath, UsageError } from './files';

export const FREEZE_USAGE = `usage: contract-guard freeze FILE:LINE [--call-id ID] [--contracts PATH]... [--out DIR] [--profile strict|json-schema]
       contract-guard freeze FILE --all [--contracts PATH]... [--out DIR] [--profile ...]

Freezes the tool call(s) that start on, end on or span LINE of the trace FILE (every call with --all) as
fixture files <tool>/<tool>-<fingerprint>.fixture.json under --out (default ${DEFAULT_FIXTURES_FOLDER}), holding the
arguments as recorded, the verdict they get against --contracts, the recorded result and where they came from.
An existing fixture is never overwritten. Exit 0: written or already there; 2: usage or I/O error, or no call there.`;

export async function freezeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      contracts: { type: 'string', multiple: true },
      out: { type: 'string' },
      profile: { type: 'string' },
      'call-id': { type: 'string' },
      all: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(FREEZE_USAGE + '\n');
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('freeze takes one FILE:LINE (or FILE with --all); try: contract-guard freeze --help');
  const profile = values.profile ?? 'strict';
  if (profile !== 'strict' && profile !== 'json-schema') throw new UsageError(`--profile must be one of strict, json-schema, not ${profile}`);
  const m = /^(.*):(\d+)$/.exec(positionals[0]);
  if (!m && !values.all) throw new UsageError(`${positionals[0]}: give FILE:LINE, or FILE with --all`);
  const file = m && !values.all ? m[1] : positionals[0];
  const line = m && !values.all ? Number(m[2]) : undefined;

  const { contracts } = await loadContractPaths(values.contracts ?? [], profile);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new UsageError(`${file}: cannot read the file`);
  }
  const trace = checkForFreeze(text, { fileName: displayPath(path.resolve(file)), contracts, profile });
  let sites = line === undefined ? trace.sites : callsOnLine(trace, line);
  if (values['call-id'] !== undefined) sites = sites.filter((s) => s.callId === values['call-id']);
  if (!sites.length) {
    const what = values['call-id'] !== undefined ? `no call with id ${values['call-id']}` : 'no tool call';
    throw new UsageError(`${displayPath(path.resolve(file))}${line === undefined ? '' : `:${line}`}: ${what} there`);
  }
  const out = values.out ?? (await configuredFixturesFolder());
  for (const site of sites) {
    const frozen = freeze(trace, site);
    const target = joinInside(out, frozen.relativePath);
    const outcome = await writeNewFile(target, frozen.text);
    const verb = outcome === 'written' ? 'wrote ' : 'exists';
    process.stdout.write(`${verb}  ${displayPath(path.resolve(target))}  ${site.tool} at line ${site.line}: ${verdictText(frozen.fixture.verdict)}\n`);
  }
  return 0;
}
