// contract-guard.config.json: one configuration for the CLI and the editor (schemas/config.schema.json).
// Pure: parsing, validating, layering (config < editor settings < CLI flags), globs and ignore rules. Reading
// the file is the caller's business (Node fs in the CLI, vscode.workspace.fs in the editor).
import { lazyValidator } from './lazy-validator';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import configSchema from '../../schemas/config.schema.json';
import type { Profile } from './contracts/compile';
import type { PackSelection } from './contracts/packs';
import type { SeverityOverrides } from './engine';
import type { Severity } from './model';
import { re2 } from './contracts/regex';

export const CONFIG_FILE = 'contract-guard.config.json';

export interface IgnoreRule {
  code?: string;
  tool?: string;
  /** Glob of trace paths, relative to the config file's folder. */
  path?: string;
}

export interface ContractGuardConfig {
  contracts?: string[];
  traces?: string[];
  profile?: Profile;
  /** Per code; `hint` is the editor's, reported as info elsewhere. */
  severity?: Record<string, Severity | 'hint' | 'off'>;
  volatileTools?: string[];
  fixturesFolder?: string;
  packs?: PackSelection;
  ignore?: IgnoreRule[];
  maxValueLength?: number;
  failOn?: Severity | 'never';
  baseline?: string;
}

const configValidator = lazyValidator(configSchema);

/** Parse a config file's text (JSON with comments allowed); a string is the reason it is not valid. */
export function parseConfig(text: string): ContractGuardConfig | string {
  const errors: ParseError[] = [];
  const value: unknown = parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, errors, { allowTrailingComma: true });
  if (errors.length) return `not valid JSON: ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}`;
  const validate = configValidator();
  if (!validate(value)) {
    const e = validate.errors![0];
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    return extra ? `${e.instancePath || ''}/${extra} is not a setting` : `${e.instancePath || '(root)'} ${e.message}`;
  }
  return value as ContractGuardConfig;
}

/** Layer configurations: later layers win field by field; `severity` merges code by code, `ignore` adds up. */
export function mergeConfig(...layers: (ContractGuardConfig | undefined)[]): ContractGuardConfig {
  const out: ContractGuardConfig = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [k, v] of Object.entries(layer) as [keyof ContractGuardConfig, unknown][]) {
      if (v === undefined) continue;
      if (k === 'severity') out.severity = { ...out.severity, ...(v as ContractGuardConfig['severity']) };
      else if (k === 'ignore') out.ignore = [...(out.ignore ?? []), ...(v as IgnoreRule[])];
      else (out as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

/** The engine's per-code severities from a config's (hint becomes info outside the editor). */
export function engineSeverity(severity: ContractGuardConfig['severity']): SeverityOverrides | undefined {
  if (!severity) return undefined;
  const out: SeverityOverrides = {};
  for (const [code, s] of Object.entries(severity)) out[code] = s === 'hint' ? 'info' : s;
  return out;
}

/** What a glob compiles to: a matcher with `test` (run on re2js, linear in the path whatever the glob). */
export interface GlobMatcher {
  test(path: string): boolean;
}

const globCache = new Map<string, GlobMatcher>();

/** A glob as a regular expression over `/`-separated relative paths: `**` any folders, `*` and `?` within one
 *  name, `{a,b}` alternatives. A glob without `/` matches the name in any folder (like `*.jsonl`). */
export function globToRegExp(glob: string): GlobMatcher {
  let re = globCache.get(glob);
  if (re) return re;
  let g = glob.replace(/\\/g, '/').replace(/^\.\//, '');
  if (!g.includes('/')) g = '**/' + g;
  let src = '';
  for (let i = 0; i < g.length; i++) {
    const ch = g[i];
    if (ch === '*') {
      if (g[i + 1] === '*') {
        const slash = g[i + 2] === '/';
        src += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else src += '[^/]*';
    } else if (ch === '?') src += '[^/]';
    else if (ch === '{') {
      const end = g.indexOf('}', i);
      if (end === -1) src += '\\{';
      else {
        src += '(?:' + g.slice(i + 1, end).split(',').map((s) => s.replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('|') + ')';
        i = end;
      }
    } else src += ch.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  // A glob comes from a workspace's config file: on V8's backtracking engine `**/**/**/…/x` takes exponential time
  // on a deep path (8 of them: 10 s on 40 folders). RE2 matches in linear time.
  re = re2('^' + src + '$');
  if (globCache.size > 1000) globCache.clear();
  globCache.set(glob, re);
  return re;
}

export function matchesGlob(relPath: string, glob: string): boolean {
  return globToRegExp(glob).test(relPath.replace(/\\/g, '/').replace(/^\.\//, ''));
}

export function matchesAnyGlob(relPath: string, globs: readonly string[]): boolean {
  return globs.some((g) => matchesGlob(relPath, g));
}

/** Whether an ignore rule drops a finding (`relPath`: the trace's path relative to the config's folder). */
export function isIgnored(rules: readonly IgnoreRule[] | undefined, finding: { code: string; tool?: string }, relPath: string): boolean {
  if (!rules?.length) return false;
  return rules.some((r) => (r.code === undefined || r.code === finding.code) && (r.tool === undefined || r.tool === finding.tool) && (r.path === undefined || matchesGlob(relPath, r.path)));
}
