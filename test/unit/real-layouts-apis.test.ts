// Provider API captures laid out the way real recorders, batch jobs and proxies write them (HAR files, VCR cassettes
// saved as JSON, batch outputs, JSON-RPC batches, older API versions): every call, its arguments, its result and the
// pairing must be read. Each trace here is small and written for the test, after the layout of a real file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

function read(text: string, fileName?: string) {
  return readModel(text, { fileName });
}

const J = JSON.stringify;
const chatCall = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: J(args) } });
const chatResponse = (message: object) => ({ id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }] });
const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } } };

/** A chat agent's three round trips: each request repeats the conversation so far. */
function chatRoundTrips() {
  const user = { role: 'user', content: 'Weather in Paris, then Rome and Oslo?' };
  const a1 = { role: 'assistant', content: null, tool_calls: [chatCall('call_1', 'get_weather', { city: 'Paris' })] };
  const r1 = { role: 'tool', tool_call_id: 'call_1', content: '18C' };
  const a2 = { role: 'assistant', content: null, tool_calls: [chatCall('call_2', 'get_weather', { city: 'Rome' }), chatCall('call_3', 'get_weather', { town: 'Oslo' })] };
  const r2 = { role: 'tool', tool_call_id: 'call_2', content: '21C' };
  const r3 = { role: 'tool', tool_call_id: 'call_3', content: 'error: city is required' };
  return [
    { request: { model: 'gpt-4o', messages: [user], tools: [weatherTool] }, response: chatResponse({ tool_calls: a1.tool_calls }) },
    { request: { model: 'gpt-4o', messages: [user, a1, r1], tools: [weatherTool] }, response: chatResponse({ tool_calls: a2.tool_calls }) },
    { request: { model: 'gpt-4o', messages: [user, a1, r1, a2, r2, r3], tools: [weatherTool] }, response: chatResponse({ content: 'Paris 18C, Rome 21C.' }) },
  ];
}

function har(exchanges: { request: unknown; response: unknown; sse?: boolean }[]) {
  return J({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries: exchanges.map((x) => ({
    startedDateTime: '2026-01-01T00:00:00.000Z', time: 1,
    request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 1,
      postData: { mimeType: 'application/json', text: J(x.request) } },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], redirectURL: '', headersSize: -1, bodySize: -1,
      content: { size: 1, mimeType: x.sse ? 'text/event-stream' : 'application/json', text: typeof x.response === 'string' ? x.response : J(x.response) } },
    cache: {}, timings: { send: 0, wait: 1, receive: 0 },
  })) } }, null, 2);
}

describe('provider API captures as real recorders write them', () => {
  it('HAR: a browser capture of three chat round trips reads each call once, paired with its result', () => {
    const { r, sessions, codes } = read(har(chatRoundTrips()), 'chat.har');
    assert.equal(r.format, 'http-cassette');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => c.id), ['call_1', 'call_2', 'call_3'], 'calls echoed by later requests are read once');
    assert.deepEqual(s.calls.map((c) => c.turn), [1, 2, 2]);
    assert.deepEqual(s.results.map((x) => x.callId), ['call_1', 'call_2', 'call_3']);
    assert.equal(s.tools.length, 1, 'the tool list every request repeats is one definition');
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result') && !codes.includes('duplicate-call-id'), codes.join());
    // the call that broke the request's own schema is found, and points into the request body of the HAR
    const bad = r.findings.filter((f) => f.callId === 'call_3' && f.code !== 'no-contract');
    assert.ok(bad.length > 0, codes.join());
    const text = har(chatRoundTrips());
    assert.ok(bad.every((f) => text.slice(f.span.start, f.span.end).length > 0));
  });

  it('HAR: a streamed answer (text/event-stream content) is assembled into its call', () => {
    const ev = (e: string, d: object) => `event: ${e}\ndata: ${J(d)}\n\n`;
    const sse = ev('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude' } })
      + ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } })
      + ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } })
      + ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'ris"}' } })
      + ev('content_block_stop', { type: 'content_block_stop', index: 0 })
      + ev('message_stop', { type: 'message_stop' });
    const request = { model: 'claude', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Weather?' }], tools: [{ name: 'get_weather', input_schema: { type: 'object' } }] };
    const { r, sessions } = read(har([{ request, response: sse, sse: true }]), 'stream.har');
    assert.equal(r.format, 'http-cassette');
    assert.deepEqual(sessions[0].calls.map((c) => [c.id, c.args]), [['toolu_1', { city: 'Paris' }]]);
    assert.equal(sessions[0].tools.length, 1);
  });

  it('HAR: an entry whose content is base64 is decoded and read like the others', () => {
    const trips = chatRoundTrips();
    const doc = JSON.parse(har(trips.slice(0, 2))) as { log: { entries: { response: { content: { encoding?: string; text: string } } }[] } };
    doc.log.entries[1].response.content = { encoding: 'base64', text: Buffer.from(J(trips[1].response)).toString('base64') };
    const { sessions } = read(J(doc), 'x.har');
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['call_1', 'call_2', 'call_3']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_1']);
  });

  it('VCR cassettes saved as JSON (Ruby VCR / rVCR, VCR.py, camelCased JS recorders) read like the HAR', () => {
    const trips = chatRoundTrips();
    const ruby = J({ http_interactions: trips.map((x) => ({
      request: { method: 'post', uri: 'https://api.openai.com/v1/chat/completions', body: { encoding: 'UTF-8', string: J(x.request) }, headers: {} },
      response: { status: { code: 200, message: 'OK' }, headers: {}, body: { encoding: 'UTF-8', string: J(x.response) } },
      recorded_at: 'Thu, 11 Jan 2024 16:28:49 GMT',
    })), recorded_with: 'VCR 6.0.0' });
    const python = J({ interactions: trips.map((x) => ({
      request: { body: J(x.request), headers: {}, method: 'POST', uri: 'https://api.openai.com/v1/chat/completions' },
      response: { body: { string: J(x.response) }, headers: {}, status: { code: 200, message: 'OK' } },
    })), version: 1 });
    const camel = J({ name: 'chat', recordedAt: '2026-05-30T12:00:00.000Z', httpInteractions: trips.map((x) => ({
      request: { method: 'POST', uri: 'https://api.openai.com/v1/chat/completions', headers: {}, body: J(x.request) },
      response: { status: 200, headers: {}, body: J(x.response), bodyEncoding: 'utf8' },
    })) });
    for (const [text, name] of [[ruby, 'ruby.json'], [python, 'vcrpy.json'], [camel, 'camel.json']] as const) {
      const { r, sessions, codes } = read(text, name);
      assert.equal(r.format, 'http-cassette', name);
      assert.deepEqual(sessions[0].calls.map((c) => c.id), ['call_1', 'call_2', 'call_3'], name);
      assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_1', 'call_2', 'call_3'], name);
      assert.ok(!codes.includes('orphan-result') && !codes.includes('duplicate-call-id'), `${name}: ${codes.join()}`);
    }
  });

  it('a recording of an id-less format (Gemini) keeps a call the model really repeated, and reads echoes once', () => {
    const fc = (city: string) => ({ functionCall: { name: 'get_weather', args: { city } } });
    const fr = (city: string) => ({ functionResponse: { name: 'get_weather', response: { output: city } } });
    const user = { role: 'user', parts: [{ text: 'Paris twice' }] };
    const resp = (parts: unknown[]) => ({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] });
    const trips = [
      { request: { contents: [user] }, response: resp([fc('Paris')]) },
      { request: { contents: [user, { role: 'model', parts: [fc('Paris')] }, { role: 'user', parts: [fr('18C')] }] }, response: resp([fc('Paris')]) },
    ];
    const { sessions } = read(har(trips), 'gemini.har');
    assert.equal(sessions[0].calls.length, 2, 'the second identical call is a call of its own, not an echo');
    assert.equal(sessions[0].results.length, 1);
  });

  it('Bedrock batch inference output: the tools of modelInput apply to the calls of modelOutput (one record, one session)', () => {
    const tools = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } }] };
    const converse = (id: string, input: object) => ({
      recordId: id,
      modelInput: { messages: [{ role: 'user', content: [{ text: 'Weather?' }] }], toolConfig: tools },
      modelOutput: { output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: `tu_${id}`, name: 'get_weather', input } }] } }, stopReason: 'tool_use' },
    });
    const invoke = {
      recordId: 'R3',
      modelInput: { anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: [{ role: 'user', content: 'Weather?' }], tools: [{ name: 'get_weather', input_schema: { type: 'object', required: ['city'] } }] },
      modelOutput: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'get_weather', input: {} }], stop_reason: 'tool_use' },
    };
    const { r, sessions, codes } = read([converse('R1', { city: 'Oslo' }), converse('R2', { town: 'Bern' }), invoke].map((x) => J(x)).join('\n'), 'batch.jsonl.out');
    assert.equal(r.format, 'bedrock-converse');
    assert.deepEqual(sessions.map((s) => [s.calls.length, s.tools.length]), [[1, 1], [1, 1], [1, 1]]);
    assert.deepEqual(r.findings.filter((f) => f.code === 'missing-key').map((f) => f.callId), ['tu_R2', 'toolu_3']);
    assert.ok(!codes.includes('no-contract'), codes.join());
  });

  it('Cohere v1: a request with chat_history and tool_results pairs each result with its call and reads parameter_definitions', () => {
    const request = {
      model: 'command-r-plus', message: '',
      chat_history: [{ role: 'USER', message: 'Weather in Paris and Rome?' }, { role: 'CHATBOT', message: 'I will look both up.', tool_calls: [{ name: 'get_weather', parameters: { city: 'Paris' } }, { name: 'get_weather', parameters: { city: 7 } }] }],
      tools: [{ name: 'get_weather', description: 'Weather', parameter_definitions: { city: { type: 'str', description: 'City', required: true } } }],
      tool_results: [{ call: { name: 'get_weather', parameters: { city: 'Paris' } }, outputs: [{ temp: 18 }] }, { call: { name: 'get_weather', parameters: { city: 7 } }, outputs: [{ error: 'bad city' }] }],
    };
    const { r, sessions, codes } = read(J(request), 'cohere-request.json');
    assert.equal(r.format, 'cohere');
    const s = sessions[0];
    assert.equal(s.calls.length, 2);
    assert.deepEqual(s.results.map((x) => x.callIndex), [0, 1]);
    assert.equal(s.tools.length, 1);
    // `str` became `type: string`: the call that sent a number breaks the definition the request carried
    assert.deepEqual(r.findings.filter((f) => f.code === 'type-drift').map((f) => f.message), ['city wanted string, got number 7']);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
  });

  it('Cohere v1: a response whose chat_history ends with the calls reads each call once; results sent without that turn bring their call', () => {
    const calls = [{ name: 'get_weather', parameters: { city: 'Paris' } }];
    const response = { response_id: 'r1', generation_id: 'g1', text: '', finish_reason: 'COMPLETE', tool_calls: calls,
      chat_history: [{ role: 'USER', message: 'Weather?' }, { role: 'CHATBOT', message: '', tool_calls: calls }] };
    assert.equal(read(J(response)).sessions[0].calls.length, 1);
    const bare = read(J({ message: '', tool_results: [{ call: calls[0], outputs: [{ temp: 18 }] }] }));
    assert.equal(bare.r.format, 'cohere');
    assert.deepEqual([bare.sessions[0].calls.length, bare.sessions[0].results[0].callIndex], [1, 0]);
  });

  it('MCP: a JSON-RPC batch (an array on one line of the log) is part of the conversation, not a session of its own', () => {
    const rpc = (o: object) => ({ jsonrpc: '2.0', ...o });
    const text = [
      J(rpc({ id: 1, method: 'tools/list' })),
      J(rpc({ id: 1, result: { tools: [{ name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }] } })),
      J([rpc({ id: 2, method: 'tools/call', params: { name: 'read_file', arguments: { path: 'a' } } }), rpc({ id: 3, method: 'tools/call', params: { name: 'read_file', arguments: {} } })]),
      J([rpc({ id: 3, result: { content: [{ type: 'text', text: 'missing path' }], isError: true } }), rpc({ id: 2, result: { content: [{ type: 'text', text: 'A' }] } })]),
    ].join('\n');
    const { r, sessions, codes } = read(text, 'mcp.jsonl');
    assert.equal(r.format, 'mcp');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError]), [['3', true], ['2', undefined]]);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('orphan-call'), codes.join());
    assert.deepEqual(r.findings.filter((f) => f.code === 'missing-key').map((f) => f.callId), ['3']);
  });

  it('HAR: Gemini Code Assist traffic (chunks wrapped as {response, traceId}) is read, and entries without a body are skipped', () => {
    const request = { model: 'gemini-3-flash', project: 'p', request: { contents: [{ role: 'user', parts: [{ text: 'Read a' }] }],
      tools: [{ functionDeclarations: [{ name: 'read_file', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }] }] } };
    const event = (chunk: object) => `data: ${J({ response: chunk, traceId: 't1' })}\r\n\r\n`;
    const sse = event({ candidates: [{ content: { role: 'model', parts: [{ text: 'Reading.' }] } }] })
      + event({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file: 'a' } } }] } }] })
      + event({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }] });
    const doc = JSON.parse(har([{ request, response: sse, sse: true }])) as { log: { entries: unknown[] } };
    doc.log.entries.push({ request: { method: 'GET', url: 'https://example.com/', headers: [] }, response: { status: 200, headers: [], content: { text: '' } } });
    const { r, sessions } = read(J(doc), 'code-assist.har');
    assert.equal(r.format, 'http-cassette');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['read_file', { file: 'a' }]]);
    assert.deepEqual(r.findings.filter((f) => f.code === 'missing-key').map((f) => f.tool), ['read_file']);
  });

  it('OpenAI Realtime: an event log reads the call once, its tools from the session, its result from the item the client sent', () => {
    let n = 0;
    const server = (type: string, rest: object) => J({ type, event_id: `event_${++n}`, ...rest });
    const call = (status: string, args: string) => ({ id: 'item_1', object: 'realtime.item', type: 'function_call', status, name: 'get_weather', call_id: 'call_1', arguments: args });
    const output = { type: 'function_call_output', call_id: 'call_1', output: '{"temp": 3}' };
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
    const text = [
      J({ type: 'session.update', session: { type: 'realtime', tools } }),
      server('session.updated', { session: { type: 'realtime', tools } }),
      server('response.created', { response: { id: 'resp_1', object: 'realtime.response', status: 'in_progress', output: [] } }),
      server('conversation.item.added', { previous_item_id: null, item: call('in_progress', '') }),
      server('response.output_item.added', { response_id: 'resp_1', output_index: 0, item: call('in_progress', '') }),
      server('response.function_call_arguments.delta', { response_id: 'resp_1', item_id: 'item_1', output_index: 0, call_id: 'call_1', delta: '{"town":' }),
      server('response.function_call_arguments.delta', { response_id: 'resp_1', item_id: 'item_1', output_index: 0, call_id: 'call_1', delta: ' "Oslo"}' }),
      server('response.function_call_arguments.done', { response_id: 'resp_1', item_id: 'item_1', output_index: 0, call_id: 'call_1', name: 'get_weather', arguments: '{"town": "Oslo"}' }),
      server('conversation.item.done', { item: call('completed', '{"town": "Oslo"}') }),
      server('response.output_item.done', { response_id: 'resp_1', output_index: 0, item: call('completed', '{"town": "Oslo"}') }),
      server('response.done', { response: { id: 'resp_1', object: 'realtime.response', status: 'completed', output: [call('completed', '{"town": "Oslo"}')] } }),
      J({ type: 'conversation.item.create', item: output }),
      server('conversation.item.added', { item: { id: 'item_2', object: 'realtime.item', ...output } }),
      J({ type: 'response.create' }),
    ].join('\n');
    const { r, sessions, codes } = read(text, 'realtime-events.jsonl');
    assert.equal(r.format, 'stream');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.id, c.args]), [['call_1', { town: 'Oslo' }]]);
    assert.deepEqual(s.results.map((x) => x.callId), ['call_1']);
    assert.equal(s.tools.length, 1);
    assert.deepEqual(r.findings.filter((f) => f.code === 'missing-key').map((f) => f.callId), ['call_1']);
    assert.ok(!codes.includes('orphan-result') && !codes.includes('duplicate-call-id'), codes.join());
  });
});
