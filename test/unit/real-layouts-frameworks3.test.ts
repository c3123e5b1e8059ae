// Traces agent frameworks write themselves, round three: LlamaIndex chat messages, chat stores and workflow
// events; Agno run outputs, stored sessions and run events; CrewAI crew and task outputs (native calls and the
// ReAct text protocol); Vercel AI SDK UI / model messages, generate results and stream parts; Mastra memory
// messages and stream chunks. Layouts follow real files and the frameworks' sources; every trace here is small
// and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadContracts, type Session } from '../../src/core';
import { callNames, pairedIds, readModel } from './helpers';

function read(text: string, fileName?: string, contractText?: string) {
  const contracts = contractText ? loadContracts([{ path: 'c.json', text: contractText }]).contracts : undefined;
  return readModel(text, { fileName, contracts });
}

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const errors = (s: Session) => s.results.map((x) => x.transport.isError);
const orphans = (codes: string[]) => codes.filter((c) => c.startsWith('orphan'));
/** A contract whose `field` must be an integer: a string there is a finding we can locate. */
const intContract = (name: string, field: string) => JSON.stringify({ tools: [{ name, inputSchema: { type: 'object', properties: { [field]: { type: 'integer' } } } }] });

// ---- LlamaIndex ------------------------------------------------------------------------------------------------

const liText = (role: string, text: string, kwargs: Record<string, unknown> = {}) => ({ role, additional_kwargs: kwargs, blocks: [{ block_type: 'text', text }] });

describe('LlamaIndex', () => {
  it('reads ChatMessages whose calls are in additional_kwargs (OpenAI shape) and repeated as tool_call blocks: once each, paired by tool_call_id', () => {
    const text = JSON.stringify([
      liText('user', 'weather in Oslo and Rome?'),
      { role: 'assistant', additional_kwargs: { tool_calls: [
        { index: 0, id: 'call_a', function: { arguments: '{"city":"Oslo"}', name: 'weather' }, type: 'function' },
        { index: 1, id: 'call_b', function: { arguments: '{"city":"Rome"}', name: 'weather' }, type: 'function' }] },
      blocks: [{ block_type: 'tool_call', tool_call_id: 'call_a', tool_name: 'weather', tool_kwargs: '{"city":"Oslo"}' },
        { block_type: 'tool_call', tool_call_id: 'call_b', tool_name: 'weather', tool_kwargs: '{"city":"Rome"}' }] },
      liText('tool', 'rain', { tool_call_id: 'call_a' }),
      liText('tool', 'sun', { tool_call_id: 'call_b' }),
    ]);
    const { r, sessions, codes } = read(text);
    assert.equal(r.format, 'llamaindex');
    assert.deepEqual(sessions[0].calls.map((c) => [c.id, c.args]), [['call_a', { city: 'Oslo' }], ['call_b', { city: 'Rome' }]]);
    assert.deepEqual(pairedIds(sessions[0]), ['call_a', 'call_b']);
    assert.deepEqual(sessions[0].results.map((x) => x.payload), ['rain', 'sun']);
    assert.deepEqual(orphans(codes), []);
  });

  it('reads calls from tool_call blocks alone, and Anthropic-shaped calls ({id, name, input}) in additional_kwargs', () => {
    const blocksOnly = JSON.stringify([
      liText('user', 'hi'),
      { role: 'assistant', additional_kwargs: {}, blocks: [{ block_type: 'tool_call', tool_call_id: 't1', tool_name: 'lookup', tool_kwargs: { q: 'x' } }] },
      liText('tool', 'found', { tool_call_id: 't1' }),
    ]);
    const a = read(blocksOnly);
    assert.equal(a.r.format, 'llamaindex');
    assert.deepEqual(a.sessions[0].calls.map((c) => [c.name, c.args]), [['lookup', { q: 'x' }]]);
    assert.deepEqual(pairedIds(a.sessions[0]), ['t1']);
    const anthropic = JSON.stringify([
      { role: 'user', content: 'hi', additional_kwargs: {} },
      { role: 'assistant', content: '', additional_kwargs: { tool_calls: [{ id: 'toolu_1', name: 'lookup', input: { q: 'y' }, type: 'tool_use' }] } },
      { role: 'tool', content: 'found', additional_kwargs: { tool_call_id: 'toolu_1', name: 'lookup' } },
    ]);
    const b = read(anthropic);
    assert.equal(b.r.format, 'llamaindex');
    assert.deepEqual(b.sessions[0].calls.map((c) => [c.id, c.args]), [['toolu_1', { q: 'y' }]]);
    assert.deepEqual(b.sessions[0].results.map((x) => x.payload), ['found']);
    assert.deepEqual(orphans(b.codes), []);
  });

  it('reads a SimpleChatStore (and one inside a ChatMemoryBuffer) as one session per key', () => {
    const convo = (id: string) => [liText('user', 'q'), { role: 'assistant', content: null, additional_kwargs: { tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }] } },
      { role: 'tool', content: 'ok', additional_kwargs: { tool_call_id: id } }];
    const store = { store: { alice: convo('c1'), bob: convo('c2') }, class_name: 'SimpleChatStore' };
    for (const doc of [store, { chat_store: store, chat_store_key: 'alice', token_limit: 3000, class_name: 'ChatMemoryBuffer' }]) {
      const { r, sessions, codes } = read(JSON.stringify(doc));
      assert.equal(r.format, 'llamaindex');
      assert.deepEqual(sessions.map((s) => s.id), ['alice', 'bob']);
      assert.deepEqual(sessions.map((s) => pairedIds(s)[0]), ['c1', 'c2']);
      assert.deepEqual(orphans(codes), []);
    }
  });

  it('reads agent workflow events, bare or in the server envelope: a call once however often it is announced, is_error the flag', () => {
    const q = 'llama_index.core.agent.workflow.workflow_events.';
    const events: [string, Record<string, unknown>][] = [
      ['AgentInput', { input: [liText('user', 'go')], current_agent_name: 'A' }],
      ['AgentOutput', { response: { role: 'assistant', additional_kwargs: {}, blocks: [] }, current_agent_name: 'A', raw: null, tool_calls: [{ tool_id: 'k1', tool_name: 'add', tool_kwargs: { a: 1 } }, { tool_id: 'k2', tool_name: 'fetch', tool_kwargs: { url: 'u' } }] }],
      ['ToolCall', { tool_name: 'add', tool_kwargs: { a: 1 }, tool_id: 'k1' }],
      ['ToolCall', { tool_name: 'fetch', tool_kwargs: { url: 'u' }, tool_id: 'k2' }],
      ['ToolCallResult', { tool_name: 'fetch', tool_kwargs: { url: 'u' }, tool_id: 'k2', tool_output: { content: 'Error: 404', tool_name: 'fetch', raw_input: {}, raw_output: null, is_error: true }, return_direct: false }],
      ['ToolCallResult', { tool_name: 'add', tool_kwargs: { a: 1 }, tool_id: 'k1', tool_output: { content: '2', tool_name: 'add', raw_input: {}, raw_output: 2, is_error: false }, return_direct: false }],
    ];
    const bare = jsonl(events.map(([, e]) => e));
    const envelope = jsonl(events.map(([n, e]) => ({ __is_pydantic: true, value: e, qualified_name: q + n })));
    const asArray = JSON.stringify(events.map(([n, e]) => ({ __is_pydantic: true, value: e, qualified_name: q + n })));
    for (const [text, file] of [[bare, 'e.jsonl'], [envelope, 'e.jsonl'], [asArray, 'e.json']]) {
      const { r, sessions, codes } = read(text, file);
      assert.equal(r.format, 'llamaindex', file);
      assert.deepEqual(callNames(sessions[0]), ['add', 'fetch']);
      assert.deepEqual(pairedIds(sessions[0]), ['k2', 'k1']);
      assert.deepEqual(errors(sessions[0]), [true, false]);
      assert.deepEqual(sessions[0].results.map((x) => x.payload), ['Error: 404', 2], 'raw_output when there is one, else the content');
      assert.deepEqual(orphans(codes), []);
    }
    // results alone (a log of ToolCallResult events only): each is its call too
    const only = read(jsonl(events.slice(4).map(([, e]) => e)), 'r.jsonl');
    assert.equal(only.r.format, 'llamaindex');
    assert.deepEqual(callNames(only.sessions[0]), ['fetch', 'add']);
    assert.deepEqual(orphans(only.codes), []);
  });
});

// ---- Agno ------------------------------------------------------------------------------------------------------

const agnoMsg = (role: string, extra: Record<string, unknown> = {}) => ({ id: `m-${role}`, content: null, from_history: false, stop_after_tool_call: false, role, created_at: 1760000000, ...extra });
const agnoCall = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

describe('LlamaIndex workflow streams', () => {
  it('reads a long ToolCall / ToolCallResult stream in linear time, a result read twice answering its call once', () => {
    const n = 50_000;
    const lines: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const call = { tool_name: 'f', tool_kwargs: { a: i }, tool_id: `k${i}` };
      lines.push(call, { ...call, tool_output: { content: 'ok', tool_name: 'f', raw_input: {}, raw_output: 'ok', is_error: false }, return_direct: false });
    }
    lines.push(lines[1]);
    const started = Date.now();
    const { r, sessions, codes } = read(jsonl(lines), 'events.jsonl');
    assert.ok(Date.now() - started < 20000, 'no scan of the session per result');
    assert.equal(r.format, 'llamaindex');
    assert.deepEqual([sessions[0].calls.length, sessions[0].results.length], [n, n]);
    assert.deepEqual(orphans(codes), []);
  });
});

describe('Agno', () => {
  it('reads a run output: history copies (from_history) skipped, tool_call_error the flag, tools not read twice', () => {
    const run = {
      run_id: 'r2', agent_id: 'a', session_id: 's', content: 'sorry', status: 'COMPLETED',
      messages: [
        agnoMsg('user', { content: 'old', from_history: true }),
        agnoMsg('assistant', { from_history: true, tool_calls: [agnoCall('h1', 'lookup', '{"q": "old"}')] }),
        agnoMsg('tool', { from_history: true, content: 'old answer', tool_call_id: 'h1', tool_name: 'lookup', tool_args: { q: 'old' }, tool_call_error: false }),
        agnoMsg('user', { content: 'new' }),
        agnoMsg('assistant', { tool_calls: [agnoCall('c1', 'lookup', '{"q": "new"}')] }),
        agnoMsg('tool', { content: 'Error: timeout', tool_call_id: 'c1', tool_name: 'lookup', tool_args: { q: 'new' }, tool_call_error: true }),
        agnoMsg('assistant', { content: 'sorry' }),
      ],
      tools: [{ tool_call_id: 'c1', tool_name: 'lookup', tool_args: { q: 'new' }, tool_call_error: true, result: 'Error: timeout' }],
    };
    const { r, sessions, codes } = read(JSON.stringify(run, null, 2));
    assert.equal(r.format, 'agno');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].calls.map((c) => [c.id, c.args]), [['c1', { q: 'new' }]]);
    assert.deepEqual(errors(sessions[0]), [true]);
    assert.deepEqual(orphans(codes), []);
    // without messages (store_messages off): the tool executions are the calls and outcomes
    const { messages: _m, ...toolsOnly } = run;
    const t = read(JSON.stringify(toolsOnly));
    assert.equal(t.r.format, 'agno');
    assert.deepEqual(t.sessions[0].calls.map((c) => [c.id, c.args]), [['c1', { q: 'new' }]]);
    assert.deepEqual(errors(t.sessions[0]), [true]);
  });

  it('reads a stored session (2.x runs, 1.x memory.runs) as one session, runs in order', () => {
    const run = (n: number) => ({ run_id: `r${n}`, content: 'x', messages: [agnoMsg('user', { content: 'q' }), agnoMsg('assistant', { tool_calls: [agnoCall(`c${n}`, 'f', '{}')] }),
      agnoMsg('tool', { content: 'ok', tool_call_id: `c${n}`, tool_name: 'f', tool_args: {}, tool_call_error: false })] });
    const v2 = read(JSON.stringify({ session_id: 'S', session_type: 'agent', agent_id: 'a', runs: [run(1), run(2)], created_at: 1 }));
    assert.equal(v2.r.format, 'agno');
    assert.deepEqual(v2.sessions.map((s) => [s.id, s.calls.map((c) => c.id)]), [['S', ['c1', 'c2']]]);
    const v1 = read(JSON.stringify({ session_id: 'S1', agent_id: 'a', memory: { runs: [{ message: agnoMsg('user', { content: 'q' }), response: run(1) }], messages: run(1).messages }, agent_data: {} }));
    assert.equal(v1.r.format, 'agno');
    assert.deepEqual(v1.sessions.map((s) => [s.id, s.calls.map((c) => c.id)]), [['S1', ['c1']]]);
    assert.deepEqual(orphans([...v1.codes, ...v2.codes]), []);
  });

  it('reads run events: ToolCallStarted then ToolCallCompleted pair by tool_call_id, a team and its member in sessions of their own', () => {
    const tool = (id: string, name: string, result: unknown, err: unknown) => ({ tool_call_id: id, tool_name: name, tool_args: { q: id }, tool_call_error: err, result, metrics: null, stop_after_tool_call: false });
    const lines = [
      { created_at: 1, event: 'TeamRunStarted', team_id: 't', run_id: 'R', session_id: 'TS' },
      { created_at: 2, event: 'TeamToolCallStarted', team_id: 't', run_id: 'R', session_id: 'TS', tool: tool('d1', 'delegate_task_to_member', null, null) },
      { created_at: 3, event: 'ToolCallStarted', agent_id: 'm', run_id: 'M', session_id: 'MS', tool: tool('s1', 'search', null, null) },
      { created_at: 4, event: 'ToolCallCompleted', agent_id: 'm', run_id: 'M', session_id: 'MS', content: 'search(...) completed', tool: tool('s1', 'search', 'Error: rate limited', true) },
      { created_at: 5, event: 'TeamToolCallCompleted', team_id: 't', run_id: 'R', session_id: 'TS', tool: tool('d1', 'delegate_task_to_member', 'done', false) },
      { created_at: 6, event: 'TeamRunContent', team_id: 't', run_id: 'R', session_id: 'TS', content: 'answer' },
    ];
    for (const [text, file] of [[jsonl(lines), 'ev.jsonl'], [JSON.stringify(lines, null, 2), 'ev.json']]) {
      const { r, sessions, codes } = read(text, file);
      assert.equal(r.format, 'agno', file);
      assert.deepEqual(sessions.map((s) => [s.id, callNames(s), errors(s)]).sort(), [['MS', ['search'], [true]], ['TS', ['delegate_task_to_member'], [false]]]);
      assert.deepEqual(orphans(codes), []);
    }
  });

  it('reads a long run event stream in linear time, a completion read twice answering its call once', () => {
    const n = 50_000;
    const lines: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const tool = { tool_call_id: `c${i}`, tool_name: 'f', tool_args: { a: i } };
      lines.push({ event: 'ToolCallStarted', run_id: 'r', session_id: 's', created_at: i, tool }, { event: 'ToolCallCompleted', run_id: 'r', session_id: 's', created_at: i, tool: { ...tool, result: 'ok' } });
    }
    lines.push(lines[1]);
    const started = Date.now();
    const { r, sessions, codes } = read(jsonl(lines), 'ev.jsonl');
    assert.ok(Date.now() - started < 20000, 'no scan of the session per result');
    assert.equal(r.format, 'agno');
    assert.deepEqual([sessions[0].calls.length, sessions[0].results.length], [n, n]);
    assert.deepEqual(orphans(codes), []);
  });

  it('gives events that name no session or run (null ids) an unnamed session, as a list and as lines alike', () => {
    const tool = { tool_call_id: 'c1', tool_name: 'search', tool_args: { q: 'a' }, result: 'found' };
    const lines = [
      { created_at: 1, event: 'ToolCallStarted', agent_id: 'a', run_id: null, session_id: null, tool },
      { created_at: 2, event: 'ToolCallCompleted', agent_id: 'a', run_id: null, session_id: null, tool },
    ];
    for (const [text, file] of [[jsonl(lines), 'ev.jsonl'], [JSON.stringify(lines), 'ev.json']]) {
      const { r, sessions } = read(text, file);
      assert.equal(r.format, 'agno', file);
      assert.deepEqual(sessions.map((s) => [s.id, pairedIds(s)]), [[undefined, ['c1']]], file);
    }
  });
});

describe('Agno events without ids', () => {
  it('reads a run that stored only its events, whose tools name no tool_call_id: the completion answers the earliest open call of that tool', () => {
    const run = { run_id: 'r', session_id: 's', content: '', messages: [], status: 'cancelled', events: [
      { event: 'ToolCallStarted', run_id: 'r', tool: { tool_name: 'list_assets', tool_args: { workspace_id: 'w' } } },
      { event: 'ToolCallStarted', run_id: 'r', tool: { tool_name: 'list_assets', tool_args: { workspace_id: 'v' } } },
      { event: 'ToolCallCompleted', run_id: 'r', tool: { tool_name: 'list_assets', result: { total: 2 } } },
      { event: 'ToolCallCompleted', run_id: 'r', tool: { tool_name: 'render', tool_args: { id: 1 }, result: 'ok', tool_call_error: false } },
    ] };
    const { r, sessions, codes } = read(JSON.stringify(run));
    assert.equal(r.format, 'agno');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['list_assets', { workspace_id: 'w' }], ['list_assets', { workspace_id: 'v' }], ['render', { id: 1 }]]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, x.payload]), [[0, { total: 2 }], [2, 'ok']], 'a completion with no call before it is its own call');
    assert.deepEqual(codes.filter((c) => c === 'orphan-result'), []);
  });
});

describe('AutoGen 0.2 / AG2 chat histories', () => {
  it('pairs tool_responses entries by tool_call_id (a ChatResult and a bare history), where the chat reader saw an orphan call and an orphan result', () => {
    const history = [
      { content: 'add 2 and 3, then double 4', role: 'assistant', name: 'user_proxy' },
      { tool_calls: [{ id: 'call_1', function: { arguments: '{"a": 2, "b": 3}', name: 'add' }, type: 'function' },
        { id: 'call_2', function: { arguments: '{"x": 4}', name: 'double' }, type: 'function' }], content: null, role: 'assistant' },
      { content: '5\n\n8', tool_responses: [{ tool_call_id: 'call_2', role: 'tool', content: '8' }, { tool_call_id: 'call_1', role: 'tool', content: '5' }], role: 'tool', name: 'user_proxy' },
      { content: '5 and 8. TERMINATE', role: 'user', name: 'assistant' },
    ];
    for (const doc of [history, { chat_id: null, chat_history: history, summary: '5 and 8', cost: {}, human_input: [] }]) {
      const { r, sessions, codes } = read(JSON.stringify(doc));
      assert.equal(r.format, 'autogen');
      assert.deepEqual(sessions[0].calls.map((c) => [c.id, c.args]), [['call_1', { a: 2, b: 3 }], ['call_2', { x: 4 }]]);
      assert.deepEqual(pairedIds(sessions[0]), ['call_2', 'call_1']);
      assert.deepEqual(sessions[0].results.map((x) => x.payload), ['8', '5']);
      assert.deepEqual(orphans(codes), []);
    }
  });
});

// ---- CrewAI ----------------------------------------------------------------------------------------------------

const task = (agent: string, messages: unknown[]) => ({ description: `task of ${agent}`, name: null, expected_output: 'a number', summary: 'task...', raw: 'done', pydantic: null, json_dict: null, agent, output_format: 'raw', messages });

describe('CrewAI', () => {
  it('reads ReAct text: each Action / Action Input a call, its Observation the outcome, CrewAI error texts as failures, a finding inside the input located', () => {
    const crew = {
      raw: 'done', pydantic: null, json_dict: null, token_usage: { total_tokens: 10 },
      tasks_output: [task('Researcher', [
        { role: 'system', content: 'You are Researcher.' },
        { role: 'user', content: '\nCurrent Task: count\n\nThought:' },
        { role: 'assistant', content: 'Thought: search first\nAction: Search the internet\nAction Input: {"search_query": "paris", "n": "three"}\nObservation: 2.1 million' },
        { role: 'assistant', content: 'Thought: read it\nAction: Read website content\nAction Input: {\'website_url\': \'https://x\'}\nObservation: I encountered an error while trying to use the tool. This was the error: 404.' },
        { role: 'assistant', content: 'Thought: I now know the final answer\nFinal Answer: done' },
      ]), task('Writer', [])],
    };
    const text = JSON.stringify(crew, null, 2);
    const { r, sessions, codes } = read(text, 'crew.json', intContract('Search the internet', 'n'));
    assert.equal(r.format, 'crewai');
    assert.deepEqual(sessions.map((s) => s.id), ['Researcher #1']);
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['Search the internet', 'Read website content']);
    assert.deepEqual(s.calls[0].args, { search_query: 'paris', n: 'three' });
    assert.equal(s.calls[1].encoding, 'freeform', 'a Python-literal input CrewAI accepts is kept as text, not an encoding fault');
    assert.deepEqual(pairedIds(s), ['#0', '#1']);
    assert.deepEqual(errors(s), [false, true]);
    const f = r.findings.find((x) => x.code === 'type-drift' && x.tool === 'Search the internet');
    assert.ok(f, codes.join());
    assert.equal(text.slice(f.span.start, f.span.end), '\\"three\\"', 'the finding points at the value inside the message text');
    assert.deepEqual(orphans(codes), []);
  });

  it('reads native function calling messages (tool_calls answered by tool messages), and a list of crew outputs (kickoff_for_each)', () => {
    const native = (id: string) => task('Reporter', [
      { role: 'user', content: 'Current Task: stats' },
      { role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name: 'db_stats', arguments: '{"state":"NY"}' } }] },
      { role: 'tool', content: 'users=1', tool_call_id: id, name: 'db_stats' },
      { role: 'assistant', content: 'users=1' },
    ]);
    const list = [1, 2].map((n) => ({ raw: 'x', pydantic: null, json_dict: null, tasks_output: [native(`call_${n}`)], token_usage: {} }));
    const { r, sessions, codes } = read(JSON.stringify(list));
    assert.equal(r.format, 'crewai');
    assert.deepEqual(sessions.map((s) => pairedIds(s)), [['call_1'], ['call_2']]);
    assert.deepEqual(sessions.map((s) => s.calls[0].args), [{ state: 'NY' }, { state: 'NY' }]);
    assert.deepEqual(orphans(codes), []);
  });

  it('reads ReAct text with long runs of blanks (after an Action name, inside an input) in linear time, the name trimmed of blanks, CR and quotes', () => {
    const blanks = ' '.repeat(300_000);
    const started = Date.now();
    const { sessions } = read(JSON.stringify(task('Researcher', [
      { role: 'assistant', content: `Thought: a\nAction: **"search"** \t\r\nAction Input: {"q": "x"}${blanks}tail\nObservation: found` },
      { role: 'assistant', content: `Thought: b\nAction: search${blanks}y` },
      { role: 'assistant', content: `Thought: c\nAction: a${'"'.repeat(100_000)}b\nAction Input: {"q": "z"}` },
    ])));
    assert.ok(Date.now() - started < 20000, 'no backtracking over a run of blanks or quotes');
    const s = sessions[0];
    assert.deepEqual(callNames(s), ['search', `a${'"'.repeat(100_000)}b`]);
    assert.deepEqual(s.calls.map((c) => c.args), [{ q: 'x' }, { q: 'z' }]);
    assert.deepEqual(pairedIds(s), ['#0']);
  });
});

describe('CrewAI event bus', () => {
  it('does not take log lines whose type merely starts like a bus event\'s and that carry a timestamp (tool_call, llm_response): they are read by shape or searched as before', () => {
    const pad = { a: 1, b: 2, c: 3, d: 4, e: 5 };
    const records = jsonl([{ type: 'tool_call', timestamp: '2026-01-01T00:00:00Z', name: 'get_weather', arguments: { city: 'Oslo' }, id: '1', ...pad },
      { type: 'tool_result', timestamp: '2026-01-01T00:00:01Z', id: '1', output: 'rain', ...pad }]);
    const lines = read(records, 'calls.jsonl');
    assert.equal(lines.r.format, 'generic');
    assert.deepEqual(lines.sessions.flatMap(callNames), ['get_weather']);
    const completion = { id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'tool_calls',
      message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] } }] };
    const doc = read(JSON.stringify({ type: 'llm_response', timestamp: '2026-01-01T00:00:00Z', ...pad, f: 6, g: 7, data: completion }), 'log.json');
    assert.equal(doc.r.format, 'openai-chat');
    assert.deepEqual(doc.sessions.flatMap(callNames), ['get_weather']);
  });

  it('reads tool_usage events: started a call, finished / error its outcome (by started_event_id, else the tool\'s earliest open call), a session per agent', () => {
    const ev = (type: string, extra: Record<string, unknown>) => ({ type, timestamp: '2026-01-01T00:00:00Z', source_type: 'agent', ...extra });
    const lines = [
      ev('crew_kickoff_started', { crew_name: 'demo' }),
      ev('tool_usage_started', { event_id: 'e1', agent_role: 'Researcher', tool_name: 'search', tool_args: { q: 'a' } }),
      ev('tool_usage_started', { event_id: 'e2', agent_role: 'Researcher', tool_name: 'search', tool_args: { q: 'b' } }),
      ev('tool_usage_error', { agent_role: 'Researcher', tool_name: 'search', started_event_id: 'e2', error: 'rate limited' }),
      ev('tool_usage_finished', { agent_role: 'Researcher', tool_name: 'search', output: 'found a', from_cache: false }),
      ev('tool_usage_started', { event_id: 'e3', agent_role: 'Writer', tool_name: 'save', tool_args: '{"path": "r.md"}' }),
      ev('tool_usage_finished', { agent_role: 'Writer', tool_name: 'save', started_event_id: 'e3', output: 'ok' }),
      ev('crew_kickoff_completed', { crew_name: 'demo', output: 'final' }),
    ];
    for (const [text, file] of [[jsonl(lines), 'events.jsonl'], [JSON.stringify(lines, null, 2), 'events.json']]) {
      const { r, sessions, codes } = read(text, file);
      assert.equal(r.format, 'crewai', file);
      assert.deepEqual(sessions.map((s) => s.id).sort(), ['Researcher', 'Writer']);
      const res = sessions.find((s) => s.id === 'Researcher')!;
      assert.deepEqual(res.calls.map((c) => c.args), [{ q: 'a' }, { q: 'b' }]);
      assert.deepEqual(res.results.map((x) => [x.callIndex, x.transport.isError]), [[1, true], [0, false]]);
      assert.deepEqual(sessions.find((s) => s.id === 'Writer')!.calls.map((c) => c.args), [{ path: 'r.md' }]);
      assert.deepEqual(orphans(codes), []);
    }
  });
});

// ---- Vercel AI SDK ---------------------------------------------------------------------------------------------

describe('Vercel AI SDK', () => {
  it('reads v4 UI messages: tool-invocation parts (toolInvocations repeating them not read twice), an invocation without an id paired with its own call', () => {
    const inv = (id: string | undefined, state: string) => ({ state, step: 0, ...(id ? { toolCallId: id } : {}), toolName: 'schedule', args: { when: 'noon' }, ...(state === 'result' ? { result: 'ok' } : {}) });
    const text = JSON.stringify([
      { id: 'u', role: 'user', content: 'remind me', parts: [{ type: 'text', text: 'remind me' }] },
      { id: 'a', role: 'assistant', content: 'done', toolInvocations: [inv('call_1', 'result')], parts: [{ type: 'step-start' }, { type: 'tool-invocation', toolInvocation: inv('call_1', 'result') },
        { type: 'step-start' }, { type: 'tool-invocation', toolInvocation: inv(undefined, 'result') }, { type: 'text', text: 'done' }] },
    ]);
    const { r, sessions, codes } = read(text);
    assert.equal(r.format, 'ai-sdk');
    assert.equal(sessions[0].calls.length, 2);
    assert.equal(sessions[0].turns, 2, 'a step-start opens the next model step');
    assert.deepEqual(pairedIds(sessions[0]), ['call_1', '#1']);
    assert.deepEqual(orphans(codes), []);
  });

  it('reads v5 UI message parts: tool-<name> and dynamic-tool, output-error and output-denied as failures, input-available still waiting', () => {
    const text = JSON.stringify({ id: 'a', role: 'assistant', parts: [
      { type: 'tool-getWeather', toolCallId: 't1', state: 'output-available', input: { city: 'SF' }, output: { temp: 18 } },
      { type: 'tool-getWeather', toolCallId: 't2', state: 'output-error', input: { city: '' }, errorText: 'city required' },
      { type: 'dynamic-tool', toolName: 'mcp_search', toolCallId: 't3', state: 'output-denied', input: { q: 'x' }, approval: { id: 'ap', approved: false } },
      { type: 'tool-getWeather', toolCallId: 't4', state: 'input-available', input: { city: 'LA' } },
    ] });
    const { r, sessions } = read(text);
    assert.equal(r.format, 'ai-sdk');
    assert.deepEqual(callNames(sessions[0]), ['getWeather', 'getWeather', 'mcp_search', 'getWeather']);
    assert.deepEqual(pairedIds(sessions[0]), ['t1', 't2', 't3']);
    assert.deepEqual(errors(sessions[0]), [false, true, true]);
  });

  it('reads model messages (v4 args/result, v5 input/output with an error-text output) and a generateText result once, not per step and again per response message', () => {
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'getWeather', input: { city: 'SF' } }, { type: 'tool-call', toolCallId: 'c2', toolName: 'getTime', args: { tz: 'PST' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'getWeather', output: { type: 'error-text', value: 'boom' } }, { type: 'tool-result', toolCallId: 'c2', toolName: 'getTime', result: '9am' }] },
    ];
    const m = read(JSON.stringify(messages));
    assert.equal(m.r.format, 'ai-sdk');
    assert.deepEqual(m.sessions[0].calls.map((c) => [c.name, c.args]), [['getWeather', { city: 'SF' }], ['getTime', { tz: 'PST' }]]);
    assert.deepEqual(errors(m.sessions[0]), [true, undefined]);
    const call = { type: 'tool-call', toolCallId: 'c1', toolName: 'getWeather', args: { city: 'SF' } };
    const result = { type: 'tool-result', toolCallId: 'c1', toolName: 'getWeather', args: { city: 'SF' }, result: { temp: 18 } };
    const gen = { text: '18', toolCalls: [], toolResults: [], finishReason: 'stop', steps: [{ stepType: 'initial', toolCalls: [call], toolResults: [result] }, { stepType: 'tool-result', toolCalls: [], toolResults: [] }] };
    const g = read(JSON.stringify(gen));
    assert.equal(g.r.format, 'ai-sdk');
    assert.deepEqual(pairedIds(g.sessions[0]), ['c1']);
    const withResponse = read(JSON.stringify({ ...gen, response: { messages: messages.slice(1) } }));
    assert.deepEqual(withResponse.sessions[0].calls.map((c) => c.id), ['c1', 'c2'], 'the response messages are the whole exchange');
    assert.deepEqual(orphans([...g.codes, ...withResponse.codes]), []);
  });

  it('reads the v5 UI message stream (SSE): tool-input-available a call, tool-output-available / tool-output-error its outcome, deltas ignored', () => {
    const events = [
      { type: 'start', messageId: 'm' },
      { type: 'tool-input-start', toolCallId: 't1', toolName: 'getWeather' },
      { type: 'tool-input-delta', toolCallId: 't1', inputTextDelta: '{"city":' },
      { type: 'tool-input-available', toolCallId: 't1', toolName: 'getWeather', input: { city: 'SF' } },
      { type: 'tool-input-available', toolCallId: 't2', toolName: 'getWeather', input: { city: 'LA' } },
      { type: 'tool-output-available', toolCallId: 't1', output: { temp: 18 } },
      { type: 'tool-output-error', toolCallId: 't2', errorText: 'upstream 500' },
      { type: 'finish' },
    ];
    const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
    const { r, sessions, codes } = read(text, 'chat.sse');
    assert.equal(r.format, 'ai-sdk');
    assert.deepEqual(sessions[0].calls.map((c) => [c.id, c.args]), [['t1', { city: 'SF' }], ['t2', { city: 'LA' }]]);
    assert.deepEqual(errors(sessions[0]), [false, true]);
    assert.deepEqual(orphans(codes), []);
  });

  it('reads a long stream of tool-call / tool-result parts in linear time, each result answering its call once', () => {
    const n = 50_000;
    const parts: unknown[] = [];
    for (let i = 0; i < n; i++) parts.push({ type: 'tool-call', toolCallId: `t${i}`, toolName: 'f', input: { a: i } }, { type: 'tool-result', toolCallId: `t${i}`, output: 'ok' });
    parts.push({ type: 'tool-result', toolCallId: 't7', output: 'again' });
    const started = Date.now();
    const { r, sessions, codes } = read(jsonl(parts), 'stream.jsonl');
    assert.ok(Date.now() - started < 20000, 'no scan of the session per result');
    assert.equal(r.format, 'ai-sdk');
    assert.equal(sessions[0].calls.length, n);
    assert.equal(sessions[0].results.length, n, 'a second result for an answered call is not read');
    assert.deepEqual(orphans(codes), []);
  });

  it('leaves records of other layouts that merely have a `type` (a log line wrapping a Chat completion, a generic call record) to the wrapper search and the shape reader', () => {
    const completion = { id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'tool_calls',
      message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] } }] };
    for (const [text, file] of [[JSON.stringify({ type: 'log', ts: 1, data: completion }), 'log.json'], [jsonl([{ type: 'log', ts: 1, data: completion }]), 'log.jsonl']]) {
      const { r, sessions } = read(text, file);
      assert.equal(r.format, 'openai-chat', file);
      assert.deepEqual(sessions.flatMap(callNames), ['get_weather'], file);
    }
    const records = jsonl([{ type: 'tool_call', name: 'get_weather', arguments: { city: 'Oslo' }, id: '1' }, { type: 'tool_result', id: '1', output: 'rain' }]);
    const { r, sessions } = read(records, 'calls.jsonl');
    assert.equal(r.format, 'generic');
    assert.deepEqual(sessions.flatMap(callNames), ['get_weather']);
  });
});

// ---- Mastra ----------------------------------------------------------------------------------------------------

describe('Mastra', () => {
  const inv = { state: 'result', step: 0, toolCallId: 'call_1', toolName: 'weatherTool', args: { location: 'SF' }, result: { temperature: 18 } };
  const v2 = [
    { id: 'm1', role: 'user', createdAt: '2025-06-01T00:00:00.000Z', threadId: 'th1', resourceId: 'r', type: 'v2', content: { format: 2, parts: [{ type: 'text', text: 'weather?' }], content: 'weather?' } },
    { id: 'm2', role: 'assistant', createdAt: '2025-06-01T00:00:01.000Z', threadId: 'th1', resourceId: 'r', type: 'v2',
      content: { format: 2, parts: [{ type: 'step-start' }, { type: 'tool-invocation', toolInvocation: inv }, { type: 'text', text: '18' }], toolInvocations: [inv], content: '18' } },
  ];

  it('reads v2 memory messages, also as storage rows whose content is JSON text, with a finding located inside that text', () => {
    const recall = read(JSON.stringify({ messages: v2 }));
    assert.equal(recall.r.format, 'mastra');
    assert.deepEqual(recall.sessions.map((s) => [s.id, pairedIds(s)]), [['th1', ['call_1']]]);
    const rows = v2.map(({ threadId, content, ...m }) => ({ ...m, thread_id: threadId, content: JSON.stringify(content) }));
    const text = JSON.stringify(rows, null, 2);
    const { r, sessions, codes } = read(text, 'rows.json', JSON.stringify({ tools: [{ name: 'weatherTool', inputSchema: { type: 'object', properties: { location: { type: 'integer' } } } }] }));
    assert.equal(r.format, 'mastra');
    assert.deepEqual(sessions[0].calls.map((c) => c.args), [{ location: 'SF' }]);
    const f = r.findings.find((x) => x.tool === 'weatherTool' && x.code === 'type-drift');
    assert.ok(f, codes.join());
    assert.equal(text.slice(f.span.start, f.span.end), '\\"SF\\"');
    assert.deepEqual(orphans(codes), []);
  });

  it('reads v1 messages of {messages, uiMessages} once (the same conversation twice), and stream chunks whose tool-error is a failure', () => {
    const v1 = [
      { id: 'm1', role: 'user', content: 'weather?', type: 'text', threadId: 'th1', createdAt: '2025-03-01T00:00:00.000Z' },
      { id: 'm2', role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'weatherTool', args: { location: 'SF' } }], type: 'tool-call', threadId: 'th1', createdAt: '2025-03-01T00:00:01.000Z' },
      { id: 'm3', role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'weatherTool', result: { temperature: 18 } }], type: 'tool-result', threadId: 'th1', createdAt: '2025-03-01T00:00:02.000Z' },
    ];
    const ui = [{ id: 'm2', role: 'assistant', content: '', toolInvocations: [inv], parts: [{ type: 'tool-invocation', toolInvocation: inv }] }];
    const dump = read(JSON.stringify({ messages: v1, uiMessages: ui }));
    assert.equal(dump.r.format, 'mastra');
    assert.deepEqual(dump.sessions.map((s) => [s.id, pairedIds(s)]), [['th1', ['call_1']]]);
    const chunks = jsonl([
      { type: 'start', runId: 'run1', from: 'AGENT', payload: {} },
      { type: 'tool-call', runId: 'run1', from: 'AGENT', payload: { toolCallId: 'call_1', toolName: 'weatherTool', args: { location: 'SF' } } },
      { type: 'tool-error', runId: 'run1', from: 'AGENT', payload: { toolCallId: 'call_1', toolName: 'weatherTool', args: { location: 'SF' }, error: { message: 'upstream 500' } } },
      { type: 'finish', runId: 'run1', from: 'AGENT', payload: {} },
    ]);
    const c = read(chunks, 'stream.jsonl');
    assert.equal(c.r.format, 'mastra');
    assert.deepEqual(c.sessions[0].calls.map((x) => [x.id, x.args]), [['call_1', { location: 'SF' }]]);
    assert.deepEqual(errors(c.sessions[0]), [true]);
    assert.deepEqual(orphans([...dump.codes, ...c.codes]), []);
  });
  it('leaves log lines that merely name a runId (no `from`) to the shape reader, and an envelope that is not LlamaIndex\'s to the other readers', () => {
    const lines = read(jsonl([{ type: 'tool_call', runId: 'r1', name: 'get_weather', arguments: { city: 'Oslo' }, id: '1' },
      { type: 'tool_result', runId: 'r1', id: '1', output: 'rain' }]), 'calls.jsonl');
    assert.equal(lines.r.format, 'generic');
    assert.deepEqual(lines.sessions.flatMap(callNames), ['get_weather']);
    const env = read(JSON.stringify({ qualified_name: 'app.audit.Log', value: { name: 'get_weather', arguments: { city: 'Oslo' }, id: '1' } }), 'log.json');
    assert.notEqual(env.r.format, 'llamaindex');
    assert.deepEqual(env.sessions.flatMap(callNames), ['get_weather']);
  });
});
