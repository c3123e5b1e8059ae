// The core's incremental check (src/core/incremental.ts): after any sequence of line edits, patching only the
// changed lines gives what a whole check of the new text gives; and the one decision of where a check runs
// (src/core/plan.ts) and how a text is read (parse/reader readingOf).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkPlan, checkText, checkTextChunked, IN_PLACE_LIMIT, LineIndependentTrace, type CheckOptions, type FileResult, type Finding, type LineSource } from '../../src/core';
import { readingOf } from '../../src/core/parse/reader';
import { fixture, fixtureContracts } from './helpers';

/** A finding without its session index (a line checked alone is session 0; its place in the file says the rest). */
const plain = ({ session: _session, ...f }: Finding) => f;
const comparable = (r: FileResult) => ({ format: r.format, calls: r.calls, sessions: r.sessions, findings: r.findings.map(plain) });

function source(lines: string[]): LineSource {
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  return { lineCount: lines.length, lineText: (i) => lines[i], lineStart: (i) => starts[i] };
}

describe('LineIndependentTrace (incremental re-checking, in the core)', () => {
  const contracts = fixtureContracts();
  const options: CheckOptions = { fileName: 'weather.openai-chat.jsonl', contracts };
  const text = fixture('traces/weather.openai-chat.jsonl');
  const original = text.split('\n');
  // lines an edit may bring: the file's own, a broken one, a blank one, one with a bad value
  const pool = [...original.filter((l) => l.trim() !== ''), '{"messages": [', '', original[0].replace('\\"units\\": \\"metric\\"', '\\"units\\": \\"kelvin\\"')];

  it('after random edits, a patch equals a whole check of the new text', async () => {
    let compared = 0;
    const edit = fc.record({ at: fc.nat(), span: fc.nat({ max: 3 }), lines: fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 3 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
        const table = await LineIndependentTrace.from(text, checkText(text, options), options, 1);
        assert.ok(table, 'the fixture is line-independent');
        let lines = original.slice();
        let version = 1;
        for (const e of edits) {
          const startLine = e.at % lines.length;
          const endLine = Math.min(lines.length - 1, startLine + e.span);
          table.applyChange({ startLine, endLine, text: e.lines.join('\n') }, ++version);
          lines = [...lines.slice(0, startLine), ...e.lines, ...lines.slice(endLine + 1)];
        }
        const stats = { checked: 0, lines: 0 };
        const patched = table.update(source(lines), stats);
        const whole = checkText(lines.join('\n'), options);
        if (!patched) return; // too much changed, or an event line came in: the editor checks whole then
        assert.deepEqual(comparable(patched), comparable(whole));
        compared++;
        assert.equal(stats.lines, lines.length);
        assert.ok(stats.checked <= edits.reduce((n, e) => n + e.lines.length, 0), 'only the lines the edits brought');
      }),
      { numRuns: 60 },
    );
    assert.ok(compared > 40, `most edit sequences were patched (${compared} of 60)`);
  });

  it('an edit that leaves one line of content is checked whole: such a text reads as one document', async () => {
    const table = await LineIndependentTrace.from(text, checkText(text, options), options, 1);
    assert.ok(table);
    const lines = ['{"messages": [', ''];
    table.applyChange({ startLine: 0, endLine: original.length - 1, text: lines.join('\n') }, 2);
    assert.equal(table.update(source(lines)), undefined);
    const whole = checkText(lines.join('\n'), options);
    assert.deepEqual(whole.findings.map((f) => f.code), ['parse-error']);
  });

  it('a trace whose lines are events of one conversation has no line table', async () => {
    const calls = fixture('traces/hours.calls.jsonl');
    assert.equal(await LineIndependentTrace.from(calls, checkText(calls, { contracts }), { contracts }, 1), undefined);
  });
});

describe('checkPlan: where a whole check runs', () => {
  const big = (line: string) => `${line}\n`.repeat(Math.ceil((IN_PLACE_LIMIT + 1) / (line.length + 1)));
  const jsonl = big('{"name": "get_hours", "arguments": {"building": "A"}}');
  const document = `[${big('{"name": "get_hours", "arguments": {"building": "A"}},')}{}]`;
  it('in place when small, wherever it is', () => {
    assert.equal(checkPlan('{"name": "x", "arguments": {}}\n', 'a.jsonl', { worker: true }), 'in-place');
    assert.equal(checkPlan('{"name": "x", "arguments": {}}\n', 'a.jsonl', { worker: false }), 'in-place');
  });
  it('on a worker thread when large and the host has one', () => {
    assert.equal(checkPlan(jsonl, 'a.jsonl', { worker: true }), 'worker');
    assert.equal(checkPlan(document, 'a.json', { worker: true }), 'worker');
  });
  it('without one: JSONL in slices, one document in place (it cannot be cut)', () => {
    assert.equal(checkPlan(jsonl, 'a.jsonl', { worker: false }), 'sliced');
    assert.equal(checkPlan(jsonl, undefined, { worker: false }), 'sliced', 'by the bytes, whatever the name');
    assert.equal(checkPlan(document, 'a.json', { worker: false }), 'in-place');
  });
});

describe('readingOf: the one decision of how the engine reads a text', () => {
  const call = (n: number) => JSON.stringify({ name: 'get_hours', arguments: { building: `B${n}` } });
  it('a document is parsed there, once, and handed over', () => {
    const r = readingOf('{\n  "messages": []\n}\n');
    assert.equal(r.shape, 'document');
    assert.ok(r.shape === 'document' && r.unit.ok);
  });
  it('a broken document stays a document with its parse failure', () => {
    const r = readingOf('{\n  "messages": [\n');
    assert.ok(r.shape === 'document' && !r.unit.ok);
  });
  it('JSONL with a broken first line is lines, and the chunked check reads it line by line too', async () => {
    const text = `{"name": "get_hours", "argum\n${call(1)}\n${call(2)}\n`;
    assert.equal(readingOf(text).shape, 'lines');
    const seen: string[] = [];
    const chunked = await checkTextChunked(text, {}, { sliceMs: 0, onLine: (l) => seen.push(l) });
    assert.deepEqual(chunked, checkText(text));
    assert.equal(seen.filter((l) => l.trim() !== '').length, 3, 'each line handed over (the worker learns line independence from them)');
  });
});
