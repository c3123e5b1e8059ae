// The decision table model (src/core/report/decision-table.ts) on the fixture traces: per call, each gate's
// pass / fail / n/a with its code and signal; the short arguments with the offending part marked; the key-shape
// census; the replay gate against the frozen fixtures (and after a contract change that makes them drift).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText, loadContracts, type ContractSet } from '../../src/core';
import { buildDecisionTable, replayFixturesByCall, rowAt, GATES, type DecisionTable, type TableRow } from '../../src/core/report/decision-table';
import { fixture, fixtureContracts, ROOT } from './helpers';

function frozenFiles(): { name: string; text: string }[] {
  const dir = path.join(ROOT, 'fixtures', 'frozen');
  return readdirSync(dir).flatMap((tool) =>
    readdirSync(path.join(dir, tool)).map((f) => ({ name: `fixtures/frozen/${tool}/${f}`, text: readFileSync(path.join(dir, tool, f), 'utf8') })),
  );
}

function table(rel: string, contracts: ContractSet, withFixtures = true): DecisionTable {
  const text = fixture(rel);
  const result = checkText(text, { fileName: rel, contracts, keepModel: true });
  const files = frozenFiles();
  return buildDecisionTable(result, { contracts, fixtures: withFixtures ? replayFixturesByCall(files, contracts) : undefined, fixtureCount: files.length });
}

/** One letter per gate in column order: P pass, F fail, - not applicable, ? nothing to judge yet. */
function letters(r: TableRow): string {
  return GATES.map((g) => ({ pass: 'P', fail: 'F', na: '-', none: '?' })[r.gates[g.id].status]).join('');
}

const rows = (t: DecisionTable) => t.turns.flatMap((x) => x.rows);
const marked = (r: TableRow) => r.marks.map((m) => `${m.code}:${r.args.slice(m.start, m.end)}`);

describe('decision table: the five anti-patterns trace', () => {
  const contracts = fixtureContracts();
  const t = table('traces/boundary.anthropic.jsonl', contracts);

  it('has one header per turn with the model text and the call count', () => {
    assert.equal(t.format, 'anthropic');
    assert.equal(t.calls, 20);
    assert.equal(t.turns.length, 20);
    assert.deepEqual(t.turns.slice(0, 3).map((x) => [x.turn, x.text, x.calls]), [
      [1, 'Searching the repo.', 1],
      [2, 'Let me search again to be thorough.', 1],
      [3, 'Searching once more.', 1],
    ]);
    assert.equal(t.turns[4].text, '', 'a turn without text');
  });

  it('says pass / fail / n/a per gate (envelope, legal keys, args changed, bytes moved, replays)', () => {
    const got = rows(t).map((r) => `${r.callId} ${r.tool} ${letters(r)}`);
    assert.deepEqual(got, [
      'toolu_s1 search_repo PPP-P',
      'toolu_s2 search_repo PPF-P', // same-args retry theater
      'toolu_s3 search_repo PPF-P',
      'toolu_s4 search_repo PPP-P',
      'toolu_c1 get_time PP--P', // volatile: repeats expected
      'toolu_c2 get_time PP--P',
      'toolu_i1 open_issue PFP-P', // an invented id
      'toolu_g1 grep PPP-P', // exit 1 is "no match" for grep
      'toolu_t1 run_tests FPP-P', // status-code theater
      'toolu_b1 Bash FPPPP',
      'toolu_t2 run_tests PPP-P', // an honest failure is not theater
      'toolu_r1 read_note PPP-P',
      'toolu_w1 write_note PPPFP', // side-effect amnesia: digest unchanged
      'toolu_w2 write_note PPPPP',
      'toolu_r2 read_note PPP-P', // the same read after a write is a new question
      'toolu_e1 edit_note PPPFP', // a stale digest passed in
      'toolu_p1 publish_note FPP-P',
      'toolu_t3 run_tests FPP-P', // orphan call
      'toolu_s1 publish_note FPP-P', // a reused call id
      'toolu_t4 run_tests -PP-P', // still awaiting its result at the end of the trace: n/a, not a failure
    ]);
  });

  it('gives the code and the observed signal on fail, and what was seen on pass', () => {
    const r = rows(t);
    assert.deepEqual(r[8].gates.envelope, { status: 'fail', code: 'status-theater', signal: 'run_tests: transport says success (HTTP 200) but the body says ok: false' });
    assert.deepEqual(r[1].gates.args, { status: 'fail', code: 'duplicate-fingerprint', signal: 'search_repo called 2× with the same arguments and nothing changed in between; same result each time' });
    assert.deepEqual(r[12].gates.bytes, { status: 'fail', code: 'stale-digest', signal: 'write_note claimed a write to notes/a.md; digest 9f2c1e04 unchanged' });
    assert.deepEqual(r[10].gates.envelope, { status: 'pass', signal: 'honest failure: is_error: true' });
    assert.deepEqual(r[6].gates.envelope, { status: 'pass', signal: 'is_error: false; ok: true' });
    assert.deepEqual(r[7].gates.envelope, { status: 'pass', signal: 'exit 1' });
    assert.deepEqual(r[0].gates.bytes, { status: 'na', signal: 'search_repo does not mutate' });
    assert.deepEqual(r[4].gates.args, { status: 'na', signal: 'get_time is volatile: repeats are expected' });
    assert.deepEqual(r[0].gates.keys, { status: 'pass', signal: 'query, limit are declared (workspace contract)' });
    assert.match(r[0].gates.replay.signal, /^fixtures\/frozen\/search_repo\/search_repo-[0-9a-f]{12}\.fixture\.json: still ok$/);
    assert.match(r[8].gates.replay.signal, /: still status-theater$/, 'a fixture that froze a rejection passes by replaying the rejection');
    assert.deepEqual(r[8].codes, ['status-theater']);
    assert.equal(r[8].failing, true);
    assert.equal(r[0].failing, false);
  });

  it('marks the offending part of the short arguments', () => {
    const r = rows(t);
    assert.equal(r[6].args, '{"issue_id": "ISSUE-71"}');
    assert.deepEqual(marked(r[6]), ['assumed-value:"ISSUE-71"']);
    assert.deepEqual(marked(r[15]), ['stale-digest:"9f2c1e04b7d3a5c0e1f2a3b4c5d6e7f8091a2…"'], 'the stale digest passed in, clipped');
    assert.deepEqual(marked(r[0]), []);
  });

  it('keeps source spans for reveal, and finds the row under a cursor', () => {
    const text = fixture('traces/boundary.anthropic.jsonl');
    const r = rows(t)[8];
    assert.equal(text.slice(r.nameSpan.start, r.nameSpan.end), '"run_tests"');
    assert.ok(text.slice(r.span.start, r.span.end).startsWith('{"type": "tool_use", "id": "toolu_t1"'));
    assert.equal(rowAt(t, r.nameSpan.start + 2), r);
    assert.equal(rowAt(t, 0), undefined, 'the user message is no call');
  });

  it('lists the findings that belong to no call, and the codes and tools for the filters', () => {
    assert.deepEqual(t.other.map((o) => o.code), ['orphan-result']);
    assert.deepEqual(t.codes, ['assumed-value', 'duplicate-call-id', 'duplicate-fingerprint', 'orphan-call', 'orphan-result', 'stale-digest', 'status-theater']);
    assert.deepEqual(t.tools, ['Bash', 'edit_note', 'get_time', 'grep', 'open_issue', 'publish_note', 'read_note', 'run_tests', 'search_repo', 'write_note']);
  });

  it('says when there is no fixture to replay', () => {
    const bare = table('traces/boundary.anthropic.jsonl', contracts, false);
    assert.deepEqual(rows(bare)[0].gates.replay, { status: 'none', signal: 'no fixtures folder was read' });
    const some = buildDecisionTable(checkText(fixture('traces/boundary.anthropic.jsonl'), { fileName: 'b.jsonl', contracts, keepModel: true }), { contracts, fixtures: replayFixturesByCall(frozenFiles().filter((f) => !f.name.includes('search_repo')), contracts) });
    assert.deepEqual(rows(some)[0].gates.replay, { status: 'none', signal: 'no frozen fixture of this call' });
    assert.equal(rows(some)[0].failing, false, 'no fixture yet is not a failure');
  });

  it('fails the replay gate when today\'s contract makes a fixture drift', () => {
    const files = readdirSync(path.join(ROOT, 'fixtures', 'contracts')).filter((f) => f.endsWith('.json'));
    const texts = files.map((f) => {
      let text = readFileSync(path.join(ROOT, 'fixtures', 'contracts', f), 'utf8');
      if (f === 'boundary.contract.json') text = text.replace('"maximum": 50', '"maximum": 2');
      return { path: `fixtures/contracts/${f}`, text };
    });
    const tighter = loadContracts(texts).contracts;
    const r = rows(table('traces/boundary.anthropic.jsonl', tighter))[0];
    assert.equal(r.gates.replay.status, 'fail');
    assert.equal(r.gates.replay.code, 'tightened');
    assert.match(r.gates.replay.signal, /search_repo-[0-9a-f]{12}\.fixture\.json: passed, now also constraint: the guard or the contract tightened$/);
    assert.equal(r.gates.keys.code, 'constraint');
    assert.deepEqual(marked(r), ['constraint:5']);
  });
});

describe('decision table: marks and the key-shape census (seed 004)', () => {
  const contracts = fixtureContracts();

  it('marks the invented key, a missing key, and a whole argument string that needed decoding', () => {
    const r = rows(table('traces/weather.openai-chat.jsonl', contracts));
    assert.equal(r[1].args, '{"city": "Oslo", "lang": "no", "units": "metric"}');
    assert.deepEqual(marked(r[1]), ['extra-key:"lang"']);
    assert.equal(r[7].args, '{"city": "Oslo", "lang": "no"}  missing: units');
    assert.deepEqual(marked(r[7]), ['extra-key:"lang"', 'missing-key:missing: units']);
    assert.deepEqual(marked(r[5]), ['arguments-encoding:{"city": "Oslo", "units": "kelvin"}', 'constraint:"kelvin"']);
    assert.equal(r[6].args, '{"city": "Oslo", "units": "metric"', 'invalid JSON is shown as written');
    assert.deepEqual(marked(r[6]), ['arguments-encoding:{"city": "Oslo", "units": "metric"']);
  });

  it('marks a drifted value', () => {
    const r = rows(table('traces/hours.calls.jsonl', contracts));
    assert.deepEqual(marked(r[2]), ['type-drift:true']);
    assert.equal(r[2].gates.keys.code, 'type-drift');
  });

  it('counts each distinct set of argument keys per tool, in order of first appearance, breaking shapes marked', () => {
    const t = table('traces/weather.openai-chat.jsonl', contracts);
    assert.deepEqual(t.census.map((c) => [c.tool, c.calls]), [['get_weather', 8]]);
    assert.deepEqual(
      t.census[0].shapes.map((s) => ({ keys: s.keys, count: s.count, breaks: s.breaks, extra: s.extra, missing: s.missing, codes: s.codes })),
      [
        { keys: ['city', 'units'], count: 5, breaks: false, extra: [], missing: [], codes: [] },
        { keys: ['city', 'lang', 'units'], count: 1, breaks: true, extra: ['lang'], missing: [], codes: ['extra-key'] },
        { keys: null, count: 1, breaks: true, extra: [], missing: [], codes: [] },
        { keys: ['city', 'lang'], count: 1, breaks: true, extra: ['lang'], missing: ['units'], codes: ['missing-key', 'extra-key'] },
      ],
    );
    assert.deepEqual(t.census[0].shapes[1].first, { ...t.census[0].shapes[1].first, session: 1, index: 0, turn: 1 }, 'where lang showed up first');
  });

  it('keeps hostile strings verbatim as data (rendering them as text is the view\'s job)', () => {
    const t = table('table/hostile.anthropic.jsonl', contracts);
    const r = rows(t);
    assert.equal(r[0].tool, '<script>window.__pwned=1;document.title="PWNED"</script>');
    assert.equal(t.turns[0].text, 'Turn text <script>window.__pwned=1;document.title="PWNED"</script> <img src=x onerror="window.__pwned=2">');
    assert.deepEqual(r.map(letters), ['PFP-?', 'FFP-?', 'PPPP?']);
  });
});
