// The recording proxy's parts on their own: stream assembly, credential redaction, the recorded line's shape and
// the upstream URL rule.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembler } from '../../src/cli/live/assemble';
import { SseReader, sseJson } from '../../src/cli/live/sse';
import { apiKind, exchangeLine } from '../../src/cli/live/exchange';
import { targetUrl } from '../../src/cli/live/proxy';
import { redactHeaders, redactPath } from '../../src/cli/live/redact-headers';
import { checkText } from '../../src/core';

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';

/** Feed `text` to an assembler in pieces of `size` bytes (cutting events and UTF-8 sequences anywhere). */
function assemble(kind: 'chat' | 'messages' | 'responses', text: string, size: number): Record<string, unknown> | undefined {
  const a = assembler(kind);
  const r = new SseReader((d) => a.event(sseJson(d)));
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) r.push(bytes.subarray(i, i + size));
  r.end();
  return a.response();
}

describe('record: stream assembly', () => {
  const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
  const chat = sse([
    chunk({ role: 'assistant', content: null }),
    chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'get_', arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { name: 'weather', arguments: '{"ci' } }] }),
    chunk({ tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'clock', arguments: '{}' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Zürich"}' } }] }),
    chunk({}, 'tool_calls'),
  ]);

  for (const size of [1, 7, 1 << 16]) {
    it(`Chat Completions chunks (fed ${size} bytes at a time) make the chat.completion`, () => {
      const r = assemble('chat', chat, size) as { object: string; choices: { message: { tool_calls: { id: string; function: { name: string; arguments: string } }[] }; finish_reason: string }[] };
      assert.equal(r.object, 'chat.completion');
      assert.equal(r.choices[0].finish_reason, 'tool_calls');
      assert.deepEqual(r.choices[0].message.tool_calls.map((t) => [t.id, t.function.name, t.function.arguments]), [['a', 'get_weather', '{"city":"Zürich"}'], ['b', 'clock', '{}']]);
    });
  }

  it('Anthropic events make the message; a partial_json that is not JSON stays the text it was', () => {
    const ev = (type: string, body: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
    const text = [
      ev('message_start', { message: { id: 'm1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3 } } }),
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 't1', name: 'get_weather', input: {} } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 't2', name: 'clock', input: {} } }),
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '```json {}' } }),
      ev('content_block_stop', { index: 1 }),
      ev('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
      ev('message_stop', {}),
    ].join('');
    const r = assemble('messages', text, 5) as { content: { input: unknown }[]; stop_reason: string; usage: object };
    assert.deepEqual(r.content.map((b) => b.input), [{ city: 'Paris' }, '```json {}']);
    assert.equal(r.stop_reason, 'tool_use');
    assert.deepEqual(r.usage, { input_tokens: 3, output_tokens: 9 });
  });

  it('Responses: the completed event’s response; a cut stream keeps the items that were done', () => {
    const item = { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' };
    const done = `event: response.output_item.done\ndata: ${JSON.stringify({ type: 'response.output_item.done', output_index: 0, item })}\n\n`;
    const created = `data: ${JSON.stringify({ type: 'response.created', response: { id: 'r', object: 'response', output: [] } })}\n\n`;
    assert.deepEqual((assemble('responses', created + done, 3) as { output: unknown[] }).output, [item]);
    const completed = `data: ${JSON.stringify({ type: 'response.completed', response: { id: 'r', object: 'response', output: [item], status: 'completed' } })}\n\n`;
    assert.equal((assemble('responses', created + done + completed, 64) as { status: string }).status, 'completed');
  });
});

describe('record: credentials never reach the recording', () => {
  it('headers: by name and by what the value looks like', () => {
    const h = redactHeaders({
      authorization: 'Bearer abc', 'x-api-key': 'whatever', 'api-key': 'k', 'x-goog-api-key': 'g', cookie: 'a=b', 'proxy-authorization': 'Basic x',
      'x-whatever': 'sk-proj-0123456789abcdef', 'x-trace': 'eyJhbGciOi.eyJzdWIi', 'anthropic-version': '2023-06-01', 'content-type': 'application/json',
      'user-agent': 'OpenAI/JS 6.49.0', accept: ['a', 'b'],
    });
    for (const k of ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'cookie', 'proxy-authorization', 'x-whatever', 'x-trace']) assert.equal(h[k], '[redacted]', k);
    assert.equal(h['anthropic-version'], '2023-06-01');
    assert.equal(h['content-type'], 'application/json');
    assert.equal(h['user-agent'], 'OpenAI/JS 6.49.0');
    assert.equal(h.accept, 'a, b');
  });

  it('query values', () => {
    assert.equal(redactPath('/v1beta/models/x:generate?key=AIzaSyD0123456789&alt=sse'), '/v1beta/models/x:generate?key=%5Bredacted%5D&alt=sse');
    assert.equal(redactPath('/v1/chat/completions?api-version=2024-10-21&sig=abc'), '/v1/chat/completions?api-version=2024-10-21&sig=%5Bredacted%5D');
    assert.equal(redactPath('/v1/x?q=sk-live-0123456789abcdefgh'), '/v1/x?q=%5Bredacted%5D');
    assert.equal(redactPath('/v1/messages'), '/v1/messages');
  });
});

describe('record: the recorded line', () => {
  const meta = { at: 't', path: '/v1/x', status: 200, stream: false, ms: 1 };
  const tools = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];

  it('which paths are recorded', () => {
    assert.equal(apiKind('POST', '/v1/chat/completions'), 'chat');
    assert.equal(apiKind('POST', '/openai/deployments/d/chat/completions?api-version=1'), 'chat');
    assert.equal(apiKind('POST', '/v1/responses'), 'responses');
    assert.equal(apiKind('POST', '/v1/messages'), 'messages');
    assert.equal(apiKind('POST', '/v1/messages/count_tokens'), undefined);
    assert.equal(apiKind('GET', '/v1/models'), undefined);
  });

  it('Anthropic: the answer is the last message, the request tools its contract', () => {
    const request = JSON.stringify({ model: 'm', max_tokens: 5, tools, messages: [{ role: 'user', content: 'hi' }] });
    const answer = { id: 'msg', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'get_weather', input: { city: 1 } }] };
    const line = exchangeLine('messages', request, answer, { ...meta });
    const r = checkText(line);
    assert.equal(r.format, 'anthropic');
    assert.equal(r.calls, 1);
    assert.deepEqual(r.findings.map((f) => f.code), ['type-drift']);
  });

  it('an error answer and a request that is not JSON are kept under `recorded`', () => {
    const err = JSON.parse(exchangeLine('chat', '{"messages":[]}', { error: { message: 'no' } }, { ...meta, status: 429 })) as { recorded: { response: unknown }; messages: unknown[] };
    assert.deepEqual(err.recorded.response, { error: { message: 'no' } });
    assert.deepEqual(err.messages, []);
    const bad = JSON.parse(exchangeLine('chat', 'not json', undefined, { ...meta })) as { recorded: { request: string } };
    assert.equal(bad.recorded.request, 'not json');
  });

  it('the upstream URL: its path is a prefix, a trailing /v1 not doubled', () => {
    assert.equal(targetUrl(new URL('https://api.openai.com'), '/v1/chat/completions').href, 'https://api.openai.com/v1/chat/completions');
    assert.equal(targetUrl(new URL('https://api.openai.com/v1/'), '/v1/chat/completions?x=1').href, 'https://api.openai.com/v1/chat/completions?x=1');
    assert.equal(targetUrl(new URL('https://gw.example/proxy/openai'), '/v1/responses').href, 'https://gw.example/proxy/openai/v1/responses');
  });
});
