// The CLI's views of a comparison and of mock coverage: text for a terminal, markdown for CI summaries (the JSON
// is the model itself). Shapes are labelled the way the decision table's census shows them.
import type { ExampleCall, MockCoverage, RunComparison, RunFinding, SideStats } from './compare';
import { compareFails, failingNewFindings, shapeLabel, type CompareFailOn } from './compare';
import { FIRST, mdCode, mdLink, mdTable, mdText, more, relativeLink, type LinkTo } from './markdown';

export interface CompareLabels {
  a: string;
  b: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function side(s: SideStats): string {
  return `${plural(s.files, 'file')}, ${plural(s.calls, 'call')}, ${plural(s.tools, 'tool')}, ${plural(s.findings, 'finding')} (${s.per100Calls} per 100 calls)`;
}

function where(e: { file: string; line: number; column: number }): string {
  return `${e.file}:${e.line}:${e.column}`;
}

function findingLine(f: RunFinding): string {
  return `  ${where(f)}  ${f.severity.padEnd(7)}  ${f.code.padEnd(21)}  ${f.message}`;
}

/** The last line of a compare: what B brought, and whether that fails. */
export function compareVerdict(c: RunComparison, failOn: CompareFailOn = 'any'): string {
  const failing = failingNewFindings(c).length;
  const news = c.findings.new.length;
  const verdict = compareFails(c, failOn) ? 'B differs' : news || c.newShapes ? 'B differs (not failing)' : 'the runs agree';
  return `compare: ${verdict}: ${plural(c.newShapes, 'new shape')}, ${plural(news, 'new finding')}${news !== failing ? ` (${failing} error or warning)` : ''}, ${c.findings.fixed.length} fixed, ${c.findings.unchanged.length} unchanged`;
}

export function renderCompareText(c: RunComparison, labels: CompareLabels, failOn: CompareFailOn = 'any'): string {
  const out: string[] = [`A ${labels.a}: ${side(c.a)}`, `B ${labels.b}: ${side(c.b)}`, ''];
  for (const t of c.tools) {
    const mark = t.isNew ? '  NEW TOOL in B' : t.callsB === 0 ? '  not called in B' : '';
    out.push(`${t.tool}  (A ${plural(t.callsA, 'call')}, B ${plural(t.callsB, 'call')})${mark}`);
    const wa = Math.max(1, ...t.shapes.map((s) => String(s.countA).length));
    const wb = Math.max(1, ...t.shapes.map((s) => String(s.countB).length));
    for (const s of t.shapes) {
      const notes: string[] = [];
      if (s.isNew) notes.push('NEW in B');
      if (s.gone) notes.push('gone from B');
      if (s.extra.length) notes.push(`extra ${s.extra.join(', ')}`);
      if (s.missing.length) notes.push(`missing ${s.missing.join(', ')}`);
      if (s.isNew) notes.push(`e.g. ${where(s.example)} ${s.example.args}`);
      out.push(`  A ${String(s.countA).padStart(wa)}  B ${String(s.countB).padStart(wb)}  ${shapeLabel(s.keys)}${notes.length ? '  ' + notes.join('; ') : ''}`);
    }
  }
  if (c.findings.new.length) {
    out.push('', `New in B (${c.findings.new.length}):`);
    for (const f of c.findings.new) out.push(findingLine(f));
  }
  if (c.findings.fixed.length) {
    out.push('', `Fixed in B (${c.findings.fixed.length}):`);
    for (const f of c.findings.fixed) out.push(findingLine(f));
  }
  out.push('', compareVerdict(c, failOn));
  return out.join('\n') + '\n';
}

function exampleCell(link: LinkTo, e: ExampleCall): string {
  return `${mdLink(link, e.file, e.line)} ${mdCode(e.args.length > 80 ? e.args.slice(0, 79) + '…' : e.args)}`;
}

export function renderCompareMarkdown(c: RunComparison, labels: CompareLabels, failOn: CompareFailOn = 'any', link: LinkTo = relativeLink): string {
  const out: string[] = ['### Contract Guard: compare', '', mdText(compareVerdict(c, failOn), 400), ''];
  const row = (name: string, f: (s: SideStats) => number) => [name, String(f(c.a)), String(f(c.b))];
  out.push(mdTable(['', `A: ${mdText(labels.a, 80)}`, `B: ${mdText(labels.b, 80)}`], [
    row('files', (s) => s.files),
    row('calls', (s) => s.calls),
    row('tools', (s) => s.tools),
    row('findings', (s) => s.findings),
    row('findings per 100 calls', (s) => s.per100Calls),
  ]));
  const fresh = c.tools.flatMap((t) => t.shapes.filter((s) => s.isNew).map((s) => ({ tool: t.tool, s })));
  if (fresh.length) {
    const first = fresh.slice(0, FIRST);
    out.push('', `**New shapes in B** (${fresh.length})`, '', mdTable(['tool', 'keys', 'calls in B', 'first call'], first.map(({ tool, s }) => [mdText(tool, 80), mdText(shapeLabel(s.keys)), String(s.countB), exampleCell(link, s.example)])));
    out.push(...more(fresh.length, first.length, 'shapes'));
  }
  if (c.findings.new.length) {
    const first = c.findings.new.slice(0, FIRST);
    out.push('', `**New findings in B** (${c.findings.new.length})`, '', mdTable(['where', 'severity', 'code', 'message'], first.map((f) => [mdLink(link, f.file, f.line), f.severity, mdCode(f.code), mdText(f.message)])));
    out.push(...more(c.findings.new.length, first.length, 'findings'));
  }
  return out.join('\n') + '\n';
}

// ---- mock coverage -------------------------------------------------------------------------------------------

export function coverageVerdict(m: MockCoverage): string {
  return `coverage: ${m.uncovered} of ${plural(m.shapes, 'shape')} in ${plural(m.traces.calls, 'call')} not covered by any of ${plural(m.fixtures.files, 'fixture file')} (${plural(m.fixtures.calls, 'call')})`;
}

export function renderCoverageText(m: MockCoverage): string {
  const out: string[] = [];
  for (const t of m.tools) {
    out.push(`${t.tool}  (${plural(t.calls, 'call')}; ${plural(t.fixtureCalls, 'fixture call')}): ${t.covered} of ${plural(t.shapes, 'shape')} covered`);
    for (const s of t.uncovered) {
      const notes = [s.extra.length ? `extra ${s.extra.join(', ')}` : '', s.missing.length ? `missing ${s.missing.join(', ')}` : ''].filter(Boolean).join('; ');
      out.push(`  uncovered  ${shapeLabel(s.keys)}  x${s.count}${notes ? `  (${notes})` : ''}  e.g. ${where(s.example)} ${s.example.args}`);
    }
  }
  out.push('', coverageVerdict(m));
  return out.join('\n') + '\n';
}

export function renderCoverageMarkdown(m: MockCoverage, link: LinkTo = relativeLink): string {
  const out: string[] = ['### Contract Guard: mock coverage', '', mdText(coverageVerdict(m), 400), ''];
  out.push(mdTable(['tool', 'calls', 'fixture calls', 'shapes', 'covered'], m.tools.map((t) => [mdText(t.tool, 80), String(t.calls), String(t.fixtureCalls), String(t.shapes), String(t.covered)])));
  const gaps = m.tools.flatMap((t) => t.uncovered.map((s) => ({ tool: t.tool, s })));
  if (gaps.length) {
    const first = gaps.slice(0, FIRST);
    out.push('', `**Uncovered shapes** (${gaps.length})`, '', mdTable(['tool', 'keys', 'calls', 'example'], first.map(({ tool, s }) => [mdText(tool, 80), mdText(shapeLabel(s.keys)), String(s.count), exampleCell(link, s.example)])));
    out.push(...more(gaps.length, first.length, 'shapes'));
  }
  return out.join('\n') + '\n';
}
