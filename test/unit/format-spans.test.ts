// Span reading shared by the otel and openinference readers (src/core/formats/spans.ts): which listed call is a copy
// of one read before (ids, else tool and arguments as often as a history shows them), which call a result without
// an id answers, and ids reused by other calls. Traces are small, synthetic, written here (OTel GenAI span arrays).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, type Session } from '../../src/core';

const CROSS = new Set(['orphan-call', 'orphan-result', 'duplicate-call-id', 'duplicate-fingerprint', 'status-theater']);

function read(spans: unknown[]) {
  const r = checkText(JSON.stringify(spans, null, 2), { fileName: 'spans.json', keepModel: true, packs: false });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const cross = r.findings.filter((f) => CROSS.has(f.code)).map((f) => `${f.code}${f.severity === 'info' ? ':info' : ''} ${f.tool ?? ''}`.trim());
  assert.equal(r.format, 'otel');
  assert.equal(sessions.length, 1);
  return { r, s: sessions[0], cross, findings: r.findings };
}

/** Which call each result answers, as `name#index`. */
function pairs(s: Session): string[] {
  return s.results.map((x) => {
    const i = x.callId !== undefined ? s.calls.findIndex((c) => c.id === x.callId && !s.results.slice(0, s.results.indexOf(x)).some((y) => y.callId === c.id)) : x.callIndex ?? -1;
    return i >= 0 ? `${s.calls[i].name}#${i}` : 'none';
  });
}

let clock = 0;
function span(attributes: Record<string, unknown>) {
  const n = clock++;
  return { name: String(attributes['gen_ai.operation.name']), context: { trace_id: 't', span_id: `s${n}` }, start_time: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(), attributes };
}

type Part = { type: 'tool_call'; id?: string; name: string; arguments: object } | { type: 'tool_call_response'; id?: string; response: string } | { type: 'text'; content: string };
const call = (name: string, args: object, id?: string): Part => ({ type: 'tool_call', name, arguments: args, ...(id ? { id } : {}) });
const response = (text: string, id?: string): Part => ({ type: 'tool_call_response', response: text, ...(id ? { id } : {}) });
const msg = (role: string, ...parts: Part[]) => ({ role, parts });
const user = msg('user', { type: 'text', content: 'go' });

/** A chat span: its input history and output messages, as JSON strings (as exporters write them). */
const chat = (input: unknown[], output: unknown[]) => span({ 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': JSON.stringify(input), 'gen_ai.output.messages': JSON.stringify(output) });
/** An execute_tool span, with or without the call id. */
const tool = (name: string, result: string, id?: string) => span({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, ...(id ? { 'gen_ai.tool.call.id': id } : {}), 'gen_ai.tool.call.result': result });

describe('spans: copies of a call', () => {
  it('a history without ids is a replay: each call and result once, however many spans replay it', () => {
    const first = msg('assistant', call('lookup', { q: 'a' }));
    const { s, cross } = read([
      chat([user], [first]), tool('lookup', 'A'),
      chat([user, first, msg('tool', response('A'))], [msg('assistant', call('fetch', { url: 'u' }))]), tool('fetch', 'U'),
      chat([user, first, msg('tool', response('A')), msg('assistant', call('fetch', { url: 'u' })), msg('tool', response('U'))], [msg('assistant', { type: 'text', content: 'done' })]),
    ]);
    assert.deepEqual(s.calls.map((c) => c.name), ['lookup', 'fetch']);
    assert.deepEqual(pairs(s), ['lookup#0', 'fetch#1']);
    assert.deepEqual(cross, []);
  });

  it('a history that shows the same call twice holds two calls (a repeat), each read once', () => {
    const ask = msg('assistant', call('lookup', { q: 'a' }));
    const { s, cross } = read([
      chat([user], [ask]), tool('lookup', 'A'),
      chat([user, ask, msg('tool', response('A'))], [ask]), tool('lookup', 'A'),
      chat([user, ask, msg('tool', response('A')), ask, msg('tool', response('A'))], []),
    ]);
    assert.equal(s.calls.length, 2);
    assert.equal(s.results.length, 2);
    assert.deepEqual(pairs(s), ['lookup#0', 'lookup#1']);
    assert.deepEqual(cross, ['duplicate-fingerprint lookup']);
  });

  it('a history read first (no output before it) gives its calls; its results without ids answer the calls of the message before them', () => {
    const { s, cross } = read([chat([user, msg('assistant', call('lookup', { q: 'a' }), call('fetch', { url: 'u' })), msg('tool', response('A')), msg('tool', response('U')), msg('user', { type: 'text', content: 'more' })], [])]);
    assert.deepEqual(s.calls.map((c) => c.name), ['lookup', 'fetch']);
    assert.deepEqual(s.results.map((x) => x.callIndex), [0, 1]);
    assert.deepEqual(cross, []);
  });

  it('one call output by two spans (an agent span and its model span) with one id is read once', () => {
    const out = [msg('assistant', call('lookup', { q: 'a' }, 'c1'))];
    const { s, cross } = read([chat([user], out), chat([user], out), tool('lookup', 'A', 'c1')]);
    assert.equal(s.calls.length, 1);
    assert.equal(s.results.length, 1);
    assert.deepEqual(cross, []);
  });
});

describe('spans: pairing tool spans', () => {
  it('tool spans without an id answer the earliest unanswered call of their tool, in order', () => {
    const { s, cross } = read([
      chat([user], [msg('assistant', call('lookup', { q: 'a' }), call('fetch', { url: 'u' }), call('lookup', { q: 'b' }))]),
      tool('lookup', 'A'), tool('lookup', 'B'), tool('fetch', 'U'),
      chat([user], []),
    ]);
    assert.equal(s.calls.length, 3, 'no tool span became a call of its own');
    assert.deepEqual(pairs(s), ['lookup#0', 'lookup#2', 'fetch#1']);
    assert.deepEqual(cross, []);
  });

  it('a tool span without an id whose tool no call waits for is a call and its result', () => {
    const { s, cross } = read([chat([user], [msg('assistant', call('lookup', { q: 'a' }))]), tool('lookup', 'A'), tool('lookup', 'again')]);
    assert.equal(s.calls.length, 2);
    assert.deepEqual(pairs(s), ['lookup#0', 'lookup#1']);
    assert.deepEqual(cross, []);
  });

  it('a tool span recorded twice for one call is one result', () => {
    const { s } = read([chat([user], [msg('assistant', call('lookup', { q: 'a' }, 'c1'))]), tool('lookup', 'A', 'c1'), tool('lookup', 'A', 'c1')]);
    assert.equal(s.calls.length, 1);
    assert.equal(s.results.length, 1);
  });
});

describe('spans: ids reused', () => {
  it('an id the next response reuses for the same tool with other arguments is a second call', () => {
    const { s, cross, findings } = read([
      chat([user], [msg('assistant', call('lookup', { q: 'a' }, 'call_0'))]), tool('lookup', 'A', 'call_0'),
      chat([user], [msg('assistant', call('lookup', { q: 'b' }, 'call_0'))]), tool('lookup', 'B', 'call_0'),
    ]);
    assert.deepEqual(s.calls.map((c) => c.args), [{ q: 'a' }, { q: 'b' }]);
    assert.equal(s.results.length, 2);
    assert.deepEqual(cross, ['duplicate-call-id lookup']);
    assert.match(findings.find((f) => f.code === 'duplicate-call-id')!.message, /with other arguments/);
  });

  it('a later history that replays both calls of a reused id adds nothing', () => {
    const a = msg('assistant', call('lookup', { q: 'a' }, 'x'));
    const b = msg('assistant', call('fetch', { url: 'u' }, 'x'));
    const { s, cross } = read([
      chat([user], [a]), tool('lookup', 'A', 'x'),
      chat([user, a, msg('tool', response('A', 'x'))], [b]), tool('fetch', 'U', 'x'),
      chat([user, a, msg('tool', response('A', 'x')), b, msg('tool', response('U', 'x'))], []),
    ]);
    assert.deepEqual(s.calls.map((c) => c.name), ['lookup', 'fetch']);
    assert.equal(s.results.length, 2);
    assert.deepEqual(cross, ['duplicate-call-id fetch']);
  });

  it('a tool span of another tool under an id whose calls are all answered is a call of its own', () => {
    const { s, cross } = read([chat([user], [msg('assistant', call('lookup', { q: 'a' }, 'x'))]), tool('lookup', 'A', 'x'), tool('fetch', 'U', 'x')]);
    assert.deepEqual(s.calls.map((c) => c.name), ['lookup', 'fetch']);
    assert.equal(s.results.length, 2);
    assert.deepEqual(cross, ['duplicate-call-id fetch']);
  });
});

describe('spans: flattened prompt and completion attributes (OpenLLMetry style)', () => {
  /** `gen_ai.<kind>.N.*` attributes of messages `[role, content?, call?]`, a call as `[id, name, args]`. */
  const flat = (kind: string, messages: [string, string?, [string | undefined, string, string]?][]) => {
    const a: Record<string, unknown> = {};
    messages.forEach(([role, content, c], i) => {
      const k = `gen_ai.${kind}.${i}`;
      a[`${k}.role`] = role;
      if (content !== undefined) a[`${k}.content`] = content;
      if (role === 'tool' && c?.[0]) a[`${k}.tool_call_id`] = c[0];
      if (role === 'assistant' && c) {
        if (c[0]) a[`${k}.tool_calls.0.id`] = c[0];
        a[`${k}.tool_calls.0.name`] = c[1];
        a[`${k}.tool_calls.0.arguments`] = c[2];
      }
    });
    return a;
  };
  const model = (prompt: Parameters<typeof flat>[1], completion: Parameters<typeof flat>[1]) => span({ 'gen_ai.operation.name': 'chat', ...flat('prompt', prompt), ...flat('completion', completion) });

  for (const id of ['c1', undefined]) {
    it(`a completion's call, replayed with its tool message in the next prompt, is one call and one result (${id ? 'with ids' : 'without ids'})`, () => {
      const c: [string | undefined, string, string] = [id, 'lookup', '{"q": "a"}'];
      const { s, cross } = read([
        model([['user', 'go']], [['assistant', undefined, c]]),
        model([['user', 'go'], ['assistant', undefined, c], ['tool', 'A', c]], [['assistant', 'done']]),
      ]);
      assert.deepEqual(s.calls.map((x) => [x.name, x.id, x.args]), [['lookup', id, { q: 'a' }]]);
      assert.deepEqual(pairs(s), ['lookup#0']);
      assert.equal(s.results[0].payload, 'A');
      assert.deepEqual(cross, []);
    });
  }
});
