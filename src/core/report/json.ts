// The CLI's `--format json`: exactly one JSON document, as DESIGN.md specifies, written file by file and finding by
// finding (the summary last); and `--format jsonl`: one line per finding, then one summary line.
import type { Report, ReportDiagnostic, ReportEntry } from './model';
import { afterArray, indented, OpenArray, renderWith, type ReportSummary, type ReportWriter } from './writer';

/** Where a diagnostic stands in the document: an item of `diagnostics` in an item of `files`. */
const DIAGNOSTIC_PAD = '        ';

/** A diagnostic as an item of the JSON report prints it (without what separates it from the one before): made
 *  where the diagnostic is found, on a check thread, so the main thread writes it as it is. */
export function jsonDiagnosticText(d: ReportDiagnostic): string {
  return indented(d, DIAGNOSTIC_PAD);
}

export function jsonWriter(): ReportWriter {
  const files = new OpenArray(JSON.stringify({ version: 1, files: [] }, null, 2), 'files', '  ');
  return {
    start: () => files.before,
    *file(f: ReportEntry) {
      // the file with its diagnostics left out, indented as an item of `files`, then its diagnostics one by one
      const pad = files.indent;
      const { jsonText, ...head } = f;
      const diagnostics = new OpenArray(pad + JSON.stringify({ ...head, diagnostics: [] }, null, 2).replace(/\n/g, '\n' + pad), 'diagnostics', pad + '  ');
      yield files.next() + diagnostics.before.slice(pad.length);
      if (diagnostics.indent !== DIAGNOSTIC_PAD) throw new Error('the JSON report nests diagnostics elsewhere');
      if (jsonText) for (const text of jsonText) yield diagnostics.next() + text;
      else for (const d of f.diagnostics) yield diagnostics.next() + jsonDiagnosticText(d);
      yield diagnostics.close();
    },
    end: (summary: ReportSummary) => files.close(afterArray({ version: 1, files: [], summary }, 'files', '  ')),
  };
}

export function renderJson(report: Report): string {
  return renderWith(jsonWriter(), report);
}

/** One finding per line (`path` first, then the fields of a `--format json` diagnostic), then `{"summary": …}`. */
export function jsonlWriter(): ReportWriter {
  return {
    start: () => '',
    *file(f: ReportEntry) {
      for (const d of f.diagnostics) yield JSON.stringify({ path: f.path, ...d }) + '\n';
    },
    end: (summary: ReportSummary) => JSON.stringify({ summary }) + '\n',
  };
}
