// Layouts seen in real Cline / Roo Code task files (user-committed ui_messages.json), rebuilt as small traces
// written here: browser actions, pretty-printed files with per-message modelInfo, files cut short while Cline was
// still writing, and streamed (partial) messages that repeat one call.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, type Session } from '../../src/core';

function read(text: string) {
  const r = checkText(text, { fileName: 'ui_messages.json', keepModel: true, packs: false });
  const s: Session | undefined = r.model?.[0]?.session;
  return { r, s };
}

const req = (request: string) => ({ type: 'say', say: 'api_req_started', text: JSON.stringify({ request, tokensIn: 10, tokensOut: 2 }) });
const stamp = (els: object[]) => els.map((e, i) => ({ ts: 1700000000000 + i, ...e }));

describe('cline ui_messages: real layouts (cline5)', () => {
  it('reads browser_action: the launch url and the JSON actions, paired with their non-empty results', () => {
    const ui = stamp([
      { type: 'say', say: 'task', text: 'check the page' },
      req('<task>\ncheck the page\n</task>'),
      { type: 'ask', ask: 'browser_action_launch', text: 'http://localhost:8080', partial: true },
      { type: 'ask', ask: 'browser_action_launch', text: 'http://localhost:8080' },
      { type: 'say', say: 'browser_action_result', text: '' },
      { type: 'say', say: 'browser_action_result', text: JSON.stringify({ logs: 'ready', currentUrl: 'http://localhost:8080/' }) },
      req("[browser_action for 'launch'] Result:\nThe browser action has been executed."),
      { type: 'say', say: 'browser_action', text: JSON.stringify({ action: 'click', coordinate: '10,20' }), partial: true },
      { type: 'say', say: 'browser_action', text: JSON.stringify({ action: 'click', coordinate: '10,200' }) },
      { type: 'say', say: 'browser_action_result', text: JSON.stringify({ logs: '', currentUrl: 'http://localhost:8080/b' }) },
      req("[browser_action for 'click'] Result:\nThe browser action has been executed."),
      { type: 'say', say: 'browser_action', text: JSON.stringify({ action: 'close' }) },
      req("[browser_action for 'close'] Result:\nThe browser has been closed. You may now proceed to using other tools."),
      { type: 'say', say: 'browser_action', text: JSON.stringify({ action: 'type', text: 'hi' }) },
      req("[browser_action for 'type'] Result:\nError executing browser action: page crashed"),
    ]);
    const { r, s } = read(JSON.stringify(ui));
    assert.equal(r.format, 'cline');
    assert.ok(s);
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [
      ['browser_action', 'http://localhost:8080'],
      ['browser_action', { action: 'click', coordinate: '10,200' }],
      ['browser_action', { action: 'close' }],
      ['browser_action', { action: 'type', text: 'hi' }],
    ], 'a partial message is the same call still streaming: read once, in its final form');
    const byCall = s.results.map((x) => [x.callIndex, typeof x.payload === 'string' ? x.payload.slice(0, 20) : x.payload, x.transport.isError]);
    assert.deepEqual(byCall, [
      [0, '{"logs":"ready","cur', undefined],
      [1, '{"logs":"","currentU', undefined],
      [2, 'The browser has been', undefined],
      [3, 'Error executing brow', true],
    ], 'the empty spinner result is skipped; a close is answered by the request text; a failure is flagged');
  });

  it('flags an MCP call whose request says it failed to execute, and a rejected browser launch', () => {
    const mcp = JSON.stringify({ type: 'use_mcp_tool', serverName: 'srv', toolName: 'lookup', arguments: JSON.stringify({ q: 'x' }) });
    const ui = stamp([
      req('<task>\ngo\n</task>'),
      { type: 'say', say: 'use_mcp_server', text: mcp },
      { type: 'say', say: 'mcp_server_request_started' },
      req("[use_mcp_tool for 'srv'] Result:\nError executing MCP tool: connection closed"),
      { type: 'ask', ask: 'browser_action_launch', text: 'https://example.test' },
      req("[browser_action for 'launch'] Result:\nThe user rejected this browser action."),
    ]);
    const { s } = read(JSON.stringify(ui));
    assert.ok(s);
    assert.deepEqual(s.calls.map((c) => c.name), ['lookup', 'browser_action']);
    assert.deepEqual([s.calls[0].args, s.calls[0].encoding], [{ q: 'x' }, 'json-string'], 'the arguments string inside the JSON string is decoded');
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.transport.isError]), [[0, true], [1, true]]);
  });

  it('reads a pretty-printed file whose messages carry modelInfo and conversationHistoryIndex', () => {
    const info = { providerId: 'cline', modelId: 'some/model', mode: 'act' };
    const ui = stamp([
      { type: 'say', say: 'text', text: 'look around', images: [], files: [], modelInfo: info, conversationHistoryIndex: -1 },
      { type: 'say', say: 'checkpoint_created', modelInfo: info, conversationHistoryIndex: -1, lastCheckpointHash: 'abc', isCheckpointCheckedOut: false },
      { ...req('<task>\nlook around\n</task>'), modelInfo: info, conversationHistoryIndex: -1 },
      { type: 'say', say: 'reasoning', text: 'read config first', partial: false, modelInfo: info, conversationHistoryIndex: 0 },
      { type: 'say', say: 'text', text: '', partial: true, modelInfo: info, conversationHistoryIndex: 0 },
      { type: 'say', say: 'tool', text: JSON.stringify({ tool: 'readFile', path: 'pubspec.yaml', content: 'C:\\p\\pubspec.yaml', operationIsLocatedInWorkspace: true }), partial: false, modelInfo: info, conversationHistoryIndex: 0 },
      { type: 'say', say: 'task_progress', text: '- [ ] read config', modelInfo: info, conversationHistoryIndex: 1 },
      { ...req("[read_file for 'pubspec.yaml'] Result:\nname: app\n\n<environment_details>\n# Current Mode\nACT MODE\n</environment_details>"), modelInfo: info, conversationHistoryIndex: 1 },
    ]);
    const { r, s } = read(JSON.stringify(ui, null, 4));
    assert.equal(r.format, 'cline');
    assert.ok(s);
    assert.deepEqual(s.calls.map((c) => c.name), ['read_file']);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.payload]), [[0, 'name: app']], 'the environment block is not part of the result');
    assert.deepEqual(r.findings.filter((f) => f.severity !== 'info').map((f) => f.code), []);
  });

  it('keeps the calls before the cut when the file ends mid-message', () => {
    const ui = stamp([
      req('<task>\nlist\n</task>'),
      { type: 'say', say: 'command', text: 'ls', partial: false },
      { type: 'ask', ask: 'command_output', text: 'a\nb' },
      req("[execute_command for 'ls'] Result:\nCommand executed.\nOutput:\na\nb"),
      { type: 'say', say: 'tool', text: JSON.stringify({ tool: 'readFile', path: 'a' }) },
      req("[read_file for 'a'] Result:\nhello there, this is long"),
    ]);
    const full = JSON.stringify(ui);
    const cut = full.slice(0, full.lastIndexOf('hello') + 3);
    const { r, s } = read(cut);
    assert.equal(r.format, 'cline');
    assert.ok(s);
    assert.deepEqual(s.calls.map((c) => c.name), ['execute_command', 'read_file']);
    assert.deepEqual(s.results.map((x) => x.callIndex), [0], 'the command output was read; the cut request answers nothing');
    assert.ok(r.findings.some((f) => f.code === 'parse-error'), 'the cut is reported');
  });
  it('reads the CLI --json stream: one ui message a line, partial updates and re-sent messages read once', () => {
    const tool = JSON.stringify({ tool: 'readFile', path: 'a.md' });
    const lines = [
      { ts: 10, type: 'say', say: 'text', text: 'Reading the file.' },
      { ts: 11, type: 'say', say: 'tool', text: tool.slice(0, 20), partial: true },
      { ts: 11, type: 'say', say: 'tool', text: tool },
      { ts: 11, type: 'say', say: 'tool', text: tool },
      { ts: 12, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: "[read_file for 'a.md'] Result:\n# A" }) },
      { ts: 13, type: 'say', say: 'command', text: 'npm test' },
      { ts: 14, type: 'ask', ask: 'command_output', text: 'ok 1' },
      { ts: 15, type: 'ask', ask: 'command_output', text: 'ok 2' },
      { ts: 16, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: "[execute_command for 'npm test'] Result:\nok" }) },
      { ts: 17, type: 'say', say: 'completion_result', text: 'done' },
    ].map((l) => JSON.stringify(l)).join('\n');
    const r = checkText(lines + '\n', { fileName: 'run.jsonl', keepModel: true, packs: false });
    assert.equal(r.format, 'cline');
    const s = r.model?.[0]?.session;
    assert.ok(s);
    assert.deepEqual(s.calls.map((c) => [c.name, c.args]), [['read_file', { tool: 'readFile', path: 'a.md' }], ['execute_command', 'npm test']]);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.payload]), [[0, '# A'], [1, 'ok 1']], 'the first output chunk answers the command');
    assert.deepEqual(r.findings.filter((f) => f.severity !== 'info').map((f) => f.code), []);
  });
});
