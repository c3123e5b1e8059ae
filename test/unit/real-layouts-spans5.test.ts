// Recordings in the layouts OpenInference's instrumentation tests commit them (round five): VCR.py YAML cassettes
// whose response is an AWS event stream kept as `!!binary` (Bedrock ConverseStream, Bedrock Agents InvokeAgent),
// Polly.js HAR entries holding the same stream as base64, and Bedrock Agents trace events however they are saved
// (the stream's events, an SDK dump as a JSON array, JSONL). Every trace here is small and written for the test,
// after the layout of a real file or of the format's documentation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';
import { eventStreamEvents } from '../../src/core/parse/event-stream';

const J = JSON.stringify;

function read(text: string, fileName: string) {
  const m = readModel(text, { fileName });
  return { ...m, codes: [...m.codes].sort() };
}

// ---- AWS event-stream frames ----------------------------------------------------------------------------------

function crc32(bytes: number[]): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return (c ^ 0xffffffff) >>> 0;
}

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/** One frame with string headers, as the service writes it (prelude and message CRCs included). */
function frame(headers: Record<string, string>, payload: unknown): number[] {
  const enc = new TextEncoder();
  const h: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const v = [...enc.encode(value)];
    h.push(name.length, ...enc.encode(name), 7, (v.length >> 8) & 255, v.length & 255, ...v);
  }
  const body = [...enc.encode(J(payload))];
  const total = 16 + h.length + body.length;
  const prelude = [...u32(total), ...u32(h.length)];
  const head = [...prelude, ...u32(crc32(prelude)), ...h, ...body];
  return [...head, ...u32(crc32(head))];
}

const event = (type: string, payload: unknown) => frame({ ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' }, payload);
const b64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

/** A VCR.py `!!binary` scalar: base64 in lines of 76, indented under `string:`. */
const yamlBinary = (bytes: number[]) => `!!binary |\n${(b64(bytes).match(/.{1,76}/g) ?? []).map((l) => `        ${l}`).join('\n')}`;

/** A VCR.py cassette of interactions: `[request body (JSON text), response body (YAML scalar text)]`. */
function vcr(interactions: [unknown, string][]): string {
  const lines = ['interactions:'];
  for (const [req, res] of interactions) {
    lines.push('- request:', `    body: '${J(req).replace(/'/g, "''")}'`, '    headers: {}', '    method: POST', '    uri: https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream');
    lines.push('  response:', '    body:', `      string: ${res}`, '    headers: {}', '    status:', '      code: 200', '      message: OK');
  }
  lines.push('version: 1', '');
  return lines.join('\n');
}

describe('real layouts (spans5): AWS event streams kept as YAML !!binary', () => {
  const tools = { tools: [{ toolSpec: { name: 'top_song', description: 'most played', inputSchema: { json: { type: 'object', properties: { sign: { type: 'string' } }, required: ['sign'] } } } }] };
  const stream = [
    event('messageStart', { p: 'abc', role: 'assistant' }),
    event('contentBlockStart', { contentBlockIndex: 0, p: 'ab', start: { toolUse: { name: 'top_song', toolUseId: 'tooluse_A1' } } }),
    event('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '' } }, p: 'a' }),
    event('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"sign": "K' } }, p: 'abcd' }),
    event('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: 'ABC"}' } }, p: 'ab' }),
    event('contentBlockStop', { contentBlockIndex: 0, p: 'abc' }),
    event('messageStop', { p: 'ab', stopReason: 'tool_use' }),
    event('metadata', { metrics: { latencyMs: 400 }, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } }),
  ];
  const ask = { messages: [{ role: 'user', content: [{ text: 'What is the top song on KABC?' }] }], toolConfig: tools };

  it('a ConverseStream answer as !!binary: the streamed toolUse is one call, its input assembled, defined by toolConfig', () => {
    const { r, sessions, codes } = read(vcr([[ask, yamlBinary(stream.flat())]]), 'TestConverseStream.test_tool.yaml');
    assert.equal(r.format, 'http-cassette');
    const [s] = sessions;
    assert.equal(s.calls.length, 1);
    assert.equal(s.calls[0].name, 'top_song');
    assert.equal(s.calls[0].id, 'tooluse_A1');
    assert.deepEqual(s.calls[0].args, { sign: 'KABC' });
    assert.deepEqual(s.tools.map((t) => t.name), ['top_song']);
    assert.ok(!codes.includes('parse-error'), codes.join(','));
  });

  it('the next interaction sends the toolResult back: the call is read once and paired', () => {
    const again = {
      messages: [...ask.messages, { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_A1', name: 'top_song', input: { sign: 'KABC' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_A1', content: [{ text: 'Hey Jude' }] } }] }],
      toolConfig: tools,
    };
    const answer = [event('messageStart', { role: 'assistant' }), event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hey Jude.' } }), event('messageStop', { stopReason: 'end_turn' })];
    const { sessions, codes } = read(vcr([[ask, yamlBinary(stream.flat())], [again, yamlBinary(answer.flat())]]), 'two.yaml');
    const [s] = sessions;
    assert.equal(s.calls.length, 1);
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].callId, 'tooluse_A1');
    assert.ok(!codes.includes('orphan-call') && !codes.includes('duplicate-call-id'), codes.join(','));
  });

  it('a stream cut short is read to its last whole frame; bytes that are neither text nor a stream are skipped', () => {
    const bytes = stream.flat();
    const cut = bytes.slice(0, bytes.length - 30);
    const events = eventStreamEvents(Uint8Array.from(cut));
    assert.ok(events && events.length === stream.length - 1, `${events?.length}`);
    assert.equal(eventStreamEvents(Uint8Array.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x81])), undefined);
    const { sessions, codes } = read(vcr([[ask, yamlBinary([0xff, 0xfe, 0x00, 0x9c, 0x80, 0x81, 0x7f, 0x00])]]), 'noise.yaml');
    assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
    assert.ok(!codes.includes('parse-error'), codes.join(','));
  });
});

// ---- Bedrock Agents traces ------------------------------------------------------------------------------------

const envelope = (trace: unknown) => ({ agentAliasId: 'TSTALIASID', agentId: 'AG1', agentVersion: 'DRAFT', callerChain: [{ agentAliasArn: 'arn:aws:bedrock:us-east-1:1:agent-alias/AG1/TSTALIASID' }],
  eventTime: '2025-03-14T18:17:17Z', sessionId: 's-1', trace });
const orch = (step: unknown) => envelope({ orchestrationTrace: step });
const actionCall = (traceId: string, fn: string, params: [string, string, string][]) => orch({ invocationInput: { actionGroupInvocationInput: {
  actionGroupName: 'math_group', executionType: 'LAMBDA', function: fn, parameters: params.map(([name, type, value]) => ({ name, type, value })) }, invocationType: 'ACTION_GROUP', traceId } });
const actionOutput = (traceId: string, text: string) => orch({ observation: { actionGroupInvocationOutput: { text }, traceId, type: 'ACTION_GROUP' } });
const finish = (traceId: string, text: string) => orch({ observation: { finalResponse: { text }, traceId, type: 'FINISH' } });
const chunk = (text: string) => ({ bytes: btoa(text) });

describe('real layouts (spans5): Bedrock Agents InvokeAgent traces', () => {
  it('a VCR cassette whose !!binary body is the agent stream: the action group function is a call, typed, paired by traceId', () => {
    const frames = [
      event('trace', orch({ modelInvocationInput: { text: '{"system":"be brief","messages":[]}', traceId: 't-0', type: 'ORCHESTRATION' } })),
      event('trace', orch({ rationale: { text: 'I will add them.', traceId: 't-0' } })),
      event('trace', actionCall('t-0', 'add_two_numbers', [['number_2', 'number', '20'], ['number_1', 'number', '10'], ['exact', 'boolean', 'true']])),
      event('trace', actionOutput('t-0', 'The result is 30')),
      event('trace', finish('t-1', 'The sum is 30.')),
      event('chunk', chunk('The sum is 30.')),
    ];
    const text = vcr([[{ inputText: 'Add 10 and 20', enableTrace: true }, yamlBinary(frames.flat())]]);
    const { r, sessions, codes } = read(text, 'test_tool_calls_with_input_params.yaml');
    assert.equal(r.format, 'http-cassette');
    const [s] = sessions;
    assert.equal(s.calls.length, 1);
    assert.equal(s.calls[0].name, 'add_two_numbers');
    assert.equal(s.calls[0].id, 't-0');
    assert.deepEqual(s.calls[0].args, { number_2: 20, number_1: 10, exact: true });
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].callId, 't-0');
    assert.equal(s.results[0].payload, 'The result is 30');
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join(','));
  });

  it('a Polly.js HAR entry holding the stream as base64: the same reading', () => {
    const frames = [event('trace', actionCall('x-0', 'get_price', [['ticker', 'string', 'MSFT']])), event('trace', actionOutput('x-0', '{"price": 332.5}')), event('chunk', chunk('332.5'))];
    const har = { log: { version: '1.2', creator: { name: 'Polly.JS', version: '6.0.6' }, entries: [{ request: { method: 'POST', url: 'https://bedrock-agent-runtime.us-east-1.amazonaws.com/agents/AG1/agentAliases/TSTALIASID/sessions/s-1/text',
      postData: { mimeType: 'application/json', text: J({ enableTrace: true, inputText: 'MSFT?' }) } },
    response: { status: 200, content: { encoding: 'base64', mimeType: 'application/vnd.amazon.eventstream', text: b64(frames.flat()) } } }] } };
    const { r, sessions } = read(J(har, null, 2), 'recording.har');
    assert.equal(r.format, 'http-cassette');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, J(c.args)]), [['get_price', 'x-0', '{"ticker":"MSFT"}']]);
    assert.equal(s.results[0].callId, 'x-0');
  });

  it('an SDK dump as a JSON array of events: knowledge base, code interpreter (failed) and an action failed by a failureTrace', () => {
    const events = [
      { trace: orch({ invocationInput: { invocationType: 'KNOWLEDGE_BASE', knowledgeBaseLookupInput: { knowledgeBaseId: 'KB1', text: 'refund policy' }, traceId: 'k-0' } }) },
      { trace: orch({ observation: { knowledgeBaseLookupOutput: { retrievedReferences: [{ content: { text: '30 days' } }] }, traceId: 'k-0', type: 'KNOWLEDGE_BASE' } }) },
      { trace: orch({ invocationInput: { codeInterpreterInvocationInput: { code: 'print(1/0)' }, invocationType: 'ACTION_GROUP_CODE_INTERPRETER', traceId: 'c-0' } }) },
      { trace: orch({ observation: { codeInterpreterInvocationOutput: { executionError: 'ZeroDivisionError' }, traceId: 'c-0', type: 'ACTION_GROUP_CODE_INTERPRETER' } }) },
      { trace: actionCall('f-0', 'refund', [['order', 'integer', '77']]) },
      { trace: envelope({ failureTrace: { failureReason: 'Lambda timed out', traceId: 'f-0' } }) },
    ];
    const { r, sessions, codes } = read(J(events, null, 2), 'agent-events.json');
    assert.equal(r.format, 'bedrock-agent');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['knowledge_base', 'code_interpreter', 'refund']);
    assert.deepEqual(s.calls[2].args, { order: 77 });
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError === true]), [['k-0', false], ['c-0', true], ['f-0', true]]);
    assert.ok(!codes.includes('orphan-call'), codes.join(','));
  });

  it('JSONL of the inner trace objects: a collaborator agent is a call named after it; two actions of one traceId pair in order', () => {
    const lines = [
      { routingClassifierTrace: { invocationInput: { agentCollaboratorInvocationInput: { agentCollaboratorName: 'billing_agent', input: { text: 'refund 77', type: 'TEXT' } }, invocationType: 'AGENT_COLLABORATOR', traceId: 'r-0' } } },
      { routingClassifierTrace: { observation: { agentCollaboratorInvocationOutput: { agentCollaboratorName: 'billing_agent', output: { text: 'done', type: 'TEXT' } }, traceId: 'r-0', type: 'AGENT_COLLABORATOR' } } },
      actionCall('p-0', 'lookup', [['q', 'string', 'a']]).trace,
      actionCall('p-0', 'lookup', [['q', 'string', 'b']]).trace,
      actionOutput('p-0', 'A').trace,
      actionOutput('p-0', 'B').trace,
    ];
    const { r, sessions, codes } = read(lines.map((l) => J(l)).join('\n'), 'traces.jsonl');
    assert.equal(r.format, 'bedrock-agent');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['billing_agent', 'r-0'], ['lookup', 'p-0'], ['lookup', 'p-0#2']]);
    assert.deepEqual(s.calls[0].args, { text: 'refund 77', type: 'TEXT' });
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['r-0', { text: 'done', type: 'TEXT' }], ['p-0', 'A'], ['p-0#2', 'B']]);
    assert.equal(s.calls[1].turn, s.calls[2].turn);
    assert.ok(!codes.includes('duplicate-call-id'), codes.join(','));
  });

  it('returnControl hands two functions to the client; the next request returns them, one FAILURE', () => {
    const rc = { returnControl: { invocationId: 'inv-9', invocationInputs: [
      { functionInvocationInput: { actionGroup: 'shop', function: 'check_stock', parameters: [{ name: 'sku', type: 'string', value: 'A1' }] } },
      { apiInvocationInput: { actionGroup: 'shop', apiPath: '/orders', httpMethod: 'POST', requestBody: { content: { 'application/json': { properties: [{ name: 'qty', type: 'integer', value: '2' }] } } } } }] } };
    const back = { inputText: '', sessionState: { invocationId: 'inv-9', returnControlInvocationResults: [
      { functionResult: { actionGroup: 'shop', function: 'check_stock', responseBody: { TEXT: { body: 'in stock' } } } },
      { apiResult: { actionGroup: 'shop', apiPath: '/orders', httpMethod: 'POST', httpStatusCode: 500, responseState: 'FAILURE', responseBody: { 'application/json': { body: 'down' } } } }] } };
    const { r, sessions } = read([rc, back].map((l) => J(l)).join('\n'), 'rc.jsonl');
    assert.equal(r.format, 'bedrock-agent');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, J(c.args)]), [['check_stock', 'inv-9/check_stock', '{"sku":"A1"}'], ['/orders', 'inv-9//orders', '{"qty":2}']]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError === true, x.transport.httpStatus]), [['inv-9/check_stock', false, undefined], ['inv-9//orders', true, 500]]);
  });

  it('a guardrail-only or text-only agent stream has no call and no finding', () => {
    const frames = [event('trace', envelope({ guardrailTrace: { action: 'INTERVENED', traceId: 'g-0' } })), event('chunk', chunk('Sorry, I cannot answer.'))];
    const { sessions, codes } = read(vcr([[{ inputText: 'x', enableTrace: true }, yamlBinary(frames.flat())]]), 'guard.yaml');
    assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
    assert.deepEqual(codes.filter((c) => c !== 'no-contract'), []);
  });
});

// ---- one cassette, one request recorded twice ------------------------------------------------------------------

describe('real layouts (spans5): a cassette that holds the same first request twice', () => {
  const chatCall = (id: string) => J({ id: `chatcmpl-${id}`, object: 'chat.completion', choices: [{ index: 0, finish_reason: 'tool_calls',
    message: { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: '{"city": "London"}' } }] } }] });
  const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in London?' }],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }] };
  const yamlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const cassette = (bodies: [string, string][]) => ['interactions:', ...bodies.flatMap(([req, res]) => ['- request:', `    body: ${yamlString(req)}`, '    method: POST',
    '    uri: https://api.openai.com/v1/chat/completions', '  response:', '    body:', `      string: ${yamlString(res)}`, '    status:', '      code: 200']), 'version: 1', ''].join('\n');

  it('recorded again (other spacing, other SDK version): two conversations, no duplicate across them', () => {
    const spaced = JSON.stringify(ask, null, 1).replace(/\n/g, ' ');
    const { sessions, codes } = read(cassette([[J(ask), chatCall('call_A')], [spaced, chatCall('call_B')]]), 'test_tool_calls.yaml');
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => c.id)), [['call_A'], ['call_B']]);
    assert.ok(!codes.includes('duplicate-fingerprint'), codes.join(','));
  });

  it('a continuation (the history grows) stays one conversation', () => {
    const next = { ...ask, messages: [...ask.messages, { role: 'assistant', content: null, tool_calls: [{ id: 'call_A', type: 'function', function: { name: 'get_weather', arguments: '{"city": "London"}' } }] },
      { role: 'tool', tool_call_id: 'call_A', content: 'rain' }] };
    const done = J({ id: 'chatcmpl-2', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Rain.' } }] });
    const { sessions } = read(cassette([[J(ask), chatCall('call_A')], [J(next), done]]), 'two.yaml');
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results[0].callId, 'call_A');
  });
});
