// The compare page's data, from the core's comparison (compareRuns) and mock coverage (mockCoverage): plain data,
// every place in a file replaced by a number the panel keeps (the page asks for a place by its number only).
import * as vscode from 'vscode';
import { compareFails, compareRuns, mockCoverage, shapeLabel, type ExampleCall, type RunFinding, type SideStats } from '../../core';
import type { CompareView, FindingGroup, FindingView, SideView } from '../../webview/compare-protocol';
import type { CollectedSide } from './runs';

/** Findings listed per group at most (the counts stay whole): a long run's thousands are the CLI's JSON's business. */
export const MAX_LISTED = 2000;

/** A place the page can ask for: a call (reveal selects it; freeze freezes it) or a finding's range (1-based). */
export type Place =
  | { kind: 'call'; uri: vscode.Uri; call: ExampleCall; tool: string; /** B's call of a shape no fixture covers */ freezable: boolean }
  | { kind: 'finding'; uri: vscode.Uri; line: number; column: number; endLine: number; endColumn: number };

export interface BuiltView {
  view: CompareView;
  places: Place[];
}

function side(stats: SideStats, s: CollectedSide, fixtures: boolean): SideView {
  return { label: s.label, ...stats, skipped: s.skipped, fixtures };
}

const where = (file: string, line: number) => `${file}:${line}`;

export function buildView(a: CollectedSide, b: CollectedSide, options: { coverage: boolean; generation: number; millis: number }): BuiltView {
  const places: Place[] = [];
  const callPlace = (sideOf: CollectedSide, tool: string, call: ExampleCall, freezable: boolean): number => {
    const uri = sideOf.uris.get(call.file);
    if (!uri) return -1;
    places.push({ kind: 'call', uri, call, tool, freezable });
    return places.length - 1;
  };
  const findingPlace = (sideOf: CollectedSide, f: RunFinding): number => {
    const uri = sideOf.uris.get(f.file);
    if (!uri) return -1;
    places.push({ kind: 'finding', uri, line: f.line, column: f.column, endLine: f.endLine, endColumn: f.endColumn });
    return places.length - 1;
  };
  const group = (list: RunFinding[], sideOf: CollectedSide): FindingGroup => ({
    total: list.length,
    items: list.slice(0, MAX_LISTED).map((f): FindingView => {
      const v: FindingView = { code: f.code, severity: f.severity, message: f.message, where: where(f.file, f.line), ref: findingPlace(sideOf, f) };
      if (f.tool !== undefined) v.tool = f.tool;
      return v;
    }),
  });

  const cmp = compareRuns(a.summary, b.summary);
  const tools = cmp.tools.map((t) => ({
    tool: t.tool,
    callsA: t.callsA,
    callsB: t.callsB,
    isNew: t.isNew,
    shapes: t.shapes.map((s) => ({
      label: shapeLabel(s.keys),
      keys: s.keys,
      countA: s.countA,
      countB: s.countB,
      isNew: s.isNew,
      gone: s.gone,
      breaks: s.breaks,
      extra: s.extra,
      missing: s.missing,
      codes: s.codes,
      args: s.example.args,
      where: where(s.example.file, s.example.line),
      // the example is B's call, or A's when B has none of the shape
      ref: callPlace(s.gone ? a : b, t.tool, s.example, false),
    })),
  }));
  const view: CompareView = {
    a: side(cmp.a, a, options.coverage),
    b: side(cmp.b, b, false),
    tools,
    newShapes: cmp.newShapes,
    goneShapes: cmp.tools.reduce((n, t) => n + t.shapes.filter((s) => s.gone).length, 0),
    findings: { new: group(cmp.findings.new, b), fixed: group(cmp.findings.fixed, a), unchanged: group(cmp.findings.unchanged, b) },
    differs: compareFails(cmp),
    millis: options.millis,
    generation: options.generation,
  };
  if (options.coverage) {
    const cov = mockCoverage(a.summary, b.summary);
    view.coverage = {
      fixtures: cov.fixtures,
      shapes: cov.shapes,
      uncovered: cov.uncovered,
      tools: cov.tools.map((t) => ({
        tool: t.tool,
        calls: t.calls,
        fixtureCalls: t.fixtureCalls,
        shapes: t.shapes,
        covered: t.covered,
        uncovered: t.uncovered.map((s) => ({
          label: shapeLabel(s.keys),
          keys: s.keys,
          count: s.count,
          breaks: s.breaks,
          codes: s.codes,
          args: s.example.args,
          where: where(s.example.file, s.example.line),
          ref: callPlace(b, t.tool, s.example, true),
        })),
      })),
    };
  }
  return { view, places };
}
