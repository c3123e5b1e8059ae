// The second reading of a document read in parts (parse/split.ts PartReplay): the parts made again from the
// recipes of the first reading are the parts the splitter cut, whatever the chunks of either reading; a text that
// is not the one the recipes were made from is refused. And the splitter's fast path (an array element that closes
// in its chunk is taken whole, its inside left to JSON.parse of its part): brackets and quotes inside strings do not
// end an element, and a broken element still gives the parse error a whole read gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkDocumentStream, checkText } from '../../src/core';
import { DocumentSplitter, PartReplay, SplitError, type Part, type PartRecipe } from '../../src/core/parse/split';

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function cut(text: string, partChars: number, chunk: number, elementChars = 1 << 20): Part[] {
  const parts: Part[] = [];
  const splitter = new DocumentSplitter({ partChars, elementChars, maxHeld: 1 << 20 }, (p) => parts.push(p));
  for (const c of chunks(text, chunk)) splitter.push(c);
  splitter.end();
  return parts;
}

/** `total`: the length of the text the recipes were cut from. */
function replay(text: string, recipes: PartRecipe[], chunk: number, total = text.length): Part[] {
  const parts: Part[] = [];
  const again = new PartReplay(recipes, total, (p) => parts.push(p));
  for (const c of chunks(text, chunk)) again.push(c);
  again.end();
  return parts;
}

const fields = (p: Part) => ({ text: p.text, map: p.map, path: p.path, base: p.base });

/** Elements whose strings hold brackets, quotes, runs of backslashes and text that looks like JSON. */
const tricky = [
  { s: 'a ] } [ {', t: 'q"u"o"te', u: '\\', v: '\\\\"]', w: '{"x": [1, 2]}' },
  ['[', ']', '{', '}', '"', '\\"', 'é😀'],
  { deep: [[[{ e: '}]' }]]], n: -1.5e3, b: true, z: null },
  [],
  {},
  'plain',
  42,
];

describe('parts read again from their recipes', () => {
  const text = `{"meta": {"n": 1, "long": "${'m'.repeat(100)}"}, "name": "x", "items": ${JSON.stringify([...tricky, ...tricky], null, 1)}, "tail": [3, {"t": "]"}]}`;

  it('are the parts the splitter cut, whatever the chunks of either reading', () => {
    // cut from small chunks (elements read token by token) and from one chunk (elements taken whole)
    for (const cutChunk of [7, 1 << 20]) {
      for (const partChars of [1, 40, 300, 1 << 20]) {
        const first = cut(text, partChars, cutChunk);
        assert.ok(partChars > text.length || first.length > 1, `cut in several parts (part size ${partChars})`);
        for (const chunk of [1, 3, 64, 1 << 20]) {
          assert.deepEqual(replay(text, first.map((p) => p.recipe), chunk).map(fields), first.map(fields), `part size ${partChars}, chunks of ${chunk} (cut from ${cutChunk})`);
        }
      }
    }
  });

  it('refuse a text that is not the one they were cut from', () => {
    const recipes = cut(text, 40, 64).map((p) => p.recipe);
    assert.throws(() => replay(text + ' ', recipes, 64, text.length), (e: unknown) => e instanceof SplitError && /changed between its two readings/.test(e.message));
    assert.throws(() => replay(text.slice(0, -1), recipes, 64, text.length), (e: unknown) => e instanceof SplitError && /changed between its two readings/.test(e.message));
  });
});

describe('a document read in parts whose recipes grew too many', () => {
  it('is cut again by the second pass, with the findings of a whole read', async () => {
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const span = (trace: string, n: number) => ({ traceId: trace, spanId: `s${n}`, name: 'chat', startTimeUnixNano: String(n), attributes: [attr('gen_ai.operation.name', 'chat'),
      attr('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: `c${n}`, name: 'get_hours', arguments: { building: n } }] }]))] });
    const text = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: 40 }, (_, n) => span(n % 3 === 0 ? 'a' : `t${n}`, n)) }] }] });
    const bytes = new TextEncoder().encode(text);
    const open = async function* () {
      for (let i = 0; i < bytes.length; i += 1000) yield bytes.subarray(i, i + 1000);
    };
    const { alone, ...whole } = checkText(text, {});
    void alone;
    assert.ok(whole.findings.length > 0, 'the document has findings to compare');
    const replayed = await checkDocumentStream(open, {}, { wholeChars: 0, partChars: 500 });
    const cutAgain = await checkDocumentStream(open, {}, { wholeChars: 0, partChars: 500, recipeEntries: 0 });
    assert.equal(replayed.text, undefined, 'read in parts');
    assert.deepEqual(replayed.result, whole);
    assert.deepEqual(cutAgain.result, whole);
  });
});

describe('array elements taken whole', () => {
  it('end at their own closing bracket, not at one inside a string', () => {
    const text = JSON.stringify({ items: [...tricky, ...tricky] });
    for (const chunk of [1, 5, 1 << 20]) {
      const carried = cut(text, 1, chunk).flatMap((p) => (JSON.parse(p.text) as { items?: unknown[] }).items ?? []);
      assert.deepEqual(carried, [...tricky, ...tricky], `chunks of ${chunk}`);
    }
  });

  it('are cut inside once they reach elementChars', () => {
    const big = { parts: Array.from({ length: 40 }, (_, i) => ({ i, pad: 'p'.repeat(20) })) };
    const text = JSON.stringify({ items: [big, big] });
    const parts = cut(text, 100, 1 << 20, 200);
    assert.ok(parts.some((p) => (JSON.parse(p.text) as { items?: { parts?: unknown[] }[] }).items?.[0]?.parts !== undefined && p.path.length > 2), 'a part carries the inside of an element');
    const many = cut(text, 100, 1 << 20, 1 << 20);
    assert.ok(many.every((p) => p.path.length <= 1), 'under elementChars, no part is cut inside an element');
  });

  it('leave a broken element to the parse error a whole read gives', async () => {
    const text = `{"resourceSpans": [${'{"traceId": "a", "attributes": []},'.repeat(50)} {"traceId": "b", "attributes": [}]}]}`;
    const whole = checkText(text, {});
    assert.equal(whole.findings[0].code, 'parse-error');
    const bytes = new TextEncoder().encode(text);
    const open = async function* () {
      for (let i = 0; i < bytes.length; i += 4096) yield bytes.subarray(i, i + 4096);
    };
    assert.deepEqual((await checkDocumentStream(open, {}, { wholeChars: 0, partChars: 100 })).result, whole);
    const large = await checkDocumentStream(open, {}, { wholeChars: 0, partChars: 100, maxWholeChars: 100 });
    assert.deepEqual(large.result.findings.map((f) => f.code), ['parse-error']);
    assert.match(large.result.findings[0].message, /^not valid JSON/);
  });
});
