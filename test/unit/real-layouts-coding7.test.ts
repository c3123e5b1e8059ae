// Layouts of coding-agent transcripts swept in round seven. Every trace here is small and written for the test,
// after the writers' sources and the layouts public samples show.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonl, readTrace } from './helpers';

describe('Codex paginated rollout: outcomes in completed turn items', () => {
  const meta = { timestamp: '2026-09-18T09:31:07.106Z', ordinal: 0, type: 'session_meta',
    payload: { id: '01a0b3da-0000-7000-8000-000000000001', cwd: '/w', originator: 'codex-tui', cli_version: '0.154.0', history_mode: 'paginated' } };
  const line = (ordinal: number, type: string, payload: unknown, extra: object = {}) => ({ timestamp: '2026-09-18T09:31:08Z', ordinal, type, payload, ...extra });
  const done = (ordinal: number, item: object) => line(ordinal, 'event_msg', { type: 'item_completed', thread_id: 't', turn_id: 'u1', item });

  it('reads each call once, from its response item, with the error its turn item records', () => {
    const text = jsonl(meta,
      line(1, 'turn_context', { turn_id: 'u1', cwd: '/w', model: 'gpt-5.5' }),
      line(2, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'search' }] }),
      done(3, { type: 'UserMessage', id: 'm1', content: [{ type: 'text', text: 'search' }] }),
      line(4, 'response_item', { type: 'function_call', id: 'fc_1', name: 'mcp__docs__search', arguments: '{"query":"x"}', call_id: 'call_A' }),
      line(5, 'response_item', { type: 'function_call_output', call_id: 'call_A', output: 'boom' }),
      done(6, { type: 'McpToolCall', id: 'call_A', server: 'docs', tool: 'search', arguments: { query: 'x' }, status: 'failed', error: { message: 'boom' } }),
      line(7, 'response_item', { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch', call_id: 'call_B' }),
      done(8, { type: 'FileChange', id: 'call_B', changes: {}, status: 'completed' }),
      line(9, 'response_item', { type: 'custom_tool_call_output', call_id: 'call_B', output: 'Success.' }),
      line(10, 'response_item', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"false"}', call_id: 'call_C' }),
      line(11, 'response_item', { type: 'function_call_output', call_id: 'call_C', output: 'done' }),
      done(12, { type: 'CommandExecution', id: 'call_C', command: 'false', status: 'failed', exit_code: 1 }),
      line(13, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }, { metadata: { client_authored: false } }));
    const { r, sessions } = readTrace(text, { fileName: 'rollout-2026-09-18T09-31-07-01a0b3da.jsonl' });
    assert.equal(r.format, 'codex');
    const s = sessions[0];
    assert.equal(s.id, '01a0b3da-0000-7000-8000-000000000001');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['mcp__docs__search', 'call_A', 1], ['apply_patch', 'call_B', 2], ['exec_command', 'call_C', 3]]);
    assert.deepEqual(s.calls[0].args, { query: 'x' });
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError, x.transport.exitCode]),
      [['call_A', true, undefined], ['call_B', false, undefined], ['call_C', true, 1]]);
  });

  it('leaves a turn item of no call read (a code-mode script\'s command) alone: no call, no result', () => {
    const text = jsonl(meta,
      line(1, 'turn_context', { turn_id: 'u1', cwd: '/w', model: 'gpt-5.5' }),
      line(2, 'response_item', { type: 'custom_tool_call', name: 'exec', input: 'await tools.exec_command({cmd: "ls"})', call_id: 'x1' }),
      done(3, { type: 'CommandExecution', id: 'exec-1', command: 'ls', status: 'failed', exit_code: 2 }),
      line(4, 'response_item', { type: 'custom_tool_call_output', call_id: 'x1', output: [{ type: 'input_text', text: 'Script completed' }] }));
    const { sessions } = readTrace(text, { fileName: 'rollout.jsonl' });
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['exec', 'x1']]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError, x.transport.exitCode]), [['x1', undefined, undefined]]);
  });
});

describe('Roo Code CLI stream-json: the ui messages retold as events', () => {
  const mcpAsk = JSON.stringify({ type: 'use_mcp_tool', serverName: 'gh', toolName: 'get_issue', arguments: '{"n":1}' });
  const events = [
    { type: 'system', subtype: 'init', content: 'Task started' },
    { type: 'assistant', id: 1760000000100, content: 'Reading the file.', done: true },
    // a streamed ask comes again under its ts as it grows: the last copy is the call
    { type: 'tool_use', id: 1760000000200, subtype: 'tool', tool_use: { name: 'readFile', input: { tool: 'readFile', path: 'src/a' } } },
    { type: 'tool_use', id: 1760000000200, subtype: 'tool', tool_use: { name: 'readFile', input: { tool: 'readFile', path: 'src/a.ts' } } },
    { type: 'assistant', id: 1760000000300, content: 'Running the tests.', done: true },
    { type: 'tool_use', id: 1760000000400, subtype: 'command', tool_use: { name: 'execute_command', input: { command: 'npm test' } } },
    { type: 'tool_result', tool_result: { name: 'execute_command', output: '1 failing', exitCode: 1 } },
    { type: 'assistant', id: 1760000000500, content: 'Checking the issue.', done: true },
    { type: 'tool_use', id: 1760000000600, subtype: 'mcp', tool_use: { name: 'mcp_server', input: { raw: mcpAsk } } },
    { type: 'tool_result', subtype: 'mcp', tool_result: { name: 'mcp_server', output: 'Error:\nnot found' } },
    { type: 'result', id: 1760000000700, content: 'Done', done: true, success: true, cost: { totalCost: 0.01 } },
  ];

  function check(r: ReturnType<typeof readTrace>['r'], sessions: ReturnType<typeof readTrace>['sessions']) {
    assert.equal(r.format, 'cline');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.turn]), [['read_file', 1], ['execute_command', 2], ['get_issue', 3]]);
    assert.deepEqual(s.calls[0].args, { tool: 'readFile', path: 'src/a.ts' });
    assert.equal(s.calls[1].args, 'npm test');
    assert.deepEqual(s.calls[2].args, { n: 1 });
    // the file's content went to the model unshown: answered all the same, once the model spoke again
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.payload, x.transport.isError, x.transport.exitCode]),
      [[0, undefined, undefined, undefined], [1, '1 failing', undefined, 1], [2, 'Error:\nnot found', true, undefined]]);
    assert.deepEqual(r.findings.filter((f) => f.code === 'orphan-call'), []);
  }

  it('reads the stream (one event a line)', () => {
    const { r, sessions } = readTrace(jsonl(...events), { fileName: 'roo.jsonl' });
    check(r, sessions);
  });

  it('reads --output-format json: the same events inside the result', () => {
    const text = JSON.stringify({ type: 'result', success: true, content: 'Done', events: events.filter((e) => e.type !== 'result') }, null, 2);
    const { r, sessions } = readTrace(text, { fileName: 'roo.json' });
    check(r, sessions);
  });
});

describe('Codex app-server: dynamic tool calls', () => {
  it('reads a dynamicToolCall item as the call of the client\'s tool, its completed copy the outcome', () => {
    const n = (method: string, item: object) => ({ method, params: { threadId: 'th_1', turnId: 'tu_1', item } });
    const text = jsonl(
      n('item/started', { type: 'dynamicToolCall', id: 'call_D1', tool: 'lookup_ticket', arguments: { key: 'ABC-1' }, status: 'inProgress', contentItems: null, success: null }),
      n('item/completed', { type: 'dynamicToolCall', id: 'call_D1', tool: 'lookup_ticket', arguments: { key: 'ABC-1' }, status: 'completed',
        contentItems: [{ type: 'inputText', text: 'not found' }], success: false, durationMs: 12 }),
      n('item/started', { type: 'commandExecution', id: 'call_C1', command: 'ls', cwd: '/w', status: 'inProgress' }),
      n('item/completed', { type: 'commandExecution', id: 'call_C1', command: 'ls', cwd: '/w', status: 'completed', aggregatedOutput: 'a', exitCode: 0 }));
    const { r, sessions } = readTrace(text, { fileName: 'app-server.jsonl' });
    assert.equal(r.format, 'codex');
    const s = sessions[0];
    assert.equal(s.id, 'th_1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['lookup_ticket', 'call_D1'], ['command_execution', 'call_C1']]);
    assert.deepEqual(s.calls[0].args, { key: 'ABC-1' });
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError, x.transport.exitCode]), [['call_D1', true, undefined], ['call_C1', undefined, 0]]);
    assert.deepEqual(s.results[0].payload, [{ type: 'inputText', text: 'not found' }]);
  });
});

describe('Roo Code CLI stream-json: newer deltas', () => {
  it('reads a growing ask by its done copy, a command output by its deltas and the exit code of its done event, and no call of an ask never done', () => {
    const text = jsonl(
      { type: 'system', subtype: 'init', content: 'Task started' },
      { type: 'tool_use', id: 101, subtype: 'command', content: 'g', tool_use: { name: 'execute_command', input: { command: 'g' } } },
      { type: 'tool_use', id: 101, subtype: 'command', content: 'h pr', tool_use: { name: 'execute_command', input: { command: 'h pr' } } },
      { type: 'tool_use', id: 101, subtype: 'command', tool_use: { name: 'execute_command', input: { command: 'gh pr' } }, done: true },
      { type: 'tool_result', id: 101, subtype: 'command', tool_result: { name: 'execute_command', output: 'line1\n' } },
      { type: 'tool_result', id: 101, subtype: 'command', tool_result: { name: 'execute_command', output: 'line2\n' } },
      { type: 'tool_result', id: 101, subtype: 'command', tool_result: { name: 'execute_command', exitCode: 17 }, done: true },
      { type: 'assistant', id: 102, content: 'Reading it.', done: true },
      { type: 'tool_use', id: 103, subtype: 'tool', content: '{"tool":"readFile","path":"a', tool_use: { name: 'readFile' } },
      { type: 'result', id: 104, content: 'Stopped', done: true, success: false });
    const { r, sessions } = readTrace(text, { fileName: 'roo.jsonl' });
    assert.equal(r.format, 'cline');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['execute_command', 'gh pr']]);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.payload, x.transport.exitCode]), [[0, 'line1\nline2\n', 17]]);
  });

  it('reads an older CLI\'s resent whole outputs (no id) once, as their last copy', () => {
    const text = jsonl(
      { type: 'tool_use', id: 201, subtype: 'command', tool_use: { name: 'execute_command', input: { command: 'ls' } } },
      { type: 'tool_result', tool_result: { name: 'execute_command', output: 'a' } },
      { type: 'tool_result', tool_result: { name: 'execute_command', output: 'a\nb' } },
      { type: 'result', id: 202, content: 'Done', done: true, success: true });
    const { sessions } = readTrace(text, { fileName: 'roo.jsonl' });
    assert.deepEqual(sessions[0].results.map((x) => [x.callIndex, x.payload]), [[0, 'a\nb']]);
  });
});
