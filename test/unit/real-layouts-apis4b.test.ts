// Model API payloads in the layouts real recordings keep them (round four): Gemini code execution parts (a server
// tool's call and result, as the other providers' code tools are read), and the AWS event streams nock records as
// hex (`responseIsBinary`) for Bedrock's streaming answers. Every trace here is small and written for the test, after
// the layout of a real file or of the format's documentation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';
import { eventStreamEvents, hexBytes } from '../../src/core/formats/event-stream';

const J = JSON.stringify;
const sse = (...events: unknown[]) => events.map((e) => `data: ${J(e)}\r\n\r\n`).join('');

function read(text: string, fileName = 'trace.json') {
  const m = readModel(text, { fileName });
  return { ...m, codes: [...m.codes].sort() };
}

// ---- Gemini code execution ----------------------------------------------------------------------------------

const code = (source: string, id?: string) => ({ executableCode: { language: 'PYTHON', code: source, ...(id ? { id } : {}) } });
const outcome = (o: string, output: string, id?: string) => ({ codeExecutionResult: { outcome: o, output, ...(id ? { id } : {}) } });
const answer = (parts: unknown[], finish = true) => ({ candidates: [{ content: { role: 'model', parts }, ...(finish ? { finishReason: 'STOP' } : {}), index: 0 }],
  modelVersion: 'gemini-2.5-flash', responseId: 'r-1' });

describe('real layouts (apis4b): Gemini code execution parts', () => {
  it('a response with executableCode + codeExecutionResult + text: one call, paired, not a failure', () => {
    const { r, sessions } = read(J(answer([code('print(1 + 1)'), outcome('OUTCOME_OK', '2\n'), { text: 'It is 2.' }])), 'resp.json');
    assert.equal(r.format, 'gemini');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.equal(s.calls.length, 1);
    assert.equal(s.calls[0].name, 'code_execution');
    assert.deepEqual(s.calls[0].args, { language: 'PYTHON', code: 'print(1 + 1)' });
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].callIndex, s.calls[0].index);
    assert.equal(s.results[0].payload, '2\n');
    assert.notEqual(s.results[0].transport.isError, true);
  });

  it('an SSE stream with the code in one chunk and its result in the next (CRLF events): paired; a failed outcome is an error', () => {
    const text = sse(answer([{ text: 'Let me compute.' }], false), answer([code('1/0')], false), answer([outcome('OUTCOME_FAILED', 'ZeroDivisionError')], false),
      answer([{ text: 'It failed.' }]));
    const { r, sessions, codes } = read(text, 'stream.txt');
    assert.equal(r.format, 'gemini');
    const [s] = sessions;
    assert.equal(s.calls.length, 1);
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].callIndex, s.calls[0].index);
    assert.equal(s.results[0].transport.isError, true);
    assert.ok(!codes.includes('orphan-result'), codes.join(','));
  });

  it('a request replaying two code executions by id, declared by the codeExecution tool, beside a function call', () => {
    const request = {
      tools: [{ codeExecution: {} }, { functionDeclarations: [{ name: 'lookup', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } }, required: ['q'] } }] }],
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [code('a()', 'c1'), code('b()', 'c2'), outcome('OUTCOME_OK', 'B', 'c2'), outcome('OUTCOME_DEADLINE_EXCEEDED', '', 'c1'), { functionCall: { name: 'lookup', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'x' } } }] },
      ],
    };
    const { r, sessions, codes } = read(J(request), 'req.json');
    assert.equal(r.format, 'gemini');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['code_execution', 'code_execution', 'lookup']);
    assert.ok(s.tools.some((t) => t.name === 'code_execution' && t.inputSchema === undefined), 'the codeExecution tool declares the call');
    const byId = new Map(s.results.map((x) => [x.callId, x]));
    assert.equal(byId.get('c2')?.payload, 'B');
    assert.equal(byId.get('c1')?.transport.isError, true, 'a deadline is a failure');
    assert.ok(codes.includes('missing-key'), 'the function call is still checked');
    assert.ok(!codes.includes('no-contract'), `declared code execution has its (open) contract: ${codes.join(',')}`);
    assert.ok(!codes.includes('orphan-result'));
  });

  it('snake_case (Python SDK dump): executable_code / code_execution_result', () => {
    const dump = { candidates: [{ content: { role: 'model', parts: [{ executable_code: { language: 'PYTHON', code: 'x' } }, { code_execution_result: { outcome: 'OUTCOME_OK', output: 'y' } }] }, finish_reason: 'STOP' }] };
    const { sessions } = read(J(dump), 'dump.json');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results[0].payload, 'y');
  });
});

// ---- AWS event streams in nock recordings -------------------------------------------------------------------

/** One event-stream frame (CRCs left zero: the reader does not need them). */
function frame(eventType: string, payload: unknown): number[] {
  const enc = new TextEncoder();
  const header = (name: string, value: string) => {
    const n = enc.encode(name);
    const v = enc.encode(value);
    return [n.length, ...n, 7, v.length >> 8, v.length & 255, ...v];
  };
  const h = [...header(':event-type', eventType), ...header(':content-type', 'application/json'), ...header(':message-type', 'event')];
  const p = [...enc.encode(J(payload))];
  const total = 16 + h.length + p.length;
  const u32 = (x: number) => [(x >>> 24) & 255, (x >>> 16) & 255, (x >>> 8) & 255, x & 255];
  return [...u32(total), ...u32(h.length), 0, 0, 0, 0, ...h, ...p, 0, 0, 0, 0];
}
const hex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
const b64 = (v: unknown) => btoa(J(v));

const toolConfig = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false } } } }] };
const record = (path: string, body: unknown, frames: number[][]) => [{
  scope: 'https://bedrock-runtime.us-east-1.amazonaws.com:443', method: 'POST', path, body, status: 200,
  response: hex(frames.flat()), rawHeaders: ['Content-Type', 'application/vnd.amazon.eventstream'], responseIsBinary: true,
}];

describe('real layouts (apis4b): Bedrock streaming answers nock kept as hex', () => {
  it('ConverseStream: the call streamed in the binary body is read and checked against the request tools', () => {
    const frames = [
      frame('messageStart', { role: 'assistant', p: 'ab' }),
      frame('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { name: 'get_weather', toolUseId: 'tooluse_1' } }, p: 'a' }),
      frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"town": ' } } }),
      frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '"Oslo"}' } } }),
      frame('contentBlockStop', { contentBlockIndex: 0 }),
      frame('messageStop', { stopReason: 'tool_use' }),
    ];
    const body = { messages: [{ role: 'user', content: [{ text: 'weather?' }] }], toolConfig };
    const text = J(record('/model/m/converse-stream', body, frames), null, 2);
    const { r, sessions, codes } = read(text, 'should-handle-streaming.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].calls[0].id, 'tooluse_1');
    assert.deepEqual(sessions[0].calls[0].args, { town: 'Oslo' });
    assert.ok(codes.includes('missing-key') && codes.includes('extra-key'), codes.join(','));
    const hexAt = text.indexOf('"response": "');
    for (const f of r.findings.filter((x) => x.code === 'extra-key')) {
      assert.ok(f.span.start > hexAt && f.span.end <= text.length, 'a finding in the decoded stream falls on the hex body');
    }
  });

  it('InvokeModelWithResponseStream of an Anthropic model: chunk bytes are Messages stream events', () => {
    const events = [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"location": "Oslo"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ];
    const body = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { location: { type: 'integer' } } } }] };
    const { r, sessions, codes } = read(J(record('/model/m/invoke-with-response-stream', body, events.map((e) => frame('chunk', { bytes: b64(e), p: 'abc' })))), 'rec.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { location: 'Oslo' });
    assert.ok(codes.includes('type-drift'), `the request's schema applies to the streamed call: ${codes.join(',')}`);
  });

  it('a binary body that is not an event stream is left unread, without an error', () => {
    assert.equal(hexBytes('zz'), undefined);
    assert.equal(eventStreamEvents(new Uint8Array([0, 0, 0, 5, 1, 2])), undefined);
    const body = { messages: [{ role: 'user', content: [{ text: 'hi' }] }], toolConfig };
    const rec = [{ scope: 'https://bedrock-runtime.us-east-1.amazonaws.com:443', method: 'POST', path: '/model/m/converse-stream', body, status: 200, response: 'deadbeef', responseIsBinary: true }];
    const { r, sessions } = read(J(rec), 'rec.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.equal(sessions[0].calls.length, 0);
  });
});
