// Checks across calls (issue 3), each code in OpenAI Chat and Anthropic JSONL, with exact lines and columns,
// and the cases that must not fire. Traces are written from one neutral script per case, so both formats tell
// the same story; the expected position of every finding is found in the rendered line by its token.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts, type ContractSet } from '../../src/core';
import { LineIndex } from '../../src/core/parse/reader';
import { anthropicResults, anthropicTurn, callSpec, openaiChatLine, openaiChatResult, resultSpec, userMessage, type Args, type CallSpec, type ResultSpec } from './builders';

const CROSS = new Set(['duplicate-fingerprint', 'stale-digest', 'status-theater', 'orphan-call', 'orphan-result', 'duplicate-call-id', 'assumed-value']);

type Step = { user: string } | { calls: CallSpec[] } | { results: ResultSpec[] };

const call = (id: string, name: string, args: Args = {}): Step => ({ calls: [callSpec(id, name, args)] });
const result = (id: string, body: unknown, isError?: boolean): Step => ({ results: [resultSpec(id, body, isError)] });
const user = (text: string): Step => ({ user: text });

type Format = 'openai-chat' | 'anthropic';
const FORMATS: Format[] = ['openai-chat', 'anthropic'];

/** One message per line. Chat has no error flag: an `isError` result is written as it is, without one. */
function render(format: Format, steps: Step[]): string[] {
  return steps.flatMap((s): object[] => {
    if ('user' in s) return [userMessage(s.user)];
    if ('calls' in s) return [format === 'openai-chat' ? openaiChatLine(s.calls) : anthropicTurn(s.calls)];
    return format === 'openai-chat' ? s.results.map(openaiChatResult) : [anthropicResults(s.results)];
  }).map((m) => JSON.stringify(m));
}

function contracts(tools: Record<string, unknown>): ContractSet {
  const loaded = loadContracts([{ path: 'test.contract.json', text: JSON.stringify({ partial: true, tools }) }]);
  assert.deepEqual(loaded.findings.map((f) => f.finding.message), []);
  return loaded.contracts;
}

interface Got {
  code: string;
  severity: string;
  line: number;
  column: number;
  token: string;
  message: string;
  related: string[];
}

function check(lines: string[], set?: ContractSet, fileName = 'trace.jsonl'): Got[] {
  const text = lines.join('\n') + '\n';
  const index = LineIndex.of(text);
  const at = (offset: number) => index.position(offset);
  return checkText(text, { fileName, contracts: set })
    .findings.filter((f) => CROSS.has(f.code))
    .map((f) => ({
      code: f.code,
      severity: f.severity,
      line: at(f.span.start).line,
      column: at(f.span.start).column,
      token: text.slice(f.span.start, f.span.end),
      message: f.message,
      related: (f.related ?? []).map((r) => `${at(r.span.start).line}:${at(r.span.start).column} ${r.message}`),
    }));
}

/** The 1-based column where `token` starts in `line` (the `nth` occurrence), failing loudly when absent. */
function col(line: string, token: string, nth = 0): number {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = line.indexOf(token, i + 1);
    assert.ok(i >= 0, `${token} not in ${line}`);
  }
  return i + 1;
}

/** Token forms: a name or value as it appears in the source of each format (chat arguments are a JSON string). */
const nameTok = (name: string) => JSON.stringify(name);
const argTok = (format: Format, value: string) => (format === 'openai-chat' ? JSON.stringify(JSON.stringify(value)).slice(1, -1) : JSON.stringify(value));
const resultTok = (format: Format, id: string) => (format === 'openai-chat' ? `{"role":"tool","tool_call_id":"${id}"` : `{"type":"tool_result","tool_use_id":"${id}"`);
/** A value inside a result body: the body is a JSON string in both formats. */
const bodyTok = (value: string) => JSON.stringify(JSON.stringify(value)).slice(1, -1);

function summary(got: Got[]): string[] {
  return got.map((g) => `${g.code} ${g.severity} ${g.line}:${g.column}`);
}

const SEARCH = { query: 'flaky billing test', limit: 5 };
const MATCHES = { matches: [{ id: 'ISSUE-17', path: 'tests/test_bill.py' }] };

for (const format of FORMATS) {
  describe(`duplicate-fingerprint (${format})`, () => {
    it('flags each repeat with the count, the first call as related, and whether results matched', () => {
      const lines = render(format, [
        user('find the flaky test'),
        call('c1', 'search_repo', SEARCH),
        result('c1', MATCHES),
        call('c2', 'search_repo', { limit: 5, query: 'flaky billing test' }), // same arguments, other key order
        result('c2', MATCHES),
        call('c3', 'search_repo', { query: 'flaky billing test', limit: 5.0 }),
        result('c3', { matches: [] }),
      ]);
      const got = check(lines);
      const last = format === 'openai-chat' ? 6 : 6;
      assert.deepEqual(summary(got), [
        `duplicate-fingerprint warning 4:${col(lines[3], nameTok('search_repo'))}`,
        `duplicate-fingerprint warning ${last}:${col(lines[last - 1], nameTok('search_repo'))}`,
      ]);
      assert.equal(got[0].token, '"search_repo"');
      assert.equal(got[0].message, 'search_repo called 2× with the same arguments and nothing changed in between; same result each time');
      assert.equal(got[1].message, 'search_repo called 3× with the same arguments and nothing changed in between; the results differed');
      assert.deepEqual(got[1].related, [`2:${col(lines[1], nameTok('search_repo'))} first called here (turn 1)`]);
    });

    it('flags a verbatim retry after a failed write (a failed result is not a change)', () => {
      const lines = render(format, [
        call('w1', 'write_file', { path: 'a.txt', text: 'x' }),
        result('w1', { status: 500, body: { ok: false, error: 'disk full', result: null } }, true),
        call('w2', 'write_file', { path: 'a.txt', text: 'x' }),
        result('w2', { status: 500, body: { ok: false, error: 'disk full', result: null } }, true),
      ]);
      assert.deepEqual(summary(check(lines)), [`duplicate-fingerprint warning 3:${col(lines[2], nameTok('write_file'))}`]);
    });

    it('flags a shell command repeated with nothing in between: a call never exempts its own repeat', () => {
      const lines = render(format, [
        call('b1', 'Bash', { command: 'git status' }),
        result('b1', 'On branch main'),
        call('b2', 'Bash', { command: 'git status' }),
        result('b2', 'On branch main'),
      ]);
      assert.deepEqual(summary(check(lines)), [`duplicate-fingerprint warning 3:${col(lines[2], nameTok('Bash'))}`]);
    });

    it('does not fire: a volatile tool repeated, a repeat after a write, other arguments, a one-turn fan-out', () => {
      const set = contracts({ get_time: { volatile: true }, roll_die: {} });
      const lines = render(format, [
        call('t1', 'get_time'),
        result('t1', { now: '10:00:00' }),
        call('t2', 'get_time'),
        result('t2', { now: '10:00:07' }),
        call('r1', 'read_file', { path: 'a.txt' }),
        result('r1', 'old'),
        call('w1', 'write_file', { path: 'a.txt', text: 'new' }),
        result('w1', { ok: true, error: null, result: { bytes: 3 } }),
        call('r2', 'read_file', { path: 'a.txt' }),
        result('r2', 'new'),
        call('s1', 'search_repo', { query: 'billing' }),
        result('s1', MATCHES),
        call('s2', 'search_repo', { query: 'billing timeout' }),
        result('s2', MATCHES),
        { calls: [callSpec('d1', 'roll_die', { sides: 6 }), callSpec('d2', 'roll_die', { sides: 6 }), callSpec('d3', 'roll_die', { sides: 6 })] },
        { results: [resultSpec('d1', '3'), resultSpec('d2', '5'), resultSpec('d3', '3')] },
      ]);
      assert.deepEqual(check(lines, set), []);
    });
  });

  describe(`stale-digest (${format})`, () => {
    const A = '9f2c1e04b7d3a5c0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8';
    const B = '4b7d90aa1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f';

    it('flags a write whose digest did not move, at the digest in its result', () => {
      const lines = render(format, [
        call('r1', 'read_note', { path: 'notes/a.md' }),
        result('r1', { path: 'notes/a.md', sha256: A, text: 'draft' }),
        call('w1', 'write_note', { path: 'notes/a.md', text: 'final' }),
        result('w1', { ok: true, error: null, result: { path: 'notes/a.md', sha256: A, bytes: 5 } }),
      ]);
      const got = check(lines);
      assert.deepEqual(summary(got), [`stale-digest warning 4:${col(lines[3], bodyTok(A))}`]);
      assert.equal(got[0].token, bodyTok(A));
      assert.equal(got[0].message, 'write_note claimed a write to notes/a.md; digest 9f2c1e04 unchanged');
    });

    it('flags a later call that passes a digest the artifact no longer has, at that argument', () => {
      const lines = render(format, [
        call('r1', 'read_note', { path: 'notes/a.md' }),
        result('r1', { path: 'notes/a.md', sha256: A }),
        call('w1', 'write_note', { path: 'notes/a.md', text: 'final' }),
        result('w1', { ok: true, error: null, result: { path: 'notes/a.md', sha256: B } }),
        call('e1', 'edit_note', { path: 'notes/a.md', expected_sha256: A.slice(0, 12), append: 'more' }),
        result('e1', { ok: true, error: null, result: { path: 'notes/a.md', sha256: 'c3d4e5f6' + B.slice(8) } }),
      ]);
      const got = check(lines);
      assert.deepEqual(summary(got), [`stale-digest warning 5:${col(lines[4], argTok(format, A.slice(0, 12)))}`]);
      assert.equal(got[0].message, 'edit_note uses digest 9f2c1e04 of notes/a.md, current is 4b7d90aa (since write_note, turn 2)');
      assert.deepEqual(got[0].related, [`3:${col(lines[2], nameTok('write_note'))} notes/a.md changed here`]);
    });

    it('does not fire: a write that moved the digest, a shell command reading it, an edit on the current digest, a failed write', () => {
      const lines = render(format, [
        call('r1', 'read_note', { path: 'notes/a.md' }),
        result('r1', { path: 'notes/a.md', sha256: A }),
        call('w1', 'write_note', { path: 'notes/a.md', text: 'final' }),
        result('w1', { ok: true, error: null, result: { path: 'notes/a.md', sha256: B } }),
        call('b1', 'Bash', { command: 'notes-cli stat notes/a.md --json' }),
        result('b1', { path: 'notes/a.md', sha256: B }),
        call('e1', 'edit_note', { path: 'notes/a.md', expected_sha256: B, append: 'more' }),
        result('e1', { status: 409, body: { ok: false, error: 'conflict', result: { path: 'notes/a.md', sha256: B } } }, true),
      ]);
      assert.deepEqual(check(lines), []);
    });
  });

  describe(`status-theater (${format})`, () => {
    it('flags HTTP 200 around ok: false, at the result', () => {
      const lines = render(format, [
        call('t1', 'run_tests', { target: 'tests/' }),
        result('t1', { status: 200, body: { ok: false, error: '3 tests failed', result: null } }, false),
      ]);
      const got = check(lines);
      assert.deepEqual(summary(got), [`status-theater warning 2:${col(lines[1], resultTok(format, 't1'))}`]);
      assert.equal(got[0].message, 'run_tests: transport says success (HTTP 200) but the body says ok: false');
    });

    it('flags envelope conflicts: ok: false still carrying a result, ok: true with an error, missing keys', () => {
      const lines = render(format, [
        call('p1', 'publish_note', { path: 'a.md' }),
        result('p1', { ok: false, error: 'review required', result: { url: 'https://notes.example/a' } }),
        call('p2', 'publish_note', { path: 'b.md' }),
        result('p2', { ok: true, error: 'quota exceeded', result: { url: 'https://notes.example/b' } }),
        call('p3', 'publish_note', { path: 'c.md' }),
        result('p3', { ok: true, result: { url: 'https://notes.example/c' } }),
      ]);
      const got = check(lines);
      assert.deepEqual(got.map((g) => `${g.line} ${g.message}`), [
        '2 publish_note: envelope says ok: false but still carries a result {"url":"https://notes.example/a"}',
        '4 publish_note: envelope says ok: true but carries error "quota exceeded"',
        '6 publish_note: envelope lacks error (expected ok, error and result)',
      ]);
    });

    it('flags a body that is not the envelope the contract declares', () => {
      const set = contracts({ book_room: { envelope: true } });
      const lines = render(format, [call('b1', 'book_room', { room_id: 'CS-130' }), result('b1', 'Booked!')]);
      assert.deepEqual(check(lines, set).map((g) => `${g.line}:${g.column} ${g.message}`), [
        `2:${col(lines[1], resultTok(format, 'b1'))} book_room: envelope expected {ok, error, result}, got text "Booked!"`,
      ]);
    });

    it('does not fire: an honest failure, grep exit 1, an honest envelope where the format has no error flag, HTTP 500', () => {
      const set = contracts({ grep: { okExitCodes: [0, 1] } });
      const lines = render(format, [
        call('t1', 'run_tests', { target: 'tests/' }),
        result('t1', { ok: false, error: 'runner crashed', result: null }, true),
        call('g1', 'grep', { pattern: 'sleep(' }),
        result('g1', { exit_code: 1, stdout: '' }, false),
        call('b1', 'book_room', { room_id: 'KILLAM-404' }),
        result('b1', { ok: false, error: 'unknown_room', result: null }),
        call('h1', 'fetch', { url: 'https://x.example' }),
        result('h1', { status: 500, body: { error: 'upstream down' } }),
      ]);
      // Chat tool messages carry no error flag; an Anthropic tool_result without is_error says success.
      assert.deepEqual(check(lines, set).map((g) => `${g.line}:${g.column} ${g.message}`), format === 'openai-chat' ? [] : [
        `6:${col(lines[5], resultTok(format, 'b1'))} book_room: transport says success (is_error absent) but the body says ok: false`,
      ]);
    });
  });

  describe(`orphan-call, orphan-result, duplicate-call-id (${format})`, () => {
    it('pairs by id: an unanswered call mid-session, a spliced result, a reused id, and a call the trace ends on', () => {
      const lines = render(format, [
        call('c1', 'search_repo', { query: 'a' }),
        result('c1', MATCHES),
        call('c2', 'run_tests', { target: 'tests/' }),
        call('c1', 'publish_note', { path: 'r.md' }),
        { results: [resultSpec('c1', { ok: true, error: null, result: null }), resultSpec('x9', { passed: 42 })] },
        call('c4', 'run_tests', { target: 'tests/unit/' }),
      ]);
      const got = check(lines);
      const spliced = format === 'openai-chat' ? 6 : 5;
      const lastLine = lines.length;
      assert.deepEqual(summary(got), [
        `orphan-call warning 3:${col(lines[2], nameTok('run_tests'))}`,
        `duplicate-call-id warning 4:${col(lines[3], nameTok('publish_note'))}`,
        `orphan-result warning ${spliced}:${col(lines[spliced - 1], resultTok(format, 'x9'))}`,
        `orphan-call info ${lastLine}:${col(lines[lastLine - 1], nameTok('run_tests'))}`,
      ]);
      assert.deepEqual(got.map((g) => g.message), [
        'run_tests (c2) got no result; the session went on without it',
        'c1 is already the id of search_repo (turn 1); publish_note reuses it',
        'result for x9 matches no call in this session',
        'run_tests (c4) is still awaiting its result: the trace ends here',
      ]);
      assert.deepEqual(got[1].related, [`1:${col(lines[0], nameTok('search_repo'))} c1 first used here`]);
    });

    it('a call of the last turn is a warning, not info, when a message followed it (the answer came without it)', () => {
      const lines = render(format, [
        call('c1', 'search_repo', { query: 'a' }),
        result('c1', MATCHES),
        { calls: [callSpec('c2', 'run_tests', { target: 'tests/' }), callSpec('c3', 'get_time')] },
        result('c3', { now: '10:00' }),
        user('so, did the tests pass?'),
      ]);
      assert.deepEqual(summary(check(lines)), [`orphan-call warning 3:${col(lines[2], nameTok('run_tests'))}`]);
    });

    it('does not fire: an error result answers its call; the same call recorded twice is one call', () => {
      const lines = render(format, [
        call('c1', 'run_tests', { target: 'tests/' }),
        result('c1', { status: 503, body: 'Error: runner crashed' }, true),
        call('c2', 'search_repo', { query: 'a' }),
        call('c2', 'search_repo', { query: 'a' }),
        result('c2', MATCHES),
      ]);
      assert.deepEqual(check(lines), []);
    });
  });

  describe(`assumed-value (${format})`, () => {
    const set = () =>
      contracts({
        list_rooms: {},
        book_room: {
          arguments: { type: 'object', properties: { room_id: { type: 'string', pattern: '^[A-Z]+-[0-9]+$' } } },
          argumentSources: { room_id: { tool: 'list_rooms', field: 'rooms' } },
        },
      });

    it('flags a value no earlier result offered, at the value, with the source result as related', () => {
      const lines = render(format, [
        call('l1', 'list_rooms'),
        result('l1', { rooms: ['KILLAM-212', 'MCD-17'] }),
        call('b1', 'book_room', { room_id: 'CS-130' }),
        result('b1', { ok: true, error: null, result: { room_id: 'CS-130' } }),
        call('b2', 'book_room', { room_id: 'MCD-17' }),
        result('b2', { ok: true, error: null, result: { room_id: 'MCD-17' } }),
      ]);
      const got = check(lines, set());
      assert.deepEqual(summary(got), [`assumed-value warning 3:${col(lines[2], argTok(format, 'CS-130'))}`]);
      assert.equal(got[0].token, argTok(format, 'CS-130'));
      assert.equal(got[0].message, 'book_room.room_id CS-130 was not in the last list_rooms result');
      assert.deepEqual(got[0].related, [`2:${col(lines[1], resultTok(format, 'l1'))} the last list_rooms result offered "KILLAM-212, MCD-17"`]);
    });

    it('flags a value when the source was never called, or only failed', () => {
      const lines = render(format, [
        call('b1', 'book_room', { room_id: 'CS-130' }),
        result('b1', { ok: true, error: null, result: null }),
        call('l1', 'list_rooms'),
        result('l1', { status: 503, body: { error: 'CS-130 is closed' } }),
        call('b2', 'book_room', { room_id: 'CS-130', minutes: 60 }),
        result('b2', { ok: true, error: null, result: null }),
      ]);
      assert.deepEqual(check(lines, set()).map((g) => `${g.code} ${g.line} ${g.message}`), [
        'assumed-value 1 book_room.room_id CS-130 did not come from list_rooms: no list_rooms result precedes it',
        'assumed-value 5 book_room.room_id CS-130 did not come from list_rooms: no list_rooms result precedes it',
      ]);
    });

    it('does not fire on a value that already breaks the schema (one finding per fault)', () => {
      const lines = render(format, [call('l1', 'list_rooms'), result('l1', { rooms: ['MCD-17'] }), call('b1', 'book_room', { room_id: 'room 404' }), result('b1', { ok: true, error: null, result: null })]);
      const all = checkText(lines.join('\n'), { fileName: 't.jsonl', contracts: set() }).findings.map((f) => f.code);
      assert.deepEqual(all, ['constraint']);
    });
  });
}

describe('stale-digest on Claude Code structured results', () => {
  const line = (o: object) => JSON.stringify(o);
  const use = (uuid: string, id: string, name: string, input: object) => line({ type: 'assistant', uuid, sessionId: 's1', message: { id: 'm' + uuid, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
  const answer = (uuid: string, id: string, text: string, toolUseResult: object) => line({ type: 'user', uuid, sessionId: 's1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] }, toolUseResult });

  it('an Edit whose structured patch is empty claimed a change that did not happen; a create or a real patch is fine', () => {
    const lines = [
      use('a1', 't1', 'Edit', { file_path: '/repo/notes.md', old_string: 'teh', new_string: 'the' }),
      answer('u1', 't1', 'The file /repo/notes.md has been updated.', { filePath: '/repo/notes.md', oldString: 'teh', newString: 'the', structuredPatch: [] }),
      use('a2', 't2', 'Write', { file_path: '/repo/new.md', content: 'x' }),
      answer('u2', 't2', 'File created successfully at: /repo/new.md', { type: 'create', filePath: '/repo/new.md', content: 'x', structuredPatch: [] }),
      use('a3', 't3', 'Edit', { file_path: '/repo/notes.md', old_string: 'a', new_string: 'b' }),
      answer('u3', 't3', 'The file /repo/notes.md has been updated.', { filePath: '/repo/notes.md', structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] }] }),
    ];
    const got = check(lines, undefined, 'session.jsonl');
    assert.deepEqual(got.map((g) => `${g.code} ${g.line}:${g.column} ${g.token} ${g.message}`), [
      `stale-digest 2:${col(lines[1], '[]')} [] Edit claimed a write to /repo/notes.md; its structured patch is empty (no line changed)`,
    ]);
  });
});

describe('cross-call checks on a whole-document Anthropic request and a calls log', () => {
  it('the volatileTools option exempts a tool no contract describes', () => {
    const lines = render('anthropic', [call('t1', 'now'), result('t1', '10:00'), call('t2', 'now'), result('t2', '10:01')]);
    const text = lines.join('\n');
    const codes = (volatileTools?: string[]) => checkText(text, { fileName: 't.jsonl', volatileTools }).findings.map((f) => f.code).filter((c) => CROSS.has(c));
    assert.deepEqual(codes(), ['duplicate-fingerprint']);
    assert.deepEqual(codes(['now']), []);
  });

  it('a log of calls with no results at all says nothing about orphans', () => {
    const lines = [JSON.stringify({ name: 'get_hours', arguments: { building: 'Killam', weekday: 2 } }), JSON.stringify({ name: 'get_hours', arguments: { building: 'Killam', weekday: 3 } })];
    assert.deepEqual(check(lines, undefined, 'calls.jsonl'), []);
  });

  it('results that are text blocks holding JSON are read as JSON (and positions map into the text)', () => {
    const doc = {
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'run_tests', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: false, content: [{ type: 'text', text: '{"statusCode": 201, "data": {"success": false}}' }] }] },
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    const got = check([text], undefined, 'run.json');
    assert.deepEqual(got.map((g) => `${g.code} ${g.line}:${g.column} ${g.message}`), [
      `status-theater ${text.split('\n').findIndex((l) => l.includes('"tool_result"')) + 0}:9 run_tests: transport says success (HTTP 201) but the body says success: false`,
    ]);
  });
});

describe('duplicate-fingerprint: a retry after a failure', () => {
  // Anthropic lines (the format keeps is_error); no contract: only the cross-call codes are looked at
  const lines = (steps: Step[]) => render('anthropic', steps).join('\n');
  const dupes = (steps: Step[]) => checkText(lines(steps), { fileName: 't.jsonl' }).findings.filter((f) => f.code === 'duplicate-fingerprint');
  const edit = { file_path: 'a.py', old_string: 'x', new_string: 'y' };

  it('after the agent did what the error asked (a Read between), the same Edit is not a repeat', () => {
    const got = dupes([
      call('t1', 'Edit', edit), result('t1', 'Error: File has not been read yet. Read it first before writing to it.', true),
      call('t2', 'Read', { file_path: 'a.py' }), result('t2', 'x = 1'),
      call('t3', 'Edit', edit), result('t3', 'The file a.py has been updated.'),
    ]);
    assert.deepEqual(got, []);
  });

  it('a verbatim retry right after the failure, with nothing between, is still the stuck loop', () => {
    const got = dupes([
      call('t1', 'Edit', edit), result('t1', 'Error: String to replace not found in file.', true),
      call('t2', 'Edit', edit), result('t2', 'Error: String to replace not found in file.', true),
    ]);
    assert.deepEqual(got.map((f) => f.message), ['Edit called 2× with the same arguments and nothing changed in between; same result each time']);
  });

  it('a repeat of a call that succeeded stays a repeat, whatever read-only calls came between', () => {
    const got = dupes([
      call('t1', 'search', { q: 'x' }), result('t1', 'hits'),
      call('t2', 'Read', { file_path: 'a.py' }), result('t2', 'x = 1'),
      call('t3', 'search', { q: 'x' }), result('t3', 'hits'),
    ]);
    assert.equal(got.length, 1);
  });
});
