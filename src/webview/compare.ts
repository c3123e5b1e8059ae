// The compare page. It receives the comparison as data (postMessage, after it says it is ready) and renders every
// string from a trace with textContent, never as markup. Places in files are numbers the host resolves (a click or
// Enter reveals the call or finding; "Freeze" freezes an uncovered shape's example). Colours come from --vscode-*
// variables only (media/compare.css). Long lists are drawn a page at a time. After each draw the page reports what
// it shows, read back from its DOM, so tests check the page rather than the data sent to it.
import type { ComparePageState, CompareView, CoverageToolView, FindingGroup, FindingView, FromPage, PageReport, ShapeView, ToPage, UncoveredView } from './compare-protocol';
import { $, el } from './dom';

interface VsCodeApi {
  postMessage(message: FromPage): void;
  getState(): ComparePageState | undefined;
  setState(state: ComparePageState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
/** Rows drawn at once per list; "Show more" draws the next page. */
const PAGE = 300;

let state: ComparePageState | undefined = vscode.getState();
let view: CompareView | undefined;
const frozen = new Map<number, { status: string; path: string }>();

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function save(): void {
  if (!state) return;
  const closed = Array.from(document.querySelectorAll<HTMLDetailsElement>('details[data-section]')).filter((d) => !d.open).map((d) => d.dataset.section!);
  state = { ...state, closed, scrollTop: document.scrollingElement?.scrollTop ?? 0 };
  vscode.setState(state);
}

/** A place in a file: a link-like button (focusable, Enter reveals). */
function placeButton(where: string, ref: number, label?: string): HTMLButtonElement {
  const b = el('button', 'link', label ?? where);
  b.type = 'button';
  b.title = `Reveal ${where}`;
  b.dataset.ref = String(ref);
  b.disabled = ref < 0;
  return b;
}

/** Keys of a shape, with the keys the contract does not declare marked and the required ones missing noted. */
function shapeKeys(s: { label: string; keys: string[] | null; extra?: string[]; missing?: string[] }): HTMLElement {
  const span = el('span', 'label');
  if (s.keys === null) {
    span.append(el('span', 'bad', s.label));
    return span;
  }
  span.append(document.createTextNode('{'));
  s.keys.forEach((k, i) => {
    if (i) span.append(document.createTextNode(', '));
    span.append(s.extra?.includes(k) ? el('mark', 'bad', k) : document.createTextNode(k));
  });
  span.append(document.createTextNode('}'));
  return span;
}

/** Draw `items` into `list` a page at a time, with a "Show more" button under it. */
function paged<T>(list: HTMLElement, more: HTMLElement, items: readonly T[], total: number, row: (item: T) => HTMLElement): void {
  list.replaceChildren();
  more.replaceChildren();
  let shown = 0;
  const next = () => {
    const frag = document.createDocumentFragment();
    for (const it of items.slice(shown, shown + PAGE)) frag.append(row(it));
    shown = Math.min(items.length, shown + PAGE);
    list.append(frag);
    more.replaceChildren();
    if (shown < items.length) {
      const b = el('button', 'more', `Show ${Math.min(PAGE, items.length - shown)} more (${items.length - shown} not shown)`);
      b.type = 'button';
      b.addEventListener('click', () => {
        next();
        report();
      });
      more.append(b);
    } else if (total > items.length) {
      more.append(el('p', 'hint', `${total - items.length} more not listed here: \`contract-guard compare --format json\` lists them all.`));
    }
  };
  next();
}

// ---- the sides and the verdict ------------------------------------------------------------------------------

function renderSide(box: HTMLElement, name: 'A' | 'B', s: CompareView['a']): void {
  box.replaceChildren();
  const head = el('h2');
  head.append(el('span', 'side-name', name), el('span', 'side-label', s.label));
  if (s.fixtures) head.append(el('span', 'badge fixtures', 'frozen fixtures'));
  box.append(head);
  box.append(el('div', 'stats', `${plural(s.files, 'file')} · ${plural(s.calls, 'call')} · ${plural(s.tools, 'tool')} · ${plural(s.findings, 'finding')} (${s.per100Calls} per 100 calls)`));
  const sev = el('div', 'stats severities');
  sev.append(el('span', 'error', plural(s.error, 'error')), document.createTextNode(' · '), el('span', 'warning', plural(s.warning, 'warning')), document.createTextNode(` · ${s.info} info`));
  if (s.skipped) sev.append(document.createTextNode(` · ${plural(s.skipped, 'file')} not read as a trace`));
  box.append(sev);
}

function renderVerdict(v: CompareView): void {
  const box = $('verdict');
  $('progress').textContent = `Compared in ${v.millis} ms.`;
  if (v.coverage) {
    // against mocks, what matters is what they never produced; the fixtures' own findings are not "fixed" by a run
    const c = v.coverage;
    box.className = c.uncovered ? 'differs' : 'agrees';
    box.textContent = c.uncovered
      ? `✗ The fixtures miss ${plural(c.uncovered, 'shape')} of ${c.shapes} that the traces show`
      : `✓ The fixtures cover every shape the traces show (${plural(c.shapes, 'shape')})`;
    return;
  }
  const fixed = v.findings.fixed.total ? `; ${v.findings.fixed.total} fixed` : '';
  const newErrors = v.findings.new.items.filter((f) => f.severity !== 'info').length;
  box.className = v.differs ? 'differs' : 'agrees';
  box.textContent = v.differs
    ? `✗ B differs from A: ${plural(v.newShapes, 'new shape')}, ${plural(v.findings.new.total, 'new finding')}${newErrors < v.findings.new.total ? ` (${newErrors} error or warning)` : ''}${fixed}`
    : `✓ The runs agree: no new shape, no new error or warning${fixed}`;
}

// ---- key shapes ---------------------------------------------------------------------------------------------

interface ShapeLine {
  tool: string;
  head?: CompareView['tools'][number];
  shape?: ShapeView;
}

function shapeRow(line: ShapeLine): HTMLElement {
  if (line.head) {
    const t = line.head;
    const tr = el('tr', 'tool' + (t.isNew ? ' new' : ''));
    const th = el('th', undefined);
    th.colSpan = 5;
    th.scope = 'rowgroup';
    th.append(el('span', 'tool-name', t.tool));
    if (t.isNew) th.append(el('span', 'badge new', 'new tool'));
    if (t.callsB === 0) th.append(el('span', 'badge gone', 'not called in B'));
    th.append(el('span', 'tool-calls', `A: ${plural(t.callsA, 'call')} · B: ${plural(t.callsB, 'call')}`));
    tr.append(th);
    return tr;
  }
  const s = line.shape!;
  const tr = el('tr', 'shape' + (s.isNew ? ' new' : '') + (s.gone ? ' gone' : '') + (s.breaks ? ' breaks' : ''));
  tr.dataset.tool = line.tool;
  tr.dataset.ref = String(s.ref);
  const keys = el('td', 'keys');
  keys.append(shapeKeys(s));
  if (s.isNew) keys.append(el('span', 'badge new', 'new in B'));
  if (s.gone) keys.append(el('span', 'badge gone', 'gone from B'));
  if (s.missing.length) keys.append(el('span', 'missing', ` missing: ${s.missing.join(', ')}`));
  tr.append(keys);
  tr.append(el('td', 'count a', s.countA ? `×${s.countA}` : '–'));
  tr.append(el('td', 'count b', s.countB ? `×${s.countB}` : '–'));
  tr.append(el('td', 'verdict', s.breaks ? `✗ ${s.codes.join(', ') || 'breaks the contract'}` : '✓'));
  const ex = el('td', 'example');
  ex.append(placeButton(s.where, s.ref), el('span', 'args', s.args));
  ex.title = s.args;
  tr.append(ex);
  return tr;
}

function renderShapes(v: CompareView): void {
  const only = $<HTMLInputElement>('changes-only').checked;
  const lines: ShapeLine[] = [];
  let shapes = 0;
  for (const t of v.tools) {
    const list = only ? t.shapes.filter((s) => s.isNew || s.gone) : t.shapes;
    shapes += t.shapes.length;
    if (!list.length) continue;
    lines.push({ tool: t.tool, head: t });
    for (const s of list) lines.push({ tool: t.tool, shape: s });
  }
  $('head-a').textContent = `A ${v.a.label}`;
  $('head-b').textContent = `B ${v.b.label}`;
  $('shapes-summary').textContent = `Key shapes: ${plural(v.tools.length, 'tool')}, ${plural(shapes, 'shape')} — ${v.newShapes} new in B, ${v.goneShapes} gone from B`;
  paged($('shapes-body'), $('shapes-more'), lines, lines.length, shapeRow);
}

// ---- findings -----------------------------------------------------------------------------------------------

const ICON: Record<string, string> = { error: '✗', warning: '⚠', info: 'ℹ' };

function findingRow(f: FindingView, fixed = false): HTMLElement {
  const li = el('li', `finding ${f.severity}`);
  li.dataset.ref = String(f.ref);
  li.dataset.code = f.code;
  if (f.tool !== undefined) li.dataset.tool = f.tool;
  li.append(el('span', 'icon', fixed ? '✓' : ICON[f.severity] ?? '•'), el('span', 'code', f.code), el('span', 'message', f.message), placeButton(f.where, f.ref));
  li.title = f.message;
  return li;
}

function renderFindings(id: 'new' | 'fixed' | 'unchanged', title: string, g: FindingGroup): void {
  const codes = new Map<string, number>();
  for (const f of g.items) codes.set(f.code, (codes.get(f.code) ?? 0) + 1);
  const byCode = [...codes].sort((x, y) => y[1] - x[1]).slice(0, 6).map(([c, n]) => `${c} ×${n}`).join(', ');
  $(`${id}-summary`).textContent = `${title} (${g.total})${byCode ? `: ${byCode}` : ''}`;
  paged($(id), $(`${id}-more`), g.items, g.total, (f) => findingRow(f, id === 'fixed'));
  if (!g.total) $(id).append(el('li', 'none', id === 'new' ? 'B brings no finding A did not have.' : id === 'fixed' ? 'Every finding of A is still in B.' : 'No finding is in both runs.'));
}

// ---- mock coverage ------------------------------------------------------------------------------------------

function freezeCell(s: UncoveredView): HTMLElement {
  const cell = el('span', 'freeze');
  const done = frozen.get(s.ref);
  if (done) {
    const text = done.status === 'written' ? `frozen as ${done.path}` : done.status === 'exists' ? `already frozen: ${done.path}` : 'could not be frozen';
    cell.append(el('span', `frozen ${done.status}`, text));
    return cell;
  }
  const b = el('button', 'freeze-button', 'Freeze example');
  b.type = 'button';
  b.dataset.freeze = String(s.ref);
  b.title = `Freeze ${s.where} as a fixture (an existing fixture is never overwritten)`;
  b.disabled = s.ref < 0;
  cell.append(b);
  return cell;
}

function uncoveredRow(tool: string, s: UncoveredView): HTMLElement {
  const row = el('div', 'uncovered' + (s.breaks ? ' breaks' : ''));
  row.dataset.tool = tool;
  row.dataset.ref = String(s.ref);
  row.append(shapeKeys(s), el('span', 'count', `×${s.count}`));
  if (s.breaks) row.append(el('span', 'verdict', `✗ ${s.codes.join(', ') || 'breaks the contract'}`));
  // the button before the long parts, so that a narrow panel never hides it
  row.append(freezeCell(s), placeButton(s.where, s.ref), el('span', 'args', s.args));
  row.title = s.args;
  return row;
}

function renderCoverage(v: CompareView): void {
  const box = $<HTMLDetailsElement>('sec-coverage');
  const c = v.coverage;
  box.hidden = !c;
  if (!c) return;
  $('coverage-summary').textContent = `Mock coverage: ${c.shapes - c.uncovered} of ${plural(c.shapes, 'shape')} covered by ${plural(c.fixtures.files, 'fixture file')} (A); ${c.uncovered} uncovered`;
  $('coverage-hint').textContent = 'Shapes the traces (B) show that no fixture calls with the same keys. "Freeze example" freezes the call into the fixtures folder; an existing fixture is never overwritten.';
  const lines: { tool: CoverageToolView; shape?: UncoveredView }[] = [];
  for (const t of c.tools) {
    lines.push({ tool: t });
    for (const s of t.uncovered) lines.push({ tool: t, shape: s });
  }
  const list = $('coverage');
  paged(list, el('div'), lines, lines.length, (line) => {
    const t = line.tool;
    if (line.shape) return uncoveredRow(t.tool, line.shape);
    const head = el('div', 'cov-tool' + (t.uncovered.length ? '' : ' covered'));
    head.append(el('span', 'tool-name', t.tool), el('span', 'tool-calls', `${t.covered} of ${plural(t.shapes, 'shape')} covered · ${plural(t.calls, 'call')} in B, ${plural(t.fixtureCalls, 'fixture call')}`));
    if (!t.uncovered.length) head.append(el('span', 'badge ok', 'covered'));
    return head;
  });
}

// ---- what the page shows, for the tests ---------------------------------------------------------------------

function report(): void {
  if (!view) return;
  const shape = (e: Element) => `${(e as HTMLElement).dataset.tool} ${e.querySelector('.label')?.textContent ?? ''}`;
  const finding = (e: Element) => `${(e as HTMLElement).dataset.code} ${(e as HTMLElement).dataset.tool ?? ''}`.trim();
  const r: PageReport = {
    generation: view.generation,
    newShapes: Array.from(document.querySelectorAll('#shapes-body tr.shape.new')).map(shape),
    goneShapes: Array.from(document.querySelectorAll('#shapes-body tr.shape.gone')).map(shape),
    newFindings: Array.from(document.querySelectorAll('#new li.finding')).map(finding),
    fixedFindings: Array.from(document.querySelectorAll('#fixed li.finding')).map(finding),
    unchanged: document.querySelectorAll('#unchanged li.finding').length,
    uncovered: view.coverage ? Array.from(document.querySelectorAll('#coverage .uncovered')).map(shape) : [],
    frozen: Array.from(document.querySelectorAll('#coverage .uncovered')).filter((e) => e.querySelector('.frozen.written, .frozen.exists')).map(shape),
  };
  vscode.postMessage({ type: 'rendered', report: r });
}

function render(v: CompareView): void {
  view = v;
  $('error').hidden = true;
  renderSide($('side-a'), 'A', v.a);
  renderSide($('side-b'), 'B', v.b);
  renderVerdict(v);
  renderCoverage(v);
  renderShapes(v);
  renderFindings('new', 'New in B', v.findings.new);
  renderFindings('fixed', 'Fixed in B', v.findings.fixed);
  renderFindings('unchanged', 'Unchanged', v.findings.unchanged);
  $('main').hidden = false;
  // against fixtures, the findings' lists start closed (the fixtures' own findings are not "fixed" by the traces)
  const closed = state?.closed ?? (v.coverage ? ['fixed', 'unchanged'] : ['unchanged']);
  for (const d of Array.from(document.querySelectorAll<HTMLDetailsElement>('details[data-section]'))) d.open = !closed.includes(d.dataset.section!);
  if (state?.scrollTop) document.scrollingElement?.scrollTo(0, state.scrollTop);
  report();
}

// ---- input --------------------------------------------------------------------------------------------------

document.addEventListener('click', (ev) => {
  const target = ev.target as HTMLElement;
  const freeze = target.closest<HTMLElement>('[data-freeze]');
  if (freeze) {
    (freeze as HTMLButtonElement).disabled = true;
    freeze.textContent = 'Freezing…';
    vscode.postMessage({ type: 'freeze', ref: Number(freeze.dataset.freeze) });
    return;
  }
  // a click anywhere on a row reveals its place, as a click on its link does
  const place = target.closest<HTMLElement>('button.link[data-ref], tr.shape[data-ref], li.finding[data-ref], .uncovered[data-ref]');
  if (!place || target.closest('summary, input, label')) return;
  const ref = Number(place.dataset.ref);
  if (ref >= 0) vscode.postMessage({ type: 'reveal', ref });
});

// Up and Down move between the places of one list, as in a list view; Tab still goes through them all.
document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp') return;
  const current = document.activeElement as HTMLElement | null;
  if (!current?.matches('button.link')) return;
  const list = current.closest('tbody, ul, #coverage');
  if (!list) return;
  const all = Array.from(list.querySelectorAll<HTMLButtonElement>('button.link:not([disabled])'));
  const i = all.indexOf(current as HTMLButtonElement);
  const next = all[i + (ev.key === 'ArrowDown' ? 1 : -1)];
  if (next) {
    next.focus();
    next.scrollIntoView({ block: 'nearest' });
    ev.preventDefault();
  }
});

$<HTMLInputElement>('changes-only').addEventListener('change', () => {
  if (!view) return;
  renderShapes(view);
  report();
});
for (const d of Array.from(document.querySelectorAll<HTMLDetailsElement>('details[data-section]'))) d.addEventListener('toggle', save);
let scrollTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('scroll', () => {
  if (scrollTimer) clearTimeout(scrollTimer);
  scrollTimer = setTimeout(save, 200);
});

window.addEventListener('message', (ev: MessageEvent<ToPage>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'runs':
      state = { ...msg.state, closed: state?.closed, scrollTop: state?.scrollTop };
      vscode.setState(state);
      break;
    case 'progress':
      $('progress').textContent = msg.message;
      break;
    case 'compare':
      render(msg.view);
      break;
    case 'error':
      $('error').textContent = msg.message;
      $('error').hidden = false;
      $('progress').textContent = '';
      break;
    case 'frozen': {
      frozen.set(msg.ref, { status: msg.status, path: msg.path });
      for (const row of Array.from(document.querySelectorAll<HTMLElement>(`#coverage .uncovered[data-ref="${msg.ref}"]`))) {
        const s = view?.coverage?.tools.flatMap((t) => t.uncovered).find((u) => u.ref === msg.ref);
        if (s) row.querySelector('.freeze')?.replaceWith(freezeCell(s));
      }
      report();
      break;
    }
  }
});

vscode.postMessage({ type: 'ready' });
