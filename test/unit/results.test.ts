// Reading results (src/core/results.ts): strings holding JSON, text blocks, transport wrappers, exit codes, MCP
// and JSON-RPC envelopes; what the transport says and what the body says. And the canonical fingerprint.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolResult, TransportSignals } from '../../src/core/model';
import { topDoc } from '../../src/core/parse/doc';
import { bodyFailure, readResult, resultBodyAnchor, transportKind, transportVerdict } from '../../src/core/results';
import { spanOf } from '../../src/core/parse/doc';
import { callFingerprint, canonicalJson } from '../../src/core/fingerprint';

/** A result whose record is `record` (one JSON line), with its payload under `key`. */
function resultOf(record: Record<string, unknown>, key: string, transport: TransportSignals = {}): { result: ToolResult; text: string } {
  const text = JSON.stringify(record);
  const doc = topDoc(text, 0, JSON.parse(text));
  return { result: { turn: 1, at: { doc, path: [] }, payload: record[key], payloadAt: { doc, path: [key] }, transport }, text };
}

describe('reading results', () => {
  it('a string holding JSON is read as JSON, and positions map back through its escapes', () => {
    const { result, text } = resultOf({ role: 'tool', content: JSON.stringify({ path: 'a.md', sha256: 'abc123' }) }, 'content');
    const r = readResult(result);
    assert.deepEqual(r.body, { path: 'a.md', sha256: 'abc123' });
    const span = spanOf(resultBodyAnchor(result, ['sha256']));
    assert.equal(text.slice(span.start, span.end), '\\"abc123\\"');
  });

  it('{status, body} and {statusCode, data} are transport plus body; a 4xx/5xx is an honest failure', () => {
    const ok = readResult(resultOf({ content: JSON.stringify({ status: 200, body: { ok: false, error: 'x', result: null } }) }, 'content').result);
    assert.equal(ok.transport.httpStatus, 200);
    assert.deepEqual(ok.body, { ok: false, error: 'x', result: null });
    assert.equal(transportKind(ok), 'success');
    assert.deepEqual(bodyFailure(ok), { said: 'ok: false' });
    const bad = readResult(resultOf({ content: { statusCode: 503, data: 'down' } }, 'content').result);
    assert.deepEqual(transportVerdict(bad), { kind: 'failure', said: 'HTTP 503' });
  });

  it('exit codes: a wrapper, Codex text and mini-swe-agent text; okExitCodes decide what fails', () => {
    const wrapped = readResult(resultOf({ content: { exit_code: 1, stdout: '' } }, 'content').result);
    assert.equal(transportKind(wrapped), 'failure');
    assert.equal(transportKind(wrapped, [0, 1]), 'success');
    const codex = readResult(resultOf({ output: 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nfatal: not a git repository\n' }, 'output').result);
    assert.equal(codex.transport.exitCode, 0);
    assert.deepEqual(bodyFailure(codex), { said: '"fatal: not a git repository"', heuristic: true });
    const mswe = readResult(resultOf({ content: '<returncode>2</returncode><output>ls: cannot access</output>' }, 'content').result);
    assert.equal(mswe.transport.exitCode, 2);
    assert.equal(mswe.text, 'ls: cannot access');
  });

  it('an MCP CallToolResult: isError is transport (absent means success), the body is structuredContent or the text', () => {
    const err = readResult(resultOf({ result: { content: [{ type: 'text', text: 'no such file' }], isError: true } }, 'result').result);
    assert.equal(transportKind(err), 'failure');
    const quiet = readResult(resultOf({ result: { content: [{ type: 'text', text: 'Error: no such file' }] } }, 'result').result);
    assert.deepEqual(transportVerdict(quiet), { kind: 'success', said: 'is_error absent' });
    assert.equal(bodyFailure(quiet)?.heuristic, true);
    const structured = readResult(resultOf({ result: { content: [], structuredContent: { ok: true, n: 3 }, isError: false } }, 'result').result);
    assert.deepEqual(structured.body, { ok: true, n: 3 });
  });

  it('a JSON-RPC error response is an honest failure; a JSON-RPC result is unwrapped', () => {
    const e = readResult(resultOf({ msg: { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad params' } } }, 'msg').result);
    assert.deepEqual(transportVerdict(e), { kind: 'failure', said: 'a JSON-RPC error' });
    const ok = readResult(resultOf({ msg: { jsonrpc: '2.0', id: 4, result: { ok: true, error: null, result: 1 } } }, 'msg').result);
    assert.deepEqual(ok.body, { ok: true, error: null, result: 1 });
  });

  it('an Anthropic tool_result without is_error says success; one text block holding JSON is read as JSON', () => {
    const { result } = resultOf({ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '{"success": false}' }] }, 'content');
    const r = readResult(result);
    assert.deepEqual(r.body, { success: false });
    assert.deepEqual(transportVerdict(r), { kind: 'success', said: 'is_error absent' });
    assert.deepEqual(bodyFailure(r), { said: 'success: false' });
  });

  it('says nothing about a body that does not say failure: null or empty errors, plain text', () => {
    for (const body of [{ ok: true, error: null, result: 1 }, { error: '' }, { error: {} }, { errors: [] }, 'All 12 tests passed']) {
      assert.equal(bodyFailure(readResult(resultOf({ content: body }, 'content').result)), undefined, JSON.stringify(body));
    }
  });
});

describe('canonical fingerprints', () => {
  it('keys sorted at every depth, numbers by value, strings exact', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: 'S' } }), '{"a":{"c":"S","d":[2,{"x":2,"y":1}]},"b":1}');
    assert.equal(callFingerprint('f', JSON.parse('{"n": 2.0, "s": "x"}')), callFingerprint('f', { s: 'x', n: 2 }));
    assert.notEqual(callFingerprint('f', { s: 'x' }), callFingerprint('f', { s: 'X' }));
    assert.notEqual(callFingerprint('f', { n: 2 }), callFingerprint('f', { n: '2' }));
    assert.notEqual(callFingerprint('f', { n: 2 }), callFingerprint('g', { n: 2 }));
  });

  it('long arguments are hashed: the fingerprint stays short and still tells them apart', () => {
    const a = callFingerprint('write', { text: 'x'.repeat(10000) });
    const b = callFingerprint('write', { text: 'x'.repeat(9999) + 'y' });
    assert.ok(a.length < 64, a);
    assert.notEqual(a, b);
    assert.equal(a, callFingerprint('write', { text: 'x'.repeat(10000) }));
  });
});
