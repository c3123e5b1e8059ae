// Comparing runs and mock coverage (issue 15): the core model and `contract-guard compare` as CI runs it.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { checkText, compareRuns, mockCoverage, RunCollector, summarizeRun, type RunSummary } from '../../src/core';
import { buildDecisionTable } from '../../src/core/report/decision-table';
import { renderCompareMarkdown } from '../../src/core/report/compare-render';
import { LineIndex } from '../../src/core/parse/reader';
import { fixture, fixtureContracts, jsonl, ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const contracts = fixtureContracts();

function summary(files: Record<string, string>): RunSummary {
  return summarizeRun(Object.entries(files).map(([p, text]) => {
    const result = checkText(text, { contracts, keepModel: true, fileName: p });
    const index = LineIndex.of(text);
    return { path: p, result, position: (o: number) => index.position(o) };
  }), { contracts });
}

const call = (args: Record<string, unknown>, name = 'get_hours') => ({ name, arguments: args });
const A_RUN = jsonl(call({ building: 'Killam', weekday: 2 }), call({ building: 'Dunn', weekday: 3 }), call({ building: 'Rowe', weekday: 9 }));
/** B: A's calls, a call with a key A never sent, and a boolean weekday (type-drift). */
const B_RUN = A_RUN + jsonl(call({ building: 'Killam', weekday: 4, open: true }), call({ building: 'Goldberg', weekday: true }));

describe('compareRuns', () => {
  it('B adds a key shape and a type-drift: both reported, the rest unchanged', () => {
    const c = compareRuns(summary({ 'a.jsonl': A_RUN }), summary({ 'a.jsonl': B_RUN }));
    assert.equal(c.newShapes, 1);
    const hours = c.tools.find((t) => t.tool === 'get_hours')!;
    assert.deepEqual(hours.shapes.map((s) => [s.keys, s.countA, s.countB, s.isNew]), [
      [['building', 'weekday'], 3, 4, false],
      [['building', 'open', 'weekday'], 0, 1, true],
    ]);
    const fresh = hours.shapes[1];
    assert.deepEqual([fresh.extra, fresh.codes, fresh.example.line, fresh.example.args], [['open'], ['extra-key'], 4, '{"building": "Killam", "weekday": 4, "open": true}']);
    assert.deepEqual(c.findings.new.map((f) => `${f.code}@${f.line}`).sort(), ['extra-key@4', 'type-drift@5']);
    assert.deepEqual(c.findings.unchanged.map((f) => `${f.code}@${f.line}`), ['constraint@3']);
    assert.equal(c.findings.fixed.length, 0);
    assert.deepEqual([c.a.calls, c.a.tools, c.a.findings, c.a.per100Calls], [3, 1, 1, 33.33]);
    assert.deepEqual([c.b.calls, c.b.findings, c.b.per100Calls], [5, 3, 60]);
  });

  it('moving lines (and files) does not make a finding new', () => {
    const lines = fixture('traces/weather.anthropic.jsonl').split('\n');
    // whole conversations per line would move freely; this is one conversation, so move it down and rename it
    const moved = ['', '', ...lines].join('\n');
    const a = summary({ 'weather.anthropic.jsonl': lines.join('\n') });
    const b = summary({ 'renamed/weather.jsonl': moved });
    const c = compareRuns(a, b);
    assert.ok(a.findings.length > 5);
    assert.equal(c.findings.new.length, 0, c.findings.new.map((f) => f.code).join());
    assert.equal(c.findings.fixed.length, 0);
    assert.equal(c.findings.unchanged.length, a.findings.length);
    assert.ok(c.findings.unchanged.every((f, i) => f.line === a.findings[i].line + 2));
    assert.equal(c.newShapes, 0);
  });

  it('equal findings pair within the same file first, and counts matter', () => {
    const drift = jsonl(call({ building: 'Killam', weekday: true }));
    const c = compareRuns(summary({ 'x.jsonl': drift }), summary({ 'w.jsonl': drift, 'x.jsonl': drift }));
    assert.deepEqual(c.findings.new.map((f) => f.file), ['w.jsonl']);
    assert.deepEqual(c.findings.unchanged.map((f) => f.file), ['x.jsonl']);
  });

  it('the census a run collects is the decision table census (one code, no copy)', () => {
    const text = fixture('traces/weather.openai-chat.jsonl');
    const result = checkText(text, { contracts, keepModel: true });
    const table = buildDecisionTable(result, { contracts });
    const run = new RunCollector({ contracts });
    const sink = run.file('w.jsonl');
    const streamed = checkText(text, { contracts, onSession: sink.onSession });
    sink.done(streamed, (o) => LineIndex.of(text).position(o));
    const tools = run.summary().tools;
    assert.deepEqual(tools.map((t) => [t.tool, t.calls, t.shapes.map((s) => [s.keys, s.count, s.breaks, [...s.codes].sort()])]),
      table.census.map((t) => [t.tool, t.calls, t.shapes.map((s) => [s.keys, s.count, s.breaks, [...s.codes].sort()])]));
  });

  it('markdown never lets a trace write markup', () => {
    const hostile = fixture('table/hostile.anthropic.jsonl');
    const c = compareRuns(summary({ 'a.jsonl': '' }), summary({ 'h.jsonl': hostile }));
    const md = renderCompareMarkdown(c, { a: 'a', b: 'b' });
    assert.ok(c.newShapes > 0);
    // outside code spans (where nothing is markup, and no backtick can end the span early) no tag survives
    const prose = md.replace(/`[^`\n]*`/g, '');
    assert.doesNotMatch(prose, /<[a-z/]/i);
    assert.match(prose, /&lt;script\\>/);
  });
});

describe('mockCoverage', () => {
  it('lists the shapes no fixture covers, each with an example call and where it is', () => {
    const fx = summary({ 'f.jsonl': jsonl(call({ building: 'Killam', weekday: 2 })) });
    const tr = summary({ 't.jsonl': B_RUN + jsonl(call({ city: 'Oslo' }, 'get_weather')) });
    const m = mockCoverage(fx, tr);
    assert.equal(m.shapes, 3);
    assert.deepEqual(m.tools.map((t) => [t.tool, t.covered, t.uncovered.map((u) => [u.keys, u.count, u.example.file, u.example.line, u.example.column])]), [
      ['get_hours', 1, [[['building', 'open', 'weekday'], 1, 't.jsonl', 4, 1]]],
      ['get_weather', 0, [[['city'], 1, 't.jsonl', 6, 1]]],
    ]);
  });
});

describe('contract-guard compare', () => {
  let dir: string;
  before(() => {
    assert.ok(existsSync(CLI), 'dist/cli.js is built by `npm run build`');
    dir = mkdtempSync(path.join(tmpdir(), 'cg-compare-'));
    for (const [side, text] of [['a', A_RUN], ['b', B_RUN]] as const) {
      mkdirSync(path.join(dir, side));
      writeFileSync(path.join(dir, side, 'run.jsonl'), text);
    }
  });

  it('B adds a key shape and a type-drift: exit 1, both reported (text and JSON)', () => {
    const text = run(['compare', path.join(dir, 'a'), path.join(dir, 'b'), '--contracts', 'fixtures/contracts']);
    assert.equal(text.code, 1, text.stderr);
    assert.match(text.stdout, /A 0 {2}B 1 {2}\{building, open, weekday\} {2}NEW in B; extra open; e\.g\. .*run\.jsonl:4:1 /);
    assert.match(text.stdout, /run\.jsonl:5:\d+ +error +type-drift +weekday wanted integer, got boolean true/);
    assert.match(text.stdout.trimEnd().split('\n').pop()!, /^compare: B differs: 1 new shape, 2 new findings, 0 fixed, 1 unchanged$/);
    const json = run(['compare', path.join(dir, 'a'), path.join(dir, 'b'), '--contracts', 'fixtures/contracts', '--format', 'json']);
    assert.equal(json.code, 1);
    const doc = JSON.parse(json.stdout);
    assert.equal(doc.newShapes, 1);
    assert.deepEqual(doc.findings.new.map((f: { code: string }) => f.code).sort(), ['extra-key', 'type-drift']);
    // --fail-on narrows what fails: both kinds are present here, so each alone still fails; never does not
    assert.equal(run(['compare', path.join(dir, 'a'), path.join(dir, 'b'), '--contracts', 'fixtures/contracts', '--fail-on', 'new-shapes']).code, 1);
    assert.equal(run(['compare', path.join(dir, 'a'), path.join(dir, 'b'), '--contracts', 'fixtures/contracts', '--fail-on', 'never']).code, 0);
  });

  it('only a new shape (no new finding) fails by default and with new-shapes, not with new-findings', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'cg-compare-shape-'));
    writeFileSync(path.join(d, 'a.jsonl'), jsonl(call({ q: 1 }, 'free_tool')));
    writeFileSync(path.join(d, 'b.jsonl'), jsonl(call({ q: 1 }, 'free_tool'), call({ q: 1, r: 2 }, 'free_tool')));
    const args = ['compare', path.join(d, 'a.jsonl'), path.join(d, 'b.jsonl')];
    assert.equal(run(args).code, 1);
    assert.equal(run([...args, '--fail-on', 'new-shapes']).code, 1);
    assert.equal(run([...args, '--fail-on', 'new-findings']).code, 0);
  });

  it('a run compared with itself: exit 0, everything unchanged', () => {
    const r = run(['compare', 'fixtures/traces', 'fixtures/traces', '--contracts', 'fixtures/contracts', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.newShapes, 0);
    assert.equal(doc.findings.new.length, 0);
    assert.equal(doc.findings.fixed.length, 0);
    assert.ok(doc.findings.unchanged.length > 20);
    assert.deepEqual(doc.a, doc.b);
  });

  it('globs (quoted) pick a run; no trace or two many sides are usage errors (exit 2)', () => {
    const r = run(['compare', path.join(dir, 'a', '*.jsonl'), path.join(dir, 'b', '*.jsonl'), '--contracts', 'fixtures/contracts', '--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).b.files, 1);
    const none = run(['compare', path.join(dir, 'a', '*.nothing'), path.join(dir, 'b')]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^contract-guard: .*no file matches\n$/);
    const three = run(['compare', 'a', 'b', 'c']);
    assert.equal(three.code, 2);
    assert.match(three.stderr, /compare needs two runs/);
    assert.equal(run(['compare', 'fixtures/traces', 'no/such/folder']).code, 2);
    assert.equal(run(['compare', 'fixtures/traces', 'fixtures/traces', '--fail-on', 'sometimes']).code, 2);
  });

  it('--format markdown: counts, the new shapes and findings with file:line links', () => {
    const r = run(['compare', path.join(dir, 'a'), path.join(dir, 'b'), '--contracts', 'fixtures/contracts', '--format', 'markdown']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^### Contract Guard: compare$/m);
    assert.match(r.stdout, /^\| calls \| 3 \| 5 \|$/m);
    assert.match(r.stdout, /^\| get\\_hours \| \{building, open, weekday\} \| 1 \| \[[^\]]*run\.jsonl:4\]\([^)]*run\.jsonl#L4\) `/m);
    assert.match(r.stdout, /\| `type-drift` \| weekday wanted integer, got boolean true \|$/m);
  });

  it('mock coverage on the repo fixtures/: the shapes no frozen fixture covers', () => {
    const r = run(['compare', '--fixtures', 'fixtures/frozen', 'fixtures', '--contracts', 'fixtures/contracts', '--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    const gaps = doc.tools.flatMap((t: { tool: string; uncovered: { keys: string[] | null; example: { file: string; line: number; column: number } }[] }) =>
      t.uncovered.map((u) => `${t.tool} ${JSON.stringify(u.keys)} ${u.example.file}:${u.example.line}:${u.example.column}`));
    // the recorded traces under fixtures/traces are all frozen; the editor's test traces are not
    assert.ok(gaps.every((g: string) => !g.includes('fixtures/traces/')), gaps.join('\n'));
    assert.deepEqual(gaps.map((g: string) => g.replace(/ \S+$/, '')).sort(), [
      'lookup_forecast ["city","units"]',
      '<img src=x onerror="window.__pwned=2"> ["\\"><svg onload=window.__pwned=4>","</style><style>body{display:none}</style>"]',
      '<script>window.__pwned=1;document.title="PWNED"</script> ["href","q"]',
    ].sort());
    assert.ok(gaps.some((g: string) => / fixtures\/vscode\/embedded\.openai-chat\.jsonl:1:\d+$/.test(g)));
    assert.equal(doc.uncovered, 3);
    const covered = run(['compare', '--fixtures', 'fixtures/frozen', 'fixtures/traces', '--contracts', 'fixtures/contracts']);
    assert.equal(covered.code, 0, covered.stdout);
    assert.match(covered.stdout, /^coverage: 0 of \d+ shapes in \d+ calls not covered by any of \d+ fixture files/m);
  });

  it('fixtures can be recorded traces too (mocks, test payloads)', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'cg-mocks-'));
    writeFileSync(path.join(d, 'mock.jsonl'), readFileSync(path.join(ROOT, 'fixtures', 'traces', 'hours.calls.jsonl'), 'utf8'));
    const r = run(['compare', '--fixtures', d, 'fixtures/traces/hours.anthropic.json', '--contracts', 'fixtures/contracts']);
    assert.equal(r.code, 0, r.stdout);
  });
});
