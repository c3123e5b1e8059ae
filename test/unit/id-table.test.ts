// The compact tables a long session's state is kept in (src/core/id-table.ts) and pairing's carried calls
// (src/core/checks/pairing.ts): what goes in comes out the same, across growth and chunks, and facts too wide for
// the compact record are kept whole.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IdSet, IdTable, SlotColumn } from '../../src/core/id-table';
import { CarriedCalls, type CallFacts } from '../../src/core/checks/pairing';

describe('IdSet', () => {
  it('numbers new ids in order, answers -1 for a known one, and knows each again after growing', () => {
    const s = new IdSet();
    for (let i = 0; i < 100_000; i++) assert.equal(s.add(`u-${i}`), i);
    assert.equal(s.size, 100_000);
    assert.equal(s.add('u-77'), -1);
    assert.equal(s.add('u-99999'), -1);
    assert.equal(s.size, 100_000);
    for (let i = 0; i < 100_000; i += 101) assert.equal(s.has(`u-${i}`), true);
    assert.equal(s.has('u-100000'), false);
    assert.equal(s.has(''), false);
  });
});

describe('IdTable on IdSet', () => {
  it('keeps each id its slot through growth; unknown ids are -1', () => {
    const t = new IdTable();
    for (let i = 0; i < 70_000; i++) assert.equal(t.add(`toolu_${i}`), i);
    for (let i = 0; i < 70_000; i += 61) assert.equal(t.get(`toolu_${i}`), i);
    assert.equal(t.add('toolu_123'), 123);
    assert.equal(t.get('toolu_70000'), -1);
    assert.equal(t.has('toolu_70000'), false);
  });
});

describe('SlotColumn', () => {
  it('holds 32-bit whole numbers across chunks; unset slots read 0', () => {
    const c = new SlotColumn();
    const slots = [0, 1, 4095, 4096, 4097, 40_000, 123_456];
    slots.forEach((s, k) => c.set(s, k === 0 ? 0xffffffff : s * 3));
    assert.equal(c.get(0), 0xffffffff);
    for (const s of slots.slice(1)) assert.equal(c.get(s), s * 3);
    assert.equal(c.get(2), 0);
    assert.equal(c.get(9_999_999), 0, 'a slot past every chunk');
  });
});

describe('CarriedCalls', () => {
  const facts = (name: string, turn: number, start: number, end: number, print: number): CallFacts => ({ name, turn, start, end, print });

  it('gives back the facts of the first call of each id, compact or whole', () => {
    const c = new CarriedCalls();
    const cases: [string, CallFacts][] = [
      ['a', facts('get_weather', 1, 120, 131, 0xdeadbeef)],
      ['b', facts('Read', 7, 2 ** 32 + 5, 2 ** 32 + 9, 1)], // a start past 32 bits
      ['c', facts('Bash', 2 ** 33, 10, 14, 0)], // a turn past 32 bits
      ['d', facts('Write', 3, 500, 500 + 70_000, 42)], // a name span past 16 bits
      ['e', facts('get_weather', 0, 0, 0, 0xffffffff)],
    ];
    for (const [id, f] of cases) c.add(id, () => f);
    c.add('a', () => assert.fail('facts of a known id are not asked for'));
    assert.equal(c.size, cases.length);
    for (const [id, f] of cases) assert.deepEqual(c.get(id), f, id);
    assert.equal(c.get('z'), undefined);
    assert.equal(c.has('d'), true);
  });

  it('keeps the facts of calls past 65,536 tool names whole', () => {
    const c = new CarriedCalls();
    for (let i = 0; i < 65_540; i++) c.add(`id-${i}`, () => facts(`tool_${i}`, i, i * 10, i * 10 + 6, i));
    for (const i of [0, 65_535, 65_536, 65_539]) assert.deepEqual(c.get(`id-${i}`), facts(`tool_${i}`, i, i * 10, i * 10 + 6, i));
  });
});
