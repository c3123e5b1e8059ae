// What a person reads in a terminal: grouped per file, `file:line:col  severity  code  message`, one summary line.
import type { Report } from './model';

const COLOURS = { error: '\u001b[31m', warning: '\u001b[33m', info: '\u001b[36m', dim: '\u001b[2m', bold: '\u001b[1m', reset: '\u001b[0m' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function summaryLine(report: Report): string {
  const s = report.summary;
  const baselined = s.baselined ? ` (${s.baselined} more accepted by the baseline)` : '';
  const notRead = s.notRead ? `; ${plural(s.notRead, 'file')} not read as ${s.notRead === 1 ? 'a trace' : 'traces'}` : '';
  return `${plural(s.calls, 'call')} in ${plural(s.files - (s.notRead ?? 0), 'trace')}: ${plural(s.error, 'error')}, ${plural(s.warning, 'warning')}, ${s.info} info${baselined}${notRead}`;
}

export function renderText(report: Report, colour = false): string {
  const c = (k: keyof typeof COLOURS, s: string) => (colour ? COLOURS[k] + s + COLOURS.reset : s);
  const out: string[] = [];
  for (const file of report.files) {
    const shown = file.diagnostics.filter((d) => !d.baselined);
    if (shown.length === 0) continue;
    out.push(c('bold', file.path) + c('dim', `  (${file.format ?? 'unknown format'}, ${plural(file.calls, 'call')})`));
    const width = Math.max(...shown.map((d) => `${d.line}:${d.column}`.length));
    for (const d of shown) {
      const where = `${file.path}:${d.line}:${d.column}`;
      const pad = ' '.repeat(width - `${d.line}:${d.column}`.length);
      out.push(`  ${where}${pad}  ${c(d.severity, d.severity.padEnd(7))}  ${c('dim', d.code.padEnd(21))}  ${d.message}`);
    }
    out.push('');
  }
  out.push(summaryLine(report));
  return out.join('\n') + '\n';
}
