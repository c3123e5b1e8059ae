// Model API payloads in the layouts of the provider fixtures a widely used SDK records (round four): Responses
// server outputs closing a program an earlier response started, exchange records that keep HTTP metadata beside
// the bodies, and the stream layouts those fixtures show (Anthropic MCP/server tools, Responses argument deltas,
// chat deltas split by index, Bedrock parallel tool blocks). Every trace here is small and written for the test,
// after the layout of a real file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';
import { exchangeParts, isExchange } from '../../src/core/formats/exchange';
import { topDoc } from '../../src/core/parse/doc';

function read(text: string, fileName = 'trace.json') {
  const m = readModel(text, { fileName });
  return { ...m, codes: [...m.codes].sort() };
}

const J = JSON.stringify;
const jsonl = (...lines: unknown[]) => lines.map((l) => J(l)).join('\n') + '\n';

describe('real layouts of model API payloads (round four)', () => {
  it('Responses: a program_output in a response for a program of an earlier response is no orphan', () => {
    const text = J({
      id: 'resp_2', object: 'response', status: 'completed', model: 'm',
      output: [
        { id: 'cmo_1', type: 'program_output', status: 'completed', call_id: 'call_prog', result: '{"value":3}' },
        { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '3' }] },
      ],
      tools: [{ type: 'programmatic_tool_calling' }, { type: 'function', name: 'get_n', parameters: { type: 'object', properties: {} } }],
    });
    const { r, sessions, codes } = read(text);
    assert.equal(r.format, 'openai-responses');
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].callId, 'call_prog');
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('Responses: a log that holds input and output still reports an output whose call is nowhere', () => {
    const text = J({
      model: 'm',
      input: [{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'ok' }],
      output: [{ type: 'function_call_output', call_id: 'c_missing', output: 'x' }],
    });
    const { codes } = read(text);
    assert.ok(codes.includes('orphan-result'), codes.join());
  });

  it('exchange records: the request is the key that holds one, not the first key that is present', () => {
    const chatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const chatResponse = { object: 'chat.completion', choices: [{ message: { role: 'assistant', content: 'yo' } }] };
    const isRequest = (v: unknown) => typeof v === 'object' && v !== null && 'messages' in v;
    const isResponse = (v: unknown) => typeof v === 'object' && v !== null && 'choices' in v;
    const record = { request: { method: 'POST', url: '/v1/chat/completions' }, request_body: chatRequest, response: { status: 200 }, response_body: chatResponse };
    assert.equal(isExchange(record, isRequest, isResponse), true);
    const parts = exchangeParts(topDoc(J(record), 0, record), isRequest, isResponse);
    assert.deepEqual(parts.map((p) => p.value), [chatRequest, chatResponse]);
    assert.equal(isExchange({ request: { method: 'POST' }, response: chatResponse }, isRequest, isResponse), false);
  });

  it('Anthropic stream: an MCP tool use and its result in the same message pair, arguments assembled', () => {
    const text = jsonl(
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', input: {}, server_name: 'srv' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"text": "hel' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'lo \\"you\\""}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: true, content: [{ type: 'text', text: 'boom' }] } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
      { type: 'message_stop' },
    );
    const { sessions, codes } = read(text, 'x.chunks.jsonl');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { text: 'hello "you"' });
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].transport.isError, true);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('arguments-encoding'), codes.join());
  });

  it('chat stream: a call whose only argument delta is "{}" after an empty first one is a no-argument call', () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    const text = jsonl(
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'PRE' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ping', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
      { id: 'c', object: 'chat.completion.chunk', choices: [], usage: { total_tokens: 3 } },
    );
    const { sessions, codes } = read(text, 'x.chunks.jsonl');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].calls[0].name, 'ping');
    assert.deepEqual(sessions[0].calls[0].args, {});
    assert.ok(!codes.includes('arguments-encoding'), codes.join());
  });

  it('Responses stream without sequence_number (an API-compatible server): arguments come from the deltas', () => {
    const item = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'get_weather' };
    const text = jsonl(
      { type: 'response.created', response: { id: 'resp_1', model: 'm', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } }] } },
      { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '' } },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '{"town":' },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '"Oslo"}' },
      { type: 'response.output_item.done', output_index: 0, item: { ...item, arguments: '{"town":"Oslo"}', status: 'completed' } },
      { type: 'response.completed', response: { usage: { input_tokens: 4, output_tokens: 2 } } },
    );
    const { r, sessions, codes } = read(text, 'x.chunks.jsonl');
    assert.equal(r.format, 'stream');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { town: 'Oslo' });
    assert.ok(codes.includes('missing-key') && codes.includes('extra-key'), codes.join());
  });

  it('Bedrock ConverseStream without messageStart: two tool blocks are two calls', () => {
    const text = jsonl(
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'checking' } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't1', name: 'weather' } } } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '"Oslo"}' } } } },
      { contentBlockStop: { contentBlockIndex: 1 } },
      { contentBlockStart: { contentBlockIndex: 2, start: { toolUse: { toolUseId: 't2', name: 'weather' } } } },
      { contentBlockDelta: { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":"Rome"}' } } } },
      { contentBlockStop: { contentBlockIndex: 2 } },
      { messageStop: { stopReason: 'tool_use' } },
    );
    const { sessions } = read(text, 'x.chunks.jsonl');
    assert.deepEqual(sessions[0].calls.map((c) => c.args), [{ city: 'Oslo' }, { city: 'Rome' }]);
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['t1', 't2']);
  });
});
