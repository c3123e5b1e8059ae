// Findings (plain records with offsets) to VS Code diagnostics. Nothing else in the extension builds diagnostics.
import * as vscode from 'vscode';
import type { Finding, Span } from '../core/model';
import { rangeOf, type Positioner } from './lines';
import type { SeveritySetting } from './settings';
import { isBaselined, workspaceConfig } from './config';
import { isIgnored } from '../core/config';

export const SOURCE = 'Contract Guard';

/** Per-code severity from the settings; codes not listed keep the core's default. */
export type SeverityMap = Record<string, SeveritySetting>;

/** Where each code is documented: the README section named after the code. */
let docsBase = 'https://example.invalid/contract-guard#';

export function setDocsBase(packageJson: { repository?: string | { url?: string }; homepage?: string }): void {
  const repo = typeof packageJson.repository === 'string' ? packageJson.repository : packageJson.repository?.url;
  if (packageJson.homepage) docsBase = `${packageJson.homepage.replace(/#.*$/, '')}#`;
  else if (repo) docsBase = `${repo.replace(/^git\+/, '').replace(/\.git$/, '')}#`;
}

export function docsUri(code: string): vscode.Uri {
  return vscode.Uri.parse(docsBase + encodeURIComponent(code));
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

/** One finding as a diagnostic, or undefined when its code is switched off. */
export function toDiagnostic(
  finding: Finding,
  uri: vscode.Uri,
  at: Positioner,
  map: SeverityMap,
  locate: Locate,
): vscode.Diagnostic | undefined {
  let severity = severityOf(finding, map);
  if (severity === undefined) return undefined;
  // contract-guard.config.json `ignore` rules (code + tool + path glob) drop a finding here as in the CLI.
  if (isIgnored(workspaceConfig().ignore, finding, vscode.workspace.asRelativePath(uri, false))) return undefined;
  // A finding the workspace baseline accepts is known and reviewed: a hint, not a problem.
  if (isBaselined(uri, finding)) severity = vscode.DiagnosticSeverity.Hint;
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
  return d;
}
