// Cohere Chat v2 on small hand-made traces: a response, a request with tool_plan and document tool results, and
// streamed events (with and without `index` and `tool-call-end`), as JSONL and as SSE.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spanOf } from '../../src/core';
import { readTrace, jsonl } from './helpers';

const read = (text: string, fileName: string) => readTrace(text, { fileName });

const start = (index: number | undefined, id: string, name: string, args = '') =>
  ({ type: 'tool-call-start', ...(index === undefined ? {} : { index }), delta: { message: { tool_calls: { id, type: 'function', function: { name, arguments: args } } } } });
const delta = (index: number | undefined, args: string) =>
  ({ type: 'tool-call-delta', ...(index === undefined ? {} : { index }), delta: { message: { tool_calls: { function: { arguments: args } } } } });

describe('cohere', () => {
  it('reads a response: tool_calls with JSON-string arguments; a double-encoded one is reported', () => {
    const response = {
      id: 'r1', finish_reason: 'TOOL_CALL',
      message: { role: 'assistant', tool_plan: 'I will look it up.', tool_calls: [
        { id: 'lookup_1', type: 'function', function: { name: 'lookup', arguments: '{"city":"Oslo"}' } },
        { id: 'lookup_2', type: 'function', function: { name: 'lookup', arguments: JSON.stringify('{"city":"Bergen"}') } },
      ] },
    };
    const { r, sessions: [s], codes } = read(JSON.stringify(response, null, 2), 'response.json');
    assert.equal(r.format, 'cohere');
    assert.deepEqual(s.calls.map((c) => [c.id, c.encoding, c.args]), [
      ['lookup_1', 'json-string', { city: 'Oslo' }], ['lookup_2', 'double-encoded', { city: 'Bergen' }],
    ]);
    assert.ok(codes.some((c) => c.startsWith('arguments-encoding') && c.endsWith('lookup')));
  });

  it('reads a request: tools as definitions, tool_plan marks it, a lone document part is what the tool returned', () => {
    const request = {
      model: 'command-a-03-2025',
      tools: [{ type: 'function', function: { name: 'get_stock', parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } } }],
      messages: [
        { role: 'user', content: 'is X1 in stock?' },
        { role: 'assistant', tool_plan: 'Check the stock.', tool_calls: [{ id: 's1', type: 'function', function: { name: 'get_stock', arguments: '{"sku":"X1"}' } }] },
        { role: 'tool', tool_call_id: 's1', content: [{ type: 'document', document: { data: '{"ok": false, "error": "unknown sku"}', id: 'd0' } }] },
      ],
    };
    const { r, sessions: [s], codes } = read(JSON.stringify(request, null, 2), 'request.json');
    assert.equal(r.format, 'cohere');
    assert.deepEqual(s.tools.map((t) => t.name), ['get_stock']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['s1', '{"ok": false, "error": "unknown sku"}']]);
    assert.deepEqual(s.results[0].payloadAt?.path, ['messages', 2, 'content', 0, 'document', 'data']);
    // no error flag exists in Cohere's tool messages: the body's failure is what status-theater sees
    assert.deepEqual(codes.map((c) => c.split(' ')[0]), ['status-theater']);
  });

  it('assembles a stream: fragments by index, the arguments at the fragment that completed them, one turn', () => {
    const text = jsonl(
      { id: 'm1', type: 'message-start', delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } } },
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'Two lookups.' } } },
      start(0, 'a_1', 'lookup'),
      start(1, 'b_1', 'lookup', '{"city":'),
      delta(0, '{"city":'),
      delta(0, '"Oslo"}'),
      delta(1, '"Bergen"}'),
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-end', index: 1 },
      { type: 'message-end', delta: { finish_reason: 'TOOL_CALL', usage: {} } },
    );
    const { r, sessions: [s], pos } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'cohere');
    assert.deepEqual(s.calls.map((c) => [c.id, c.args, c.turn]), [['a_1', { city: 'Oslo' }, 1], ['b_1', { city: 'Bergen' }, 1]]);
    assert.equal(pos(spanOf(s.calls[0].nameAt).start).split(':')[0], '3', 'named by its tool-call-start');
    assert.equal(pos(spanOf(s.calls[0].argsAt).start).split(':')[0], '6', 'completed by the delta on line 6');
  });

  it('reads a stream without index and without tool-call-end: fragments go to the call started last, message-end ends it', () => {
    const text = jsonl(
      { type: 'message-start', id: 'm', delta: { message: { role: 'assistant' } } },
      start(undefined, 'c1', 'bash', '{"co'),
      delta(undefined, 'mmand": "ls"}'),
      { type: 'message-end', delta: { finish_reason: 'TOOL_CALL' } },
      { type: 'message-start', id: 'm2', delta: { message: { role: 'assistant' } } },
      start(undefined, 'c2', 'bash', '{"command": "pwd"}'),
      { type: 'message-end', delta: { finish_reason: 'TOOL_CALL' } },
    );
    const { sessions: [s] } = read(text, 'stream.jsonl');
    assert.deepEqual(s.calls.map((c) => [c.id, c.args, c.turn]), [['c1', { command: 'ls' }, 1], ['c2', { command: 'pwd' }, 2]]);
  });

  it('reads the same events as SSE text (event: and data: lines)', () => {
    const events = [
      { type: 'message-start', id: 'm', delta: { message: { role: 'assistant' } } },
      start(0, 'w1', 'weather'),
      delta(0, '{"city":"Rome"}'),
      { type: 'tool-call-end', index: 0 },
      { type: 'message-end', delta: { finish_reason: 'TOOL_CALL' } },
    ];
    const text = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n`).join('\n');
    const { r, sessions: [s] } = read(text, 'stream.txt');
    assert.equal(r.format, 'cohere');
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['weather', { city: 'Rome' }]]);
  });

  it('leaves Chat requests without Cohere marks to the OpenAI Chat reader', () => {
    const request = { model: 'gpt-4o', messages: [{ role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{}' } }] }] };
    assert.equal(read(JSON.stringify(request), 'chat.json').r.format, 'openai-chat');
  });
});
