// The extension's settings, read in one place. Every key is declared in package.json `contributes.configuration`.
import * as vscode from 'vscode';
import { configFile } from './config';

export type SeveritySetting = 'error' | 'warning' | 'info' | 'hint' | 'off';
export type Profile = 'strict' | 'json-schema';
/** Which calls get lenses: those with findings, every call, or none. */
export type LensMode = 'failing' | 'all' | 'off';

export interface Settings {
  enable: boolean;
  contracts: string[];
  traces: string[];
  profile: Profile;
  severity: Record<string, SeveritySetting>;
  fixturesFolder: string;
  codeLens: LensMode;
  volatileTools: string[];
  /** A reader id that reads every trace of the folder; '' lets the content decide. */
  readAs: string;
}

export const DEFAULTS: Settings = {
  enable: true,
  contracts: ['**/*.contract.json', '**/*.contract.jsonc', '**/contracts/**/*.json'],
  traces: ['**/*.jsonl', '**/*.trace.json', '**/traces/**/*.json', '**/*.eval'],
  profile: 'strict',
  severity: {},
  fixturesFolder: 'fixtures/frozen',
  codeLens: 'failing',
  volatileTools: [],
  readAs: '',
};

const SEVERITIES = new Set<SeveritySetting>(['error', 'warning', 'info', 'hint', 'off']);

export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const c = vscode.workspace.getConfiguration('contractGuard', scope);
  const strings = (key: keyof Settings): string[] => {
    const v = c.get<unknown>(key);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.length > 0) : (DEFAULTS[key] as string[]);
  };
  const rawSeverity = c.get<Record<string, unknown>>('severity') ?? {};
  const severity: Record<string, SeveritySetting> = {};
  for (const [code, level] of Object.entries(rawSeverity)) {
    if (typeof level === 'string' && SEVERITIES.has(level as SeveritySetting)) severity[code] = level as SeveritySetting;
  }
  const profile = c.get<string>('profile');
  const readAs = c.get<unknown>('readAs');
  // contract-guard.config.json (read by src/extension/config.ts) fills in what the user did not set.
  return withWorkspaceConfig({
    enable: c.get<boolean>('enable') !== false,
    contracts: strings('contracts'),
    traces: strings('traces'),
    profile: profile === 'json-schema' ? 'json-schema' : 'strict',
    severity,
    fixturesFolder: c.get<string>('fixturesFolder') || DEFAULTS.fixturesFolder,
    codeLens: lensMode(c.get<unknown>('codeLens')),
    volatileTools: strings('volatileTools'),
    readAs: typeof readAs === 'string' ? readAs.trim() : '',
  });
}

/** The config file's values under the editor settings the user set (pass what readSettings read). */
function withWorkspaceConfig(settings: Settings): Settings {
  const c = configFile();
  const set = (key: string) => {
    const i = vscode.workspace.getConfiguration('contractGuard').inspect(key);
    return i !== undefined && (i.globalValue !== undefined || i.workspaceValue !== undefined || i.workspaceFolderValue !== undefined);
  };
  const out = { ...settings };
  if (c.contracts && !set('contracts')) out.contracts = c.contracts.map((g) => (g.includes('/') ? g : `**/${g}`));
  if (c.traces && !set('traces')) out.traces = c.traces.map((g) => (g.includes('/') ? g : `**/${g}`));
  if (c.profile && !set('profile')) out.profile = c.profile;
  if (c.severity) out.severity = { ...c.severity, ...(set('severity') ? settings.severity : {}) };
  if (c.volatileTools && !set('volatileTools')) out.volatileTools = c.volatileTools;
  if (c.fixturesFolder && !set('fixturesFolder')) out.fixturesFolder = c.fixturesFolder;
  return out;
}

/** The setting, and the booleans it once was (true: a lens on every call). */
function lensMode(v: unknown): LensMode {
  if (v === 'all' || v === true) return 'all';
  if (v === 'off' || v === false) return 'off';
  return 'failing';
}

/** One glob for a list of globs. */
export function globOf(globs: string[]): string {
  return globs.length === 1 ? globs[0] : `{${globs.join(',')}}`;
}

/** The workspace's `files.exclude` and `search.exclude` as one glob (findFiles applies neither once given one). */
export function excludeGlob(): string | undefined {
  const keys = new Set<string>();
  for (const section of ['files.exclude', 'search.exclude']) {
    const map = vscode.workspace.getConfiguration().get<Record<string, unknown>>(section) ?? {};
    for (const [glob, on] of Object.entries(map)) if (on === true) keys.add(glob);
  }
  return keys.size ? globOf([...keys]) : undefined;
}
