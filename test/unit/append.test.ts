// A growing trace (src/core/append.ts): lines fed as they are appended, in any cut, with the state saved and taken
// up again (through a structured clone, as a worker thread hands it over), give what one whole check gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { checkGrowing, checkText, checkTextChunked, GrowingTrace, readsAsLines, type CheckOptions, type GrowingState } from '../../src/core';
import { CORPUS, ROOT, fixtureContracts } from './helpers';

/** Line-shaped traces: the fixtures, and the corpus's when it is there. */
function lineTraces(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (dir: string, rel: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full, `${rel}/${e.name}`);
      else if (/\.jsonl$/.test(e.name)) {
        const text = readFileSync(full, 'utf8');
        if (readsAsLines(text, e.name) && text.length < 400_000) out.push({ name: `${rel}/${e.name}`, text });
      }
    }
  };
  walk(path.join(ROOT, 'fixtures', 'traces'), 'fixtures/traces');
  walk(CORPUS, 'corpus');
  return out;
}

/** Feed `text` cut at `cuts` (character offsets) the way a follower sees it appear: complete lines go in, a
 *  partial last line waits; the state is saved and taken up again after every piece. */
function grow(text: string, cuts: number[], options: CheckOptions) {
  let trace = new GrowingTrace(options);
  let seen = 0;
  for (const cut of [...cuts.sort((a, b) => a - b), text.length]) {
    seen = Math.max(seen, cut);
    const upTo = text.lastIndexOf('\n', seen - 1) + 1;
    if (upTo > trace.consumed) trace.addLines(text.slice(trace.consumed, upTo));
    const saved: GrowingState = structuredClone(trace.save());
    trace = new GrowingTrace(options, saved);
  }
  return trace.result(text.slice(trace.consumed));
}

describe('GrowingTrace', () => {
  const contracts = fixtureContracts();
  const files = lineTraces();

  it('fed in random pieces, with its state saved and taken up between them, equals one whole check', () => {
    assert.ok(files.length >= 5, 'the fixtures at least');
    for (const f of files) {
      const options: CheckOptions = { fileName: f.name, contracts };
      const whole = checkText(f.text, options);
      fc.assert(
        fc.property(fc.array(fc.nat({ max: f.text.length }), { maxLength: 6 }), (cuts) => {
          assert.deepEqual(grow(f.text, cuts, options), whole, f.name);
        }),
        { numRuns: 15 },
      );
    }
  });

  it('a partial last line is read as it stands, and not kept', () => {
    const options: CheckOptions = { contracts };
    const line = '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": "2"}}';
    const trace = new GrowingTrace(options);
    trace.addLines(`${line}\n`);
    const half = line.slice(0, 30);
    assert.deepEqual(trace.result(half), checkText(`${line}\n${half}`, options));
    assert.equal(trace.consumed, line.length + 1);
    assert.deepEqual(trace.result(), checkText(`${line}\n`, options), 'the half line left nothing behind');
    assert.throws(() => trace.addLines(half), /complete lines/);
  });

  it('the chunked check hands over a growing trace that equals checkGrowing and checkText', async () => {
    for (const f of files.slice(0, 8)) {
      const options: CheckOptions = { fileName: f.name, contracts };
      let handed: GrowingTrace | undefined;
      const result = await checkTextChunked(f.text, options, { sliceMs: 0, onGrowing: (t) => (handed = t) });
      assert.deepEqual(result, checkText(f.text, options), f.name);
      const sync = checkGrowing(f.text, options);
      assert.deepEqual(sync.result, result);
      assert.ok(handed && sync.trace, 'a line-shaped text hands its trace over');
      assert.equal(handed.consumed, f.text.lastIndexOf('\n') + 1);
      const more = '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}\n';
      handed.addLines(more);
      sync.trace.addLines(more);
      assert.deepEqual(handed.result(), checkText(f.text.slice(0, handed.consumed - more.length) + more, options), `${f.name} + a line`);
      assert.deepEqual(sync.trace.result(), handed.result());
    }
  });

  it('a document hands nothing over', async () => {
    let handed = false;
    const doc = '{\n  "messages": []\n}\n';
    await checkTextChunked(doc, { fileName: 'x.jsonl' }, { onGrowing: () => (handed = true) });
    assert.equal(handed, false);
    assert.equal(checkGrowing(doc, { fileName: 'x.jsonl' }).trace, undefined, 'a .jsonl that is one document');
    assert.deepEqual(checkGrowing(doc, {}).result, checkText(doc));
  });
});
