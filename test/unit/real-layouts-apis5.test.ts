// Model API payloads with server-side tools (round five): the hosted calls a provider runs itself and records
// beside the model's own (Responses file search and image generation, xAI's function-call layout of its hosted
// tools and the custom tool calls of its built-in tools, Anthropic server tool results that answer a call of an
// earlier response, Gemini code execution reporting in several parts). Every trace here is small and written for
// the test, after the layout of a real file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

function read(text: string, fileName = 'trace.json') {
  const m = readModel(text, { fileName });
  return { ...m, codes: [...m.codes].sort() };
}

const J = JSON.stringify;
const jsonl = (...lines: unknown[]) => lines.map((l) => J(l)).join('\n') + '\n';
const fn = { type: 'function', name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } };

describe('real layouts of server-side tools (round five)', () => {
  it('Responses: a file search is a call whose input is its queries, answered by its results', () => {
    const text = J({
      id: 'resp_fs', object: 'response', status: 'completed', model: 'm',
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [] },
        { id: 'fs_1', type: 'file_search_call', status: 'completed', queries: ['what is a widget', 'widget definition'],
          results: [{ file_id: 'file_1', filename: 'w.pdf', score: 0.9, text: 'A widget is ...' }] },
        { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A widget is a part.' }] },
      ],
      // a function tool as well: the session is closed, so an undeclared hosted tool would be unknown
      tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }, fn],
    });
    const { r, sessions, codes } = read(text);
    assert.equal(r.format, 'openai-responses');
    const [s] = sessions;
    assert.equal(s.calls.length, 1);
    assert.equal(s.calls[0].name, 'file_search_call');
    assert.deepEqual(s.calls[0].args, { queries: ['what is a widget', 'widget definition'] });
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].callId, 'fs_1');
    assert.equal((s.results[0].payload as unknown[]).length, 1);
    assert.ok(!codes.includes('unknown-tool') && !codes.includes('arguments-encoding'), codes.join());
  });

  it('Responses: an image generation is a call with the prompt it ran with; one that records none is not read', () => {
    const call = { id: 'ig_1', type: 'image_generation_call', status: 'completed', result: 'iVBORw0KGgo=', revised_prompt: 'a red bicycle', size: '1024x1024' };
    const text = J({ id: 'resp_ig', object: 'response', status: 'completed', output: [call], tools: [{ type: 'image_generation' }, fn] });
    const { sessions, codes } = read(text);
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].calls[0].name, 'image_generation_call');
    assert.deepEqual(sessions[0].calls[0].args, { revised_prompt: 'a red bicycle', size: '1024x1024' });
    assert.equal(sessions[0].results[0].payload, 'iVBORw0KGgo=');
    assert.ok(!codes.includes('unknown-tool'), codes.join());
    const bare = J({ id: 'resp_ig2', object: 'response', status: 'completed', output: [{ id: 'ig_2', type: 'image_generation_call', status: 'completed', result: 'x' }] });
    assert.equal(read(bare).sessions.reduce((n, s) => n + s.calls.length, 0), 0);
  });

  it('xAI Responses: hosted calls written as function calls get the tool they name, declared by the enabling entry', () => {
    const text = J({
      id: 'r-xai', object: 'response', status: 'completed', model: 'grok',
      output: [
        { arguments: '{"query":"widgets","limit":5}', call_id: '', name: 'x_semantic_search', type: 'x_search_call', id: 'fc_r_0', status: 'completed' },
        { arguments: '{"code":"print(1+1)"}', call_id: '', name: 'code_execution', type: 'code_interpreter_call', id: 'fc_r_1', status: 'completed' },
        { arguments: '{"query":"widget news"}', call_id: '', name: 'web_search', type: 'web_search_call', id: 'fc_r_2', status: 'failed' },
        { id: 'msg_r', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '2' }] },
      ],
      tools: [{ type: 'x_search' }, { type: 'code_interpreter' }, { type: 'web_search' }, fn],
    });
    const { sessions, codes } = read(text);
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['x_semantic_search', 'code_execution', 'web_search']);
    assert.deepEqual(s.calls[0].args, { query: 'widgets', limit: 5 });
    assert.equal(s.calls[0].encoding, 'json-string');
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['fc_r_0', false], ['fc_r_1', false], ['fc_r_2', true]]);
    assert.ok(!codes.includes('unknown-tool') && !codes.includes('orphan-call'), codes.join());
  });

  const xaiCreated = (tools: unknown[]) => ({ type: 'response.created', sequence_number: 0, response: { id: 'r1', object: 'response', status: 'in_progress', output: [], tools } });
  const custom = (id: string, name: string, input: string, seq: number) => [
    { type: 'response.output_item.added', sequence_number: seq, output_index: seq, item: { call_id: id, input: '', name, type: 'custom_tool_call', id: `ctc_${id}`, status: 'in_progress' } },
    { type: 'response.custom_tool_call_input.delta', sequence_number: seq, output_index: seq, item_id: `ctc_${id}`, delta: input },
    { type: 'response.output_item.done', sequence_number: seq, output_index: seq, item: { call_id: id, input, name, type: 'custom_tool_call', id: `ctc_${id}`, status: 'completed' } },
  ];
  const emptySearch = (id: string, seq: number) => ({ type: 'response.output_item.done', sequence_number: seq, output_index: seq,
    item: { id, type: 'web_search_call', status: 'completed', action: { type: 'search', query: '', sources: [] } } });

  it('xAI stream: the custom tool calls of a built-in tool are the server\'s, run; empty search actions are no input', () => {
    const text = jsonl(
      xaiCreated([{ type: 'x_search', allowed_x_handles: ['a'] }]),
      ...custom('xs_call_1', 'x_keyword_search', '{"query":"from:a","limit":20}', 1),
      emptySearch('ws_1', 2), emptySearch('ws_2', 3), emptySearch('ws_3', 4),
      ...custom('xs_call_2', 'view_x_video', '{"video_url":"https://v.example/1.mp4"}', 5),
      { type: 'response.output_item.done', sequence_number: 6, output_index: 6, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] } },
    );
    const { r, sessions, codes } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'stream');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['x_keyword_search', 'view_x_video']);
    assert.deepEqual(s.results.map((x) => x.callId), ['xs_call_1', 'xs_call_2']);
    assert.ok(s.tools.some((t) => t.name === 'x_keyword_search'));
    assert.ok(!codes.includes('orphan-call') && !codes.includes('duplicate-fingerprint') && !codes.includes('unknown-tool'), codes.join());
  });

  it('Responses stream: a custom tool the request declares stays the client\'s call (no result of its own)', () => {
    const text = jsonl(
      xaiCreated([{ type: 'web_search' }, { type: 'custom', name: 'apply_patch' }]),
      ...custom('call_1', 'apply_patch', '*** Begin Patch', 1),
    );
    const { sessions } = read(text, 'stream.jsonl');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 0);
    // no tools[] read at all: nothing says the server ran it
    const bare = jsonl(...custom('call_2', 'x_keyword_search', '{}', 1));
    assert.equal(read(bare, 'stream.jsonl').sessions[0].results.length, 0);
  });

  it('Responses: a GA computer call\'s batch of actions is its input; repeated batches that differ are no repeats', () => {
    const call = (id: string, actions: unknown[]) => ({ type: 'computer_call', id: `cu_${id}`, call_id: id, status: 'completed', pending_safety_checks: [], actions });
    const output = (id: string) => ({ type: 'computer_call_output', call_id: id, output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AA' } });
    const text = J({
      model: 'm', tools: [{ type: 'computer' }],
      input: [
        { role: 'user', content: 'open the settings' },
        call('c1', [{ type: 'screenshot' }]), output('c1'),
        call('c2', [{ type: 'click', x: 10, y: 20 }, { type: 'type', text: 'settings' }]), output('c2'),
      ],
    });
    const { sessions, codes } = read(text);
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['computer_call', 'computer_call']);
    assert.deepEqual(s.calls[1].args, { actions: [{ type: 'click', x: 10, y: 20 }, { type: 'type', text: 'settings' }] });
    assert.equal(s.results.length, 2);
    assert.ok(!codes.includes('duplicate-fingerprint') && !codes.includes('orphan-call') && !codes.includes('arguments-encoding'), codes.join());
  });

  it('Responses: a request of messages only that declares its tools the Responses way gives its definitions', () => {
    const text = J({ model: 'm', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'weather?' }] }], tools: [fn] });
    const { r, sessions } = read(text);
    assert.equal(r.format, 'openai-responses');
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['lookup']);
    // Chat Completions tools (`function: {...}`) are not the Responses way
    const chat = J({ model: 'm', input: 'hi', tools: [{ type: 'function', function: { name: 'lookup', parameters: {} } }] });
    assert.notEqual(read(chat).r.format, 'openai-responses');
  });

  it('Responses: tools grouped in a namespace entry are declared by their names', () => {
    const text = J({
      id: 'resp_ns', object: 'response', status: 'completed',
      output: [{ id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'get_weather', namespace: 'weather', arguments: '{"city":"Oslo"}' }],
      tools: [{ type: 'tool_search', execution: 'client' }, { type: 'namespace', name: 'weather', tools: [
        { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
      ] }],
    });
    const { sessions, codes } = read(text);
    assert.ok(sessions[0].tools.some((t) => t.name === 'get_weather'));
    assert.ok(!codes.includes('unknown-tool'), codes.join());
    // its schema applies: a missing required argument is found
    const bad = text.replace('{\\"city\\":\\"Oslo\\"}', '{}');
    assert.ok(read(bad).codes.includes('missing-key'));
  });

  it('Anthropic: a response\'s server tool result for a call of an earlier response is no orphan; a request\'s still is', () => {
    const response = J({
      id: 'msg_2', type: 'message', role: 'assistant', model: 'claude',
      content: [
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_earlier', content: [{ type: 'web_search_result', title: 't', url: 'https://e.example/' }] },
        { type: 'text', text: 'Found it.' },
      ],
      stop_reason: 'end_turn',
    });
    const a = read(response);
    assert.equal(a.r.format, 'anthropic');
    assert.equal(a.sessions[0].results.length, 1);
    assert.ok(!a.codes.includes('orphan-result'), a.codes.join());
    const request = J({
      model: 'claude', tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }, { type: 'tool_result', tool_use_id: 'toolu_gone', content: 'x' }] },
      ],
    });
    assert.ok(read(request).codes.includes('orphan-result'));
  });

  it('Anthropic stream: a server tool result for a call the stream does not hold is no orphan', () => {
    const text = jsonl(
      { type: 'message_start', message: { id: 'msg_2', type: 'message', role: 'assistant', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_earlier',
        content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'lookup' }] } } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"q":"a"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_stop' },
    );
    const { r, sessions, codes } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'stream');
    assert.equal(sessions[0].calls.length, 1);
    assert.ok(!codes.includes('orphan-result'), codes.join());
  });

  it('Gemini: a code execution that reports in two result parts answers both with the one call', () => {
    const part = (o: unknown) => o;
    const text = J({
      candidates: [{ content: { role: 'model', parts: [
        part({ executableCode: { language: 'PYTHON', code: 'print(1)\nprint(2)' } }),
        part({ codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } }),
        part({ codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2\n' } }),
        part({ text: 'Printed 1 and 2.' }),
      ] }, finishReason: 'STOP', index: 0 }],
    });
    const { r, sessions, codes } = read(text);
    assert.equal(r.format, 'gemini');
    assert.deepEqual(sessions[0].results.map((x) => x.callIndex), [0, 0]);
    assert.ok(!codes.includes('orphan-result'), codes.join());
    // a result with no code execution anywhere still answers nothing
    const lone = J({ candidates: [{ content: { role: 'model', parts: [{ codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }] }, index: 0 }] });
    assert.ok(read(lone).codes.includes('orphan-result'));
  });
});
