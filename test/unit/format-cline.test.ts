// Cline and Roo Code task files: api_conversation_history.json (native tool_use or XML tool tags; results as
// "[tool for 'x'] Result:" text, tool_result blocks or "not executed" notes) and ui_messages.json.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTERS, checkText, type Session } from '../../src/core';
import { spanOf } from '../../src/core/parse/doc';

function read(value: unknown) {
  const text = JSON.stringify(value);
  const r = checkText(text, { fileName: 'task.json', keepModel: true, packs: false });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const at = (a: Parameters<typeof spanOf>[0]) => {
    const s = spanOf(a);
    return text.slice(s.start, s.end);
  };
  return { r, s: sessions[0], at, text };
}

const env = '<environment_details>\n# Current Mode\nACT MODE\n</environment_details>';
const user = (...blocks: string[]) => ({ role: 'user', content: blocks.map((text) => ({ type: 'text', text })) });
const claimers = (v: unknown) => ADAPTERS.filter((a) => a.document?.claims(v)).map((a) => a.id);

describe('cline: api_conversation_history', () => {
  it('reads XML tool tags in the assistant text, answered by a header block and the content block after it', () => {
    const history = [
      user('<task>\nfix it\n</task>', env),
      { role: 'assistant', content: [{ type: 'text', text: '<thinking>look first</thinking>\n\n<read_file>\n<path>src/a.ts</path>\n</read_file>' }] },
      user("[read_file for 'src/a.ts'] Result:", 'export const a = 1;', env),
      { role: 'assistant', content: [{ type: 'text', text: 'then write\n<write_to_file>\n<path>b.ts</path>\n<content>\nx </content> y\n</content>\n</write_to_file>' }] },
      user("[write_to_file for 'b.ts'] Result:\nThe user denied this operation.", env),
      { role: 'assistant', content: 'half a tag <list_files>\n<path>.</path>' },
    ];
    const { r, s, at } = read(history);
    assert.equal(r.format, 'cline');
    assert.deepEqual(s.calls.map((c) => [c.name, c.encoding, c.turn]), [['read_file', 'object', 1], ['write_to_file', 'object', 2]], 'the unclosed list_files tag never ran');
    assert.deepEqual(s.calls[0].args, { path: 'src/a.ts' });
    assert.deepEqual(s.calls[1].args, { path: 'b.ts', content: 'x </content> y' }, 'content ends at its LAST closing tag, as Cline reads it');
    assert.equal(at(s.calls[0].nameAt), '<read_file>', 'the name points at the tag in the text');
    assert.match(at(s.calls[0].argsAt), /^<path>src\/a\.ts<\/path>/, 'the arguments point at the tag body');
    assert.equal(s.calls[0].messageText, '<thinking>look first</thinking>');
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.payload, x.transport]), [
      [0, 'export const a = 1;', {}],
      [1, 'The user denied this operation.', { isError: true }],
    ]);
    assert.deepEqual(s.results[0].at.path, [2, 'content', 1], 'the content block answers, not the header');
  });

  it('pairs native tool_use with text results by name, then order; reads Cline\'s and Roo\'s failure words', () => {
    const history = [
      user('<task>\ngo\n</task>', env),
      { role: 'assistant', ts: 1, content: [
        { type: 'tool_use', id: 'tooluse_1', name: 'use_subagents', input: { prompt_1: 'a' } },
        { type: 'tool_use', id: 'tooluse_2', name: 'execute_command', input: { command: 'make', requires_approval: false } },
        { type: 'tool_use', id: 'tooluse_3', name: 'read_file', input: { path: 'x' } },
      ] },
      user(
        "[execute_command for 'make'] Result:\nCommand executed in terminal 1 within working directory '/w'. Exit code: 2\nOutput:\nboom",
        '[subagents] Result:\nSubagent results:\nTotal: 1',
        'Tool [read_file] was not executed because a tool has already been used in this message.',
        env,
      ),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'tooluse_4', name: 'use_mcp_tool', input: { server_name: 's', tool_name: 't', arguments: '{}' } },
        { type: 'tool_use', id: 'tooluse_5', name: 'use_mcp_tool', input: { server_name: 's', tool_name: 't', arguments: '{"a":1}' } }] },
      user("[use_mcp_tool for 's'] Result:\nError:\nserver down", "[use_mcp_tool for 's'] Result:\nError: not an error flag", env),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'tooluse_6', name: 'ask_followup_question', input: { question: 'ok?' } }] },
      user('[TASK RESUMPTION] This task was interrupted 3 days ago.', env),
    ];
    const { s, r } = read(history);
    assert.equal(r.format, 'cline');
    const byCall = s.results.map((x) => [s.calls[x.callIndex!].name, x.transport]);
    assert.deepEqual(byCall, [
      ['execute_command', { exitCode: 2 }],
      ['use_subagents', {}],
      ['read_file', { isError: true }],
      ['use_mcp_tool', { isError: true }],
      ['use_mcp_tool', { isError: false }],
    ], 'Roo\'s "Exit code", a not-executed call, MCP\'s "Error:\\n" prefix (and text that merely starts with "Error:")');
    const codes = r.findings.map((f) => `${f.code} ${f.tool}`);
    assert.ok(codes.includes('orphan-call ask_followup_question'), 'the resumption is no answer');
    assert.ok(codes.includes('status-theater use_mcp_tool'), 'an MCP result without Cline\'s error prefix that reads like one is theater');
    assert.ok(!codes.some((c) => c === 'orphan-call read_file'), 'a call that did not run is still answered');
  });

  it('reads Roo\'s tool_result blocks, whose failures are JSON {"status": "error"} with no is_error', () => {
    const history = [
      user('<task>\ngo\n</task>', env),
      { role: 'assistant', ts: 2, content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'x' } }, { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'y' } }] },
      { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 't1', content: '{"status":"error","message":"The tool execution failed","error":"ENOENT"}' },
        { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'y body' }] },
        { type: 'text', text: env },
      ] },
    ];
    const { s, r } = read(history);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['t1', true], ['t2', undefined]]);
    assert.deepEqual(r.findings.filter((f) => f.code === 'status-theater'), [], 'an honest failure is no theater');
  });

  it('claims a history by Cline\'s marks only; a plain Anthropic transcript stays Anthropic', () => {
    const plain = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }];
    assert.deepEqual(claimers(plain), ['anthropic']);
    assert.deepEqual(claimers([user('<task>\nx\n</task>', env), plain[1]]), ['cline'], 'the environment block is Cline\'s');
    assert.deepEqual(claimers([plain[0], { ...plain[1], modelInfo: { modelId: 'm' } }]), ['cline'], 'so is modelInfo');
  });
});

describe('cline: ui_messages', () => {
  const say = (ts: number, kind: string, text: string, extra: object = {}) => ({ ts, type: 'say', say: kind, text, ...extra });
  const ask = (ts: number, kind: string, text: string, extra: object = {}) => ({ ts, type: 'ask', ask: kind, text, ...extra });
  const req = (request: string) => JSON.stringify({ request, tokensIn: 1, tokensOut: 1 });

  it('reads tool, MCP and command messages, and pairs them with their responses or the next request', () => {
    const ui = [
      say(1, 'text', 'task'),
      say(2, 'api_req_started', req('<task>\ntask\n</task>')),
      say(3, 'tool', JSON.stringify({ tool: 'readFile', path: 'a.ts', content: '/w/a.ts' })),
      ask(4, 'tool', JSON.stringify({ tool: 'editedExistingFile', path: 'a.ts', diff: '-' }), { partial: true }),
      say(5, 'api_req_started', req("[read_file for 'a.ts'] Result:\nbody of a\n\n<environment_details>\nx\n</environment_details>")),
      ask(6, 'use_mcp_server', JSON.stringify({ type: 'use_mcp_tool', serverName: 's', toolName: 'lookup', arguments: '{"q": 2.0}' })),
      say(7, 'mcp_server_request_started', ''),
      say(8, 'mcp_server_response', 'Error:\nno such key'),
      say(9, 'command', 'npm test'),
      ask(10, 'command_output', '\nFAIL a.test'),
      ask(11, 'command_output', 'more output'),
      say(12, 'api_req_started', req("[use_mcp_tool for 's'] Result:\nError:\nno such key\n\n[execute_command for 'npm test'] Result:\nCommand executed.\nOutput:\nFAIL")),
      say(13, 'tool', JSON.stringify({ tool: 'newFileCreated', path: 'b.ts', content: 'x' })),
      say(14, 'api_req_started', req("[write_to_file for 'b.ts'] Result:\nThe tool execution failed with the following error:\n<error>\nEACCES\n</error>")),
    ];
    const { r, s, at } = read(ui);
    assert.equal(r.format, 'cline');
    assert.deepEqual(s.calls.map((c) => [c.name, c.encoding]), [['read_file', 'object'], ['lookup', 'json-string'], ['execute_command', 'freeform'], ['write_to_file', 'object']],
      'ui tags read as the tools they show; the partial message never ran');
    assert.deepEqual(s.calls[1].args, { q: 2.0 });
    assert.equal(at(s.calls[1].nameAt), '\\"lookup\\"', 'the name inside the JSON string of the ask text');
    assert.deepEqual(s.results.map((x) => [s.calls[x.callIndex!].name, x.payload, x.transport]), [
      ['read_file', 'body of a', {}],
      ['lookup', 'Error:\nno such key', { isError: true }],
      ['execute_command', '\nFAIL a.test', {}],
      ['write_to_file', 'The tool execution failed with the following error:\n<error>\nEACCES\n</error>', { isError: true }],
    ], 'one result per call: the request that repeats the MCP response and the command output is not read again');
    assert.deepEqual(s.calls.map((c) => c.turn), [1, 2, 2, 3]);
  });
});
