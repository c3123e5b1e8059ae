// Logic that had two or more homes and now has one: recorded echoes merged by one function (HAR and Bedrock nock
// recordings answer alike), the copies of an item (first is the call, the completed one the outcome), Python type
// names read by one table (BFCL, Cohere v1), and the built-in packs of a format kept by one cache.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ItemLifecycle } from '../../src/core/formats/item-lifecycle';
import { PYTHON_TYPES, schemaType } from '../../src/core/formats/python-types';
import { bfclSchema } from '../../src/core/formats/bfcl';
import { lonePayload } from '../../src/core/formats/lone-block';
import { sessionContext } from '../../src/core/context';
import type { Session } from '../../src/core';
import { readTrace } from './helpers';

const J = (v: unknown) => JSON.stringify(v);
const scope = 'https://bedrock-runtime.us-east-1.amazonaws.com:443';
const converse = '/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse';
const bookSpec = { toolSpec: { name: 'book_room', inputSchema: { json: { type: 'object', properties: { room: { type: 'string' } }, required: ['room'] } } } };
const nock = (body: unknown, response: unknown) => ({ scope, method: 'POST', path: converse, status: 200, body, response });
const user = (text: string) => ({ role: 'user', content: [{ text }] });
const converseReply = (content: unknown[]) => ({ output: { message: { role: 'assistant', content } }, stopReason: 'end_turn' });

function har(exchanges: { request: unknown; response: unknown }[]): string {
  return J({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: exchanges.map((x) => ({
    request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', postData: { mimeType: 'application/json', text: J(x.request) } },
    response: { status: 200, content: { mimeType: 'application/json', text: J(x.response) } },
  })) } });
}
const chatReply = (message: object) => ({ id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }] });
const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

const orphans = (codes: { code: string; severity: string }[]) => codes.filter((f) => f.code === 'orphan-call').map((f) => f.severity);

describe('recorded echoes: one merge for HTTP recordings and Bedrock nock recordings', () => {
  // two calls, one answered: the session records results, so the other is an orphan; what follows decides how bad
  const uses = [{ toolUse: { toolUseId: 'tu0', name: 'book_room', input: { room: 'A' } } }, { toolUse: { toolUseId: 'tu1', name: 'book_room', input: { room: 'B' } } }];
  const answerTu0 = { role: 'user', content: [{ toolResult: { toolUseId: 'tu0', content: [{ text: 'booked A' }] } }] };
  const bedrockRecording = (last: unknown) => J([
    nock({ toolConfig: { tools: [bookSpec] }, messages: [user('book A and B')] }, converseReply(uses)),
    nock({ toolConfig: { tools: [bookSpec] }, messages: [user('book A and B'), { role: 'assistant', content: uses }, answerTu0] }, last),
  ]);
  const chatCalls = [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }, { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }];
  const chatRecording = (last: unknown) => har([
    { request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'weather?' }], tools: [weatherTool] }, response: chatReply({ tool_calls: chatCalls }) },
    { request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'weather?' }, { role: 'assistant', content: null, tool_calls: chatCalls }, { role: 'tool', tool_call_id: 'call_0', content: '3C' }], tools: [weatherTool] },
      response: last },
  ]);

  it('a call left without a result, then an answer in words: the session went on without it (a warning), in both readers', () => {
    const bedrock = readTrace(bedrockRecording(converseReply([{ text: 'Booked A.' }])), { fileName: 'recording.json' });
    assert.equal(bedrock.r.format, 'bedrock-converse');
    assert.deepEqual(orphans(bedrock.r.findings), ['warning'], bedrock.codes.join());
    const chat = readTrace(chatRecording(chatReply({ content: 'Oslo 3C.' })), { fileName: 'chat.har' });
    assert.equal(chat.r.format, 'http-cassette');
    assert.deepEqual(orphans(chat.r.findings), ['warning'], chat.codes.join());
  });

  it('a call left without a result when the recording ends (the last answer unreadable) is only awaiting it (info), in both readers', () => {
    const bedrock = readTrace(bedrockRecording({ message: 'ThrottlingException' }), { fileName: 'recording.json' });
    assert.deepEqual(orphans(bedrock.r.findings), ['info'], bedrock.codes.join());
    const chat = readTrace(chatRecording({ error: { message: 'rate limited', type: 'requests' } }), { fileName: 'chat.har' });
    assert.deepEqual(orphans(chat.r.findings), ['info'], chat.codes.join());
  });

  it('a Bedrock recording reads an echoed assistant text once, and each call and result once', () => {
    const said = { role: 'assistant', content: [{ text: 'I would call {"room": "B"} next' }] };
    const call = { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu1', name: 'book_room', input: { room: 'B' } } }] };
    const answer = { role: 'user', content: [{ toolResult: { toolUseId: 'tu1', content: [{ json: { ok: true } }] } }] };
    const { r, sessions } = readTrace(J([
      nock({ toolConfig: { tools: [bookSpec] }, messages: [user('book B')] }, converseReply(said.content)),
      nock({ toolConfig: { tools: [bookSpec] }, messages: [user('book B'), said, user('go on')] }, converseReply(call.content)),
      nock({ toolConfig: { tools: [bookSpec] }, messages: [user('book B'), said, user('go on'), call, answer] }, converseReply([{ text: 'Booked.' }])),
    ]), { fileName: 'recording.json' });
    assert.equal(r.format, 'bedrock-converse');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.deepEqual(s.texts?.map((t) => t.text), ['I would call {"room": "B"} next'], 'the text every later request repeats is one text');
    assert.deepEqual(s.calls.map((c) => [c.id, c.turn]), [['tu1', 1]]);
    assert.deepEqual(s.calls[0].at.path.slice(0, 2), [1, 'response'], 'the call where the model made it');
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['tu1', { ok: true }]]);
    assert.equal(s.tools.length, 1, 'the tool list every request repeats is one definition');
    assert.equal(orphans(r.findings).length, 0);
  });

  it('a Bedrock batch record is one conversation: the tools of its input check the call of its output', () => {
    const record = { recordId: 'r1', modelInput: { toolConfig: { tools: [bookSpec] }, messages: [user('book B')] },
      modelOutput: { output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu1', name: 'book_room', input: { room: 7 } } }] } }, stopReason: 'tool_use' } };
    const { r, sessions } = readTrace(J(record) + '\n', { fileName: 'batch.jsonl.out' });
    assert.equal(r.format, 'bedrock-converse');
    assert.deepEqual(sessions.map((s) => s.calls.length), [1]);
    assert.deepEqual(r.findings.filter((f) => f.code === 'type-drift').map((f) => f.tool), ['book_room']);
  });
});

describe('the copies of an item: the first is the call, the first completed one the outcome', () => {
  it('tells each copy apart, per id; an item without an id is never a copy', () => {
    const items = new ItemLifecycle();
    assert.deepEqual([items.isCall('a'), items.isCall('a'), items.isCall('b')], [true, false, true]);
    assert.deepEqual([items.isOutcome('a'), items.isOutcome('a')], [true, false]);
    assert.equal(items.isOutcome('b'), true, 'outcomes are counted apart from calls');
    assert.deepEqual([items.isCall(undefined), items.isCall(undefined), items.isOutcome(undefined)], [true, true, true]);
  });

  it('an Assistants step streamed as created, then completed with its output twice, is one call and one result', () => {
    const step = (status: string, output: string | null) => ({ event: `thread.run.step.${status === 'completed' ? 'completed' : 'created'}`, data: { id: 'step_1', object: 'thread.run.step', status,
      step_details: { type: 'tool_calls', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}', output } }] } } });
    const text = [step('in_progress', null), step('completed', 'found'), step('completed', 'found again')].map(J).join('\n') + '\n';
    const { r, sessions } = readTrace(text, { fileName: 'steps.jsonl' });
    assert.equal(r.format, 'openai-assistants');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.id), ['call_1']);
    assert.deepEqual(s.results.map((x) => x.payload), ['found'], 'the first output is the outcome');
  });
});

describe('Python type names: one table for BFCL and Cohere v1', () => {
  it('translates Python names, keeps JSON Schema names, and knows no other (nor Object.prototype keys)', () => {
    assert.deepEqual(['str', 'int', 'float', 'bool', 'list', 'tuple', 'dict', 'any'].map(schemaType), ['string', 'integer', 'number', 'boolean', 'array', 'array', 'object', undefined]);
    assert.deepEqual(['string', 'array', 'object'].map(schemaType), ['string', 'array', 'object']);
    assert.deepEqual(['constructor', 'toString', 'String'].map(schemaType), [undefined, undefined, undefined]);
    assert.equal(PYTHON_TYPES.has('constructor'), false);
  });

  it('BFCL translates its Python names and leaves any other type as written', () => {
    const schema = bfclSchema({ type: 'dict', properties: { xs: { type: 'tuple', items: { type: 'float' } }, any: { type: 'any' }, odd: { type: 'constructor' } }, required: ['xs'] });
    assert.deepEqual(schema, { type: 'object', properties: { xs: { type: 'array', items: { type: 'number' } }, any: {}, odd: { type: 'constructor' } }, required: ['xs'] });
  });

  it('Cohere v1 reads parameter_definitions through the same table (List[...] and Tuple[...] are arrays)', () => {
    const request = { message: 'go', tools: [{ name: 'plot', parameter_definitions: {
      xs: { type: 'List[float]', required: true }, pair: { type: 'Tuple[int, int]' }, n: { type: 'int' }, other: { type: 'constructor' } } }],
      chat_history: [{ role: 'USER', message: 'go' }, { role: 'CHATBOT', message: '', tool_calls: [{ name: 'plot', parameters: { xs: [1.5], pair: 'a', n: 2 } }] }] };
    const { r, sessions } = readTrace(J(request), { fileName: 'cohere.json' });
    assert.equal(r.format, 'cohere');
    const schema = sessions[0].tools[0].inputSchema as { properties: Record<string, { type?: string }> };
    assert.deepEqual(Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, v.type])), { xs: 'array', pair: 'array', n: 'integer', other: undefined });
    assert.deepEqual(r.findings.filter((f) => f.code === 'type-drift').map((f) => f.tool), ['plot'], 'the pair that is a string drifts');
  });
});

describe('a lone content block is what the tool returned', () => {
  it('takes the value under the first kind it has, and leaves several blocks, or another kind, as the list', () => {
    assert.deepEqual(lonePayload([{ json: { ok: true } }], ['json', 'text']), { value: { ok: true }, path: [0, 'json'] });
    assert.deepEqual(lonePayload([{ text: 'done' }], ['json', 'text']), { value: 'done', path: [0, 'text'] });
    assert.deepEqual(lonePayload([{ Text: 'done' }], ['Text', 'Json']), { value: 'done', path: [0, 'Text'] });
    const two = [{ text: 'a' }, { text: 'b' }];
    assert.deepEqual(lonePayload(two, ['text']), { value: two, path: [] });
    assert.deepEqual(lonePayload([{ image: {} }], ['json', 'text']), { value: [{ image: {} }], path: [] });
    assert.deepEqual(lonePayload('plain', ['text']), { value: 'plain', path: [] });
  });
});

describe('the built-in packs of a format: one cache', () => {
  const session: Session = { calls: [], results: [], tools: [], turns: 0 };
  it('gives every session of a format the same packs, and a session of another selection its own', () => {
    const a = sessionContext(session, 'claude-code');
    const b = sessionContext(session, 'claude-code');
    assert.ok(a.packs && a.packs === b.packs, 'built once, shared');
    assert.equal(sessionContext(session, 'claude-code', { packs: false }).packs, undefined);
    assert.deepEqual(sessionContext(session, 'claude-code', {}, undefined, ['codex']).packs?.ids, ['codex'], 'the packs a frozen fixture names');
    assert.equal(sessionContext(session, 'no-such-format').packs, undefined);
  });
});
