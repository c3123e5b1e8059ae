// The Contract Guard view (explorer): the workspace's traces with their call and finding counts from the last check
// (traceIndex.ts), each expandable to its sessions, tools and findings; a filter by code, tool and severity; a click
// reveals the call or the finding in the trace. A tree view, no webview: it follows the theme, the keyboard and
// screen readers as every VS Code tree does.
import * as vscode from 'vscode';
import type { Finding, CallMark } from '../core';
import { severityOf, type SeverityMap } from './convert';
import type { TraceEntry, TraceIndex } from './traceIndex';

export const VIEW_ID = 'contractGuard.traces';
export const REVEAL_COMMAND = 'contractGuard.revealInTrace';
const FILTERED_CONTEXT = 'contractGuard.tracesFiltered';
/** Children listed under one node; the rest are summed up in one line. */
const MAX_CHILDREN = 500;

export type SeverityName = 'error' | 'warning' | 'info';
export interface TracesFilter {
  code?: string;
  tool?: string;
  severity?: SeverityName;
}

type Node =
  | { kind: 'trace'; entry: TraceEntry }
  | { kind: 'group'; entry: TraceEntry; group: 'sessions' | 'tools' | 'findings' }
  | { kind: 'session'; entry: TraceEntry; session: number; label: string; first: CallMark; calls: number }
  | { kind: 'tool'; entry: TraceEntry; tool: string; first: CallMark; calls: number }
  | { kind: 'code'; entry: TraceEntry; code: string }
  | { kind: 'finding'; entry: TraceEntry; finding: Finding }
  | { kind: 'more'; count: number };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function levelOf(f: Finding, map: SeverityMap): SeverityName | undefined {
  const s = severityOf(f, map);
  return s === undefined ? undefined : s === vscode.DiagnosticSeverity.Error ? 'error' : s === vscode.DiagnosticSeverity.Warning ? 'warning' : 'info';
}

export class TracesView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private filter: TracesFilter = {};
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<Node>;
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly index: TraceIndex,
    private readonly severity: () => SeverityMap,
  ) {
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      // changes come in bursts (a scan, a contract reload): one redraw per burst
      index.onDidChange(() => this.refresh()),
      this.view.onDidChangeVisibility((e) => {
        if (e.visible) void index.scan();
      }),
    );
    if (this.view.visible) void index.scan();
    this.describe();
  }

  /** The filter in force (the UI test and the suite read it). */
  get current(): TracesFilter {
    return { ...this.filter };
  }

  setFilter(filter: TracesFilter): void {
    this.filter = { ...filter };
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT, Object.values(this.filter).some((v) => v !== undefined));
    this.describe();
    this.changed.fire(undefined);
  }

  private describe(): void {
    const parts = [this.filter.code, this.filter.tool && `tool ${this.filter.tool}`, this.filter.severity].filter(Boolean);
    this.view.description = parts.length ? `filtered: ${parts.join(', ')}` : undefined;
  }

  private refresh(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.changed.fire(undefined);
      const none = this.index.entries().length === 0;
      this.view.message = none ? 'No checked trace yet: open one, or add files matching contractGuard.traces.' : undefined;
    }, 100);
  }

  /** The findings of an entry the filter lets through (codes switched off never are). */
  findings(entry: TraceEntry): Finding[] {
    const map = this.severity();
    const { code, tool, severity } = this.filter;
    return entry.findings.filter((f) => {
      const level = levelOf(f, map);
      return level !== undefined && (!code || f.code === code) && (!tool || f.tool === tool) && (!severity || level === severity);
    });
  }

  private filtering(): boolean {
    return this.filter.code !== undefined || this.filter.severity !== undefined;
  }

  /** The traces the filter lets through. */
  traces(): TraceEntry[] {
    return this.index.entries().filter((e) => (!this.filter.tool || e.marks.some((m) => m.tool === this.filter.tool)) && (!this.filtering() || this.findings(e).length > 0));
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.traces().map((entry) => ({ kind: 'trace', entry }));
    const { entry } = node as Exclude<Node, { kind: 'more' }>;
    switch (node.kind) {
      case 'trace':
        return (['sessions', 'tools', 'findings'] as const).map((group) => ({ kind: 'group', entry, group }));
      case 'group':
        if (node.group === 'findings') {
          const codes = [...new Set(this.findings(entry).map((f) => f.code))].sort();
          return codes.map((code) => ({ kind: 'code', entry, code }));
        }
        return node.group === 'sessions' ? this.sessions(entry) : this.tools(entry);
      case 'session':
        return cap(this.findings(entry).filter((f) => (f.session ?? 0) === node.session).map((finding) => ({ kind: 'finding', entry, finding })));
      case 'tool':
        return cap(this.findings(entry).filter((f) => f.tool === node.tool).map((finding) => ({ kind: 'finding', entry, finding })));
      case 'code':
        return cap(this.findings(entry).filter((f) => f.code === node.code).map((finding) => ({ kind: 'finding', entry, finding })));
      default:
        return [];
    }
  }

  private sessions(entry: TraceEntry): Node[] {
    const out = new Map<number, Extract<Node, { kind: 'session' }>>();
    for (const m of entry.marks) {
      const s = out.get(m.session);
      if (s) s.calls++;
      else out.set(m.session, { kind: 'session', entry, session: m.session, label: `Session ${m.sessionId ?? m.session + 1}`, first: m, calls: 1 });
    }
    const withFindings = new Set(this.findings(entry).map((f) => f.session ?? 0));
    return cap([...out.values()].filter((s) => !this.filtering() || withFindings.has(s.session)));
  }

  private tools(entry: TraceEntry): Node[] {
    const out = new Map<string, Extract<Node, { kind: 'tool' }>>();
    for (const m of entry.marks) {
      if (this.filter.tool && m.tool !== this.filter.tool) continue;
      const t = out.get(m.tool);
      if (t) t.calls++;
      else out.set(m.tool, { kind: 'tool', entry, tool: m.tool, first: m, calls: 1 });
    }
    const withFindings = new Set(this.findings(entry).map((f) => f.tool));
    return [...out.values()].filter((t) => !this.filtering() || withFindings.has(t.tool)).sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'more') return new vscode.TreeItem(`… ${node.count} more`);
    const { entry } = node;
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    switch (node.kind) {
      case 'trace': {
        const shown = this.findings(entry);
        const item = new vscode.TreeItem(vscode.workspace.asRelativePath(entry.uri, false), collapsed);
        item.resourceUri = entry.uri;
        item.description = `${plural(entry.calls, 'call')} · ${plural(shown.length, 'finding')}`;
        item.tooltip = `${entry.format}: ${plural(entry.calls, 'call')} in ${plural(entry.sessions, 'session')}, ${plural(shown.length, 'finding')}`;
        item.iconPath = icon(shown.some((f) => levelOf(f, this.severity()) === 'error') ? 'error' : shown.length ? 'warning' : 'pass');
        item.contextValue = 'trace';
        item.id = `trace:${entry.uri.toString()}`;
        return item;
      }
      case 'group': {
        const count = node.group === 'findings' ? this.findings(entry).length : node.group === 'tools' ? this.tools(entry).length : this.sessions(entry).length;
        const item = new vscode.TreeItem(`${node.group[0].toUpperCase()}${node.group.slice(1)}`, count ? collapsed : vscode.TreeItemCollapsibleState.None);
        item.description = String(count);
        item.iconPath = new vscode.ThemeIcon(node.group === 'findings' ? 'warning' : node.group === 'tools' ? 'tools' : 'list-tree');
        item.id = `${node.group}:${entry.uri.toString()}`;
        return item;
      }
      case 'session':
      case 'tool': {
        const findings = this.findings(entry).filter((f) => (node.kind === 'tool' ? f.tool === node.tool : (f.session ?? 0) === node.session));
        const item = new vscode.TreeItem(node.kind === 'tool' ? node.tool || '(no name)' : node.label, findings.length ? collapsed : vscode.TreeItemCollapsibleState.None);
        item.description = `${plural(node.calls, 'call')}${findings.length ? ` · ${plural(findings.length, 'finding')}` : ''}`;
        item.iconPath = new vscode.ThemeIcon(node.kind === 'tool' ? 'symbol-method' : 'symbol-namespace');
        item.command = reveal(entry.uri, node.first.offset, node.first.end, 'Go to its first call');
        item.id = `${node.kind}:${node.kind === 'tool' ? node.tool : node.session}:${entry.uri.toString()}`;
        return item;
      }
      case 'code': {
        const count = this.findings(entry).filter((f) => f.code === node.code).length;
        const item = new vscode.TreeItem(node.code, collapsed);
        item.description = String(count);
        item.iconPath = new vscode.ThemeIcon('symbol-key');
        item.id = `code:${node.code}:${entry.uri.toString()}`;
        return item;
      }
      case 'finding': {
        const f = node.finding;
        const item = new vscode.TreeItem(f.message.split('\n')[0]);
        item.description = [f.tool, f.turn !== undefined ? `turn ${f.turn}` : undefined, f.code].filter(Boolean).join(' · ');
        item.tooltip = `${f.code}: ${f.message}`;
        item.iconPath = icon(levelOf(f, this.severity()) ?? 'info');
        item.command = reveal(entry.uri, f.span.start, f.span.end, 'Go to the finding');
        return item;
      }
    }
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}

function cap<T>(nodes: T[]): (T | Node)[] {
  return nodes.length > MAX_CHILDREN ? [...nodes.slice(0, MAX_CHILDREN), { kind: 'more', count: nodes.length - MAX_CHILDREN }] : nodes;
}

function icon(level: SeverityName | 'pass'): vscode.ThemeIcon {
  return level === 'pass'
    ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
    : new vscode.ThemeIcon(level, new vscode.ThemeColor(level === 'error' ? 'problemsErrorIcon.foreground' : level === 'warning' ? 'problemsWarningIcon.foreground' : 'problemsInfoIcon.foreground'));
}

function reveal(uri: vscode.Uri, start: number, end: number, title: string): vscode.Command {
  return { command: REVEAL_COMMAND, title, arguments: [uri, start, end] };
}

/** Open a trace with the text from `start` to `end` selected (the view's clicks, links to a call). */
export async function revealInTrace(uri: vscode.Uri, start: number, end = start): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const range = new vscode.Range(doc.positionAt(start), doc.positionAt(end));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

/** The view's commands: reveal, and the filters (a quick pick each, from what the checked traces hold). */
export function registerTracesView(context: vscode.ExtensionContext, index: TraceIndex, severity: () => SeverityMap): TracesView {
  const view = new TracesView(index, severity);
  const pick = async (what: string, values: string[], current: string | undefined): Promise<string | null | undefined> => {
    if (!values.length) {
      void vscode.window.showInformationMessage(`Contract Guard: no ${what} in the checked traces.`);
      return undefined;
    }
    const all = `All ${what}s`;
    const choice = await vscode.window.showQuickPick([all, ...values], { placeHolder: `Show the traces with this ${what}${current ? ` (now: ${current})` : ''}` });
    return choice === undefined ? undefined : choice === all ? null : choice;
  };
  const shownFindings = () => index.entries().flatMap((e) => e.findings.filter((f) => severityOf(f, severity()) !== undefined));
  const filterBy = (key: keyof TracesFilter, values: () => string[]) => async (value?: unknown) => {
    await index.scan();
    const chosen = typeof value === 'string' ? value : await pick(key, values(), view.current[key]);
    if (chosen === undefined) return;
    if (key === 'severity' && chosen !== null && !['error', 'warning', 'info'].includes(chosen)) {
      void vscode.window.showWarningMessage(`Contract Guard: "${chosen}" is not a severity (error, warning or info).`);
      return;
    }
    view.setFilter({ ...view.current, [key]: chosen ?? undefined });
  };
  context.subscriptions.push(
    view,
    vscode.commands.registerCommand(REVEAL_COMMAND, (uri: unknown, start: unknown, end: unknown) =>
      uri instanceof vscode.Uri && typeof start === 'number' ? revealInTrace(uri, start, typeof end === 'number' ? end : start) : undefined,
    ),
    vscode.commands.registerCommand('contractGuard.filterTracesByCode', filterBy('code', () => [...new Set(shownFindings().map((f) => f.code))].sort())),
    vscode.commands.registerCommand('contractGuard.filterTracesByTool', filterBy('tool', () => [...new Set(index.entries().flatMap((e) => e.marks.map((m) => m.tool)))].sort())),
    vscode.commands.registerCommand('contractGuard.filterTracesBySeverity', filterBy('severity', () => ['error', 'warning', 'info'])),
    vscode.commands.registerCommand('contractGuard.clearTracesFilter', () => view.setFilter({})),
  );
  return view;
}
