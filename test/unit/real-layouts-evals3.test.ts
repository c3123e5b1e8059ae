// Layouts of eval-harness output met in real files in the third round (BFCL score files, tau2-bench full-duplex
// simulations, ATIF v1.7 embedded sub-agents and writers without a schema version, mini-swe-agent v2's parsed
// actions, Inspect .eval zips without a header). Every trace here is small and written for the test from the
// format's documented fields; none is a copy of a sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync, strToU8 } from 'fflate';
import { checkBytes, type Session } from '../../src/core';
import { readModel } from './helpers';

function read(text: string, fileName: string) {
  return readModel(text, { fileName });
}

const calls = (s: Session) => s.calls.map((c) => `${c.name}${JSON.stringify(c.args)}`);
const jsonl = (...rows: unknown[]) => rows.map((x) => JSON.stringify(x)).join('\n') + '\n';

describe('BFCL score files', () => {
  const weather = { name: 'weather', description: 'w', parameters: { type: 'dict', required: ['city'], properties: {
    city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } } } };

  it('a failed entry is read as the calls the model wrote, checked against the question\'s own definitions', () => {
    const text = jsonl(
      { accuracy: 0.5, correct_count: 1, total_count: 2 },
      { id: 'live_parallel_4-1-0', model_name: 'm', test_category: 'live_parallel', valid: false, error: ['no match'], error_type: 'x:cannot_find_match',
        prompt: { id: 'live_parallel_4-1-0', question: [[{ role: 'user', content: 'weather in A and B' }]], function: [weather] },
        model_result_raw: [{ weather: '{"city": "A", "unit": "kelvin"}' }, { weather: '{"city": "B"}' }],
        model_result_decoded: [{ weather: { city: 'A', unit: 'kelvin' } }, { weather: { city: 'B' } }],
        possible_answer: [{ weather: { city: ['A'], unit: ['', 'c'] } }] },
    );
    const { r, sessions, codes } = read(text, 'BFCL_v4_live_parallel_score.json');
    assert.equal(r.format, 'bfcl');
    assert.equal(sessions.length, 1);
    assert.deepEqual(calls(sessions[0]), ['weather{"city":"A","unit":"kelvin"}', 'weather{"city":"B"}'], 'the raw answer, once (not its decoded copy too)');
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['weather']);
    assert.deepEqual(r.findings.filter((f) => f.code === 'constraint').map((f) => f.callIndex), [0], codes.join());
    assert.ok(!codes.includes('unknown-format') && !codes.includes('no-contract'), codes.join());
  });

  it('a multi-turn entry keeps one turn per step and names no tool unknown (its definitions are not in the file)', () => {
    const text = jsonl({ id: 'multi_turn_miss_func_7', valid: false, error: { error_type: 'multi_turn:instance_state_mismatch' },
      prompt: { id: 'multi_turn_miss_func_7', question: [[{ role: 'user', content: 'go' }], []], involved_classes: ['FileSystem'],
        missed_function: { 1: [{ name: 'cp', description: 'copy', parameters: { type: 'dict', properties: { source: { type: 'string' } }, required: ['source'] } }] } },
      model_result_raw: [[[{ cd: '{"folder": "docs"}' }], [{ ls: '{}' }]], [], [[{ cp: '{"source": "a"}' }]]],
      model_result_decoded: [[["cd(folder='docs')"], ['ls()']], [], [["cp(source='a')"]]] });
    const { r, sessions, codes } = read(text, 'BFCL_v4_multi_turn_miss_func_score.json');
    assert.equal(r.format, 'bfcl');
    assert.deepEqual(calls(sessions[0]), ['cd{"folder":"docs"}', 'ls{}', 'cp{"source":"a"}']);
    assert.deepEqual(sessions[0].calls.map((c) => c.turn), [1, 2, 3]);
    assert.ok(!codes.includes('unknown-tool'), codes.join());
  });

  it('an early result file: lines numbered `idx`, a function-calling answer as `{name, arguments}` alone or in a list', () => {
    const text = jsonl(
      { idx: 0, result: { name: 'area', arguments: '{"base": 10, "height": 5}' }, input_token_count: 0, output_token_count: 0, latency: 1.2 },
      { idx: 1, result: [{ name: 'area', arguments: '{"base": 2}' }, { name: 'perimeter', arguments: '{"side": 3}' }], input_token_count: 1, output_token_count: 1, latency: 0.5 },
      { idx: 2, result: { error: 'rate limited' }, input_token_count: 0, output_token_count: 0, latency: 0 },
    );
    const { r, sessions } = read(text, 'gorilla_openfunctions_v1_test_simple_result.json');
    assert.equal(r.format, 'bfcl');
    assert.deepEqual(sessions.filter((s) => s.calls.length > 0).map((s) => [s.id, calls(s)]), [
      ['idx 0', ['area{"base":10,"height":5}']], ['idx 1', ['area{"base":2}', 'perimeter{"side":3}']]], 'an error object is no call');
  });

  it('a line that only looks like a score summary elsewhere is not read as BFCL', () => {
    const { r } = read(JSON.stringify({ accuracy: 0.9, correct_count: 9, total_count: 10, model: 'x', dataset: 'y', split: 'z', seed: 1 }), 'metrics.json');
    assert.notEqual(r.format, 'bfcl');
  });
});

describe('tau2-bench full-duplex simulations', () => {
  it('a simulation without messages is read from its ticks: agent and user tool calls, their results by id, the error flag', () => {
    const tick = (i: number, extra: object) => ({ tick_id: i, timestamp: `t${i}`, agent_chunk: null, user_chunk: null, agent_tool_calls: [], user_tool_calls: [],
      agent_tool_results: [], user_tool_results: [], ...extra });
    const sim = { id: 'sim-1', task_id: '7', trial: 0, termination_reason: 'user_stop', reward_info: { reward: 0 }, messages: null, mode: 'full_duplex', ticks: [
      tick(0, { agent_chunk: { role: 'assistant', content: 'hello', chunk_id: 0 } }),
      tick(1, { agent_tool_calls: [{ id: 'a1', name: 'find_user', arguments: { zip: '123' }, requestor: 'assistant' }],
        agent_tool_results: [{ id: 'a1', role: 'tool', content: '{"user": 1}', requestor: 'assistant', error: false }] }),
      tick(2, { user_tool_calls: [{ id: 'u1', name: 'reboot_device', arguments: {}, requestor: 'user' }],
        user_tool_results: [{ id: 'u1', role: 'tool', content: 'Error: no device', requestor: 'user', error: true }] }),
      tick(3, {}),
    ] };
    const { r, sessions, codes } = read(JSON.stringify({ timestamp: 'x', info: { num_trials: 1 }, tasks: [], simulations: [sim] }), 'results.json');
    assert.equal(r.format, 'tau-bench');
    const s = sessions[0];
    assert.deepEqual(calls(s), ['find_user{"zip":"123"}', 'reboot_device{}']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['a1', false], ['u1', true]]);
    assert.deepEqual(s.calls.map((c) => c.turn), [1, 2]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });
});

describe('ATIF', () => {
  const step = (id: number, name: string, args: object, result: string) => ({ step_id: id, source: 'agent', message: '',
    tool_calls: [{ tool_call_id: `c${id}`, function_name: name, arguments: args }], observation: { results: [{ source_call_id: `c${id}`, content: result }] } });

  it('v1.7 sub-agent trajectories embedded in the root are read, each a session of its own (nested ones too)', () => {
    const grandchild = { trajectory_id: 'g', agent: { name: 'leaf', version: '1' }, steps: [step(1, 'read', { path: 'x' }, 'data')] };
    const child = { schema_version: 'ATIF-v1.7', trajectory_id: 'search', agent: { name: 'searcher', version: '1' },
      steps: [{ step_id: 1, source: 'user', message: 'find' }, step(2, 'grep', { q: 'cfg' }, 'cfg.py')], subagent_trajectories: [grandchild] };
    const root = { schema_version: 'ATIF-v1.7', session_id: 'run', agent: { name: 'main', version: '1' },
      steps: [{ step_id: 1, source: 'user', message: 'go' }, { ...step(2, 'Task', { prompt: 'find' }, 'cfg.py') }], subagent_trajectories: [child] };
    const { r, sessions, codes } = read(JSON.stringify(root), 'trajectory.json');
    assert.equal(r.format, 'atif');
    assert.deepEqual(sessions.map((s) => [s.id, calls(s)]), [['run', ['Task{"prompt":"find"}']], ['run/search', ['grep{"q":"cfg"}']], ['run/search/g', ['read{"path":"x"}']]]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('a writer that leaves out schema_version is still read as ATIF by its shape; results without ids pair by place', () => {
    const traj = { session_id: 'p', agent: { name: 'hermes', version: 'x' }, steps: [
      { source: 'user', message: 'hi' },
      { source: 'agent', tool_calls: [{ function_name: 'terminal', arguments: { command: 'ls' } }, { function_name: 'read_file', arguments: { path: 'a' } }],
        observation: { results: [{ content: 'a b' }, { content: 'text' }] } },
      { source: 'agent', message: 'done' },
    ] };
    const { r, sessions } = read(JSON.stringify(traj), 'trajectory.json');
    assert.equal(r.format, 'atif');
    assert.deepEqual(calls(sessions[0]), ['terminal{"command":"ls"}', 'read_file{"path":"a"}']);
    assert.deepEqual(sessions[0].results.map((x) => x.callIndex), [0, 1]);
  });

  it('other steps-and-agent JSON (no ATIF-style tool call, or other step sources) is not taken for ATIF', () => {
    const plan = { agent: { name: 'planner' }, steps: [{ source: 'user', message: 'a' }, { source: 'agent', message: 'b' }] };
    assert.notEqual(read(JSON.stringify(plan), 'plan.json').r.format, 'atif');
    const other = { agent: { name: 'x' }, steps: [{ source: 'robot', tool_calls: [{ function_name: 'move' }] }] };
    assert.notEqual(read(JSON.stringify(other), 'plan.json').r.format, 'atif');
  });
});

describe('mini-swe-agent v2 parsed actions', () => {
  it('tool-call messages kept as `extra.actions` with ids (no content, no tool_calls, no format name) pair with their tool messages', () => {
    const traj = { info: { mini_version: '2.4.6', exit_status: 'Submitted' }, messages: [
      { role: 'system', content: 'sys' }, { role: 'user', content: 'task' },
      { role: 'assistant', reasoning_content: 'r', extra: { actions: [{ command: 'ls', tool_call_id: 'k1' }] } },
      { role: 'tool', tool_call_id: 'k1', content: 'a.py', extra: { returncode: 0, raw_output: 'a.py' } },
      { role: 'assistant', reasoning_content: 'r', extra: { actions: [{ command: 'false', tool_call_id: 'k2' }] } },
      { role: 'tool', tool_call_id: 'k2', content: '', extra: { returncode: 1, raw_output: '' } },
      { role: 'exit', content: '', extra: { exit_status: 'Submitted' } },
    ] };
    const { r, sessions, codes } = read(JSON.stringify(traj), 'i.traj.json');
    assert.equal(r.format, 'mini-swe-agent');
    assert.deepEqual(calls(sessions[0]), ['bash{"command":"ls"}', 'bash{"command":"false"}']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.exitCode]), [['k1', 0], ['k2', 1]]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('text mode with a custom action regex: the parsed `extra.actions` are the calls, the next observation answers each', () => {
    const traj = { trajectory_format: 'mini-swe-agent-1.1', info: { mini_version: '2.1.0' }, messages: [
      { role: 'system', content: 'sys' }, { role: 'user', content: 'task' },
      { role: 'assistant', content: 'THOUGHT: look\n<bash>ls -la</bash>', extra: { actions: [{ command: 'ls -la' }] } },
      { role: 'user', content: '<returncode>0</returncode><output>a</output>', extra: { raw_output: 'a', returncode: 0 } },
      { role: 'assistant', content: 'THOUGHT: again\n<bash>cat x</bash>', extra: { actions: [{ command: 'cat x' }] } },
      { role: 'user', content: '<returncode>1</returncode><output>no</output>', extra: { raw_output: 'no', returncode: 1 } },
    ] };
    const { r, sessions } = read(JSON.stringify(traj), 'i.traj.json');
    assert.equal(r.format, 'mini-swe-agent');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args, c.encoding]), [['bash', 'ls -la', 'freeform'], ['bash', 'cat x', 'freeform']]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, x.transport.exitCode, x.payload]), [[0, 0, 'a'], [1, 1, 'no']]);
  });
});

describe('Inspect AI server-side tools and message attachments', () => {
  const uses = [
    { type: 'tool_use', tool_type: 'web_search', id: 'ws_1', name: 'web_search', arguments: '{"query": "news"}', result: '[results]' },
    { type: 'tool_use', tool_type: 'mcp_call', id: 'mcp_1', name: 'lookup', context: 'srv', arguments: '{"q": 1}', result: '', error: 'server down' },
    { type: 'text', text: 'Here is the news' },
  ];
  const image = `data:image/png;base64,${'A'.repeat(200)}`;
  const model = { event: 'model', model: 'm', input: [], tools: [], tool_choice: 'auto', config: {},
    output: { choices: [{ message: { role: 'assistant', content: uses }, stop_reason: 'stop' }] } };

  it('`tool_use` content parts are calls with their results inline, read once though the model event repeats them', () => {
    const sample = { id: 'ws', epoch: 1, input: 'q', target: '', attachments: { h9: image }, events: [model], messages: [
      { role: 'user', content: 'find news' },
      { role: 'assistant', content: uses },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', function: 'describe', arguments: { image: 'attachment://h9' } }] },
      { role: 'tool', tool_call_id: 'c1', function: 'describe', content: 'a cat' },
    ] };
    const { r, sessions, codes } = read(JSON.stringify(sample), 'sample.json');
    assert.equal(r.format, 'inspect');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['web_search', 'ws_1'], ['lookup', 'mcp_1'], ['describe', 'c1']]);
    assert.deepEqual(s.calls[0].args, { query: 'news' });
    assert.deepEqual(s.calls[2].args, { image }, 'a message\'s reference is read as the data it stands for');
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError === true, x.payload]), [['ws_1', false, '[results]'], ['mcp_1', true, 'server down'], ['c1', false, 'a cat']]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('an older sample keeps its events and their texts in `transcript` (references `tc://`): a sub-agent\'s call there is read', () => {
    const long = `grep ${'y'.repeat(120)}`;
    const sample = { id: 3, epoch: 1, input: 'q', target: '', messages: [{ role: 'user', content: 'q' }], transcript: { content: { k7: long }, events: [
      { event: 'tool', id: 'sub1', function: 'search', arguments: { pattern: 'tc://k7' }, result: 'none' },
    ] } };
    const { sessions } = read(JSON.stringify(sample), 'sample.json');
    assert.deepEqual(sessions[0].calls.map((c) => c.args), [{ pattern: long }]);
    assert.deepEqual(sessions[0].results.map((x) => x.payload), ['none']);
  });

  it('an event list without messages reads them from the model event', () => {
    const { sessions } = read(JSON.stringify({ events: [model] }), 'events.json');
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['web_search', 'lookup']);
    assert.equal(sessions[0].results.length, 2);
  });
});

describe('Inspect AI .eval without header.json', () => {
  const sample = { id: 1, epoch: 1, input: 'go', target: '', events: [], messages: [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: '', tool_calls: [{ id: 't1', function: 'bash', arguments: { cmd: 'ls' } }] },
    { role: 'tool', tool_call_id: 't1', function: 'bash', content: '', error: { type: 'unknown', message: 'denied' } },
  ] };
  const start = { version: 2, eval: { task: 't', model: 'm', created: 'x', dataset: {}, config: {} }, plan: {} };

  for (const [label, startName] of [['still running (only _journal/start.json)', '_journal/start.json'], ['early layout (start.json at the top)', 'start.json']]) {
    it(`${label}: its samples are read`, () => {
      const zip = zipSync({ [startName]: strToU8(JSON.stringify(start)), 'samples/1_epoch_1.json': strToU8(JSON.stringify(sample)) });
      const r = checkBytes(zip, { fileName: 'run.eval', keepModel: true, packs: false });
      assert.equal(r.format, 'inspect');
      const s = r.model![0].session;
      assert.deepEqual(calls(s), ['bash{"cmd":"ls"}']);
      assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['t1', true]]);
    });
  }
});
