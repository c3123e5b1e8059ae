// Layouts seen in real Letta message lists, OpenAI Agents SDK run states and BFCL files (round five). Every trace
// here is small and written for the test from the formats' facts; none is a copy of a sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('real layouts (agents5): BFCL bare answers', () => {
  it('a JSON file of one-key objects whose values look like bare answers is not BFCL', () => {
    const text = JSON.stringify([{ samples: ['[get_weather(city="Oslo")]'] }, { samples: ['hello'] }]);
    const { r, sessions } = readModel(text, { fileName: 'notes.json' });
    assert.notEqual(r.format, 'bfcl');
    assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
    const nested = readModel(JSON.stringify({ prompts: { few_shot: ['[lookup(q="x")]'] } }), { fileName: 'cfg.json' });
    assert.notEqual(nested.r.format, 'bfcl');
  });

  it('bare answer lines of a result file are still read, one session per line', () => {
    const text = lines([[], ['[area(r=2.0)]'], ['[area(r=1.0), perimeter(r=1.0)]']]);
    const { r, sessions } = readModel(text, { fileName: 'model_result_exec_simple.jsonl' });
    assert.equal(r.format, 'bfcl');
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => c.name).join('+')).filter(Boolean), ['area', 'area+perimeter']);
  });
});

const pyState = (extra: Record<string, unknown>) => JSON.stringify({
  $schemaVersion: '1.19', current_agent: { name: 'a' }, current_step: { type: 'next_step_run_again' }, generated_items: [],
  model_responses: [], original_input: 'hi', session_items: [], trace: null, ...extra,
}, null, 2);

describe('real layouts (agents5): OpenAI Agents run states', () => {
  it('items held for the session store (pending_session_write) are the calls and results of a turn that ran', () => {
    const text = pyState({
      pending_session_write: { held: true, persisted_count: 2, session_id: 's1', items: [
        { type: 'function_call', call_id: 'c_held', name: 'save_note', arguments: '{"text": "x"}' },
        { type: 'function_call_output', call_id: 'c_held', output: 'saved' },
      ] },
    });
    const { r, sessions, codes } = readModel(text, { fileName: 'state.json' });
    assert.equal(r.format, 'openai-agents');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { text: 'x' });
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].callId, 'c_held');
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });

  it('the JS spelling (pendingSessionWrite) and a copy in generated items are read once', () => {
    const call = { type: 'function_call', callId: 'c1', name: 'save_note', arguments: '{}', status: 'completed' };
    const text = JSON.stringify({
      $schemaVersion: '1.21', currentAgent: { name: 'a' }, modelResponses: [{ output: [call] }],
      generatedItems: [{ type: 'tool_call_item', rawItem: call, agent: { name: 'a' } }],
      pendingSessionWrite: { items: [call, { type: 'function_call_result', callId: 'c1', name: 'save_note', status: 'completed', output: 'ok' }] },
    });
    const { sessions } = readModel(text, { fileName: 'state.json' });
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 1);
  });

  it('a durable approval override: the call is what the model sent (the mutation\'s expected), not the rewrite', () => {
    const sent = { type: 'function_call', call_id: 'ov1', id: 'fc1', name: 'send_email', arguments: '{"to": "a@x.org"}' };
    const rewritten = { ...sent, arguments: '{"to": "b@x.org"}' };
    const text = pyState({
      generated_items: [{ type: 'tool_call_item', agent: { name: 'a' }, raw_item: rewritten }],
      session_items: [{ type: 'tool_call_item', agent: { name: 'a' }, raw_item: rewritten }],
      model_responses: [{ output: [sent], response_id: 'r1' }],
      session_history_mutations: [{ type: 'replace_function_call', call_id: 'ov1', expected: sent, replacement: rewritten }],
      current_step: { type: 'next_step_interruption', data: { interruptions: [{ type: 'tool_approval_item', agent: { name: 'a' }, raw_item: rewritten }] } },
    });
    const { sessions, codes } = readModel(text, { fileName: 'state.json' });
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { to: 'a@x.org' });
    assert.ok(!codes.includes('orphan-call'), codes.join()); // waiting for approval: no result yet, none owed
  });
});

const msg = (id: string, type: string, rest: Record<string, unknown>) => ({ id, date: '2025-01-01T00:00:00Z', message_type: type, ...rest });

describe('real layouts (agents5): Letta message lists', () => {
  it('a LettaResponse {messages, usage}: calls, results by tool_call_id, status error is an error', () => {
    const text = JSON.stringify({
      messages: [
        msg('m1', 'reasoning_message', { reasoning: 'search first' }),
        msg('m1', 'tool_call_message', { tool_call: { name: 'web_search', arguments: '{"query": "tides", "request_heartbeat": true}', tool_call_id: 'call_s' } }),
        msg('m2', 'tool_return_message', { tool_return: 'high at 6', status: 'success', tool_call_id: 'call_s', stdout: null, stderr: null }),
        msg('m3', 'tool_call_message', { tool_call: { name: 'send_message', arguments: '{"message": "6am"}', tool_call_id: 'call_m' } }),
        msg('m4', 'tool_return_message', { tool_return: 'Error: channel closed', status: 'error', tool_call_id: 'call_m', stdout: null, stderr: ['trace'] }),
      ],
      usage: { completion_tokens: 5, prompt_tokens: 50, total_tokens: 55, step_count: 2 },
    }, null, 2);
    const { r, sessions, codes } = readModel(text, { fileName: 'response.json' });
    assert.equal(r.format, 'letta');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => c.id), ['call_s', 'call_m']);
    assert.deepEqual(s.calls[0].args, { query: 'tides', request_heartbeat: true });
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport?.isError]), [['call_s', false], ['call_m', true]]);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });

  it('a token stream (JSONL or SSE): a call in pieces of one message id is one call', () => {
    const rows = [
      msg('m1', 'tool_call_message', { tool_call: { name: 'get_time', arguments: '', tool_call_id: 'call_t' } }),
      msg('m1', 'tool_call_message', { tool_call: { name: null, arguments: '{"zone": ', tool_call_id: null } }),
      msg('m1', 'tool_call_message', { tool_call: { name: null, arguments: '"UTC"}', tool_call_id: null } }),
      msg('m2', 'tool_return_message', { tool_return: '12:00', status: 'success', tool_call_id: 'call_t' }),
      { message_type: 'stop_reason', stop_reason: 'end_turn' },
      { message_type: 'usage_statistics', step_count: 1 },
    ];
    for (const [text, fileName] of [[lines(rows), 'stream.jsonl'], [rows.map((x) => `data: ${JSON.stringify(x)}\n\n`).join('') + 'data: [DONE]\n\n', 'stream.sse']]) {
      const { r, sessions } = readModel(text, { fileName });
      assert.equal(r.format, 'letta', fileName);
      assert.equal(sessions[0].calls.length, 1, fileName);
      assert.deepEqual(sessions[0].calls[0].args, { zone: 'UTC' }, fileName);
      assert.equal(sessions[0].results[0].callId, 'call_t', fileName);
    }
  });

  it('tool_calls / tool_returns lists (parallel calls), an approval request and its approved call read once', () => {
    const del = { name: 'rm', arguments: '{"path": "/tmp/a"}', tool_call_id: 'c9' };
    const text = JSON.stringify([
      msg('m1', 'approval_request_message', { tool_call: del, tool_calls: [del] }),
      msg('m2', 'approval_response_message', { approvals: [{ type: 'approval', tool_call_id: 'c9', approve: true }] }),
      msg('m3', 'tool_call_message', { tool_calls: [del, { name: 'ls', arguments: '{"path": "/tmp"}', tool_call_id: 'c10' }] }),
      msg('m4', 'tool_return_message', { tool_returns: [
        { tool_call_id: 'c9', status: 'success', tool_return: 'removed' },
        { tool_call_id: 'c10', status: 'error', tool_return: 'denied' },
      ] }),
    ]);
    const { sessions, codes } = readModel(text, { fileName: 'messages.json' });
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['rm', 'ls']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport?.isError]), [['c9', false], ['c10', true]]);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });

  it('a return without tool_call_id answers the latest call still waiting; a list with no tool traffic is not claimed', () => {
    const text = JSON.stringify([
      msg('m1', 'tool_call_message', { tool_call: { name: 'ping_host', arguments: '{"host": "h"}' } }),
      msg('m2', 'tool_return_message', { tool_return: 'pong', status: 'success' }),
    ]);
    const { sessions } = readModel(text, { fileName: 'messages.json' });
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].callIndex, 0);
    const chat = readModel(JSON.stringify([msg('m1', 'user_message', { content: 'hi' }), msg('m2', 'assistant_message', { content: 'hello' })]), { fileName: 'x.json' });
    assert.notEqual(chat.r.format, 'letta');
  });
});

describe('real layouts (agents5): tau2 task files', () => {
  it('a tasks.json (expected actions only) is tau-bench with no calls, not calls found by shape', () => {
    const task = (id: string) => ({ id, description: { purpose: null }, user_scenario: { persona: null, instructions: { domain: 'retail', reason_for_call: 'x' } },
      initial_state: null, evaluation_criteria: { actions: [{ action_id: `${id}_0`, requestor: 'assistant', name: 'get_order', arguments: { order_id: '#1' }, info: null }], reward_basis: ['DB'] } });
    for (const v of [[task('0'), task('1')], task('7')]) {
      const { r, sessions } = readModel(JSON.stringify(v, null, 2), { fileName: 'tasks.json' });
      assert.equal(r.format, 'tau-bench');
      assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
      assert.equal(r.findings.length, 0);
    }
  });
});

describe('real layouts (agents5): BFCL memory results', () => {
  it('result lines of memory entries (ids named after their scenario, no token counts) are read', () => {
    const text = lines([
      { id: 'memory_3-healthcare-3', result: ['[core_memory_retrieve(key="patient_age")]'] },
      { id: 'memory_4-student-0', result: ['[core_memory_list_keys()], [archival_memory_add(key="k", value="v")]'] },
      { id: 'memory_5-student-1', result: ["No function matches the user's request."] },
    ]);
    const { r, sessions } = readModel(text, { fileName: 'BFCL_v4_memory_result.json' });
    assert.equal(r.format, 'bfcl');
    assert.deepEqual(sessions.filter((s) => s.calls.length > 0).map((s) => [s.id, s.calls.length]), [['memory_3-healthcare-3', 1], ['memory_4-student-0', 2]]);
    assert.deepEqual(sessions[1].calls[1].args, { key: 'k', value: 'v' });
    // an id of another naming still makes a result line when its result is a bare answer (a session of its own)
    const other = readModel(lines([{ id: 'run-9', result: ['[area(r=1)]'] }]), { fileName: 'results.jsonl' });
    assert.equal(other.r.format, 'bfcl');
    assert.deepEqual(other.sessions.map((s) => [s.id, s.calls.length]), [['run-9', 1]]);
  });
});

describe('real layouts (agents5): a run state cut short', () => {
  it('a state cut outside any list of records keeps its whole top-level members: the calls before the break are read', () => {
    const call = { type: 'function_call', callId: 'c7', name: 'lookup', arguments: '{"q": "a"}', status: 'completed' };
    const whole = JSON.stringify({
      $schemaVersion: '1.2', currentAgent: { name: 'a' }, modelResponses: [{ output: [call] }],
      generatedItems: [{ type: 'tool_call_item', rawItem: call, agent: { name: 'a' } }],
      context: { usage: { requests: 1 }, approvals: {}, context: { note: 'a long context value' } },
    }, null, 2);
    const text = whole.slice(0, whole.indexOf('a long context') + 6); // inside a string of `context`
    const { r, sessions, codes } = readModel(text, { fileName: 'state.json' });
    assert.equal(r.format, 'openai-agents');
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['c7']);
    assert.ok(codes.includes('parse-error'), codes.join());
  });
});
