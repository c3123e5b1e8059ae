// The standard protocols as they stand: MCP (2026-07-28 schema) tool annotations deciding what mutates,
// `resultType: "input_required"` results (multi round-trip requests), structuredContent of any JSON type against
// the outputSchema; OTel GenAI execute_tool spans (`error.type`, status UNSET/OK, gen_ai.tool.call.arguments
// encodings); and tool names that carry model control tokens.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts, type Session } from '../../src/core';
import { checkAndLocate } from './helpers';

const jsonl = (...lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const codes = (text: string, fileName: string, code: string) =>
  checkAndLocate(text, { fileName }).findings.filter((f) => f.code === code);

// ---- MCP --------------------------------------------------------------------------------------------------

const obj = { type: 'object', properties: { q: { type: 'string' } } };
let rpcId = 0;
/** A tools/list answer, then each [name, args, result] as a tools/call request and its response. */
function mcp(tools: object[], calls: [string, object, object][]): string {
  rpcId = 10;
  const lines: object[] = [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, result: { tools } }];
  for (const [name, args, result] of calls) {
    const id = ++rpcId;
    lines.push({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, { jsonrpc: '2.0', id, result });
  }
  return jsonl(...lines);
}
const text = (t: string) => ({ content: [{ type: 'text', text: t }], isError: false });

describe('MCP tool annotations decide what mutates', () => {
  const search: [string, object, object] = ['search', { q: 'x' }, text('hit')];
  const tool = (name: string, annotations?: object) => ({ name, inputSchema: obj, ...(annotations ? { annotations } : {}) });

  it('readOnlyHint: true makes a writer-named tool a read: the repeat around it is a duplicate', () => {
    const calls: [string, object, object][] = [search, ['write_note', { q: 'n' }, text('saved')], search];
    assert.equal(codes(mcp([tool('search'), tool('write_note')], calls), 'a.jsonl', 'duplicate-fingerprint').length, 0, 'by name it writes');
    const dup = codes(mcp([tool('search'), tool('write_note', { readOnlyHint: true })], calls), 'b.jsonl', 'duplicate-fingerprint');
    assert.deepEqual(dup.map((f) => [f.line, f.token]), [[7, '"search"']]);
  });

  it('readOnlyHint: false, or a destructiveHint / idempotentHint alone, makes a reader-named tool a write', () => {
    for (const annotations of [undefined, { readOnlyHint: false }, { destructiveHint: false }, { idempotentHint: false }, { title: 'Lookup', openWorldHint: true }]) {
      const calls: [string, object, object][] = [search, ['lookup', { q: 'n' }, text('ok')], search];
      const dup = codes(mcp([tool('search'), tool('lookup', annotations)], calls), 'c.jsonl', 'duplicate-fingerprint');
      const writes = annotations !== undefined && !('title' in annotations);
      assert.equal(dup.length, writes ? 0 : 1, JSON.stringify(annotations));
    }
  });

  it('idempotentHint: true — the same write again changes nothing more, so the read after it repeats', () => {
    const set: [string, object, object] = ['set_flag', { q: 'on' }, text('ok')];
    const calls: [string, object, object][] = [search, set, search, set, search];
    const lines = (annotations: object) => codes(mcp([tool('search'), tool('set_flag', annotations)], calls), 'd.jsonl', 'duplicate-fingerprint').map((f) => `${f.line} ${f.token}`);
    assert.deepEqual(lines({ readOnlyHint: false }), ['9 "set_flag"'], 'the second set_flag repeats; it still changed the world, so the last search is fresh');
    assert.deepEqual(lines({ readOnlyHint: false, idempotentHint: true }), ['9 "set_flag"', '11 "search"']);
  });

  it('a workspace contract that is a tools/list result takes the annotations too, and embedded ones fill a silent contract', () => {
    const file = { result: { tools: [{ name: 'write_note', inputSchema: obj, annotations: { readOnlyHint: true } }, { name: 'put_thing', inputSchema: obj, annotations: { idempotentHint: true, readOnlyHint: false } }] } };
    const loaded = loadContracts([{ path: 'tools.json', text: JSON.stringify(file) }]);
    assert.deepEqual(loaded.findings, []);
    assert.equal(loaded.contracts.tools.get('write_note')?.mutates, false);
    assert.deepEqual([loaded.contracts.tools.get('put_thing')?.mutates, loaded.contracts.tools.get('put_thing')?.idempotent], [true, true]);
    // own contract file without `mutates`: the annotation recorded in the trace decides
    const own = loadContracts([{ path: 'c.json', text: JSON.stringify({ tools: { search: { arguments: obj }, write_note: { arguments: obj } } }) }]).contracts;
    const trace = mcp([tool('search'), tool('write_note', { readOnlyHint: true })], [search, ['write_note', { q: 'n' }, text('saved')], search]);
    assert.equal(checkText(trace, { fileName: 'e.jsonl', contracts: own }).findings.filter((f) => f.code === 'duplicate-fingerprint').length, 1);
  });
});

describe('MCP input_required results (multi round-trip requests)', () => {
  const tools = [{ name: 'deploy', inputSchema: obj, outputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } }];
  const asks = { resultType: 'input_required', inputRequests: { env: { method: 'elicitation/create', params: { message: 'Which environment?', requestedSchema: { type: 'object', properties: { env: { type: 'string' } } } } } }, requestState: 'opaque-1' };

  it('answers its request: no orphan, no status-theater, no result-contract; the retry is no duplicate', () => {
    const lines = jsonl(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, result: { tools } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deploy', arguments: { q: 'app' } } },
      { jsonrpc: '2.0', id: 2, result: asks },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'deploy', arguments: { q: 'app' }, inputResponses: { env: { action: 'accept', content: { env: 'prod' } } }, requestState: 'opaque-1' } },
      { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', content: [{ type: 'text', text: 'deployed' }], structuredContent: { url: 7 } } },
    );
    const r = checkAndLocate(lines, { fileName: 'mrtr.jsonl' });
    assert.equal(r.format, 'mcp');
    assert.deepEqual(r.findings.map((f) => `${f.code}@${f.line} ${f.token}`), ['result-contract@6 7'], 'only the completed result is held to the outputSchema (url wanted string)');
  });

  it('a call answered only by input_required is no orphan; the draft name "incomplete" reads the same', () => {
    for (const resultType of ['input_required', 'incomplete']) {
      const lines = jsonl(
        { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, result: { tools } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deploy', arguments: { q: 'app' } } },
        { jsonrpc: '2.0', id: 2, result: { ...asks, resultType } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'deploy', arguments: { q: 'other' } } },
        { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', content: [], structuredContent: { url: 'u' } } },
      );
      assert.deepEqual(checkText(lines, { fileName: 'x.jsonl', contracts: undefined }).findings.map((f) => f.code), [], resultType);
    }
  });

  it('without a retry marker in between, the same call after a complete result is still a repeat', () => {
    const lines = mcp(tools, [['deploy', { q: 'a' }, { resultType: 'complete', content: [], structuredContent: { url: 'u' } }], ['search', { q: 'x' }, text('hit')], ['deploy', { q: 'a' }, { resultType: 'complete', content: [], structuredContent: { url: 'u' } }]]);
    const r = checkText(lines, { fileName: 'y.jsonl', contracts: loadContracts([{ path: 'c.json', text: JSON.stringify({ tools: { deploy: { arguments: obj, mutates: false }, search: { arguments: obj } } }) }]).contracts });
    assert.deepEqual(r.findings.filter((f) => f.code === 'duplicate-fingerprint').map((f) => f.tool), ['deploy']);
  });
});

describe('MCP structuredContent may be any JSON value', () => {
  const run = (outputSchema: object, structuredContent: unknown) => {
    const lines = mcp([{ name: 'nums', inputSchema: obj, outputSchema }], [['nums', { q: 'x' }, { content: [{ type: 'text', text: 'see structured' }], structuredContent, resultType: 'complete' }]]);
    return checkAndLocate(lines, { fileName: 'sc.jsonl' }).findings.map((f) => `${f.code} ${f.message} @${f.token}`);
  };
  it('an array, a string, a number, an object: each checked against the outputSchema, at its place', () => {
    assert.deepEqual(run({ type: 'array', items: { type: 'number' } }, [1, 2, 3]), []);
    assert.deepEqual(run({ type: 'array', items: { type: 'number' } }, [1, 'two']), ['result-contract nums result: [1] wanted number, got string "two" @"two"']);
    assert.deepEqual(run({ type: 'string' }, 42), ['result-contract nums result: (result) wanted string, got number 42 @42']);
    assert.deepEqual(run({ type: 'integer' }, 3), []);
    assert.deepEqual(run({ type: 'object', properties: { status: { type: 'integer' }, data: { type: 'string' } }, required: ['status', 'data'] }, { status: 200, data: 5 }),
      ['result-contract nums result: data wanted string, got number 5 @5'], 'an object is the body as it is, not an HTTP wrapper to look inside');
  });
  it('a null structuredContent is read as absent: the text content is the body', () => {
    assert.deepEqual(run({ type: 'object', properties: { n: { type: 'number' } } }, null), ['result-contract nums result: (result) wanted object, got string "see structured" @"see structured"']);
  });
});

// ---- OTel GenAI -------------------------------------------------------------------------------------------

const a = (key: string, value: unknown) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : typeof value === 'object' ? value : { stringValue: value } });
/** One OTLP execute_tool span per entry: [call id, status (undefined: left out), extra attributes]. */
function otlp(spans: [string, object | undefined, object[]][]): string {
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: spans.map(([id, status, attrs], i) => ({
    traceId: 'T', spanId: `s${i}`, name: 'execute_tool run_query', startTimeUnixNano: String(1000 + i), ...(status ? { status } : {}),
    attributes: [a('gen_ai.operation.name', 'execute_tool'), a('gen_ai.tool.name', 'run_query'), a('gen_ai.tool.call.id', id), ...attrs],
  })) }] }] }, null, 1);
}

describe('OTel GenAI execute_tool spans', () => {
  it('error.type is an honest failure, whatever the status says: no status-theater', () => {
    const t = otlp([
      ['c1', undefined, [a('error.type', 'TimeoutError'), a('gen_ai.tool.call.arguments', '{"q": "a"}'), a('gen_ai.tool.call.result', '{"error": "timed out"}')]],
      ['c2', { code: 1 }, [a('error.type', 'ValueError'), a('gen_ai.tool.call.arguments', '{"q": "b"}'), a('gen_ai.tool.call.result', '{"ok": false}')]],
    ]);
    const r = checkText(t, { fileName: 'otlp.json', keepModel: true });
    assert.equal(r.format, 'otel');
    assert.deepEqual(r.findings.filter((f) => f.code === 'status-theater'), []);
    const s: Session = r.model![0].session;
    assert.deepEqual(s.results.map((x) => x.transport), [{ spanStatus: 'UNSET', errorType: 'TimeoutError' }, { spanStatus: 'OK', errorType: 'ValueError' }]);
  });

  it('status UNSET (left out) or OK with a result that says failure is status-theater', () => {
    const t = otlp([
      ['c1', undefined, [a('gen_ai.tool.call.arguments', '{"q": "a"}'), a('gen_ai.tool.call.result', '{"ok": false}')]],
      ['c2', { code: 1 }, [a('gen_ai.tool.call.arguments', '{"q": "b"}'), a('gen_ai.tool.call.result', '{"success": false}')]],
      ['c3', { code: 2 }, [a('gen_ai.tool.call.arguments', '{"q": "c"}'), a('gen_ai.tool.call.result', '{"ok": false}')]],
      ['c4', {}, [a('gen_ai.tool.call.arguments', '{"q": "d"}'), a('gen_ai.tool.call.result', '{"rows": 3}')]],
    ]);
    assert.deepEqual(codes(t, 'otlp.json', 'status-theater').map((f) => f.message), [
      'run_query: transport says success (span status UNSET) but the body says ok: false',
      'run_query: transport says success (span status OK) but the body says success: false',
    ]);
  });

  it('gen_ai.tool.call.arguments neither an object nor a JSON string of one is arguments-encoding, at the attribute value', () => {
    const t = otlp([
      ['c1', { code: 1 }, [a('gen_ai.tool.call.arguments', 42)]],
      ['c2', { code: 1 }, [a('gen_ai.tool.call.arguments', '[1, 2]')]],
      ['c3', { code: 1 }, [a('gen_ai.tool.call.arguments', 'q=a')]],
      ['c4', { code: 1 }, [a('gen_ai.tool.call.arguments', '{"q": "ok"}')]],
      ['c5', { code: 1 }, [a('gen_ai.tool.call.arguments', { kvlistValue: { values: [{ key: 'q', value: { stringValue: 'ok' } }] } })]],
      ['c6', { code: 1 }, [a('gen_ai.tool.call.arguments', '"{\\"q\\": \\"x\\"}"')]],
    ]);
    const f = codes(t, 'otlp.json', 'arguments-encoding');
    assert.deepEqual(f.map((x) => x.token), ['"42"', '"[1, 2]"', '"q=a"', JSON.stringify('"{\\"q\\": \\"x\\"}"')]);
    assert.equal(f.length, 4, 'the JSON object string and the kvlist object are clean');
  });
});

// ---- control tokens in tool names -------------------------------------------------------------------------

describe('tool names with model control tokens', () => {
  const chatCall = (name: string, tools = true) => JSON.stringify({
    ...(tools ? { tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }] } : {}),
    messages: [{ role: 'user', content: 'weather?' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: '{"city": "Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' }],
  });
  const unknown = (name: string, tools = true) => checkAndLocate(chatCall(name, tools), { fileName: 't.json' }).findings.filter((f) => f.code === 'unknown-tool' || f.code === 'no-contract').map((f) => `${f.code} ${f.message} @${f.token}`);

  it('a known tool behind control tokens: unknown-tool, saying the name is malformed and which tool it meant', () => {
    assert.deepEqual(unknown('functions.get_weather<|channel|>commentary'), [
      'unknown-tool functions.get_weather<|channel|>commentary is a malformed tool name: it holds model control tokens (<|channel|>); it probably meant get_weather @"functions.get_weather<|channel|>commentary"',
    ]);
    assert.deepEqual(unknown('get_weather<|constrain|>json'), ['unknown-tool get_weather<|constrain|>json is a malformed tool name: it holds model control tokens (<|constrain|>); it probably meant get_weather @"get_weather<|constrain|>json"']);
  });

  it('nothing known inside: malformed, no guess; the same without contracts (and no no-contract beside it)', () => {
    assert.deepEqual(unknown('json<|channel|>commentary'), ['unknown-tool json<|channel|>commentary is a malformed tool name: it holds model control tokens (<|channel|>) @"json<|channel|>commentary"']);
    assert.deepEqual(unknown('<|im_end|>', false), ['unknown-tool <|im_end|> is a malformed tool name: it holds model control tokens (<|im_end|>) @"<|im_end|>"']);
    assert.deepEqual(unknown('get_weather<|im_end|>', false), ['unknown-tool get_weather<|im_end|> is a malformed tool name: it holds model control tokens (<|im_end|>); it probably meant get_weather @"get_weather<|im_end|>"']);
    assert.deepEqual(unknown('get_weather', false), ['no-contract no contract for get_weather; its arguments were not checked @"get_weather"']);
  });
});
