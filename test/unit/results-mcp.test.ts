// An MCP CallToolResult inside another transport (src/core/results.ts): its own `isError` is the transport when
// nothing above it spoke; under a transport that already said success in so many words, its `isError: true` is the
// body saying failure (status theater), not an honest failure. Small synthetic traces, written here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText } from '../../src/core';
import type { ToolResult, TransportSignals } from '../../src/core/model';
import { topDoc } from '../../src/core/parse/doc';
import { bodyFailure, readResult, transportKind, transportVerdict } from '../../src/core/results';

const mcp = (isError: boolean, text: string) => ({ content: [{ type: 'text', text }], isError });

/** A result whose payload is `payload`, with the transport signals the format gave it. */
function result(payload: unknown, transport: TransportSignals): ToolResult {
  const text = JSON.stringify({ payload });
  const doc = topDoc(text, 0, JSON.parse(text));
  return { turn: 1, at: { doc, path: [] }, payload, payloadAt: { doc, path: ['payload'] }, transport };
}

describe('an MCP result inside another transport', () => {
  it('under is_error: false, span status OK, exit 0 or HTTP 2xx, isError: true is the body saying failure', () => {
    for (const [transport, said] of [[{ isError: false }, 'is_error: false'], [{ spanStatus: 'OK' }, 'span status OK'], [{ exitCode: 0 }, 'exit 0'], [{ httpStatus: 200 }, 'HTTP 200']] as const) {
      const r = readResult(result(JSON.stringify(mcp(true, 'no such file')), transport));
      assert.equal(transportKind(r), 'success', JSON.stringify(transport));
      assert.deepEqual(transportVerdict(r), { kind: 'success', said });
      assert.deepEqual(bodyFailure(r), { said: 'isError: true' });
      assert.equal(r.text, 'no such file', 'the body is still the result\'s text');
    }
    const wrapped = readResult(result({ status: 200, body: mcp(true, 'denied') }, {}));
    assert.deepEqual(transportVerdict(wrapped), { kind: 'success', said: 'HTTP 200' });
    assert.deepEqual(bodyFailure(wrapped), { said: 'isError: true' });
  });

  it('with nothing said above it (no signal, span status UNSET, an absent flag) or a JSON-RPC message under HTTP 200, isError: true is an honest failure', () => {
    const rpc = { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 3, result: mcp(true, 'denied') }) };
    const cases: [unknown, TransportSignals][] = [[mcp(true, 'x'), {}], [mcp(true, 'x'), { spanStatus: 'UNSET' }], [rpc, {}], [rpc.body, { httpStatus: 200 }]];
    for (const [payload, transport] of cases) {
      const r = readResult(result(payload, transport));
      assert.equal(transportKind(r), 'failure', JSON.stringify([payload, transport]));
      assert.equal(r.bodyError, undefined);
    }
    const failed = readResult(result(mcp(true, 'x'), { isError: true }));
    assert.equal(transportKind(failed), 'failure', 'is_error: true around it: honest');
    assert.equal(bodyFailure(failed), undefined);
    const fine = readResult(result(mcp(false, 'done'), { isError: false }));
    assert.equal(bodyFailure(fine), undefined, 'isError: false under is_error: false says nothing of failure');
  });

  it('status-theater: an Anthropic tool_result with is_error: false around a CallToolResult whose isError is true', () => {
    const use = (id: string) => ({ type: 'tool_use', id, name: 'read_file', input: { path: id } });
    const text = JSON.stringify({ model: 'm', messages: [
      { role: 'user', content: 'read them' },
      { role: 'assistant', content: [use('t1'), use('t2'), use('t3')] },
      { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 't1', is_error: false, content: [{ type: 'text', text: JSON.stringify(mcp(true, 'ENOENT')) }] },
        { type: 'tool_result', tool_use_id: 't2', is_error: true, content: [{ type: 'text', text: JSON.stringify(mcp(true, 'ENOENT')) }] },
        { type: 'tool_result', tool_use_id: 't3', content: [{ type: 'text', text: JSON.stringify(mcp(true, 'ENOENT')) }] },
      ] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ] });
    const r = checkText(text, { fileName: 'request.json', packs: false });
    assert.equal(r.format, 'anthropic');
    const theater = r.findings.filter((f) => f.code === 'status-theater');
    assert.deepEqual(theater.map((f) => f.message), ['read_file: transport says success (is_error: false) but the body says isError: true'],
      'is_error: true around it is honest, and an absent is_error leaves the result\'s own flag to speak');
  });
});
