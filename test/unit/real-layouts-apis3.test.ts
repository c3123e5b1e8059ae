// Model API payloads in the layouts real logs keep them (round three): a request and its answer in one record
// (proxy and gateway logs, batch lines that keep both), LiteLLM's logging payload, DashScope's own stream, chunks
// that leave `object` out (Mistral's Conversations API: format-mistral-conversations.test.ts). Every trace here is small and written for the test,
// after the layout of a real file or of the format's documentation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

function read(text: string, fileName = 'trace.json') {
  const m = readModel(text, { fileName });
  return { ...m, codes: [...m.codes].sort() };
}

const J = JSON.stringify;
const jsonl = (...lines: unknown[]) => lines.map((l) => J(l)).join('\n') + '\n';
const sse = (...events: unknown[]) => events.map((e) => `data: ${J(e)}\n\n`).join('');
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const chatTool = { type: 'function', function: { name: 'get_weather', parameters: schema } };
const badArgs = { town: 'Paris' };

/** One session holding the request's definition and the answer's call, checked against it. */
function assertOneConversation(text: string, format: string, fileName?: string) {
  const { r, sessions, codes } = read(text, fileName);
  assert.equal(r.format, format);
  assert.equal(sessions.length, 1, 'request and answer are one conversation');
  assert.equal(sessions[0].tools.length, 1);
  assert.equal(sessions[0].calls.length, 1);
  assert.equal(sessions[0].calls[0].name, 'get_weather');
  assert.deepEqual(sessions[0].calls[0].args, badArgs);
  assert.ok(codes.includes('missing-key') && codes.includes('extra-key'), `the request's schema applies: ${codes.join(',')}`);
  return sessions[0];
}

describe('real layouts (apis3): a request and its answer in one record', () => {
  it('OpenAI Chat: {request, response}', () => {
    const chatAnswer = { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: J(badArgs) } }] } }] };
    const s = assertOneConversation(J({ request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools: [chatTool] }, response: chatAnswer }), 'openai-chat');
    assert.equal(s.calls[0].id, 'call_1');
  });

  it('a batch line that keeps both: {custom_id, request, response: {status_code, body}}', () => {
    const line = { custom_id: 'q-7', request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools: [chatTool] },
      response: { status_code: 200, request_id: 'req_1', body: { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: J(badArgs) } }] }, finish_reason: 'tool_calls' }] } } };
    assertOneConversation(jsonl(line), 'openai-chat', 'batch.jsonl');
  });

  it('Anthropic Messages: {request, response}', () => {
    const request = { model: 'claude-x', max_tokens: 64, tools: [{ name: 'get_weather', input_schema: schema }], messages: [{ role: 'user', content: 'hi' }] };
    const response = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: badArgs }], stop_reason: 'tool_use' };
    assertOneConversation(J({ request, response }), 'anthropic');
  });

  it('OpenAI Responses: {request, response} with text input', () => {
    const request = { model: 'gpt-5', input: 'hi', tools: [{ type: 'function', name: 'get_weather', parameters: schema }] };
    const response = { id: 'resp_1', object: 'response', status: 'completed', output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: J(badArgs), status: 'completed' }] };
    assertOneConversation(J({ request, response }), 'openai-responses');
  });

  it('Bedrock Converse: {request, response}', () => {
    const request = { modelId: 'm', messages: [{ role: 'user', content: [{ text: 'hi' }] }], toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: schema } } }] } };
    const response = { output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu_1', name: 'get_weather', input: badArgs } }] } }, stopReason: 'tool_use' };
    assertOneConversation(J({ request, response }), 'bedrock-converse');
  });

  it('Cohere v2: {request, response} (the request alone is a plain chat request)', () => {
    const request = { model: 'command-a', messages: [{ role: 'user', content: 'hi' }], tools: [chatTool] };
    const response = { id: 'x', message: { role: 'assistant', tool_plan: 'look it up', tool_calls: [{ id: 'get_weather_1', type: 'function', function: { name: 'get_weather', arguments: J(badArgs) } }] }, finish_reason: 'TOOL_CALL' };
    assertOneConversation(J({ request, response }), 'cohere');
  });

  it('Ollama: {request, response}', () => {
    const request = { model: 'qwen3', messages: [{ role: 'user', content: 'hi' }], tools: [chatTool] };
    const response = { model: 'qwen3', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: badArgs } }] }, done: true, done_reason: 'stop' };
    assertOneConversation(J({ request, response }), 'ollama');
  });

  it('halves of two formats are not merged: each is read where it belongs', () => {
    const request = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const response = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] };
    const { r } = read(J({ request, response }));
    assert.equal(r.calls, 1);
  });
});

describe('real layouts (apis3): Responses requests that continue a stored response', () => {
  const output = { type: 'function_call_output', call_id: 'call_1', output: 'sunny' };

  it('a request with previous_response_id answers calls made there: no orphan', () => {
    const { sessions, codes } = read(J({ model: 'gpt-5', previous_response_id: 'resp_1', input: [output], tools: [] }));
    assert.equal(sessions[0].results.length, 1);
    assert.ok(!codes.includes('orphan-result'));
  });

  it('without it, the same output is an orphan', () => {
    const { codes } = read(J({ model: 'gpt-5', input: [{ type: 'function_call', call_id: 'call_0', name: 'f', arguments: '{}' }, output], tools: [] }));
    assert.ok(codes.includes('orphan-result'));
  });

  it('a JSONL of exchanges chained by previous_response_id', () => {
    const text = jsonl(
      { request: { model: 'gpt-5', input: 'hi' }, response: { id: 'resp_1', object: 'response', output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: J({ city: 'Oslo' }) }] } },
      { request: { model: 'gpt-5', previous_response_id: 'resp_1', input: [output] }, response: { id: 'resp_2', object: 'response', output: [{ type: 'message', id: 'm', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.' }] }] } });
    const { sessions, codes } = read(text, 'exchanges.jsonl');
    assert.equal(sessions.flatMap((s) => s.calls).length, 1);
    assert.equal(sessions.flatMap((s) => s.results).length, 1);
    assert.ok(!codes.includes('orphan-result'));
  });
});

describe('real layouts (apis3): LiteLLM logging payload', () => {
  it('reads the answer under `response` and the tools under `model_parameters`', () => {
    const payload = { id: 'chatcmpl-1', call_type: 'acompletion', model: 'gpt-4o', status: 'success', response_cost: 0.0001,
      messages: [{ role: 'user', content: 'weather?' }],
      response: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: J(badArgs) } }] } }] },
      model_parameters: { temperature: 0, tools: [chatTool] } };
    assertOneConversation(J(payload), 'openai-chat');
  });
});

describe('real layouts (apis3): chat streams', () => {
  const call = (frag: object, finish: string) => ({ output: { choices: [{ message: { role: 'assistant', content: '', tool_calls: [{ index: 0, type: 'function', ...frag }] }, finish_reason: finish }] },
    usage: { total_tokens: 1 }, request_id: 'r-1' });

  it("DashScope's own stream: `output.choices[].message` fragments, finish_reason \"null\" until the end", () => {
    const text = sse(call({ id: 'call_1', function: { name: 'get_weather', arguments: '{"city":' } }, 'null'),
      call({ id: '', function: { arguments: ' "Paris"}' } }, 'tool_calls'));
    const { sessions, codes } = read(text, 'qwen.txt');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].calls[0].id, 'call_1');
    assert.deepEqual(sessions[0].calls[0].args, { city: 'Paris' });
    assert.ok(!codes.includes('arguments-encoding'));
  });

  it('DashScope without incremental output: each chunk resends the arguments so far', () => {
    const text = sse(call({ id: 'call_1', function: { name: 'get_weather', arguments: '{"city":' } }, 'null'),
      call({ id: 'call_1', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }, 'tool_calls'));
    const { sessions } = read(text, 'qwen.txt');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { city: 'Paris' });
  });

  it('chunks that leave `object` out (OpenAI-compatible servers) are still a stream', () => {
    const text = sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":' } }] } }] },
      { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '1}' } }] }, finish_reason: 'tool_calls' }] }) + 'data: [DONE]\n\n';
    const { r, sessions } = read(text, 'stream.txt');
    assert.equal(r.format, 'stream');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { q: 1 });
  });
});

describe('real layouts (apis3): a chunk whose arguments are an object', () => {
  it('keeps them (whole), and says the format sends a string', () => {
    const text = sse({ choices: [{ delta: { tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'London', units: 'C' } }, id: '1', index: 0 }] } }] },
      { choices: [{ finish_reason: 'tool_calls' }] }, { choices: [{ delta: { content: 'Sunny.' } }] }) + 'data: [DONE]\n\n';
    const { sessions, codes } = read(text, 'stream.txt');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { city: 'London', units: 'C' });
    assert.ok(codes.includes('arguments-encoding'));
  });
});

describe('real layouts (apis3): Gemini Live API message logs', () => {
  const geminiTool = { functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] };

  it('setup declares, toolCall calls by id, toolResponse answers by id', () => {
    const text = jsonl(
      { setup: { model: 'models/gemini-live', tools: [geminiTool] } },
      { setupComplete: {} },
      { clientContent: { turns: [{ role: 'user', parts: [{ text: 'weather in Paris and Oslo?' }] }], turnComplete: true } },
      { toolCall: { functionCalls: [{ id: 'fc-1', name: 'get_weather', args: badArgs }, { id: 'fc-2', name: 'get_weather', args: { city: 'Oslo' } }] } },
      { toolResponse: { functionResponses: [{ id: 'fc-2', name: 'get_weather', response: { result: '-3C' } }, { id: 'fc-1', name: 'get_weather', response: { result: '18C' } }] } },
      { serverContent: { modelTurn: { parts: [{ text: 'Paris 18C, Oslo -3C.' }] }, turnComplete: true } });
    const { r, sessions, codes } = read(text, 'live.jsonl');
    assert.equal(r.format, 'gemini');
    assert.equal(sessions[0].tools.length, 1);
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['fc-1', 'fc-2']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.payload]), [['fc-2', { result: '-3C' }], ['fc-1', { result: '18C' }]]);
    assert.ok(codes.includes('missing-key') && codes.includes('extra-key'));
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'));
  });

  it('Python SDK dumps (snake_case, unset frames null); a cancelled call is answered as a failure', () => {
    const frame = (set: Record<string, unknown>) => ({ setup_complete: null, server_content: null, tool_call: null, tool_call_cancellation: null, go_away: null, ...set });
    const text = jsonl(
      frame({ tool_call: { function_calls: [{ id: 'fc-9', name: 'get_weather', args: { city: 'Rome' } }] } }),
      frame({ tool_call_cancellation: { ids: ['fc-9'] } }),
      frame({ server_content: { model_turn: { parts: [{ text: 'Stopped.' }] }, turn_complete: true } }));
    const { sessions, codes } = read(text, 'live.jsonl');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].transport.isError, true);
    assert.ok(!codes.includes('orphan-call'));
  });
});
