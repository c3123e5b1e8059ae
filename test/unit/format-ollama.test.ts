// Ollama /api/chat on small hand-made traces: object arguments are this format's own encoding, NDJSON streams
// (done ends a message; chunks of one call merged), requests whose tool messages answer by tool_name or by order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readTrace, jsonl } from './helpers';

const read = (text: string, fileName: string) => readTrace(text, { fileName });

const chunk = (done: boolean, toolCalls?: unknown[]) =>
  ({ model: 'qwen3:8b', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: '', ...(toolCalls ? { tool_calls: toolCalls } : {}) }, done, ...(done ? { done_reason: 'stop' } : {}) });
const tool = { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } };

describe('ollama', () => {
  it('reads a response: arguments as an object are not an encoding fault', () => {
    const { r, sessions: [s], codes } = read(JSON.stringify(chunk(true, [{ function: { name: 'read_file', arguments: { path: 'a.txt' } } }]), null, 2), 'response.json');
    assert.equal(r.format, 'ollama');
    assert.deepEqual(s.calls.map((c) => [c.name, c.encoding, c.args]), [['read_file', 'object', { path: 'a.txt' }]]);
    assert.deepEqual(codes, ['no-contract 10:19 read_file']);
  });

  it('keeps the text of a response that made no call: a call written as text there is reported', () => {
    const response = { model: 'qwen3:8b', created_at: '2025-01-01T00:00:00Z', done: true, done_reason: 'stop',
      message: { role: 'assistant', content: '<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>' } };
    const { r, codes } = read(JSON.stringify(response), 'response.json');
    assert.equal(r.calls, 0);
    assert.deepEqual(codes.map((c) => c.split(' ')[0]), ['call-in-text']);
  });

  it('reads a response recorded in an HTTP cassette (the body a JSON string)', () => {
    const body = JSON.stringify(chunk(true, [{ function: { name: 'read_file', arguments: { path: 'b.txt' } } }]));
    const { r, sessions: [s] } = read(JSON.stringify({ status: 200, headers: {}, body }), 'cassette.json');
    assert.equal(r.format, 'http-cassette');
    assert.deepEqual(s.calls.map((c) => [c.name, c.encoding, c.args]), [['read_file', 'object', { path: 'b.txt' }]]);
  });

  it('reads a stream: a message\'s calls are one turn, done ends it, a repeated or split call is one call', () => {
    const text = jsonl(
      chunk(false, [{ id: 'call_a', function: { index: 0, name: 'read_file', arguments: { path: 'a' } } }]),
      chunk(false, [{ id: 'call_b', function: { index: 1, name: 'list_dir', arguments: {} } }]),
      chunk(false, [{ id: 'call_a', function: { index: 0, name: 'read_file', arguments: { path: 'a' } } }]),
      chunk(true),
      chunk(false, [{ function: { index: 0, name: 'grep', arguments: {} } }]),
      chunk(false, [{ function: { index: 0, name: '', arguments: { pattern: 'TODO' } } }]),
      chunk(true),
    );
    const { r, sessions: [s] } = read(text, 'stream.ndjson');
    assert.equal(r.format, 'ollama');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.args, c.turn]), [
      ['read_file', 'call_a', { path: 'a' }, 1], ['list_dir', 'call_b', {}, 1], ['grep', undefined, { pattern: 'TODO' }, 2],
    ]);
  });

  it('reads a request: tool messages answer by tool_name, else by order; object arguments are clean, a string is not', () => {
    const request = {
      model: 'llama3.2', stream: false, tools: [tool],
      messages: [
        { role: 'user', content: 'read a and b' },
        { role: 'assistant', content: '', tool_calls: [
          { function: { name: 'read_file', arguments: { path: 'a' } } },
          { function: { name: 'list_dir', arguments: '{"path": "."}' } },
        ] },
        { role: 'tool', tool_name: 'list_dir', content: 'a b' },
        { role: 'tool', content: 'contents of a' },
      ],
    };
    const { r, sessions: [s], codes } = read(JSON.stringify(request, null, 2), 'request.json');
    assert.equal(r.format, 'ollama');
    assert.deepEqual(s.tools.map((t) => t.name), ['read_file']);
    assert.deepEqual(s.calls.map((c) => c.encoding), ['object', 'string-where-object-expected']);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.payload]), [[1, 'a b'], [undefined, 'contents of a']]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), `every call answered: ${codes.join(', ')}`);
    assert.ok(codes.some((c) => c.startsWith('arguments-encoding') && c.endsWith('list_dir')));
    assert.ok(!codes.some((c) => c.startsWith('arguments-encoding') && c.endsWith('read_file')));
  });

  it('pairs by tool_call_id when a newer server wrote ids', () => {
    const request = {
      model: 'qwen3:8b', keep_alive: '5m',
      messages: [
        { role: 'assistant', tool_calls: [{ id: 'call_1', function: { index: 0, name: 'read_file', arguments: { path: 'x' } } }, { id: 'call_2', function: { index: 1, name: 'read_file', arguments: { path: 'y' } } }] },
        { role: 'tool', tool_call_id: 'call_2', tool_name: 'read_file', content: 'y!' },
        { role: 'tool', tool_call_id: 'call_1', tool_name: 'read_file', content: 'x!' },
      ],
    };
    const { sessions: [s] } = read(JSON.stringify(request), 'request.json');
    assert.deepEqual(s.results.map((x) => x.callId), ['call_2', 'call_1']);
  });

  it('leaves an OpenAI request with object arguments to the OpenAI Chat reader, which reports them', () => {
    const request = { model: 'gpt-4o', messages: [{ role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: { a: 1 } } }] }] };
    const { r, codes } = read(JSON.stringify(request), 'chat.json');
    assert.equal(r.format, 'openai-chat');
    assert.ok(codes.some((c) => c.startsWith('arguments-encoding')));
  });
});
