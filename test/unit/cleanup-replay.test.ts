// A document read in parts is read twice (core/bytes.ts): the second reading must read the text the first did, not
// only as many characters. A file rewritten in between, at the same size, is refused with one line, whether the
// parts are made again from their recipes or cut again; the stamp does not depend on how either reading is chunked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkDocumentStream, checkText } from '../../src/core';
import { TextStamp } from '../../src/core/parse/text-stamp';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { passesOf } from '../../src/cli/stream';

const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
const span = (n: number, note: string) => ({ traceId: `t${n % 4}`, spanId: `s${n}`, name: 'chat', startTimeUnixNano: String(n), attributes: [attr('gen_ai.operation.name', 'chat'),
  attr('note', note), attr('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: `c${n}`, name: 'get_hours', arguments: { building: n } }] }]))] });
const doc = (note: (n: number) => string) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: 300 }, (_, n) => span(n, note(n))) }] }] });

const text = doc(() => 'a'.repeat(200));
/** The same length, other text: in the head (a tool renamed), or far past it (a note rewritten). */
const renamedInHead = text.replace('get_hours', 'get_houze');
const rewrittenLater = doc((n) => (n === 250 ? 'b'.repeat(200) : 'a'.repeat(200)));
/** A rewrite that leaves the text no longer JSON (a span's opening brace): pass one read it all as JSON, so this
 *  too is a change, not a parse error. */
const brace = text.indexOf('{"traceId"', 100_000);
const brokenLater = text.slice(0, brace) + 'x' + text.slice(brace + 1);

/** Bytes the first time, other bytes every later time, in chunks of `size`. */
function opener(first: string, later: string, size = 1000) {
  let opened = 0;
  return async function* () {
    const bytes = new TextEncoder().encode(opened++ === 0 ? first : later);
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  };
}

const inParts = { wholeChars: 0, partChars: 2000 };

describe('the second reading of a document read in parts', () => {
  it('the test documents are of one length, past the stamp head, and the later rewrite is past it', () => {
    assert.equal(renamedInHead.length, text.length);
    assert.equal(rewrittenLater.length, text.length);
    assert.ok(text.length > 1 << 17, `${text.length} characters`);
    assert.ok(rewrittenLater.indexOf('b'.repeat(200)) > 1 << 16);
  });

  it('reads the same text as a whole read does, whatever the chunks of each reading', async () => {
    const { alone, ...whole } = checkText(text, {});
    void alone;
    let opened = 0;
    const open = async function* () {
      const size = opened++ === 0 ? 1000 : 777;
      const bytes = new TextEncoder().encode(text);
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    };
    const read = await checkDocumentStream(open, {}, inParts);
    assert.equal(read.text, undefined, 'read in parts');
    assert.deepEqual(read.result, whole);
  });

  for (const [what, later] of [['renamed in its head', renamedInHead], ['rewritten far past its head', rewrittenLater], ['broken far past its head', brokenLater]] as const) {
    for (const [how, limits] of [['replayed', inParts], ['cut again', { ...inParts, recipeEntries: 0 }]] as const) {
      it(`refuses a file ${what} between the readings, the same size (parts ${how})`, async () => {
        await assert.rejects(checkDocumentStream(opener(text, later), {}, limits), (e: unknown) => e instanceof Error && e.message === 'the document changed between its two readings');
      });
    }
  }

  it('still refuses a file that grew or shrank', async () => {
    await assert.rejects(checkDocumentStream(opener(text, text + ' '), {}, inParts), /changed between its two readings/);
    await assert.rejects(checkDocumentStream(opener(text, text.slice(0, -1)), {}, inParts), /changed between its two readings/);
  });
});

describe('TextStamp', () => {
  const stamp = (chunks: string[]) => {
    const s = new TextStamp();
    for (const c of chunks) s.push(c);
    return s;
  };
  const cuts = (t: string, size: number) => Array.from({ length: Math.ceil(t.length / size) }, (_, i) => t.slice(i * size, (i + 1) * size));

  it('is the same for the same text in any chunks, and differs for another text of the same length', () => {
    const whole = stamp([text]);
    for (const size of [1, 63, 64, 65, 4096, 1 << 16, (1 << 16) + 1]) assert.ok(stamp(cuts(text.slice(0, 200_000), size)).same(stamp([text.slice(0, 200_000)])), `chunks of ${size}`);
    assert.equal(whole.length, text.length);
    assert.ok(!stamp([renamedInHead]).same(whole));
    assert.ok(!stamp([rewrittenLater]).same(whole));
    assert.ok(!stamp([text.slice(0, -1)]).same(whole));
  });
});

describe('the passes over a file on disk (the CLI)', () => {
  const drain = async (bytes: AsyncIterable<Uint8Array>) => {
    let n = 0;
    for await (const b of bytes) n += b.length;
    return n;
  };
  /** A trace file in a folder of its own, removed after `use`; `touch` moves its mtime a minute on. */
  async function withFile(use: (file: string, touch: () => void) => Promise<void>): Promise<void> {
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-passes-'));
    try {
      const file = path.join(dir, 'trace.json');
      writeFileSync(file, text);
      const later = new Date(Date.now() + 60_000);
      await use(file, () => utimesSync(file, later, later));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('read the file again while it is unchanged, and refuse a pass once it was modified (its mtime), at the same size', () => withFile(async (file, touch) => {
    const open = passesOf(file, false);
    assert.equal(await drain(open()), text.length);
    assert.equal(await drain(open()), text.length, 'unchanged: read again');
    touch();
    await assert.rejects(drain(open()), (e: unknown) => e instanceof Error && e.message === 'the document changed between its two readings');
  }));

  it('refuse a pass during which the file was modified', () => withFile(async (file, touch) => {
    const open = passesOf(file, false);
    const reading = (async () => {
      for await (const _ of open()) {
        void _;
        touch();
      }
    })();
    await assert.rejects(reading, /changed between its two readings/);
  }));
});
