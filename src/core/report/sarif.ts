// SARIF 2.1.0, so CI and code-scanning tools can show the findings. Rules carry each code's help text.
import type { Log, ReportingDescriptor, Result } from 'sarif';
import { CODES } from '../checks';
import type { Severity } from '../model';
import type { Report, ReportEntry } from './model';
import { OpenArray, renderWith, type ReportWriter } from './writer';

export const DOCS_URL = 'https://github.com/contract-guard/contract-guard#';

const LEVEL: Record<Severity, Result.level> = { error: 'error', warning: 'warning', info: 'note' };

/** SARIF 2.1.0, one result at a time. `baselined`: a baseline was applied (every result then has a baselineState). */
export function sarifWriter(version = '0.0.0', baselined = false): ReportWriter {
  const codes = Object.values(CODES);
  const ruleIndex = new Map(codes.map((c, i) => [c.code, i]));
  const rules: ReportingDescriptor[] = codes.map((c) => ({
    id: c.code,
    name: c.code.replace(/(^|-)(\w)/g, (_m, _d, ch: string) => ch.toUpperCase()),
    shortDescription: { text: c.title },
    fullDescription: { text: c.description },
    help: { text: c.description + (c.example ? `\nExample: ${c.example.input}\n-> ${c.example.message}` : '') },
    helpUri: DOCS_URL + c.code,
    defaultConfiguration: { level: LEVEL[c.severity] },
  }));
  const log: Log = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: { driver: { name: 'Contract Guard', informationUri: DOCS_URL.slice(0, -1), semanticVersion: version, rules } },
        columnKind: 'utf16CodeUnits',
        results: [],
      },
    ],
  };
  const results = new OpenArray(JSON.stringify(log, null, 2) + '\n', 'results', '      ');
  return {
    start: () => results.before,
    *file(file: ReportEntry) {
      for (const d of file.diagnostics) {
        const result: Result = {
          ruleId: d.code,
          level: LEVEL[d.severity],
          message: { text: d.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: encodeURI(file.path) },
                region: { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn },
              },
            },
          ],
        };
        if (d.fingerprint) result.partialFingerprints = { 'contractGuard/v1': d.fingerprint };
        if (baselined) result.baselineState = d.baselined ? 'unchanged' : 'new';
        const index = ruleIndex.get(d.code);
        if (index !== undefined) result.ruleIndex = index;
        const props: Record<string, unknown> = {};
        if (d.tool !== undefined) props.tool = d.tool;
        if (d.callId !== undefined) props.callId = d.callId;
        if (d.turn !== undefined) props.turn = d.turn;
        if (Object.keys(props).length) result.properties = props;
        yield results.item(result);
      }
    },
    end: () => results.close(),
  };
}

export function renderSarif(report: Report, version = '0.0.0'): string {
  return renderWith(sarifWriter(version, report.summary.baselined !== undefined), report);
}
