// Layouts met in real eval logs, benchmark results and framework traces (Inspect AI, mini-swe-agent, SWE-agent,
// tau2-bench, BFCL, the OpenAI Agents SDK's traces, LangSmith, Langfuse) that the readers used to lose. Every trace
// here is small and written for the test from the format's documented fields; none is a copy of a sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts, type Session } from '../../src/core';
import { readModel } from './helpers';
import { pythonCalls } from '../../src/core/formats/python-calls';

function read(text: string, fileName?: string) {
  return readModel(text, { fileName });
}

const calls = (s: Session) => s.calls.map((c) => `${c.name}${JSON.stringify(c.args)}`);
const errors = (s: Session) => s.results.map((x) => x.transport.isError === true);

describe('Inspect AI', () => {
  it('an event list holding a kind newer than the reader (branch, compaction) is still read', () => {
    const events = [
      { event: 'span_begin', id: 's1', name: 'solvers', type: 'solvers', timestamp: 't' },
      { event: 'model', model: 'mock/model', input: [{ role: 'user', content: 'go' }], tools: [], tool_choice: 'auto', config: {},
        output: { choices: [{ message: { role: 'assistant', content: '', tool_calls: [{ id: 'k1', function: 'lookup', arguments: { q: 'a' } }] }, stop_reason: 'tool_calls' }] } },
      { event: 'tool', id: 'k1', function: 'lookup', arguments: { q: 'a' }, result: 'found' },
      { event: 'branch', from_anchor: 'x1', timestamp: 't' },
      { event: 'compaction', tokens_before: 10, tokens_after: 5 },
      { event: 'tool', id: 'k2', function: 'lookup', arguments: { q: 'b' }, result: '', error: { type: 'timeout', message: 'took too long' } },
      { event: 'span_end', id: 's1', timestamp: 't' },
    ];
    const { r, sessions } = read(JSON.stringify({ description: 'fixture', events }), 'events.json');
    assert.equal(r.format, 'inspect');
    assert.deepEqual(calls(sessions[0]), ['lookup{"q":"a"}', 'lookup{"q":"b"}']);
    assert.deepEqual(errors(sessions[0]), [false, true]);
  });

  it('arguments and results that events keep as `attachment://` references are read as the text they stand for', () => {
    const long = `echo ${'x'.repeat(150)}`;
    const sample = { id: 1, epoch: 1, input: 'go', target: '', messages: [], attachments: { h1: long, h2: 'Error: '.padEnd(120, '!') },
      events: [{ event: 'tool', id: 't1', function: 'bash', arguments: { cmd: 'attachment://h1' }, result: 'attachment://h2' },
        { event: 'tool', id: 't2', function: 'bash', arguments: { cmd: 'attachment://unknown' }, result: 'ok' }] };
    const { contracts } = loadContracts([{ path: 'c.json', text: JSON.stringify([{ name: 'bash', parameters: {
      type: 'object', properties: { cmd: { type: 'string', maxLength: 100 } }, required: ['cmd'] } }]) }]);
    const r = checkText(JSON.stringify(sample), { fileName: 'sample.json', keepModel: true, packs: false, contracts });
    assert.equal(r.format, 'inspect');
    const s = r.model![0].session;
    assert.deepEqual(s.calls.map((c) => c.args), [{ cmd: long }, { cmd: 'attachment://unknown' }], 'an unknown reference stays as written');
    assert.equal(s.results[0].payload, sample.attachments.h2);
    assert.deepEqual(r.findings.filter((f) => f.code === 'constraint').map((f) => f.callIndex), [0], 'the 155-character command is over its limit');
  });

  it('a tool call whose arguments Inspect could not parse (`parse_error`) is an arguments-encoding fault, not missing keys', () => {
    const sample = { id: 2, epoch: 1, input: 'go', target: '', events: [], messages: [
      { role: 'assistant', content: '', tool_calls: [{ id: 'p1', function: 'bash', arguments: {}, type: 'function',
        parse_error: 'Error parsing the following tool call arguments:\n\n{"cmd": "ls\n\nError details: Unterminated string' }] },
      { role: 'tool', tool_call_id: 'p1', function: 'bash', content: '', error: { type: 'parsing', message: 'bad arguments' } },
    ] };
    const { contracts } = loadContracts([{ path: 'c.json', text: JSON.stringify([{ name: 'bash', parameters: {
      type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } }]) }]);
    const r = checkText(JSON.stringify(sample), { fileName: 'sample.json', keepModel: true, packs: false, contracts });
    const codes = r.findings.map((f) => f.code);
    assert.equal(r.model![0].session.calls[0].encoding, 'invalid');
    assert.ok(codes.includes('arguments-encoding') && !codes.includes('missing-key'), codes.join());
  });

  it('a list of records that only share an `event` key is not taken for Inspect', () => {
    const { r } = read(JSON.stringify({ events: [{ event: 'click', x: 1 }, { event: 'scroll', y: 2 }] }), 'ui.json');
    assert.notEqual(r.format, 'inspect');
  });
});

describe('mini-swe-agent', () => {
  it('v2 with a Responses API model: response objects and function_call_output items pair, exit codes kept', () => {
    const fc = (id: string, command: string) => ({ type: 'function_call', id: `fc_${id}`, call_id: id, name: 'bash', arguments: JSON.stringify({ command }), status: 'completed' });
    const out = (id: string, code: number, raw: string, exception?: string) => ({ type: 'function_call_output', call_id: id, output: `<returncode>${code}</returncode>`,
      extra: { raw_output: raw, returncode: code, timestamp: 1, ...(exception ? { exception_info: exception } : {}) } });
    const traj = {
      info: { mini_version: '2.1.0', exit_status: 'Submitted' },
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'task' },
        { id: 'r1', object: 'response', output: [{ type: 'reasoning', id: 'rs1', summary: [] }, fc('A', 'ls')], extra: { actions: [{ command: 'ls', tool_call_id: 'A' }] } },
        out('A', 0, 'file\n'),
        { id: 'r2', object: 'response', output: [fc('B', 'false'), fc('C', 'sleep 99')], extra: { actions: [] } },
        out('B', 1, ''),
        out('C', -1, '', 'action was not executed'),
        { role: 'exit', content: '', extra: { exit_status: 'Submitted' } },
      ],
      trajectory_format: 'mini-swe-agent-1.1',
    };
    const { r, sessions, codes } = read(JSON.stringify(traj), 'x.traj.json');
    assert.equal(r.format, 'mini-swe-agent');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(calls(s), ['bash{"command":"ls"}', 'bash{"command":"false"}', 'bash{"command":"sleep 99"}']);
    assert.deepEqual(s.results.map((x) => x.callId), ['A', 'B', 'C']);
    assert.deepEqual(s.results.map((x) => x.transport), [{ exitCode: 0 }, { exitCode: 1 }, { isError: true }]);
    assert.deepEqual(s.results.map((x) => x.payload), ['file\n', '', '']);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });
});

describe('SWE-agent', () => {
  it('a .traj saved without its history is read from its trajectory steps', () => {
    const step = (action: string, observation: string) => ({ response: `x\n\`\`\`\n${action}\n\`\`\``, thought: 'x', action, observation, execution_time: 0.1, state: '{}' });
    const traj = { environment: 'swe_main', trajectory: [
      step('find_file "a.py"', 'Found 1 matches'),
      step('python -m pytest', "The command 'python -m pytest' was cancelled because it took more than 30 seconds."),
      step('submit', 'diff --git a/a.py b/a.py'),
    ], info: { exit_status: 'submitted' } };
    const { r, sessions } = read(JSON.stringify(traj), 'i.traj');
    assert.equal(r.format, 'swe-agent');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['find_file', '"a.py"'], ['python', '-m pytest'], ['submit', '']]);
    assert.deepEqual(sessions[0].results.map((x) => x.callIndex), [0, 1, 2]);
    assert.deepEqual(errors(sessions[0]), [false, true, false]);
  });

  it('another tool\'s bare `{trajectory: [{action, observation}]}` is not taken for SWE-agent', () => {
    const { r } = read(JSON.stringify({ trajectory: [{ action: 'search', observation: 'found' }] }), 'run.json');
    assert.notEqual(r.format, 'swe-agent');
  });
});

describe('tau2-bench', () => {
  it('a results file: simulations of tau2 messages, calls by agent and user, error flags from `error`', () => {
    const results = {
      timestamp: 't', info: { num_trials: 1, environment_info: { domain_name: 'telecom' } },
      tasks: [{ id: '7', evaluation_criteria: { actions: [{ action_id: 'a', requestor: 'assistant', name: 'expected_only', arguments: {} }] } }],
      simulations: [{
        id: 'sim', task_id: '7', trial: 0, termination_reason: 'user_stop', reward_info: { reward: 1 },
        messages: [
          { role: 'assistant', content: 'Hello', tool_calls: null, turn_idx: 0 },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'get_line', arguments: { line_id: 'L1' }, requestor: 'assistant' },
            { id: 'c2', name: 'get_line', arguments: { line_id: 'L9' }, requestor: 'assistant' }], turn_idx: 1 },
          { id: 'c1', role: 'tool', content: '{"status": "active"}', requestor: 'assistant', error: false, turn_idx: 2 },
          { id: 'c2', role: 'tool', content: 'Error: line not found', requestor: 'assistant', error: true, turn_idx: 3 },
          { role: 'user', content: null, tool_calls: [{ id: 'u1', name: 'reboot_device', arguments: {}, requestor: 'user' }], turn_idx: 4 },
          { role: 'tool', tool_messages: [{ id: 'u1', role: 'tool', content: 'rebooted', requestor: 'user', error: false }] },
        ],
      }],
    };
    const { r, sessions, codes } = read(JSON.stringify(results), 'results.json');
    assert.equal(r.format, 'tau-bench');
    assert.equal(sessions.length, 1);
    assert.deepEqual(calls(sessions[0]), ['get_line{"line_id":"L1"}', 'get_line{"line_id":"L9"}', 'reboot_device{}'], 'expected actions are not calls');
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['c1', 'c2', 'u1']);
    assert.deepEqual(errors(sessions[0]), [false, true, false]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });
});

describe('BFCL result files', () => {
  it('reads the calls of prompting (Python syntax), function-calling and multi-turn entries', () => {
    const lines = [
      { id: 'live_parallel_3-0-3', result: '[get_weather(location="Oslo"), get_weather(location=\'Rome\', unit=None)]', input_token_count: 5, output_token_count: 5, latency: 1.2 },
      { id: 'live_parallel_9-5-0', result: '[price(memory=2, cpu="single")]\n[price(memory=4.0, cpu="dual")]', latency: 1 },
      { id: 'simple_python_4', result: [{ area: '{"base": 10, "height": 5}' }, { area: { base: 1, height: 2 } }], latency: 1 },
      { id: 'multi_turn_base_3', result: [[['[cd(folder="docs")]'], ['[ls(a=True)]']], ['No function matches the request.'], [[{ mv: '{"source": "a", "destination": "b"}' }]]] },
      { id: 'irrelevance_2', result: 'I cannot help with that.', latency: 1 },
      { id: 'simple_python_9', result: 'Error during inference: timeout' },
    ].map((l) => JSON.stringify(l)).join('\n');
    const { r, sessions, codes } = read(lines, 'BFCL_v4_live_parallel_result.json');
    assert.equal(r.format, 'bfcl');
    const byId = new Map(sessions.map((s) => [s.id, s]));
    assert.deepEqual(calls(byId.get('live_parallel_3-0-3')!), ['get_weather{"location":"Oslo"}', 'get_weather{"location":"Rome","unit":null}']);
    assert.deepEqual(calls(byId.get('live_parallel_9-5-0')!), ['price{"memory":2,"cpu":"single"}', 'price{"memory":4,"cpu":"dual"}']);
    assert.deepEqual(calls(byId.get('simple_python_4')!), ['area{"base":10,"height":5}', 'area{"base":1,"height":2}']);
    const multi = byId.get('multi_turn_base_3')!;
    assert.deepEqual(calls(multi), ['cd{"folder":"docs"}', 'ls{"a":true}', 'mv{"source":"a","destination":"b"}']);
    assert.deepEqual(multi.calls.map((c) => c.turn), [1, 2, 3], 'each step is a turn');
    assert.equal(r.calls, 9, 'prose and inference errors hold no call');
    assert.ok(!codes.some((c) => c.startsWith('orphan')), 'nothing ran these calls: no result is missing');
  });

  it('a Python-syntax float where the contract wants an integer is caught, and points into the answer', () => {
    const line = JSON.stringify({ id: 'simple_python_1', result: '[price(memory=4.0, cpu="x")]', latency: 1 });
    const { contracts } = loadContracts([{ path: 'c.json', text: JSON.stringify([{ name: 'price', parameters: {
      type: 'object', properties: { memory: { type: 'integer' }, cpu: { type: 'string' } }, required: ['memory', 'cpu'], additionalProperties: false } }]) }]);
    const strict = checkText(line, { fileName: 'r.json', packs: false, contracts, profile: 'strict' });
    const drift = strict.findings.filter((f) => f.code === 'type-drift');
    assert.equal(drift.length, 1, strict.findings.map((f) => `${f.code}: ${f.message}`).join('; '));
    assert.equal(line.slice(drift[0].span.start, drift[0].span.end), JSON.stringify('[price(memory=4.0, cpu="x")]'), 'the finding points at the answer text');
    const lax = checkText(line.replace('4.0', '4'), { fileName: 'r.json', packs: false, contracts, profile: 'strict' });
    assert.deepEqual(lax.findings.filter((f) => f.severity === 'error').map((f) => f.code), []);
  });

  it('the Python call parser: literals, positional arguments, and text that is not calls', () => {
    assert.deepEqual(pythonCalls('[f(a=1, b=-2.5e3, c=[1, (2, 3)], d={"k": \'v\'}, e=True, g=None)]'),
      [{ name: 'f', argsJson: '{"a": 1, "b": -2.5e3, "c": [1, [2, 3]], "d": {"k": "v"}, "e": true, "g": null}', positional: 0 }]);
    assert.deepEqual(pythonCalls('diff(\'a.txt\', \'b.txt\', mode="u")'), [{ name: 'diff', argsJson: '{"mode": "u"}', positional: 2 }]);
    assert.deepEqual(pythonCalls('a.b.c(x="it\\\'s")')?.map((c) => [c.name, JSON.parse(c.argsJson)]), [['a.b.c', { x: "it's" }]]);
    assert.equal(pythonCalls('No function matches the request.'), undefined);
    assert.equal(pythonCalls('[cat file_name="x"]'), undefined);
    assert.equal(pythonCalls('[f(a=1), g(b='), undefined, 'a cut-off answer is no call');
    assert.equal(pythonCalls(''), undefined);
  });
});

describe('OpenAI Agents SDK traces', () => {
  const span = (id: string, trace: string, data: object, error: object | null = null) =>
    ({ object: 'trace.span', id, trace_id: trace, parent_id: null, started_at: 't0', ended_at: 't1', span_data: data, error });
  const records = [
    { object: 'trace', id: 'trace_1', workflow_name: 'Agent workflow', group_id: null, metadata: null },
    span('span_a', 'trace_1', { type: 'agent', name: 'Helper', tools: ['weather'], handoffs: [], output_type: 'str' }),
    span('span_g', 'trace_1', { type: 'generation', input: [{ role: 'user', content: 'hi' }], output: [{ role: 'assistant', content: 'x' }] }),
    span('span_f1', 'trace_1', { type: 'function', name: 'weather', input: '{"city": "Lima"}', output: 'warm', mcp_data: null }),
    span('span_f2', 'trace_1', { type: 'function', name: 'weather', input: '{"city": 7}', output: null }, { message: 'Error running tool', data: { error: 'bad city' } }),
    span('span_f3', 'trace_2', { type: 'function', name: 'lookup', input: '{}', output: 'ok' }),
  ];

  it('a processor\'s JSONL of spans: function spans are calls with their results, one session per trace', () => {
    const { r, sessions, codes } = read(records.map((x) => JSON.stringify(x)).join('\n'), 'spans.jsonl');
    assert.equal(r.format, 'openai-agents');
    assert.deepEqual(sessions.map((s) => s.id), ['trace_1', 'trace_2']);
    assert.deepEqual(calls(sessions[0]), ['weather{"city":"Lima"}', 'weather{"city":7}']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['span_f1', 'span_f2']);
    assert.deepEqual(errors(sessions[0]), [false, true]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('the same records as an ingest batch ({data: [...]}) read the same', () => {
    const asLines = read(records.map((x) => JSON.stringify(x)).join('\n'), 'spans.jsonl');
    const asBatch = read(JSON.stringify({ data: records }), 'batch.json');
    assert.equal(asBatch.r.format, 'openai-agents');
    assert.deepEqual(asBatch.sessions.map(calls), asLines.sessions.map(calls));
    assert.deepEqual(asBatch.sessions.map(errors), asLines.sessions.map(errors));
  });
});

describe('LangSmith', () => {
  it('an LLM run whose message is stored as its kwargs only (no `lc`) makes the call the tool run answers', () => {
    const runs = [
      { id: 'r1', trace_id: 't1', run_type: 'chain', name: 'Agent', inputs: { input: 'q' }, outputs: { output: 'a' }, start_time: '2026-01-01T00:00:00' },
      { id: 'r2', trace_id: 't1', run_type: 'llm', name: 'ChatModel', start_time: '2026-01-01T00:00:01',
        outputs: { generations: [{ message: { kwargs: { content: '', tool_calls: [{ id: 'call_9', name: 'search', args: { q: 'x' } }] } } }] } },
      { id: 'r3', trace_id: 't1', run_type: 'tool', name: 'search', inputs: { input: "{'q': 'x'}" }, outputs: { output: 'hits' }, start_time: '2026-01-01T00:00:02' },
    ];
    const { r, sessions } = read(JSON.stringify(runs), 'runs.json');
    assert.equal(r.format, 'langsmith');
    assert.deepEqual(calls(sessions[0]), ['search{"q":"x"}']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_9']);
  });

  it('one run with its tree of child runs is read', () => {
    const tree = { id: 'root', run_type: 'chain', inputs: {}, outputs: {}, child_runs: [
      { id: 'c1', run_type: 'tool', name: 'cancel', inputs: { order: 'Z1' }, outputs: { status: 'ok' }, start_time: '2024-01-01T00:00:01Z' },
      { id: 'c2', run_type: 'tool', name: 'refund', inputs: { order: 'Z1' }, error: 'RefundError: denied', start_time: '2024-01-01T00:00:02Z' },
    ] };
    const { r, sessions } = read(JSON.stringify(tree), 'run.json');
    assert.equal(r.format, 'langsmith');
    assert.deepEqual(calls(sessions[0]), ['cancel{"order":"Z1"}', 'refund{"order":"Z1"}']);
    assert.deepEqual(errors(sessions[0]), [false, true]);
  });

  it('a LangChain message as messages_to_dict writes it ({type, data}) is read for its calls', () => {
    const runs = [{ id: 'r2', trace_id: 't1', run_type: 'llm', name: 'ChatModel', start_time: '2026-01-01T00:00:01',
      outputs: { generations: [[{ message: { type: 'ai', data: { content: '', tool_calls: [{ id: 'c1', name: 'search', args: { q: 'y' } }] } } }]] } }];
    const { sessions } = read(JSON.stringify(runs), 'runs.json');
    assert.deepEqual(calls(sessions[0]), ['search{"q":"y"}']);
  });
});

describe('Langfuse', () => {
  const observations = [
    { id: 'o1', traceId: 'tr', type: 'GENERATION', name: 'llm', startTime: '2025-01-01T00:00:00.100Z', level: 'DEFAULT', input: [{ role: 'user', content: 'q' }],
      output: { role: 'assistant', content: '', additional_kwargs: { tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city": "Oslo"}' } }] } } },
    { id: 'o2', traceId: 'tr', type: 'TOOL', name: 'weather', startTime: '2025-01-01T00:00:01.000Z', level: 'DEFAULT', input: { city: 'Oslo' }, output: 'cold' },
    { id: 'o3', traceId: 'tr', type: 'TOOL', name: 'lookup', startTime: '2025-01-01T00:00:02.000Z', level: 'ERROR', statusMessage: 'KeyError', input: { k: 1 }, output: null },
  ];

  it('a trace as the public API returns it (fields and observations together) is read', () => {
    const trace = { id: 'tr', timestamp: '2025-01-01T00:00:00Z', name: 'run', input: {}, output: 'x', htmlPath: '/p/traces/tr', observations, scores: [] };
    const { r, sessions } = read(JSON.stringify(trace), 'trace.json');
    assert.equal(r.format, 'langfuse');
    assert.deepEqual(calls(sessions[0]), ['weather{"city":"Oslo"}', 'lookup{"k":1}']);
    assert.deepEqual(sessions[0].results.map((x) => x.transport.spanStatus), ['UNSET', 'ERROR']);
  });

  it('a page of observations ({data, meta}) is one session per trace', () => {
    const other = { ...observations[1], id: 'o9', traceId: 'tr2' };
    const { r, sessions } = read(JSON.stringify({ data: [...observations, other], meta: { page: 1, totalItems: 4 } }), 'observations.json');
    assert.equal(r.format, 'langfuse');
    assert.deepEqual(sessions.map((s) => s.id), ['tr', 'tr2']);
    assert.equal(sessions[0].calls.length, 2);
    assert.equal(sessions[1].calls.length, 1);
  });
});

describe('OpenTelemetry exports', () => {
  const s = (key: string, value: string) => ({ key, value: { stringValue: value } });

  it('OpenLLMetry tool definitions (`llm.request.functions.N.*`) are the calls\' contracts', () => {
    const span = { traceId: 'aa', spanId: 's1', name: 'openai.chat', startTimeUnixNano: '1', attributes: [
      s('gen_ai.system', 'openai'),
      s('llm.request.functions.0.name', 'get_weather'),
      s('llm.request.functions.0.parameters', JSON.stringify({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false })),
      s('gen_ai.completion.0.role', 'assistant'),
      s('gen_ai.completion.0.tool_calls.0.id', 'call_1'),
      s('gen_ai.completion.0.tool_calls.0.name', 'get_weather'),
      s('gen_ai.completion.0.tool_calls.0.arguments', '{"town": "Paris"}'),
    ] };
    const { r, sessions, codes } = read(JSON.stringify({ resourceSpans: [{ resource: {}, scopeSpans: [{ scope: { name: 'x' }, spans: [span] }] }] }), 'otlp.json');
    assert.equal(r.format, 'otel');
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['get_weather']);
    assert.ok(codes.includes('missing-key') && codes.includes('extra-key'), codes.join());
    assert.ok(!codes.includes('no-contract'));
  });

  it('a Jaeger JSON export (tags, references, otel.status_code) pairs a tool span with the call it executes', () => {
    const tag = (key: string, value: unknown, type = 'string') => ({ key, type, value });
    const output = [{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] }];
    const jaeger = { data: [{ traceID: 'abc', processes: {}, spans: [
      { traceID: 'abc', spanID: 's1', operationName: 'chat m', references: [], startTime: 1, duration: 5,
        tags: [tag('gen_ai.operation.name', 'chat'), tag('gen_ai.output.messages', JSON.stringify(output))] },
      { traceID: 'abc', spanID: 's2', operationName: 'execute_tool get_weather', references: [{ refType: 'CHILD_OF', traceID: 'abc', spanID: 's1' }], startTime: 7, duration: 1,
        tags: [tag('gen_ai.operation.name', 'execute_tool'), tag('gen_ai.tool.name', 'get_weather'), tag('gen_ai.tool.call.id', 'call_1'),
          tag('otel.status_code', 'ERROR'), tag('error', true, 'bool'), tag('error.type', 'TimeoutError')] },
    ] }], total: 0, limit: 0, offset: 0, errors: null };
    const { r, sessions } = read(JSON.stringify(jaeger), 'trace.json');
    assert.equal(r.format, 'otel');
    assert.deepEqual(calls(sessions[0]), ['get_weather{"city":"Paris"}']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.spanStatus, x.transport.errorType]), [['call_1', 'ERROR', 'TimeoutError']]);
  });
});

describe('W&B Weave', () => {
  const op = (name: string) => `weave:///team/proj/op/${name}:d1g3st`;
  const model = { id: 'c1', op_name: op('openai.chat.completions.create'), trace_id: 't1', parent_id: 'c0', started_at: '2025-01-01T00:00:01Z', exception: null,
    inputs: { model: 'gpt-4o', messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }] },
    output: { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] } }] } };
  const tool = { id: 'c2', op_name: op('get_weather'), trace_id: 't1', parent_id: 'c0', started_at: '2025-01-01T00:00:02Z', inputs: { city: 'Paris' }, output: null, exception: 'TimeoutError: slow' };
  const loop = { id: 'c0', op_name: op('Agent.run'), trace_id: 't1', parent_id: null, started_at: '2025-01-01T00:00:00Z', inputs: { q: 'weather?' }, output: 'done', exception: null };

  it('calls exported as JSONL (children first): the model op\'s tool calls, answered by the tool op; the loop is no tool', () => {
    const { r, sessions, codes } = read([tool, model, loop].map((c) => JSON.stringify(c)).join('\n'), 'calls.jsonl');
    assert.equal(r.format, 'weave');
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['get_weather']);
    assert.deepEqual(calls(sessions[0]), ['get_weather{"city":"Paris"}']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError, x.payload]), [['call_1', true, 'TimeoutError: slow']]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('the same calls as one JSON list read the same', () => {
    const { r, sessions } = read(JSON.stringify([loop, model, tool]), 'calls.json');
    assert.equal(r.format, 'weave');
    assert.deepEqual(calls(sessions[0]), ['get_weather{"city":"Paris"}']);
    assert.equal(sessions[0].results.length, 1);
  });
});
