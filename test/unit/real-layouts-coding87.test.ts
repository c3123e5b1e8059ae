// Layouts of coding-agent traffic swept in round seven, second pass: the Agent Client Protocol (ACP) as its
// captures hold it. Every trace here is small and written for the test, after the protocol's schema and docs and
// the shapes public captures and fixtures show.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonl, readTrace } from './helpers';

const rpc = (method: string, params: object, id?: number) => ({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params });
const upd = (sessionId: string, update: object) => rpc('session/update', { sessionId, update });

describe('ACP JSON-RPC capture', () => {
  const text = jsonl(
    rpc('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true }, terminal: true } }, 0),
    { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] } },
    rpc('session/new', { cwd: '/w', mcpServers: [] }, 1),
    { jsonrpc: '2.0', id: 1, result: { sessionId: 's1' } },
    rpc('session/prompt', { sessionId: 's1', prompt: [{ type: 'text', text: 'test it' }] }, 2),
    upd('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Running.' } }),
    upd('s1', { _meta: { claudeCode: { toolName: 'Bash' } }, sessionUpdate: 'tool_call', toolCallId: 'toolu_1', title: 'Terminal', kind: 'execute', status: 'pending', rawInput: {} }),
    upd('s1', { _meta: { claudeCode: { toolName: 'Bash' } }, sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', title: '`npm test`', rawInput: { command: 'npm test' } }),
    rpc('session/request_permission', { sessionId: 's1', toolCall: { toolCallId: 'toolu_1', rawInput: { command: 'npm test' } }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] }, 5),
    { jsonrpc: '2.0', id: 5, result: { outcome: { outcome: 'selected', optionId: 'a' } } },
    upd('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: '1 failed' } }] }),
    upd('s1', { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'read_file', kind: 'read', status: 'completed', rawInput: { path: 'a.json' }, rawOutput: { text: '{}' } }),
    { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } });

  it('reads each call once, named by the agent, with the input of the update that carried it', () => {
    const { r, sessions, pos } = readTrace(text);
    assert.equal(r.format, 'acp');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.equal(s.id, 's1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['Bash', 'toolu_1', 1], ['read_file', 'c2', 2]]);
    assert.deepEqual(s.calls[0].args, { command: 'npm test' });
    assert.equal(s.calls[0].encoding, 'object');
    // the name where `_meta` states it (line 7), the arguments where they arrived (line 8)
    const nameAt = s.calls[0].nameAt;
    assert.deepEqual(nameAt.path.slice(-3), ['_meta', 'claudeCode', 'toolName']);
    assert.equal(s.calls[0].argsAt.path.at(-1), 'rawInput');
    assert.notEqual(s.calls[0].argsAt.doc, nameAt.doc);
    assert.equal(pos(s.calls[0].argsAt.doc.base).split(':')[0], '8');
  });

  it('pairs the terminal update with its call, a failure as an error, and flags nothing as orphan', () => {
    const { sessions, codes } = readTrace(text);
    const s = sessions[0];
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['toolu_1', true], ['c2', false]]);
    assert.deepEqual(s.results[1].payload, { text: '{}' });
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join('\n'));
  });
});

describe('ACP capture variants', () => {
  it('reads a capture envelope `{ts, dir, msg}`: a call whose input came later, one still open at the end', () => {
    const rec = (dir: string, msg: object) => ({ ts: '2026-09-25T10:00:01Z', dir, msg });
    const text = jsonl({ gc_acp_capture: 1, ts: '2026-09-25T10:00:00Z', session_id: 'gc-1' },
      rec('out', rpc('session/prompt', { sessionId: 'a1', prompt: [{ type: 'text', text: 'go' }] }, 2)),
      rec('in', upd('a1', { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', status: 'pending' })),
      rec('in', upd('a1', { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress', rawInput: { path: 'a.go' } })),
      rec('in', upd('a1', { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Bash', status: 'failed', rawOutput: { error: 'boom' } })));
    const { r, sessions, codes } = readTrace(text);
    assert.equal(r.format, 'acp');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.id]), [['Edit', 't1'], ['Bash', 't2']]);
    assert.deepEqual(s.calls[0].args, { path: 'a.go' });
    assert.equal(s.calls[1].encoding, 'absent');
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['t2', true]]);
    assert.equal(codes.filter((c) => c.startsWith('orphan-call')).length, 1);
  });

  it('names a call by its kind when its title is a sentence, and reads bare `{update}` records', () => {
    const text = jsonl(
      { update: { sessionUpdate: 'tool_call', toolCallId: 'x1', title: 'Run `git status`', kind: 'execute', status: 'pending', rawInput: { command: 'git status' } } },
      { update: { sessionUpdate: 'tool_call_update', toolCallId: 'x1', status: 'in_progress' } },
      { update: { sessionUpdate: 'tool_call_update', toolCallId: 'x1', status: 'completed', rawOutput: { exit_code: 0 } } });
    const { r, sessions } = readTrace(text);
    assert.equal(r.format, 'acp');
    const s = sessions[0];
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.args]), [['execute', 'x1', { command: 'git status' }]]);
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].transport.isError, false);
  });

  it('names a Gemini CLI call by its call id (`<name>-<ms>`), not by its title, the description of what it does', () => {
    const text = jsonl(
      upd('g', { sessionUpdate: 'tool_call', toolCallId: 'read_file-1761000000123', status: 'in_progress', title: 'src/index.ts', content: [], locations: [{ path: 'src/index.ts' }], kind: 'read' }),
      upd('g', { sessionUpdate: 'tool_call_update', toolCallId: 'read_file-1761000000123', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'x' } }] }),
      upd('g', { sessionUpdate: 'tool_call', toolCallId: 'c7', status: 'in_progress', title: 'README.md', kind: 'read' }));
    const { sessions } = readTrace(text);
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.id, c.encoding]), [['read_file', 'read_file-1761000000123', 'absent'], ['read', 'c7', 'absent']]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError]), [['read_file-1761000000123', false]]);
  });

  it('reads a `session/load` replay once, and keeps two sessions of one connection apart', () => {
    const call = (sid: string, id: string) => upd(sid, { sessionUpdate: 'tool_call', toolCallId: id, title: 'grep', kind: 'search', status: 'completed', rawInput: { q: id } });
    const text = jsonl(call('s1', 'g1'), call('s2', 'g2'), rpc('session/load', { sessionId: 's1', cwd: '/w', mcpServers: [] }, 9), call('s1', 'g1'));
    const { sessions } = readTrace(text);
    assert.deepEqual(sessions.map((s) => [s.id, s.calls.map((c) => c.id), s.results.length]), [['s1', ['g1'], 1], ['s2', ['g2'], 1]]);
  });

  it('leaves MCP JSON-RPC (a date-string protocolVersion, tools/call) to the MCP reader', () => {
    const text = jsonl(rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {} }, 1),
      rpc('tools/call', { name: 'get_weather', arguments: { city: 'Oslo' } }, 2),
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'sunny' }] } });
    const { r, sessions } = readTrace(text);
    assert.equal(r.format, 'mcp');
    assert.deepEqual(sessions.flatMap((s) => s.calls.map((c) => c.name)), ['get_weather']);
  });
});

describe('Factory Droid `droid exec --output-format stream-json`', () => {
  const sid = 'a1b2c3d4-0000-4000-8000-000000000001';
  const ev = (o: object) => ({ ...o, timestamp: 1761000001000, session_id: sid });
  const text = jsonl(
    { type: 'system', subtype: 'init', cwd: '/w', session_id: sid, tools: ['Read', 'LS', 'Execute'], model: 'claude-sonnet-4-5' },
    ev({ type: 'message', role: 'user', id: 'u1', text: 'list and read' }),
    ev({ type: 'message', role: 'assistant', id: 'a1', text: 'Looking.' }),
    ev({ type: 'tool_call', id: 'toolu_1', messageId: 'a1', toolId: 'LS', toolName: 'LS', parameters: { directory_path: '/w' } }),
    ev({ type: 'tool_call', id: 'toolu_2', messageId: 'a1', toolId: 'Read', toolName: 'Read', parameters: { file_path: '/w/README.md' } }),
    ev({ type: 'tool_result', id: 'toolu_1', messageId: 't1', toolId: 'LS', isError: false, value: 'README.md' }),
    ev({ type: 'tool_result', messageId: 't2', toolId: 'Read', isError: false, value: '# hi' }),
    ev({ type: 'tool_call', id: 'toolu_3', messageId: 'a2', toolId: 'Execute', toolName: 'Execute', parameters: { command: 'false' } }),
    ev({ type: 'tool_result', id: 'toolu_3', messageId: 't3', toolId: 'Execute', isError: true, error: { type: 'tool_error', message: 'Exit code 1' } }),
    ev({ type: 'completion', finalText: 'Done.', numTurns: 3, durationMs: 4200 }));

  it('reads each tool_call as a call (its parameters, one turn per messageId) and pairs its tool_result', () => {
    const { r, sessions, codes } = readTrace(text);
    assert.equal(r.format, 'droid');
    assert.equal(sessions.length, 1);
    const s = sessions[0];
    assert.equal(s.id, sid);
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['LS', 'toolu_1', 1], ['Read', 'toolu_2', 1], ['Execute', 'toolu_3', 2]]);
    assert.deepEqual(s.calls[1].args, { file_path: '/w/README.md' });
    // the second result names no id: the earliest unanswered call of its toolId
    assert.deepEqual(s.results.map((x) => [x.callId ?? x.callIndex, x.transport.isError]), [['toolu_1', false], [1, false], ['toolu_3', true]]);
    assert.deepEqual(s.results[2].payload, { type: 'tool_error', message: 'Exit code 1' });
    assert.ok(!codes.some((c) => c.startsWith('orphan')), codes.join('\n'));
  });
});
