// The one incremental pairing state of formats/util.ts (`waitingFor`, `unansweredByName`, `EarliestUnanswered`,
// `callOnce`, `hasCallId`): the same answers as the rescans it replaced (kept below as references), on random
// sessions; linear on a long id-less log; and the small reader fixes that came with it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SessionBuilder, type CallInput } from '../../src/core/formats/builder';
import { callOnce, EarliestUnanswered, hasCallId, unansweredByName, waitingFor } from '../../src/core/formats/util';
import { readAsLines } from '../../src/core/formats/adapter';
import { crewai } from '../../src/core/formats/crewai';
import { topDoc } from '../../src/core/parse/doc';
import type { Session, ToolCall, ToolResult } from '../../src/core/model';
import { readModel } from './helpers';

// ---- the rescans it replaced, as they were ------------------------------------------------------------------

function refUnansweredByName(s: Session, name?: string): number | undefined {
  const answered = new Set<string | number>();
  for (const r of s.results) {
    if (r.callIndex !== undefined) answered.add(r.callIndex);
    if (r.callId !== undefined) answered.add(r.callId);
  }
  const i = s.calls.findIndex((c, k) => (name === undefined || c.name === name) && !(answered.has(k) || (c.id !== undefined && answered.has(c.id))));
  return i >= 0 ? i : undefined;
}

function refWaitingFor(s: Session, id: string): boolean {
  let calls = 0;
  for (const c of s.calls) if (c.id === id) calls++;
  if (calls === 0) return false;
  let results = 0;
  for (const r of s.results) if (r.callId === id) results++;
  return calls > results;
}

// ---- random sessions ------------------------------------------------------------------------------------------

const doc = topDoc('{}', 0, {});
const NAMES = ['a', 'b', 'c'];
const IDS = ['x', 'y', 'z', '', 'x#0'];
const PARALLEL = 'multi_tool_use.parallel';

const input = (name: string, id?: string, args: unknown = {}): CallInput => ({ name, id, at: { doc, path: [] }, namePath: [], argsPath: [], args, expect: 'any' });
/** A parallel wrapper: the builder stores its inner calls (`a`, `b`) as `id#0`, `id#1`. */
const wrapper = (id?: string) => input(PARALLEL, id, { tool_uses: [{ recipient_name: 'functions.a', parameters: {} }, { recipient_name: 'b', parameters: {} }] });

type Op =
  | { k: 'call'; name: string; id?: string }
  | { k: 'wrap'; id?: string }
  | { k: 'result'; callId?: string; callIndex?: number }
  | { k: 'ask' }
  | { k: 'cut'; calls: boolean; keep: number };

const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('call' as const), name: fc.constantFrom(...NAMES), id: maybe(fc.constantFrom(...IDS)) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('wrap' as const), id: maybe(fc.constantFrom('x', 'y')) }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('result' as const), callId: maybe(fc.constantFrom(...IDS, 'x#1')), callIndex: maybe(fc.nat(14)) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('ask' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cut' as const), calls: fc.boolean(), keep: fc.nat(10) }) },
);

function same(b: SessionBuilder): void {
  const s = b.session;
  for (const id of [...IDS, 'x#1', 'w']) {
    assert.equal(waitingFor(b, id), refWaitingFor(s, id), `waitingFor ${JSON.stringify(id)}`);
    assert.equal(hasCallId(b, id), s.calls.some((c) => c.id === id), `hasCallId ${JSON.stringify(id)}`);
  }
  for (const name of [...NAMES, PARALLEL, 'none', undefined]) assert.equal(unansweredByName(b, name), refUnansweredByName(s, name), `unansweredByName ${name}`);
  assert.equal(new EarliestUnanswered(b).get(), refUnansweredByName(s));
}

describe('pairing state: the same answers as the rescans', () => {
  it('waitingFor, hasCallId, unansweredByName and EarliestUnanswered agree with the old rescans on random sessions (repeated ids and names, missing ids, results by index, arrays cut short)', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const b = new SessionBuilder();
      for (const o of ops) {
        if (o.k === 'call') b.call(input(o.name, o.id));
        else if (o.k === 'wrap') b.call(wrapper(o.id));
        else if (o.k === 'result') b.result({ at: { doc, path: [] }, callId: o.callId, callIndex: o.callIndex });
        else if (o.k === 'cut') (o.calls ? b.session.calls : b.session.results).length = Math.min(o.keep, (o.calls ? b.session.calls : b.session.results).length);
        else same(b);
      }
      same(b);
    }), { numRuns: 400 });
  });

  it('arrays replaced by new ones are read again', () => {
    const b = new SessionBuilder();
    b.call(input('a', 'x'));
    assert.equal(waitingFor(b, 'x'), true);
    (b.session as { calls: ToolCall[] }).calls = [];
    (b.session as { results: ToolResult[] }).results = [];
    same(b);
    b.call(input('b'));
    same(b);
  });

  it('slots a segmented session let go (a settled prefix of calls and results, state.ts) are settled: no throw, not waited for', () => {
    const b = new SessionBuilder();
    b.call(input('a'));
    b.call(input('a'));
    b.result({ at: { doc, path: [] }, callIndex: 0 });
    (b.session.calls as (ToolCall | undefined)[])[0] = undefined;
    (b.session.results as (ToolResult | undefined)[])[0] = undefined;
    assert.equal(unansweredByName(b, 'a'), 1);
    assert.equal(unansweredByName(b), 1);
    b.result({ at: { doc, path: [] }, callIndex: 1 });
    assert.equal(unansweredByName(b, 'a'), undefined);
    b.call(input('a'));
    assert.equal(unansweredByName(b, 'a'), 2);
  });
});

// ---- the readers' rule: the first sighting of an id is the call, a result answers it once ----------------------

type ReaderOp = { k: 'call'; name: string; id?: string } | { k: 'result'; id?: string };

/** The private sets ai-sdk (`orphans`: a result whose call is not in the stream is kept), agno and llamaindex kept. */
function refReader(ops: ReaderOp[], orphans: boolean): Session {
  const b = new SessionBuilder();
  const seen = new Set<string>();
  const answered = new Set<string>();
  for (const o of ops) {
    if (o.k === 'call') {
      if (o.id !== undefined) {
        if (seen.has(o.id)) continue;
        seen.add(o.id);
      }
      b.call(o.name === PARALLEL ? wrapper(o.id) : input(o.name, o.id));
    } else if (o.id === undefined) b.result({ at: { doc, path: [] } });
    else if (orphans) {
      if (seen.has(o.id) && answered.has(o.id)) continue;
      answered.add(o.id);
      b.result({ at: { doc, path: [] }, callId: o.id });
    } else {
      if (!seen.has(o.id) || answered.has(o.id)) continue;
      answered.add(o.id);
      b.result({ at: { doc, path: [] }, callId: o.id });
    }
  }
  return b.session;
}

function newReader(ops: ReaderOp[], orphans: boolean): Session {
  const b = new SessionBuilder();
  for (const o of ops) {
    if (o.k === 'call') callOnce(b, o.name === PARALLEL ? wrapper(o.id) : input(o.name, o.id), () => b.currentTurn());
    else if (o.id === undefined) b.result({ at: { doc, path: [] } });
    else if (orphans ? !(hasCallId(b, o.id) && !waitingFor(b, o.id)) : waitingFor(b, o.id)) b.result({ at: { doc, path: [] }, callId: o.id });
  }
  return b.session;
}

const shape = (s: Session) => ({ calls: s.calls.map((c) => [c.name, c.id]), results: s.results.map((r) => r.callId) });

describe('pairing state: callOnce and the readers that kept their own sets', () => {
  const readerOp: fc.Arbitrary<ReaderOp> = fc.oneof(
    fc.record({ k: fc.constant('call' as const), name: fc.constantFrom('a', 'b', PARALLEL), id: maybe(fc.constantFrom('x', 'y', 'z')) }),
    fc.record({ k: fc.constant('result' as const), id: maybe(fc.constantFrom('x', 'y', 'z', 'w')) }),
  );
  for (const orphans of [true, false]) {
    it(`makes the same calls and results as the private seen/answered sets (${orphans ? 'ai-sdk: orphan results kept' : 'agno, llamaindex: results of unknown calls dropped'}), parallel wrappers included`, () => {
      fc.assert(fc.property(fc.array(readerOp, { maxLength: 40 }), (ops) => {
        assert.deepEqual(shape(newReader(ops, orphans)), shape(refReader(ops, orphans)));
      }), { numRuns: 400 });
    });
  }

  // The one difference from the private sets, on purpose: they knew the ids their reader gave, not the session's,
  // so an id equal to one the builder made for a parallel wrapper's inner call (`x#0`) was called a second time.
  it('does not make a second call with an id the session has (a wrapper\'s inner `x#0`), and answers it once', () => {
    const ops: ReaderOp[] = [{ k: 'call', name: PARALLEL, id: 'x' }, { k: 'call', name: 'a', id: 'x#0' }, { k: 'result', id: 'x#0' }, { k: 'result', id: 'x#0' }, { k: 'result', id: 'x' }];
    for (const orphans of [true, false]) {
      assert.deepEqual(shape(newReader(ops, orphans)), { calls: [['a', 'x#0'], ['b', 'x#1']], results: ['x#0', 'x'] });
    }
  });

  it('asks for the turn only when it makes the call', () => {
    const b = new SessionBuilder();
    let asked = 0;
    const turn = () => (asked++, b.newTurn());
    assert.ok(callOnce(b, input('a', 'x'), turn));
    assert.equal(callOnce(b, input('a', 'x'), turn), undefined);
    assert.equal(asked, 1);
    assert.equal(b.session.turns, 1);
  });
});

// ---- a long id-less log -------------------------------------------------------------------------------------------

/** CrewAI bus events without ids: `n` calls and `n` results, `block` starts then `block` finishes, two tools. */
function crewLines(n: number, block: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i += block) {
    for (let k = 0; k < block; k++) out.push({ type: 'tool_usage_started', tool_name: k % 2 ? 'search' : 'read', tool_args: { q: String(i + k) }, agent_role: 'r' });
    for (let k = 0; k < block; k++) out.push({ type: 'tool_usage_finished', tool_name: k % 2 ? 'search' : 'read', output: String(i + k), agent_role: 'r' });
  }
  return out;
}

describe('pairing state: a long id-less log', () => {
  it('reads 200k results that name no call, each paired with the earliest open call of its tool', () => {
    const n = 200_000;
    const sessions: Session[] = [];
    readAsLines(crewai.lines!, crewLines(n, 1000).map((v) => topDoc('', 0, v)), (s) => sessions.push(s));
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.equal(s.calls.length, n);
    assert.equal(s.results.length, n);
    // the k-th result answers the call whose query is its output
    for (let k = 0; k < n; k += 997) assert.equal((s.calls[s.results[k].callIndex!].args as { q: string }).q, s.results[k].payload);
    assert.equal(s.results.every((r, k) => r.callIndex !== undefined && (k === 0 || r.callIndex !== s.results[k - 1].callIndex)), true);
  });

  it('looks at each call a bounded number of times, however many results ask (the rescans looked at every call per result)', () => {
    const b = new SessionBuilder();
    let reads = 0;
    const calls: ToolCall[] = [];
    (b.session as { calls: ToolCall[] }).calls = new Proxy(calls, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const n = 20_000;
    for (let i = 0; i < n; i++) b.call(input(i % 2 ? 'a' : 'b'));
    for (let i = 0; i < n; i++) {
      const k = unansweredByName(b, i % 2 ? 'a' : 'b');
      assert.notEqual(k, undefined);
      b.result({ at: { doc, path: [] }, callIndex: k });
    }
    assert.equal(unansweredByName(b), undefined);
    // a few reads per call and per question (the rescans read all 20k calls per question: 2e8 reads)
    assert.ok(reads <= 8 * n, `${reads} reads of calls for ${n} calls and ${n} questions`);
  });
});

// ---- the reader leftovers -----------------------------------------------------------------------------------------

describe('AI SDK: a refused call (tool-output-denied)', () => {
  const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  it('is a failed result of its call, read once, not an unanswered call', () => {
    const text = jsonl([
      { type: 'start' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'deleteFile', input: { path: 'a.txt' } },
      { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
      { type: 'tool-output-denied', toolCallId: 'c1' },
      { type: 'tool-output-denied', toolCallId: 'c1' },
      { type: 'finish' },
    ]);
    const { r, sessions, codes } = readModel(text, { fileName: 'ui.jsonl' });
    assert.equal(r.format, 'ai-sdk');
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError, x.payload]), [['c1', true, undefined]]);
    assert.deepEqual(codes.filter((c) => c.startsWith('orphan')), []);
  });
});

describe('LlamaIndex: a message with empty blocks', () => {
  it('falls back to its content for the text, and an empty tool message still answers its call', () => {
    const text = JSON.stringify([
      { role: 'user', blocks: [] },
      { role: 'assistant', additional_kwargs: { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, blocks: [], content: 'calling {f} now' },
      { role: 'tool', additional_kwargs: { tool_call_id: 'c1' }, blocks: [] },
      { role: 'assistant', additional_kwargs: {}, blocks: [], content: '<tool_call>{"name": "f"}</tool_call>' },
    ]);
    const { r, sessions, codes } = readModel(text);
    assert.equal(r.format, 'llamaindex');
    const s = sessions[0];
    assert.equal(s.calls[0].messageText, 'calling {f} now');
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['c1', undefined]]);
    assert.deepEqual(s.texts?.map((t) => t.text), ['<tool_call>{"name": "f"}</tool_call>']);
    assert.deepEqual(codes.filter((c) => c.startsWith('orphan')), []);
  });
});

describe('spans: a recorded Responses API `response` attribute', () => {
  it('is decoded once, for its calls and its tool definitions both', () => {
    const J = (v: unknown) => JSON.stringify(v);
    const response = J({ id: 'resp_1', object: 'response', status: 'completed',
      output: [{ id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'roll', arguments: J({ sides: 6 }), status: 'completed' }],
      tools: [{ type: 'function', name: 'roll', parameters: { type: 'object', properties: { sides: { type: 'integer' } } } }] });
    const text = J({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'logfire' }, spans: [{
      traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203300', name: 'Responses API', startTimeUnixNano: '1750000000000000000', status: {},
      attributes: [{ key: 'gen_ai.system', value: { stringValue: 'openai' } }, { key: 'response', value: { stringValue: response } }] }] }] }] });
    const parse = JSON.parse;
    let decoded = 0;
    JSON.parse = ((s: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      if (s === response) decoded++;
      return parse(s, reviver) as unknown;
    }) as typeof JSON.parse;
    let sessions: Session[];
    try {
      ({ sessions } = readModel(text, { fileName: 'trace.json' }));
    } finally {
      JSON.parse = parse;
    }
    assert.deepEqual(sessions.flatMap((s) => s.calls.map((c) => c.id)), ['call_1']);
    assert.deepEqual(sessions.flatMap((s) => s.tools.map((t) => t.name)), ['roll']);
    assert.equal(decoded, 1);
  });
});
