// Files in formats we read, laid out a little differently from the samples their adapters were built on: the
// calls, their pairing and their findings must not be lost. Traces here are small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

function read(text: string, fileName?: string) {
  return readModel(text, { fileName });
}

const ccUser = (uuid: string, content: unknown, sessionId?: string) => JSON.stringify({ type: 'user', uuid, ...(sessionId ? { sessionId } : {}), message: { role: 'user', content } });
const ccAssistant = (uuid: string, id: string, name: string, sessionId?: string) =>
  JSON.stringify({ type: 'assistant', uuid, ...(sessionId ? { sessionId } : {}), message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input: { q: uuid } }] } });

describe('layout shifts in formats we read', () => {
  it('Claude Code: assistant lines without sessionId stay in the session of the lines around them', () => {
    const text = [
      ccUser('u1', 'hi', 'S1'),
      ccAssistant('a1', 'toolu_1', 'Read'),
      ccUser('u2', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }], 'S1'),
      ccAssistant('a2', 'toolu_2', 'Read'),
      ccUser('u3', [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }], 'S1'),
    ].join('\n');
    const { r, sessions, codes } = read(text, 'session.jsonl');
    assert.equal(r.format, 'claude-code');
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].calls.length, 2);
    assert.equal(sessions[0].results.length, 2);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });

  it('Claude Code: the log as one JSON array of its lines (a capture, not the JSONL) reads the same', () => {
    const lines = [
      ccUser('u1', 'hi', 'S1'),
      ccAssistant('a1', 'toolu_1', 'Read', 'S1'),
      ccUser('u2', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok', is_error: true }], 'S1'),
    ];
    const asJsonl = read(lines.join('\n'), 'x.jsonl');
    const asArray = read(`[\n${lines.join(',\n')}\n]`, 'x.json');
    assert.equal(asArray.r.format, 'claude-code');
    assert.equal(asArray.r.calls, asJsonl.r.calls);
    assert.deepEqual(asArray.sessions[0].results.map((x) => x.transport), [{ isError: true }]);
    assert.deepEqual(asArray.codes, asJsonl.codes);
  });

  it('OpenAI chat: messages one level deeper ({data: {messages}}) are read with their pairing', () => {
    const messages = [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp": 18}' },
      { role: 'tool', tool_call_id: 'c9', content: 'stray' },
    ];
    const { r, sessions, codes } = read(JSON.stringify({ data: { conversation_id: 'x', messages } }));
    assert.equal(r.format, 'openai-chat');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 2);
    assert.deepEqual(codes.filter((c) => c.startsWith('orphan')), ['orphan-result'], 'c9 answers no call');
  });

  it('a JSONL of wrapped Anthropic responses ({ts, response}) reads every call', () => {
    const response = (id: string) => ({ id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'lookup', input: { k: id } }], stop_reason: 'tool_use' });
    const text = [JSON.stringify({ ts: 1, response: response('toolu_a') }), JSON.stringify({ ts: 2, response: response('toolu_b') })].join('\n');
    const { r } = read(text, 'captures.log');
    assert.equal(r.format, 'anthropic');
    assert.equal(r.calls, 2);
  });

  it('an HTTP cassette whose body is a Gemini SSE stream hands the events to the Gemini reader', () => {
    const chunk = (parts: unknown[], finishReason?: string) => JSON.stringify({ candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }] });
    const body = `data: ${chunk([{ text: 'Let me look.' }])}\r\n\r\ndata: ${chunk([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }], 'STOP')}\r\n\r\n`;
    const { r, sessions } = read(JSON.stringify({ status: 200, headers: { 'content-type': 'text/event-stream' }, body }));
    assert.equal(r.format, 'http-cassette');
    assert.equal(r.calls, 1);
    assert.deepEqual(sessions[0].calls[0].args, { city: 'Paris' });
  });

  it('pretty-printed JSONL with a bare string record between the lines keeps every call', () => {
    const lines = [
      ccUser('u1', 'hi', 'S1'),
      ccAssistant('a1', 'toolu_1', 'Read', 'S1'),
      '"massive error"',
      ccUser('u2', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }], 'S1'),
      ccAssistant('a2', 'toolu_2', 'Read', 'S1'),
      '42',
      ccUser('u3', [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }], 'S1'),
    ].map((l) => JSON.stringify(JSON.parse(l), null, 2));
    const { r, sessions, codes } = read(lines.join('\n'), 'session.jsonl');
    assert.equal(r.format, 'claude-code');
    assert.equal(sessions[0]?.calls.length, 2);
    assert.equal(sessions[0].results.length, 2);
    assert.ok(!codes.includes('parse-error'), codes.join());
    // a word between the values is not JSON: the text is not read as a sequence of values
    const worded = read([lines[0], 'hello', lines[1]].join('\n'), 'session.jsonl');
    assert.ok(worded.codes.includes('parse-error'), worded.codes.join());
  });

  it('a line log captured as one JSON array (a VS Code chat mutation log) reads the calls its JSONL does', () => {
    const records = [
      { kind: 0, v: { version: 3, sessionId: 'sess-9', requests: [{ requestId: 'q1', message: { text: 'list files' }, response: [] }] } },
      { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'Looking.' }] },
      { kind: 1, k: ['requests', 0, 'result'], v: { metadata: { toolCallRounds: [{ toolCalls: [{ id: 'tc1', name: 'run_in_terminal', arguments: '{"command":"ls"}' }] }], toolCallResults: { tc1: { content: [{ value: 'a.txt' }] } } } } },
    ];
    const asJsonl = read(records.map((r) => JSON.stringify(r)).join('\n'), 'chat.jsonl');
    const asArray = read(JSON.stringify(records, null, 2), 'chat.json');
    assert.ok(asJsonl.r.calls >= 1, `${asJsonl.r.calls} calls in the JSONL`);
    assert.equal(asArray.r.format, asJsonl.r.format);
    assert.equal(asArray.r.calls, asJsonl.r.calls);
    assert.deepEqual(asArray.sessions.map((x) => x.results.length), asJsonl.sessions.map((x) => x.results.length));
    // a later version that stamps every entry with a key of its own is read the same
    const stamped = read(records.map((r, n) => JSON.stringify({ ...r, t: 1700000000 + n })).join('\n'), 'chat.jsonl');
    assert.equal(stamped.r.format, asJsonl.r.format);
    assert.equal(stamped.r.calls, asJsonl.r.calls);
    assert.deepEqual(stamped.sessions.map((x) => x.results.length), asJsonl.sessions.map((x) => x.results.length));
  });
});
