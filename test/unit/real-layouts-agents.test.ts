// Layouts of coding-agent logs found in real files (and in the agents' own sources) that the readers used to miss:
// Qwen Code chat recordings, `codex exec --json` thread events, OpenHands V1 (agent SDK) events, Cursor Agent CLI
// stream-json and agent transcripts, Kiro CLI session journals, VS Code Copilot Chat sessions. Every trace here is small and written for the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts } from '../../src/core';
import { readModel } from './helpers';

function read(text: string, fileName?: string, readAs?: string) {
  return readModel(text, { fileName, readAs });
}

const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

// ---- Qwen Code ---------------------------------------------------------------------------------------------

const qwen = (uuid: string, type: string, extra: Record<string, unknown>) => ({ uuid, parentUuid: null, sessionId: 'q-1', timestamp: '2026-01-01T00:00:00Z', type, cwd: '/w', version: '0.20.0', ...extra });
const qUser = (uuid: string, text: string) => qwen(uuid, 'user', { message: { role: 'user', parts: [{ text }] } });
const qModel = (uuid: string, parts: unknown[]) => qwen(uuid, 'assistant', { model: 'qwen3-coder-plus', message: { role: 'model', parts } });
const qCall = (id: string, name: string, args: unknown) => ({ functionCall: { id, name, args } });
const qResult = (uuid: string, id: string, name: string, response: unknown, status?: string) =>
  qwen(uuid, 'tool_result', { message: { role: 'user', parts: [{ functionResponse: { id, name, response } }] }, ...(status ? { toolCallResult: { callId: id, status } } : {}) });

describe('Qwen Code chat recordings', () => {
  it('reads parallel function calls and pairs each tool_result record, its status the transport', () => {
    const text = jsonl([
      qwen('s0', 'system', { subtype: 'session_source', systemPayload: { sourceType: 'cli' } }),
      qUser('u1', 'check git'),
      qModel('a1', [{ text: 'thinking', thought: true }, qCall('call_1', 'run_shell_command', { command: 'git log -1' }), qCall('call_2', 'run_shell_command', { command: 'git status' })]),
      qResult('r1', 'call_1', 'run_shell_command', { error: 'Exit Code: 128' }, 'error'),
      qResult('r2', 'call_2', 'run_shell_command', { output: 'clean' }, 'success'),
      qModel('a2', [{ text: 'done' }]),
    ]);
    const { r, sessions, codes } = read(text, 'q-1.jsonl');
    assert.equal(r.format, 'qwen-code');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['run_shell_command', 'call_1', s.calls[0].turn], ['run_shell_command', 'call_2', s.calls[0].turn]]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [['call_1', { isError: true, exitCode: 128 }], ['call_2', { isError: false }]]);
    assert.deepEqual(s.results[1].payload, 'clean', 'the {output} wrapper is not the payload');
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('a result record with no response part answers its callId with the display text', () => {
    const text = jsonl([
      qModel('a1', [qCall('call_9', 'read_file', { absolute_path: '/w/x' })]),
      qwen('r1', 'tool_result', { toolCallResult: { callId: 'call_9', status: 'cancelled', resultDisplay: 'cancelled by user' } }),
    ]);
    const { r, sessions } = read(text, 'q.jsonl');
    assert.equal(r.format, 'qwen-code');
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport, x.payload]), [['call_9', { isError: true }, 'cancelled by user']]);
  });

  it("a subagent's records are a session of their own", () => {
    const text = jsonl([
      qModel('a1', [qCall('call_1', 'task', { prompt: 'look' })]),
      { ...qModel('b1', [qCall('call_s', 'list_directory', { path: '/w' })]), agentId: 'explore-1', isSidechain: true },
      { ...qResult('b2', 'call_s', 'list_directory', { output: 'a' }, 'success'), agentId: 'explore-1', isSidechain: true },
      qResult('r1', 'call_1', 'task', { output: 'found a' }, 'success'),
    ]);
    const { sessions, codes } = read(text, 'q.jsonl');
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => c.id)).sort(), [['call_1'], ['call_s']]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('a Claude Code log with the same envelope is still read as Claude Code', () => {
    const text = jsonl([
      { type: 'assistant', uuid: 'a1', sessionId: 'S', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/x' } }] } },
      { type: 'user', uuid: 'u1', sessionId: 'S', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] } },
    ]);
    const { r, sessions } = read(text, 's.jsonl');
    assert.equal(r.format, 'claude-code');
    assert.equal(sessions[0].calls.length, 1);
  });
});

// ---- codex exec --json -------------------------------------------------------------------------------------

describe('codex exec --json thread events', () => {
  const item = (type: string, item: Record<string, unknown>) => ({ type, item });
  it('reads command, MCP, patch and search items once each, the completed copy their outcome', () => {
    const text = jsonl([
      { type: 'thread.started', thread_id: 'th-1' },
      { type: 'turn.started' },
      item('item.started', { id: 'item_0', type: 'command_execution', command: 'bash -lc "make test"', aggregated_output: '', exit_code: null, status: 'in_progress' }),
      item('item.updated', { id: 'item_0', type: 'command_execution', command: 'bash -lc "make test"', aggregated_output: 'FAIL', exit_code: null, status: 'in_progress' }),
      item('item.completed', { id: 'item_0', type: 'command_execution', command: 'bash -lc "make test"', aggregated_output: 'FAIL\n', exit_code: 2, status: 'failed' }),
      item('item.started', { id: 'item_1', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'retry' }, result: null, error: null, status: 'in_progress' }),
      item('item.completed', { id: 'item_1', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'retry' }, result: null, error: { message: 'server gone' }, status: 'failed' }),
      item('item.completed', { id: 'item_2', type: 'file_change', changes: [{ path: 'a.go', kind: 'update' }], status: 'completed' }),
      item('item.completed', { id: 'item_3', type: 'web_search', query: 'go retry backoff' }),
      item('item.completed', { id: 'item_4', type: 'agent_message', text: 'done' }),
      { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 } },
    ]);
    const { r, sessions, codes } = read(text, 'run.jsonl');
    assert.equal(r.format, 'codex');
    const [s] = sessions;
    assert.equal(s.id, 'th-1');
    assert.deepEqual(s.calls.map((c) => c.name), ['command_execution', 'mcp__docs__search', 'file_change', 'web_search']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [
      ['item_0', { exitCode: 2, isError: true }],
      ['item_1', { isError: true }],
      ['item_2', { isError: false }],
      ['item_3', { isError: false }],
    ]);
    assert.deepEqual(s.results[0].payload, 'FAIL\n');
    assert.deepEqual(s.calls[1].args, { q: 'retry' });
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('a capture that starts mid-stream (no thread.started) is still read; a started item never completed has no result', () => {
    const text = jsonl([
      item('item.started', { id: 'item_7', type: 'command_execution', command: 'golangci-lint run', aggregated_output: '', exit_code: null, status: 'in_progress' }),
    ]);
    const { r, sessions, codes } = read(text, 'tail.jsonl');
    assert.equal(r.format, 'codex');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 0);
    assert.ok(!codes.includes('unknown-format'), codes.join());
  });
});

// ---- OpenHands V1 ------------------------------------------------------------------------------------------

const ohAction = (id: string, callId: string, command: string, resp: string) => ({
  kind: 'ActionEvent', id, timestamp: '2026-01-01T00:00:00', source: 'agent', thought: [], action: { command, is_input: false, kind: 'TerminalAction' },
  tool_name: 'terminal', tool_call_id: callId, tool_call: { id: callId, name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' },
  llm_response_id: resp, security_risk: 'UNKNOWN',
});
const ohObservation = (id: string, actionId: string, callId: string, exitCode: number) => ({
  kind: 'ObservationEvent', id, timestamp: '2026-01-01T00:00:01', source: 'environment', tool_name: 'terminal', tool_call_id: callId, action_id: actionId,
  observation: { content: [{ type: 'text', text: 'out' }], is_error: false, exit_code: exitCode, metadata: { exit_code: exitCode }, kind: 'TerminalObservation' },
});

describe('OpenHands V1 (agent SDK) events', () => {
  const events = [
    { kind: 'MessageEvent', id: 'm1', timestamp: '2026-01-01T00:00:00', source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text: 'go' }] } },
    ohAction('a1', 'call_1', 'ls', 'resp-1'),
    ohAction('a2', 'call_2', 'false', 'resp-1'),
    ohObservation('o1', 'a1', 'call_1', 0),
    { kind: 'AgentErrorEvent', id: 'e1', timestamp: '2026-01-01T00:00:02', source: 'agent', tool_name: 'terminal', tool_call_id: 'call_2', error: 'timed out' },
    ohAction('a3', 'call_3', 'pwd', 'resp-2'),
    { kind: 'UserRejectObservation', id: 'x1', timestamp: '2026-01-01T00:00:03', source: 'user', tool_name: 'terminal', tool_call_id: 'call_3', action_id: 'a3', rejection_reason: 'no' },
  ];

  it('a JSON array: calls from the tool_call the model wrote, one turn per LLM response, results by tool_call_id', () => {
    const { r, sessions, codes } = read(JSON.stringify(events, null, 1), 'events.json');
    assert.equal(r.format, 'openhands');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.id, c.encoding]), [['call_1', 'json-string'], ['call_2', 'json-string'], ['call_3', 'json-string']]);
    assert.equal(s.calls[0].turn, s.calls[1].turn);
    assert.notEqual(s.calls[1].turn, s.calls[2].turn);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [['call_1', { exitCode: 0, isError: false }], ['call_2', { isError: true }], ['call_3', { isError: true }]]);
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });

  it('JSONL of the same events, and one event file alone, read the same calls', () => {
    const lines = read(jsonl(events), 'events.jsonl');
    assert.equal(lines.r.format, 'openhands');
    assert.equal(lines.r.calls, 3);
    assert.equal(lines.sessions[0].results.length, 3);
    const one = read(JSON.stringify(ohAction('a9', 'call_9', 'ls', 'r')), 'event-00001-a9.json');
    assert.equal(one.r.format, 'openhands');
    assert.equal(one.r.calls, 1);
  });

  it("early SDK tool_call {function: {name, arguments}}, and an action with no tool_call (its `kind` is not an argument)", () => {
    const early = { ...ohAction('a1', 'call_1', 'ls', 'r'), tool_call: { id: 'call_1', type: 'function', function: { name: 'execute_bash', arguments: '{"command": "ls"}' } } };
    const bare = { ...ohAction('a2', 'call_2', 'pwd', 'r2'), tool_call: undefined };
    const { sessions } = read(JSON.stringify([early, bare]), 'events.json');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['execute_bash', { command: 'ls' }], ['terminal', { command: 'pwd', is_input: false }]]);
    const schema = { type: 'object', properties: { command: { type: 'string' }, is_input: { type: 'boolean' } }, additionalProperties: false };
    const { contracts } = loadContracts([{ path: 'c.json', text: JSON.stringify([{ name: 'terminal', parameters: schema }]) }]);
    const withContract = checkText(JSON.stringify([bare]), { fileName: 'events.json', packs: false, contracts });
    assert.ok(!withContract.findings.some((f) => f.code === 'extra-key'), withContract.findings.map((f) => f.message).join('; '));
  });
});

// ---- Cursor Agent CLI stream-json --------------------------------------------------------------------------

describe('Cursor Agent CLI stream-json', () => {
  const sid = 'c-1';
  const ev = (v: Record<string, unknown>) => ({ ...v, session_id: sid });
  const tool = (subtype: string, callId: string, key: string, body: Record<string, unknown>) => ev({ type: 'tool_call', subtype, call_id: callId, tool_call: { [key]: body } });

  it('reads <name>ToolCall calls, pairs the completed event, and takes success / error / rejected as the outcome', () => {
    const text = jsonl([
      ev({ type: 'system', subtype: 'init', apiKeySource: 'login', cwd: '/w', model: 'Auto', permissionMode: 'default' }),
      ev({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'go' }] } }),
      ev({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'looking' }] } }),
      tool('started', 't1', 'readToolCall', { args: { path: 'a.md' } }),
      tool('started', 't2', 'grepToolCall', { args: { pattern: 'x' } }),
      tool('completed', 't1', 'readToolCall', { args: { path: 'a.md' }, result: { success: { content: 'hi' } } }),
      tool('completed', 't2', 'grepToolCall', { args: { pattern: 'x' }, result: { error: { errorMessage: 'EPERM' } } }),
      tool('started', 't3', 'shellToolCall', { args: { command: 'make' } }),
      tool('completed', 't3', 'shellToolCall', { args: { command: 'make' }, result: { success: { exitCode: 2, stdout: '', stderr: 'boom' } } }),
      tool('completed', 't4', 'shellToolCall', { args: { command: 'rm -rf /' }, result: { rejected: { reason: 'not allowed' } } }),
      tool('started', 't5', 'function', { name: 'mcp_docs_search', arguments: '{"q": "retry"}' }),
      ev({ type: 'result', subtype: 'success', is_error: false, result: 'done', duration_ms: 5 }),
    ]);
    const { r, sessions } = read(text, 'run.jsonl');
    assert.equal(r.format, 'cursor-agent');
    const [s] = sessions;
    assert.equal(s.id, sid);
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['read', 't1'], ['grep', 't2'], ['shell', 't3'], ['shell', 't4'], ['mcp_docs_search', 't5']]);
    assert.equal(s.calls[0].turn, s.calls[1].turn, 'calls started before any result are one step');
    assert.notEqual(s.calls[1].turn, s.calls[2].turn);
    assert.deepEqual(s.calls[4].args, { q: 'retry' });
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [
      ['t1', { isError: false }], ['t2', { isError: true }], ['t3', { isError: false, exitCode: 2 }], ['t4', { isError: true }],
    ]);
    assert.deepEqual(s.results[0].payload, { content: 'hi' });
  });

  it('the editor\'s agent transcripts: the role beside an Anthropic-style message, calls kept, results where recorded', () => {
    const text = jsonl([
      { role: 'user', message: { content: [{ type: 'text', text: '<user_query>\nfix auth\n</user_query>' }] } },
      { role: 'assistant', message: { content: [{ type: 'text', text: 'editing' }, { type: 'tool_use', id: 'toolu_1', name: 'Edit', input: { file_path: 'a.ts', old_string: 'x', new_string: 'y' } }] } },
      { role: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] } },
      { role: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'pnpm test' } }] } },
    ]);
    const { r, sessions } = read(text, 'agent-transcript.jsonl');
    assert.equal(r.format, 'cursor-agent');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id]), [['Edit', 'toolu_1'], ['Bash', 'toolu_2']]);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['toolu_1']);
  });

  it("Claude Code's stream-json, with or without uuids, is not taken for Cursor's", () => {
    const lines = [
      { type: 'system', subtype: 'init', cwd: '/w', session_id: 's', tools: ['Bash'], mcp_servers: [], model: 'm', apiKeySource: 'none' },
      { type: 'assistant', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] }, parent_tool_use_id: null, session_id: 's' },
      { type: 'user', message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'a' }] }, parent_tool_use_id: null, session_id: 's' },
      { type: 'result', subtype: 'success', is_error: false, num_turns: 1, result: 'done', session_id: 's' },
    ];
    const { r } = read(jsonl(lines), 'cc.jsonl');
    assert.notEqual(r.format, 'cursor-agent');
    assert.equal(r.calls, 1);
  });
});

// ---- Kiro CLI session journal -----------------------------------------------------------------------------

describe('Kiro CLI session journals', () => {
  const rec = (kind: string, content: unknown[], extra: Record<string, unknown> = {}) => ({ version: 'v1', kind, data: { message_id: kind + content.length, content, ...extra } });
  it('toolUse blocks are calls, toolResult blocks their results by toolUseId, with status and exit_status as the transport', () => {
    const text = jsonl([
      rec('Prompt', [{ kind: 'text', data: 'fix it' }], { meta: { timestamp: 1 } }),
      rec('AssistantMessage', [{ kind: 'thinking', data: 'hm' }, { kind: 'text', data: 'running both' },
        { kind: 'toolUse', data: { toolUseId: 't1', name: 'shell', input: { command: 'go test ./...' } } },
        { kind: 'toolUse', data: { toolUseId: 't2', name: 'read', input: { path: 'a.go' } } }]),
      rec('ToolResults', [
        { kind: 'toolResult', data: { toolUseId: 't1', content: [{ kind: 'json', data: { exit_status: 'exit status: 1', stdout: '', stderr: 'FAIL' } }], status: 'success' } },
        { kind: 'toolResult', data: { toolUseId: 't2', content: [{ kind: 'text', data: 'no such file' }] } },
      ], { results: { t2: { tool: { kind: 'read' }, result: { Error: 'no such file' } } } }),
      rec('AssistantMessage', [{ kind: 'text', data: 'done' }]),
    ]);
    const { r, sessions, codes } = read(text, '0a5376f2.jsonl');
    assert.equal(r.format, 'kiro');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['shell', 't1', s.calls[0].turn], ['read', 't2', s.calls[0].turn]]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [['t1', { isError: false, exitCode: 1 }], ['t2', { isError: true }]]);
    assert.deepEqual(s.results[1].payload, 'no such file');
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join());
  });
});

// ---- VS Code Copilot Chat sessions -------------------------------------------------------------------------

describe('VS Code Copilot Chat sessions', () => {
  const round = (id: string, calls: [string, string, unknown][]) => ({ id, response: '', toolInputRetry: 0, toolCalls: calls.map(([cid, name, args]) => ({ id: cid, name, arguments: JSON.stringify(args) })) });
  const session = {
    version: 3, sessionId: 'vs-1', requesterUsername: 'dev', responderUsername: 'GitHub Copilot',
    requests: [
      { requestId: 'request_1', message: { text: 'fix', parts: [] }, response: [{ kind: 'markdownContent', value: { value: 'ok' } }],
        result: { metadata: {
          toolCallRounds: [round('r1', [['call_a', 'run_in_terminal', { command: 'npm test' }], ['call_b', 'read_file', { filePath: '/w/a.ts' }]]), round('r2', [['call_c', 'read_file', { filePath: '/w/b.ts' }]])],
          toolCallResults: { call_a: { $mid: 20, content: [{ $mid: 21, value: '1 failing' }] }, call_b: { $mid: 20, content: [{ $mid: 21, value: 'a' }, { $mid: 21, value: 'b' }] } },
        } } },
      { requestId: 'request_2', message: { text: 'thanks' }, response: [], result: { metadata: {} } },
    ],
  };

  it('each tool-call round is a turn; toolCallResults answer by id; a call with no stored result waits for one', () => {
    const { r, sessions, codes } = read(JSON.stringify(session), 'vs-1.json');
    assert.equal(r.format, 'copilot-cli');
    const [s] = sessions;
    assert.equal(s.id, 'vs-1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.encoding]), [['run_in_terminal', 'call_a', 'json-string'], ['read_file', 'call_b', 'json-string'], ['read_file', 'call_c', 'json-string']]);
    assert.equal(s.calls[0].turn, s.calls[1].turn);
    assert.notEqual(s.calls[1].turn, s.calls[2].turn);
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['call_a', '1 failing'], ['call_b', [{ $mid: 21, value: 'a' }, { $mid: 21, value: 'b' }]]]);
    assert.ok(codes.includes('orphan-call'), 'call_c has no result: ' + codes.join());
  });

  it("the session log's first record (`{kind: 0, v: snapshot}`) reads the same", () => {
    const text = jsonl([{ kind: 0, v: session }, { kind: 1, k: ['customTitle'], v: 'Fix tests' }]);
    const { r } = read(text, 'vs-1.jsonl');
    assert.equal(r.format, 'copilot-cli');
    assert.equal(r.calls, 3);
  });
});
