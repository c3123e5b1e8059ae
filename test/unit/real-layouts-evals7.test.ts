// Eval logs and tool-calling datasets, seventh round of reading: BFCL multi-turn and agentic runs with the
// executions their `inference_log` records (and agentic score entries, whose prompt is a list), the shared text
// helpers (Python docstring types, values found within a bound), Glaive's turns, xLAM records. Every record here is
// small and written for the test from the writers' rules (BFCL's handler and executor, the datasets' layouts); none
// is a copy of a sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { docstringType } from '../../src/core/formats/python-types';
import { parametersSchema } from '../../src/core/formats/tool-tags';
import { firstValue } from '../../src/core/formats/text-values';
import { callNames, pairedIds, readModel } from './helpers';

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const fc = (name: string, args: unknown) => ({ [name]: JSON.stringify(args) });
const tool = (content: string) => ({ role: 'tool', content });
const stateLog = [{ role: 'state_info', class_name: 'GorillaFileSystem', content: { root: {} } }];

describe('BFCL multi-turn results with their inference_log', () => {
  // a function-calling model's run: each step's calls, then BFCL's executions of them as `role: "tool"` entries
  const entry = {
    id: 'multi_turn_base_0',
    result: [
      [[fc('cd', { folder: 'document' })], [fc('mkdir', { dir_name: 'temp' }), fc('mv', { source: 'a.pdf', destination: 'temp' })], 'Moved.'],
      [[fc('grep', { file_name: 'a.pdf', pattern: 'x' })], 'Done.'],
    ],
    input_token_count: [[10, 20, 30], [40, 50]],
    output_token_count: [[1, 2, 3], [4, 5]],
    latency: [[0.1, 0.2, 0.3], [0.4, 0.5]],
    inference_log: [
      stateLog,
      {
        begin_of_turn_query: [{ role: 'user', content: 'move it' }],
        step_0: [{ role: 'assistant', content: [fc('cd', { folder: 'document' })] }, { role: 'handler_log', content: 'Successfully decoded model response.' }, tool('{"current_working_directory": "document"}')],
        step_1: [{ role: 'assistant', content: [] }, { role: 'handler_log', content: 'ok' }, tool('None'), tool('{"error": "mv: a.pdf: No such file"}')],
        step_2: [{ role: 'assistant', content: 'Moved.' }, { role: 'handler_log', content: 'Error decoding the model response. Proceed to next turn.' }],
      },
      stateLog,
      {
        begin_of_turn_query: [{ role: 'user', content: 'search' }],
        step_0: [{ role: 'assistant', content: [] }, tool("Error during execution: grep() got an unexpected keyword argument 'x'")],
        step_1: [{ role: 'assistant', content: 'Done.' }],
      },
      stateLog,
    ],
  };

  it('pairs each step\'s calls with its executions, in order; an executor error and an {"error"} return are failures', () => {
    const { r, sessions, codes } = readModel(jsonl([entry]), { fileName: 'BFCL_v4_multi_turn_base_result.json' });
    assert.equal(r.format, 'bfcl');
    const [s] = sessions;
    assert.equal(s.id, 'multi_turn_base_0');
    assert.deepEqual(callNames(s), ['cd', 'mkdir', 'mv', 'grep']);
    assert.deepEqual(s.calls.map((c) => c.turn), [1, 2, 2, 3]);
    assert.deepEqual(pairedIds(s), ['#0', '#1', '#2', '#3']);
    assert.deepEqual(s.results.map((x) => x.transport.isError), [false, false, true, true]);
    assert.equal(s.results[1].payload, 'None');
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('a prompting model\'s Python-syntax steps are paired the same way', () => {
    const prompting = {
      id: 'multi_turn_miss_func_3',
      result: [["[cd(folder='document')]", '[ls(a=True)]', 'Listed.']],
      inference_log: [{
        begin_of_turn_query: [],
        step_0: [{ role: 'assistant', content: "[cd(folder='document')]" }, tool('{"current_working_directory": "document"}')],
        step_1: [{ role: 'assistant', content: '[ls(a=True)]' }, tool('{"current_directory_content": ["a.txt"]}')],
        step_2: [{ role: 'assistant', content: 'Listed.' }],
      }],
    };
    const { r, sessions } = readModel(jsonl([prompting]), { fileName: 'BFCL_v3_multi_turn_miss_func_result.json' });
    assert.equal(r.format, 'bfcl');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['cd', { folder: 'document' }], ['ls', { a: true }]]);
    assert.deepEqual(pairedIds(s), ['#0', '#1']);
    assert.deepEqual(s.results[1].payload, '{"current_directory_content": ["a.txt"]}');
  });

  it('an early log (one list a turn) pairs the turn\'s executions with its calls in order', () => {
    const early = {
      id: 'multi_turn_base_1',
      result: [[[fc('ls', {})], [fc('cd', { folder: 'x' })]]],
      inference_log: [[{ begin_of_turn_query: [] }, { role: 'assistant', content: [] }, tool('{"current_directory_content": []}'), { role: 'assistant', content: [] }, tool('Error during execution: no x')]],
    };
    const { sessions } = readModel(jsonl([early]), { fileName: 'BFCL_v3_multi_turn_base_result.json' });
    assert.deepEqual(callNames(sessions[0]), ['ls', 'cd']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, x.transport.isError]), [[0, false], [1, true]]);
  });

  it('a single-turn result was never executed: its calls stand alone', () => {
    const { sessions } = readModel(jsonl([{ id: 'simple_python_0', result: [fc('area', { base: 10 })], input_token_count: 1, output_token_count: 1, latency: 1 }]), { fileName: 'r.json' });
    assert.deepEqual(callNames(sessions[0]), ['area']);
    assert.equal(sessions[0].results.length, 0);
  });

  it('an agentic score entry (its prompt the question\'s messages, a list) is read with its executions', () => {
    const failed = {
      id: 'web_search_base_0', model_name: 'gpt-4o-FC', test_category: 'web_search_base', valid: false,
      error: { error_message: ['not found'], error_type: 'agentic:answer_not_found' },
      prompt: [[{ role: 'user', content: 'who?' }]],
      model_result_raw: [[[fc('search_engine_query', { keyword: 'who' })], 'Nobody.']],
      last_non_fc_message: 'Nobody.', possible_answer: ['Ada'],
      inference_log: [{ begin_of_turn_query: [], step_0: [{ role: 'assistant', content: [] }, tool('[{"title": "t"}]')], step_1: [{ role: 'assistant', content: 'Nobody.' }] }],
    };
    const text = jsonl([{ accuracy: 0, correct_count: 0, total_count: 1 }, failed]);
    const { r, sessions } = readModel(text, { fileName: 'BFCL_v4_web_search_base_score.json' });
    assert.equal(r.format, 'bfcl');
    const s = sessions.find((x) => x.id === 'web_search_base_0')!;
    assert.deepEqual(callNames(s), ['search_engine_query']);
    assert.deepEqual(s.calls[0].args, { keyword: 'who' });
    assert.deepEqual(pairedIds(s), ['#0']);
  });
});

describe('shared helpers of the dataset readers', () => {
  it('Python docstring types map through the one table, set included', () => {
    assert.equal(docstringType('set'), 'array');
    assert.equal(docstringType('Set[str]'), 'array');
    assert.equal(docstringType('Optional[float]'), 'number');
    assert.equal(docstringType('int, optional'), 'integer');
    assert.equal(docstringType('Any'), undefined);
    assert.equal(docstringType('Union[int, str]'), undefined);
    assert.deepEqual(parametersSchema({ tags: { type: 'set', description: 't' }, n: { type: 'integer' } }), { type: 'object', properties: { tags: { type: 'array' }, n: { type: 'integer' } } });
  });

  it('a value is looked for only before the bound: one that closes after it is not taken', () => {
    const text = 'a {"x": 1} b {"y": [2';
    assert.deepEqual(firstValue(text, 0, 10)?.value, { x: 1 });
    assert.equal(firstValue(text, 0, 9), undefined, 'the closing brace is past the bound');
    assert.deepEqual(firstValue('{"a": 1}xx', 0, 8)?.value, { a: 1 });
  });
});

describe('Glaive chats of several call turns', () => {
  it('each assistant turn takes its own calls and each FUNCTION RESPONSE answers them in order', () => {
    const call = (name: string, args: string) => `<functioncall> {"name": "${name}", "arguments": '${args}'}`;
    const chat = [
      'USER: weather in Paris and Rome?',
      `ASSISTANT: ${call('get_weather', '{"city": "Paris"}')} <|endoftext|>`,
      'FUNCTION RESPONSE: {"temp": 20}',
      `ASSISTANT: ${call('get_weather', '{"city": "Rome"}')} <|endoftext|>`,
      'FUNCTION RESPONSE: {"temp": 25}',
      'ASSISTANT: 20 and 25. <|endoftext|>',
      'USER: and Oslo?',
      `ASSISTANT: ${call('get_weather', '{"city": "Oslo"}')} <|endoftext|>`,
      'FUNCTION RESPONSE: {"error": "unknown city"}',
    ].join('\n\n');
    const { r, sessions } = readModel(JSON.stringify({ system: 'SYSTEM: You are a helpful assistant.', chat }), { fileName: 'glaive.json' });
    assert.equal(r.format, 'glaive');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.args, c.turn]), [['get_weather', { city: 'Paris' }, 1], ['get_weather', { city: 'Rome' }, 2], ['get_weather', { city: 'Oslo' }, 3]]);
    assert.deepEqual(pairedIds(s), ['#0', '#1', '#2']);
    assert.deepEqual(s.results.map((x) => x.payload), [{ temp: 20 }, { temp: 25 }, { error: 'unknown city' }]);
  });
});

describe('Glaive calls whose quoted arguments hold an apostrophe', () => {
  it('the single-quoted JSON ends after its JSON, not at the apostrophe inside it', () => {
    const chat = [
      "USER: when did Ocean's Eleven come out?",
      `ASSISTANT: <functioncall> {"name": "search_movie", "arguments": '{"title": "Ocean's Eleven", "year": "x"}'} <|endoftext|>`,
      'FUNCTION RESPONSE: {"year": 2001}',
      'ASSISTANT: In 2001. <|endoftext|>',
    ].join('\n\n\n');
    const system = 'SYSTEM: You are a helpful assistant with access to the following functions. Use them if required -\n' +
      JSON.stringify({ name: 'search_movie', description: 'find a movie', parameters: { type: 'object', properties: { title: { type: 'string' }, year: { type: 'integer' } }, required: ['title'] } }, null, 4);
    const text = JSON.stringify({ system, chat });
    const { r, sessions } = readModel(text, { fileName: 'glaive.json' });
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['search_movie', { title: "Ocean's Eleven", year: 'x' }]]);
    assert.deepEqual(pairedIds(s), ['#0']);
    const drift = r.findings.filter((f) => f.code === 'type-drift');
    assert.equal(drift.length, 1, r.findings.map((f) => f.code).join());
    assert.equal(text.slice(drift[0].span.start, drift[0].span.end), '\\"x\\"');
  });

  it('a Python literal\'s apostrophe in prose still ends a string where it did', () => {
    assert.deepEqual(firstValue("{'a': 'it', 'b': '[1]'}")?.value, { a: 'it', b: '[1]' });
    assert.deepEqual(firstValue("note: {'k': '{\"x\": 1}', 'n': \"it's\"} done")?.value, { k: '{"x": 1}', n: "it's" });
  });
});

describe('xLAM records', () => {
  it('tools and answers strings are read once, findings still inside the answers string', () => {
    const tools = [{ name: 'split', description: 'chunks', parameters: { items: { type: 'List[int]', description: 'l' }, tags: { type: 'set', description: 's' } } }];
    const rec = { id: 3, query: 'split it', tools: JSON.stringify(tools), answers: JSON.stringify([{ name: 'split', arguments: { items: [1], tags: 'a' } }]) };
    const text = JSON.stringify(rec);
    const { r, sessions } = readModel(text, { fileName: 'xlam.json' });
    assert.equal(r.format, 'xlam');
    assert.equal(sessions[0].id, '3');
    assert.deepEqual(callNames(sessions[0]), ['split']);
    const drift = r.findings.filter((f) => f.code === 'type-drift');
    assert.equal(drift.length, 1, r.findings.map((f) => f.code).join());
    assert.equal(text.slice(drift[0].span.start, drift[0].span.end), '\\"a\\"');
  });
});

describe('tau-bench ReAct / Act agent results', () => {
  const tools = [
    { type: 'function', function: { name: 'find_user_id_by_email', description: 'find', parameters: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] } } },
    { type: 'function', function: { name: 'get_order_details', description: 'order', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } } },
  ];
  const example = '{\n    "type": "function",\n    "function": {\n        "name": "get_current_weather",\n        "parameters": {"type": "object", "properties": {"location": {"type": "string",},},},\n    },\n}';
  const step = (thought: string, action: unknown) => ({ role: 'assistant', content: `Thought:\n${thought}\nAction:\n${JSON.stringify(action)}`, tool_calls: null, function_call: null });
  const traj = [
    { role: 'system', content: `# Retail policy\n#Available tools\n${JSON.stringify(tools)}\n# Instruction\nFor example, given such a tool\n${example}\nanswer in the format.` },
    { role: 'user', content: 'my email is a@b.c' },
    step('find the user', { name: 'find_user_id_by_email', arguments: { email: 'a@b.c' } }),
    { role: 'user', content: 'API output: user_1' },
    step('the order', { name: 'get_order_details', arguments: { order_id: 123 } }),
    { role: 'user', content: 'API output: Error: order not found' },
    step('tell them', { name: 'respond', arguments: { content: 'Sorry, no such order.' } }),
    { role: 'user', content: 'ok ###STOP###' },
  ];

  it('reads each Action as a call answered by the next API output; respond is the reply, not a call', () => {
    const text = JSON.stringify([{ task_id: 4, reward: 0, info: {}, traj, trial: 1 }], null, 2);
    const { r, sessions, codes } = readModel(text, { fileName: 'react-gpt-4o-0.0_range_0-1.json' });
    assert.equal(r.format, 'tau-bench');
    const [s] = sessions;
    assert.equal(s.id, '4#1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.args, c.turn]), [['find_user_id_by_email', { email: 'a@b.c' }, 1], ['get_order_details', { order_id: 123 }, 2]]);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.payload, x.transport.isError]), [[0, 'user_1', false], [1, 'Error: order not found', true]]);
    assert.deepEqual(s.tools.map((t) => t.name), ['find_user_id_by_email', 'get_order_details'], 'the instruction\'s example tool is no definition');
    assert.ok(!codes.includes('call-in-text'), codes.join());
    // the number where the tool wants a string is found at its characters inside the assistant's text
    const drift = r.findings.filter((f) => f.code === 'type-drift');
    assert.equal(drift.length, 1, codes.join());
    assert.equal(text.slice(drift[0].span.start, drift[0].span.end), '123');
  });
});

describe('Inspect AI tool messages of early logs', () => {
  it('a tool message\'s tool_error text is a failure', () => {
    const sample = {
      id: 1, epoch: 1, input: 'go', target: '',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', function: 'bash', arguments: { cmd: 'ls /x' }, type: 'function' }, { id: 'c2', function: 'bash', arguments: { cmd: 'ls' }, type: 'function' }] },
        { role: 'tool', content: '', tool_call_id: 'c1', tool_error: 'ls: /x: No such file or directory' },
        { role: 'tool', content: 'a.txt', tool_call_id: 'c2', tool_error: null },
      ],
    };
    const log = { version: 1, status: 'success', eval: { task: 't', model: 'openai/gpt-4' }, samples: [sample] };
    const { r, sessions } = readModel(JSON.stringify(log), { fileName: 'log.json' });
    assert.equal(r.format, 'inspect');
    assert.deepEqual(pairedIds(sessions[0]), ['c1', 'c2']);
    assert.deepEqual(sessions[0].results.map((x) => x.transport.isError), [true, false]);
  });
});

describe('ToolBench (ToolLLaMA) ShareGPT records', () => {
  const system = "You are AutoGPT, you can use many tools(functions) to do the following task.\nSpecifically, you have access to the following APIs: [{'name': 'get_weather_for_weatherapi', 'description': 'This is the subfunction for tool \"weatherapi\".', 'parameters': {'type': 'object', 'properties': {'city': {'type': 'string', 'example_value': 'Paris'}}, 'required': ['city'], 'optional': []}}, {'name': 'Finish', 'description': 'final answer', 'parameters': {'type': 'object', 'properties': {'return_type': {'type': 'string', 'enum': ['give_answer', 'give_up_and_restart']}, 'final_answer': {'type': 'string'}}, 'required': ['return_type']}}]";
  const react = (thought: string, action: string, input: string) => `\nThought: ${thought}\nAction: ${action}\nAction Input: ${input}`;
  const record = {
    id: 'Step 4: weather in Paris and Oslo?',
    conversations: [
      { from: 'system', value: system },
      { from: 'user', value: '\nweather in Paris and Oslo?\nBegin!\n' },
      { from: 'assistant', value: react('Paris first.', 'get_weather_for_weatherapi', '{\n  "city": "Paris"\n}') },
      { from: 'function', value: '{"error": "", "response": "{\'temp\': 20}"}' },
      { from: 'assistant', value: react('', 'get_weather_for_weatherapi', '{\n  "city": 7\n}') },
      { from: 'function', value: '{"error": "Rate limit per minute exceeded", "response": ""}' },
      { from: 'assistant', value: react('', 'Finish', '{\n  "return_type": "give_answer",\n  "final_answer": "20C"\n}') },
    ],
  };

  it('each Action / Action Input is a call, answered by the function turn after it; a non-empty error is a failure', () => {
    const text = JSON.stringify([record], null, 4);
    const { r, sessions } = readModel(text, { fileName: 'toolllama_G123_dfs_train.json' });
    assert.equal(r.format, 'sharegpt');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.args, c.turn]), [['get_weather_for_weatherapi', { city: 'Paris' }, 1], ['get_weather_for_weatherapi', { city: 7 }, 2], ['Finish', { return_type: 'give_answer', final_answer: '20C' }, 3]]);
    assert.deepEqual(s.tools.map((t) => t.name), ['get_weather_for_weatherapi', 'Finish']);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.transport.isError]), [[0, false], [1, true]]);
    const drift = r.findings.filter((f) => f.code === 'type-drift');
    assert.equal(drift.length, 1, r.findings.map((f) => f.code).join());
    assert.equal(text.slice(drift[0].span.start, drift[0].span.end), '7');
    assert.ok(!r.findings.some((f) => f.code === 'orphan-result'));
  });
});

describe('ToolBench answer files (answer_generation)', () => {
  const fns = [
    { name: 'get_weather_for_weatherapi', description: 'w', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], optional: [] } },
    { name: 'Finish', description: 'f', parameters: { type: 'object', properties: { return_type: { type: 'string', enum: ['give_answer', 'give_up_and_restart'] }, final_answer: { type: 'string' } }, required: ['return_type'] } },
  ];
  const start = [{ role: 'system', content: 'You are AutoGPT…' }, { role: 'user', content: 'weather in Paris?\nBegin!\n' }];
  const call = (name: string, args: string) => ({ role: 'assistant', content: 'thinking', function_call: { name, arguments: args } });
  const c1 = call('get_weather_for_weatherapi', '{\n  "city": 75\n}');
  const r1 = { role: 'function', name: 'get_weather_for_weatherapi', content: '{"error": "Message error...", "response": ""}' };
  const c2 = call('get_weather_for_weatherapi', '{\n  "city": "Paris"\n}');
  const r2 = { role: 'function', name: 'get_weather_for_weatherapi', content: '{"error": "", "response": "20C"}' };
  const c3 = { role: 'assistant', content: null, function_call: { name: 'Finish', arguments: '{"return_type": "give_answer", "final_answer": "20C"}' } };
  const file = {
    answer_generation: { valid_data: true, final_answer: '20C', finish_type: 'give_answer', function: fns, chain: [], query: 'weather in Paris?', query_count: 3, total_tokens: 900,
      train_messages: [[...start, c1], [...start, c1, r1, c2], [...start, c1, r1, c2, r2, c3]] },
    compare_candidates: [], forward_args: { method: 'DFS_woFilter_w2' },
  };

  it('reads the whole path once (not each training prefix), the definitions, and each observation\'s error', () => {
    const text = JSON.stringify(file, null, 2);
    const { r, sessions } = readModel(text, { fileName: '10012_DFS_woFilter_w2.json' });
    assert.equal(r.format, 'toolbench');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.equal(s.id, 'weather in Paris?');
    assert.deepEqual(callNames(s), ['get_weather_for_weatherapi', 'get_weather_for_weatherapi', 'Finish']);
    assert.deepEqual(s.tools.map((t) => t.name), ['get_weather_for_weatherapi', 'Finish']);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.transport.isError]), [[0, true], [1, false]]);
    const drift = r.findings.filter((f) => f.code === 'type-drift');
    assert.equal(drift.length, 1, r.findings.map((f) => f.code).join());
    assert.equal(text.slice(drift[0].span.start, drift[0].span.end), '75');
  });

  const failedRun = { valid_data: false, final_answer: '', function: fns, query: 'q', query_count: 1, total_tokens: 1, train_messages: [], chain: [] };
  const node = (node_type: string, description: string, extra: Record<string, unknown> = {}) => ({ is_terminal: false, pruned: false, finished: false, node_type, description, Elo: 1000, child_count: 0, expand_num: 0, ...extra });

  it('a run without an answer: the calls of its CoT attempts, each Action and the Action Input after it', () => {
    const chain = [
      node('Thought', 'look it up'),
      node('Action', 'get_weather_for_weatherapi'),
      node('Action Input', '{"city": "Paris"}', { observation: '{"error": "", "response": "20C"}', observation_code: 0 }),
      node('Action', 'get_wether'),
      node('Action Input', '{"city": 1}', { observation: '{"error": "No such function name: get_wether", "response": ""}', observation_code: 1 }),
    ];
    const file = { win: false, try_count: 1, trys: [{ chain, win: false }], compare_candidates: [], forward_args: {}, answer_generation: failedRun };
    const { r, sessions } = readModel(JSON.stringify(file), { fileName: '1_CoT@1.json' });
    assert.equal(r.format, 'toolbench');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['get_weather_for_weatherapi', { city: 'Paris' }], ['get_wether', { city: 1 }]]);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.transport.isError]), [[0, false], [1, true]]);
    assert.ok(r.findings.some((f) => f.code === 'unknown-tool' && f.message.includes('get_wether')), r.findings.map((f) => f.code).join());
  });

  it('a DFS run without an answer: every branch of its tree', () => {
    const input = (args: string, observation: string, children: unknown[] = []) => node('Action Input', args, { observation, observation_code: 0, children });
    const tree = { size: 6, max_length: 4, tree: { ...node('Action Input', ''), children: [
      { ...node('Thought', 'try Paris'), children: [{ ...node('Action', 'get_weather_for_weatherapi'), children: [input('{"city": "Paris"}', '{"error": "timeout", "response": ""}')] }] },
      { ...node('Thought', 'try again'), children: [{ ...node('Action', 'get_weather_for_weatherapi'), children: [input('{"city": "Paris, FR"}', '{"error": "", "response": "20C"}')] }] },
    ] } };
    const file = { win: false, tree, compare_candidates: [], forward_args: {}, answer_generation: failedRun };
    const { sessions } = readModel(JSON.stringify(file), { fileName: '2_DFS_woFilter_w2.json' });
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.args), [{ city: 'Paris' }, { city: 'Paris, FR' }]);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.transport.isError]), [[0, true], [1, false]]);
  });
});

describe('Hugging Face `messages` datasets with tool_calls', () => {
  it('a `tools` column written as JSON text gives the definitions the calls are checked against', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'w', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
    const rec = {
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": 5}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '20C' },
      ],
      tools: JSON.stringify(tools),
    };
    const text = JSON.stringify(rec) + '\n';
    const { r, sessions, codes } = readModel(text, { fileName: 'train.jsonl' });
    assert.equal(r.format, 'openai-chat');
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['get_weather']);
    assert.ok(!codes.includes('no-contract'), codes.join());
    const drift = r.findings.filter((f) => f.code === 'type-drift');
    assert.equal(drift.length, 1, codes.join());
    assert.equal(text.slice(drift[0].span.start, drift[0].span.end), '5');
  });
});

describe('tau-bench tool-calling results', () => {
  it('an assistant reply that holds an Action line is a reply when the run is not a ReAct one', () => {
    const traj = [
      { role: 'system', content: '# Retail policy' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Action:\n{"name": "cancel_order", "arguments": {"order_id": "1"}}', tool_calls: null },
      { role: 'user', content: 'ok' },
    ];
    const { r, sessions, codes } = readModel(JSON.stringify([{ task_id: 1, reward: 0, info: {}, traj, trial: 0 }]), { fileName: 'tool-calling-gpt-4o.json' });
    assert.equal(r.format, 'tau-bench');
    assert.equal(sessions[0].calls.length, 0);
    assert.ok(codes.includes('call-in-text'), codes.join());
  });
});

describe('BFCL result files pretty-printed', () => {
  it('entries written one after another over several lines each are each a session, findings at their lines', () => {
    const entries = [
      { id: 'simple_python_0', result: [fc('calculate_triangle_area', { base: 10, height: 5 })], input_token_count: 120, output_token_count: 20, latency: 1.2 },
      { id: 'simple_python_1', result: '[math.factorial(number=5)]', input_token_count: 100, output_token_count: 10, latency: 0.5 },
    ];
    const text = entries.map((e) => JSON.stringify(e, null, 4)).join('\n') + '\n';
    const { r, sessions } = readModel(text, { fileName: 'BFCL_v3_simple_result.json' });
    assert.equal(r.format, 'bfcl');
    assert.deepEqual(sessions.map((s) => [s.id, callNames(s)]), [['simple_python_0', ['calculate_triangle_area']], ['simple_python_1', ['math.factorial']]]);
    const line = (code: string, tool: string) => {
      const f = r.findings.find((x) => x.code === code && x.message.startsWith(tool));
      return f ? text.slice(0, f.span.start).split('\n').length : undefined;
    };
    assert.equal(line('no-contract', 'no contract for calculate_triangle_area'), 4);
    assert.equal(line('no-contract', 'no contract for math.factorial'), 14);
  });
});
