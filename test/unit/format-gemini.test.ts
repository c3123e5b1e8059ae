// The Gemini API adapter on small hand-made traces: requests with declarations (OpenAPI-style schemas) and
// function responses linked by id or by name, responses in either spelling, and streams whose call arguments
// arrive as `partialArgs` fragments (JSONL, SSE, a JSON array of chunks).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts, type Session } from '../../src/core';
import { spanOf } from '../../src/core/parse/doc';
import { geminiSchema, jsonPathSegments } from '../../src/core/formats/gemini';

function read(text: string, fileName: string, contracts?: string) {
  const c = contracts === undefined ? undefined : loadContracts([{ path: 'tools.json', text: contracts }]).contracts;
  const r = checkText(text, { fileName, keepModel: true, packs: false, contracts: c });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  return { r, sessions };
}

const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const codes = (r: { findings: { code: string }[] }) => r.findings.map((f) => f.code);
/** The source text a span covers. */
const at = (text: string, s: { start: number; end: number }) => text.slice(s.start, s.end);

describe('gemini: requests', () => {
  const request = {
    contents: [
      { role: 'user', parts: [{ text: 'book two rooms' }] },
      { role: 'model', parts: [
        { functionCall: { name: 'book_room', args: { room: 'A', hours: '2' } } },
        { functionCall: { name: 'book_room', args: { room: 'B', hours: 3 } } },
      ] },
      { role: 'user', parts: [
        { functionResponse: { name: 'book_room', response: { output: 'booked A' } } },
        { functionResponse: { name: 'book_room', response: { error: 'B is taken' } } },
      ] },
      { role: 'model', parts: [{ text: 'A is booked, B is taken.' }] },
    ],
    tools: [{ functionDeclarations: [{
      name: 'book_room',
      parameters: { type: 'OBJECT', properties: { room: { type: 'STRING' }, hours: { type: 'INTEGER', nullable: true } }, required: ['room'] },
    }] }],
  };

  it('reads declarations as contracts (upper-case OpenAPI types translated) and pairs id-less responses by name, in order', () => {
    const text = JSON.stringify(request, null, 2);
    const { r, sessions: [s] } = read(text, 'request.json');
    assert.equal(r.format, 'gemini');
    assert.deepEqual(s.tools.map((t) => t.name), ['book_room']);
    assert.deepEqual(s.tools[0].inputSchema, { type: 'object', properties: { room: { type: 'string' }, hours: { type: ['integer', 'null'] } }, required: ['room'] });
    assert.deepEqual(s.calls.map((c) => [c.name, c.turn]), [['book_room', 1], ['book_room', 1]]);
    // the first response answers the first call of that name, the second the second
    assert.deepEqual(s.results.map((x) => x.callIndex), [0, 1]);
    assert.equal(s.results[0].payload, 'booked A', '{output: X} is the wrapper around X');
    assert.deepEqual(s.results[1].transport, { isError: true }, 'response.error is an honest failure');
    // "2" for an integer is type drift, pointed at the string inside the call's args
    const drift = r.findings.filter((f) => f.code === 'type-drift');
    assert.equal(drift.length, 1);
    assert.equal(at(text, drift[0].span), '"2"');
    assert.deepEqual(codes(r).filter((c) => c === 'orphan-call' || c === 'orphan-result' || c === 'status-theater'), []);
  });

  it('links responses by id when the calls carry ids, whatever their order, and reads config.tools with parametersJsonSchema', () => {
    const text = JSON.stringify({
      model: 'gemini-x',
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'get', args: { k: 1 } } }, { functionCall: { id: 'c2', name: 'get', args: { k: 2 } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'c2', name: 'get', response: { output: 2 } } }, { functionResponse: { id: 'c1', name: 'get', response: { output: 1 } } }] },
      ],
      config: { tools: [{ functionDeclarations: [{ name: 'get', parametersJsonSchema: { type: 'object', properties: { k: { type: 'integer' } } } }] }] },
    });
    const { r, sessions: [s] } = read(text, 'params.json');
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['c2', 2], ['c1', 1]]);
    assert.deepEqual(s.tools[0].inputSchema, { type: 'object', properties: { k: { type: 'integer' } } }, 'a JSON Schema is kept as given');
    assert.deepEqual(r.findings, []);
  });

  it('reads a {request, response} pair as one conversation, and snake_case Python SDK dumps', () => {
    const text = JSON.stringify({
      request: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      response: {
        candidates: [{ content: { role: 'model', parts: [{ function_call: { id: 'x1', name: 'lookup', args: { q: 'a' } } }] }, finish_reason: 'STOP' }],
        automatic_function_calling_history: [
          { role: 'model', parts: [{ function_call: { id: 'x0', name: 'lookup', args: { q: 'a' } } }] },
          { role: 'user', parts: [{ function_response: { id: 'x0', name: 'lookup', response: { result: 'none' } } }] },
        ],
      },
    });
    const { r, sessions: [s] } = read(text, 'pair.json');
    assert.equal(r.format, 'gemini');
    assert.deepEqual(s.calls.map((c) => [c.id, c.turn]), [['x0', 1], ['x1', 2]]);
    assert.deepEqual(s.results.map((x) => x.callId), ['x0']);
    assert.equal(at(text, spanOf(s.calls[1].nameAt)), '"lookup"');
    // the same arguments again after an answer with nothing mutating in between; the last call awaits its result
    assert.deepEqual(codes(r).filter((c) => c !== 'no-contract').sort(), ['duplicate-fingerprint', 'orphan-call']);
  });
});

describe('gemini: streams', () => {
  const chunk = (parts: unknown[], extra: object = {}) => ({ candidates: [{ content: { role: 'model', parts }, ...extra }], responseId: 'r1' });

  it('assembles a call streamed as partialArgs: strings continued over fragments, typed values, nested paths', () => {
    const text = jsonl(
      chunk([{ functionCall: { name: 'plan', willContinue: true }, thoughtSignature: 'c2ln' }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.city', stringValue: 'San ', willContinue: true }], willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.city', stringValue: 'Jose' }], willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.stops[0].name', stringValue: 'a' }, { jsonPath: "$['stops'][1].name", stringValue: 'b' }], willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.days', numberValue: 2 }, { jsonPath: '$.pets', boolValue: false }, { jsonPath: '$.note', nullValue: 'NULL_VALUE' }], willContinue: true } }]),
      chunk([{ functionCall: {} }], { finishReason: 'STOP' }),
    );
    const { r, sessions: [s] } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'gemini');
    assert.equal(s.calls.length, 1);
    const c = s.calls[0];
    assert.equal(c.name, 'plan');
    assert.deepEqual(c.args, { city: 'San Jose', stops: [{ name: 'a' }, { name: 'b' }], days: 2, pets: false, note: null });
    assert.equal(at(text, spanOf(c.nameAt)), '"plan"');
    // findings inside assembled arguments point at the fragment that completed them
    assert.equal(at(text, spanOf(c.argsAt)), '{"jsonPath":"$.note","nullValue":"NULL_VALUE"}');
  });

  it('keeps the number as written in a fragment (2.0 is no integer) and checks assembled arguments against contracts', () => {
    const text = jsonl(
      chunk([{ functionCall: { name: 'wait', willContinue: true } }]),
      '__RAW__',
      chunk([{ functionCall: {} }], { finishReason: 'STOP' }),
    ).replace('"__RAW__"', '{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.minutes","numberValue":2.0}]}}]}}]}');
    const contract = JSON.stringify([{ name: 'wait', input_schema: { type: 'object', properties: { minutes: { type: 'integer' } }, required: ['minutes'] } }]);
    const { r, sessions: [s] } = read(text, 'stream.jsonl', contract);
    assert.equal(s.calls.length, 1, 'a fragment without willContinue closes the call; the terminal {} opens nothing');
    assert.deepEqual(s.calls[0].args, { minutes: 2 });
    assert.deepEqual(codes(r), ['type-drift']);
  });

  it('closes a call without its terminal part at the next call, at finishReason and at the end of the file', () => {
    const text = jsonl(
      chunk([{ functionCall: { name: 'a', willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.x', stringValue: '1' }], willContinue: true } }]),
      chunk([{ functionCall: { name: 'b', willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.y', stringValue: '2' }], willContinue: true } }], { finishReason: 'STOP' }),
      { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'c', willContinue: true } }] } }], responseId: 'r2' },
    );
    const { sessions: [s] } = read(text, 'stream.jsonl');
    assert.deepEqual(s.calls.map((c) => [c.name, c.args, c.turn]), [['a', { x: '1' }, 1], ['b', { y: '2' }, 1], ['c', {}, 2]]);
  });

  it('reads an SSE body (data: lines, CRLF) and a JSON array of chunks the same way', () => {
    const events = [
      chunk([{ text: 'thinking', thought: true }]),
      chunk([{ functionCall: { name: 'now', args: {} }, thoughtSignature: 'c2ln' }, { functionCall: { name: 'tz', args: { city: 'Oslo' } } }], { finishReason: 'STOP' }),
    ];
    const sse = events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('');
    const a = read(sse, 'body.sse.txt');
    const b = read(JSON.stringify(events), 'chunks.json');
    for (const { r, sessions: [s] } of [a, b]) {
      assert.equal(r.format, 'gemini');
      assert.deepEqual(s.calls.map((c) => [c.name, c.turn, c.encoding]), [['now', 1, 'object'], ['tz', 1, 'object']]);
    }
    assert.equal(at(sse, spanOf(a.sessions[0].calls[1].argsAt)), '{"city":"Oslo"}');
  });
});

describe('gemini: helpers', () => {
  it('splits simple JSON paths and refuses others', () => {
    assert.deepEqual(jsonPathSegments('$.a.b[0].c'), ['a', 'b', 0, 'c']);
    assert.deepEqual(jsonPathSegments("$['a b'][\"c\"]"), ['a b', 'c']);
    assert.equal(jsonPathSegments('a.b'), undefined);
    assert.equal(jsonPathSegments('$.a[x]'), undefined);
  });

  it('translates an OpenAPI-style Schema to JSON Schema', () => {
    assert.deepEqual(geminiSchema({ type: 'ARRAY', items: { type: 'STRING', format: 'enum', enum: ['a'] }, min_items: '1', nullable: true, propertyOrdering: ['x'] }),
      { type: ['array', 'null'], items: { type: 'string', enum: ['a'] }, minItems: 1 });
  });
});
