// Layouts found in the corpus's own source repositories that read as nothing before. Traces are written here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
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
