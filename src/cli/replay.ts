// `contract-guard replay [fixtures...] [--contracts PATH]...`: re-check every frozen fixture against today's
// contracts and print `fixture  frozen verdict  verdict now  status`. Exit 0: no drift; 1: drift (a call that
// was rejected now passes, or the reverse, or other codes); 2: usage or I/O error, or an unreadable fixture.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { type ContractSet, isDrift, type Profile, renderReplayTable, replayFixture, type ReplayOutcome, replaySummary } from '../core';
import { loadContractPaths } from './contracts';
import { configuredFixturesFolder, DEFAULT_FIXTURES_FOLDER, findFixtureFiles } from './fixture-files';
import { displayPath, UsageError } from './files';

export const REPLAY_USAGE = `usage: contract-guard replay [fixtures...] --contracts PATH... [--profile strict|json-schema] [--format text|json]

Re-checks every fixture (*.fixture.json under the given files or folders; default ${DEFAULT_FIXTURES_FOLDER}) against
the contracts given with --contracts, under the profile each was frozen with (or --profile), and prints
fixture, frozen verdict, verdict now and status. A call that was rejected and now passes has loosened; one that
passed (or had fewer codes) and now fails has tightened.

Exit codes: 0 no drift, 1 drift, 2 usage or I/O error or an unreadable fixture.`;

export interface ReplayRun {
  outcomes: ReplayOutcome[];
  exitCode: number;
}

/** Replay fixture files from disk (used by the command and by the test that keeps the repo's fixtures honest). */
export async function replayFiles(fixturePaths: string[], contractPaths: string[], profile?: Profile): Promise<ReplayRun> {
  const files = await findFixtureFiles(fixturePaths);
  if (!files.length) throw new UsageError(`no fixtures (*.fixture.json) under ${fixturePaths.join(', ')}`);
  const byProfile = new Map<Profile, ContractSet>();
  for (const p of ['strict', 'json-schema'] as const) {
    if (profile && p !== profile) continue;
    byProfile.set(p, (await loadContractPaths(contractPaths, p)).contracts);
  }
  const outcomes: ReplayOutcome[] = [];
  for (const file of files) {
    const text = await fs.readFile(file, 'utf8');
    outcomes.push(replayFixture(displayPath(path.resolve(file)), text, { contracts: byProfile.get(profile ?? 'strict')!, profile, contractsFor: (p) => byProfile.get(p)! }));
  }
  const exitCode = outcomes.some((o) => o.status === 'invalid') ? 2 : outcomes.some(isDrift) ? 1 : 0;
  return { outcomes, exitCode };
}

export async function replayCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      contracts: { type: 'string', multiple: true },
      profile: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(REPLAY_USAGE + '\n');
    return 0;
  }
  if (values.profile !== undefined && values.profile !== 'strict' && values.profile !== 'json-schema') throw new UsageError(`--profile must be one of strict, json-schema, not ${values.profile}`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be one of text, json, not ${format}`);
  if (!values.contracts?.length) throw new UsageError('replay needs --contracts: the contracts to hold the fixtures to');
  const run = await replayFiles(positionals.length ? positionals : [await configuredFixturesFolder()], values.contracts, values.profile);
  let out: string;
  if (format === 'json') {
    const fixtures = run.outcomes.map(({ findings: _f, ...o }) => o);
    const summary = { fixtures: fixtures.length, noDrift: 0, loosened: 0, tightened: 0, changed: 0, invalid: 0 };
    for (const o of run.outcomes) summary[o.status === 'no-drift' ? 'noDrift' : o.status] += 1;
    out = JSON.stringify({ version: 1, fixtures, summary }, null, 2) + '\n';
  } else {
    out = renderReplayTable(run.outcomes) + '\n' + replaySummary(run.outcomes) + '\n';
  }
  await new Promise<void>((resolve) => process.stdout.write(out, () => resolve()));
  for (const o of run.outcomes) if (o.status === 'invalid') process.stderr.write(`contract-guard: ${o.name}: ${o.detail}\n`);
  return run.exitCode;
}
