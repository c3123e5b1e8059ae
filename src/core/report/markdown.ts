// Markdown summaries for CI (`--format markdown` on check, compare and table): counts, a short table and the first
// findings with `file:line` links, fit for a pull-request comment or $GITHUB_STEP_SUMMARY. Everything quoted from a
// trace is escaped: a message must never become markup, a link, an image or an @-mention.
import type { Severity } from '../model';
import type { Report, ReportDiagnostic, ReportEntry } from './model';
import { renderWith, type ReportSummary, type ReportWriter } from './writer';
import { summaryLine } from './text';

/** How a `file:line` becomes a link: the CLI knows the repository root and, on GitHub, the commit to link to. */
export type LinkTo = (file: string, line: number) => { text: string; href: string };

/** The default: the path as given, `#L` line anchor (a relative link, as a PR comment resolves it). */
export const relativeLink: LinkTo = (file, line) => ({ text: `${file}:${line}`, href: `${encodeURI(file)}#L${line}` });

/** How many findings (or rows, or shapes) a summary lists before it says "and N more". */
export const FIRST = 20;

/** Text from a trace, safe in a table cell: one line, markdown punctuation escaped, HTML and mentions defused. */
export function mdText(s: string, max = 200): string {
  let t = s.replace(/\s+/g, ' ').trim();
  if (t.length > max) t = t.slice(0, max - 1) + '…';
  return t
    .replace(/[\\`*_[\]#!|~>]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/@/g, '&#64;')
    .replace(/:\/\//g, ':&#47;&#47;'); // no autolinks
}

/** A code span (for codes, and for arguments: inside one nothing is markup, but a `|` would still split a cell). */
export function mdCode(s: string): string {
  return '`' + s.replace(/\s+/g, ' ').replace(/`/g, "'").replace(/\|/g, '\\|') + '`';
}

export function mdLink(link: LinkTo, file: string, line: number): string {
  const l = link(file, line);
  // the href is ours (a path and a line), but a path may hold spaces or brackets
  return `[${mdText(l.text, 400)}](${l.href.replace(/[()\s]/g, (c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase())})`;
}

/** A GitHub-flavoured table; cells are already markdown. */
export function mdTable(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Lines to push after a clipped list: a blank line (a text line right after a table would join it), the rest. */
export function more(n: number, shown: number, what: string): string[] {
  return n > shown ? ['', `…and ${n - shown} more ${what}.`] : [];
}

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** `check --format markdown`: the summary line, findings per code, the first findings with links. It is all
 *  written at the end (the summary comes first), from counts and the first few findings of each severity. */
export function markdownWriter(link: LinkTo = relativeLink): ReportWriter {
  const byCode = new Map<string, { severity: Severity; count: number; files: Set<string> }>();
  const first: Record<Severity, { file: string; d: ReportDiagnostic }[]> = { error: [], warning: [], info: [] };
  let shown = 0;
  return {
    start: () => '',
    file(f: ReportEntry) {
      for (const d of f.diagnostics) {
        if (d.baselined) continue;
        shown++;
        const e = byCode.get(d.code) ?? { severity: d.severity, count: 0, files: new Set<string>() };
        e.count++;
        e.files.add(f.path);
        byCode.set(d.code, e);
        if (first[d.severity].length < FIRST) first[d.severity].push({ file: f.path, d });
      }
      return []; // all of it is written at the end
    },
    end(summary: ReportSummary) {
      const out: string[] = ['### Contract Guard: check', '', mdText(summaryLine({ summary }), 400)];
      if (shown) {
        const codes = [...byCode.entries()].sort((a, b) => ORDER[a[1].severity] - ORDER[b[1].severity] || b[1].count - a[1].count || a[0].localeCompare(b[0]));
        out.push('', mdTable(['code', 'severity', 'findings', 'files'], codes.map(([code, e]) => [mdCode(code), e.severity, String(e.count), String(e.files.size)])));
        // the most severe first, each severity in file order
        const listed = [...first.error, ...first.warning, ...first.info].slice(0, FIRST);
        out.push('', `**First findings**`, '', mdTable(['where', 'severity', 'code', 'message'], listed.map(({ file, d }) => [mdLink(link, file, d.line), d.severity, mdCode(d.code), mdText(d.message)])));
        out.push(...more(shown, listed.length, 'findings'));
      }
      return out.join('\n').replace(/\n+$/, '') + '\n';
    },
  };
}

export function renderCheckMarkdown(report: Report, link: LinkTo = relativeLink): string {
  return renderWith(markdownWriter(link), report);
}
