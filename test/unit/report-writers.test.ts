// The report writers (src/core/report/writer.ts): written file by file and finding by finding, the bytes are those
// of the whole document printed at once, and a file with many findings leaves in many pieces, never one string.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonlWriter, jsonWriter, markdownWriter, sarifWriter, textWriter, type Report, type ReportFile, type ReportWriter } from '../../src/core';
import { renderJson } from '../../src/core/report/json';
import { renderSarif } from '../../src/core/report/sarif';
import { renderText } from '../../src/core/report/text';
import { renderCheckMarkdown } from '../../src/core/report/markdown';
import { buildReport } from '../../src/core/report/model';

function diag(i: number, extra: Partial<ReportFile['diagnostics'][number]> = {}): ReportFile['diagnostics'][number] {
  return { code: i % 3 ? 'type-drift' : 'orphan-call', severity: i % 3 ? 'error' : 'warning', message: `weekday wanted integer, got "x\n${i}" ✓ \u2028 «${'\\'}»`, line: i + 1, column: (i * 7) % 130 + 1, endLine: i + 1, endColumn: (i * 7) % 130 + 5, tool: 'get_hours', turn: i, fingerprint: i.toString(16).padStart(16, '0'), ...extra };
}

const files: ReportFile[] = [
  { path: 'runs/a b/ü.jsonl', format: 'openai-chat', calls: 12, diagnostics: Array.from({ length: 40 }, (_, i) => diag(i, i === 3 ? { baselined: true } : {})) },
  { path: 'empty.json', format: undefined, calls: 0, diagnostics: [] },
  { path: 'other.jsonl', format: 'calls', calls: 2, diagnostics: [diag(1000, { callId: 'c1' })] },
];

function reports(): Report[] {
  const plain = buildReport(files.map((f) => ({ ...f, diagnostics: f.diagnostics.map((d) => { const { baselined: _b, ...rest } = d; return rest; }) })));
  const baselined = buildReport(files);
  baselined.summary.baselined ??= 0;
  return [plain, baselined, buildReport([]), buildReport([files[1]])];
}

function streamed(writer: ReportWriter, report: Report): { text: string; pieces: number[] } {
  const out = [writer.start()];
  const pieces: number[] = [];
  for (const f of report.files) {
    let n = 0;
    for (const s of writer.file(f)) {
      out.push(s);
      n++;
    }
    pieces.push(n);
  }
  out.push(writer.end(report.summary));
  return { text: out.join(''), pieces };
}

describe('report writers', () => {
  it('--format json: the bytes of JSON.stringify(report, null, 2), a piece per finding', () => {
    for (const report of reports()) {
      const { text, pieces } = streamed(jsonWriter(), report);
      assert.equal(text, JSON.stringify(report, null, 2) + '\n');
      assert.equal(renderJson(report), text);
      report.files.forEach((f, i) => assert.equal(pieces[i], f.diagnostics.length + 2));
    }
  });

  it('SARIF: one document, canonically printed, a result per finding with its baseline state', () => {
    for (const report of reports()) {
      const { text } = streamed(sarifWriter('1.2.3', report.summary.baselined !== undefined), report);
      assert.equal(renderSarif(report, '1.2.3'), text);
      const log = JSON.parse(text);
      assert.equal(JSON.stringify(log, null, 2) + '\n', text);
      const results = log.runs[0].results as { baselineState?: string; message: { text: string } }[];
      const all = report.files.flatMap((f) => f.diagnostics);
      assert.equal(results.length, all.length);
      assert.deepEqual(results.map((r) => r.message.text), all.map((d) => d.message));
      if (report.summary.baselined !== undefined) assert.deepEqual(results.map((r) => r.baselineState), all.map((d) => (d.baselined ? 'unchanged' : 'new')));
      else assert.ok(results.every((r) => r.baselineState === undefined));
    }
  });

  it('--format jsonl: one line per finding with its path, then the summary line', () => {
    const report = reports()[1];
    const { text } = streamed(jsonlWriter(), report);
    const lines = text.split('\n');
    assert.equal(lines.pop(), '');
    const all = report.files.flatMap((f) => f.diagnostics.map((d) => ({ path: f.path, ...d })));
    assert.equal(lines.length, all.length + 1);
    assert.deepEqual(lines.slice(0, -1).map((l) => JSON.parse(l)), all);
    assert.deepEqual(JSON.parse(lines[lines.length - 1]), { summary: report.summary });
    assert.equal(Object.keys(JSON.parse(lines[0]))[0], 'path');
  });

  it('text and markdown: written file by file, the same text as rendered whole', () => {
    for (const report of reports()) {
      for (const colour of [false, true]) {
        const { text } = streamed(textWriter(colour), report);
        assert.equal(text, renderText(report, colour));
        assert.ok(text.endsWith(`error${report.summary.error === 1 ? '' : 's'}, ${report.summary.warning} warning${report.summary.warning === 1 ? '' : 's'}, ${report.summary.info} info` + (report.summary.baselined ? ` (${report.summary.baselined} more accepted by the baseline)` : '') + (report.summary.notRead ? `; ${report.summary.notRead} file not read as a trace` : '') + '\n'));
      }
      assert.equal(streamed(markdownWriter(), report).text, renderCheckMarkdown(report));
    }
  });

  it('text: a file aligns its findings on the widest line:column, even past 200,000 findings', () => {
    const many: ReportFile = { path: 'big.jsonl', format: 'calls', calls: 1, diagnostics: Array.from({ length: 200_000 }, (_, i) => diag(i, { message: `finding ${i}` })) };
    const { text } = streamed(textWriter(), buildReport([many]));
    const lines = text.split('\n');
    assert.equal(lines.length, 200_000 + 4);
    const at = (l: string) => l.indexOf('  error') >= 0 ? l.indexOf('  error') : l.indexOf('  warning');
    assert.equal(at(lines[1]), at(lines[200_000]));
  });

  it('markdown: the first findings are the most severe, in file order', () => {
    const text = renderCheckMarkdown(reports()[0]);
    const rows = text.split('\n').filter((l) => l.startsWith('| [')); // the first-findings table's rows
    assert.equal(rows.length, 20);
    assert.ok(rows.every((r) => r.includes('| error |')));
    assert.match(rows[0], /ü\.jsonl:2\]/);
    assert.match(text, /…and \d+ more findings\./);
  });
});
