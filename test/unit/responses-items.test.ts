// The Responses item tables are shared by every reader of Responses items (the Responses adapter, Codex rollouts,
// Agents SDK run states): one name for each hosted tool, the same outputs and the same pairing. Small synthetic
// traces, written here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readTrace } from './helpers';

function read(text: string, fileName: string, packs = false) {
  const { r, sessions } = readTrace(text, { fileName, packs });
  return { r, s: sessions[0] };
}

const search = { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'oslo' } };

describe('responses items: one table for every reader', () => {
  it('the hosted web search is the tool web_search in the Responses, Agents and Codex readers, and its tools[] entry declares that name', () => {
    const responses = read(JSON.stringify({ object: 'response', tools: [{ type: 'web_search_preview' }], output: [{ id: 'ws_1', ...search }] }), 'response.json');
    assert.equal(responses.r.format, 'openai-responses');
    assert.deepEqual(responses.s.calls.map((c) => c.name), ['web_search']);
    assert.deepEqual(responses.s.tools.map((t) => t.name), ['web_search'], 'the declaration names what the call is named');
    assert.ok(!responses.r.findings.some((f) => f.code === 'unknown-tool'), 'a declared search is no unknown tool');

    const agents = read(JSON.stringify({ $schemaVersion: '1.16', current_agent: { name: 'A' }, original_input: 'hi', model_responses: [],
      generated_items: [{ type: 'tool_call_item', raw_item: { id: 'ws_2', ...search } }] }), 'state.json');
    assert.equal(agents.r.format, 'openai-agents');
    assert.deepEqual(agents.s.calls.map((c) => c.name), ['web_search']);

    const rollout = [{ timestamp: '2026-01-01T00:00:00.000Z', type: 'turn_context', payload: { cwd: '/w' } },
      { timestamp: '2026-01-01T00:00:01.000Z', type: 'response_item', payload: { ...search, action: { type: 'search', query: 'oslo', engine: 'x' } } }];
    const codex = read(rollout.map((l) => JSON.stringify(l)).join('\n') + '\n', 'rollout.jsonl', true);
    assert.equal(codex.r.format, 'codex');
    assert.deepEqual(codex.s.calls.map((c) => c.name), ['web_search']);
    assert.deepEqual(codex.s.results.map((x) => x.transport), [{ isError: false }]);
    assert.ok(codex.r.findings.some((f) => f.code === 'extra-key' && f.tool === 'web_search'), 'the Codex pack\'s web_search contract checks the search');
  });

  it('a run state reads the outputs the Responses reader knows: a tool search is answered by its tool_search_output, by call id', () => {
    const { r, s } = read(JSON.stringify({ $schemaVersion: '1.16', current_agent: { name: 'A' }, original_input: 'hi', model_responses: [],
      generated_items: [
        { type: 'tool_call_item', raw_item: { type: 'tool_search_call', id: 'ts_1', call_id: 'cs_1', arguments: { query: 'weather' }, status: 'completed' } },
        { type: 'tool_call_output_item', raw_item: { type: 'tool_search_output', id: 'tso_1', call_id: 'cs_1', tools: [{ type: 'function', name: 'get_weather' }], status: 'completed' } },
      ] }), 'state.json');
    assert.equal(r.format, 'openai-agents');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['tool_search_call', 'cs_1']]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.payloadAt?.path.at(-1)]), [['cs_1', 'tools']], 'one result, the output item\'s: the call item carries none');
    assert.ok(!r.findings.some((f) => f.code === 'orphan-call' || f.code === 'orphan-result'));
  });

  it('an output both readers know pairs the same way: a local shell output names its call by id', () => {
    const items = [{ type: 'local_shell_call', id: 'ls_1', call_id: 'ls_1', action: { type: 'exec', command: ['ls'] }, status: 'completed' },
      { type: 'local_shell_call_output', id: 'ls_1', output: 'a b' }];
    const responses = read(JSON.stringify({ input: items }), 'request.json');
    const agents = read(JSON.stringify({ $schemaVersion: '1.16', current_agent: { name: 'A' }, original_input: items, model_responses: [], generated_items: [] }), 'state.json');
    assert.equal(responses.r.format, 'openai-responses');
    assert.equal(agents.r.format, 'openai-agents');
    for (const { s } of [responses, agents]) {
      assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['local_shell_call', 'ls_1']]);
      assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['ls_1', 'a b']]);
    }
  });
});
