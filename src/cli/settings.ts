// What `check` runs with: contract-guard.config.json (found at the working folder, or named by --config) under
// the CLI's flags. Flags win over the config file; paths and globs of the config are relative to its folder.
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CODES, CONFIG_FILE, type ContractGuardConfig, engineSeverity, matchesAnyGlob, mergeConfig, parseConfig, type Profile, readerIds, type SeverityOverrides } from '../core';
import { UsageError } from './files';

export interface LoadedConfig {
  config: ContractGuardConfig;
  /** The folder the config's paths and globs are relative to (the working folder when there is no file). */
  root: string;
  file?: string;
}

/** Read the config: the file --config names (which must exist), else contract-guard.config.json here if any. */
export async function loadConfig(explicit?: string): Promise<LoadedConfig> {
  const file = explicit ?? (existsSync(CONFIG_FILE) ? CONFIG_FILE : undefined);
  if (!file) return { config: {}, root: process.cwd() };
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new UsageError(`${file}: cannot read the config file`);
  }
  const parsed = parseConfig(text);
  if (typeof parsed === 'string') throw new UsageError(`${file}: ${parsed}`);
  return { config: parsed, root: path.dirname(path.resolve(file)), file };
}

/** Codes given to --only / --ignore: repeated or comma-separated; an unknown code is a usage error. */
export function codeList(flag: string, values: string[] | undefined): string[] | undefined {
  if (!values?.length) return undefined;
  const codes = values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  for (const c of codes) if (!CODES[c]) throw new UsageError(`--${flag}: unknown diagnostic code ${c} (see contract-guard codes)`);
  return codes;
}

/** Per-code severities: the config's, then --only (every other code off), then --ignore (these codes off). */
export function severityOf(config: ContractGuardConfig, only?: string[], ignore?: string[]): SeverityOverrides {
  const out: SeverityOverrides = { ...engineSeverity(config.severity) };
  if (only) for (const code of Object.keys(CODES)) if (!only.includes(code)) out[code] = 'off';
  if (ignore) for (const code of ignore) out[code] = 'off';
  return out;
}

/** A non-negative integer flag. */
export function countFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a whole number, not ${value}`);
  return Number(value);
}

/** A whole number of at least 1. */
export function positiveFlag(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${flag} must be a whole number of at least 1, not ${value}`);
  return Number(value);
}

/** Files under `root` whose relative path matches the globs, from a list of candidates (absolute paths). */
export function filterByGlobs(files: string[], root: string, globs: string[]): string[] {
  return files.filter((f) => matchesAnyGlob(path.relative(root, f).split(path.sep).join('/'), globs));
}

/** The config as layers: the file's, then the flags' (undefined fields do not override). */
export function withFlags(config: ContractGuardConfig, flags: ContractGuardConfig): ContractGuardConfig {
  return mergeConfig(config, flags);
}

/** A flag that takes one of a few words. */
export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not ${value}`);
  return value as T;
}

/** The flags that say how traces are checked, shared by the commands that check them (`check`, `watch`). */
export const CHECKING_FLAGS = {
  contracts: { type: 'string', multiple: true },
  profile: { type: 'string' },
  config: { type: 'string' },
  only: { type: 'string', multiple: true },
  ignore: { type: 'string', multiple: true },
  'no-packs': { type: 'boolean' },
  'max-value-length': { type: 'string' },
  'read-as': { type: 'string' },
} as const;

export interface CheckingFlagValues {
  profile?: string;
  config?: string;
  only?: string[];
  ignore?: string[];
  'no-packs'?: boolean;
  'max-value-length'?: string;
  'read-as'?: string;
}

/** The config file with the checking flags over it, the reader they force and the severities they set. */
export async function checkingSettings(values: CheckingFlagValues, more: ContractGuardConfig = {}): Promise<LoadedConfig & { readAs?: string; severity: SeverityOverrides }> {
  const { config: fileConfig, root } = await loadConfig(values.config);
  const config = withFlags(fileConfig, {
    profile: values.profile === undefined ? undefined : oneOf<Profile>('profile', values.profile, ['strict', 'json-schema'] as const, 'strict'),
    packs: values['no-packs'] ? false : undefined,
    maxValueLength: countFlag('max-value-length', values['max-value-length']),
    ...more,
  });
  const readAs = values['read-as'] === undefined ? undefined : oneOf('read-as', values['read-as'], readerIds(), 'generic');
  return { config, root, readAs, severity: severityOf(config, codeList('only', values.only), codeList('ignore', values.ignore)) };
}
