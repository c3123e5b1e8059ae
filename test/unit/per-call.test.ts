// Every per-call code on the seed fixtures, in every format they are written in, at its exact line and column,
// pointing at the exact token (the value, the key, the tool name, or the arguments).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { brief, checkAndLocate, fixture, fixtureContracts } from './helpers';

const PER_CALL = new Set(['parse-error', 'unknown-tool', 'no-contract', 'missing-key', 'extra-key', 'type-drift', 'constraint', 'arguments-encoding', 'schema-drift']);
const contracts = fixtureContracts();

function findings(file: string) {
  const r = checkAndLocate(fixture(`traces/${file}`), { fileName: file, contracts });
  return { ...r, list: r.findings.filter((f) => PER_CALL.has(f.code)) };
}

describe('opening hours: weekday 2, "2", true, 2.0, an extra key, an invented tool', () => {
  it('plain call lines (calls)', () => {
    const r = findings('hours.calls.jsonl');
    assert.equal(r.format, 'calls');
    assert.equal(r.calls, 6);
    assert.deepEqual(r.list.map(brief), [
      'type-drift@2:70 "2"',
      'type-drift@3:70 true',
      'type-drift@4:70 2.0',
      'extra-key@5:73 "open"',
      'unknown-tool@6:10 "get_open_now"',
    ]);
    assert.deepEqual(r.list.map((f) => f.message), [
      'weekday wanted integer, got string "2"',
      'weekday wanted integer, got boolean true',
      'weekday wanted integer, got number 2.0',
      'open is not declared by get_hours',
      'get_open_now is not declared by any contract',
    ]);
  });

  it('Anthropic transcript with tools[].input_schema', () => {
    const r = findings('hours.anthropic.json');
    assert.equal(r.format, 'anthropic');
    assert.equal(r.calls, 6);
    assert.deepEqual(r.list.map(brief), [
      'type-drift@74:24 "2"',
      'type-drift@102:24 true',
      'type-drift@130:24 2.0',
      'extra-key@159:13 "open"',
      'unknown-tool@180:19 "get_open_now"',
    ]);
  });
});

describe('room booking: an invented room, a missing duration, 180 minutes', () => {
  it('OpenAI Chat messages with string-encoded arguments: findings point inside the string', () => {
    const r = findings('rooms.openai-chat.json');
    assert.equal(r.format, 'openai-chat');
    assert.equal(r.calls, 5);
    assert.deepEqual(r.list.map(brief), [
      'constraint@116:41 \\"KILLAM-404\\"',
      'missing-key@139:26 "{\\"room_id\\": \\"CS-130\\", \\"s…',
      'constraint@162:66 180',
    ]);
    assert.equal(r.list[0].message, 'room_id wanted one of "KILLAM-212", "CS-130", "MCD-17", got string "KILLAM-404"');
    assert.equal(r.list[1].message, 'book_room is missing minutes (required)');
    assert.equal(r.list[2].message, 'minutes wanted one of 30, 60, 90, 120, got number 180');
  });

  it('OpenAI Responses items as JSONL', () => {
    const r = findings('rooms.responses.jsonl');
    assert.equal(r.format, 'openai-responses');
    assert.equal(r.calls, 5);
    assert.deepEqual(r.list.map(brief), [
      'constraint@7:113 \\"KILLAM-404\\"',
      'missing-key@10:98 "{\\"room_id\\": \\"CS-130\\", \\"s…',
      'constraint@13:138 180',
    ]);
  });
});

describe('weather: an invented lang, fences, objects for strings and back, wrappers', () => {
  it('OpenAI fine-tune lines {messages, tools}, one session per line, a broken line in the middle', () => {
    const r = findings('weather.openai-chat.jsonl');
    assert.equal(r.format, 'openai-chat');
    assert.equal(r.calls, 8, 'the broken line 7 is lost, every other line is checked');
    assert.deepEqual(r.list.map(brief), [
      'extra-key@2:227 \\"lang\\"',
      'arguments-encoding@3:205 "```json\\n{\\"city\\": \\"Oslo\\",…',
      'arguments-encoding@4:205 {"city": "Oslo", "units": "met…',
      'arguments-encoding@5:205 "{\\"input\\": {\\"city\\": \\"Oslo…',
      'arguments-encoding@6:205 "\\"{\\\\\\"city\\\\\\": \\\\\\"Oslo\\\\\\"…',
      'constraint@6:252 \\\\\\"kelvin\\\\\\"',
      'parse-error@7:102 [',
      'arguments-encoding@8:205 "{\\"city\\": \\"Oslo\\", \\"units\\…',
      'missing-key@9:205 "{\\"city\\": \\"Oslo\\", \\"lang\\"…',
      'extra-key@9:227 \\"lang\\"',
      'schema-drift@9:362 {"type": "function", "function…',
    ]);
    const messages = r.list.map((f) => f.message);
    assert.equal(messages[1], 'arguments of get_weather are wrapped in a markdown code fence');
    assert.equal(messages[2], 'arguments of get_weather are an object; this format sends arguments as a JSON string');
    assert.equal(messages[3], 'arguments of get_weather are wrapped in {"input": ...}; the inner object was checked');
    assert.equal(messages[4], 'arguments of get_weather are double-encoded (a JSON string inside a JSON string)');
    assert.equal(messages[6], "unexpected end of input: expected ']'");
    assert.match(messages[7], /^arguments of get_weather are not valid JSON \(.+\)$/);
    assert.match(messages[10], /^get_weather recorded in the trace differs from fixtures\/contracts\/weather\.tools\.json: adds lang/);
  });

  it('Anthropic messages as JSONL: input as a string, an input wrapper, kelvin, a missing key', () => {
    const r = findings('weather.anthropic.jsonl');
    assert.equal(r.format, 'anthropic');
    assert.equal(r.calls, 6);
    assert.deepEqual(r.list.map(brief), [
      'extra-key@5:193 "lang"',
      'arguments-encoding@8:157 "{\\"city\\": \\"Oslo\\", \\"units\\…',
      'arguments-encoding@11:157 {"input": {"city": "Oslo", "un…',
      'constraint@14:183 "kelvin"',
      'missing-key@17:157 {"city": "Oslo"}',
    ]);
    assert.equal(r.list[1].message, 'arguments of get_weather are a JSON string; this format sends arguments as an object');
  });
});

describe('profiles', () => {
  const line = '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2.0, "open": true}}';
  it('strict: 2.0 is not an integer and undeclared keys are extra', () => {
    const r = checkAndLocate(line, { contracts, profile: 'strict' });
    assert.deepEqual(r.findings.map(brief), ['type-drift@1:70 2.0', 'extra-key@1:75 "open"']);
  });
  it('json-schema: plain JSON Schema semantics accept both', () => {
    const r = checkAndLocate(line, { contracts, profile: 'json-schema' });
    assert.deepEqual(r.findings.map(brief), []);
  });
  it('strict typing reads 1e0 and 2.50 as written, and "false" is not a boolean', () => {
    const r = checkAndLocate('{"name": "get_hours", "arguments": {"building": "K", "weekday": 1e0}}\n{"name": "list_rooms", "arguments": {"quiet_only": "false"}}', { contracts });
    assert.deepEqual(r.findings.map((f) => f.message), ['weekday wanted integer, got number 1e0', 'quiet_only wanted boolean, got string "false"']);
  });
  it('type-drift hides constraint on the same value: one finding per fault', () => {
    const r = checkAndLocate('{"name": "get_hours", "arguments": {"building": "K", "weekday": 9.5}}', { contracts });
    assert.deepEqual(r.findings.map((f) => f.code), ['type-drift']);
  });
  it('nested objects and arrays are checked, with paths in the message', () => {
    const schema = { type: 'object', properties: { slots: { type: 'array', items: { type: 'object', properties: { start: { type: 'integer' } }, required: ['start'] } } } };
    const text = JSON.stringify({ messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'plan', arguments: JSON.stringify({ slots: [{ start: 1 }, { start: true, end: 2 }] }) } }] }], tools: [{ type: 'function', function: { name: 'plan', parameters: schema } }] });
    const r = checkAndLocate(text, {});
    assert.deepEqual(r.findings.map((f) => `${f.code}: ${f.message} @ ${f.token}`), [
      'type-drift: slots[1].start wanted integer, got boolean true @ true',
      'extra-key: slots[1].end is not declared by plan @ \\"end\\"',
    ]);
  });
});

describe('contracts that apply', () => {
  it('without any contract, each tool gets one no-contract (info)', () => {
    const r = checkAndLocate(fixture('traces/hours.calls.jsonl'), { fileName: 'hours.calls.jsonl' });
    const nc = r.findings.filter((f) => f.code === 'no-contract');
    assert.deepEqual(nc.map(brief), ['no-contract@1:10 "get_hours"', 'no-contract@6:10 "get_open_now"']);
    assert.ok(nc.every((f) => f.severity === 'info'));
  });
  it('a partial contract file turns unknown-tool into no-contract', async () => {
    const { loadContracts } = await import('../../src/core');
    const partial = loadContracts([{ path: 'p.contract.json', text: JSON.stringify({ partial: true, tools: { get_hours: { arguments: { type: 'object' } } } }) }]).contracts;
    const r = checkAndLocate('{"name": "get_open_now", "arguments": {}}', { contracts: partial });
    assert.deepEqual(r.findings.map((f) => f.code), ['no-contract']);
  });
  it('tools embedded in the trace are a contract: an unlisted tool is unknown-tool', () => {
    const text = JSON.stringify({ messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_wether', arguments: '{}' } }] }], tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }] });
    const r = checkAndLocate(text, {});
    assert.deepEqual(r.findings.map((f) => `${f.code} ${f.message}`), ['unknown-tool get_wether is not declared by any contract']);
  });
  it('severity overrides and off', () => {
    const r = checkText2('{"name": "get_hours", "arguments": {"building": "K", "weekday": true, "x": 1}}', { 'type-drift': 'warning', 'extra-key': 'off' });
    assert.deepEqual(r, ['type-drift:warning']);
  });
});

function checkText2(text: string, severity: Record<string, 'error' | 'warning' | 'info' | 'off'>): string[] {
  return checkAndLocate(text, { contracts, severity }).findings.map((f) => `${f.code}:${f.severity}`);
}
