// Every cross-call rule in every agent / eval / tracing format (Inspect, Langfuse, LangSmith, OpenHands, SWE-agent,
// mini-swe-agent, tau-bench, Kiro, BFCL, OpenInference): pairing through each link key the format has, orphans both
// ways, ids reused more than once, status theater where the format keeps a success envelope and its error signals, and
// copies of one call (a format that records a call twice) counted once. Traces are small, synthetic, written here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, type Session } from '../../src/core';

const CROSS = new Set(['orphan-call', 'orphan-result', 'duplicate-call-id', 'duplicate-fingerprint', 'status-theater']);

function read(value: unknown, fileName = 'trace.json') {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const r = checkText(text, { fileName, keepModel: true, packs: false });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  // cross-call findings only, `code[:info] tool`
  const cross = r.findings.filter((f) => CROSS.has(f.code)).map((f) => `${f.code}${f.severity === 'info' ? ':info' : ''} ${f.tool ?? ''}`.trim());
  return { r, sessions, cross, text };
}

/** Which call each result answers, as `resultCallId -> call name#index` (by id, or by position). */
function pairs(s: Session): string[] {
  return s.results.map((x) => {
    const i = x.callId !== undefined ? s.calls.findIndex((c) => c.id === x.callId) : x.callIndex ?? -1;
    return i >= 0 ? `${s.calls[i].name}#${i}` : 'none';
  });
}

const ENVELOPE_FAIL = JSON.stringify({ ok: false, error: 'index locked', result: null });
/** An MCP CallToolResult as JSON text: its own `isError` is the transport. */
const mcpResult = (isError: boolean, text: string) => JSON.stringify({ content: [{ type: 'text', text }], isError });

// ---- Inspect AI ------------------------------------------------------------------------------------------------

type Tc = [id: string, fn: string, args: object];
const iAssistant = (calls: Tc[]) => ({ role: 'assistant', content: '', tool_calls: calls.map(([id, fn, args]) => ({ id, function: fn, arguments: args, type: 'function' })) });
const iTool = (id: string, fn: string, content: string, error?: object) => ({ role: 'tool', tool_call_id: id, function: fn, content, ...(error ? { error } : {}) });
const iModel = (calls: Tc[]) => ({ event: 'model', model: 'm', input: [], tools: [], output: { choices: [{ message: iAssistant(calls), stop_reason: 'tool_calls' }] } });
const iToolEvent = (id: string, fn: string, args: object, result: string, error?: object) => ({ event: 'tool', type: 'function', id, function: fn, arguments: args, result, ...(error ? { error } : {}) });
const iLog = (messages: unknown[] | undefined, events: unknown[] = []) => ({ version: 2, status: 'success', eval: { task: 't', model: 'm' },
  samples: [{ id: 1, epoch: 1, input: 'go', target: '', ...(messages ? { messages } : {}), events }] });
const user = (content: string) => ({ role: 'user', content });

describe('inspect: cross-call rules', () => {
  it('pairing: role:tool messages answer through tool_call_id, in any order; an event list pairs the tool event with the model event\'s call', () => {
    const { sessions, cross } = read(iLog([
      user('go'), iAssistant([['c1', 'lookup', { q: 'a' }], ['c2', 'lookup', { q: 'b' }]]),
      iTool('c2', 'lookup', 'B'), iTool('c1', 'lookup', 'A'), user('more'),
    ]));
    assert.deepEqual(pairs(sessions[0]), ['lookup#1', 'lookup#0']);
    assert.deepEqual(cross, []);
    const ev = read({ events: [iModel([['e1', 'lookup', { q: 'a' }]]), iToolEvent('e1', 'lookup', { q: 'a' }, 'A'), iModel([['e2', 'lookup', { q: 'b' }]]), iToolEvent('e2', 'lookup', { q: 'b' }, 'B')] });
    assert.equal(ev.sessions[0].calls.length, 2, 'the tool event is the execution of the model event\'s call, not a second call');
    assert.deepEqual(pairs(ev.sessions[0]), ['lookup#0', 'lookup#1']);
    assert.deepEqual(ev.sessions[0].calls[0].nameAt.path, ['events', 0, 'output', 'choices', 0, 'message', 'tool_calls', 0, 'function']);
  });

  it('orphan-call: a message call no tool message answers, while the sample went on', () => {
    const { cross } = read(iLog([user('go'), iAssistant([['c1', 'lookup', { q: 'a' }]]), user('never mind'), iAssistant([['c2', 'lookup', { q: 'b' }]]), iTool('c2', 'lookup', 'B')]));
    assert.deepEqual(cross, ['orphan-call lookup']);
  });

  it('orphan-result: a tool message whose id no call has; an errored one is an honest failure, and results without calls are kept', () => {
    const { sessions, cross } = read(iLog([
      iAssistant([['c1', 'lookup', { q: 'a' }]]), iTool('c1', 'lookup', 'A'),
      iTool('ghost', 'lookup', 'spliced'), iTool('ghost2', 'bash', '...', { type: 'timeout', message: 'timed out' }),
    ]));
    assert.deepEqual(cross, ['orphan-result']);
    assert.deepEqual(sessions[0].results.map((r) => r.transport.isError), [false, false, true]);
    const only = read(iLog([iTool('b1', 'bash', '...', { type: 'parsing', message: 'bad' }), iTool('b2', 'bash', '...', { type: 'limit', message: 'x' })]));
    assert.equal(only.sessions[0].results.length, 2, 'a sample that holds only tool results still has them');
    assert.deepEqual(only.cross, []);
  });

  it('duplicate-call-id: an id reused by three different calls is reported twice', () => {
    const { cross } = read(iLog([
      iAssistant([['x', 'lookup', { q: 'a' }]]), iTool('x', 'lookup', 'A'),
      iAssistant([['x', 'fetch', { url: 'u' }]]), iTool('x', 'fetch', 'U'),
      iAssistant([['x', 'lookup', { q: 'c' }]]), iTool('x', 'lookup', 'C'),
    ]));
    assert.deepEqual(cross, ['duplicate-call-id fetch', 'duplicate-call-id lookup']);
  });

  it('copies: a call in the messages and again in the events (model event + tool event) is one call; a repeat is reported once', () => {
    const messages = [
      iAssistant([['a1', 'lookup', { q: 'a' }]]), iTool('a1', 'lookup', 'A'),
      iAssistant([['a2', 'lookup', { q: 'a' }]]), iTool('a2', 'lookup', 'A'),
    ];
    const events = [
      iModel([['a1', 'lookup', { q: 'a' }]]), iToolEvent('a1', 'lookup', { q: 'a' }, 'A'),
      iModel([['a2', 'lookup', { q: 'a' }]]), iToolEvent('a2', 'lookup', { q: 'a' }, 'A'),
    ];
    const { sessions, cross } = read(iLog(messages, events));
    assert.equal(sessions[0].calls.length, 2);
    assert.equal(sessions[0].results.length, 2);
    assert.deepEqual(cross, ['duplicate-fingerprint lookup']);
  });

  it('copies: the events add what the messages lack (a sub-agent\'s call and its execution)', () => {
    const { sessions, cross } = read(iLog(
      [iAssistant([['a1', 'lookup', { q: 'a' }]]), iTool('a1', 'lookup', 'A')],
      [iModel([['a1', 'lookup', { q: 'a' }]]), iToolEvent('a1', 'lookup', { q: 'a' }, 'A'), iModel([['s1', 'search', { q: 'deep' }]]), iToolEvent('s1', 'search', { q: 'deep' }, 'found')],
    ));
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['a1', 's1']);
    assert.deepEqual(pairs(sessions[0]), ['lookup#0', 'search#1']);
    assert.deepEqual(cross, []);
  });

  it('status-theater: a tool message without `error` says success, so a failing body is theater; with `error` it is an honest failure', () => {
    const { cross } = read(iLog([
      iAssistant([['c1', 'run_tests', {}]]), iTool('c1', 'run_tests', ENVELOPE_FAIL),
      iAssistant([['c2', 'run_tests', { fast: true }]]), iTool('c2', 'run_tests', ENVELOPE_FAIL, { type: 'unknown', message: 'index locked' }),
    ]));
    assert.deepEqual(cross, ['status-theater run_tests']);
    const ev = read({ events: [iModel([['e1', 'run_tests', {}]]), iToolEvent('e1', 'run_tests', {}, 'Error: index locked')] });
    assert.deepEqual(ev.cross, ['status-theater run_tests'], 'a tool event without error says success too (the text heuristic)');
  });
});

// ---- Langfuse --------------------------------------------------------------------------------------------------

const lfExport = (observations: unknown[]) => ({ trace: { id: 't1', name: 'agent' }, observations });
let lfClock = 0;
const at = () => new Date(Date.UTC(2025, 0, 1, 0, 0, lfClock++)).toISOString();
const lfGen = (id: string, output: unknown, input: unknown = []) => ({ id, type: 'GENERATION', name: 'llm', startTime: at(), level: 'DEFAULT', statusMessage: null, input, output });
const lfTool = (id: string, name: string, input: unknown, output: unknown, attrs: object = {}, level = 'DEFAULT', statusMessage: string | null = null) =>
  ({ id, type: 'TOOL', name, startTime: at(), level, statusMessage, input, output, metadata: { attributes: attrs } });
const lfResponses = (calls: Tc[]) => ({ output: calls.map(([id, name, args]) => ({ type: 'function_call', call_id: id, name, arguments: JSON.stringify(args) })) });
const lfLangChain = (calls: Tc[]) => ({ role: 'assistant', content: '', additional_kwargs: { tool_calls: calls.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: args } })) } });
const lfToolSpan = (id: string, name: string, callId: string, content: unknown, status = 'success') =>
  ({ id, type: 'SPAN', name, startTime: at(), level: 'DEFAULT', statusMessage: null, input: "{'q': 'a'}", output: { content, type: 'tool', name, tool_call_id: callId, status } });

describe('langfuse: cross-call rules', () => {
  it('pairing: TOOL observations through gen_ai.tool.call.id (any order), SPANs through their ToolMessage tool_call_id, else by name and order', () => {
    const { sessions, cross } = read(lfExport([
      lfGen('g1', lfResponses([['c1', 'lookup', { q: 'a' }], ['c2', 'lookup', { q: 'b' }]])),
      lfTool('t2', 'lookup', { q: 'b' }, 'B', { 'gen_ai.tool.call.id': 'c2' }),
      lfTool('t1', 'lookup', { q: 'a' }, 'A', { 'gen_ai.tool.call.id': 'c1' }),
      lfGen('g2', lfLangChain([['c3', 'fetch', { url: 'u' }]])),
      lfToolSpan('s3', 'fetch', 'c3', 'U'),
      lfGen('g3', { role: 'assistant', content: [{ type: 'tool_use', id: 'c4', name: 'ping', input: {} }] }),
      lfTool('t4', 'ping', '{}', 'pong'),
      lfGen('g4', { role: 'assistant', content: 'done' }),
    ]));
    assert.deepEqual(pairs(sessions[0]), ['lookup#1', 'lookup#0', 'fetch#2', 'ping#3']);
    assert.deepEqual(cross, []);
  });

  it('orphan-call: a call no execution answers while the trace went on', () => {
    const { cross } = read(lfExport([lfGen('g1', lfResponses([['c1', 'lookup', { q: 'a' }]])), lfGen('g2', lfResponses([['c2', 'fetch', { url: 'u' }]])),
      lfTool('t2', 'fetch', {}, 'U', { 'gen_ai.tool.call.id': 'c2' })]));
    assert.deepEqual(cross, ['orphan-call lookup']);
  });

  it('orphan-result: a TOOL observation that answers no call is its own call and result (never an orphan)', () => {
    const { sessions, cross } = read(lfExport([lfGen('g1', lfResponses([['c1', 'lookup', { q: 'a' }]])), lfTool('t1', 'lookup', {}, 'A', { 'gen_ai.tool.call.id': 'c1' }),
      lfTool('t9', 'audit', { who: 'me' }, 'ok', { 'gen_ai.tool.call.id': 'c9' })]));
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['lookup', 'audit']);
    assert.deepEqual(sessions[0].calls[1].args, { who: 'me' });
    assert.deepEqual(cross, []);
  });

  it('duplicate-call-id: one id used by three different calls in three GENERATIONs, each answered', () => {
    const { sessions, cross } = read(lfExport([
      lfGen('g1', lfResponses([['x', 'lookup', { q: 'a' }]])), lfTool('t1', 'lookup', {}, 'A', { 'gen_ai.tool.call.id': 'x' }),
      lfGen('g2', lfResponses([['x', 'fetch', { url: 'u' }]])), lfTool('t2', 'fetch', {}, 'U', { 'gen_ai.tool.call.id': 'x' }),
      lfGen('g3', lfResponses([['x', 'ping', {}]])), lfTool('t3', 'ping', {}, 'P', { 'gen_ai.tool.call.id': 'x' }),
    ]));
    assert.equal(sessions[0].calls.length, 3);
    assert.equal(sessions[0].results.length, 3, 'each TOOL observation answers its own call');
    assert.deepEqual(cross, ['duplicate-call-id fetch', 'duplicate-call-id ping']);
  });

  it('copies: the same call in two GENERATIONs (same id and name) is one call; the graph node\'s {messages} output is not an execution', () => {
    const { sessions, cross } = read(lfExport([
      lfGen('g1', lfLangChain([['c1', 'lookup', { q: 'a' }]])),
      lfGen('g1b', lfLangChain([['c1', 'lookup', { q: 'a' }]])),
      { id: 'node', type: 'SPAN', name: 'tools', startTime: at(), level: 'DEFAULT', input: {}, output: { messages: [{ content: 'A', type: 'tool', name: 'lookup', tool_call_id: 'c1', status: 'success' }] } },
      lfToolSpan('s1', 'lookup', 'c1', 'A'),
      lfGen('g2', { role: 'assistant', content: 'done' }),
    ]));
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 1);
    assert.deepEqual(sessions[0].results[0].at.path, ['observations', 3]);
    assert.deepEqual(cross, []);
  });

  it('duplicate-fingerprint: the same lookup in two turns, each executed, is one repeat', () => {
    const { cross } = read(lfExport([
      lfGen('g1', lfResponses([['c1', 'lookup', { q: 'a' }]])), lfTool('t1', 'lookup', {}, 'A', { 'gen_ai.tool.call.id': 'c1' }),
      lfGen('g2', lfResponses([['c2', 'lookup', { q: 'a' }]])), lfTool('t2', 'lookup', {}, 'A', { 'gen_ai.tool.call.id': 'c2' }),
    ]));
    assert.deepEqual(cross, ['duplicate-fingerprint lookup']);
  });

  it('status-theater: level DEFAULT says the span ended well, so an error body is theater; level ERROR and a ToolMessage status "error" are honest', () => {
    const { sessions, cross } = read(lfExport([
      lfGen('g1', lfResponses([['c1', 'charge', { amount: 1 }]])), lfTool('t1', 'charge', {}, '{"error": "card declined"}', { 'gen_ai.tool.call.id': 'c1' }),
      lfGen('g2', lfResponses([['c2', 'charge', { amount: 2 }]])), lfTool('t2', 'charge', {}, null, { 'gen_ai.tool.call.id': 'c2' }, 'ERROR', 'card declined'),
      lfGen('g3', lfLangChain([['c3', 'charge', { amount: 3 }]])), lfToolSpan('s3', 'charge', 'c3', 'Error: card declined', 'error'),
    ]));
    assert.deepEqual(cross, ['status-theater charge']);
    assert.deepEqual(sessions[0].results.map((r) => r.transport), [{ spanStatus: 'UNSET' }, { spanStatus: 'ERROR' }, { spanStatus: 'UNSET', isError: true }]);
    assert.equal(sessions[0].results[1].payload, 'card declined', 'the status message stands for the missing output');
    const mcp = read(lfExport([lfGen('g1', lfResponses([['c1', 'fetch', { url: 'a' }], ['c2', 'fetch', { url: 'b' }]])),
      lfTool('t1', 'fetch', {}, mcpResult(true, 'denied'), { 'gen_ai.tool.call.id': 'c1' }), lfTool('t2', 'fetch', {}, mcpResult(false, 'Error: denied'), { 'gen_ai.tool.call.id': 'c2' })]));
    assert.deepEqual(mcp.cross, ['status-theater fetch'], 'an MCP output\'s own isError: true is an honest failure');
  });

  it('tool definitions the LangChain handler writes into a GENERATION input are read once', () => {
    const def = { role: 'tool', content: { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } } };
    const { sessions } = read(lfExport([lfGen('g1', lfLangChain([['c1', 'lookup', { q: 'a' }]]), [user('go'), def]), lfToolSpan('s1', 'lookup', 'c1', 'A'), lfGen('g2', { role: 'assistant', content: 'ok' }, [user('go'), def])]));
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['lookup']);
  });
});

// ---- LangSmith -------------------------------------------------------------------------------------------------

let lsClock = 0;
const order = (id: string) => `20250101T0000${String(lsClock++).padStart(2, '0')}000000Z${id}`;
/** A run split as the SDK sends it: inputs in post, outputs (or error) in patch. The JS SDK's patch has no id. */
function lsRun(id: string, type: string, name: string, inputs: unknown, end: { outputs?: unknown; error?: string }, jsPatch = false) {
  const dotted = order(id);
  return { post: { id, trace_id: 'tr', dotted_order: dotted, run_type: type, name, inputs }, patch: { ...(jsPatch ? {} : { id }), trace_id: 'tr', dotted_order: dotted, ...end } };
}
function lsIngest(runs: ReturnType<typeof lsRun>[]) {
  return { post: runs.map((r) => r.post), patch: runs.map((r) => r.patch) };
}
const lsCompletion = (calls: Tc[]) => ({ choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })) } }] });
const lsGenerations = (calls: Tc[]) => ({ generations: [[{ text: '', message: { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'AIMessage'],
  kwargs: { content: '', tool_calls: calls.map(([id, name, args]) => ({ name, args, id, type: 'tool_call' })) } } }]] });
const lsToolMessage = (callId: string, content: unknown, status = 'success') => ({ output: { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'ToolMessage'], kwargs: { content, tool_call_id: callId, status } } });

describe('langsmith: cross-call rules', () => {
  it('pairing: tool runs answer through their ToolMessage tool_call_id, in any order; without one, the earliest unanswered call of their name', () => {
    const { sessions, cross } = read(lsIngest([
      lsRun('r1', 'llm', 'ChatOpenAI', {}, { outputs: lsGenerations([['c1', 'lookup', { q: 'a' }], ['c2', 'lookup', { q: 'b' }]]) }),
      lsRun('r2', 'tool', 'lookup', { q: 'b' }, { outputs: lsToolMessage('c2', 'B') }),
      lsRun('r3', 'tool', 'lookup', { q: 'a' }, { outputs: lsToolMessage('c1', 'A') }),
      lsRun('r4', 'llm', 'ChatOpenAI', {}, { outputs: lsCompletion([['c5', 'fetch', { url: 'u' }]]) }),
      lsRun('r5', 'tool', 'fetch', { url: 'u' }, { outputs: { output: 'U' } }),
    ]));
    assert.deepEqual(pairs(sessions[0]), ['lookup#1', 'lookup#0', 'fetch#2']);
    assert.deepEqual(sessions[0].results.map((r) => r.payload), ['B', 'A', 'U'], 'the payload is the ToolMessage content / outputs.output');
    assert.deepEqual(cross, []);
  });

  it('copies: a run split over post and patch is one run, also when the JS SDK\'s patch carries only the dotted_order; a chain run repeating the completion is not a second call', () => {
    const llm = lsRun('r1', 'llm', 'ChatOpenAI', {}, { outputs: lsCompletion([['c1', 'lookup', { q: 'a' }]]) }, true);
    const chain = lsRun('r0', 'chain', 'agent', {}, { outputs: lsCompletion([['c1', 'lookup', { q: 'a' }]]) });
    const tool = lsRun('r2', 'tool', 'lookup', { q: 'a' }, { outputs: { output: 'A' } }, true);
    const { r, sessions, cross } = read(lsIngest([chain, llm, tool]));
    assert.equal(r.format, 'langsmith');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(pairs(sessions[0]), ['lookup#0']);
    assert.deepEqual(cross, []);
  });

  it('orphan-call: an LLM run\'s call that no tool run answered, while the trace went on', () => {
    const { cross } = read(lsIngest([
      lsRun('r1', 'llm', 'ChatOpenAI', {}, { outputs: lsCompletion([['c1', 'lookup', { q: 'a' }]]) }),
      lsRun('r2', 'llm', 'ChatOpenAI', {}, { outputs: lsCompletion([['c2', 'fetch', { url: 'u' }]]) }),
      lsRun('r3', 'tool', 'fetch', {}, { outputs: lsToolMessage('c2', 'U') }),
    ]));
    assert.deepEqual(cross, ['orphan-call lookup']);
  });

  it('orphan-result: a tool run that answers no call is its own call and result', () => {
    const { sessions, cross } = read(lsIngest([lsRun('r1', 'tool', 'audit', { who: 'me' }, { outputs: { output: 'ok' } })]));
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['audit', { who: 'me' }]]);
    assert.deepEqual(cross, []);
  });

  it('duplicate-call-id: one id in three LLM runs for different calls', () => {
    const { cross } = read(lsIngest([
      lsRun('r1', 'llm', 'm', {}, { outputs: lsCompletion([['x', 'lookup', { q: 'a' }]]) }), lsRun('r2', 'tool', 'lookup', {}, { outputs: lsToolMessage('x', 'A') }),
      lsRun('r3', 'llm', 'm', {}, { outputs: lsCompletion([['x', 'fetch', { url: 'u' }]]) }), lsRun('r4', 'tool', 'fetch', {}, { outputs: lsToolMessage('x', 'U') }),
      lsRun('r5', 'llm', 'm', {}, { outputs: lsCompletion([['x', 'lookup', { q: 'c' }]]) }), lsRun('r6', 'tool', 'lookup', {}, { outputs: lsToolMessage('x', 'C') }),
    ]));
    assert.deepEqual(cross, ['duplicate-call-id fetch', 'duplicate-call-id lookup']);
  });

  it('duplicate-fingerprint: the same lookup in two LLM turns, both answered', () => {
    const { cross } = read(lsIngest([
      lsRun('r1', 'llm', 'm', {}, { outputs: lsCompletion([['c1', 'lookup', { q: 'a' }]]) }), lsRun('r2', 'tool', 'lookup', {}, { outputs: lsToolMessage('c1', 'A') }),
      lsRun('r3', 'llm', 'm', {}, { outputs: lsCompletion([['c2', 'lookup', { q: 'a' }]]) }), lsRun('r4', 'tool', 'lookup', {}, { outputs: lsToolMessage('c2', 'A') }),
    ]));
    assert.deepEqual(cross, ['duplicate-fingerprint lookup']);
  });

  it('status-theater: a tool run without `error` says success; `error` and a ToolMessage status "error" are honest failures', () => {
    const { sessions, cross } = read(lsIngest([
      lsRun('r1', 'llm', 'm', {}, { outputs: lsCompletion([['c1', 'run_tests', {}], ['c2', 'run_tests', { a: 1 }], ['c3', 'run_tests', { b: 1 }]]) }),
      lsRun('r2', 'tool', 'run_tests', {}, { outputs: lsToolMessage('c1', ENVELOPE_FAIL) }),
      lsRun('r3', 'tool', 'run_tests', {}, { outputs: lsToolMessage('c2', ENVELOPE_FAIL, 'error') }),
      lsRun('r4', 'tool', 'run_tests', {}, { error: 'RuntimeError: index locked' }),
    ]));
    assert.deepEqual(sessions[0].results.map((r) => r.transport.isError), [false, true, true]);
    assert.deepEqual(cross, ['status-theater run_tests']);
  });

  it('status-theater: a tool run whose output is an MCP CallToolResult leaves the error flag to it', () => {
    const { sessions, cross } = read(lsIngest([
      lsRun('r1', 'llm', 'm', {}, { outputs: lsCompletion([['c1', 'fetch', { url: 'a' }], ['c2', 'fetch', { url: 'b' }]]) }),
      lsRun('r2', 'tool', 'fetch', {}, { outputs: lsToolMessage('c1', mcpResult(true, 'Error: denied')) }),
      lsRun('r3', 'tool', 'fetch', {}, { outputs: lsToolMessage('c2', mcpResult(false, 'Error: denied')) }),
    ]));
    assert.deepEqual(sessions[0].results.map((r) => r.transport), [{}, {}]);
    assert.deepEqual(cross, ['status-theater fetch']);
  });
});

// ---- OpenHands -------------------------------------------------------------------------------------------------

function ohAction(id: number, fn: string, callId: string, resp: string, args: object, action = 'run') {
  return { id, source: 'agent', message: '', action, args: {},
    tool_call_metadata: { function_name: fn, tool_call_id: callId, total_calls_in_response: 1,
      model_response: { id: resp, choices: [{ message: { role: 'assistant', content: '', tool_calls: [{ id: callId, type: 'function', function: { name: fn, arguments: JSON.stringify(args) } }] } }] } } };
}
function ohObs(id: number, cause: number | undefined, observation: string, content: string, extras: object = {}, callId?: string) {
  return { id, source: 'agent', message: '', observation, content, extras, ...(cause === undefined ? {} : { cause }),
    ...(callId ? { tool_call_metadata: { function_name: 'x', tool_call_id: callId } } : {}) };
}
const ohUser = (id: number, content: string) => ({ id, source: 'user', message: content, action: 'message', args: { content } });
const exit = (code: number) => ({ command: 'x', metadata: { exit_code: code } });

describe('openhands: cross-call rules', () => {
  it('pairing: an observation answers the action its cause names; one without a cause answers through its tool_call_metadata id', () => {
    const { sessions, cross } = read([
      ohUser(0, 'go'),
      ohAction(1, 'execute_bash', 't1', 'r1', { command: 'ls' }), ohObs(2, 1, 'run', 'a b', exit(0)),
      ohAction(3, 'str_replace_editor', 't2', 'r2', { command: 'view', path: '/a' }, 'read'), ohObs(4, undefined, 'read', 'file', {}, 't2'),
      ohUser(5, 'thanks'),
    ]);
    assert.deepEqual(pairs(sessions[0]), ['execute_bash#0', 'str_replace_editor#1']);
    assert.deepEqual(cross, []);
  });

  it('orphan-call: an action no observation answers, while the run went on', () => {
    const { cross } = read([ohUser(0, 'go'), ohAction(1, 'lookup', 't1', 'r1', { q: 'a' }, 'call_tool_mcp'), ohUser(2, 'hello?'), ohAction(3, 'execute_bash', 't2', 'r2', { command: 'ls' }), ohObs(4, 3, 'run', '', exit(0))]);
    assert.deepEqual(cross, ['orphan-call lookup']);
  });

  it('orphan-result: an observation whose tool call id matches no action; an error observation is an honest failure', () => {
    const { cross } = read([ohUser(0, 'go'), ohAction(1, 'execute_bash', 't1', 'r1', { command: 'ls' }), ohObs(2, 1, 'run', '', exit(0)),
      ohObs(3, undefined, 'read', 'stray', {}, 'ghost'), ohObs(4, undefined, 'error', 'boom', {}, 'ghost2')]);
    assert.deepEqual(cross, ['orphan-result']);
  });

  it('duplicate-call-id: three model responses reuse one tool call id for different calls', () => {
    const { cross } = read([
      ohAction(1, 'str_replace_editor', 'x', 'r1', { command: 'view', path: '/a' }, 'read'), ohObs(2, 1, 'read', 'A'),
      ohAction(3, 'str_replace_editor', 'x', 'r2', { command: 'view', path: '/b' }, 'read'), ohObs(4, 3, 'read', 'B'),
      ohAction(5, 'str_replace_editor', 'x', 'r3', { command: 'view', path: '/c' }, 'read'), ohObs(6, 5, 'read', 'C'),
    ]);
    assert.deepEqual(cross, ['duplicate-call-id str_replace_editor', 'duplicate-call-id str_replace_editor']);
  });

  it('copies and duplicate-fingerprint: the tool call copied into the observation is not a call; the same view twice is one repeat; two actions of one response are one turn', () => {
    const view = { command: 'view', path: '/a' };
    const twin = [ohAction(5, 'str_replace_editor', 'p1', 'r3', view, 'read'), ohAction(6, 'str_replace_editor', 'p2', 'r3', view, 'read')];
    const { sessions, cross } = read([
      ohAction(1, 'str_replace_editor', 't1', 'r1', view, 'read'), { ...ohObs(2, 1, 'read', 'A'), tool_call_metadata: ohAction(1, 'str_replace_editor', 't1', 'r1', view).tool_call_metadata },
      ohAction(3, 'str_replace_editor', 't2', 'r2', view, 'read'), ohObs(4, 3, 'read', 'A'),
      ...twin, ohObs(7, 5, 'read', 'A'), ohObs(8, 6, 'read', 'A'),
    ]);
    assert.equal(sessions[0].calls.length, 4);
    assert.equal(sessions[0].calls[2].turn, sessions[0].calls[3].turn, 'one model response, one turn');
    // the second view repeats the first, and each call of response r3's fan-out repeats it again
    assert.deepEqual(cross, ['duplicate-fingerprint str_replace_editor', 'duplicate-fingerprint str_replace_editor', 'duplicate-fingerprint str_replace_editor']);
  });

  it('status-theater: exit code 0 or a plain observation says success, so an error body is theater; an error observation or exit 1 is honest', () => {
    const { sessions, cross } = read([
      ohAction(1, 'execute_bash', 't1', 'r1', { command: 'pytest' }), ohObs(2, 1, 'run', 'Traceback (most recent call last):\n  boom', exit(0)),
      ohAction(3, 'str_replace_editor', 't2', 'r2', { command: 'view', path: '/a' }, 'read'), ohObs(4, 3, 'read', ENVELOPE_FAIL),
      ohAction(5, 'execute_bash', 't3', 'r3', { command: 'pytest -x' }), ohObs(6, 5, 'run', 'Traceback (most recent call last):', exit(1)),
      ohAction(7, 'str_replace_editor', 't4', 'r4', { command: 'view', path: '/b' }, 'read'), ohObs(8, 7, 'error', 'ERROR: no such file'),
    ]);
    assert.deepEqual(sessions[0].results.map((r) => r.transport), [{ exitCode: 0, isError: false }, { isError: false }, { exitCode: 1, isError: false }, { isError: true }]);
    assert.deepEqual(cross, ['status-theater execute_bash', 'status-theater str_replace_editor']);
  });

  it('status-theater: an MCP observation\'s CallToolResult speaks for itself (isError true is honest, false around an error text is theater)', () => {
    const { sessions, cross } = read([
      ohAction(1, 'fetch', 't1', 'r1', { url: 'a' }, 'call_tool_mcp'), ohObs(2, 1, 'mcp', mcpResult(true, 'Error: denied')),
      ohAction(3, 'fetch', 't2', 'r2', { url: 'b' }, 'call_tool_mcp'), ohObs(4, 3, 'mcp', mcpResult(false, 'Error: denied')),
    ]);
    assert.deepEqual(sessions[0].results.map((r) => r.transport), [{}, {}]);
    assert.deepEqual(cross, ['status-theater fetch']);
  });
});

// ---- SWE-agent -------------------------------------------------------------------------------------------------

const sweTraj = (history: unknown[]) => ({ history, trajectory: [], info: {} });
const sweCall = (calls: Tc[]) => ({ role: 'assistant', content: 'thinking', agent: 'main', message_type: 'action', action: '',
  tool_calls: calls.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })) });
const sweResult = (ids: string[], content: string) => ({ role: 'tool', content, agent: 'main', message_type: 'observation', tool_call_ids: ids });
const sweText = (action: string) => ({ role: 'assistant', content: `DISCUSSION\n\`\`\`\n${action}\n\`\`\``, thought: 'DISCUSSION', action, agent: 'main', message_type: 'action' });
const sweObs = (content: string) => ({ role: 'user', content, agent: 'main', message_type: 'observation' });
const TIMEOUT = "The command 'sleep 999' was cancelled because it took more than 30 seconds. Please try a different command that completes more quickly.";

describe('swe-agent: cross-call rules', () => {
  it('pairing: tool_call_ids (a list), a single tool_call_id, and a text action\'s next observation', () => {
    const { sessions, cross } = read(sweTraj([
      sweObs('task'), sweCall([['c1', 'open', { path: 'a.py' }]]), sweResult(['c1'], 'opened'),
      sweCall([['c2', 'find_file', { name: 'b.py' }]]), { role: 'tool', content: 'found', tool_call_id: 'c2', message_type: 'observation' },
      sweText('scroll_down'), sweObs('(more lines)'),
    ]));
    assert.deepEqual(pairs(sessions[0]), ['open#0', 'find_file#1', 'scroll_down#2']);
    assert.deepEqual(cross, []);
  });

  it('orphan-call: a call no observation answered, while the run went on', () => {
    const { cross } = read(sweTraj([sweCall([['c1', 'open', { path: 'a.py' }]]), sweObs('your output was not formatted correctly'), sweCall([['c2', 'submit', {}]]), sweResult(['c2'], 'diff')]));
    assert.deepEqual(cross, ['orphan-call open']);
  });

  it('orphan-result: an observation for an id no call has', () => {
    const { cross } = read(sweTraj([sweCall([['c1', 'open', { path: 'a.py' }]]), sweResult(['c1'], 'opened'), sweResult(['ghost'], 'stray')]));
    assert.deepEqual(cross, ['orphan-result']);
  });

  it('duplicate-call-id: one id for three different calls', () => {
    const { cross } = read(sweTraj([
      sweCall([['x', 'open', { path: 'a.py' }]]), sweResult(['x'], 'A'), sweCall([['x', 'find_file', { name: 'b' }]]), sweResult(['x'], 'B'),
      sweCall([['x', 'open', { path: 'c.py' }]]), sweResult(['x'], 'C'),
    ]));
    assert.deepEqual(cross, ['duplicate-call-id find_file', 'duplicate-call-id open']);
  });

  it('duplicate-fingerprint: a text action repeated verbatim; a bash command cancelled by its timeout (an honest failure) between two reads changed nothing', () => {
    const text = read(sweTraj([sweText('open "a.py" 10'), sweObs('[File: a.py]'), sweText('open "a.py" 10'), sweObs('[File: a.py]')]));
    assert.deepEqual(text.cross, ['duplicate-fingerprint open']);
    const around = (between: string) => read(sweTraj([sweCall([['r1', 'open', { path: 'a.py' }]]), sweResult(['r1'], '[File: a.py]'),
      sweCall([['b1', 'bash', { command: 'make' }]]), sweResult(['b1'], between), sweCall([['r2', 'open', { path: 'a.py' }]]), sweResult(['r2'], '[File: a.py]')]));
    const timedOut = around(TIMEOUT);
    assert.deepEqual(timedOut.sessions[0].results.map((r) => r.transport.isError), [undefined, true, undefined]);
    assert.deepEqual(timedOut.cross, ['duplicate-fingerprint open']);
    assert.deepEqual(around('built').cross, [], 'a shell command that ran may have changed the file: reading it again is no repeat');
  });

  it('status-theater: observations claim nothing (no theater on a failing text); SWE-agent\'s own refusal templates are honest failures', () => {
    const { sessions, cross } = read(sweTraj([
      sweCall([['c1', 'bash', { command: 'pytest' }]]), sweResult(['c1'], 'Error: tests failed'),
      sweText('edit 1:2'), sweObs('OBSERVATION:\nYour bash command contained syntax errors and was NOT executed. Please fix the syntax errors and try again.'),
    ]));
    assert.deepEqual(sessions[0].results.map((r) => r.transport), [{}, { isError: true }]);
    assert.deepEqual(cross, []);
  });
});

// ---- mini-swe-agent --------------------------------------------------------------------------------------------

const mAction = (cmd: string) => ({ role: 'assistant', content: `THOUGHT: run it\n\n\`\`\`mswea_bash_command\n${cmd}\n\`\`\`` });
const mObs = (code: number, output: string) => ({ role: 'user', content: `<returncode>${code}</returncode>\n<output>\n${output}\n</output>` });
const mV2 = (messages: unknown[]) => ({ info: { exit_status: 'Submitted' }, messages, trajectory_format: 'mini-swe-agent-1.1' });
const mToolCall = (calls: [string, string][]) => ({ role: 'assistant', content: 'THOUGHT', tool_calls: calls.map(([id, command]) => ({ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } })) });
const mToolResult = (id: string, returncode: number, raw: string, exception?: string) => ({ role: 'tool', tool_call_id: id, content: `<returncode>${returncode}</returncode>\n<output>\n${raw}\n</output>`,
  extra: { raw_output: raw, returncode, timestamp: 1, ...(exception ? { exception_info: exception } : {}) } });

describe('mini-swe-agent: cross-call rules', () => {
  it('pairing: a text action is answered by the next user message (by position); a v2 tool call through tool_call_id', () => {
    const text = read([user('task'), mAction('ls'), mObs(0, 'a'), mAction('cat a'), mObs(1, 'no such file')]);
    assert.equal(text.r.format, 'mini-swe-agent');
    assert.deepEqual(pairs(text.sessions[0]), ['bash#0', 'bash#1']);
    assert.deepEqual(text.sessions[0].results.map((r) => r.transport.exitCode), [0, 1]);
    const v2 = read(mV2([user('task'), mToolCall([['t1', 'ls'], ['t2', 'pwd']]), mToolResult('t2', 0, '/'), mToolResult('t1', 0, 'a')]));
    assert.equal(v2.r.format, 'mini-swe-agent');
    assert.deepEqual(pairs(v2.sessions[0]), ['bash#1', 'bash#0']);
    assert.deepEqual(v2.sessions[0].results[0].payload, '/', 'the raw output, not the template around it');
    assert.deepEqual(v2.cross, []);
  });

  it('orphan-call: v2 tool calls that a format error stopped (no result), while the run went on', () => {
    const { cross } = read(mV2([user('task'), mToolCall([['t1', 'ls']]), { role: 'user', content: 'Format error', extra: { interrupt_type: 'FormatError' } },
      mToolCall([['t2', 'pwd']]), mToolResult('t2', 0, '/')]));
    assert.deepEqual(cross, ['orphan-call bash']);
  });

  it('orphan-result: a v2 tool message for an id no call has', () => {
    const { cross } = read(mV2([user('task'), mToolCall([['t1', 'ls']]), mToolResult('t1', 0, 'a'), mToolResult('ghost', 0, 'b')]));
    assert.deepEqual(cross, ['orphan-result']);
  });

  it('duplicate-call-id: a v2 tool call id reused by three different commands', () => {
    const { cross } = read(mV2([user('task'), mToolCall([['x', 'ls']]), mToolResult('x', 0, 'a'), mToolCall([['x', 'pwd']]), mToolResult('x', 0, '/'), mToolCall([['x', 'id']]), mToolResult('x', 0, 'me')]));
    assert.deepEqual(cross, ['duplicate-call-id bash', 'duplicate-call-id bash']);
  });

  it('duplicate-fingerprint: an edit that failed (exit 1) between two reads changed nothing, so the second read repeats; after exit 0 it does not', () => {
    const around = (code: number) => read([user('task'), mAction('cat a.py'), mObs(0, 'x = 1'), mAction("sed -i 's/1/2/' a.py"), mObs(code, ''), mAction('cat a.py'), mObs(0, 'x = 1')]).cross;
    assert.deepEqual(around(1), ['duplicate-fingerprint bash']);
    assert.deepEqual(around(0), []);
  });

  it('status-theater: exit 0 with an error text is theater; exit 1, exception_info (not executed) and the timeout template are honest failures', () => {
    const { sessions, cross } = read(mV2([user('task'),
      mToolCall([['t1', 'python run.py']]), mToolResult('t1', 0, 'Traceback (most recent call last):\n  boom'),
      mToolCall([['t2', 'python run.py --x']]), mToolResult('t2', 1, 'Traceback (most recent call last):'),
      mToolCall([['t3', 'python run.py --y']]), mToolResult('t3', -1, '', 'action was not executed'),
    ]));
    assert.deepEqual(sessions[0].results.map((r) => r.transport), [{ exitCode: 0 }, { exitCode: 1 }, { isError: true }]);
    assert.deepEqual(cross, ['status-theater bash']);
    const timeout = read([user('task'), mAction('sleep 99'), { role: 'user', content: 'The last command <command>sleep 99</command> timed out and has been killed.\nThe output of the command was:\n<output>\n</output>' }]);
    assert.deepEqual(timeout.sessions[0].results.map((r) => r.transport), [{ isError: true }]);
  });
});

// ---- tau-bench -------------------------------------------------------------------------------------------------

const tCall = (calls: Tc[]) => ({ role: 'assistant', content: null, tool_calls: calls.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })) });
const tTool = (id: string, name: string, content: string) => ({ role: 'tool', tool_call_id: id, name, content });
const tEntry = (taskId: number, traj: unknown[]) => ({ task_id: taskId, reward: 0, info: {}, traj, trial: 0 });

describe('tau-bench: cross-call rules', () => {
  it('pairing: tool messages answer through tool_call_id within their own run; each entry is a session', () => {
    const { sessions, cross } = read([
      tEntry(1, [user('hi'), tCall([['c1', 'get_user', { id: 'u' }], ['c2', 'get_order', { id: 'o' }]]), tTool('c2', 'get_order', '{}'), tTool('c1', 'get_user', '{}')]),
      tEntry(2, [user('hi'), tTool('c1', 'get_user', '{}')]),
    ]);
    assert.equal(sessions.length, 2);
    assert.deepEqual(pairs(sessions[0]), ['get_order#1', 'get_user#0']);
    assert.deepEqual(cross, ['orphan-result'], 'the second run\'s result cannot answer the first run\'s call');
  });

  it('orphan-call: a call the environment never answered, while the conversation went on', () => {
    const { cross } = read([tEntry(1, [user('hi'), tCall([['c1', 'get_user', { id: 'u' }]]), user('hello?'), tCall([['c2', 'get_order', { id: 'o' }]]), tTool('c2', 'get_order', '{}')])]);
    assert.deepEqual(cross, ['orphan-call get_user']);
  });

  it('duplicate-call-id: one id for three different calls', () => {
    const { cross } = read([tEntry(1, [tCall([['x', 'get_user', { id: 'a' }]]), tTool('x', 'get_user', '{}'), tCall([['x', 'get_order', { id: 'b' }]]), tTool('x', 'get_order', '{}'),
      tCall([['x', 'get_user', { id: 'c' }]]), tTool('x', 'get_user', '{}')])]);
    assert.deepEqual(cross, ['duplicate-call-id get_order', 'duplicate-call-id get_user']);
  });

  it('duplicate-fingerprint: a verbatim retry after "Error: ..." (an honest failure) is the stuck loop', () => {
    const { sessions, cross } = read([tEntry(1, [tCall([['c1', 'get_order', { id: 'o' }]]), tTool('c1', 'get_order', 'Error: 503 Service Unavailable'),
      tCall([['c2', 'get_order', { id: 'o' }]]), tTool('c2', 'get_order', '{"status": "delivered"}')])]);
    assert.deepEqual(sessions[0].results.map((r) => r.transport.isError), [true, false]);
    assert.deepEqual(cross, ['duplicate-fingerprint get_order']);
  });

  it('status-theater: an answer that is not "Error: ..." says success, so an error inside it is theater', () => {
    const { cross } = read([tEntry(1, [tCall([['c1', 'cancel_order', { id: 'o' }]]), tTool('c1', 'cancel_order', '{"error": "order not found"}'),
      tCall([['c2', 'cancel_order', { id: 'p' }]]), tTool('c2', 'cancel_order', 'Error: order not found')])]);
    assert.deepEqual(cross, ['status-theater cancel_order']);
  });
});

// ---- Kiro ------------------------------------------------------------------------------------------------------

const kUse = (calls: Tc[]) => ({ ToolUse: { message_id: 'm', content: 'working', tool_uses: calls.map(([id, name, args]) => ({ id, name, orig_name: name, args, orig_args: args })) } });
type KResult = [id: string, status: string, block: object];
const kResults = (results: KResult[], nested = true) => {
  const list = results.map(([tool_use_id, status, block]) => ({ tool_use_id, content: [block], status }));
  return { content: { ToolUseResults: nested ? { tool_use_results: list } : list }, env_context: {} };
};
const kPrompt = (prompt: string) => ({ content: { Prompt: { prompt } }, env_context: {} });
const kEntry = (u: object, a?: object) => ({ user: u, ...(a ? { assistant: a } : {}), request_metadata: null });
const kExport = (history: unknown[]) => ({ conversation_id: 'k1', history });
const text = (t: string) => ({ Text: t });

describe('kiro: cross-call rules', () => {
  it('pairing through tool_use_id in every layout: {user, assistant} entries, [user, assistant] pairs, a bare ToolUseResults list, CancelledToolUses', () => {
    const objects = read(kExport([kEntry(kPrompt('go'), kUse([['t1', 'fs_read', { path: 'a' }], ['t2', 'fs_read', { path: 'b' }]])),
      kEntry(kResults([['t2', 'Success', text('B')], ['t1', 'Success', text('A')]]), { Response: { message_id: 'm2', content: 'done' } })]));
    assert.deepEqual(pairs(objects.sessions[0]), ['fs_read#1', 'fs_read#0']);
    assert.deepEqual(objects.sessions[0].results.map((r) => r.payload), ['B', 'A'], 'a single Text block is the payload');
    const pairsLayout = read(kExport([[kPrompt('go'), kUse([['t1', 'fs_read', { path: 'a' }]])], [kResults([['t1', 'Success', text('A')]]), { Response: { message_id: 'm2', content: 'ok' } }]]));
    assert.equal(pairsLayout.r.format, 'kiro');
    assert.deepEqual(pairs(pairsLayout.sessions[0]), ['fs_read#0']);
    const bare = read(kExport([kEntry(kPrompt('go'), kUse([['t1', 'fs_read', { path: 'a' }]])), kEntry(kResults([['t1', 'Success', text('A')]], false))]));
    assert.deepEqual(pairs(bare.sessions[0]), ['fs_read#0']);
    const cancelled = read(kExport([kEntry(kPrompt('go'), kUse([['t1', 'execute_bash', { command: 'rm -rf build' }]])),
      kEntry({ content: { CancelledToolUses: { prompt: 'stop', tool_use_results: [{ tool_use_id: 't1', content: [text('Tool use was cancelled by the user')], status: 'Error' }] } } }, { Response: { message_id: 'm', content: 'Stopped.' } })]));
    assert.deepEqual(pairs(cancelled.sessions[0]), ['execute_bash#0']);
    assert.deepEqual(cancelled.sessions[0].results[0].transport, { isError: true });
    for (const x of [objects, pairsLayout, bare, cancelled]) assert.deepEqual(x.cross, []);
  });

  it('orphan-call: a tool use no result answered, while the conversation went on', () => {
    const { cross } = read(kExport([kEntry(kPrompt('go'), kUse([['t1', 'fs_read', { path: 'a' }]])), kEntry(kPrompt('never mind'), kUse([['t2', 'fs_read', { path: 'b' }]])),
      kEntry(kResults([['t2', 'Success', text('B')]]), { Response: { message_id: 'm', content: 'ok' } })]));
    assert.deepEqual(cross, ['orphan-call fs_read']);
  });

  it('orphan-result: a Success result for an id no tool use has; an Error one is an honest failure', () => {
    const { cross } = read(kExport([kEntry(kPrompt('go'), kUse([['t1', 'fs_read', { path: 'a' }]])),
      kEntry(kResults([['t1', 'Success', text('A')], ['ghost', 'Success', text('?')], ['ghost2', 'Error', text('failed')]]), { Response: { message_id: 'm', content: 'ok' } })]));
    assert.deepEqual(cross, ['orphan-result']);
  });

  it('duplicate-call-id: one id for three different tool uses', () => {
    const { cross } = read(kExport([kEntry(kPrompt('go'), kUse([['x', 'fs_read', { path: 'a' }]])), kEntry(kResults([['x', 'Success', text('A')]]), kUse([['x', 'grep', { pattern: 'p' }]])),
      kEntry(kResults([['x', 'Success', text('B')]]), kUse([['x', 'fs_read', { path: 'c' }]])), kEntry(kResults([['x', 'Success', text('C')]]))]));
    assert.deepEqual(cross, ['duplicate-call-id grep', 'duplicate-call-id fs_read']);
  });

  it('duplicate-fingerprint: the same read in two turns', () => {
    const { cross } = read(kExport([kEntry(kPrompt('go'), kUse([['t1', 'fs_read', { path: 'a' }]])), kEntry(kResults([['t1', 'Success', text('A')]]), kUse([['t2', 'fs_read', { path: 'a' }]])),
      kEntry(kResults([['t2', 'Success', text('A')]]))]));
    assert.deepEqual(cross, ['duplicate-fingerprint fs_read']);
  });

  it('status-theater: status Success around a failing Json block or an error text is theater; status Error is honest', () => {
    const { cross } = read(kExport([kEntry(kPrompt('go'), kUse([['t1', 'use_aws', { op: 'a' }], ['t2', 'use_aws', { op: 'b' }], ['t3', 'use_aws', { op: 'c' }]])),
      kEntry(kResults([['t1', 'Success', { Json: { success: false, message: 'denied' } }], ['t2', 'Success', text('Error: denied')], ['t3', 'Error', text('Error: denied')]]))]));
    assert.deepEqual(cross, ['status-theater use_aws', 'status-theater use_aws']);
  });
});

// ---- BFCL ------------------------------------------------------------------------------------------------------

describe('bfcl: cross-call rules', () => {
  it('question lines hold definitions and no calls, answer keys hold acceptable values: nothing to pair, no cross-call finding', () => {
    const question = { id: 'q1', question: [[{ role: 'user', content: 'area?' }]], function: [{ name: 'area', description: '', parameters: { type: 'dict', properties: { r: { type: 'float' } }, required: ['r'] } }] };
    const key = { id: 'q1', ground_truth: [{ area: { r: [1.0] } }] };
    const { r, sessions, cross } = read(`${JSON.stringify(question)}\n${JSON.stringify(key)}\n`, 'BFCL_v4_x.json');
    assert.equal(r.format, 'bfcl');
    assert.deepEqual(sessions.map((s) => [s.calls.length, s.results.length, s.tools.length]), [[0, 0, 1]]);
    assert.deepEqual((sessions[0].tools[0].inputSchema as { properties: { r: { type: string } } }).properties.r.type, 'number');
    assert.deepEqual(cross, []);
  });
});

// ---- OpenInference ---------------------------------------------------------------------------------------------

let oiClock = 0;
function oiSpan(kind: 'LLM' | 'TOOL', attrs: Record<string, unknown>, status = 'OK') {
  const n = oiClock++;
  return { name: kind === 'LLM' ? 'llm' : String(attrs['tool.name']), context: { trace_id: 'tr', span_id: `s${n}` }, span_kind: kind, parent_id: null,
    start_time: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(), status_code: status, status_message: '', attributes: { 'openinference.span.kind': kind, ...attrs } };
}
/** An LLM span: the history it was given (`[role, id?, name?, content?]`) and the calls it output. */
function oiLlm(history: [string, string?, string?, string?][], calls: Tc[]) {
  const a: Record<string, unknown> = {};
  history.forEach(([role, id, name, content], i) => {
    a[`llm.input_messages.${i}.message.role`] = role;
    if (role === 'assistant' && name) {
      if (id) a[`llm.input_messages.${i}.message.tool_calls.0.tool_call.id`] = id;
      a[`llm.input_messages.${i}.message.tool_calls.0.tool_call.function.name`] = name;
      a[`llm.input_messages.${i}.message.tool_calls.0.tool_call.function.arguments`] = content ?? '{}';
    } else if (role === 'tool') {
      if (id) a[`llm.input_messages.${i}.message.tool_call_id`] = id;
      a[`llm.input_messages.${i}.message.content`] = content;
    } else a[`llm.input_messages.${i}.message.content`] = content ?? 'hi';
  });
  a['llm.output_messages.0.message.role'] = 'assistant';
  calls.forEach(([id, name, args], j) => {
    a[`llm.output_messages.0.message.tool_calls.${j}.tool_call.id`] = id;
    a[`llm.output_messages.0.message.tool_calls.${j}.tool_call.function.name`] = name;
    a[`llm.output_messages.0.message.tool_calls.${j}.tool_call.function.arguments`] = JSON.stringify(args);
  });
  return oiSpan('LLM', a);
}
const oiTool = (name: string, id: string, output: string, status = 'OK', idKey = 'tool.id') => oiSpan('TOOL', { 'tool.name': name, [idKey]: id, 'input.value': '{}', 'output.value': output }, status);

describe('openinference: cross-call rules', () => {
  it('pairing: TOOL spans answer through tool.id or tool_call.id, in any order', () => {
    const { sessions, cross } = read([oiLlm([['user']], [['c1', 'lookup', { q: 'a' }], ['c2', 'lookup', { q: 'b' }]]), oiTool('lookup', 'c2', 'B', 'OK', 'tool_call.id'), oiTool('lookup', 'c1', 'A')]);
    assert.deepEqual(pairs(sessions[0]), ['lookup#1', 'lookup#0']);
    assert.deepEqual(cross, []);
  });

  it('copies: a later LLM span replays the call and its result in its input messages: read once', () => {
    const { sessions, cross } = read([
      oiLlm([['user']], [['c1', 'lookup', { q: 'a' }]]), oiTool('lookup', 'c1', 'A'),
      oiLlm([['user'], ['assistant', 'c1', 'lookup', '{"q": "a"}'], ['tool', 'c1', undefined, 'A']], [['c2', 'fetch', { url: 'u' }]]), oiTool('fetch', 'c2', 'U'),
    ]);
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['c1', 'c2']);
    assert.equal(sessions[0].results.length, 2);
    assert.deepEqual(cross, []);
  });

  it('orphan-call: an output call no TOOL span executed, while the trace went on', () => {
    const { cross } = read([oiLlm([['user']], [['c1', 'lookup', { q: 'a' }]]), oiLlm([['user']], [['c2', 'fetch', { url: 'u' }]]), oiTool('fetch', 'c2', 'U')]);
    assert.deepEqual(cross, ['orphan-call lookup']);
  });

  it('duplicate-fingerprint: the same lookup under two ids in two LLM spans', () => {
    const { cross } = read([oiLlm([['user']], [['c1', 'lookup', { q: 'a' }]]), oiTool('lookup', 'c1', 'A'), oiLlm([['user']], [['c2', 'lookup', { q: 'a' }]]), oiTool('lookup', 'c2', 'A')]);
    assert.deepEqual(cross, ['duplicate-fingerprint lookup']);
  });

  it('status-theater: a TOOL span with status OK whose output says failure is theater; status ERROR is honest', () => {
    const { cross } = read([oiLlm([['user']], [['c1', 'charge', { n: 1 }], ['c2', 'charge', { n: 2 }]]), oiTool('charge', 'c1', '{"error": "declined"}'), oiTool('charge', 'c2', '{"error": "declined"}', 'ERROR')]);
    assert.deepEqual(cross, ['status-theater charge']);
  });

  it('pairing: a TOOL span without tool.id answers the earliest unanswered call of its name', () => {
    const { sessions, cross } = read([oiLlm([['user']], [['c1', 'lookup', { q: 'a' }]]), oiSpan('TOOL', { 'tool.name': 'lookup', 'input.value': '{"q": "a"}', 'output.value': 'A' }), oiLlm([['user']], [])]);
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(cross, []);
  });

  it('copies: a replayed history without ids is read once', () => {
    const history: [string, string?, string?, string?][] = [['user'], ['assistant', undefined, 'lookup'], ['tool', undefined, undefined, 'A']];
    const { sessions } = read([oiLlm(history, []), oiLlm([...history, ['user']], [])]);
    assert.equal(sessions[0].calls.length, 1);
  });

  it('duplicate-call-id: one id reused by different calls in different LLM spans', () => {
    const { cross } = read([oiLlm([['user']], [['x', 'lookup', { q: 'a' }]]), oiTool('lookup', 'x', 'A'), oiLlm([['user']], [['x', 'fetch', { url: 'u' }]]), oiTool('fetch', 'x', 'U')]);
    assert.deepEqual(cross, ['duplicate-call-id fetch']);
  });
});
