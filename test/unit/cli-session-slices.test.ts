// `check --jobs N` on one file of many independent sessions (src/cli/session-slices.ts, document-parts.ts): a
// Claude Code log cut at its sessions and an OTLP export read in groups of parts on several threads write the
// report a check on one thread writes, byte for byte; and where slices would read otherwise than the whole
// (interleaved sessions, a session resumed later, a trace whose spans are far apart) the file is checked whole.
// CONTRACT_GUARD_SLICE_LOG=1 says on stderr which way each file went, so each case checks the way it meant to test.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TraceChecker } from '../../src/core';
import { checkBySessions, firstLineNamesSession, sessionCut, type SliceIo } from '../../src/cli/session-slices';
import type { ReportFile } from '../../src/core/report/model';
import type { SliceReply } from '../../src/cli/threads';
import { spoolText } from '../../src/cli/spool';
import { claudeCodeAssistant, claudeCodeLine, claudeCodeResult, claudeCodeUser } from './builders';
import { benchTraces, ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

const bench = benchTraces();

function run(file: string, threads: 'always' | 'never', jobs: string) {
  const env = { ...process.env, CONTRACT_GUARD_THREADS: threads, CONTRACT_GUARD_SLICE_BYTES: String(1 << 20), CONTRACT_GUARD_SLICE_LOG: '1' };
  const r = spawnSync(process.execPath, [CLI, 'check', file, '--contracts', 'fixtures/contracts', '--format', 'json', '--jobs', jobs], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same report on this thread and on 4 threads; what the threaded run said of how it cut the file. */
function same(file: string): { how: string; doc: { summary: { calls: number; error: number } } } {
  const here = run(file, 'never', '1');
  assert.ok(here.code === 0 || here.code === 1, here.stderr);
  assert.equal(here.stderr, '');
  const threads = run(file, 'always', '4');
  assert.equal(threads.code, here.code, threads.stderr);
  assert.ok(threads.stdout === here.stdout, `--jobs 4 wrote another report for ${path.basename(file)} (${threads.stderr.trim()})`);
  const how = threads.stderr.split('\n').filter((l) => l.startsWith(file + ': ')).map((l) => l.slice(file.length + 2));
  assert.equal(how.length, 1, threads.stderr);
  return { how: how[0], doc: JSON.parse(here.stdout) as { summary: { calls: number; error: number } } };
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
const write = (file: string, ls: string[]) => writeFileSync(file, ls.join('\n') + '\n');

describe('check --jobs: one file of many sessions on several threads', () => {
  let dir = '';
  before(() => {
    assert.ok(existsSync(path.join(ROOT, 'dist', 'cliWorker.js')), 'dist/cliWorker.js is built by `npm run build`');
    dir = mkdtempSync(path.join(tmpdir(), 'cg-sessions-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a Claude Code log of many sessions and sidechains: slices by sessions, the same report', () => {
    const file = path.join(dir, 'many.jsonl');
    const { calls } = bench.generateClaudeCode(file, 4, 3, { sessionTurns: 20, sidechains: 0.3 });
    const { how, doc } = same(file);
    assert.match(how, /^\d+ slices by sessions$/);
    assert.ok(Number(how.split(' ')[0]) >= 3, how);
    assert.equal(doc.summary.calls, calls);
    assert.ok(doc.summary.error > 10);
  });

  it('sessions that begin with a sidechain hanging off the session before, and a BOM: by sessions', () => {
    const file = path.join(dir, 'sidechains.jsonl');
    bench.generateClaudeCode(file, 3, 5, { sessionTurns: 3, sidechains: 0.6 });
    writeFileSync(file, '\ufeff' + readFileSync(file, 'utf8'));
    assert.match(same(file).how, /slices by sessions$/);
  });

  it('two sessions interleaved in runs of lines: checked whole, the same report', () => {
    const file = path.join(dir, 'interleaved.jsonl');
    bench.generateClaudeCode(file, 3, 7, { sessionTurns: 20, sidechains: 0.1 });
    // sessions 0, 2, 4, … become A and 1, 3, 5, … become B: each run of lines is near the other's last one
    write(file, lines(file).map((l) => l.replace(/"sessionId":"session-(\d+)"/, (_m, n: string) => `"sessionId":"${Number(n) % 2 ? 'B' : 'A'}"`)));
    assert.equal(same(file).how, 'checked whole: its slices share a session');
  });

  it('a session resumed at the end of the log: checked whole, the same report', () => {
    const file = path.join(dir, 'resumed.jsonl');
    bench.generateClaudeCode(file, 3, 9, { sessionTurns: 40, sidechains: 0.1 });
    const ls = lines(file);
    write(file, ls.map((l, i) => (i > ls.length - 30 ? l.replace(/"sessionId":"session-\d+"/, '"sessionId":"session-0"') : l)));
    assert.equal(same(file).how, 'checked whole: its slices share a session');
  });

  it('an OTLP export of many traces: groups of parts by traces, the same report', () => {
    const file = path.join(dir, 'otlp.json');
    const { calls } = bench.generateOtlp(file, 4);
    const { how, doc } = same(file);
    assert.match(how, /^\d+ groups of parts by traces$/);
    assert.ok(Number(how.split(' ')[0]) >= 2, how);
    assert.equal(doc.summary.calls, calls);
  });

  it('OTLP JSON lines (a request a trace, as the Collector writes): slices, the same report; a trace over two far lines: whole', () => {
    const doc = path.join(dir, 'for-lines.json');
    bench.generateOtlp(doc, 3);
    const value = JSON.parse(readFileSync(doc, 'utf8')) as { resourceSpans: { resource: unknown; scopeSpans: { scope: unknown; spans: { traceId: string }[] }[] }[] };
    const [rs] = value.resourceSpans;
    const byTrace = new Map<string, unknown[]>();
    for (const span of rs.scopeSpans[0].spans) byTrace.set(span.traceId, [...(byTrace.get(span.traceId) ?? []), span]);
    const request = (spans: unknown[]) => JSON.stringify({ resourceSpans: [{ resource: rs.resource, scopeSpans: [{ scope: rs.scopeSpans[0].scope, spans }] }] });
    const traces = [...byTrace.values()];
    const file = path.join(dir, 'otlp.jsonl');
    write(file, traces.map(request));
    assert.match(same(file).how, /^\d+ slices by sessions$/);
    // the first trace's last span written last: two slices share it
    const split = path.join(dir, 'otlp-split.jsonl');
    write(split, [request(traces[0].slice(0, -1)), ...traces.slice(1).map(request), request(traces[0].slice(-1))]);
    assert.equal(same(split).how, 'checked whole: its slices share a session');
  });

  it('an OTLP export with a trace whose spans are far apart: checked whole, the same report', () => {
    const file = path.join(dir, 'otlp-apart.json');
    bench.generateOtlp(file, 4);
    const ls = lines(file); // one span a line between the document's head and tail
    const first = ls.findIndex((l) => l.includes('"traceId"'));
    const moved = ls[first].replace(/,$/, '');
    const rest = ls.filter((_l, i) => i !== first);
    const last = rest.length - 2; // the last span, before the closing line
    rest[last] = `${rest[last]},\n${moved}`;
    write(file, rest);
    assert.match(same(file).how, /^checked whole: its groups of parts share a trace/);
  });
});

/** A Claude Code session's lines: `turns` turns of one call each. */
function session(sid: string, turns: number, from = 0, sidechain?: { parent: string | null }): string[] {
  const out: string[] = [];
  let parent = sidechain ? sidechain.parent : null;
  for (let t = from; t < from + turns; t++) {
    const env = { sessionId: sid, isSidechain: sidechain !== undefined };
    const u = `${sid}-u${t}`;
    const a = `${sid}-a${t}`;
    const r = `${sid}-r${t}`;
    out.push(JSON.stringify(claudeCodeLine(u, parent, claudeCodeUser(`turn ${t}`), env)));
    out.push(JSON.stringify(claudeCodeLine(a, u, claudeCodeAssistant(`${sid}-m${t}`, { type: 'tool_use', id: `${sid}-t${t}`, name: 'Read', input: { file_path: '/x' } }), env)));
    out.push(JSON.stringify(claudeCodeLine(r, a, claudeCodeResult(`${sid}-t${t}`, 'ok'), env)));
    parent = r;
  }
  return out;
}

/** FileResult.apart of some lines read as a slice apart. */
function apartOf(ls: string[]) {
  const checker = new TraceChecker({ apart: true, fileName: 'x.jsonl' });
  let base = 0;
  for (const l of ls) {
    checker.addLine(l, base);
    base += l.length + 1;
  }
  return checker.finish().apart;
}

describe('reading a slice apart (FileResult.apart)', () => {
  it('names the sessionIds of a Claude Code slice', () => {
    assert.deepEqual(apartOf([...session('A', 3), ...session('B', 2)]), { reader: 'claude-code', keys: ['A', 'B'] });
  });

  it('a session touched again after the idle span ties the slice; a shorter gap does not', () => {
    // 3 lines a turn: 670 turns of B are 2010 message lines, past the 2000 after which a session is let go
    assert.equal(apartOf([...session('A', 1), ...session('B', 670), ...session('A', 1, 1)]), undefined);
    assert.deepEqual(apartOf([...session('A', 1), ...session('B', 600), ...session('A', 1, 1)])?.keys, ['A', 'B']);
  });

  it('a line naming no session before any that does ties the slice (it may continue one before it)', () => {
    const [first, ...rest] = session('A', 2);
    const anonymous = JSON.stringify({ ...(JSON.parse(first) as object), sessionId: undefined });
    assert.equal(apartOf([anonymous, ...rest]), undefined);
  });

  it('two sidechain roots of one session hanging off lines outside the slice tie it; one does not', () => {
    const main = session('A', 2);
    assert.deepEqual(apartOf([...main, ...session('A', 1, 5, { parent: 'elsewhere-1' })])?.keys, ['A']);
    assert.equal(apartOf([...main, ...session('A', 1, 5, { parent: 'elsewhere-1' }), ...session('A', 1, 7, { parent: 'elsewhere-2' })]), undefined);
    // a sidechain off a main line of the slice is its own
    assert.deepEqual(apartOf([...main, ...session('A', 1, 5, { parent: 'A-r1' }), ...session('A', 1, 7, { parent: 'elsewhere-2' })])?.keys, ['A']);
  });

  it('lines read whole (fine-tune conversations) or by two readers are not apart', () => {
    const fine = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }] });
    assert.equal(apartOf([fine, fine]), undefined);
    assert.equal(apartOf([...session('A', 1), fine]), undefined);
  });

  it('without the option, nothing is said', () => {
    const checker = new TraceChecker({ fileName: 'x.jsonl' });
    checker.addLine(session('A', 1)[0], 0);
    assert.equal(checker.finish().apart, undefined);
  });
});

describe('sessionCut', () => {
  const bytes = (ls: string[]) => Buffer.from(ls.join('\n') + '\n');
  const line = (sid?: string) => JSON.stringify(sid === undefined ? { x: 1 } : { sessionId: sid, x: 1 });

  it('cuts at the first line, from the offset on, that names another sessionId than the line before', () => {
    const b = bytes([line('A'), line('A'), line('B'), line('B'), line('C')]);
    const starts = [0];
    for (let i = 0; i < b.length - 1; i++) if (b[i] === 10) starts.push(i + 1);
    assert.equal(sessionCut(b, 0), starts[2]);
    assert.equal(sessionCut(b, starts[2] + 1), starts[4]);
    assert.equal(sessionCut(b.subarray(0, b.length - 1), starts[2] + 1), undefined); // C's end not read yet: it may go on
  });

  it('says whether the first line names a session once that line is whole', () => {
    assert.equal(firstLineNamesSession(bytes([line('A'), line()])), true);
    assert.equal(firstLineNamesSession(bytes([line(), line('A')])), false);
    assert.equal(firstLineNamesSession(Buffer.from(line('A'))), undefined); // its end not read yet
  });

  it('cuts lines that name no session anywhere, and never between one that does and one that does not', () => {
    const b = bytes([line('A'), line(), line(), line()]);
    const second = b.indexOf(10) + 1;
    const third = b.indexOf(10, second) + 1;
    assert.equal(sessionCut(b, 0), third);
  });
});

describe('checkBySessions (a fake pool: slices answered when the test says)', () => {
  type Part = SliceReply['part'];
  let dir = '';
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'cg-by-sessions-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A log of `sessions` sessions of `lines` lines of about 1 KB each. */
  function log(sessions: number, lines: number): { file: string; text: string } {
    const out: string[] = [];
    for (let s = 0; s < sessions; s++) for (let i = 0; i < lines; i++) out.push(JSON.stringify({ sessionId: `s${s}`, i, pad: 'x'.repeat(1000) }));
    const text = out.join('\n') + '\n';
    const file = path.join(dir, `log-${sessions}-${lines}.jsonl`);
    writeFileSync(file, text);
    return { file, text };
  }

  /** A pool whose slices wait until `answer(i)`; what reached the sink, in order. */
  function fakeIo(keysOf: (slice: string) => string[]) {
    const slices: string[] = [];
    const answers: ((p: Part) => void)[] = [];
    const added: number[] = [];
    const io: SliceIo = {
      sender: () => async (bytes) => {
        const text = Buffer.from(bytes).toString('utf8');
        slices.push(text);
        const result = new Promise<Part>((resolve) => answers.push(resolve));
        const i = slices.length - 1;
        return { result: result.then((p) => ({ ...p, calls: i })) };
      },
      whole: () => Promise.resolve({ path: 'whole', calls: -1, diagnostics: [] } satisfies ReportFile),
      merge: () => ({
        add: (p) => added.push(p.calls),
        entry: (reader) => ({ path: reader, calls: added.length, diagnostics: [] } satisfies ReportFile),
        discard: () => added.push(-1),
      }),
    };
    const diagnostics = spoolText([]);
    const answer = (i: number) => answers[i]({ calls: 0, diagnostics, apart: { reader: 'claude-code', keys: keysOf(slices[i]) } });
    return { io, slices, added, answer };
  }

  const sessionsIn = (slice: string) => [...new Set(slice.split('\n').filter((l) => l).map((l) => (JSON.parse(l) as { sessionId: string }).sessionId))];
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('cuts at sessions, hands the bytes on whole, and merges each slice as soon as those before it are in', async () => {
    const { file, text } = log(6, 700); // about 0.7 MB a session: slices of two sessions
    const fake = fakeIo(sessionsIn);
    const later = await checkBySessions(file, false, fake.io);
    assert.ok(later);
    assert.equal(fake.slices.join(''), text);
    assert.ok(fake.slices.length >= 2, `${fake.slices.length} slices`);
    for (const slice of fake.slices) assert.match(slice, /^\{"sessionId":"s\d+","i":0,/); // each starts a session
    const last = fake.slices.length - 1;
    fake.answer(last); // the last slice first: nothing can be merged yet
    await flush();
    assert.deepEqual(fake.added, []);
    fake.answer(0);
    await flush();
    assert.deepEqual(fake.added, [0]); // the first, at once; the last still waits for those between
    for (let i = 1; i < last; i++) fake.answer(i);
    const entry = await later.result;
    assert.deepEqual(fake.added, [...Array(fake.slices.length).keys()]);
    assert.deepEqual(entry, { path: 'claude-code', calls: fake.slices.length, diagnostics: [] });
  });

  it('slices that share a session: what was merged is let go and the file is checked whole', async () => {
    const { file } = log(6, 700);
    const fake = fakeIo(() => ['same']);
    const later = await checkBySessions(file, false, fake.io);
    assert.ok(later);
    for (let i = 0; i < fake.slices.length; i++) fake.answer(i);
    const entry = await later.result;
    assert.deepEqual(entry, { path: 'whole', calls: -1, diagnostics: [] });
    assert.equal(fake.added.at(-1), -1); // discarded
  });

  it('one session longer than the search, before any slice is out: undefined (the caller checks it whole)', async () => {
    const { file } = log(1, 18 * 1024); // 18 MB of one session
    const fake = fakeIo(sessionsIn);
    assert.equal(await checkBySessions(file, false, fake.io), undefined);
    assert.equal(fake.slices.length, 0);
  });
});
