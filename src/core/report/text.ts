// What a person reads in a terminal: grouped per file, `file:line:col  severity  code  message`, one summary line.
import type { Report, ReportEntry } from './model';
import { renderWith, type ReportSummary, type ReportWriter } from './writer';

const COLOURS = { error: '\u001b[31m', warning: '\u001b[33m', info: '\u001b[36m', dim: '\u001b[2m', bold: '\u001b[1m', reset: '\u001b[0m' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function summaryLine(report: Pick<Report, 'summary'>): string {
  const s = report.summary;
  const baselined = s.baselined ? ` (${s.baselined} more accepted by the baseline)` : '';
  const notRead = s.notRead ? `; ${plural(s.notRead, 'file')} not read as ${s.notRead === 1 ? 'a trace' : 'traces'}` : '';
  return `${plural(s.calls, 'call')} in ${plural(s.files - (s.notRead ?? 0), 'trace')}: ${plural(s.error, 'error')}, ${plural(s.warning, 'warning')}, ${s.info} info${baselined}${notRead}`;
}

/** The text report, file by file: a file's findings are aligned on their widest `line:column`. */
export function textWriter(colour = false): ReportWriter {
  const c = (k: keyof typeof COLOURS, s: string) => (colour ? COLOURS[k] + s + COLOURS.reset : s);
  return {
    start: () => '',
    *file(file: ReportEntry) {
      // two passes over the diagnostics (they may be read from a spool, never all held): the widest position, then the lines
      let width = 0;
      for (const d of file.diagnostics) if (!d.baselined) width = Math.max(width, `${d.line}:${d.column}`.length);
      if (width === 0) return;
      yield c('bold', file.path) + c('dim', `  (${file.format ?? 'unknown format'}, ${plural(file.calls, 'call')})`) + '\n';
      for (const d of file.diagnostics) {
        if (d.baselined) continue;
        const where = `${file.path}:${d.line}:${d.column}`;
        const pad = ' '.repeat(width - `${d.line}:${d.column}`.length);
        yield `  ${where}${pad}  ${c(d.severity, d.severity.padEnd(7))}  ${c('dim', d.code.padEnd(21))}  ${d.message}\n`;
      }
      yield '\n';
    },
    end: (summary: ReportSummary) => summaryLine({ summary }) + '\n',
  };
}

export function renderText(report: Report, colour = false): string {
  return renderWith(textWriter(colour), report);
}
