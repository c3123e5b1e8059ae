// `contract-guard compare A B`: what changed between two runs (key shapes per tool, findings new / fixed /
// unchanged by fingerprint, per-100-call rates); `compare --fixtures DIR TRACES...`: the shapes the traces show
// that no fixture covers. Each file is checked and summarised as it streams by; no trace text outlives its check.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkFixture, type CheckOptions, type CompareFailOn, compareFails, compareRuns, type ContractGuardConfig, FIXTURE_SUFFIX, isIgnored, LineIndex, mockCoverage, type Profile, renderCompareMarkdown, renderCompareText, renderCoverageMarkdown, renderCoverageText, RunCollector, type RunSummary } from '../core';
import { loadConfiguredContracts } from './contracts';
import { displayPath, expandGlobs, findTraceFiles, UsageError } from './files';
import { findFixtureFiles } from './fixture-files';
import { markdownLinks } from './links';
import { loadConfig, oneOf, severityOf } from './settings';
import { checkFile } from './stream';

export const COMPARE_USAGE = `usage: contract-guard compare A B [--contracts PATH]... [--format text|json|markdown]
                              [--fail-on new-findings|new-shapes|never] [--profile strict|json-schema] [--config FILE]
       contract-guard compare --fixtures DIR TRACES... [--contracts PATH]... [--format text|json|markdown]

A and B are runs: a file, a folder (walked for trace files) or a quoted glob ('runs/b/*.jsonl'); all the traces of
one side form that run. Prints, per tool, the key shapes (the sets of argument keys, as the decision table's census
counts them) of A and of B with their counts, shapes new in B marked; the findings new in B, fixed in B and
unchanged, matched by their fingerprint (code, tool, the call's arguments, the place in the call), so moved lines
and renamed files change nothing; and calls, tools and findings per 100 calls on each side.
Exit 1 when B brings a new finding (error or warning) or a new shape (--fail-on narrows that to one, or never),
0 when the runs agree, 2 on usage or I/O errors.

With --fixtures DIR: DIR holds frozen fixtures (*${FIXTURE_SUFFIX}) or mocks and recorded test payloads in any
trace format; prints the shapes the TRACES show that no fixture covers, per tool, each with an example call and
where it is. Exit 1 when a shape is uncovered (unless --fail-on never or new-findings), 0 when all are covered.`;

/** The flags compare and table share (parseArgs options). */
export const RUN_FLAGS = {
  contracts: { type: 'string', multiple: true },
  format: { type: 'string' },
  fixtures: { type: 'string' },
  profile: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface RunSettings {
  options: CheckOptions;
  config: ContractGuardConfig;
  root: string;
  contractPaths: Set<string>;
}

/** The settings `check` would use (config file under --contracts / --profile flags), for compare and table. */
export async function loadRunSettings(values: { config?: string; contracts?: string[]; profile?: string }): Promise<RunSettings> {
  const { config, root } = await loadConfig(values.config);
  const profile = oneOf<Profile>('profile', values.profile, ['strict', 'json-schema'], config.profile ?? 'strict');
  const { contracts, paths } = await loadConfiguredContracts(values.contracts, config.contracts, root, profile);
  const options: CheckOptions = { contracts, profile, severity: severityOf(config), volatileTools: config.volatileTools, packs: config.packs, maxValueLength: config.maxValueLength };
  return { options, config, root, contractPaths: new Set(paths) };
}

/** The config's ignore rules, as `check` applies them. */
export function keepFinding(settings: RunSettings, file: string): (f: { code: string; tool?: string }) => boolean {
  const rel = path.relative(settings.root, file).split(path.sep).join('/');
  return (f) => !isIgnored(settings.config.ignore, f, rel);
}

/** Check the files of one run and summarise it; `fixtures`: frozen fixture files count too (the --fixtures side). */
export async function collectRun(given: string[], settings: RunSettings, fixtures = false): Promise<RunSummary> {
  const paths = await expandGlobs(given);
  const files = await findTraceFiles(paths, settings.contractPaths);
  if (fixtures) files.push(...(await findFixtureFiles(paths)).map((f) => path.resolve(f)));
  if (!files.length) throw new UsageError(`no trace files under ${given.join(', ')}`);
  const run = new RunCollector({ contracts: settings.options.contracts, profile: settings.options.profile, volatileTools: settings.options.volatileTools });
  const unique = [...new Set(files)];
  // a file's path within its run: relative to the folder all of the run's files are under
  let base = path.dirname(unique[0]);
  while (!unique.every((f) => f.startsWith(base + path.sep)) && path.dirname(base) !== base) base = path.dirname(base);
  for (const file of unique) {
    const sink = run.file(displayPath(file), path.relative(base, file).split(path.sep).join('/'));
    const options = { ...settings.options, onSession: sink.onSession };
    let checked;
    try {
      if (file.endsWith(FIXTURE_SUFFIX)) {
        const text = await fs.readFile(file, 'utf8');
        checked = { result: checkFixture(text, options), index: LineIndex.of(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
      } else checked = await checkFile(file, options);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (typeof code === 'string' && code.startsWith('E')) throw new UsageError(`${displayPath(file)}: cannot read (${code})`);
      throw e;
    }
    const { result, index } = checked;
    result.findings = result.findings.filter(keepFinding(settings, file));
    sink.done(result, (offset) => index.position(offset));
  }
  return run.summary();
}

export async function writeOut(text: string): Promise<void> {
  await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
}

export async function compareCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...RUN_FLAGS, 'fail-on': { type: 'string' } } });
  if (values.help) {
    await writeOut(COMPARE_USAGE + '\n');
    return 0;
  }
  const format = oneOf('format', values.format, ['text', 'json', 'markdown'] as const, 'text');
  const failOn: CompareFailOn = oneOf('fail-on', values['fail-on'], ['new-findings', 'new-shapes', 'never'] as const, 'any');
  if (values.fixtures !== undefined) {
    if (!positionals.length) throw new UsageError('compare --fixtures DIR needs the traces to hold to the fixtures; try: contract-guard compare --help');
    const settings = await loadRunSettings(values);
    const fixtures = await collectRun([values.fixtures], settings, true);
    const traces = await collectRun(positionals, settings);
    const coverage = mockCoverage(fixtures, traces);
    await writeOut(format === 'json' ? JSON.stringify(coverage, null, 2) + '\n' : format === 'markdown' ? renderCoverageMarkdown(coverage, markdownLinks()) : renderCoverageText(coverage));
    return coverage.uncovered > 0 && (failOn === 'any' || failOn === 'new-shapes') ? 1 : 0;
  }
  if (positionals.length !== 2) throw new UsageError(`compare needs two runs, A and B (got ${positionals.length}; quote globs so the shell leaves them whole)`);
  const settings = await loadRunSettings(values);
  const a = await collectRun([positionals[0]], settings);
  const b = await collectRun([positionals[1]], settings);
  const comparison = compareRuns(a, b);
  const labels = { a: positionals[0], b: positionals[1] };
  await writeOut(format === 'json' ? JSON.stringify(comparison, null, 2) + '\n' : format === 'markdown' ? renderCompareMarkdown(comparison, labels, failOn, markdownLinks()) : renderCompareText(comparison, labels, failOn));
  return compareFails(comparison, failOn) ? 1 : 0;
}
