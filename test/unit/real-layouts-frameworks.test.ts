// Traces that agent frameworks write themselves, in the layouts found in real files and the frameworks' sources:
// Pydantic AI message histories, Google ADK sessions and eval sets, AutoGen AgentChat results and saved state,
// smolagents memory steps, Strands Agents session messages, DSPy ReAct trajectories, Semantic Kernel chat
// histories. Every trace here is small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadContracts, type Session } from '../../src/core';
import { readModel } from './helpers';

function read(text: string, fileName?: string, contractText?: string) {
  const contracts = contractText ? loadContracts([{ path: 'c.json', text: contractText }]).contracts : undefined;
  return readModel(text, { fileName, contracts });
}

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const errors = (s: Session) => s.results.map((x) => x.transport.isError);
const tool = (name: string, required: string[]) => ({ name, parameters: { type: 'object', properties: Object.fromEntries(required.map((k) => [k, { type: 'string' }])), required } });

// ---- Pydantic AI -------------------------------------------------------------------------------------------

const paiRequest = (...parts: unknown[]) => ({ parts, instructions: null, kind: 'request' });
const paiResponse = (...parts: unknown[]) => ({ parts, usage: { input_tokens: 1, output_tokens: 1 }, model_name: 'gpt-4o', timestamp: '2026-01-01T00:00:00Z', kind: 'response' });
const paiCall = (id: string, name: string, args: unknown) => ({ tool_name: name, args, tool_call_id: id, part_kind: 'tool-call' });
const paiReturn = (id: string, name: string, content: unknown, extra: Record<string, unknown> = {}) => ({ tool_name: name, content, tool_call_id: id, metadata: null, timestamp: '2026-01-01T00:00:01Z', part_kind: 'tool-return', ...extra });

describe('Pydantic AI message history', () => {
  it('reads all_messages_json(): string and object arguments, returns paired by tool_call_id, retry-prompt and a failed outcome as errors', () => {
    const text = JSON.stringify([
      paiRequest({ content: 'weather in Paris and the time?', part_kind: 'user-prompt' }),
      paiResponse(paiCall('c1', 'get_weather', '{"city": "Paris"}'), paiCall('c2', 'get_time', { tz: 'CET' })),
      paiRequest(paiReturn('c1', 'get_weather', 'sunny'), { content: [{ type: 'missing', loc: ['tz'], msg: 'Field required' }], tool_name: 'get_time', tool_call_id: 'c2', part_kind: 'retry-prompt' }),
      paiResponse(paiCall('c3', 'get_time', { tz: 'Europe/Paris' })),
      paiRequest(paiReturn('c3', 'get_time', 'boom', { outcome: 'failed' })),
      paiResponse({ content: 'Sunny; the clock failed.', part_kind: 'text' }),
    ]);
    const { r, sessions, codes } = read(text, 'history.json');
    assert.equal(r.format, 'pydantic-ai');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.encoding, c.turn]), [['get_weather', 'json-string', 1], ['get_time', 'object', 1], ['get_time', 'object', 2]]);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['c1', 'c2', 'c3']);
    assert.deepEqual(errors(sessions[0]), [undefined, true, true]);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result') && !codes.includes('read-by-shape'), codes.join());
  });

  it('reads arguments kept as {"INVALID_JSON": text} as the text the model sent, and null or "" as no arguments', () => {
    const text = JSON.stringify([
      paiResponse(paiCall('c1', 'search', { INVALID_JSON: '{"q": "x"' }), paiCall('c2', 'ping', null), paiCall('c3', 'ping', '')),
      paiRequest(paiReturn('c1', 'search', 'x'), paiReturn('c2', 'ping', 'pong'), paiReturn('c3', 'ping', 'pong')),
    ]);
    const { sessions, codes } = read(text, 'h.json');
    assert.deepEqual(sessions[0].calls.map((c) => c.encoding), ['invalid', 'absent', 'absent']);
    assert.equal(codes.filter((c) => c === 'arguments-encoding').length, 1, codes.join());
  });

  it('a retry-prompt without a tool name asks for text again and answers no call; builtin tool calls are answered in their response', () => {
    const text = JSON.stringify([
      paiResponse({ tool_name: 'web_search', args: { query: 'adk' }, tool_call_id: 'b1', provider_name: 'openai', part_kind: 'builtin-tool-call' },
        { tool_name: 'web_search', content: { results: [] }, tool_call_id: 'b1', provider_name: 'openai', part_kind: 'builtin-tool-return' },
        { content: 'not json', part_kind: 'text' }),
      paiRequest({ content: 'Invalid JSON', tool_name: null, tool_call_id: 'pyd_ai_x', part_kind: 'retry-prompt' }),
    ]);
    const { sessions, codes } = read(text, 'h.json');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['b1']);
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('reads {messages, model_request_parameters}: the function tools are the contracts, the run-specific output tools are not', () => {
    const text = JSON.stringify({
      messages: [paiRequest({ content: 'go', part_kind: 'user-prompt' }), paiResponse(paiCall('c1', 'lookup', { id: 7 }))],
      model_settings: null,
      model_request_parameters: {
        function_tools: [{ name: 'lookup', parameters_json_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, kind: 'function' }],
        output_tools: [{ name: 'summary', parameters_json_schema: { type: 'object', properties: { summary: { type: 'string' } } } }],
      },
    });
    const { r, sessions, codes } = read(text, 'req.json');
    assert.equal(r.format, 'pydantic-ai');
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['lookup']);
    assert.ok(codes.includes('type-drift') || codes.includes('constraint'), codes.join());
    assert.ok(!codes.includes('unknown-tool'), codes.join());
  });

  it('reads a history stored one message per line, and the agent event stream', () => {
    const history = jsonl([
      paiRequest({ content: 'hi', part_kind: 'user-prompt' }),
      paiResponse(paiCall('c1', 'get_weather', { city: 'Rome' })),
      paiRequest(paiReturn('c1', 'get_weather', 'rain')),
    ]);
    const a = read(history, 'history.jsonl');
    assert.equal(a.r.format, 'pydantic-ai');
    assert.equal(a.sessions.length, 1);
    assert.deepEqual(a.sessions[0].results.map((x) => x.callId), ['c1']);
    const events = jsonl([
      { index: 0, part: { tool_name: 'get_weather', args: '', tool_call_id: 'c1', part_kind: 'tool-call' }, event_kind: 'part_start' },
      { index: 0, delta: { args_delta: '{"city": "Rome"}', tool_call_id: 'c1', part_delta_kind: 'tool_call' }, event_kind: 'part_delta' },
      { part: paiCall('c1', 'get_weather', '{"city": "Rome"}'), event_kind: 'function_tool_call' },
      { result: paiReturn('c1', 'get_weather', 'rain', { outcome: 'denied' }), event_kind: 'function_tool_result' },
    ]);
    const b = read(events, 'events.jsonl');
    assert.equal(b.r.format, 'pydantic-ai');
    assert.deepEqual(b.sessions[0].calls.map((c) => c.args), [{ city: 'Rome' }]);
    assert.deepEqual(errors(b.sessions[0]), [true]);
  });
});

// ---- Google ADK --------------------------------------------------------------------------------------------

const adkEvent = (author: string, role: string, parts: unknown[], extra: Record<string, unknown> = {}) =>
  ({ content: { parts, role }, invocationId: 'e-1', author, actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {} }, id: `ev-${Math.random()}`, timestamp: 1.5, ...extra });

describe('Google ADK sessions and eval sets', () => {
  it('reads a session export: calls and responses paired by id, response.error an error, partial events not read twice', () => {
    const session = {
      id: 's-1', appName: 'weather', userId: 'u', state: {}, lastUpdateTime: 3,
      events: [
        adkEvent('user', 'user', [{ text: 'weather and time?' }]),
        adkEvent('agent', 'model', [{ functionCall: { id: 'adk-1', args: { city: 'Oslo' }, name: 'get_weather' } }], { partial: true }),
        adkEvent('agent', 'model', [{ functionCall: { id: 'adk-1', args: { city: 'Oslo' }, name: 'get_weather' } }, { functionCall: { id: 'adk-2', args: { tz: 'x' }, name: 'get_time' } }], { longRunningToolIds: [] }),
        adkEvent('agent', 'user', [{ functionResponse: { id: 'adk-1', name: 'get_weather', response: { report: 'cold' } } }, { functionResponse: { id: 'adk-2', name: 'get_time', response: { error: 'unknown tz' } } }]),
        adkEvent('agent', 'model', [{ text: 'Cold; no time.' }]),
      ],
    };
    const { r, sessions, codes } = read(JSON.stringify(session), 'session.json');
    assert.equal(r.format, 'google-adk');
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['adk-1', 'adk-2']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['adk-1', 'adk-2']);
    assert.deepEqual(errors(sessions[0]), [undefined, true]);
    assert.ok(!codes.includes('duplicate-call-id') && !codes.includes('read-by-shape'), codes.join());
  });

  it('a long-running tool still unanswered while the session goes on is awaited (info), not lost (warning)', () => {
    const session = { id: 's', appName: 'a', userId: 'u', events: [
      adkEvent('user', 'user', [{ text: 'reimburse 500' }]),
      adkEvent('agent', 'model', [{ functionCall: { id: 'adk-1', args: { amount: 500 }, name: 'ask_for_approval' } }], { longRunningToolIds: ['adk-1'] }),
      adkEvent('agent', 'model', [{ text: 'Waiting for approval.' }]),
      adkEvent('agent', 'model', [{ functionCall: { id: 'adk-2', args: {}, name: 'status' } }]),
      adkEvent('agent', 'user', [{ functionResponse: { id: 'adk-2', name: 'status', response: { state: 'open' } } }]),
      adkEvent('agent', 'model', [{ functionCall: { id: 'adk-3', args: {}, name: 'notify' } }]),
      adkEvent('agent', 'model', [{ text: 'Still waiting.' }]),
    ] };
    const { r } = read(JSON.stringify(session), 'session.json');
    const orphans = r.findings.filter((f) => f.code === 'orphan-call').map((f) => [f.tool, f.severity]);
    assert.deepEqual(orphans, [['ask_for_approval', 'info'], ['notify', 'warning']]);
  });

  it('reads events in snake_case one per line (a /run_sse capture) as one session', () => {
    const ev = (parts: unknown[], role: string) => ({ content: { parts, role }, invocation_id: 'e-9', author: 'root', actions: { state_delta: {} }, id: 'x', timestamp: 1 });
    const text = jsonl([
      ev([{ text: 'hi' }], 'user'),
      ev([{ function_call: { id: 'adk-7', args: {}, name: 'list_files' } }], 'model'),
      ev([{ function_response: { id: 'adk-7', name: 'list_files', response: { result: ['a'] } } }], 'user'),
    ]);
    const { r, sessions } = read(text, 'events.jsonl');
    assert.equal(r.format, 'google-adk');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['adk-7']);
  });

  it('reads an eval set: one session per case, each invocation a turn, tool_uses and invocation_events alike', () => {
    const evalset = {
      eval_set_id: 'set-1', name: 'set', eval_cases: [
        { eval_id: 'case-a', conversation: [
          { invocation_id: 'i1', user_content: { parts: [{ text: 'book' }], role: 'user' }, final_response: { parts: [{ text: 'ok' }], role: 'model' },
            intermediate_data: { tool_uses: [{ id: null, args: { city: 'Rome' }, name: 'find' }, { id: null, args: {}, name: 'book' }], intermediate_responses: [] } },
          { invocation_id: 'i2', user_content: { parts: [{ text: 'again' }], role: 'user' }, intermediate_data: { tool_uses: [{ name: 'find', args: { city: 'Oslo' } }] } },
        ], session_input: { app_name: 'app', user_id: 'u', state: {} } },
        { eval_id: 'case-b', conversation: [
          { invocation_id: 'i1', user_content: { parts: [{ text: 'prime?' }], role: 'user' }, intermediate_data: { invocation_events: [
            { author: 'root', content: { role: 'model', parts: [{ function_call: { id: 'adk-x', args: { n: 9 }, name: 'check_prime' } }] } },
            { author: 'root', content: { role: 'user', parts: [{ function_response: { id: 'adk-x', name: 'check_prime', response: { result: false } } }] } },
          ] } },
        ] },
      ],
    };
    const { r, sessions } = read(JSON.stringify(evalset, null, 2), 'x.evalset.json', JSON.stringify([tool('find', ['city'])]));
    assert.equal(r.format, 'google-adk');
    assert.deepEqual(sessions.map((s) => s.id), ['case-a', 'case-b']);
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.turn]), [['find', 1], ['book', 1], ['find', 2]]);
    assert.deepEqual(sessions[1].results.map((x) => x.callId), ['adk-x']);
    const missing = read(JSON.stringify({ ...evalset, eval_cases: [{ eval_id: 'c', conversation: [{ intermediate_data: { tool_uses: [{ name: 'find', args: {} }] } }] }] }), 'y.evalset.json', JSON.stringify([tool('find', ['city'])]));
    assert.ok(missing.codes.includes('missing-key'), missing.codes.join());
  });

  it('reads an eval result by what the agent did (actual_invocation), and the older .test.json', () => {
    const inv = (name: string) => ({ invocation_id: 'i', user_content: { parts: [{ text: 'q' }] }, intermediate_data: { tool_uses: [{ name, args: {} }] } });
    const result = { eval_set_result_id: 'r1', eval_set_id: 's', eval_case_results: [{ eval_id: 'c1', eval_metric_result_per_invocation: [{ actual_invocation: inv('did'), expected_invocation: inv('expected') }] }] };
    const a = read(JSON.stringify(result), 'r.evalset_result.json');
    assert.equal(a.r.format, 'google-adk');
    assert.deepEqual(a.sessions.flatMap((s) => s.calls.map((c) => c.name)), ['did']);
    const legacy = [{ query: 'turn on the lights', expected_tool_use: [{ tool_name: 'set_device', tool_input: { id: 'd1', on: true } }], reference: 'done' }, { query: 'thanks', expected_tool_use: [] }];
    const b = read(JSON.stringify(legacy), 'simple.test.json');
    assert.equal(b.r.format, 'google-adk');
    assert.deepEqual(b.sessions[0].calls.map((c) => c.args), [{ id: 'd1', on: true }]);
  });
});

// ---- AutoGen AgentChat -------------------------------------------------------------------------------------

const agMsg = (type: string, content: unknown, extra: Record<string, unknown> = {}) => ({ source: 'assistant', models_usage: null, metadata: {}, created_at: '2026-01-01T00:00:00Z', content, type, ...extra });
const agCall = (id: string, name: string, args: string) => ({ id, arguments: args, name });
const agResult = (id: string, name: string, content: string, isError?: boolean) => ({ content, name, call_id: id, ...(isError === undefined ? {} : { is_error: isError }) });

describe('AutoGen AgentChat', () => {
  it('reads a TaskResult: request and execution events paired by call_id, is_error the flag, the summary message not read again', () => {
    const calls = [agCall('call_1', 'get_weather', '{"city": "NY"}'), agCall('call_2', 'get_time', '{"tz": 1}')];
    const results = [agResult('call_1', 'get_weather', 'sunny', false), agResult('call_2', 'get_time', 'Error: bad tz', true)];
    const text = JSON.stringify({ messages: [
      agMsg('TextMessage', 'weather?', { source: 'user' }),
      agMsg('ToolCallRequestEvent', calls),
      agMsg('ToolCallExecutionEvent', results),
      agMsg('ToolCallSummaryMessage', 'sunny\nError: bad tz', { tool_calls: calls, results }),
    ], stop_reason: null });
    const { r, sessions, codes } = read(text, 'result.json');
    assert.equal(r.format, 'autogen');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].calls.map((c) => [c.id, c.encoding]), [['call_1', 'json-string'], ['call_2', 'json-string']]);
    assert.deepEqual(errors(sessions[0]), [false, true]);
    assert.ok(!codes.includes('duplicate-call-id') && !codes.includes('orphan-result'), codes.join());
  });

  it('reads a summary message alone (no events in the file) as its calls and results', () => {
    const text = JSON.stringify({ messages: [agMsg('ToolCallSummaryMessage', 'ok', { tool_calls: [agCall('c1', 'ping', '{}')], results: [agResult('c1', 'ping', 'pong')] })], stop_reason: 'done' });
    const { sessions } = read(text, 'r.json');
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError]), [['c1', undefined]]);
  });

  it('reads saved state: an agent model context (llm_context or llm_messages); a team state by agent, not again from the thread', () => {
    const ctx = [
      { content: 'weather?', source: 'user', type: 'UserMessage' },
      { content: [agCall('call_1', 'get_weather', '{"city": "NY"}')], thought: null, source: 'assistant', type: 'AssistantMessage' },
      { content: [agResult('call_1', 'get_weather', 'boom', true)], type: 'FunctionExecutionResultMessage' },
    ];
    const agent = read(JSON.stringify({ type: 'AssistantAgentState', version: '1.0.0', llm_context: { messages: ctx } }), 'state.json');
    assert.equal(agent.r.format, 'autogen');
    assert.deepEqual(errors(agent.sessions[0]), [true]);
    const team = {
      type: 'TeamState', version: '1.0.0', agent_states: {
        'assistant/1': { type: 'ChatAgentContainerState', agent_state: { type: 'AssistantAgentState', llm_messages: ctx }, message_buffer: [] },
        'group_chat_manager/1': { type: 'RoundRobinManagerState', message_thread: [agMsg('ToolCallRequestEvent', [agCall('call_1', 'get_weather', '{"city": "NY"}')]), agMsg('ToolCallExecutionEvent', [agResult('call_1', 'get_weather', 'boom', true)])], current_turn: 0 },
      },
    };
    const t = read(JSON.stringify(team), 'team.json');
    assert.deepEqual(t.sessions.map((s) => [s.id, s.calls.length]), [['assistant/1', 1]]);
  });

  it('reads run_stream() messages one per line', () => {
    const text = jsonl([agMsg('TextMessage', 'go', { source: 'user' }), agMsg('ToolCallRequestEvent', [agCall('c1', 'f', '{"a": 1}')]), agMsg('ToolCallExecutionEvent', [agResult('c1', 'f', 'ok', false)])]);
    const { r, sessions } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'autogen');
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['c1']);
  });
});

// ---- smolagents --------------------------------------------------------------------------------------------

const smolStep = (n: number, calls: unknown[], extra: Record<string, unknown> = {}) => ({
  step_number: n, timing: { start_time: n, end_time: n + 1 }, model_input_messages: null, tool_calls: calls, error: null, model_output_message: null,
  model_output: null, code_action: null, observations: null, observations_images: null, action_output: null, token_usage: null, is_final_answer: false, ...extra });
const smolCall = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: args } });

describe('smolagents memory steps', () => {
  it('reads a ToolCallingAgent memory: each step answers its calls, a step error is the error, the final answer its output', () => {
    const text = JSON.stringify([
      { task: 'weather?', task_images: null },
      smolStep(1, [smolCall('call_1', 'get_weather', { city: 'NY' })], { observations: 'sunny' }),
      smolStep(2, [smolCall('call_2', 'get_time', { tz: 'x' })], { error: { type: 'AgentToolExecutionError', message: "Error executing tool 'get_time'" } }),
      smolStep(3, [smolCall('call_3', 'final_answer', { answer: 'sunny' })], { action_output: 'sunny', is_final_answer: true }),
    ]);
    const { r, sessions, codes } = read(text, 'memory.json');
    assert.equal(r.format, 'smolagents');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.encoding, c.turn]), [['get_weather', 'object', 1], ['get_time', 'object', 2], ['final_answer', 'object', 3]]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError]), [['call_1', false], ['call_2', true], ['call_3', false]]);
    assert.ok(!codes.includes('arguments-encoding') && !codes.includes('orphan-call'), codes.join());
  });

  it('reads a CodeAgent run (RunResult with steps): python_interpreter code kept as free text', () => {
    const text = JSON.stringify({ output: '4', state: 'success', steps: [
      { task: '2+2', task_images: null },
      smolStep(1, [smolCall('call_1', 'python_interpreter', 'print(2+2)\nfinal_answer(4)')], { code_action: 'print(2+2)', observations: 'Execution logs:\n4', is_final_answer: true, action_output: 4 }),
    ], token_usage: null, timing: { start_time: 0 } });
    const { r, sessions, codes } = read(text, 'run.json');
    assert.equal(r.format, 'smolagents');
    assert.deepEqual(sessions[0].calls.map((c) => c.encoding), ['freeform']);
    assert.ok(!codes.includes('arguments-encoding'), codes.join());
  });
});

// ---- Strands Agents ----------------------------------------------------------------------------------------

const strandsMsg = (id: number, role: string, content: unknown[]) => ({ message: { role, content }, message_id: id, redact_message: null, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' });

describe('Strands Agents sessions', () => {
  const msgs = [
    strandsMsg(0, 'user', [{ text: 'write it' }]),
    strandsMsg(1, 'assistant', [{ text: 'ok' }, { toolUse: { toolUseId: 'tooluse_1', name: 'file_write', input: { path: 'a.md' } } }]),
    strandsMsg(2, 'user', [{ toolResult: { toolUseId: 'tooluse_1', status: 'error', content: [{ text: 'denied' }] } }]),
  ];

  it('reads a list of session messages in message_id order, status error the flag', () => {
    const { r, sessions, codes } = read(JSON.stringify([msgs[2], msgs[0], msgs[1]]), 'messages.json');
    assert.equal(r.format, 'strands');
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError]), [['tooluse_1', true]]);
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('reads a lone message_<n>.json: its calls, not results whose calls live in other files', () => {
    const call = read(JSON.stringify(msgs[1]), 'message_1.json');
    assert.equal(call.r.format, 'strands');
    assert.equal(call.sessions[0].calls.length, 1);
    const result = read(JSON.stringify(msgs[2]), 'message_2.json');
    assert.equal(result.r.format, 'strands');
    assert.ok(!result.codes.includes('orphan-result'), result.codes.join());
  });

  it('reads agent.messages (bare Converse messages) with the Bedrock Converse reader', () => {
    const { r, sessions } = read(JSON.stringify(msgs.map((m) => m.message)), 'agent-messages.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.deepEqual(sessions[0].results.map((x) => x.transport.isError), [true]);
  });
});

// ---- DSPy ReAct --------------------------------------------------------------------------------------------

describe('DSPy ReAct trajectories', () => {
  it('reads the numbered steps of a saved prediction, "Execution error in <tool>:" the error', () => {
    const text = JSON.stringify({ question: 'q', trajectory: {
      thought_0: 'search', tool_name_0: 'search', tool_args_0: { query: 'x' }, observation_0: 'found',
      thought_1: 'look', tool_name_1: 'lookup', tool_args_1: { id: 3 }, observation_1: 'Execution error in lookup: \nKeyError',
      thought_2: 'done', tool_name_2: 'finish', tool_args_2: {}, observation_2: 'Completed.',
    }, answer: 'a' });
    const { r, sessions } = read(text, 'prediction.json', JSON.stringify([tool('lookup', ['id'])]));
    assert.equal(r.format, 'dspy');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.turn]), [['search', 1], ['lookup', 2], ['finish', 3]]);
    assert.deepEqual(errors(sessions[0]), [false, true, false]);
    assert.ok(r.findings.some((f) => f.code === 'type-drift' && f.tool === 'lookup'), r.findings.map((f) => f.code).join());
  });
});

// ---- Semantic Kernel ---------------------------------------------------------------------------------------

describe('Semantic Kernel chat history', () => {
  it('reads the Python serialization: function_call items named <plugin>-<function>, results paired by id', () => {
    const text = JSON.stringify({ messages: [
      { role: 'user', items: [{ content_type: 'text', text: 'weather?' }] },
      { role: 'assistant', items: [{ content_type: 'function_call', id: 'call_1', index: 0, name: 'Weather-get_weather', function_name: 'get_weather', plugin_name: 'Weather', arguments: '{"city": "NY"}' }] },
      { role: 'tool', items: [{ content_type: 'function_result', id: 'call_1', name: 'Weather-get_weather', function_name: 'get_weather', plugin_name: 'Weather', result: 'sunny' }] },
    ] });
    const { r, sessions, codes } = read(text, 'history.json');
    assert.equal(r.format, 'semantic-kernel');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.encoding]), [['Weather-get_weather', 'json-string']]);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_1']);
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('reads the .NET serialization ($type items, PascalCase), a plugin-less function by its own name', () => {
    const text = JSON.stringify([
      { Role: { Label: 'assistant' }, Items: [{ $type: 'FunctionCallContent', Id: 'c1', PluginName: 'Docs', FunctionName: 'Search', Arguments: { query: 'x' } }, { $type: 'FunctionCallContent', Id: 'c2', FunctionName: 'Tools_Ping', Arguments: {} }] },
      { Role: { Label: 'tool' }, Items: [{ $type: 'FunctionResultContent', CallId: 'c1', PluginName: 'Docs', FunctionName: 'Search', Result: 'hit' }, { $type: 'FunctionResultContent', CallId: 'c2', FunctionName: 'Tools_Ping', Result: 'pong' }] },
    ]);
    const { r, sessions } = read(text, 'chat.json');
    assert.equal(r.format, 'semantic-kernel');
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['Docs-Search', 'Tools_Ping']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['c1', 'c2']);
  });
});

// ---- LangGraph ---------------------------------------------------------------------------------------------

const lcMsg = (type: string, id: string, extra: Record<string, unknown> = {}) => ({ content: '', additional_kwargs: {}, response_metadata: {}, type, name: null, id, ...extra });

describe('LangGraph state and streams', () => {
  const human = lcMsg('human', 'h1', { content: 'weather?' });
  const ai = lcMsg('ai', 'ai1', { tool_calls: [{ name: 'get_weather', args: { city: 'Oslo' }, id: 'call_1', type: 'tool_call' }], invalid_tool_calls: [] });
  const toolMsg = lcMsg('tool', 't1', { content: 'Error: boom', tool_call_id: 'call_1', name: 'get_weather', status: 'error' });
  const final = lcMsg('ai', 'ai2', { content: 'It failed.', tool_calls: [] });

  it('reads a thread state and a thread history (the fullest snapshot only), status error the flag', () => {
    const state = (messages: unknown[]) => ({ values: { messages }, next: [], tasks: [], metadata: { step: messages.length }, checkpoint: { checkpoint_id: 'c' }, parent_checkpoint: null });
    const one = read(JSON.stringify(state([human, ai, toolMsg, final])), 'state.json');
    assert.equal(one.r.format, 'langgraph');
    assert.deepEqual(errors(one.sessions[0]), [true]);
    const history = read(JSON.stringify([state([human, ai, toolMsg, final]), state([human, ai, toolMsg]), state([human])]), 'history.json');
    assert.equal(history.sessions.length, 1);
    assert.equal(history.sessions[0].calls.length, 1);
    assert.ok(!history.codes.includes('duplicate-call-id'), history.codes.join());
  });

  it('reads a values stream (SSE snapshots) with each message once, and an updates stream', () => {
    const snapshots = [[human], [human, ai], [human, ai, toolMsg], [human, ai, toolMsg, final]];
    const sse = snapshots.map((m) => `data: ${JSON.stringify({ messages: m })}\n\n`).join('');
    const values = read(sse, 'stream.sse');
    assert.equal(values.r.format, 'langgraph');
    assert.equal(values.r.calls, 1);
    assert.deepEqual(values.sessions[0].results.map((x) => x.callId), ['call_1']);
    const updates = read(jsonl([{ agent: { messages: [ai] } }, { tools: { messages: [toolMsg] } }, { agent: { messages: [final] } }]), 'updates.jsonl');
    assert.equal(updates.r.format, 'langgraph');
    assert.deepEqual(updates.sessions[0].results.map((x) => x.callId), ['call_1']);
  });

  it('reads a messages stream: a call streamed in token chunks is joined by index, then answered', () => {
    const meta = (node: string) => ({ langgraph_step: 1, langgraph_node: node, langgraph_triggers: ['t'] });
    const chunk = (pieces: unknown[]) => lcMsg('AIMessageChunk', 'run-1', { tool_calls: [], tool_call_chunks: pieces });
    const text = jsonl([
      { message: chunk([{ name: 'get_weather', args: '', id: 'call_1', index: 0, type: 'tool_call_chunk' }]), metadata: meta('agent') },
      { message: chunk([{ name: null, args: '{"city": ', id: null, index: 0, type: 'tool_call_chunk' }]), metadata: meta('agent') },
      { message: chunk([{ name: null, args: '"Oslo"}', id: null, index: 0, type: 'tool_call_chunk' }]), metadata: meta('agent') },
      { message: toolMsg, metadata: meta('tools') },
    ]);
    const { r, sessions } = read(text, 'messages.jsonl', JSON.stringify([tool('get_weather', ['city'])]));
    assert.equal(r.format, 'langgraph');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id, c.args]), [['get_weather', 'call_1', { city: 'Oslo' }]]);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_1']);
    assert.ok(!r.findings.some((f) => f.code === 'missing-key' || f.code === 'orphan-result'), r.findings.map((f) => f.code).join());
  });
});
