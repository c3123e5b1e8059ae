// Frozen fixtures, part 1: the digest, safe names, freezing a call from a trace's text, and the writer
// (atomic, never overwrites, always inside the fixtures folder).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { loadContracts } from '../../src/core';
import { sha256Hex } from '../../src/core/sha256';
import { callAt, callsOnLine, checkForFreeze, freeze, fixtureRelativePath, joinInside, parseFixture, safeToolName, MAX_TOOL_PART } from '../../src/core/fixtures';
import { writeNewFile } from '../../src/cli/fixture-files';

const HOURS = {
  path: 'hours.contract.json',
  text: JSON.stringify({
    tools: {
      get_hours: {
        arguments: {
          type: 'object',
          properties: { building: { type: 'string' }, weekday: { type: 'integer', minimum: 0, maximum: 6 } },
          required: ['building', 'weekday'],
        },
      },
    },
  }),
};
const contracts = loadContracts([HOURS]).contracts;

describe('sha256 (pure, for every host)', () => {
  it('matches node:crypto on known vectors and on random strings', () => {
    assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const s of ['a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'é天気🙂'.repeat(40)]) {
      assert.equal(sha256Hex(s), createHash('sha256').update(s, 'utf8').digest('hex'), `length ${s.length}`);
    }
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => sha256Hex(s) === createHash('sha256').update(s, 'utf8').digest('hex')), { numRuns: 200 });
  });
});

describe('fixture names', () => {
  it('keeps a plain tool name and makes every other one safe, with a hash of the original', () => {
    assert.equal(safeToolName('get_hours'), 'get_hours');
    assert.equal(safeToolName('mcp.server-1'), 'mcp.server-1');
    assert.match(safeToolName('../../etc/passwd'), /^etc_passwd-[0-9a-f]{8}$/);
    assert.match(safeToolName('CON'), /^CON-[0-9a-f]{8}$/);
    assert.match(safeToolName('nul.txt'), /^nul\.txt-[0-9a-f]{8}$/);
    assert.match(safeToolName('lpt1'), /^lpt1-[0-9a-f]{8}$/);
    assert.match(safeToolName('github/create_issue'), /^github_create_issue-[0-9a-f]{8}$/);
    assert.match(safeToolName('a\\b'), /^a_b-[0-9a-f]{8}$/);
    assert.match(safeToolName('café'), /^cafe-[0-9a-f]{8}$/);
    assert.match(safeToolName('天気'), /^tool-[0-9a-f]{8}$/);
    assert.match(safeToolName('..'), /^tool-[0-9a-f]{8}$/);
    assert.match(safeToolName('.hidden'), /^hidden-[0-9a-f]{8}$/);
    assert.match(safeToolName('trailing.'), /^trailing-[0-9a-f]{8}$/);
    const long = safeToolName('x'.repeat(300));
    assert.equal(long.length, MAX_TOOL_PART + 9);
    assert.match(long, /^x{64}-[0-9a-f]{8}$/);
    // Two names that sanitise alike stay apart.
    assert.notEqual(safeToolName('a/b'), safeToolName('a:b'));
    assert.notEqual(safeToolName('a/b'), safeToolName('a_b'));
  });

  it('gives <tool>/<tool>-<fingerprint>.fixture.json, and never a path outside the folder (any name)', () => {
    assert.equal(fixtureRelativePath('get_hours', '0123456789ab'), 'get_hours/get_hours-0123456789ab.fixture.json');
    const root = path.resolve(os.tmpdir(), 'fixtures-root');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom('../../etc/passwd', '/etc/passwd', 'C:\\x', 'CON', '..', '.', '', '\u0000', 'a/../../b')), (tool) => {
        const rel = fixtureRelativePath(tool, 'abcdef012345');
        const full = path.resolve(root, joinInside('.', rel));
        const parts = rel.split('/');
        return parts.length === 2 && full.startsWith(root + path.sep) && path.dirname(path.dirname(full)) === root
          && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(parts[0]) && Buffer.byteLength(parts[1]) < 255 && !/[. ]$/.test(parts[0]);
      }),
      { numRuns: 500 },
    );
  });

  it('joinInside refuses relative paths that would leave the folder', () => {
    for (const bad of ['../x/y.json', 'a/../../y', '/etc/passwd', 'a//b', 'a\\..\\b/c', 'C:/x']) assert.throws(() => joinInside('fx', bad), /would leave the fixtures folder/, bad);
    assert.equal(joinInside('fixtures/frozen/', 'a/a-1.fixture.json'), 'fixtures/frozen/a/a-1.fixture.json');
  });
});

describe('freeze (plain data from a trace text)', () => {
  const trace = [
    '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2}, "id": "c1", "result": "08:00-23:00"}',
    '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}, "id": "c2", "result": "closed"}',
    '{"name": "get_hours", "arguments": {"weekday": 2.0, "building": "Killam"}, "id": "c3"}',
  ].join('\n') + '\n';

  it('freezes a rejected call: args as recorded, verdict, expected result, contract and trace digests, source', () => {
    const checked = checkForFreeze(trace, { fileName: 'traces/hours.calls.jsonl', contracts });
    assert.equal(checked.sites.length, 3);
    const [site] = callsOnLine(checked, 2);
    const frozen = freeze(checked, site);
    assert.equal(frozen.relativePath, `get_hours/get_hours-${frozen.fingerprint.slice(0, 12)}.fixture.json`);
    assert.deepEqual(frozen.fixture.verdict, { ok: false, codes: ['type-drift'], messages: ['type-drift: weekday wanted integer, got boolean true'] });
    assert.deepEqual(frozen.fixture.args, { building: 'Killam', weekday: true });
    assert.equal(frozen.fixture.encoding, 'object');
    assert.equal(frozen.fixture.expected, 'closed');
    assert.equal(frozen.fixture.argumentsRaw, undefined);
    assert.match(frozen.fixture.contract!, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(frozen.fixture.source, { file: 'traces/hours.calls.jsonl', line: 2, callId: 'c2', trace: 'sha256:' + createHash('sha256').update(trace).digest('hex') });
    const parsed = parseFixture(frozen.text);
    assert.ok(parsed.ok, 'the written text is a valid fixture');
    assert.deepEqual(JSON.parse(frozen.text), JSON.parse(JSON.stringify(frozen.fixture)));
  });

  it('keeps the number as written (2.0 is not 2) and names it apart from the clean call', () => {
    const checked = checkForFreeze(trace, { fileName: 't.jsonl', contracts });
    const clean = freeze(checked, callsOnLine(checked, 1)[0]);
    const float = freeze(checked, callsOnLine(checked, 3)[0]);
    assert.match(float.text, /"weekday": 2\.0,\n/);
    assert.deepEqual(float.fixture.verdict.codes, ['type-drift']);
    assert.notEqual(float.relativePath, clean.relativePath);
    assert.equal(float.fixture.expected, undefined);
    assert.ok(!('expected' in JSON.parse(float.text)));
    assert.deepEqual(clean.fixture.verdict, { ok: true });
  });

  it('keeps string-encoded arguments raw, and finds the call under an offset', () => {
    const chat = JSON.stringify({
      messages: [
        { role: 'user', content: 'hours?' },
        { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_hours', arguments: '{"building": "Killam", "weekday": "2"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"ok": true, "error": null, "result": "08:00"}' },
      ],
    }, null, 2);
    const checked = checkForFreeze(chat, { fileName: 'chat.json', contracts });
    const site = callAt(checked, chat.indexOf('weekday'));
    assert.ok(site);
    const frozen = freeze(checked, site);
    assert.equal(frozen.fixture.argumentsRaw, '{"building": "Killam", "weekday": "2"}');
    assert.equal(frozen.fixture.encoding, 'json-string');
    assert.deepEqual(frozen.fixture.args, { building: 'Killam', weekday: '2' });
    assert.deepEqual(frozen.fixture.verdict.codes, ['type-drift']);
    assert.equal(frozen.fixture.expected, '{"ok": true, "error": null, "result": "08:00"}');
    assert.equal(frozen.fixture.source.line, 10); // the `{` of the tool call
    assert.equal(callAt(checked, 0), undefined);
  });

  it('freezes a call no contract covers as ok with a null contract, and an unknown tool as unknown-tool', () => {
    const text = '{"name": "web_search", "arguments": {"q": "x"}}\n';
    const open = checkForFreeze(text, { fileName: 'a.jsonl' });
    assert.deepEqual(freeze(open, open.sites[0]).fixture.verdict, { ok: true });
    assert.equal(freeze(open, open.sites[0]).fixture.contract, null);
    const closed = checkForFreeze(text, { fileName: 'a.jsonl', contracts });
    assert.deepEqual(freeze(closed, closed.sites[0]).fixture.verdict.codes, ['unknown-tool']);
  });
});

describe('writing fixture files', () => {
  it('writes a new file atomically, never overwrites, leaves no temp files, and lands inside the folder', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'cg-fixtures-'));
    try {
      const checked = checkForFreeze('{"name": "../../etc/passwd", "arguments": {"x": 1}}\n', { fileName: 'evil.jsonl' });
      const frozen = freeze(checked, checked.sites[0]);
      const target = joinInside(root, frozen.relativePath);
      assert.equal(await writeNewFile(target, frozen.text), 'written');
      assert.equal(await fs.readFile(target, 'utf8'), frozen.text);
      assert.ok(path.resolve(target).startsWith(root + path.sep));
      assert.equal(path.dirname(path.dirname(path.resolve(target))), root);
      // The same fixture again: nothing is written, the first content stays.
      assert.equal(await writeNewFile(target, 'SOMETHING ELSE'), 'exists');
      assert.equal(await fs.readFile(target, 'utf8'), frozen.text);
      // Concurrent writers of one name: exactly one wins, the file is whole.
      const other = joinInside(root, 'x/x-000000000000.fixture.json');
      const outcomes = await Promise.all(['A'.repeat(100000), 'B'.repeat(100000), 'C'.repeat(100000)].map((t) => writeNewFile(other, t)));
      assert.deepEqual(outcomes.filter((o) => o === 'written').length, 1);
      assert.match(await fs.readFile(other, 'utf8'), /^(A{100000}|B{100000}|C{100000})$/);
      const left = (await fs.readdir(path.dirname(other))).concat(await fs.readdir(path.dirname(target)));
      assert.deepEqual(left.filter((n) => n.endsWith('.tmp')), []);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
