// Fixture files on disk: finding them, reading them, and writing a new one atomically without ever
// overwriting (temp file in the same folder, then a hard link that fails if the name exists).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FIXTURE_SUFFIX } from '../core';
import { walk } from './files';
import { loadConfig } from './settings';

/** Where `freeze` writes and `replay`/`serve` read by default (not under contracts/: a contracts folder is
 *  walked for *.json contract files, and a fixture is not a contract). */
export const DEFAULT_FIXTURES_FOLDER = 'fixtures/frozen';

/** The fixture folder: contract-guard.config.json's `fixturesFolder` (relative to the config), else the default. */
export async function configuredFixturesFolder(): Promise<string> {
  const { config, root } = await loadConfig();
  return config.fixturesFolder ? path.relative(process.cwd(), path.resolve(root, config.fixturesFolder)) || '.' : DEFAULT_FIXTURES_FOLDER;
}

/** Fixture files under the given paths (files named explicitly are always taken), sorted, without repeats. */
export async function findFixtureFiles(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) await walk(p, (f) => f.endsWith(FIXTURE_SUFFIX), out);
  return [...new Set(out)];
}

export type WriteOutcome = 'written' | 'exists';

/** Write `text` to `file` unless it exists; never overwrites, never leaves a half-written file behind. */
export async function writeNewFile(file: string, text: string): Promise<WriteOutcome> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  await fs.writeFile(tmp, text, { flag: 'wx' });
  try {
    try {
      await fs.link(tmp, file); // atomic, and fails if the name is taken
      return 'written';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return 'exists';
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
    }
    // A file system without hard links: check, then rename (the check-to-rename window is the only race).
    try {
      await fs.access(file);
      return 'exists';
    } catch {
      await fs.rename(tmp, file);
      return 'written';
    }
  } finally {
    await fs.rm(tmp, { force: true });
  }
}
