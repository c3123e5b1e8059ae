// result-contract: a result that breaks its declared result schema, reported on the offending part of the
// result: Contract Guard's own `result` schema (OpenAI Chat, result as a JSON string) and an MCP tool's
// outputSchema recorded in the trace (structuredContent checked). Honest failures and results of tools without a
// result schema are not checked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts } from '../../src/core';
import { checkAndLocate } from './helpers';

const weather = loadContracts([{
  path: 'weather.contract.json',
  text: JSON.stringify({
    tools: {
      get_weather: {
        arguments: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        result: { type: 'object', properties: { temp: { type: 'number' }, sky: { enum: ['clear', 'cloudy'] } }, required: ['temp'] },
      },
      get_time: { arguments: { type: 'object', properties: {} } },
    },
  }),
}]).contracts;

function chat(results: string[]): string {
  const calls = results.map((_, i) => ({ id: `call_${i}`, type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"}' } }));
  return JSON.stringify({
    messages: [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: calls },
      ...results.map((content, i) => ({ role: 'tool', tool_call_id: `call_${i}`, content })),
    ],
  }, null, 1);
}

describe('result-contract', () => {
  it('own `result` schema: a mistyped value, a missing key, an undeclared key, each at its place in the result', () => {
    const text = chat(['{"temp": 21.5, "sky": "clear"}', '{"temp": "cold"}', '{"sky": "cloudy"}', '{"temp": 3, "wind": 12}', '{"temp": 4, "sky": "foggy"}']);
    const r = checkAndLocate(text, { fileName: 'w.json', contracts: weather });
    const rc = r.findings.filter((f) => f.code === 'result-contract');
    assert.deepEqual(rc.map((f) => `${f.severity} ${f.message} @${f.token}`), [
      'warning get_weather result: temp wanted number, got string "cold" @\\"cold\\"',
      'warning get_weather result is missing temp (required) @{\\"sky\\": \\"cloudy\\"}',
      'warning get_weather result: wind is not declared by the result schema @\\"wind\\"',
      'warning get_weather result: sky wanted one of "clear", "cloudy", got string "foggy" @\\"foggy\\"',
    ]);
    // Exact place: the value inside the tool message's string content.
    const line = text.split('\n').findIndex((l) => l.includes('\\"cold\\"')) + 1;
    assert.equal(rc[0].line, line);
    assert.equal(rc[0].column, text.split('\n')[line - 1].indexOf('\\"cold\\"') + 1);
  });

  it('no result schema, an honest failure, or a tool without a contract: nothing to check', () => {
    const errorResult = JSON.stringify({ messages: [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"anything": true}' },
    ] });
    assert.ok(!checkText(errorResult, { fileName: 't.json', contracts: weather }).findings.some((f) => f.code === 'result-contract'));
  });

  it('MCP: structuredContent against the outputSchema recorded by tools/list; isError results are skipped', () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] } }] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'Oslo' } } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"temp": "21"}' }], structuredContent: { temp: '21' }, isError: false } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'Bergen' } } },
      { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'no such city' }], isError: true } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'Rome' } } },
      { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: '{"temp": 30}' }], structuredContent: { temp: 30 } } },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const r = checkAndLocate(lines, { fileName: 'mcp.jsonl' });
    assert.equal(r.format, 'mcp');
    assert.deepEqual(r.findings.filter((f) => f.code === 'result-contract').map((f) => `${f.line}:${f.column} ${f.message} @${f.token}`), [
      `4:${lines.split('\n')[3].indexOf('"structuredContent"') + 29} get_weather result: temp wanted number, got string "21" @"21"`,
    ]);
  });
});
