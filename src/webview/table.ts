// The decision table page. It receives the table as data (postMessage, after it says it is ready), renders every
// string from the trace with textContent (never innerHTML), and draws only the rows in view (a virtual list of fixed
// height rows), so a trace of 10,000 calls opens as fast as one of ten. Colours come from --vscode-* variables only
// (media/table.css). State (scroll, selection, filters) is kept with setState, so a reload or a restart restores it.
import type { FromPage, Item, PageState, RowItem, TableMeta, ToPage } from './protocol';
import { $, el } from './dom';

interface VsCodeApi {
  postMessage(message: FromPage): void;
  getState(): PageState | undefined;
  setState(state: PageState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const scriptStart = performance.now();
const vscode = acquireVsCodeApi();
const ROW = 26; // px, every line of the list (turn headers and calls)
const ICONS = { pass: '✓', fail: '✗', na: '–', none: '○', pending: '…' } as const;
/** The gates' short titles, for the narrow layout (the full title and question are the header's tooltip). */
const SHORT: Record<string, string> = { envelope: 'Env', keys: 'Keys', args: 'Args', bytes: 'Bytes', replay: 'Rep.' };
/** The tool column is as wide as the longest tool name, up to this. */
const MAX_TOOL_PX = 220;
const OVERSCAN = 10;

let meta: TableMeta | undefined;
let items: Item[] = [];
let view: Item[] = []; // after the filters
let fresh = 0; // items[0, fresh) come from the current build; the rest, if any, are the last build's
let state: PageState = vscode.getState() ?? { uri: '' };
let selected: string | undefined = state.selected;
let highlighted: string | undefined;
let reportedGeneration = -1;
let restoreScroll: number | undefined = state.scrollTop;


const viewport = $<HTMLDivElement>('rows');
const spacer = $<HTMLDivElement>('spacer');
const codeFilter = $<HTMLSelectElement>('filter-code');
const toolFilter = $<HTMLSelectElement>('filter-tool');
const failingFilter = $<HTMLInputElement>('filter-failing');
const textFilter = $<HTMLInputElement>('filter-text');

function save(): void {
  state = {
    ...state,
    scrollTop: viewport.scrollTop,
    selected,
    filters: { code: codeFilter.value, tool: toolFilter.value, failing: failingFilter.checked, text: textFilter.value },
    censusOpen: ($<HTMLDetailsElement>('census')).open,
  };
  vscode.setState(state);
}

// ---- filters ------------------------------------------------------------------------------------------------

function fillSelect(select: HTMLSelectElement, all: string, values: string[], keep: string): void {
  select.replaceChildren();
  const first = el('option', undefined, all);
  first.value = '';
  select.append(first);
  for (const v of values) {
    const o = el('option', undefined, v);
    o.value = v;
    select.append(o);
  }
  select.value = values.includes(keep) ? keep : '';
}

function applyFilters(): void {
  const code = codeFilter.value;
  const tool = toolFilter.value;
  const failing = failingFilter.checked;
  const text = textFilter.value.trim().toLowerCase();
  const filtering = code !== '' || tool !== '' || failing || text !== '';
  const out: Item[] = [];
  let pendingTurn: Item | undefined;
  for (const it of items) {
    if (it.kind === 'turn') {
      pendingTurn = it;
      continue;
    }
    if (filtering && ((code && !it.codes.includes(code) && !Object.values(it.gates).some((g) => g.code === code)) || (tool && it.tool !== tool) || (failing && !it.failing) || (text && !it.args.toLowerCase().includes(text)))) continue;
    if (pendingTurn) {
      out.push(pendingTurn);
      pendingTurn = undefined;
    }
    out.push(it);
  }
  view = out;
  const calls = items.filter((i) => i.kind === 'row').length;
  const shown = view.filter((i) => i.kind === 'row').length;
  $('count').textContent = filtering ? `${shown} of ${calls} calls` : `${calls} call${calls === 1 ? '' : 's'}`;
  spacer.style.height = `${view.length * ROW}px`;
  $('empty').hidden = view.length > 0 || !meta;
  render(true);
}

// ---- the virtual list ---------------------------------------------------------------------------------------

/** The sticky column header's height: the list starts below it. */
function headHeight(): number {
  return $('head').offsetHeight;
}

let lastRange = '';
function render(force = false): void {
  const top = Math.max(0, viewport.scrollTop - headHeight());
  const height = viewport.clientHeight || 600;
  const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
  const last = Math.min(view.length, Math.ceil((top + height) / ROW) + OVERSCAN);
  const range = `${first}:${last}`;
  if (!force && range === lastRange) return;
  lastRange = range;
  const frag = document.createDocumentFragment();
  for (let i = first; i < last; i++) frag.append(line(view[i], i));
  spacer.replaceChildren(frag);
  if (force) renderDetail();
  if (meta && reportedGeneration !== meta.generation && spacer.querySelector('.row')) {
    reportedGeneration = meta.generation;
    if (document.body.dataset.drawnAt === undefined) {
      document.body.dataset.drawnAt = String(Date.now());
      document.body.dataset.drawnFrom = meta.provisional ? 'the last check' : 'the table';
    }
    vscode.postMessage({ type: 'rendered', generation: meta.generation, rows: spacer.querySelectorAll('.row').length });
  }
}

function line(it: Item, i: number): HTMLElement {
  const e = el('div');
  e.style.transform = `translateY(${i * ROW}px)`;
  e.dataset.key = it.key;
  if (it.kind === 'turn') {
    e.className = 'turn';
    e.setAttribute('role', 'rowheader');
    const label = meta && meta.sessions > 1 ? `Session ${it.sessionId ?? it.session + 1} · Turn ${it.turn}` : `Turn ${it.turn}`;
    e.append(el('span', 'turn-no', label));
    e.append(el('span', 'turn-calls', `${it.calls} call${it.calls === 1 ? '' : 's'}${it.failing ? `, ${it.failing} failing` : ''}`));
    e.append(el('span', 'turn-text', it.text || '(no message text)'));
    e.title = it.text;
    return e;
  }
  e.className = 'row' + (it.failing ? ' failing' : '') + (it.key === selected ? ' selected' : '') + (it.key === highlighted ? ' highlighted' : '');
  e.setAttribute('role', 'row');
  e.setAttribute('aria-selected', String(it.key === selected));
  e.dataset.session = String(it.session);
  e.dataset.index = String(it.index);
  const tool = el('span', 'cell tool', it.tool);
  tool.title = it.callId ? `${it.tool} (${it.callId})` : it.tool;
  e.append(tool);
  e.append(argsCell(it));
  const failed: string[] = [];
  for (const g of meta?.gates ?? []) {
    const c = it.gates[g.id];
    if (c.status === 'fail') failed.push(c.code ?? g.title);
    const cell = el('span', `cell gate ${c.status}`);
    cell.dataset.gate = g.id;
    cell.dataset.status = c.status;
    cell.setAttribute('role', 'cell');
    const icon = ICONS[c.status];
    cell.append(el('span', 'icon', icon));
    if (c.status === 'fail') {
      cell.append(el('span', 'code', c.code ?? 'fail'));
      cell.append(el('span', 'signal', c.signal));
    } else {
      cell.append(el('span', 'signal', c.status === 'na' ? 'n/a' : c.status === 'none' ? 'no fixture' : c.signal));
    }
    cell.title = `${g.title}: ${c.status === 'na' ? 'not applicable' : c.status === 'none' ? 'nothing to replay' : c.status}${c.code ? ` (${c.code})` : ''}\n${c.signal}`;
    e.append(cell);
  }
  // the narrow layout's gate cells are icons: the failing gates' codes are spelled out here, in full
  const codes = el('span', 'cell codes', failed.join(', '));
  codes.title = failed.join('\n');
  e.append(codes);
  return e;
}

function argsCell(it: RowItem): HTMLElement {
  const cell = el('span', 'cell args');
  cell.title = it.args;
  let at = 0;
  for (const m of it.marks) {
    if (m.start < at) continue; // nested marks: the outer one is shown
    if (m.start > at) cell.append(document.createTextNode(it.args.slice(at, m.start)));
    const mark = el('mark', 'bad', it.args.slice(m.start, m.end));
    mark.dataset.code = m.code;
    mark.title = m.code;
    cell.append(mark);
    at = m.end;
  }
  if (at < it.args.length) cell.append(document.createTextNode(it.args.slice(at)));
  return cell;
}

viewport.addEventListener('scroll', () => {
  render();
  scheduleSave();
});
let saveTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleSave(): void {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(save, 150);
}
new ResizeObserver(() => render(true)).observe(viewport);

// ---- selection, navigation ----------------------------------------------------------------------------------

function indexOf(key: string | undefined): number {
  return key === undefined ? -1 : view.findIndex((i) => i.key === key);
}

function scrollIntoView(i: number): void {
  if (i < 0) return;
  const head = headHeight();
  const top = head + i * ROW;
  const h = viewport.clientHeight;
  if (top < viewport.scrollTop + head + ROW) viewport.scrollTop = Math.max(0, top - head - ROW);
  else if (top + ROW > viewport.scrollTop + h) viewport.scrollTop = top + 2 * ROW - h;
}

/** The selected call in full, below the list: every gate's status, code and signal, unclipped. */
function renderDetail(): void {
  const box = $('detail');
  const it = items.find((i) => i.key === selected);
  if (!it || it.kind !== 'row' || !meta) {
    box.hidden = true;
    return;
  }
  box.replaceChildren();
  const title = el('div', 'detail-title');
  title.append(el('strong', undefined, it.tool), document.createTextNode(`  turn ${it.turn}${it.callId ? ` · ${it.callId}` : ''}`));
  box.append(title, argsCell(it));
  const list = el('ul');
  for (const g of meta.gates) {
    const c = it.gates[g.id];
    const li = el('li', `gate ${c.status}`);
    li.dataset.gate = g.id;
    li.append(el('span', 'icon', ICONS[c.status]), el('span', 'gate-name', `${g.title}: `));
    if (c.code) li.append(el('span', 'code', c.code));
    li.append(document.createTextNode(c.status === 'na' ? `not applicable: ${c.signal}` : c.signal));
    list.append(li);
  }
  box.append(list);
  box.hidden = false;
}

/**
 * Whether the page had the focus when the current click began. The first click into the page also focuses the
 * webview, and VS Code handles that focus after a reveal sent at once could land, leaving the focus here instead of
 * on the revealed call: a reveal from such a click waits for the focus to settle.
 */
let focusedBeforeClick = true;
document.addEventListener('mousedown', () => (focusedBeforeClick = document.hasFocus()), true);

function select(key: string | undefined, reveal: boolean): void {
  selected = key;
  const i = indexOf(key);
  scrollIntoView(i);
  render(true);
  save();
  const it = view[i];
  if (!reveal || !it || it.kind !== 'row') return;
  const message = { type: 'reveal', session: it.session, index: it.index } as const;
  if (focusedBeforeClick) vscode.postMessage(message);
  else setTimeout(() => vscode.postMessage(message), 150);
  focusedBeforeClick = true;
}

function move(delta: number): void {
  if (!view.length) return;
  let i = indexOf(selected ?? highlighted);
  if (i < 0) i = delta > 0 ? -1 : view.length;
  let j = Math.min(view.length - 1, Math.max(0, i + delta));
  const step = delta > 0 ? 1 : -1;
  while (j >= 0 && j < view.length && view[j].kind !== 'row') j += step;
  if (j < 0 || j >= view.length) {
    j = i; // no call row that way
    if (j < 0 || j >= view.length) return;
  }
  select(view[j].key, false);
}

viewport.addEventListener('click', (ev) => {
  const target = (ev.target as HTMLElement).closest<HTMLElement>('.row, .turn');
  if (!target) return;
  viewport.focus();
  if (target.classList.contains('turn')) {
    const i = indexOf(target.dataset.key);
    const next = view[i + 1];
    if (next?.kind === 'row') select(next.key, true);
    return;
  }
  select(target.dataset.key, true);
});

viewport.addEventListener('keydown', (ev) => {
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW) - 1);
  switch (ev.key) {
    case 'ArrowDown': case 'j': move(1); break;
    case 'ArrowUp': case 'k': move(-1); break;
    case 'PageDown': move(page); break;
    case 'PageUp': move(-page); break;
    case 'Home': move(-view.length); break;
    case 'End': move(view.length); break;
    case 'Enter': case ' ': {
      const it = view[indexOf(selected)];
      if (it?.kind === 'row') vscode.postMessage({ type: 'reveal', session: it.session, index: it.index });
      break;
    }
    default: return;
  }
  ev.preventDefault();
});

for (const f of [codeFilter, toolFilter, failingFilter]) {
  f.addEventListener('change', () => {
    applyFilters();
    if (selected) scrollIntoView(indexOf(selected));
    save();
  });
}
let typing: ReturnType<typeof setTimeout> | undefined;
textFilter.addEventListener('input', () => {
  // a 10,000-call list is filtered once the typing pauses, not on every key
  if (typing) clearTimeout(typing);
  typing = setTimeout(() => {
    applyFilters();
    if (selected) scrollIntoView(indexOf(selected));
    save();
  }, 120);
});
textFilter.addEventListener('keydown', (ev) => {
  if (ev.key === 'ArrowDown' || ev.key === 'Enter') {
    viewport.focus();
    move(1);
    ev.preventDefault();
  }
});
$('copy-md').addEventListener('click', () => vscode.postMessage({ type: 'copyMarkdown' }));
$<HTMLDetailsElement>('census').addEventListener('toggle', () => save());

// ---- the census and the findings outside calls --------------------------------------------------------------

function renderCensus(m: TableMeta): void {
  const body = $('census-body');
  body.replaceChildren();
  const breaking = m.census.reduce((n, t) => n + t.shapes.filter((s) => s.breaks).length, 0);
  $('census-summary').textContent = `Key shapes: ${m.census.length} tool${m.census.length === 1 ? '' : 's'}, ${breaking} shape${breaking === 1 ? '' : 's'} breaking the contract`;
  for (const t of m.census) {
    t.shapes.forEach((s, i) => {
      const tr = el('tr', s.breaks ? 'shape breaks' : 'shape');
      tr.append(el('td', 'tool', i === 0 ? `${t.tool} (${t.calls})` : ''));
      const keys = el('td', 'keys');
      if (s.keys === null) keys.append(el('span', 'bad', '(arguments not an object)'));
      else if (!s.keys.length) keys.append(el('span', 'muted', '(no arguments)'));
      else
        s.keys.forEach((k, j) => {
          if (j) keys.append(document.createTextNode(', '));
          keys.append(s.extra.includes(k) ? el('mark', 'bad', k) : document.createTextNode(k));
        });
      if (s.missing.length) keys.append(el('span', 'missing', `  missing: ${s.missing.join(', ')}`));
      tr.append(keys);
      tr.append(el('td', 'count', `×${s.count}`));
      const verdict = el('td', 'verdict', s.breaks ? `✗ ${s.codes.join(', ') || 'breaks the contract'}` : '✓');
      tr.append(verdict);
      const first = el('td', 'first');
      const link = el('button', 'link', `first: turn ${s.first.turn}`);
      link.addEventListener('click', () => vscode.postMessage({ type: 'reveal', session: s.first.session, index: s.first.index }));
      first.append(link);
      tr.append(first);
      body.append(tr);
    });
  }
  const other = $('other');
  other.replaceChildren();
  for (const o of m.other) {
    const li = el('li');
    li.append(el('span', 'code', o.code), document.createTextNode(' ' + o.message));
    other.append(li);
  }
  $('other-box').hidden = m.other.length === 0;
}

function renderHeader(m: TableMeta): void {
  $('title').textContent = m.name;
  const fixtures = m.fixturesPending ? 'replaying the fixtures…' : `${m.fixtures} fixture${m.fixtures === 1 ? '' : 's'} read`;
  $('meta').textContent = `${m.format ?? 'not a trace'} · ${m.calls} call${m.calls === 1 ? '' : 's'} · ${fixtures}`;
  const head = $('head');
  head.replaceChildren(el('span', 'cell tool', 'Tool'), el('span', 'cell args', 'Arguments'));
  for (const g of m.gates) {
    const h = el('span', 'cell gate');
    h.append(el('span', 'long', g.title), el('span', 'short', SHORT[g.id] ?? g.title));
    h.title = `${g.title}: ${g.question}`;
    head.append(h);
  }
  head.append(el('span', 'cell codes', 'Failing'));
  fitColumns(m.tools, m.codes);
  $('meta').textContent += m.provisional ? ' · first rows from the last check, building the table…' : '';
}

/** The tool column as wide as its longest name, and the failing codes column as wide as its longest code (measured
 *  in the page's font), so that neither is cut short. Every row is a grid of its own: the widths are set once. */
function fitColumns(tools: string[], codes: string[]): void {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return;
  const style = getComputedStyle(document.body);
  ctx.font = `600 ${style.fontSize} ${style.fontFamily}`;
  const widest = (names: string[], title: string) => names.reduce((w, t) => Math.max(w, ctx.measureText(t).width), ctx.measureText(title).width);
  const px = (w: number) => `${Math.ceil(Math.min(MAX_TOOL_PX, w + 16))}px`;
  document.documentElement.style.setProperty('--tool-w', px(widest(tools, 'Tool')));
  document.documentElement.style.setProperty('--codes-w', px(widest(codes, 'Failing')));
}

// ---- messages -----------------------------------------------------------------------------------------------

window.addEventListener('message', (ev: MessageEvent<ToPage>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'table': {
      const first = !meta;
      const keepScroll = meta ? viewport.scrollTop : restoreScroll;
      meta = msg.meta;
      // a rebuild (an edit, a contract change) keeps the rows of the last build past the first chunk until theirs
      // arrive, so the list does not shrink to one chunk and grow back
      fresh = msg.items.length;
      items = first || msg.done ? msg.items : msg.items.concat(items.slice(fresh));
      document.body.dataset.timings = JSON.stringify(meta.timings);
      document.body.dataset.pageTimings = JSON.stringify({ script: Math.round(scriptStart), tableMessage: Math.round(performance.now()) });
      state.uri = meta.uri;
      renderHeader(meta);
      renderCensus(meta);
      if (first) {
        $<HTMLDetailsElement>('census').open = state.censusOpen ?? false;
        fillSelect(codeFilter, 'All codes', meta.codes, state.filters?.code ?? '');
        fillSelect(toolFilter, 'All tools', meta.tools, state.filters?.tool ?? '');
        failingFilter.checked = state.filters?.failing ?? false;
        textFilter.value = state.filters?.text ?? '';
      } else {
        fillSelect(codeFilter, 'All codes', meta.codes, codeFilter.value);
        fillSelect(toolFilter, 'All tools', meta.tools, toolFilter.value);
      }
      $('loading').hidden = msg.done;
      applyFilters();
      if (keepScroll !== undefined) {
        viewport.scrollTop = keepScroll;
        if (msg.done) restoreScroll = undefined;
        render(true);
      }
      break;
    }
    case 'rows': {
      if (!meta || msg.generation !== meta.generation) return;
      items = items.slice(0, fresh).concat(msg.items, msg.done ? [] : items.slice(fresh + msg.items.length));
      fresh += msg.items.length;
      $('loading').hidden = msg.done;
      const top = viewport.scrollTop;
      applyFilters();
      viewport.scrollTop = restoreScroll ?? top;
      if (msg.done) restoreScroll = undefined;
      render(true);
      break;
    }
    case 'highlight': {
      // The editor's cursor: its row is highlighted (and scrolled to when out of view); the table's own
      // selection (keyboard, clicks) stays where it is.
      highlighted = msg.key;
      if (msg.key !== undefined) scrollIntoView(indexOf(msg.key));
      render(true);
      break;
    }
    case 'scrollTo': {
      const i = indexOf(msg.key);
      if (i >= 0) {
        viewport.scrollTop = i * ROW; // the turn's header right under the sticky column header
        const next = view[i + 1];
        if (next?.kind === 'row') selected = next.key;
        render(true);
        save();
      }
      break;
    }
    case 'error':
      $('error').textContent = msg.message;
      $('error').hidden = false;
      break;
  }
});

vscode.postMessage({ type: 'ready' });
