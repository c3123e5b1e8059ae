// The CLI's `--format json`: exactly one JSON document, as DESIGN.md specifies.
import type { Report } from './model';

export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2) + '\n';
}
