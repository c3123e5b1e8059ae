// Mistral's Conversations API (Agents API): responses, histories, requests with `inputs` entries and streams.
// Every trace here is small and written for the test, after the layout the API documents.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

function read(text: string, fileName = 'conversation.json') {
  const m = readModel(text, { fileName });
  return { ...m, codes: [...m.codes].sort() };
}

const J = JSON.stringify;
const jsonl = (...lines: unknown[]) => lines.map((l) => J(l)).join('\n') + '\n';
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const chatTool = { type: 'function', function: { name: 'get_weather', parameters: schema } };
const badArgs = { town: 'Paris' };

describe('format: mistral-conversations', () => {
  const entry = (type: string, fields: object) => ({ object: 'entry', type, created_at: '2026-01-01T00:00:00Z', completed_at: null, ...fields });

  it('a history: function.call paired with function.result by tool_call_id', () => {
    const history = { object: 'conversation.history', conversation_id: 'conv_1', entries: [
      entry('message.input', { id: 'msg_1', role: 'user', content: 'weather in Paris and Oslo?', prefix: false }),
      entry('function.call', { id: 'fc_1', tool_call_id: 'k1', name: 'get_weather', arguments: J({ city: 'Paris' }) }),
      entry('function.call', { id: 'fc_2', tool_call_id: 'k2', name: 'get_weather', arguments: J({ city: 'Oslo' }) }),
      entry('function.result', { id: 'fr_2', tool_call_id: 'k2', result: '-3C' }),
      entry('function.result', { id: 'fr_1', tool_call_id: 'k1', result: '18C' }),
      entry('message.output', { id: 'msg_2', role: 'assistant', content: 'Paris 18C, Oslo -3C.' }),
    ] };
    const { r, sessions, codes } = read(J(history));
    assert.equal(r.format, 'mistral-conversations');
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['k1', 'k2']);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.payload]), [['k2', '-3C'], ['k1', '18C']]);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'));
  });

  it('a request: `inputs` entries checked against its `tools`; a built-in connector run is a call with its outcome', () => {
    const request = { model: 'mistral-medium-latest', tools: [chatTool, { type: 'web_search' }], inputs: [
      { type: 'message.input', role: 'user', content: 'hi' },
      { type: 'tool.execution', name: 'web_search', arguments: J({ query: 'paris weather' }), info: {} },
      { type: 'function.call', tool_call_id: 'k1', name: 'get_weather', arguments: J(badArgs) },
      { type: 'function.result', tool_call_id: 'k1', result: 'sunny' },
    ] };
    const { sessions, codes } = read(J(request));
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['web_search', 'get_weather']);
    assert.equal(sessions[0].results.length, 2);
    assert.ok(codes.includes('missing-key') && codes.includes('extra-key'));
  });

  it('a denied confirmation is an honest failure, not a call left unanswered', () => {
    const response = { object: 'conversation.response', conversation_id: 'conv_1', outputs: [
      entry('function.call', { id: 'fc_1', tool_call_id: 'k1', name: 'delete_file', arguments: J({ path: 'a' }), confirmation_status: 'denied' })] };
    const { sessions } = read(J(response));
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].transport.isError, true);
  });

  it('a stream: function.call.delta fragments by entry id, a tool run from its start and end', () => {
    const text = jsonl(
      { type: 'conversation.response.started', conversation_id: 'conv_1' },
      { type: 'tool.execution.started', output_index: 0, id: 'te_1', name: 'web_search', arguments: J({ query: 'x' }) },
      { type: 'tool.execution.done', output_index: 0, id: 'te_1', name: 'web_search', info: {} },
      { type: 'function.call.delta', output_index: 1, id: 'fc_1', tool_call_id: 'k1', name: 'get_weather', arguments: '{"city":' },
      { type: 'function.call.delta', output_index: 1, id: 'fc_1', tool_call_id: 'k1', name: 'get_weather', arguments: ' "Paris"}' },
      { type: 'conversation.response.done', usage: { total_tokens: 3 } });
    const { r, sessions } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'mistral-conversations');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id, c.args]), [['web_search', 'te_1', { query: 'x' }], ['get_weather', 'k1', { city: 'Paris' }]]);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['te_1']);
  });

  it('a stream cut short: the fragments read so far still make the call', () => {
    const text = jsonl(
      { type: 'conversation.response.started', conversation_id: 'conv_1' },
      { type: 'function.call.delta', id: 'fc_1', tool_call_id: 'k1', name: 'get_weather', arguments: '{"city": "Pa' }) + '{"type":"function.call.delta","id":"fc_1","tool_ca';
    const { sessions, codes } = read(text, 'stream.jsonl');
    assert.equal(sessions[0].calls.length, 1);
    assert.ok(codes.includes('parse-error'));
  });
});
