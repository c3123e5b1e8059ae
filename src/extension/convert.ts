// Findings (plain records with offsets) to VS Code diagnostics. Nothing else in the extension builds diagnostics.
import * as vscode from 'vscode';
import { type Finding, isIgnored, type Span } from '../core';
import { rangeOf, type Positioner } from './lines';
import type { SeveritySetting } from './settings';
import { baselineOf, workspaceConfig } from './config';

export const SOURCE = 'Contract Guard';

/** Per-code severity from the settings; codes not listed keep the core's default. */
export type SeverityMap = Record<string, SeveritySetting>;

/** Where each code is documented: the README section named after the code. */
let docsBase = 'https://example.invalid/contract-guard#';

/** The fields of the extension's own package.json that say where its docs live. */
export interface PackageLinks {
  repository?: string | { url?: string };
  homepage?: string;
}

export function setDocsBase(packageJson: PackageLinks): void {
  const repo = typeof packageJson.repository === 'string' ? packageJson.repository : packageJson.repository?.url;
  if (packageJson.homepage) docsBase = `${packageJson.homepage.replace(/#.*$/, '')}#`;
  else if (repo) docsBase = `${repo.replace(/^git\+/, '').replace(/\.git$/, '')}#`;
}

const docsUris = new Map<string, vscode.Uri>();

export function docsUri(code: string): vscode.Uri {
  let uri = docsUris.get(docsBase + code);
  if (!uri) docsUris.set(docsBase + code, (uri = vscode.Uri.parse(docsBase + encodeURIComponent(code))));
  return uri;
}

export function severityOf(finding: Finding, map: SeverityMap): vscode.DiagnosticSeverity | undefined {
  const level = map[finding.code] ?? finding.severity;
  switch (level) {
    case 'off':
      return undefined;
    case 'error':
      return vscode.DiagnosticSeverity.Error;
    case 'warning':
      return vscode.DiagnosticSeverity.Warning;
    case 'hint':
      return vscode.DiagnosticSeverity.Hint;
    default:
      return vscode.DiagnosticSeverity.Information;
  }
}

export type Locate = (path: string, span?: Span) => vscode.Location | undefined;

/**
 * A file's findings as diagnostics; findings of codes switched off, or dropped by an `ignore` rule, give none. What
 * every finding of the file shares (the ignore rules, the relative path, the baseline) is read once: reading the
 * settings per finding held the extension host for 90-300 ms on 600-2,800 findings.
 */
export function toDiagnostics(findings: readonly Finding[], uri: vscode.Uri, at: Positioner, map: SeverityMap, locate: Locate): vscode.Diagnostic[] {
  const ignore = workspaceConfig().ignore;
  const relPath = vscode.workspace.asRelativePath(uri, false);
  const baselined = baselineOf(uri);
  const out: vscode.Diagnostic[] = [];
  for (const finding of findings) {
    let severity = severityOf(finding, map);
    if (severity === undefined) continue;
    // contract-guard.config.json `ignore` rules (code + tool + path glob) drop a finding here as in the CLI.
    if (isIgnored(ignore, finding, relPath)) continue;
    // A finding the workspace baseline accepts is known and reviewed: a hint, not a problem.
    if (finding.fingerprint && baselined?.has(finding.fingerprint)) severity = vscode.DiagnosticSeverity.Hint;
    const d = new vscode.Diagnostic(rangeOf(at, finding.span), finding.message, severity);
    d.source = SOURCE;
    d.code = { value: finding.code, target: docsUri(finding.code) };
    if (finding.related?.length) {
      const related: vscode.DiagnosticRelatedInformation[] = [];
      for (const r of finding.related) {
        const where = r.file ? locate(r.file, r.span) : new vscode.Location(uri, rangeOf(at, r.span));
        if (where) related.push(new vscode.DiagnosticRelatedInformation(where, r.message));
      }
      if (related.length) d.relatedInformation = related;
    }
    out.push(d);
  }
  return out;
}
