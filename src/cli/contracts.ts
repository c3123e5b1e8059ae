// Loading the contracts named by --contracts (files or folders), for every command that needs them.
// A broken contract file is a usage error: one line with where and why.
import { promises as fs } from 'node:fs';
import { type ContractFile, type ContractSet, emptyContracts, LineIndex, loadContracts, type Profile } from '../core';
import { displayPath, findContractFiles, UsageError } from './files';
import { filterByGlobs } from './settings';

export interface LoadedContractFiles {
  contracts: ContractSet;
  /** Absolute paths of the contract files (so trace walking can leave them out). */
  paths: string[];
  /** Their sources, for threads that compile the contracts again (src/cli/pool.ts). */
  files: ContractFile[];
}

export async function loadContractPaths(given: string[], profile: Profile): Promise<LoadedContractFiles> {
  const paths = await findContractFiles(given);
  if (!paths.length) return { contracts: emptyContracts(), paths, files: [] };
  const files = await Promise.all(paths.map(async (p) => ({ path: displayPath(p), text: await fs.readFile(p, 'utf8') })));
  const loaded = loadContracts(files, profile);
  if (loaded.findings.length) {
    const f = loaded.findings[0];
    const text = files.find((x) => x.path === f.path)!.text;
    const pos = LineIndex.of(text).position(f.finding.span.start);
    throw new UsageError(`${f.path}:${pos.line}:${pos.column}: contract error at ${f.pointer || '(root)'}: ${f.finding.message}`);
  }
  return { contracts: loaded.contracts, paths, files };
}

/** The contracts a command runs with: those --contracts names, else the config's "contracts" globs under its folder. */
export async function loadConfiguredContracts(given: string[] | undefined, globs: string[] | undefined, root: string, profile: Profile): Promise<LoadedContractFiles> {
  let paths = given ?? [];
  if (!paths.length && globs?.length) paths = filterByGlobs(await findContractFiles([root]), root, globs);
  return loadContractPaths(paths, profile);
}
