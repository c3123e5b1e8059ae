// Hovers on a trace: for a finding, what was found and why it failed; for any call, the relevant part of the
// tool's contract and where that contract came from (a workspace file, or embedded in this trace).
import * as vscode from 'vscode';
import { CODES, lineModel, readsAsLines, type Finding } from '../core';
import type { ContractStore } from './contracts';
import { contractInfo, onCallName } from './contractInfo';
import { docsUri } from './convert';
import { checkOptions, type TraceDiagnostics } from './diagnostics';

const MAX_FOUND = 120;

export class TraceHoverProvider implements vscode.HoverProvider {
  constructor(private readonly live: TraceDiagnostics, private readonly contracts: ContractStore) {}

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const state = this.live.state(doc.uri);
    if (!state || state.version !== doc.version || state.result.format === undefined) return undefined;
    const offset = doc.offsetAt(position);
    const hits = state.result.findings.filter((f) => f.span.start <= offset && offset <= f.span.end && this.live.shown(f));
    const md = new vscode.MarkdownString();
    md.supportThemeIcons = true;
    let range: vscode.Range | undefined;
    for (const f of hits) {
      const r = new vscode.Range(doc.positionAt(f.span.start), doc.positionAt(f.span.end));
      range = range ? range.union(r) : r;
      renderFinding(md, f, doc.getText(r));
    }
    let withModel = state.result;
    const contracts = this.contracts.contracts;
    if (!withModel.model && contracts && readsAsLines(doc.getText(new vscode.Range(0, 0, Math.min(doc.lineCount, 64), 0)), doc.uri.path, doc.lineCount <= 64)) {
      // no model kept (a large file, or one patched line by line): read the model of this line alone
      const line = doc.lineAt(position.line);
      withModel = lineModel(line.text, doc.offsetAt(line.range.start), checkOptions(doc.uri, contracts));
    }
    const info = contractInfo({ offset, tool: hits[0]?.tool }, withModel, contracts);
    if (info && (hits.length || onCallName(withModel, offset))) {
      md.appendMarkdown(`Contract of \`${info.tool}\`${info.argument ? `, argument \`${info.argument}\`` : ''} — `);
      md.appendMarkdown(info.source ? `from \`${info.source}\`` : 'embedded in this trace');
      md.appendCodeblock(info.schemaText, 'json');
    }
    if (!hits.length && !info) return undefined;
    if (md.value.trim() === '') return undefined;
    return new vscode.Hover(md, range);
  }
}

function renderFinding(md: vscode.MarkdownString, f: Finding, found: string): void {
  const meta = CODES[f.code];
  md.appendMarkdown(`$(shield) **Contract Guard** [\`${f.code}\`](${docsUri(f.code).toString(true)})`);
  if (meta?.title) md.appendMarkdown(` — ${escapeMd(meta.title)}`);
  md.appendMarkdown('\n\n');
  // the diagnostic's own hover already shows the message: add what it does not say

  if (found && f.code !== 'parse-error') {
    const shown = found.length > MAX_FOUND ? `${found.slice(0, MAX_FOUND)}…` : found;
    md.appendMarkdown('Found: ');
    md.appendMarkdown(`\`${shown.replace(/`/g, "'").replace(/\s+/g, ' ')}\``);
    md.appendMarkdown('\n\n');
  }
}

/** Message text as literal markdown (appendText would also turn spaces into &nbsp;). */
function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&').replace(/\s+/g, ' ');
}
