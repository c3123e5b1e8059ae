// Session state bounded by what the checks need, and resumable (issue 13.1): a long session checked in segments,
// a check resumed from a snapshot at any line, and `peek` between lines all give exactly the findings of one whole
// check. The traces: the fixture traces (some Anthropic JSONL turned into Claude Code lines, a format read in
// segments, and repeated so that digests, repeats, ids and offered values cross segments; call records, the other
// one), the Claude Code corpus.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { checkText, TraceChecker, type CheckOptions, type FileResult } from '../../src/core';
import { lines } from '../../src/core/parse/reader';
import { CORPUS, fixture, fixtureContracts } from './helpers';

/** An Anthropic messages JSONL as one Claude Code session, `copies` times over (ids made distinct per copy). */
function asClaudeCode(text: string, copies: number): string {
  const out: string[] = [];
  let n = 0;
  for (let c = 0; c < copies; c++) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const msg = JSON.parse(line.replace(/"(toolu_[\w-]+)"/g, `"$1_c${c}"`)) as { role: string };
      n++;
      const id = msg.role === 'assistant' ? { id: `msg_${n}`, type: 'message' } : {};
      out.push(JSON.stringify({ sessionId: 's1', uuid: `u${n}`, parentUuid: n > 1 ? `u${n - 1}` : null, isSidechain: false, type: msg.role === 'assistant' ? 'assistant' : 'user', message: { ...msg, ...id } }));
    }
  }
  return out.join('\n') + '\n';
}

const contracts = fixtureContracts();
const TRACES: { name: string; text: string }[] = [
  { name: 'boundary as claude-code ×3', text: asClaudeCode(fixture('traces/boundary.anthropic.jsonl'), 3) },
  { name: 'weather as claude-code ×4', text: asClaudeCode(fixture('traces/weather.anthropic.jsonl'), 4) },
  { name: 'hours calls ×5 (a record holds call and result)', text: fixture('traces/hours.calls.jsonl').repeat(5) },
  { name: 'boundary (anthropic)', text: fixture('traces/boundary.anthropic.jsonl') },
  { name: 'weather (openai chat)', text: fixture('traces/weather.openai-chat.jsonl') },
];
if (existsSync(CORPUS)) {
  const dir = path.join(CORPUS, 'claude-code');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.jsonl'))) TRACES.push({ name: `corpus ${f}`, text: readFileSync(path.join(dir, f), 'utf8') });
}

const options: CheckOptions = { fileName: 'trace.jsonl', contracts };
const shown = (r: FileResult) => JSON.stringify({ format: r.format, calls: r.calls, sessions: r.sessions, findings: r.findings });

/** Check `text` line by line: segments of `segmentCalls`, a snapshot handed over before each line in `cuts`, a
 *  peek before each line in `peeks` (compared with a whole check of the text so far). */
function stepwise(text: string, segmentCalls: number, cuts: ReadonlySet<number>, peeks: ReadonlySet<number> = new Set()): FileResult {
  let checker = new TraceChecker({ ...options, segmentCalls });
  let k = 0;
  for (const line of lines(text)) {
    if (peeks.has(k)) assert.equal(shown(checker.peek()), shown(checkText(text.slice(0, line.base), options)), `peek before line ${k + 1}`);
    if (cuts.has(k)) checker = new TraceChecker({ ...options, segmentCalls, resume: checker.snapshot() });
    checker.addLine(line.text, line.base);
    k++;
  }
  return checker.finish();
}

describe('session state in segments, resumable', () => {
  it('the Claude Code traces are read as one long session each (the format read in segments)', () => {
    const r = checkText(TRACES[0].text, options);
    assert.equal(r.format, 'claude-code');
    assert.equal(r.sessions, 1);
    assert.ok(r.findings.length >= 20, `the repeated boundary trace has findings across segments (${r.findings.length})`);
    const codes = new Set(r.findings.map((f) => f.code));
    for (const code of ['stale-digest', 'duplicate-fingerprint', 'assumed-value']) assert.ok(codes.has(code), `${code} is among them`);
  });

  for (const t of TRACES) {
    it(`${t.name}: segments of any size give the findings of one whole check`, () => {
      const whole = shown(checkText(t.text, options));
      for (const size of [1, 2, 3, 5, 1000]) assert.equal(shown(stepwise(t.text, size, new Set())), whole, `segments of ${size}`);
    });
  }

  it('resuming from a snapshot at random lines gives the findings of one whole check (property)', () => {
    for (const t of TRACES.slice(0, 5)) {
      const count = [...lines(t.text)].length;
      const whole = shown(checkText(t.text, options));
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 0, max: count }), { maxLength: 6 }), fc.integer({ min: 1, max: 8 }), (cuts, size) => {
          assert.equal(shown(stepwise(t.text, size, new Set(cuts))), whole);
        }),
        { numRuns: 40 },
      );
    }
  });

  it('peek between lines is the check of the text so far, and leaves the checker going on', () => {
    const t = TRACES[0].text;
    const count = [...lines(t)].length;
    const every = new Set(Array.from({ length: count }, (_, i) => i).filter((i) => i % 9 === 4));
    assert.equal(shown(stepwise(t, 2, new Set([20, 50]), every)), shown(checkText(t, options)));
  });

  it('a snapshot carries facts, not calls: what is settled is checked and let go', () => {
    const checker = new TraceChecker({ ...options, segmentCalls: 1 });
    for (const line of lines(TRACES[0].text)) checker.addLine(line.text, line.base);
    const state = checker.snapshot();
    assert.equal(state.version, 1);
    assert.equal(state.sessions.length, 1);
    const [s] = state.sessions;
    assert.equal(s.format, 'claude-code');
    assert.ok(s.calls > 20, `most calls are settled (${s.calls})`);
    assert.ok(s.state.pairing && s.state.pairing.ids.size > 0, 'pairing carries the ids it saw');
    // plain data: structured-clone copies it whole
    assert.doesNotThrow(() => structuredClone(s.state));
    assert.throws(() => checker.addLine('{}', 0), /handed its state over/);
  });

  it('call records are settled as they are read: a snapshot keeps only the latest call', () => {
    const checker = new TraceChecker({ ...options, segmentCalls: 1 });
    for (const line of lines(TRACES[2].text)) checker.addLine(line.text, line.base);
    const [s] = checker.snapshot().sessions;
    assert.equal(s.format, 'calls');
    assert.equal(s.calls, 29, 'all 30 calls but the latest were checked and let go');
  });

  it('a model or onSession asks for sessions whole: then nothing is cut', () => {
    const seen: number[] = [];
    const r = checkText(TRACES[0].text, { ...options, segmentCalls: 1, onSession: (c) => seen.push(c.session.calls.length) });
    assert.equal(seen.length, 1);
    assert.equal(seen[0], r.calls);
    assert.ok(seen[0] > 20);
  });
});
