// Layouts found in the corpus's own source repositories that read as nothing before. Traces are written here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync, strToU8 } from 'fflate';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { checkBytes, useBrotli } from '../../src/core';
import '../../src/cli/native-decoders';
import { readModel } from './helpers';

const tools = [{ _type: 'Tool', name: 'docs_search', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }];
const sessionRecord = (id: string) => ({
  session_id: id,
  server_info: { url: 'https://example.test/mcp', transport: 'http' },
  calls: [
    { request: { method: 'initialize', args: [], kwargs: {} }, response: { success: true, result: { _type: 'InitializeResult' }, error: null } },
    { request: { method: 'list_tools', args: [], kwargs: {} }, response: { success: true, result: { _type: 'ListToolsResult', tools }, error: null } },
    { request: { method: 'call_tool', args: ['docs_search', { query: 'zones' }], kwargs: {} }, response: { success: true, result: { _type: 'CallToolResult', content: [], isError: false }, error: null } },
    { request: { method: 'call_tool', args: ['docs_search', { query: 5 }], kwargs: {} }, response: { success: false, result: null, error: 'upstream timed out' } },
  ],
});

describe('MCP client sessions written one record per session', () => {
  it('JSONL of session records: each line is a session, requests pair with the response beside them', () => {
    const text = [sessionRecord('a'), sessionRecord('b')].map((r) => JSON.stringify(r)).join('\n');
    const { r, sessions, codes } = readModel(text, { fileName: 'mcp_sessions.jsonl' });
    assert.equal(r.format, 'mcp');
    assert.equal(sessions.length, 2);
    for (const s of sessions) {
      assert.deepEqual(s.calls.map((c) => c.name), ['docs_search', 'docs_search']);
      assert.deepEqual(s.calls.map((c) => c.args), [{ query: 'zones' }, { query: 5 }]);
      assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [[s.calls[0].id, false], [s.calls[1].id, true]]);
      assert.ok(s.tools.some((t) => t.name === 'docs_search'));
    }
    // the listed schema is the contract: the number is a drift, once a session
    assert.equal(codes.filter((c) => c === 'type-drift').length, 2);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('one record as a JSON document, or an array of them, reads the same', () => {
    const one = readModel(JSON.stringify(sessionRecord('a'), null, 2), { fileName: 'session.json' });
    assert.equal(one.r.format, 'mcp');
    assert.equal(one.sessions.length, 1);
    assert.equal(one.sessions[0].calls.length, 2);
    const many = readModel(JSON.stringify([sessionRecord('a'), sessionRecord('b')]), { fileName: 'sessions.json' });
    assert.equal(many.sessions.length, 2);
    assert.equal(many.codes.filter((c) => c === 'type-drift').length, 2);
  });

  it('a record whose calls are not requests is not claimed', () => {
    const { r } = readModel(JSON.stringify({ session_id: 'x', calls: [{ name: 'a', args: {} }] }), { fileName: 'x.json' });
    assert.notEqual(r.format, 'mcp');
  });
});

describe('a zip that is not an Inspect log', () => {
  const claudeLines = [
    { type: 'assistant', uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.ts' } }] } },
    { type: 'user', uuid: 'u1', parentUuid: 'a1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] } },
  ].map((l) => JSON.stringify(l)).join('\n');

  it('holding one trace file: read as that file, under its name', () => {
    const zip = zipSync({ 'export/session.jsonl': strToU8(claudeLines), '__MACOSX/export/._session.jsonl': strToU8('junk'), 'README.txt': strToU8('hi') });
    const r = checkBytes(zip, { fileName: 'export.zip', keepModel: true, packs: false });
    assert.equal(r.container, true);
    assert.equal(r.format, 'claude-code');
    assert.equal(r.calls, 1);
    assert.equal(r.text, claudeLines);
    assert.ok(!r.findings.some((f) => f.code === 'parse-error'));
  });

  it('holding several trace files, or none: one line saying so, nothing guessed', () => {
    const several = checkBytes(zipSync({ 'a.jsonl': strToU8(claudeLines), 'b.json': strToU8('{}') }), { fileName: 'x.zip' });
    const errors = several.findings.filter((f) => f.code === 'parse-error');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /zip archive of 2 trace files \(a\.jsonl, b\.json\).*unzip it/);
    assert.equal(several.calls, 0);
    const none = checkBytes(zipSync({ 'notes.txt': strToU8('x') }), { fileName: 'y.zip' });
    assert.match(none.findings.find((f) => f.code === 'parse-error')?.message ?? '', /no trace in it/);
  });
});

describe('a VCR.py cassette whose response body is Brotli (`Content-Encoding: br` kept as !!binary)', () => {
  const response = { id: 'chatcmpl-1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, finish_reason: 'tool_calls',
    message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": 5}' } }] } }] };
  const request = { model: 'gpt-4o', messages: [{ role: 'user', content: 'weather?' }],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }] };
  const b64 = brotliCompressSync(Buffer.from(JSON.stringify(response))).toString('base64').replace(/(.{76})/g, '$1\n        ');
  const cassette = ['interactions:', '- request:', `    body: '${JSON.stringify(request)}'`, '    method: POST', '    uri: https://api.openai.com/v1/chat/completions',
    '  response:', '    body:', '      string: !!binary |', `        ${b64}`, '    headers:', '      Content-Encoding:', '      - br',
    '    status:', '      code: 200', '      message: OK', 'version: 1', ''].join('\n');

  it('is inflated by the decoder the Node host hands the core, and its call checked', () => {
    const { r, sessions, codes } = readModel(cassette, { fileName: 'agent_with_tool.yaml' });
    assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 1);
    assert.ok(codes.includes('type-drift'), codes.join());
    assert.ok(r.format);
  });

  it('without a Brotli decoder (the web build) the body is unread, nothing crashes', () => {
    useBrotli(undefined);
    try {
      const { sessions } = readModel(cassette, { fileName: 'agent_with_tool.yaml' });
      assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
    } finally {
      useBrotli((raw, max) => brotliDecompressSync(raw, { maxOutputLength: max }));
    }
  });
});
