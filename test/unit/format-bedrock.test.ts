// AWS Bedrock Converse on small hand-made traces: requests (toolConfig definitions, toolResult status), responses,
// ConverseStream events (JSONL, a JSON array, bare payloads), nock recordings whose later requests repeat the calls.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spanOf } from '../../src/core';
import { readTrace, jsonl } from './helpers';

const read = (text: string, fileName: string) => readTrace(text, { fileName });


const bookSpec = {
  toolSpec: {
    name: 'book_room',
    inputSchema: { json: { type: 'object', properties: { room: { type: 'string' }, minutes: { type: 'integer' } }, required: ['room', 'minutes'] } },
  },
};

describe('bedrock converse', () => {
  it('reads a request: toolSpec definitions check the calls, toolResult status "error" is the result\'s isError', () => {
    const request = {
      modelId: 'anthropic.claude-3-haiku',
      toolConfig: { tools: [bookSpec] },
      messages: [
        { role: 'user', content: [{ text: 'book room A for an hour' }] },
        { role: 'assistant', content: [{ text: 'Booking.' }, { toolUse: { toolUseId: 'tu1', name: 'book_room', input: { room: 'A', minutes: '60' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tu1', status: 'error', content: [{ text: 'room A is closed' }] } }] },
      ],
    };
    const { r, sessions: [s], codes } = read(JSON.stringify(request, null, 2), 'request.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.deepEqual(s.tools.map((t) => t.name), ['book_room']);
    assert.deepEqual([s.calls[0].id, s.calls[0].encoding, s.calls[0].messageText], ['tu1', 'object', 'Booking.']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload, x.transport]), [['tu1', 'room A is closed', { isError: true }]]);
    // "60" is a string where the toolSpec wants an integer; the honest failure is neither theater nor an orphan
    assert.deepEqual(codes.map((c) => c.split(' ')[0]), ['type-drift']);
    assert.equal(codes[0], 'type-drift 50:26 book_room', 'at the value "60"');
  });

  it('takes a lone {json} block as what the tool returned, so a "success" around {ok: false} is status theater', () => {
    const request = {
      toolConfig: { tools: [bookSpec] },
      messages: [
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu1', name: 'book_room', input: { room: 'A', minutes: 60 } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tu1', status: 'success', content: [{ json: { ok: false, error: 'closed' } }] } }] },
      ],
    };
    const { sessions: [s], codes } = read(JSON.stringify(request), 'request.json');
    assert.deepEqual(s.results[0].payload, { ok: false, error: 'closed' });
    assert.deepEqual(s.results[0].transport, { isError: false });
    assert.deepEqual(s.results[0].payloadAt?.path, ['messages', 1, 'content', 0, 'toolResult', 'content', 0, 'json']);
    assert.deepEqual(codes.map((c) => c.split(' ')[0]), ['status-theater']);
  });

  it('reads a response: parallel toolUse blocks are one turn; a server tool\'s call and toolResult in one message pair up', () => {
    const response = {
      ResponseMetadata: { HTTPStatusCode: 200 },
      output: { message: { role: 'assistant', content: [
        { text: 'Looking.' },
        { toolUse: { toolUseId: 'a', name: 'get_time', input: {} } },
        { toolUse: { toolUseId: 'g', name: 'nova_grounding', input: { query: 'x' }, type: 'server_tool_use' } },
        { toolResult: { toolUseId: 'g', content: [{ text: 'found' }], status: 'success', type: 'nova_grounding_result' } },
      ] } },
      stopReason: 'tool_use',
    };
    const { r, sessions: [s] } = read(JSON.stringify(response), 'response.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.deepEqual(s.calls.map((c) => [c.name, c.turn]), [['get_time', 1], ['nova_grounding', 1]]);
    assert.deepEqual(s.results.map((x) => x.callId), ['g']);
  });

  it('keeps the text of an assistant message that made no call: a call written as text there is reported', () => {
    const response = { output: { message: { role: 'assistant', content: [{ text: '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>' }] } }, stopReason: 'end_turn' };
    const { r, codes } = read(JSON.stringify(response), 'response.json');
    assert.equal(r.calls, 0);
    assert.deepEqual(codes.map((c) => c.split(' ')[0]), ['call-in-text']);
  });

  it('takes a systemTool as a definition that allows any input: its call is not an unknown tool', () => {
    const request = {
      toolConfig: { tools: [bookSpec, { systemTool: { name: 'nova_grounding' } }] },
      messages: [{ role: 'assistant', content: [{ toolUse: { toolUseId: 'g', name: 'nova_grounding', input: { query: 'weather' } } }] }],
    };
    const { codes } = read(JSON.stringify(request), 'request.json');
    assert.deepEqual(codes, []);
  });

  it('assembles ConverseStream lines: fragments concatenated, arguments at the completing fragment, "" is no arguments', () => {
    const text = jsonl(
      { messageStart: { role: 'assistant' } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't1', name: 'search' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"q":' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '"rooms"}' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't2', name: 'list_rooms' } } } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '' } } } },
      { contentBlockStop: { contentBlockIndex: 1 } },
      { metadata: { usage: { inputTokens: 1, outputTokens: 2 }, metrics: { latencyMs: 3 } } },
      { messageStop: { stopReason: 'tool_use' } },
      { messageStart: { role: 'assistant' } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't3', name: 'search' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"q":"desks"}' } } } },
      { messageStop: { stopReason: 'tool_use' } },
    );
    const { r, sessions: [s], pos, codes } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'bedrock-converse');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.args, c.turn]), [
      ['search', 't1', { q: 'rooms' }, 1], ['list_rooms', 't2', {}, 1], ['search', 't3', { q: 'desks' }, 2],
    ]);
    assert.equal(pos(spanOf(s.calls[0].nameAt).start), '2:89', 'named by the start event (its "search")');
    assert.equal(pos(spanOf(s.calls[0].argsAt).start).split(':')[0], '4', 'arguments completed by the delta on line 4');
    assert.ok(!codes.some((c) => c.startsWith('arguments-encoding')), 'an empty fragment is {} and the open block ends with the message');
  });

  it('reads a JSON array of events, bare payloads without their event key, and {event: …} wrappers', () => {
    const events = [
      { role: 'assistant' },
      { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'x', name: 'lookup' } } },
      { event: { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"id":7}' } } } } },
      { contentBlockIndex: 0 },
      { stopReason: 'tool_use' },
    ];
    const { r, sessions: [s] } = read(JSON.stringify(events, null, 1), 'events.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.args]), [['lookup', 'x', { id: 7 }]]);
  });

  it('reads a nock recording in one session: the echoed call of the second request is read once, the tools once', () => {
    const converse = '/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse';
    const scope = 'https://bedrock-runtime.us-east-1.amazonaws.com:443';
    const call = { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu9', name: 'book_room', input: { room: 'B', minutes: 30 } } }] };
    const recording = [
      { scope, method: 'POST', path: converse, status: 200,
        body: { toolConfig: { tools: [bookSpec] }, messages: [{ role: 'user', content: [{ text: 'book B' }] }] },
        response: { output: { message: call }, stopReason: 'tool_use' } },
      { scope, method: 'POST', path: converse, status: 200,
        body: JSON.stringify({ toolConfig: { tools: [bookSpec] }, messages: [
          { role: 'user', content: [{ text: 'book B' }] }, call,
          { role: 'user', content: [{ toolResult: { toolUseId: 'tu9', content: [{ json: { ok: true } }] } }] },
        ] }),
        response: { output: { message: { role: 'assistant', content: [{ text: 'Booked.' }] } }, stopReason: 'end_turn' } },
    ];
    const { r, sessions, codes } = read(JSON.stringify(recording, null, 2), 'recording.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.id), ['tu9']);
    assert.deepEqual(s.calls[0].at.path.slice(0, 2), [0, 'response'], 'the call as the first response made it');
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['tu9', { ok: true }]]);
    assert.equal(s.tools.length, 1);
    assert.deepEqual(codes, []);
  });

  it('reads a recording of InvokeModel with an Anthropic body through the Anthropic reader', () => {
    const recording = [{
      scope: 'https://bedrock-runtime.us-east-1.amazonaws.com:443', method: 'POST', path: '/model/anthropic.claude-3-sonnet/invoke', status: 200,
      body: { anthropic_version: 'bedrock-2023-05-31', tools: [{ name: 'calc', input_schema: { type: 'object', properties: { expr: { type: 'string' } }, required: ['expr'] } }],
        messages: [{ role: 'user', content: 'what is 2+2' }] },
      response: { type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'calc', input: {} }], stop_reason: 'max_tokens' },
      responseIsBinary: false,
    }];
    const { r, sessions: [s], codes } = read(JSON.stringify(recording, null, 2), 'invoke.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['calc', 'toolu_1']]);
    assert.deepEqual(codes.map((c) => c.split(' ')[0]), ['missing-key'], 'the recorded schema checks the call');
  });

  it('skips what it cannot read: a delta without a start, a toolUse that is no object, a binary response', () => {
    const text = jsonl(
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":1}' } } } },
      { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: 'oops' } } },
      { contentBlockStop: { contentBlockIndex: 1 } },
      { messageStop: { stopReason: 'end_turn' } },
    );
    const { r } = read(text, 'broken.jsonl');
    assert.equal(r.format, 'bedrock-converse');
    assert.equal(r.calls, 0);
    const binary = [{ scope: 'https://bedrock-runtime.us-east-1.amazonaws.com:443', method: 'POST', path: '/model/m/converse-stream', status: 200,
      body: { messages: [{ role: 'user', content: [{ text: 'hi' }] }] }, response: '0000a1b2c3', responseIsBinary: true }];
    assert.equal(read(JSON.stringify(binary), 'binary.json').r.calls, 0);
  });
});
