// Tool-calling training data in the dataset layouts met in the fifth round: LLaMA-Factory's ShareGPT records
// (`function_call` / `observation` roles, a `tools` column as a JSON string), Hermes-style records (`<tools>`,
// `<tool_call>`, `<tool_response>` in the text; Hermes Agent's trajectories; Python-literal spellings), Glaive's
// `{system, chat}` texts, xLAM's `{query, tools, answers}` and ToolACE's Python-syntax answers. Every record here
// is small and written for the test from the layouts' documented rules; none is a copy of a sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, type Session } from '../../src/core';

function read(text: string, fileName = 'data.json') {
  const r = checkText(text, { fileName, keepModel: true, packs: false });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  return { r, sessions, codes: r.findings.map((f) => f.code) };
}
const calls = (s: Session) => s.calls.map((c) => `${c.name}${JSON.stringify(c.args)}`);
/** The text of the file a finding of `code` points at. */
function pointed(text: string, r: ReturnType<typeof checkText>, code: string): string[] {
  return r.findings.filter((f) => f.code === code).map((f) => text.slice(f.span.start, f.span.end));
}

const areaTool = { name: 'area', description: 'area of a shape', parameters: { type: 'object', properties: { shape: { type: 'string' }, size: { type: 'number' } }, required: ['shape'] } };

describe('LLaMA-Factory ShareGPT records', () => {
  const record = (size: unknown) => ({
    conversations: [
      { from: 'human', value: 'how big is it?' },
      { from: 'function_call', value: JSON.stringify({ name: 'area', arguments: { shape: 'disc', size } }) },
      { from: 'observation', value: '{"area": 3.1}' },
      { from: 'gpt', value: 'about 3' },
    ],
    tools: JSON.stringify([areaTool]),
  });

  it('reads the function_call turn as a call, the observation as its result, the tools column as definitions', () => {
    const { r, sessions, codes } = read(JSON.stringify([record(1)], null, 2));
    assert.equal(r.format, 'sharegpt');
    assert.equal(sessions.length, 1);
    assert.deepEqual(calls(sessions[0]), ['area{"shape":"disc","size":1}']);
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].callIndex, 0);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['area']);
    assert.deepEqual(codes, []);
  });

  it('a wrong argument type is flagged against the embedded definitions, at the value inside the string', () => {
    const text = JSON.stringify([record('ten')], null, 2);
    const { r, codes } = read(text);
    assert.ok(codes.includes('type-drift'), codes.join());
    assert.deepEqual(pointed(text, r, 'type-drift'), ['\\"ten\\"']);
  });

  it('each element of an array is a session; each JSONL line is one', () => {
    assert.equal(read(JSON.stringify([record(1), record(2), record(3)])).sessions.length, 3);
    const lines = read([record(1), record(2)].map((x) => JSON.stringify(x)).join('\n'), 'data.jsonl');
    assert.equal(lines.r.format, 'sharegpt');
    assert.equal(lines.sessions.length, 2);
  });

  it('a function_call turn holding a list of calls and one observation: the observation answers them all', () => {
    const rec = {
      conversations: [
        { from: 'human', value: 'two shapes' },
        { from: 'function_call', value: JSON.stringify([{ name: 'area', arguments: { shape: 'a' } }, { name: 'area', arguments: { shape: 'b' } }]) },
        { from: 'observation', value: '[{"area": 1}, {"area": 2}]' },
        { from: 'gpt', value: 'done' },
      ],
      tools: [areaTool],
    };
    const { sessions, codes } = read(JSON.stringify(rec));
    assert.equal(sessions[0].calls.length, 2);
    assert.deepEqual(sessions[0].results.map((x) => x.callIndex), [0, 1]);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('role/content tags (LLaMA-Factory `messages` with function_call / observation roles) read the same', () => {
    const rec = {
      messages: [
        { role: 'user', content: 'how big?' },
        { role: 'function_call', content: '{"name": "area", "arguments": {"shape": 5}}' },
        { role: 'observation', content: 'error: shape must be text' },
        { role: 'assistant', content: 'it failed' },
      ],
      tools: JSON.stringify([{ type: 'function', function: areaTool }]),
    };
    const text = JSON.stringify(rec);
    const { r, sessions, codes } = read(text);
    assert.equal(r.format, 'sharegpt');
    assert.equal(sessions[0].results[0].callIndex, 0);
    assert.ok(codes.includes('type-drift'), codes.join());
    assert.deepEqual(pointed(text, r, 'type-drift'), ['5']);
  });

  it('Glaive converted to ShareGPT: a bare list, `function-call` / `function-response` roles, arguments in single quotes', () => {
    const list = [
      { from: 'system', value: `You have access to the following functions. Use them if required -${JSON.stringify(areaTool, null, 1)}` },
      { from: 'human', value: 'how big?' },
      { from: 'function-call', value: `{"name": "area", "arguments": '{"shape": "disc", "size": "big"}'}` },
      { from: 'function-response', value: '{"area": 2}' },
      { from: 'gpt', value: 'two' },
    ];
    const text = JSON.stringify(list);
    const { r, sessions, codes } = read(text);
    assert.equal(r.format, 'sharegpt');
    assert.deepEqual(calls(sessions[0]), ['area{"shape":"disc","size":"big"}']);
    assert.equal(sessions[0].results[0].callIndex, 0);
    assert.deepEqual(pointed(text, r, 'type-drift'), ['\\"big\\"']);
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('a preference record: the chosen turn continues the conversation, the rejected one is not read', () => {
    const rec = {
      conversations: [{ from: 'human', value: 'how big?' }],
      chosen: { from: 'function_call', value: '{"name": "area", "arguments": {"shape": "disc"}}' },
      rejected: { from: 'function_call', value: '{"name": "area", "arguments": {"shape": 1}}' },
      tools: JSON.stringify([areaTool]),
    };
    const { r, sessions, codes } = read(JSON.stringify([rec]));
    assert.equal(r.format, 'sharegpt');
    assert.deepEqual(calls(sessions[0]), ['area{"shape":"disc"}']);
    assert.ok(!codes.includes('type-drift'), codes.join());
  });

  it('a plain ShareGPT chat without tools is still this format, with no calls', () => {
    const { r, codes } = read(JSON.stringify({ conversations: [{ from: 'human', value: 'hi' }, { from: 'gpt', value: 'hello' }] }));
    assert.equal(r.format, 'sharegpt');
    assert.equal(r.calls, 0);
    assert.ok(!codes.includes('unknown-format'), codes.join());
  });

  it('an array cut short still reads the whole records before the break', () => {
    const whole = JSON.stringify([record(1), record(2)], null, 2);
    const cut = whole.slice(0, whole.lastIndexOf('"observation"'));
    const { r, sessions, codes } = read(cut);
    assert.equal(r.format, 'sharegpt');
    assert.ok(sessions.length >= 1 && sessions[0].calls.length === 1, String(sessions.length));
    assert.ok(codes.includes('parse-error'), codes.join());
  });
});

describe('Hermes-style records (text tags)', () => {
  const system = (defs: string) => `You are a function calling AI model, given function signatures within <tools> </tools> XML tags. Here are the available tools:\n<tools>\n${defs}\n</tools>\nUse <tool_call> tags.`;
  const hermes = (args: string) => ({
    conversations: [
      { from: 'system', value: system(JSON.stringify([{ type: 'function', function: areaTool }])) },
      { from: 'human', value: 'two shapes' },
      { from: 'gpt', value: `<think>\nboth\n</think>\n<tool_call>\n{"name": "area", "arguments": ${args}}\n</tool_call>\n<tool_call>\n{"name": "area", "arguments": {"shape": "b"}}\n</tool_call>` },
      { from: 'tool', value: '<tool_response>\n{"tool_call_id": "c1", "name": "area", "content": {"area": 1}}\n</tool_response>\n<tool_response>\n{"tool_call_id": "c2", "name": "area", "content": "oops"}\n</tool_response>' },
      { from: 'gpt', value: 'done' },
    ],
  });

  it('reads each <tool_call> block as a call and each <tool_response> as the result of the call in its place', () => {
    const { r, sessions, codes } = read(JSON.stringify(hermes('{"shape": "a"}')) + '\n', 'trajectory_samples.jsonl');
    assert.equal(r.format, 'sharegpt');
    assert.deepEqual(calls(sessions[0]), ['area{"shape":"a"}', 'area{"shape":"b"}']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, JSON.stringify(x.payload)]), [[0, '{"area":1}'], [1, '"oops"']]);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['area']);
    assert.deepEqual(codes, []);
  });

  it('the definitions of the <tools> block make a wrong type a finding, at the value inside the message', () => {
    const text = JSON.stringify(hermes('{"shape": "a", "size": "big"}'));
    const { r, codes } = read(text, 'x.jsonl');
    assert.ok(codes.includes('type-drift'), codes.join());
    assert.deepEqual(pointed(text, r, 'type-drift'), ['\\"big\\"']);
    assert.ok(!codes.includes('call-in-text'), codes.join());
  });

  it('Python-literal spellings (Hermes function-calling data) and one definition a line (Qwen) are read', () => {
    const rec = {
      conversations: [
        { from: 'system', value: system(`{"type": "function", "function": ${JSON.stringify(areaTool)}}\n{"type": "function", "function": {"name": "clear", "parameters": {"type": "object", "properties": {}}}}`) },
        { from: 'human', value: 'go' },
        { from: 'gpt', value: "<tool_call>\n{'arguments': {'shape': 'it\\'s', 'size': 2}, 'name': 'area'}\n</tool_call>\n<tool_call>\n{'name': 'clear', 'arguments': {}}\n</tool_call>" },
        { from: 'tool', value: '<tool_response>\n{"name": "area", "content": {"area": 4}}\n</tool_response>\n<tool_response>\n{"name": "clear", "content": true}\n</tool_response>' },
      ],
    };
    const { sessions, codes } = read(JSON.stringify(rec));
    assert.deepEqual(calls(sessions[0]), ['area{"shape":"it\'s","size":2}', 'clear{}']);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['area', 'clear']);
    assert.deepEqual(sessions[0].results.map((x) => x.callIndex), [0, 1]);
    assert.deepEqual(codes, []);
  });

  it('results in user turns (the Qwen template renders tool results so), `parameters` and string-encoded arguments', () => {
    const rec = {
      conversations: [
        { from: 'human', value: 'go' },
        { from: 'gpt', value: '<tool_call>\n{"name": "area", "parameters": {"shape": "a"}}\n</tool_call>\n<tool_call>\n{"name": "area", "arguments": "{\\"shape\\": \\"b\\"}"}\n</tool_call>' },
        { from: 'human', value: '<tool_response>\n1\n</tool_response>\n<tool_response>\n2\n</tool_response>' },
        { from: 'gpt', value: 'both' },
      ],
    };
    const { sessions, codes } = read(JSON.stringify(rec));
    assert.deepEqual(calls(sessions[0]), ['area{"shape":"a"}', 'area{"shape":"b"}']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, x.payload]), [[0, '1'], [1, '2']]);
    assert.ok(!codes.includes('arguments-encoding') && !codes.includes('orphan-result'), codes.join());
  });

  it('a last <tool_call> cut off without its closing tag is still a call', () => {
    const rec = { conversations: [{ from: 'human', value: 'go' }, { from: 'gpt', value: '<tool_call>\n{"name": "area", "arguments": {"shape": "a"}}' }] };
    const { r, sessions } = read(JSON.stringify(rec));
    assert.equal(r.format, 'sharegpt');
    assert.deepEqual(calls(sessions[0]), ['area{"shape":"a"}']);
  });

  it('role/content records whose calls are the text tags are read as calls, not as calls written in text', () => {
    const rec = {
      messages: [
        { role: 'system', content: system(JSON.stringify([areaTool])) },
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '<tool_call>\n{"name": "area", "arguments": {"shape": "a"}}\n</tool_call>' },
        { role: 'tool', content: '<tool_response>\n{"name": "area", "content": 1}\n</tool_response>' },
        { role: 'assistant', content: 'one' },
      ],
    };
    const { r, sessions, codes } = read(JSON.stringify(rec));
    assert.equal(r.format, 'sharegpt');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results[0].callIndex, 0);
    assert.ok(!codes.includes('call-in-text'), codes.join());
  });

  it('an OpenAI chat file with real tool_calls stays the Chat reader\'s', () => {
    const rec = {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'area', arguments: '{"shape":"a"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '<tool_response>1</tool_response>' },
      ],
    };
    assert.equal(read(JSON.stringify(rec)).r.format, 'openai-chat');
  });

  it('a model that wrote a call as text in an OpenAI chat (nothing answered it, no tool list) is still flagged', () => {
    const rec = { messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: '<tool_call>\n{"name": "area", "arguments": {}}\n</tool_call>' }] };
    const { r, codes } = read(JSON.stringify(rec));
    assert.equal(r.format, 'openai-chat');
    assert.ok(codes.includes('call-in-text'), codes.join());
  });

  it('calls with no recorded response are unanswered when the conversation goes on', () => {
    const rec = {
      conversations: [
        { from: 'human', value: 'go' },
        { from: 'gpt', value: '<tool_call>\n{"name": "area", "arguments": {"shape": "z"}}\n</tool_call>' },
        { from: 'tool', value: '<tool_response>\n{"name": "area", "content": 1}\n</tool_response>' },
        { from: 'gpt', value: '<tool_call>\n{"name": "area", "arguments": {"shape": "a"}}\n</tool_call>' },
        { from: 'gpt', value: 'I could not see the result' },
        { from: 'human', value: 'ok' },
      ],
    };
    assert.ok(read(JSON.stringify(rec)).codes.includes('orphan-call'));
  });
});

describe('Glaive {system, chat} records', () => {
  const rec = (args: string) => ({
    system: `SYSTEM: You are a helpful assistant with access to the following functions. Use them if required -\n${JSON.stringify(areaTool, null, 4)}\n\n${JSON.stringify({ name: 'noop', description: 'x', parameters: { type: 'object', properties: {} } }, null, 4)}\n`,
    chat: `USER: how big?\n\n\nASSISTANT: <functioncall> {"name": "area", "arguments": '${args}'} <|endoftext|>\n\n\nFUNCTION RESPONSE: {"area": 2}\n\n\nASSISTANT: It is 2. <|endoftext|>\n\n\nUSER: thanks\n\n\nASSISTANT: <functioncall> {"name": "noop", "arguments": '{}'} <|endoftext|>\n\n\nFUNCTION RESPONSE:\n{}\n\n\n`,
  });

  it('reads each <functioncall> as a call (arguments in single quotes), FUNCTION RESPONSE as its result, the system JSON as definitions', () => {
    const { r, sessions, codes } = read(JSON.stringify([rec('{"shape": "disc"}')]));
    assert.equal(r.format, 'glaive');
    assert.deepEqual(calls(sessions[0]), ['area{"shape":"disc"}', 'noop{}']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, JSON.stringify(x.payload)]), [[0, '{"area":2}'], [1, '{}']]);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['area', 'noop']);
    assert.deepEqual(codes, []);
  });

  it('a wrong type inside the quoted arguments is flagged at its characters', () => {
    const text = JSON.stringify(rec('{"shape": "disc", "size": "big"}'));
    const { r, codes } = read(text);
    assert.ok(codes.includes('type-drift'), codes.join());
    assert.deepEqual(pointed(text, r, 'type-drift'), ['\\"big\\"']);
  });
});

describe('xLAM / APIGen {query, tools, answers} records', () => {
  const tools = [{ name: 'split', description: 'chunks', parameters: { items: { description: 'list', type: 'List[int]' }, size: { description: 'chunk', type: 'int', default: 2 } } }];
  const rec = (args: unknown) => ({ id: 7, query: 'split it', tools: JSON.stringify(tools), answers: JSON.stringify([{ name: 'split', arguments: args }]) });

  it('reads the answers as calls of one turn and the tools as definitions in JSON Schema types', () => {
    const { r, sessions, codes } = read(JSON.stringify(rec({ items: [1, 2], size: 1 })));
    assert.equal(r.format, 'xlam');
    assert.equal(sessions[0].id, '7');
    assert.deepEqual(calls(sessions[0]), ['split{"items":[1,2],"size":1}']);
    assert.deepEqual(codes, []);
  });

  it('a wrong type and an undeclared argument are flagged inside the answers string', () => {
    const text = JSON.stringify(rec({ items: 'x', size: 1, extra: true }));
    const { r, codes } = read(text);
    assert.ok(codes.includes('type-drift') && codes.includes('extra-key'), codes.join());
    assert.deepEqual(pointed(text, r, 'type-drift'), ['\\"x\\"']);
  });

  it('JSONL of records, answers and tools already decoded, read one session a line', () => {
    const line = (n: number) => JSON.stringify({ query: 'q', tools, answers: [{ name: 'split', arguments: { items: [n] } }] });
    const { r, sessions } = read([line(1), line(2)].join('\n'), 'x.jsonl');
    assert.equal(r.format, 'xlam');
    assert.equal(sessions.length, 2);
  });
});

describe('ToolACE records (Python-syntax answers)', () => {
  const weather = (name: string) => ({ name, description: 'w', parameters: { type: 'dict', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } });

  it('a wrong type in a Python-syntax call is checked against the definitions (BFCL types mapped)', () => {
    const rec = {
      system: `Here is a list of functions in JSON format that you can invoke:\n${JSON.stringify([weather('weather')])}`,
      conversations: [{ from: 'user', value: 'go' }, { from: 'assistant', value: '[weather(city="Paris", days="two")]' }],
    };
    const { codes } = read(JSON.stringify(rec));
    assert.ok(codes.includes('type-drift'), codes.join());
  });

  it('a function_call turn written as one Python call is read too', () => {
    const rec = { conversations: [{ from: 'human', value: 'go' }, { from: 'function_call', value: "search(city='Paris')" }, { from: 'observation', value: 'found' }, { from: 'gpt', value: 'ok' }] };
    const { sessions } = read(JSON.stringify(rec));
    assert.deepEqual(calls(sessions[0]), ['search{"city":"Paris"}']);
    assert.equal(sessions[0].results[0].callIndex, 0);
  });

  it('reads the assistant\'s call list, and the tool turn as the results', () => {
    const rec = {
      system: `Here is a list of functions in JSON format that you can invoke:\n${JSON.stringify([weather('weather'), weather('Weather Now')])}.`,
      conversations: [
        { from: 'user', value: 'weather in Paris and Oslo' },
        { from: 'assistant', value: '[weather(city="Paris"), Weather Now(city="Oslo", days=2)]' },
        { from: 'tool', value: '[{"name": "weather", "results": {"t": 1}}, {"name": "weather", "results": {"t": 2}}]' },
        { from: 'assistant', value: 'mild' },
      ],
    };
    const { r, sessions, codes } = read(JSON.stringify(rec));
    assert.equal(r.format, 'sharegpt');
    assert.deepEqual(calls(sessions[0]), ['weather{"city":"Paris"}', 'Weather Now{"city":"Oslo","days":2}']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, JSON.stringify(x.payload)]), [[0, '{"name":"weather","results":{"t":1}}'], [1, '{"name":"weather","results":{"t":2}}']]);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['weather', 'Weather Now']);
    assert.deepEqual(codes, []);
  });
});
