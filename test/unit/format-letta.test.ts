// Letta agent files on small hand-written files: both layouts, error signals, Letta's injected request_heartbeat,
// parallel returns in one tool message, and a file that is one JSON string.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTERS, checkText, claims, type Session } from '../../src/core';
import { spanOf } from '../../src/core/parse/doc';

function read(value: unknown, fileName = 'agent.af') {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const r = checkText(text, { fileName, keepModel: true, packs: false });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  return { r, text, sessions, codes: r.findings.map((f) => `${f.code} ${f.tool ?? ''}`.trim()) };
}

const envelope = (status: 'OK' | 'Failed', message: string) => [{ type: 'text', text: JSON.stringify({ status, message, time: '2025-01-01 10:00:00 AM UTC+0000' }, null, 2) }];
const assistant = (id: string, name: string, args: object) => ({ role: 'assistant', content: [{ type: 'text', text: 'thinking' }], tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });
const toolMsg = (id: string, status: 'OK' | 'Failed', returns: object[]) => ({ role: 'tool', name: 'my_agent', tool_call_id: id, content: envelope(status, 'done'), tool_returns: returns });
const tool = (name: string, properties: object, required: string[], id?: string) => ({ id, name, tool_type: 'custom', json_schema: { name, description: '', parameters: { type: 'object', properties, required } } });

describe('letta agent files', () => {
  it('legacy layout: calls pair by tool_call_id although the tool message is named after the agent; tool_returns status and the envelope are the error signal', () => {
    const { r, sessions, codes } = read({
      agent_type: 'memgpt_agent', name: 'my_agent', llm_config: { model: 'gpt-4o-mini' }, in_context_message_indices: [0],
      tools: [tool('lookup', { q: { type: 'string' } }, ['q'])],
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'sys' }] },
        assistant('t1', 'lookup', { q: 'a', request_heartbeat: true }),
        toolMsg('t1', 'Failed', [{ status: 'error', stdout: [], stderr: ['boom'] }]),
        assistant('t2', 'lookup', { q: 'b' }),
        { role: 'tool', name: 'my_agent', tool_call_id: 't2', content: envelope('Failed', 'no rows') },
        assistant('t3', 'lookup', { q: 'c' }),
        toolMsg('t3', 'Failed', [{ status: 'success', stdout: [], stderr: [] }]),
      ],
    });
    assert.equal(r.format, 'letta');
    const [s] = sessions;
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['t1', true], ['t2', true], ['t3', false]]);
    assert.deepEqual(s.results[0].payloadAt?.path, ['messages', 2, 'content', 0, 'text'], 'the envelope text is the payload');
    assert.deepEqual(codes, ['status-theater lookup'], 'only the return that says success around a Failed envelope');
  });

  it('request_heartbeat is Letta\'s: declared and optional whether or not the stored schema lists it; other keys are still checked', () => {
    const { codes } = read({
      agent_type: 'memgpt_agent', llm_config: {}, in_context_message_indices: [],
      tools: [
        tool('old_style', { q: { type: 'string' }, request_heartbeat: { type: 'boolean' } }, ['q', 'request_heartbeat']),
        tool('new_style', { q: { type: 'string' } }, ['q']),
      ],
      messages: [
        assistant('a', 'old_style', { q: 'x' }),
        toolMsg('a', 'OK', []),
        assistant('b', 'new_style', { q: 'y', request_heartbeat: true }),
        toolMsg('b', 'OK', []),
        assistant('c', 'new_style', { q: 'z', request_heartbeat: 'yes', lang: 'en' }),
        toolMsg('c', 'OK', []),
      ],
    });
    assert.deepEqual(codes, ['type-drift new_style', 'extra-key new_style']);
  });

  it('newer layout: one session per agent, with the tools its tool_ids name; parallel returns in one tool message are results of their own', () => {
    const { r, sessions, codes } = read({
      agents: [
        {
          id: 'agent-0', name: 'a', agent_type: 'letta_v1_agent', tool_ids: ['tool-0'], in_context_message_ids: [],
          messages: [
            { role: 'assistant', content: [], tool_calls: [
              { id: 'p1', type: 'function', function: { name: 'search', arguments: '{"q": "x"}' } },
              { id: 'p2', type: 'function', function: { name: 'search', arguments: '{"q": "y"}' } },
            ] },
            { role: 'tool', tool_call_id: 'p1', content: [], tool_returns: [
              { tool_call_id: 'p1', status: 'success', func_response: '{"status": "OK", "message": "1"}' },
              { tool_call_id: 'p2', status: 'error', func_response: '{"status": "Failed", "message": "Error: down"}' },
            ] },
          ],
        },
        { id: 'agent-1', name: 'b', agent_type: 'letta_v1_agent', tool_ids: [], in_context_message_ids: [], messages: [assistant('q1', 'search', { q: 'z' })] },
      ],
      tools: [tool('search', { q: { type: 'string' } }, ['q'], 'tool-0'), tool('other', {}, [], 'tool-1')],
      blocks: [],
    });
    assert.equal(r.format, 'letta');
    assert.deepEqual(sessions.map((s) => [s.id, s.tools.map((t) => t.name)]), [['agent-0', ['search']], ['agent-1', []]]);
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError, x.payloadAt?.path]), [
      ['p1', false, ['agents', 0, 'messages', 1, 'tool_returns', 0, 'func_response']],
      ['p2', true, ['agents', 0, 'messages', 1, 'tool_returns', 1, 'func_response']],
    ]);
    assert.deepEqual(codes, ['no-contract search'], 'agent b has no tools: its call is uncontracted, not unknown');
  });

  it('reads a file that holds the agent file as one JSON string, anchored inside it', () => {
    const inner = { agent_type: 'memgpt_agent', llm_config: {}, in_context_message_indices: [], tools: [], messages: [assistant('t1', 'ping', {})] };
    const { text, sessions } = read(JSON.stringify(JSON.stringify(inner, null, 2)));
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => c.name)), [['ping']]);
    const span = spanOf(sessions[0].calls[0].nameAt);
    assert.equal(text.slice(span.start, span.end), '\\"ping\\"');
  });

  it('only Letta claims an agent file (its messages are chat messages too), and a plain chat transcript is not one', () => {
    const af = { agent_type: 'memgpt_agent', llm_config: {}, in_context_message_indices: [0], messages: [assistant('t1', 'ping', {})], tools: [] };
    assert.deepEqual(ADAPTERS.filter((a) => claims(a, af)).map((a) => a.id), ['letta']);
    const chat = { messages: [assistant('t1', 'ping', {})], tools: [] };
    assert.ok(!ADAPTERS.some((a) => a.id === 'letta' && claims(a, chat)));
  });

  it('skips what it cannot read, without throwing', () => {
    const { sessions } = read({
      agents: [{ agent_type: 'x', messages: [null, 3, { role: 'assistant', tool_calls: [null, { function: 'x' }, { id: 'k', function: { name: 'ok', arguments: '{}' } }] }, { role: 'tool', tool_returns: 'no' }] }, 'junk'],
      tools: [null, { name: 5 }, { name: 'ok', json_schema: 'nope' }],
    });
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['ok']);
    assert.equal(sessions[0].results.length, 1);
  });
});
