// Every cross-call rule in every format, for the chat-family readers: OpenAI Chat, OpenAI Responses, streams
// (Chat chunks, Responses events, Anthropic events), Anthropic Messages, HTTP cassettes, plain call records and
// Anthropic Managed Agents recordings. Each test pins one rule in one format on a small hand-written trace:
// pairing through each link key the format has, orphans both ways, an id reused three times, status theater
// where the format keeps an error signal (and honest failures never being theater), and copies read once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, type CheckOptions, type Session } from '../../src/core';

function read(text: string, fileName: string, options: CheckOptions = {}) {
  const r = checkText(text, { fileName, keepModel: true, packs: false, ...options });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const codes = r.findings.map((f) => `${f.code}${f.severity === 'info' ? '(info)' : ''} ${f.tool ?? ''}`.trim());
  /** The findings of the cross-call rules only (no-contract and the per-call checks are left out). */
  const rules = codes.filter((c) => /^(orphan-call|orphan-result|duplicate-call-id|duplicate-fingerprint|status-theater)/.test(c));
  return { r, sessions, codes, rules };
}

const doc = (v: unknown) => JSON.stringify(v, null, 2);
const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** Which call each result answers, by call index (pairing by id, else by the index the reader gave it). */
function answered(s: Session): (string | undefined)[] {
  return s.results.map((r) => {
    const i = r.callId !== undefined ? s.calls.findIndex((c) => c.id === r.callId) : r.callIndex ?? -1;
    return i >= 0 ? `${s.calls[i].name}#${i}` : undefined;
  });
}

// ---- OpenAI Chat ------------------------------------------------------------------------------------------

const user = (content: string) => ({ role: 'user', content });
const chatCall = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const assistantCalls = (...calls: unknown[]) => ({ role: 'assistant', content: null, tool_calls: calls });
const tool = (id: string, content: string) => ({ role: 'tool', tool_call_id: id, content });

describe('openai-chat: every rule', () => {
  it('pairing: tool messages by tool_call_id, in any order', () => {
    const { r, sessions: [s], rules } = read(doc({ messages: [
      user('weather and time?'),
      assistantCalls(chatCall('call_a', 'get_weather', { city: 'Oslo' }), chatCall('call_b', 'get_time', { tz: 'CET' })),
      tool('call_b', '12:00'), tool('call_a', 'sunny'),
      { role: 'assistant', content: 'Sunny, noon.' },
    ] }), 'chat.json');
    assert.equal(r.format, 'openai-chat');
    assert.deepEqual(answered(s), ['get_time#1', 'get_weather#0']);
    assert.deepEqual(rules, []);
  });

  it('pairing: the legacy function role answers the earliest unanswered call of its name', () => {
    const { sessions: [s], rules } = read(doc({ messages: [
      user('two things'),
      { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      { role: 'assistant', content: null, function_call: { name: 'get_time', arguments: '{"tz":"CET"}' } },
      { role: 'function', name: 'get_time', content: '12:00' },
      { role: 'function', name: 'get_weather', content: 'sunny' },
      { role: 'assistant', content: 'done' },
    ] }), 'legacy.json');
    assert.deepEqual(answered(s), ['get_time#1', 'get_weather#0']);
    assert.deepEqual(rules, [], 'each function message answers its own call: no orphan either way');
  });

  it('pairing: a tool message without tool_call_id but with the tool name is paired by name', () => {
    const { sessions: [s], rules } = read(doc({ messages: [
      user('x'),
      assistantCalls(chatCall('call_a', 'lookup', { q: 1 }), chatCall('call_b', 'fetch', { u: 'x' })),
      { role: 'tool', name: 'fetch', content: 'page' },
      { role: 'tool', name: 'lookup', content: 'hit' },
      { role: 'assistant', content: 'ok' },
    ] }), 'named-tool.json');
    assert.deepEqual(answered(s), ['fetch#1', 'lookup#0']);
    assert.deepEqual(rules, []);
  });

  it('orphan-call: a call no tool message answers while the conversation went on', () => {
    const { rules } = read(doc({ messages: [
      user('x'), assistantCalls(chatCall('call_a', 'lookup', { q: 1 }), chatCall('call_b', 'fetch', { u: 'x' })),
      tool('call_a', 'hit'), { role: 'assistant', content: 'I only looked it up.' }, user('and the page?'),
    ] }), 'orphan-call.json');
    assert.deepEqual(rules, ['orphan-call fetch']);
  });

  it('orphan-result: a tool message whose tool_call_id matches no call', () => {
    const { rules } = read(doc({ messages: [
      user('x'), assistantCalls(chatCall('call_a', 'lookup', { q: 1 })), tool('call_a', 'hit'), tool('call_zz', 'spliced'),
    ] }), 'orphan-result.json');
    assert.deepEqual(rules, ['orphan-result']);
  });

  it('duplicate-call-id: one id used by three different calls is reported for each reuse', () => {
    const { rules } = read(doc({ messages: [
      user('x'),
      assistantCalls(chatCall('call_1', 'lookup', { q: 1 })), tool('call_1', 'a'),
      assistantCalls(chatCall('call_1', 'lookup', { q: 2 })), tool('call_1', 'b'),
      assistantCalls(chatCall('call_1', 'fetch', { u: 'x' })), tool('call_1', 'c'),
    ] }), 'dup-id.json');
    assert.deepEqual(rules, ['duplicate-call-id lookup', 'duplicate-call-id fetch']);
  });

  it('duplicate-fingerprint: the same call again in a later turn; an echo of one call (same id) is not a repeat', () => {
    const repeat = read(doc({ messages: [
      user('x'), assistantCalls(chatCall('call_1', 'lookup', { q: 1 })), tool('call_1', 'a'),
      assistantCalls(chatCall('call_2', 'lookup', { q: 1 })), tool('call_2', 'a'),
    ] }), 'repeat.json');
    assert.deepEqual(repeat.rules, ['duplicate-fingerprint lookup']);
    // a log that wrote the assistant message twice: one call, not a repeat and not a reused id
    const echo = read(jsonl(user('x'), assistantCalls(chatCall('call_1', 'lookup', { q: 1 })), assistantCalls(chatCall('call_1', 'lookup', { q: 1 })), tool('call_1', 'a')), 'echo.jsonl');
    assert.equal(echo.r.format, 'openai-chat');
    assert.deepEqual(echo.rules, []);
  });

  it('status-theater: no error flag in Chat, so only envelope faults and an MCP result\'s own isError count', () => {
    const { rules } = read(doc({ messages: [
      user('x'),
      assistantCalls(chatCall('c1', 'a', {}), chatCall('c2', 'b', {}), chatCall('c3', 'c', {}), chatCall('c4', 'd', {})),
      tool('c1', '{"ok": false, "error": "locked"}'), // an envelope without result: malformed
      tool('c2', '{"ok": false, "error": "locked", "result": null}'), // an honest envelope; no flag says success
      tool('c3', '{"content": [{"type": "text", "text": "Error: disk full"}], "isError": false}'), // MCP says success
      tool('c4', '{"content": [{"type": "text", "text": "Error: disk full"}], "isError": true}'), // MCP honest failure
      { role: 'assistant', content: 'done' },
    ] }), 'theater.json');
    assert.deepEqual(rules, ['status-theater a', 'status-theater c']);
  });

  it('copies: a log of the request and its response reads the messages, then the choice, each once', () => {
    const { sessions: [s], rules } = read(doc({
      messages: [user('x'), assistantCalls(chatCall('call_1', 'lookup', { q: 1 })), tool('call_1', 'hit')],
      choices: [{ index: 0, message: assistantCalls(chatCall('call_2', 'fetch', { u: 'hit' })), finish_reason: 'tool_calls' }],
    }), 'log.json');
    assert.deepEqual(s.calls.map((c) => `${c.name} ${c.id} t${c.turn}`), ['lookup call_1 t1', 'fetch call_2 t2']);
    assert.deepEqual(answered(s), ['lookup#0']);
    assert.deepEqual(rules, ['orphan-call(info) fetch'], 'the response\'s own call awaits its result: the trace ends there');
  });

  it('a custom tool call (type "custom") is a call of free-form text, declared by a custom tool definition', () => {
    const { sessions: [s], codes } = read(doc({
      tools: [{ type: 'custom', custom: { name: 'apply_patch', format: { type: 'grammar' } } }],
      messages: [user('patch it'), assistantCalls({ id: 'call_p', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' } }), tool('call_p', 'applied')],
    }), 'custom.json');
    assert.deepEqual(s.calls.map((c) => [c.name, c.encoding]), [['apply_patch', 'freeform']]);
    assert.deepEqual(codes, []);
  });
});

// ---- OpenAI Responses -------------------------------------------------------------------------------------

const fc = (callId: string, name: string, args: unknown, id?: string) => ({ type: 'function_call', ...(id ? { id } : {}), call_id: callId, name, arguments: JSON.stringify(args) });
const fco = (callId: string, output: unknown) => ({ type: 'function_call_output', call_id: callId, output });
const umsg = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('openai-responses: every rule', () => {
  it('pairing: call_id links every call kind to its output (local shell outputs by their id too)', () => {
    const { r, sessions: [s], rules } = read(doc({ input: [
      umsg('go'),
      fc('c_fn', 'lookup', { q: 1 }),
      { type: 'custom_tool_call', call_id: 'c_custom', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'local_shell_call', id: 'lsh_1', call_id: 'c_local', action: { type: 'exec', command: ['ls'] }, status: 'completed' },
      { type: 'shell_call', call_id: 'c_shell', action: { commands: ['pwd'] }, status: 'completed' },
      { type: 'apply_patch_call', call_id: 'c_patch', operation: { type: 'update_file', path: 'a.txt', diff: '@@' }, status: 'completed' },
      { type: 'computer_call', call_id: 'c_computer', action: { type: 'click', x: 1, y: 2 }, status: 'completed' },
      fco('c_fn', 'hit'),
      { type: 'custom_tool_call_output', call_id: 'c_custom', output: 'done' },
      { type: 'local_shell_call_output', id: 'c_local', output: 'a.txt' },
      { type: 'shell_call_output', call_id: 'c_shell', output: [{ stdout: '/w', stderr: '', outcome: { type: 'exit', exit_code: 0 } }] },
      { type: 'apply_patch_call_output', call_id: 'c_patch', status: 'completed', output: 'patched' },
      { type: 'computer_call_output', call_id: 'c_computer', output: { type: 'computer_screenshot', image_url: 'data:,' } },
    ] }), 'responses.json');
    assert.equal(r.format, 'openai-responses');
    assert.deepEqual(s.calls.map((c) => c.name), ['lookup', 'apply_patch', 'local_shell_call', 'shell', 'apply_patch', 'computer_call']);
    assert.deepEqual(answered(s), ['lookup#0', 'apply_patch#1', 'local_shell_call#2', 'shell#3', 'apply_patch#4', 'computer_call#5']);
    assert.deepEqual(rules, []);
  });

  it('pairing: an mcp_call run after an approval request answers that request (one call); a refusal is an honest failure', () => {
    const args = '{"q":"news"}';
    const approved = read(doc({ object: 'response', output: [
      { id: 'mcpr_1', type: 'mcp_approval_request', name: 'search', arguments: args, server_label: 'exa' },
      { id: 'mcp_1', type: 'mcp_call', approval_request_id: 'mcpr_1', name: 'search', arguments: args, output: 'results', error: null, status: 'completed', server_label: 'exa' },
    ], tools: [{ type: 'mcp', server_label: 'exa', server_url: 'https://mcp.example' }] }), 'approved.json');
    const [s] = approved.sessions;
    assert.deepEqual(s.calls.map((c) => `${c.name} ${c.id}`), ['search mcpr_1']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['mcpr_1', false]]);
    assert.deepEqual(approved.codes, [], 'the server\'s tools[] entry declares the tool the call names');
    const refused = read(doc({ input: [
      { id: 'mcpr_2', type: 'mcp_approval_request', name: 'delete_all', arguments: '{}', server_label: 'fs' },
      { type: 'mcp_approval_response', approval_request_id: 'mcpr_2', approve: false, reason: 'no' },
      umsg('ok then'),
    ] }), 'refused.json');
    assert.deepEqual(refused.sessions[0].results.map((x) => [x.callId, x.transport.isError]), [['mcpr_2', true]]);
    assert.deepEqual(refused.rules, [], 'a refused call is answered (honestly failed), not an orphan');
  });

  it('orphan-call: a function_call with no output while the conversation went on', () => {
    const { rules } = read(doc({ input: [umsg('x'), fc('c1', 'lookup', { q: 1 }), fc('c2', 'fetch', { u: 'x' }), fco('c1', 'hit'), umsg('and?')] }), 'oc.json');
    assert.deepEqual(rules, ['orphan-call fetch']);
  });

  it('orphan-result: an output whose call_id matches no call', () => {
    const { rules } = read(doc({ input: [umsg('x'), fc('c1', 'lookup', { q: 1 }), fco('c1', 'hit'), fco('c_gone', 'spliced')] }), 'or.json');
    assert.deepEqual(rules, ['orphan-result']);
  });

  it('duplicate-call-id: three different calls under one call_id (distinct items) are two reuses', () => {
    const { rules } = read(doc({ input: [
      umsg('x'), fc('c1', 'lookup', { q: 1 }, 'fc_a'), fco('c1', 'a'), fc('c1', 'lookup', { q: 2 }, 'fc_b'), fco('c1', 'b'),
      fc('c1', 'fetch', { u: 1 }, 'fc_c'), fco('c1', 'c'),
    ] }), 'dup.json');
    assert.deepEqual(rules, ['duplicate-call-id lookup', 'duplicate-call-id fetch']);
  });

  it('duplicate-fingerprint: the same call again after its output; a hosted web search repeated too', () => {
    const { rules } = read(doc({ input: [
      umsg('x'), fc('c1', 'lookup', { q: 1 }), fco('c1', 'a'), fc('c2', 'lookup', { q: 1 }), fco('c2', 'a'),
      { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'oslo' } },
      { id: 'ws_2', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'oslo' } },
    ] }), 'fp.json');
    assert.deepEqual(rules, ['duplicate-fingerprint lookup', 'duplicate-fingerprint web_search']);
  });

  it('status-theater: status "completed" or an MCP call\'s null error says success; failed, incomplete, an error or a timeout are honest', () => {
    const { sessions: [s], rules } = read(doc({ input: [
      umsg('x'),
      { id: 'mcp_ok', type: 'mcp_call', name: 'm1', arguments: '{}', output: 'Error: quota exceeded', error: null, status: 'completed', server_label: 's' },
      { id: 'mcp_err', type: 'mcp_call', name: 'm2', arguments: '{}', output: null, error: { message: 'boom' }, status: 'failed', server_label: 's' },
      { type: 'apply_patch_call', call_id: 'p1', operation: { type: 'delete_file', path: 'a' } },
      { type: 'apply_patch_call_output', call_id: 'p1', status: 'completed', output: 'Error: no such file' },
      { type: 'apply_patch_call', call_id: 'p2', operation: { type: 'delete_file', path: 'b' } },
      { type: 'apply_patch_call_output', call_id: 'p2', status: 'failed', output: 'Error: no such file' },
      { type: 'shell_call', call_id: 's1', action: { commands: ['sleep 99'] } },
      { type: 'shell_call_output', call_id: 's1', output: [{ stdout: '', stderr: '', outcome: { type: 'timeout' } }] },
      { type: 'shell_call', call_id: 's2', action: { commands: ['false'] } },
      { type: 'shell_call_output', call_id: 's2', output: [{ stdout: '', stderr: 'Error: x', outcome: { type: 'exit', exit_code: 1 } }] },
      fc('f1', 'lookup', { q: 1 }), { ...fco('f1', 'Error: not found'), status: 'incomplete' },
    ] }), 'theater.json');
    assert.deepEqual(s.results.map((x) => x.transport), [
      { isError: false }, { isError: true }, { isError: false }, { isError: true }, { isError: true }, { exitCode: 1 }, { isError: true },
    ]);
    assert.deepEqual(rules, ['status-theater m1', 'status-theater apply_patch']);
  });

  it('copies: an item met again (same type and id), or an output repeated verbatim, is read once', () => {
    const call = fc('c1', 'lookup', { q: 1 }, 'fc_1');
    const { r, sessions: [s], rules } = read(jsonl(umsg('x'), call, fco('c1', 'hit'), umsg('y'), call, fco('c1', 'hit'), fco('c1', 'other')), 'items.jsonl');
    assert.equal(r.format, 'openai-responses');
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.results.map((x) => x.payload), ['hit', 'other']);
    assert.deepEqual(rules, []);
  });

  it('declared built-ins are definitions: a local shell call is no unknown tool where function tools are declared', () => {
    const { codes } = read(doc({ object: 'response', output: [
      { id: 'lsh_1', type: 'local_shell_call', call_id: 'c1', action: { type: 'exec', command: ['ls'] }, status: 'completed' },
    ], tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }, { type: 'local_shell' }] }), 'builtins.json');
    assert.deepEqual(codes, []);
  });
});

// ---- streams ----------------------------------------------------------------------------------------------

const chunk = (id: string, delta: unknown, finish: string | null = null) => ({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
const tcDelta = (index: number, fields: { id?: string; name?: string; args?: string }) =>
  ({ tool_calls: [{ index, ...(fields.id !== undefined ? { id: fields.id } : {}), function: { ...(fields.name !== undefined ? { name: fields.name } : {}), ...(fields.args !== undefined ? { arguments: fields.args } : {}) } }] });

describe('stream (Chat chunks): copies and ids', () => {
  it('copies: a final chunk that repeats the completed call is not a second call', () => {
    const { sessions: [s] } = read(jsonl(
      chunk('r1', { role: 'assistant', content: null }),
      chunk('r1', tcDelta(0, { id: 'call_1', name: 'lookup', args: '' })),
      chunk('r1', tcDelta(0, { args: '{"q":' })), chunk('r1', tcDelta(0, { args: '1}' })),
      chunk('r1', {}, 'tool_calls'),
      chunk('r1', tcDelta(0, { id: 'call_1', name: 'lookup', args: '{"q":1}' }), 'tool_calls'),
    ), 'repeat.jsonl');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.encoding, c.args]), [['lookup', 'call_1', 'json-string', { q: 1 }]]);
  });

  it('copies: the whole arguments resent before the finish, or resent cumulatively, are read once', () => {
    const whole = read(jsonl(
      chunk('r1', tcDelta(0, { id: 'call_1', name: 'lookup', args: '{"q":1}' })),
      chunk('r1', tcDelta(0, { args: '{"q":1}' }), 'tool_calls'),
    ), 'whole.jsonl').sessions[0];
    assert.deepEqual(whole.calls.map((c) => [c.encoding, c.args]), [['json-string', { q: 1 }]]);
    const cumulative = read(jsonl(
      chunk('r1', tcDelta(0, { id: 'call_1', name: 'lookup', args: '{"q"' })),
      chunk('r1', tcDelta(0, { args: '{"q":1' })), chunk('r1', tcDelta(0, { args: '{"q":12}' }), 'tool_calls'),
    ), 'cumulative.jsonl').sessions[0];
    assert.deepEqual(cumulative.calls.map((c) => [c.encoding, c.args]), [['json-string', { q: 12 }]]);
  });

  it('a new id under an index already used is another call (providers that put every call at index 0)', () => {
    const { sessions: [s] } = read(jsonl(
      chunk('r1', tcDelta(0, { id: 'call_1', name: 'lookup', args: '{"q":1}' })),
      chunk('r1', tcDelta(0, { id: 'call_2', name: 'fetch', args: '{"u":"x"}' }), 'tool_calls'),
    ), 'index0.jsonl');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.args]), [['lookup', 'call_1', { q: 1 }], ['fetch', 'call_2', { u: 'x' }]]);
  });

  it('duplicate-call-id: one id under three different calls of a stream', () => {
    const { rules } = read(jsonl(
      chunk('r1', { tool_calls: [
        { index: 0, id: 'call_1', function: { name: 'lookup', arguments: '{"q":1}' } },
        { index: 1, id: 'call_1', function: { name: 'lookup', arguments: '{"q":2}' } },
        { index: 2, id: 'call_1', function: { name: 'fetch', arguments: '{}' } },
      ] }, 'tool_calls'),
    ), 'dup.jsonl');
    assert.deepEqual(rules, ['duplicate-call-id lookup', 'duplicate-call-id fetch']);
  });

  it('duplicate-fingerprint: the same call in two streamed responses; a response streamed again is an echo, no repeat', () => {
    const response = (id: string, callId: string) => [
      chunk(id, { role: 'assistant', content: null }), chunk(id, tcDelta(0, { id: callId, name: 'lookup', args: '{"q":1}' })), chunk(id, {}, 'tool_calls'),
    ];
    const twice = read(jsonl(...response('r1', 'call_1'), ...response('r2', 'call_2')), 'twice.jsonl');
    assert.deepEqual(twice.sessions[0].calls.map((c) => c.turn), [1, 2], 'each response is a turn of its own');
    assert.deepEqual(twice.rules, ['duplicate-fingerprint lookup']);
    // the same response (same call id and arguments) recorded twice: pairing sees one call echoed
    const resent = read(jsonl(...response('r1', 'call_1'), ...response('r1', 'call_1')), 'resent.jsonl');
    assert.deepEqual(resent.rules, []);
  });
});

const ev = (type: string, seq: number, rest: Record<string, unknown>) => ({ type, sequence_number: seq, ...rest });

describe('stream (Responses events): copies, hosted results, definitions', () => {
  it('copies: output_item.added + deltas + output_item.done + response.completed carry one call', () => {
    const item = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}', status: 'completed' };
    const { sessions: [s], codes } = read(jsonl(
      ev('response.created', 0, { response: { id: 'resp_1', object: 'response', output: [], tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'integer' } } } }] } }),
      ev('response.output_item.added', 1, { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } }),
      ev('response.function_call_arguments.delta', 2, { item_id: 'fc_1', output_index: 0, delta: '{"q":' }),
      ev('response.function_call_arguments.delta', 3, { item_id: 'fc_1', output_index: 0, delta: '1}' }),
      ev('response.function_call_arguments.done', 4, { item_id: 'fc_1', output_index: 0, arguments: '{"q":1}' }),
      ev('response.output_item.done', 5, { output_index: 0, item }),
      ev('response.completed', 6, { response: { id: 'resp_1', object: 'response', output: [item] } }),
    ), 'stream.jsonl');
    assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.args]), [['lookup', 'call_1', { q: 1 }]]);
    assert.deepEqual(s.tools.map((t) => t.name), ['lookup'], 'response.created carries the definitions');
    assert.deepEqual(codes, []);
  });

  it('pairing and theater: an mcp_call streamed whole is its own result, read once from done and completed', () => {
    const item = { id: 'mcp_1', type: 'mcp_call', name: 'search', arguments: '{}', output: 'Error: rate limited', error: null, status: 'completed', server_label: 's' };
    const { sessions: [s], rules } = read(jsonl(
      ev('response.output_item.done', 1, { output_index: 0, item }),
      ev('response.completed', 2, { response: { id: 'resp_1', object: 'response', output: [item] } }),
    ), 'mcp-stream.jsonl');
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['mcp_1', false]]);
    assert.deepEqual(rules, ['status-theater search']);
  });

  it('a cut-off stream still has its call; a custom tool\'s streamed input is free-form', () => {
    const { sessions: [s] } = read(jsonl(
      ev('response.output_item.added', 1, { output_index: 0, item: { id: 'ctc_1', type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: '' } }),
      ev('response.custom_tool_call_input.delta', 2, { item_id: 'ctc_1', output_index: 0, delta: '*** Begin' }),
      ev('response.custom_tool_call_input.delta', 3, { item_id: 'ctc_1', output_index: 0, delta: ' Patch' }),
    ), 'cut.jsonl');
    assert.deepEqual(s.calls.map((c) => [c.name, c.encoding, c.args]), [['apply_patch', 'freeform', '*** Begin Patch']]);
  });
});

const block = (index: number, content_block: unknown) => ({ type: 'content_block_start', index, content_block });
const stop = (index: number) => ({ type: 'content_block_stop', index });

describe('stream (Anthropic events): server results, ids', () => {
  it('pairing: a server tool\'s result block streamed whole answers its server_tool_use; an *_error content is an honest failure', () => {
    const { sessions: [s], rules } = read(jsonl(
      { type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [] } },
      block(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_fetch', input: {} }),
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"url":"https://x"}' } }, stop(0),
      block(1, { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' } }), stop(1),
      block(2, { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', input: {}, server_name: 'e' }),
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"m":"hi"}' } }, stop(2),
      block(3, { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'Error: echo failed' }] }), stop(3),
      { type: 'message_stop' },
    ), 'anthropic-stream.jsonl');
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['srvtoolu_1', true], ['mcptoolu_1', false]]);
    assert.deepEqual(rules, ['status-theater echo'], 'the fetch failed honestly; the MCP result says success around an error');
  });

  it('duplicate-call-id in one streamed message; a server result whose call is not in it answers an earlier response', () => {
    const use = (i: number, name: string, input: unknown) => [block(i, { type: 'tool_use', id: 'toolu_1', name, input }), stop(i)];
    const { rules } = read(jsonl(
      { type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [] } },
      ...use(0, 'lookup', { q: 1 }), ...use(1, 'lookup', { q: 2 }), ...use(2, 'fetch', {}),
      block(3, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_gone', content: [] }), stop(3),
    ), 'ids.jsonl');
    // the session has a result, so the three calls awaiting theirs at the end of the trace are info; a response
    // continued after `pause_turn` may carry the result of a server call the paused response made: no orphan
    assert.deepEqual(rules, ['orphan-call(info) lookup', 'orphan-call(info) lookup', 'duplicate-call-id lookup', 'orphan-call(info) fetch',
      'duplicate-call-id fetch']);
  });
});

// ---- Anthropic Messages -----------------------------------------------------------------------------------

const use = (id: string, name: string, input: unknown, type = 'tool_use') => ({ type, id, name, input });
const result = (id: string, content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'tool_result', tool_use_id: id, content, ...extra });
const said = (role: string, content: unknown) => ({ role, content });

describe('anthropic: every rule', () => {
  it('pairing: tool_use_id links tool_result, mcp_tool_result and every server *_tool_result', () => {
    const { r, sessions: [s], rules } = read(doc({ messages: [
      said('user', 'go'),
      said('assistant', [
        use('srvtoolu_1', 'web_search', { query: 'x' }, 'server_tool_use'),
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://x', title: 'x' }] },
        use('srvtoolu_2', 'bash_code_execution', { command: 'ls' }, 'server_tool_use'),
        { type: 'bash_code_execution_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'bash_code_execution_result', stdout: 'a', stderr: '', return_code: 0 } },
        use('mcptoolu_1', 'echo', { m: 'hi' }, 'mcp_tool_use'),
        { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'hi' }] },
        use('toolu_1', 'lookup', { q: 1 }),
      ]),
      said('user', [result('toolu_1', 'hit')]),
      said('assistant', 'done'),
    ] }), 'anthropic.json');
    assert.equal(r.format, 'anthropic');
    assert.deepEqual(answered(s), ['web_search#0', 'bash_code_execution#1', 'echo#2', 'lookup#3']);
    assert.deepEqual(s.results.map((x) => x.transport), [{ isError: false }, { isError: false, exitCode: 0 }, { isError: false }, {}]);
    assert.deepEqual(rules, []);
  });

  it('orphan-call and orphan-result', () => {
    const { rules } = read(doc({ messages: [
      said('user', 'go'), said('assistant', [use('toolu_1', 'lookup', { q: 1 }), use('toolu_2', 'fetch', { u: 'x' })]),
      said('user', [result('toolu_1', 'hit'), result('toolu_gone', 'spliced')]), said('assistant', 'done'),
    ] }), 'orphans.json');
    assert.deepEqual(rules, ['orphan-call fetch', 'orphan-result']);
  });

  it('duplicate-call-id: one tool_use id on three different calls', () => {
    const { rules } = read(doc({ messages: [
      said('user', 'go'),
      said('assistant', [use('toolu_1', 'lookup', { q: 1 })]), said('user', [result('toolu_1', 'a')]),
      said('assistant', [use('toolu_1', 'lookup', { q: 2 })]), said('user', [result('toolu_1', 'b')]),
      said('assistant', [use('toolu_1', 'fetch', {})]), said('user', [result('toolu_1', 'c')]),
    ] }), 'dup.json');
    assert.deepEqual(rules, ['duplicate-call-id lookup', 'duplicate-call-id fetch']);
  });

  it('duplicate-fingerprint: the same server search again after its result came back (in the same message)', () => {
    const search = (id: string) => [use(id, 'web_search', { query: 'x' }, 'server_tool_use'), { type: 'web_search_tool_result', tool_use_id: id, content: [] }];
    const { rules } = read(doc({ messages: [said('user', 'go'), said('assistant', [...search('s1'), { type: 'text', text: 'again' }, ...search('s2')])] }), 'fp.json');
    assert.deepEqual(rules, ['duplicate-fingerprint web_search']);
  });

  it('status-theater: is_error absent or false around an error body; is_error true and *_tool_result_error are honest', () => {
    const { sessions: [s], rules } = read(doc({ messages: [
      said('user', 'go'),
      said('assistant', [
        use('t1', 'a', {}), use('t2', 'b', {}), use('t3', 'c', {}),
        use('s1', 'web_fetch', { url: 'https://x' }, 'server_tool_use'),
        { type: 'web_fetch_tool_result', tool_use_id: 's1', content: { type: 'web_fetch_tool_result_error', error_code: 'unavailable' } },
        use('s2', 'code_execution', { code: 'x' }, 'server_tool_use'),
        { type: 'code_execution_tool_result', tool_use_id: 's2', content: { type: 'code_execution_result', stdout: '', stderr: 'Traceback', return_code: 1 } },
      ]),
      said('user', [
        result('t1', 'Error: no such room'),
        result('t2', [{ type: 'text', text: '{"ok": true, "error": "stale", "result": 1}' }], { is_error: false }),
        result('t3', 'Error: no such room', { is_error: true }),
      ]),
      said('assistant', 'done'),
    ] }), 'theater.json');
    assert.deepEqual(s.results.map((x) => x.transport), [{ isError: true }, { isError: false, exitCode: 1 }, {}, { isError: false }, { isError: true }]);
    assert.deepEqual(rules, ['status-theater a', 'status-theater b']);
  });

  it('server tools declared by type (and MCP servers by name) are definitions: no unknown tool beside an input_schema tool', () => {
    const { codes } = read(doc({
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }, { type: 'web_search_20250305', name: 'web_search' }, { type: 'code_execution_20250825', name: 'code_execution' }],
      mcp_servers: [{ type: 'url', name: 'echo', url: 'https://mcp.example' }],
      messages: [said('user', 'go'), said('assistant', [
        use('s1', 'web_search', { query: 'x' }, 'server_tool_use'), { type: 'web_search_tool_result', tool_use_id: 's1', content: [] },
        use('s2', 'bash_code_execution', { command: 'ls' }, 'server_tool_use'),
        { type: 'bash_code_execution_tool_result', tool_use_id: 's2', content: { type: 'bash_code_execution_result', stdout: '', stderr: '', return_code: 0 } },
        { ...use('m1', 'echo', { m: 1 }, 'mcp_tool_use'), server_name: 'echo' }, { type: 'mcp_tool_result', tool_use_id: 'm1', is_error: false, content: [] },
        use('o1', 'invented', {}),
      ])],
    }), 'declared.json');
    assert.deepEqual(codes.filter((c) => c.startsWith('unknown-tool')), ['unknown-tool invented']);
  });
});

// ---- HTTP cassettes ---------------------------------------------------------------------------------------

const cassette = (body: string) => doc({ status: 200, headers: { 'content-type': 'application/json' }, body });
const sse = (...events: unknown[]) => events.map((e) => `event: x\ndata: ${JSON.stringify(e)}\n\n`).join('');

describe('http-cassette: the rules through a recorded body', () => {
  it('pairing and theater in a JSON body: an Anthropic response\'s server results', () => {
    const { r, sessions: [s], rules } = read(cassette(JSON.stringify({ type: 'message', role: 'assistant', content: [
      use('m1', 'echo', { m: 1 }, 'mcp_tool_use'), { type: 'mcp_tool_result', tool_use_id: 'm1', is_error: false, content: [{ type: 'text', text: 'Error: refused' }] },
      use('s1', 'web_fetch', { url: 'x' }, 'server_tool_use'), { type: 'web_fetch_tool_result', tool_use_id: 's1', content: { type: 'web_fetch_tool_result_error', error_code: 'too_many_requests' } },
    ] })), 'cassette.json');
    assert.equal(r.format, 'http-cassette');
    assert.deepEqual(answered(s), ['echo#0', 'web_fetch#1']);
    assert.deepEqual(rules, ['status-theater echo']);
  });

  it('duplicate-call-id in a JSON body; its server result without a call answers an earlier response', () => {
    const { rules } = read(cassette(JSON.stringify({ type: 'message', role: 'assistant', content: [
      use('t1', 'lookup', { q: 1 }), use('t1', 'lookup', { q: 2 }), use('t1', 'fetch', {}),
      { type: 'web_search_tool_result', tool_use_id: 'gone', content: [] },
    ] })), 'ids.json');
    assert.deepEqual(rules, ['orphan-call(info) lookup', 'orphan-call(info) lookup', 'duplicate-call-id lookup', 'orphan-call(info) fetch',
      'duplicate-call-id fetch']);
  });

  it('copies in an SSE body: a Responses stream\'s done event and final response are one call; a server result pairs', () => {
    const item = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}' };
    const responses = read(cassette(sse(
      ev('response.output_item.done', 1, { output_index: 0, item }),
      ev('response.completed', 2, { response: { id: 'resp_1', output: [item] } }),
    )), 'responses-sse.json');
    assert.equal(responses.sessions[0].calls.length, 1);
    const anthropicSse = read(cassette(sse(
      { type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [] } },
      block(0, { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'x' } }), stop(0),
      block(1, { type: 'web_search_tool_result', tool_use_id: 's1', content: [] }), stop(1),
    )), 'anthropic-sse.json');
    assert.deepEqual(answered(anthropicSse.sessions[0]), ['web_search#0']);
    assert.deepEqual(anthropicSse.rules, []);
  });
});

// ---- plain call records -----------------------------------------------------------------------------------

describe('calls: every rule the records can hold', () => {
  it('pairing: a record\'s result is its own call\'s, by its id or by the record', () => {
    const { r, sessions: [s], rules } = read(jsonl(
      { id: 'c1', name: 'lookup', arguments: { q: 1 }, result: 'a' },
      { name: 'fetch', arguments: { u: 'x' }, result: 'b' },
    ), 'calls.jsonl');
    assert.equal(r.format, 'calls');
    assert.deepEqual(answered(s), ['lookup#0', 'fetch#1']);
    assert.deepEqual(rules, []);
  });

  it('orphan-call: a record without a result among records with results', () => {
    const { rules } = read(jsonl({ name: 'lookup', arguments: { q: 1 } }, { name: 'fetch', arguments: { u: 'x' }, result: 'b' }), 'oc.jsonl');
    assert.deepEqual(rules, ['orphan-call lookup']);
  });

  it('duplicate-call-id: three records under one id', () => {
    const { rules } = read(jsonl(
      { id: 'c1', name: 'lookup', arguments: { q: 1 }, result: 'a' }, { id: 'c1', name: 'lookup', arguments: { q: 2 }, result: 'b' },
      { id: 'c1', name: 'fetch', arguments: {}, result: 'c' },
    ), 'dup.jsonl');
    assert.deepEqual(rules, ['duplicate-call-id lookup', 'duplicate-call-id fetch']);
  });

  it('duplicate-fingerprint: the same record again', () => {
    const { rules } = read(jsonl({ tool: 'lookup', args: { q: 1 }, result: 'a' }, { tool: 'lookup', args: { q: 1 }, result: 'a' }), 'fp.jsonl');
    assert.deepEqual(rules, ['duplicate-fingerprint lookup']);
  });

  it('status-theater: is_error false around a failing body; an error instead of a result is an honest failure', () => {
    const { sessions: [s], rules } = read(jsonl(
      { name: 'book', arguments: { room: 1 }, is_error: false, result: { ok: false, error: 'taken', result: null } },
      { name: 'book', arguments: { room: 2 }, error: 'timeout' },
      { name: 'run', arguments: { cmd: 'x' }, exit_code: 0, result: 'Traceback (most recent call last):' },
    ), 'theater.jsonl');
    assert.deepEqual(s.results.map((x) => x.transport), [{ isError: false }, { isError: true }, { exitCode: 0 }]);
    assert.deepEqual(rules, ['status-theater book', 'status-theater run']);
  });
});

// ---- Anthropic Managed Agents -----------------------------------------------------------------------------

const create = (tools: unknown[]) => ['client.beta.sessions.create', { id: 'sesn_1', agent: { tools } }];
const streamed = (e: Record<string, unknown>) => ['client.beta.sessions.events.stream', e];
const sent = (...events: unknown[]) => ['client.beta.sessions.events.send', ['sesn_1', { events }]];
const custom = { type: 'custom', name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const toolset = { type: 'agent_toolset_20260401', configs: [{ name: 'web_search', enabled: false }], default_config: { enabled: true } };

describe('anthropic-managed-agents: every rule', () => {
  it('pairing: custom_tool_use_id, tool_use_id and mcp_tool_use_id each link their result; toolset tools are declared', () => {
    const { r, sessions: [s], codes } = read(jsonl(
      create([custom, toolset, { type: 'mcp_toolset', mcp_server_name: 'exa' }]),
      streamed({ id: 'sevt_c', type: 'agent.custom_tool_use', name: 'get_weather', input: { city: 'Oslo' } }),
      sent({ type: 'user.custom_tool_result', custom_tool_use_id: 'sevt_c', content: [{ type: 'text', text: 'sunny' }] }),
      streamed({ id: 'sevt_b', type: 'agent.tool_use', name: 'bash', input: { command: 'date' } }),
      streamed({ id: 'sevt_br', type: 'agent.tool_result', tool_use_id: 'sevt_b', is_error: false, content: [{ type: 'text', text: 'Mon' }] }),
      streamed({ id: 'sevt_m', type: 'agent.mcp_tool_use', name: 'web_search_exa', mcp_server_name: 'exa', input: { query: 'x' } }),
      streamed({ id: 'sevt_mr', type: 'agent.mcp_tool_result', mcp_tool_use_id: 'sevt_m', is_error: true, content: [{ type: 'text', text: 'denied' }] }),
      streamed({ id: 'sevt_t', type: 'agent.message', content: [{ type: 'text', text: 'done' }] }),
    ), 'managed.jsonl');
    assert.equal(r.format, 'anthropic-managed-agents');
    assert.deepEqual(answered(s), ['get_weather#0', 'bash#1', 'web_search_exa#2']);
    assert.ok(!s.tools.some((t) => t.name === 'web_search'), 'a toolset tool its configs disable is not declared');
    assert.deepEqual(codes, [], 'no orphan, no unknown tool: the toolsets declare bash and the MCP tool');
  });

  it('copies: a result sent and echoed by the stream is one result; an event listed and streamed is one event', () => {
    const call = { id: 'sevt_c', type: 'agent.custom_tool_use', name: 'get_weather', input: { city: 'Oslo' } };
    const { sessions: [s], rules } = read(jsonl(
      create([custom]), streamed(call),
      ['client.beta.sessions.events.list', { data: [call] }],
      sent({ type: 'user.custom_tool_result', custom_tool_use_id: 'sevt_c', content: [{ type: 'text', text: 'sunny' }] }),
      streamed({ id: 'sevt_r', type: 'user.custom_tool_result', custom_tool_use_id: 'sevt_c', is_error: false, content: [{ type: 'text', text: 'sunny' }] }),
    ), 'echo.jsonl');
    assert.equal(s.calls.length, 1);
    assert.deepEqual(s.results.map((x) => x.transport), [{ isError: false }], 'the echo adds its is_error to the sent result');
    assert.deepEqual(rules, []);
  });

  it('orphan-call and orphan-result', () => {
    const { rules } = read(jsonl(
      create([custom]),
      streamed({ id: 'sevt_1', type: 'agent.custom_tool_use', name: 'get_weather', input: { city: 'Oslo' } }),
      streamed({ id: 'sevt_2', type: 'agent.custom_tool_use', name: 'get_weather', input: { city: 'Rome' } }),
      sent({ type: 'user.custom_tool_result', custom_tool_use_id: 'sevt_1', content: [] }),
      sent({ type: 'user.custom_tool_result', custom_tool_use_id: 'sevt_gone', content: [] }),
      streamed({ id: 'sevt_3', type: 'agent.message', content: [{ type: 'text', text: 'done' }] }),
    ), 'orphans.jsonl');
    assert.deepEqual(rules, ['orphan-call get_weather', 'orphan-result']);
  });

  it('duplicate-call-id: an event id under three different calls (not the same event again)', () => {
    const { rules } = read(jsonl(
      create([custom]),
      streamed({ id: 'sevt_1', type: 'agent.custom_tool_use', name: 'get_weather', input: { city: 'Oslo' } }),
      streamed({ id: 'sevt_1', type: 'agent.custom_tool_use', name: 'get_weather', input: { city: 'Rome' } }),
      streamed({ id: 'sevt_1', type: 'agent.custom_tool_use', name: 'get_weather', input: { city: 'Bern' } }),
    ), 'dup.jsonl');
    assert.deepEqual(rules, ['duplicate-call-id get_weather', 'duplicate-call-id get_weather']);
  });

  it('duplicate-fingerprint and status-theater: the same bash call after its result; is_error false around an error body', () => {
    const bash = (id: string) => streamed({ id, type: 'agent.tool_use', name: 'bash', input: { command: 'make' } });
    const done = (id: string, call: string, text: string, isError: boolean) =>
      streamed({ id, type: 'agent.tool_result', tool_use_id: call, is_error: isError, content: [{ type: 'text', text }] });
    const { rules } = read(jsonl(
      create([toolset]), bash('sevt_1'), done('sevt_1r', 'sevt_1', 'Error: make failed', false),
      bash('sevt_2'), done('sevt_2r', 'sevt_2', 'Error: make failed', true),
    ), 'fp.jsonl');
    assert.deepEqual(rules, ['status-theater bash', 'duplicate-fingerprint bash']);
  });
});
