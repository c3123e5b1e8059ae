// OpenAI Agents SDK run states on small hand-written states: the JS (camelCase) and Python (snake_case) shapes,
// one call recorded in many places, nested states held as JSON strings, envelopes, built-in and hosted calls.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTERS, checkText, claims, type Session } from '../../src/core';
import { spanOf } from '../../src/core/parse/doc';

function read(value: unknown, fileName = 'state.json') {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const r = checkText(text, { fileName, keepModel: true, packs: false });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  return { r, text, sessions, codes: r.findings.map((f) => `${f.code} ${f.tool ?? ''}`.trim()) };
}

const jsCall = (callId: string, name: string, args: object) => ({ type: 'function_call', id: `fc_${callId}`, callId, name, status: 'completed', arguments: JSON.stringify(args) });
const jsState = (extra: object) => ({ $schemaVersion: '1.17', currentTurn: 1, currentAgent: { name: 'A' }, originalInput: 'hi', modelResponses: [], generatedItems: [], ...extra });
const pyCall = (call_id: string, name: string, args: object) => ({ type: 'function_call', id: `fc-${call_id}`, call_id, name, arguments: JSON.stringify(args) });
const pyState = (extra: object) => ({ $schemaVersion: '1.16', current_agent: { name: 'A' }, original_input: 'hi', model_responses: [], generated_items: [], ...extra });

describe('openai-agents run states', () => {
  it('JS: one call recorded in generatedItems and every model response is read once, by callId; a result with status incomplete is an error', () => {
    const call = jsCall('c1', 'lookup', { q: 'x' });
    const { r, sessions } = read(jsState({
      modelResponses: [{ output: [call], responseId: 'r1' }],
      lastModelResponse: { output: [call], responseId: 'r1' },
      generatedItems: [
        { type: 'tool_call_item', rawItem: call, agent: { name: 'A' } },
        { type: 'tool_call_output_item', rawItem: { type: 'function_call_result', name: 'lookup', callId: 'c1', status: 'incomplete', output: 'gave up' }, output: 'gave up' },
      ],
    }));
    assert.equal(r.format, 'openai-agents');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['lookup', 'c1']]);
    assert.deepEqual(s.calls[0].at.path, ['generatedItems', 0, 'rawItem'], 'the first place the call is recorded');
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].callId, 'c1');
    assert.equal(s.results[0].transport.isError, true);
    assert.ok(!r.findings.some((f) => f.code === 'duplicate-call-id' || f.code === 'duplicate-fingerprint'), 'copies are not repeats');
  });

  it('Python: the model\'s arguments are read, not an approval\'s override; recorded definitions check the call', () => {
    const model = pyCall('a1', 'send_email', { recipient: 'alice@example.com', cc: 'x' });
    const override = pyCall('a1', 'send_email', { recipient: 'bob@example.com' });
    const schema = { type: 'object', properties: { recipient: { type: 'string' } }, required: ['recipient'], additionalProperties: false };
    const { sessions, codes } = read(pyState({
      generated_items: [{ type: 'tool_call_item', raw_item: model, agent: { name: 'A' } }],
      current_step: { type: 'next_step_interruption', data: { interruptions: [{ type: 'tool_approval_item', raw_item: override, agent: { name: 'A' } }] } },
      last_processed_response: { new_items: [], functions: [{ tool_call: override, tool: { name: 'send_email', paramsJsonSchema: schema } }], interruptions: [] },
      model_responses: [{ output: [model] }],
      last_model_response: { output: [model] },
    }));
    const [s] = sessions;
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.calls[0].args, { recipient: 'alice@example.com', cc: 'x' });
    assert.deepEqual(s.tools.map((t) => t.name), ['send_email']);
    assert.deepEqual(codes, ['extra-key send_email'], 'cc is not declared by the recorded schema');
  });

  it('keeps recorded definitions only when they name every tool called: a tool merely absent from them is not unknown', () => {
    const schema = { type: 'object', properties: {}, additionalProperties: false };
    const { sessions, codes } = read(jsState({
      generatedItems: [
        { type: 'tool_call_item', rawItem: jsCall('c1', 'earlier_tool', {}) },
        { type: 'tool_call_output_item', rawItem: { type: 'function_call_result', name: 'earlier_tool', callId: 'c1', status: 'completed', output: 'ok' } },
        { type: 'tool_call_item', rawItem: jsCall('c2', 'last_tool', {}) },
      ],
      lastProcessedResponse: { newItems: [], functions: [{ toolCall: jsCall('c2', 'last_tool', {}), tool: { type: 'function', name: 'last_tool', parameters: schema } }] },
    }));
    assert.deepEqual(sessions[0].tools, []);
    assert.ok(!codes.some((c) => c.startsWith('unknown-tool')), codes.join(', '));
    assert.ok(codes.includes('no-contract earlier_tool'));
  });

  it('a nested state held as a JSON string (an agent-as-tool run) belongs to the outer session, anchored inside the string', () => {
    const inner = jsState({ currentAgent: { name: 'Inner' }, generatedItems: [{ type: 'tool_call_item', rawItem: jsCall('n1', 'inner_tool', { text: 'hi' }) }] });
    const outerCall = jsCall('o1', 'outer_tool', { input: 'go' });
    const { text, sessions } = read(jsState({
      generatedItems: [{ type: 'tool_call_item', rawItem: outerCall }],
      currentStep: { type: 'next_step_interruption', data: { interruptions: [{ type: 'tool_approval_item', rawItem: jsCall('n1', 'inner_tool', { text: 'hi' }), agent: { name: 'Inner' } }] } },
      pendingAgentToolRuns: { 'outer_tool:o1': JSON.stringify(inner) },
    }));
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['outer_tool', 'inner_tool'], 'the interruption is the nested call, read once');
    const span = spanOf(s.calls[1].nameAt);
    assert.equal(text.slice(span.start, span.end), '\\"inner_tool\\"', 'the name inside the escaped string');
    assert.deepEqual(s.calls[1].args, { text: 'hi' });
  });

  it('reads a state that is a JSON string, and each state of an envelope as a session of its own', () => {
    const one = jsState({ generatedItems: [{ type: 'tool_call_item', rawItem: jsCall('c1', 'a', {}) }] });
    const two = pyState({ generated_items: [{ type: 'tool_call_item', raw_item: pyCall('c2', 'b', {}) }] });
    assert.deepEqual(read(JSON.stringify(JSON.stringify(one))).sessions.map((s) => s.calls.map((c) => c.name)), [['a']]);
    const { r, sessions } = read({ saved: [{ id: 1, state: JSON.stringify(one) }, { id: 2, state: two }] });
    assert.equal(r.format, 'openai-agents');
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => c.name)), [['a'], ['b']]);
  });

  it('built-in calls and their outputs: shell exit codes and timeouts, apply_patch status, local shell outputs linked by id', () => {
    const { sessions } = read(pyState({
      generated_items: [
        { type: 'tool_call_item', raw_item: { type: 'shell_call', call_id: 's1', action: { commands: ['false'] }, status: 'completed' } },
        { type: 'tool_call_output_item', raw_item: { type: 'shell_call_output', call_id: 's1', output: [{ stdout: '', stderr: '', outcome: { type: 'exit', exit_code: 2 } }] } },
        { type: 'tool_call_item', raw_item: { type: 'shell_call', call_id: 's2', action: { commands: ['sleep 99'] } } },
        { type: 'tool_call_output_item', raw_item: { type: 'shell_call_output', call_id: 's2', output: [{ stdout: '', stderr: '', outcome: { type: 'timeout' } }] } },
        { type: 'tool_call_item', raw_item: { type: 'apply_patch_call', call_id: 'p1', operation: { type: 'update_file', path: 'a.txt', diff: '-a\n+b' }, status: 'completed' } },
        { type: 'tool_call_output_item', raw_item: { type: 'apply_patch_call_output', call_id: 'p1', status: 'failed', output: 'no such file' } },
        { type: 'tool_call_item', raw_item: { type: 'local_shell_call', id: 'ls_1', call_id: 'l1', action: { type: 'exec', command: ['ls'] }, status: 'completed' } },
        { type: 'tool_call_output_item', raw_item: { type: 'local_shell_call_output', id: 'l1', output: 'a.txt' } },
        { type: 'tool_call_item', raw_item: { type: 'computer_call', call_id: 'k1', action: { type: 'click', x: 1, y: 2, button: 'left' }, status: 'completed' } },
        { type: 'tool_call_output_item', raw_item: { type: 'computer_call_output', call_id: 'k1', output: { type: 'computer_screenshot', image_url: 'data:' } } },
      ],
    }));
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['shell', 'shell', 'apply_patch', 'local_shell_call', 'computer_call']);
    assert.deepEqual(s.calls[2].args, { type: 'update_file', path: 'a.txt', diff: '-a\n+b' });
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [
      ['s1', { exitCode: 2 }], ['s2', { isError: true }], ['p1', { isError: true }], ['l1', {}], ['k1', {}],
    ]);
  });

  it('hosted calls carry their results; an MCP call made after its approval request answers that request; MCP errors are errors', () => {
    const { sessions } = read(jsState({
      modelResponses: [
        { output: [{ type: 'hosted_tool_call', id: 'mcpr_1', name: 'mcp_approval_request', status: 'completed', providerData: { type: 'mcp_approval_request', id: 'mcpr_1', name: 'list_files', server_label: 'fs', arguments: '{"dir":"/"}' } }] },
        { output: [
          { type: 'hosted_tool_call', id: 'mcp_1', name: 'mcp_call', status: 'completed', output: 'a b', providerData: { type: 'mcp_call', id: 'mcp_1', name: 'list_files', arguments: '{"dir":"/"}', approval_request_id: 'mcpr_1', error: null } },
          { type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed', providerData: { type: 'web_search_call', action: { type: 'search', query: 'x' } } },
          { type: 'hosted_tool_call', id: 'mcp_2', name: 'mcp_call', status: 'completed', providerData: { type: 'mcp_call', id: 'mcp_2', name: 'read_file', arguments: '{}', error: 'not found' } },
        ] },
      ],
    }));
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['list_files', 'mcpr_1'], ['web_search', 'ws_1'], ['read_file', 'mcp_2']]);
    assert.deepEqual(s.calls[0].args, { dir: '/' });
    assert.deepEqual(s.calls[1].args, { type: 'search', query: 'x' });
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload, x.transport.isError]), [['mcpr_1', 'a b', false], ['ws_1', undefined, false], ['mcp_2', 'not found', true]]);
  });

  it('skips what it cannot read, without throwing', () => {
    const broken = jsState({
      generatedItems: [null, 5, 'x', { type: 'tool_call_item', rawItem: 'nope' }, { type: 'tool_call_item', rawItem: { type: 'function_call', callId: 3, name: 7 } },
        { type: 'tool_call_item', rawItem: { type: 'function_call', callId: 'ok', name: 'fine', arguments: '{' } }],
      modelResponses: [null, { output: 'no' }],
      lastProcessedResponse: { functions: [null, { tool: 'x' }, { toolCall: 'y' }] },
      pendingAgentToolRuns: { a: '{"$schemaVersion": "1.0", broken', b: 7 },
    });
    const { sessions, codes } = read(broken);
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['fine']);
    assert.ok(codes.includes('arguments-encoding fine'));
    assert.ok(!ADAPTERS.some((a) => a.id === 'openai-agents' && claims(a, { $schemaVersion: '1.0' })), 'a version alone is no state');
  });
});
