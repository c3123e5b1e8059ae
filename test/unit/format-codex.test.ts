// Codex CLI rollouts, 0.40 and later: free-form custom tools, local_shell_call, hosted web search, turn_context
// boundaries, transport from events (exec, MCP, patch) and from the output's header, sanitised placeholders.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonl, readTrace } from './helpers';

let clock = 0;
const rec = (type: string, payload: object) => ({ timestamp: `2026-01-01T00:00:${String(clock++ % 60).padStart(2, '0')}.000Z`, type, payload });
const item = (payload: object) => rec('response_item', payload);
function read(text: string) {
  const { r, sessions } = readTrace(text, { fileName: 'rollout.jsonl', packs: false });
  return { r, s: sessions[0] };
}

const fn = (name: string, args: string, id: string) => item({ type: 'function_call', name, arguments: args, call_id: id });
const out = (id: string, output: unknown) => item({ type: 'function_call_output', call_id: id, output });

describe('codex rollouts', () => {
  it('reads custom, local shell and web search calls, with turns bounded by turn_context', () => {
    const text = jsonl(
      rec('session_meta', { id: 'sess-1', cli_version: '0.50.0' }),
      rec('turn_context', { cwd: '/w', model: 'gpt-5' }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }], phase: 'commentary' }),
      fn('exec_command', '{"cmd":"ls"}', 'c1'),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'And a search.' }] }),
      item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'codex' } }),
      out('c1', 'a\nb'),
      rec('turn_context', { cwd: '/w', model: 'gpt-5' }),
      item({ type: 'custom_tool_call', status: 'completed', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' }),
      item({ type: 'custom_tool_call_output', call_id: 'c2', output: '{"output":"Done!","metadata":{"exit_code":0}}' }),
      rec('turn_context', { cwd: '/w', model: 'gpt-5' }),
      item({ type: 'local_shell_call', call_id: 'c3', status: 'completed', action: { type: 'exec', command: ['git', 'status'] } }),
      out('c3', 'Exit code: 128\nWall time: 0.1 seconds\nOutput:\nfatal: not a git repository'),
      rec('compacted', { message: 'summary', replacement_history: [{ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'c1' }] }),
    );
    const { r, s } = read(text);
    assert.equal(r.format, 'codex');
    assert.equal(s.id, 'sess-1');
    assert.deepEqual(s.calls.map((c) => [c.name, c.turn, c.encoding]), [
      ['exec_command', 1, 'json-string'], ['web_search', 1, 'object'], ['apply_patch', 2, 'freeform'], ['local_shell_call', 3, 'object'],
    ], 'the commentary between calls of one response is no boundary; the compacted copy is not read again');
    assert.deepEqual(s.calls[1].args, { type: 'search', query: 'codex' });
    assert.deepEqual(s.results.map((x) => [x.callId ?? x.callIndex, x.transport]), [
      [1, { isError: false }], ['c1', {}], ['c2', { exitCode: 0 }], ['c3', { exitCode: 128 }],
    ], 'the web search answers itself; exit codes from metadata and from the output header');
    assert.deepEqual(r.findings.filter((f) => f.code === 'orphan-call' || f.code === 'orphan-result'), []);
  });

  it('takes transport from exec, MCP and patch events, before or after the output', () => {
    const text = jsonl(
      rec('session_meta', { id: 'sess-2' }),
      fn('exec_command', '{"cmd":"false"}', 'e1'),
      rec('event_msg', { type: 'exec_command_end', call_id: 'e1', exit_code: 1 }),
      out('e1', 'Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 1\nOutput:\n'),
      fn('mcp__docs__search', '{"q":"x"}', 'm1'),
      out('m1', '[{"type":"text","text":"Error: index offline"}]'),
      rec('event_msg', { type: 'mcp_tool_call_end', call_id: 'm1', invocation: { server: 'docs', tool: 'search' }, result: { Ok: { content: [], isError: true } } }),
      fn('mcp__docs__search', '{"q":"y"}', 'm2'),
      rec('event_msg', { type: 'mcp_tool_call_end', call_id: 'm2', result: { Err: 'timed out' } }),
      out('m2', 'err: timed out'),
      item({ type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' }),
      item({ type: 'custom_tool_call_output', call_id: 'p1', output: 'patch rejected' }),
      rec('event_msg', { type: 'patch_apply_end', call_id: 'p1', success: false, stdout: '', stderr: 'rejected' }),
    );
    const { s, r } = read(text);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport]), [
      ['e1', { exitCode: 1 }], ['m1', { isError: true }], ['m2', { isError: true }], ['p1', { isError: true }],
    ]);
    assert.deepEqual(r.findings.filter((f) => f.code === 'status-theater'), [], 'honest failures, whichever came first');
  });

  it('keeps a sanitiser\'s placeholder arguments as text: no arguments-encoding fault', () => {
    const text = jsonl(
      rec('session_meta', { id: 'sess-3' }),
      fn('exec_command', '[REDACTED_ARGUMENTS len=46 sha=4cb9a2fc]', 'r1'),
      out('r1', '[REDACTED_OUTPUT len=10 sha=00ff00ff]'),
      fn('exec_command', '{"cmd": ', 'r2'),
      out('r2', 'x'),
    );
    const { s, r } = read(text);
    assert.deepEqual(s.calls.map((c) => c.encoding), ['freeform', 'invalid'], 'only real JSON that does not parse is a fault');
    assert.deepEqual(r.findings.filter((f) => f.code === 'arguments-encoding').map((f) => f.callId), ['r2']);
  });
});
