// One JSON document read in parts (parse/split.ts, bytes.ts checkDocumentStream): the parts hold every element once,
// in order, their anchors resolve into the file, and the findings are those of reading the document whole: on OTLP
// exports (several resourceSpans, interleaved traces, pretty-printed), the bench's OTLP case, the corpus OTLP files
// and an array of wrapped conversations. A document whose format reads it only whole is read whole; past the
// limits, one line says which.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { checkDocumentStream, checkText, ReadLimit, type CheckOptions, type FileResult, type StreamLimits } from '../../src/core';
import { DocumentSplitter, SplitError, type Part } from '../../src/core/parse/split';
import { CORPUS, fixture, fixtureContracts, ROOT } from './helpers';

/** The bytes of `text`, `chunk` bytes at a time (cutting UTF-8 sequences too). */
function source(text: string, chunk: number): () => AsyncIterable<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return async function* () {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  };
}

async function inParts(text: string, options: CheckOptions = {}, limits: Partial<StreamLimits> = {}, chunk = 4096) {
  return checkDocumentStream(source(text, chunk), options, { wholeChars: 0, ...limits });
}

/** A result without `alone` (whether every unit was read on its own by a document reader: parts are read by the
 *  line reader, so it is not said of them; the CLI's --jobs uses it for slices of lines only). */
function comparable(r: FileResult): FileResult {
  const { alone, ...rest } = r;
  void alone;
  return rest;
}

/** Read in parts (never whole) and read whole give the same result, at several part sizes; elements under
 *  `elementChars` (spans, conversations) are not cut inside, larger ones (a resourceSpans) may be. */
async function sameBothWays(text: string, options: CheckOptions, elementChars: number, sizes = [1, 200, 5000, 1 << 20]) {
  const whole = checkText(text, options);
  assert.ok(whole.findings.length > 0, 'the document has findings to compare');
  for (const partChars of sizes) {
    const parts = await inParts(text, options, { partChars, elementChars }, 997);
    if (partChars < text.length) assert.equal(parts.text, undefined, `read in parts (part size ${partChars})`);
    assert.deepEqual(comparable(parts.result), comparable(whole), `part size ${partChars}`);
  }
}

function split(text: string, partChars: number, chunk: number): Part[] {
  const parts: Part[] = [];
  const splitter = new DocumentSplitter({ partChars, elementChars: 1 << 20, maxHeld: 1 << 20 }, (p) => parts.push(p));
  for (let i = 0; i < text.length; i += chunk) splitter.push(text.slice(i, i + chunk));
  splitter.end();
  return parts;
}

const s = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** An OTLP export with two resourceSpans (two scopes in the first), trace A's spans at both ends of the file and
 *  trace B's in between; a drifted argument, an unanswered call, a failed tool span. */
function otlpExport(): string {
  const chat = (trace: string, id: string, args: object) => ({ traceId: trace, spanId: `${id}c`, name: 'chat', startTimeUnixNano: '10', attributes: [s('gen_ai.operation.name', 'chat'), s('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id, name: 'get_hours', arguments: args }] }]))] });
  const tool = (trace: string, id: string, code = 1) => ({ traceId: trace, spanId: `${id}t`, name: 'execute_tool get_hours', startTimeUnixNano: '20', status: { code }, attributes: [s('gen_ai.operation.name', 'execute_tool'), s('gen_ai.tool.name', 'get_hours'), s('gen_ai.tool.call.id', id), s('gen_ai.tool.call.result', code === 2 ? '{"error": "closed \\"today\\""}' : '{"open": "08:00"}')] });
  const plain = (trace: string, n: number) => ({ traceId: trace, spanId: `p${n}`, name: 'GET /é/ü', attributes: [s('url.full', `https://x.example/${'\\'.repeat(n % 4)}"${n}`)] });
  const filler = (trace: string, from: number) => Array.from({ length: 12 }, (_, i) => plain(trace, from + i));
  return JSON.stringify({
    resourceSpans: [
      { resource: { attributes: [s('service.name', 'a')] }, scopeSpans: [
        { scope: { name: 'one' }, spans: [chat('A', 'a1', { building: 'Killam', weekday: true }), ...filler('A', 0), chat('B', 'b1', { building: 'Killam', weekday: 2 })] },
        { scope: { name: 'two' }, spans: [...filler('B', 20), tool('B', 'b1', 2), chat('B', 'b2', { building: 'Killam', weekday: '3' })] },
      ] },
      { resource: { attributes: [s('service.name', 'b')] }, scopeSpans: [{ scope: { name: 'three' }, spans: [...filler('C', 40), tool('A', 'a1')] }] },
    ],
  }, null, 2);
}

describe('a document read in parts', () => {
  it('carries every element once, in order, with offsets into the file', () => {
    const items = [{ a: 'q"uote\\', b: [1, 2.5e3, -1.5] }, 'é😀\\"', [], {}, null, true, 1234567890123, { deep: { deeper: [{ x: '\\\\' }] } }];
    const text = ` \n{"meta": {"n": 1}, "name": "x", "items": ${JSON.stringify(items, null, 1)} , "tail": 3}\n`;
    for (const partChars of [1, 7, 64, 1 << 20]) {
      for (const chunk of [1, 2, 3, 5, 17, 1 << 20]) {
        const parts = split(text, partChars, chunk);
        const carried = parts.flatMap((p) => {
          const v = JSON.parse(p.text) as { items?: unknown[]; name?: string };
          if (v.items) assert.equal(v.name, 'x', 'a scalar of the skeleton is in every part after it');
          // every piece of a part is the file's text at the offset the map gives
          p.map.text.forEach((t, i) => assert.equal(p.text[t], text[p.map.file[i]]));
          return v.items ?? [];
        });
        assert.deepEqual(carried, items, `part size ${partChars}, chunks of ${chunk}`);
        assert.equal(parts.filter((p) => (JSON.parse(p.text) as { meta?: unknown }).meta !== undefined).length, 1, 'a container of the skeleton is carried once');
      }
    }
  });

  it('says where the structure is broken, whatever the chunks', () => {
    const cases: [string, number][] = [['{"a": 1,}', 8], ['[1 2]', 3], ['{"a" 1}', 5], ['[1]]', 3], ['[1] x', 4], ['{"a": "b', 8], ['', 0], ['[', 1], ['{1: 2}', 1]];
    for (const [text, offset] of cases) {
      for (const chunk of [1, 3, 100]) {
        assert.throws(() => split(text, 1, chunk), (e: unknown) => e instanceof SplitError && e.offset === offset, JSON.stringify(text));
      }
    }
  });

  it('reads an OTLP export (several resourceSpans, a trace at both ends) as the whole is read', async () => {
    await sameBothWays(otlpExport(), { contracts: fixtureContracts() }, 1000);
  });

  it('reads the bench OTLP case as the whole is read', async () => {
    // the bench's generator is plain JS (test/bench is not compiled)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { generateOtlp } = require(path.join(ROOT, 'test', 'bench', 'formats.js')) as { generateOtlp: (file: string, mb: number) => unknown };
    const dir = mkdtempSync(path.join(tmpdir(), 'cg-parts-'));
    try {
      const file = path.join(dir, 'otlp.json');
      generateOtlp(file, 1);
      await sameBothWays(readFileSync(file, 'utf8'), { contracts: fixtureContracts() }, 4000, [3000, 64 << 10]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the corpus OTLP files as the whole is read', { skip: !existsSync(path.join(CORPUS, 'otel')) && 'no ../shared/corpus' }, async () => {
    const dir = path.join(CORPUS, 'otel');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length > 0);
    for (const f of files) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      const whole = checkText(text, {});
      for (const partChars of [1, 300]) {
        const parts = await inParts(text, {}, { partChars }, 61);
        assert.deepEqual(comparable(parts.result), comparable(whole), `${f}, part size ${partChars}`);
      }
    }
  });

  it('reads an array of wrapped conversations as the whole is read', async () => {
    const lines = fixture('traces/weather.openai-chat.jsonl').split('\n').filter((l) => {
      try {
        return JSON.parse(l) !== undefined;
      } catch {
        return false;
      }
    });
    const text = `{"export": {"version": 2, "runs": [\n${lines.join(',\n')}\n]}}`;
    await sameBothWays(text, { contracts: fixtureContracts() }, 1 << 20);
  });

  it('reads whole a document whose format reads it only whole, or says which limit stops it', async () => {
    const text = fixture('traces/rooms.openai-chat.json');
    const whole = checkText(text, { contracts: fixtureContracts() });
    const read = await inParts(text, { contracts: fixtureContracts() }, { partChars: 100 });
    assert.equal(read.text, text);
    assert.deepEqual(read.result, whole);
    await assert.rejects(inParts(text, {}, { partChars: 100, maxWholeChars: 1000 }), (e: unknown) => e instanceof ReadLimit && /^limit reached: this JSON document is over .* \(the most read whole\) and its format reads it only whole$/.test(e.message));
  });

  it('gives a broken document the parse error a whole read gives, or one of its own when too large to read whole', async () => {
    const text = `{"resourceSpans": [${'{"traceId": "a", "attributes": []},'.repeat(50)} {"traceId": "b",, "x": 1}]}`;
    const whole = checkText(text, {});
    assert.equal(whole.findings[0].code, 'parse-error');
    assert.deepEqual((await inParts(text, {}, { partChars: 100 })).result, whole);
    const large = await inParts(text, {}, { partChars: 100, maxWholeChars: 100 });
    assert.deepEqual(large.result.findings.map((f) => [f.code, f.span.start]), [['parse-error', text.indexOf(',,') + 1]]);
    const bad = text.replace('"b",,', '"b\\q",');
    const broken = await inParts(bad, {}, { partChars: 100, maxWholeChars: 100 });
    assert.equal(broken.result.findings[0].code, 'parse-error');
    assert.match(broken.result.findings[0].message, /^not valid JSON/);
  });

  it('refuses in one line a value with nothing to cut it at, past the most held', async () => {
    const text = `{"a": "${'x'.repeat(5000)}"}`;
    await assert.rejects(inParts(text, {}, { partChars: 10, maxHeld: 1000 }), (e: unknown) => e instanceof ReadLimit && /^limit reached: a value of this document over \d+ MB has no array or object to cut it at/.test(e.message));
  });

  it('stops with the one line the watch over memory gives', async () => {
    let asked = 0;
    const check = () => (++asked === 3 ? 'limit reached: the heap' : undefined);
    await assert.rejects(inParts(otlpExport(), {}, { partChars: 100, elementChars: 1000, check }), (e: unknown) => e instanceof ReadLimit && e.message === 'limit reached: the heap');
    assert.equal(asked, 3);
  });

  it('hands JSON lines back to be read as lines', async () => {
    const line = JSON.stringify(JSON.parse(otlpExport()));
    const read = await inParts(`${line}\n${line}\n`, {}, { partChars: 10 });
    assert.equal(read.lines, true);
  });

  it('reads a small document whole, exactly as checkText', async () => {
    const text = '\ufeff' + fixture('traces/rooms.openai-chat.json');
    const read = await checkDocumentStream(source(text, 5), { contracts: fixtureContracts() });
    assert.equal(read.text, text.slice(1));
    assert.deepEqual(read.result, checkText(text, { contracts: fixtureContracts() }));
  });
});
