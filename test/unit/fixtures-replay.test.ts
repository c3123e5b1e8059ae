// Frozen fixtures, part 2: replay against today's contracts (no drift, loosened, tightened, changed, invalid),
// and the repo's own fixtures (fixtures/frozen), replayed against fixtures/contracts: if the guard ever lets
// `"weekday": true` through again, this file fails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadContracts, type ContractSet } from '../../src/core';
import { checkForFreeze, freeze, renderReplayTable, replayFixture, replaySummary } from '../../src/core/fixtures';
import { replayFiles } from '../../src/cli/replay';

const ROOT = path.resolve(__dirname, '../../..');

function contractsWith(weekday: object, extra: Record<string, object> = {}): ContractSet {
  const text = JSON.stringify({
    tools: {
      get_hours: {
        arguments: { type: 'object', properties: { building: { type: 'string' }, weekday, ...extra }, required: ['building', 'weekday'] },
      },
    },
  });
  return loadContracts([{ path: 'hours.contract.json', text }]).contracts;
}

const STRICT = contractsWith({ type: 'integer', minimum: 0, maximum: 6 });

function frozenText(line: string, contracts = STRICT): string {
  const checked = checkForFreeze(line + '\n', { fileName: 'hours.calls.jsonl', contracts });
  return freeze(checked, checked.sites[0]).text;
}

const BOOL = frozenText('{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}');
const GOOD = frozenText('{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 6}}');

describe('replay', () => {
  it('no drift: the same contract gives the same verdict, and the findings point into the fixture file', () => {
    const o = replayFixture('bool.fixture.json', BOOL, { contracts: STRICT });
    assert.equal(o.status, 'no-drift');
    assert.equal(o.contractChanged, false);
    assert.deepEqual(o.now?.codes, ['type-drift']);
    assert.equal(o.detail, 'still type-drift');
    const f = o.findings![0];
    assert.equal(BOOL.slice(f.span.start, f.span.end), 'true');
  });

  it('loosened: a rejected call that passes today is drift, and says so', () => {
    const loose = contractsWith({ type: ['integer', 'boolean'] });
    const o = replayFixture('bool.fixture.json', BOOL, { contracts: loose });
    assert.equal(o.status, 'loosened');
    assert.deepEqual(o.now, { ok: true });
    assert.equal(o.contractChanged, true);
    assert.equal(o.detail, 'was rejected for type-drift, now passes: the guard or the contract loosened');
  });

  it('tightened: an accepted call that fails today is drift', () => {
    const tight = contractsWith({ type: 'integer', minimum: 1, maximum: 5 });
    const o = replayFixture('good.fixture.json', GOOD, { contracts: tight });
    assert.equal(o.status, 'tightened');
    assert.deepEqual(o.now?.codes, ['constraint']);
    assert.equal(o.detail, 'passed, now also constraint: the guard or the contract tightened');
    // More codes than before is tightening too.
    const stricter = contractsWith({ type: 'integer' }, { floor: { type: 'integer' } });
    const required = loadContracts([{ path: 'c.json', text: JSON.stringify({ tools: { get_hours: { arguments: { type: 'object', properties: { building: { type: 'string' }, weekday: { type: 'integer' } }, required: ['building', 'weekday', 'floor'] } } } }) }]).contracts;
    assert.equal(replayFixture('b', BOOL, { contracts: stricter }).status, 'no-drift');
    const both = replayFixture('b', BOOL, { contracts: required });
    assert.equal(both.status, 'tightened');
    assert.deepEqual(both.now?.codes, ['missing-key', 'type-drift']);
  });

  it('changed: other codes than before; a tool no contract knows any more is unknown-tool', () => {
    const renamed = loadContracts([{ path: 'c.json', text: JSON.stringify({ tools: { get_opening_hours: { arguments: { type: 'object' } } } }) }]).contracts;
    const o = replayFixture('b', BOOL, { contracts: renamed });
    assert.equal(o.status, 'changed');
    assert.deepEqual(o.now?.codes, ['unknown-tool']);
    assert.equal(o.contractChanged, true);
  });

  it('reproduces the encoding: a double-encoded call is still arguments-encoding, 2.0 still type-drift', () => {
    const line = JSON.stringify({ name: 'get_hours', arguments: JSON.stringify(JSON.stringify({ building: 'K', weekday: 2 })) });
    const text = frozenText(line);
    assert.deepEqual(JSON.parse(text).verdict.codes, ['arguments-encoding']);
    assert.equal(replayFixture('d', text, { contracts: STRICT }).status, 'no-drift');
    const float = frozenText('{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2.0}}');
    const o = replayFixture('f', float, { contracts: STRICT });
    assert.equal(o.status, 'no-drift');
    assert.deepEqual(o.now?.codes, ['type-drift']);
  });

  it('an unreadable fixture is invalid with a reason, never a throw', () => {
    assert.deepEqual(replayFixture('x', '{"tool": "a"', { contracts: STRICT }).status, 'invalid');
    const o = replayFixture('x', JSON.stringify({ ...JSON.parse(GOOD), extra: 1 }), { contracts: STRICT });
    assert.equal(o.status, 'invalid');
    assert.equal(o.detail, 'not a fixture: extra is not a fixture field');
    const okWithCodes = JSON.stringify({ ...JSON.parse(GOOD), verdict: { ok: false } });
    assert.match(replayFixture('x', okWithCodes, { contracts: STRICT }).detail, /^not a fixture: \/verdict must have required property 'codes'/);
  });

  it('prints the table fixture / frozen verdict / verdict now / status, and a summary', () => {
    const outcomes = [replayFixture('a.fixture.json', BOOL, { contracts: STRICT }), replayFixture('b.fixture.json', BOOL, { contracts: contractsWith({}) })];
    assert.equal(
      renderReplayTable(outcomes),
      [
        'fixture         frozen verdict  verdict now  status',
        'a.fixture.json  type-drift      type-drift   no drift',
        'b.fixture.json  type-drift      ok           DRIFT loosened: was rejected for type-drift, now passes: the guard or the contract loosened',
        '',
      ].join('\n'),
    );
    assert.equal(replaySummary(outcomes), '2 fixtures: 1 no drift, 1 drifted (1 loosened, 0 tightened, 0 changed), 0 invalid');
  });
});

describe("the repo's frozen fixtures (fixtures/frozen against fixtures/contracts)", () => {
  it('all replay with no drift', async () => {
    const run = await replayFiles([path.join(ROOT, 'fixtures/frozen')], [path.join(ROOT, 'fixtures/contracts')]);
    const drifted = run.outcomes.filter((o) => o.status !== 'no-drift').map((o) => `${o.name}: ${o.status}: ${o.detail}`);
    assert.deepEqual(drifted, []);
    assert.ok(run.outcomes.length >= 30, `expected the seed fixtures, found ${run.outcomes.length}`);
    assert.equal(run.exitCode, 0);
    // The seed stories are there, with their verdicts.
    const verdicts = new Set(run.outcomes.map((o) => `${o.tool} ${o.frozen!.ok ? 'ok' : o.frozen!.codes!.join('+')}`));
    for (const v of ['get_hours type-drift', 'get_hours extra-key', 'get_open_now unknown-tool', 'book_room constraint', 'book_room missing-key', 'get_weather extra-key', 'get_weather arguments-encoding', 'get_hours ok']) {
      assert.ok(verdicts.has(v), `a fixture with verdict "${v}"`);
    }
  });

  it('would fail if weekday: true passed again (the same fixtures against a loosened contract)', async () => {
    const loose = path.join(ROOT, 'out/test/unit/.loose-contracts');
    const fs = await import('node:fs/promises');
    await fs.mkdir(loose, { recursive: true });
    try {
      const hours = JSON.parse(await fs.readFile(path.join(ROOT, 'fixtures/contracts/hours.contract.json'), 'utf8'));
      hours.tools.get_hours.arguments.properties.weekday = { type: ['integer', 'boolean'] };
      await fs.writeFile(path.join(loose, 'hours.contract.json'), JSON.stringify(hours));
      const run = await replayFiles([path.join(ROOT, 'fixtures/frozen/get_hours')], [loose]);
      const bool = run.outcomes.find((o) => o.status === 'loosened' && /boolean true/.test(o.frozen!.messages!.join()));
      assert.ok(bool, 'the weekday: true fixture drifts (loosened)');
      assert.equal(run.exitCode, 1);
    } finally {
      await fs.rm(loose, { recursive: true, force: true });
    }
  });
});
