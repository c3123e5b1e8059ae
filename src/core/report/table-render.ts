// `contract-guard table FILE`: the decision table the webview shows (buildDecisionTable, the same rows and gates),
// as text for CI logs, JSON for tools (offsets become 1-based lines and columns) and markdown for summaries.
import { GATES, type CellStatus, type DecisionTable, type GateCell, type TableRow } from './decision-table';
import { shapeLabel, type Position } from './compare';
import { FIRST, mdCode, mdLink, mdTable, mdText, more, relativeLink, type LinkTo } from './markdown';

type At = (offset: number) => Position;

export interface TableJsonRow extends Omit<TableRow, 'span' | 'nameSpan'> {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface TableJson {
  version: 1;
  file: string;
  format?: string;
  calls: number;
  sessions: number;
  gates: { id: string; title: string; question: string }[];
  turns: { session: number; sessionId?: string; turn: number; text: string; rows: TableJsonRow[] }[];
  census: { tool: string; calls: number; shapes: { keys: string[] | null; count: number; extra: string[]; missing: string[]; breaks: boolean; codes: string[]; line: number; column: number }[] }[];
  other: { code: string; message: string; line: number; column: number }[];
  fixtures: number;
  summary: { rows: number; failing: number };
}

export function tableJson(file: string, t: DecisionTable, at: At): TableJson {
  let failing = 0;
  const turns = t.turns.map((turn) => ({
    session: turn.session,
    ...(turn.sessionId !== undefined ? { sessionId: turn.sessionId } : {}),
    turn: turn.turn,
    text: turn.text,
    rows: turn.rows.map(({ span, nameSpan: _n, ...row }) => {
      if (row.failing) failing++;
      const start = at(span.start);
      const end = at(span.end);
      return { ...row, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
    }),
  }));
  return {
    version: 1,
    file,
    format: t.format,
    calls: t.calls,
    sessions: t.sessions,
    gates: GATES.map((g) => ({ ...g })),
    turns,
    census: t.census.map((c) => ({ tool: c.tool, calls: c.calls, shapes: c.shapes.map(({ first, ...s }) => ({ ...s, ...at(first.span.start) })) })),
    other: t.other.map((o) => ({ code: o.code, message: o.message, ...at(o.span.start) })),
    fixtures: t.fixtures,
    summary: { rows: turns.reduce((n, x) => n + x.rows.length, 0), failing },
  };
}

const WORD: Record<CellStatus, string> = { pass: 'pass', fail: 'FAIL', na: 'n/a', none: '-' };

function cellText(c: GateCell): string {
  return c.status === 'fail' ? `FAIL ${c.code}` : WORD[c.status];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function headline(file: string, t: DecisionTable, failing: number): string {
  return `${file} (${t.format ?? 'not a trace'}): ${plural(t.calls, 'call')} in ${plural(t.sessions, 'session')}, ${failing} failing`;
}

export function renderTableText(file: string, t: DecisionTable, at: At): string {
  const rows = t.turns.flatMap((turn) => turn.rows.map((r) => ({ turn, r, where: (() => { const p = at(r.span.start); return `${p.line}:${p.column}`; })() })));
  const failing = rows.filter((x) => x.r.failing).length;
  const out: string[] = [headline(file, t, failing), ''];
  const head = ['where', 'tool', ...GATES.map((g) => g.title), 'arguments'];
  const table = rows.map(({ r, where }) => [where, r.tool, ...GATES.map((g) => cellText(r.gates[g.id])), r.args]);
  const widths = head.map((h, i) => (i === head.length - 1 ? 0 : Math.max(h.length, ...table.map((row) => row[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  let last: unknown;
  out.push('  ' + line(head));
  rows.forEach(({ turn, r }, i) => {
    if (turn !== last) {
      out.push(`session ${turn.session + 1}${turn.sessionId ? ` (${turn.sessionId})` : ''}, turn ${turn.turn}${turn.text ? `: ${turn.text}` : ''}`);
      last = turn;
    }
    out.push('  ' + line(table[i]));
    for (const g of GATES) if (r.gates[g.id].status === 'fail') out.push(`      ${g.title}: ${r.gates[g.id].signal}`);
  });
  if (t.census.length) {
    out.push('', 'Key shapes:');
    for (const c of t.census) {
      out.push(`  ${c.tool} (${plural(c.calls, 'call')})`);
      for (const s of c.shapes) out.push(`    ${String(s.count).padStart(5)}  ${shapeLabel(s.keys)}${s.breaks ? `  breaks${s.codes.length ? ': ' + s.codes.join(', ') : ''}` : ''}`);
    }
  }
  if (t.other.length) {
    out.push('', 'Outside calls:');
    for (const o of t.other) {
      const p = at(o.span.start);
      out.push(`  ${p.line}:${p.column}  ${o.code}  ${o.message}`);
    }
  }
  return out.join('\n') + '\n';
}

export function renderTableMarkdown(file: string, t: DecisionTable, at: At, link: LinkTo = relativeLink): string {
  const rows = t.turns.flatMap((turn) => turn.rows);
  const failing = rows.filter((r) => r.failing);
  const out: string[] = ['### Contract Guard: decision table', '', mdText(headline(file, t, failing.length), 400), ''];
  const count = (id: (typeof GATES)[number]['id'], s: CellStatus) => String(rows.filter((r) => r.gates[id].status === s).length);
  out.push(mdTable(['gate', 'pass', 'fail', 'n/a', 'no fixture'], GATES.map((g) => [mdText(g.title), count(g.id, 'pass'), count(g.id, 'fail'), count(g.id, 'na'), count(g.id, 'none')])));
  if (failing.length) {
    const first = failing.slice(0, FIRST);
    out.push('', `**Failing calls** (${failing.length})`, '', mdTable(['where', 'tool', 'failing gates', 'signal'], first.map((r) => {
      const failed = GATES.filter((g) => r.gates[g.id].status === 'fail');
      return [mdLink(link, file, at(r.span.start).line), mdText(r.tool, 80), failed.map((g) => `${mdText(g.title)} ${mdCode(r.gates[g.id].code ?? '')}`).join(', '), mdText(r.gates[failed[0].id].signal)];
    })));
    out.push(...more(failing.length, first.length, 'failing calls'));
  }
  return out.join('\n') + '\n';
}
