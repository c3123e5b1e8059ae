// A growing trace (src/core/append.ts): lines fed as they are appended, in any cut, with the result asked between
// the pieces, give what one whole check gives; a long session read in segments too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { applyDelta, checkText, completeLines, findingsDelta, GrowingTrace, growingTrace, readsAsLines, type CheckOptions } from '../../src/core';
import { fixtureContracts, traceFilesIn } from './helpers';

/** Line-shaped traces: the fixtures, and the corpus's when it is there. */
function lineTraces(): { name: string; text: string }[] {
  return traceFilesIn(['fixtures/traces', 'corpus'], /\.jsonl$/).filter((t) => readsAsLines(t.text, path.basename(t.name)) && t.text.length < 400_000);
}

/** Feed `text` cut at `cuts` (character offsets) the way a follower sees it appear: complete lines go in, a
 *  partial last line waits; the result is asked after every piece. */
function grow(text: string, cuts: number[], options: CheckOptions) {
  const trace = new GrowingTrace(options);
  for (const cut of [...cuts.sort((a, b) => a - b), text.length]) {
    const upTo = text.lastIndexOf('\n', cut - 1) + 1;
    if (upTo > trace.consumed) trace.addLines(text.slice(trace.consumed, upTo));
    trace.result(text.slice(trace.consumed, cut));
  }
  return trace.result(text.slice(trace.consumed));
}

describe('GrowingTrace', () => {
  const contracts = fixtureContracts();
  const files = lineTraces();

  it('fed in random pieces, asked for its result between them, ends where one whole check does', () => {
    assert.ok(files.length >= 5, 'the fixtures at least');
    let compared = 0;
    for (const f of files) {
      const options: CheckOptions = { fileName: f.name, contracts };
      const whole = checkText(f.text, options);
      fc.assert(
        fc.property(fc.array(fc.nat({ max: f.text.length }), { maxLength: 6 }), (cuts) => {
          assert.deepEqual(grow(f.text, cuts, options), whole, f.name);
        }),
        { numRuns: 10 },
      );
      compared++;
    }
    assert.equal(compared, files.length);
  });

  it('a long session read in segments: one appended line is checked from the state, with the whole result', () => {
    const options: CheckOptions = { contracts, segmentCalls: 50 };
    const line = (i: number) => JSON.stringify({ name: 'get_hours', arguments: { building: `B${i % 40}`, weekday: i % 97 === 0 ? String(i % 7) : i % 7 } });
    const text = Array.from({ length: 3000 }, (_, i) => line(i)).join('\n') + '\n';
    const trace = new GrowingTrace(options);
    trace.addLines(text);
    assert.deepEqual(trace.result(), checkText(text, options));
    const more = `${line(97 * 31)}\n`;
    assert.deepEqual(trace.append(more), checkText(text + more, options));
  });

  it('a partial last line waits for its newline, and counts meanwhile only as the parse error it is', () => {
    const options: CheckOptions = { contracts };
    const line = '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": "2"}}';
    const trace = new GrowingTrace(options);
    trace.addLines(`${line}\n`);
    const half = line.slice(0, 30);
    assert.deepEqual(trace.result(half), checkText(`${line}\n${half}`, options));
    assert.equal(trace.consumed, line.length + 1);
    assert.deepEqual(trace.result(), checkText(`${line}\n`, options), 'the half line left nothing behind');
    assert.deepEqual(trace.result(line), checkText(`${line}\n`, options), 'an event line without its newline yet waits');
    assert.throws(() => trace.addLines(half), /complete lines/);
  });

  it('a result is sent as a change of the findings before: what stays, and what follows', () => {
    const options: CheckOptions = { contracts };
    const line = (w: unknown) => JSON.stringify({ name: 'get_hours', arguments: { building: 'Killam', weekday: w } });
    const trace = new GrowingTrace(options);
    const before = trace.append(`${line('2')}\n${line(true)}\n`).findings;
    const after = trace.append(`${line(2.5)}\n${line('2')}\n`).findings;
    const delta = findingsDelta(structuredClone(before), after);
    assert.equal(delta.keep, before.length, 'the findings of the lines before stay');
    assert.ok(delta.add.length >= 2);
    assert.deepEqual(applyDelta(structuredClone(before), delta), after);
    assert.deepEqual(findingsDelta(after, before.slice(1)), { keep: 0, add: before.slice(1) }, 'nothing shared: all of it');
  });

  it('growingTrace builds the same trace in slices; a document has none', async () => {
    for (const f of files.slice(0, 8)) {
      const options: CheckOptions = { fileName: f.name, contracts };
      const trace = await growingTrace(f.text, options, { sliceMs: 0 });
      assert.ok(trace, f.name);
      assert.equal(trace.consumed, completeLines(f.text));
      const more = '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}\n';
      const direct = new GrowingTrace(options);
      direct.addLines(f.text.slice(0, trace.consumed) + more);
      assert.deepEqual(trace.append(more), direct.result(), f.name);
    }
    assert.equal(await growingTrace('{\n  "messages": []\n}\n', {}), undefined);
  });
});
