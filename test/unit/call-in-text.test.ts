// call-in-text: a tool call the model wrote as text in a message that made no call (nothing ran). Written forms,
// the exact span of the written call inside the message string (escapes and all), and the quiet cases: prose
// that quotes JSON, JSON that names no tool, messages that also made real calls (one message over several
// records included), texts of earlier messages in Claude Code and Codex logs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, type Session } from '../../src/core';
import { writtenCalls } from '../../src/core/checks/call-in-text';
import { checkAndLocate } from './helpers';

const jsonl = (...lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

/** An OpenAI Chat request whose last assistant message is `content` (with the tool defined). */
function chat(content: unknown, extra: object = {}): string {
  return JSON.stringify({
    tools: [weatherTool],
    messages: [{ role: 'user', content: 'Weather in Oslo?' }, { role: 'assistant', content, ...extra }],
  }, null, 1);
}

function found(text: string, fileName = 't.json') {
  return checkAndLocate(text, { fileName }).findings.filter((f) => f.code === 'call-in-text');
}

/** The source text a written call is at: the decoded string's range as written in JSON (escapes included). */
const asWritten = (s: string) => JSON.stringify(s).slice(1, -1);

describe('call-in-text: written forms', () => {
  it('<tool_call>{json}</tool_call>: one warning spanning the whole tag, escapes and all', () => {
    const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>';
    const f = found(chat(`Let me check.\n${call}`));
    assert.deepEqual(f.map((x) => [x.severity, x.message, x.token]), [
      ['warning', 'get_weather was written as text (<tool_call>), not called: the message made no call, so nothing ran', asWritten(call)],
    ]);
  });

  it('<function=name>…</function> in an Anthropic text block, at its place in the block', () => {
    const call = '<function=get_weather>{"city": "Oslo"}</function>';
    const text = JSON.stringify({
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: [{ role: 'user', content: 'Weather?' }, { role: 'assistant', content: [{ type: 'text', text: 'Sure.' }, { type: 'text', text: `Checking ${call} now.` }] }],
    });
    const f = found(text);
    assert.deepEqual(f.map((x) => [x.message, x.token]), [['get_weather was written as text (<function=…>), not called: the message made no call, so nothing ran', asWritten(call)]]);
    assert.equal(text.indexOf(asWritten(call)), text.lastIndexOf(asWritten(call)));
  });

  it('a bare JSON message and a fenced {"tool", "parameters"} block: the span is the JSON object', () => {
    const bare = '{"name": "get_weather", "arguments": {"city": "Oslo"}}';
    assert.deepEqual(found(chat(bare)).map((x) => [x.message, x.token]), [['get_weather was written as text (a JSON call), not called: the message made no call, so nothing ran', asWritten(bare)]]);
    const block = '{\n  "tool": "get_weather",\n  "parameters": {"city": "Oslo"}\n}';
    assert.deepEqual(found(chat(`I will call it:\n\`\`\`json\n${block}\n\`\`\`\n`)).map((x) => x.token), [asWritten(block)]);
  });

  it('[TOOL_CALLS] with a list of calls, a {"type": "function", "function": …} object, and a leaked Harmony block', () => {
    const list = '[{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "get_weather", "arguments": {"city": "Rome"}}]';
    assert.deepEqual(found(chat(`[TOOL_CALLS]${list}`)).map((x) => [x.message, x.token]), [
      ['get_weather, get_weather was written as text (JSON calls), not called: the message made no call, so nothing ran', asWritten(list)],
    ]);
    const typed = '{"type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Oslo\\"}"}}';
    assert.deepEqual(found(chat(typed)).map((x) => x.token), [asWritten(typed)]);
    const harmony = '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>';
    assert.deepEqual(found(chat(`ok ${harmony}`)).map((x) => [x.message, x.token]), [
      ['get_weather was written as text (a <|message|> block), not called: the message made no call, so nothing ran', asWritten(harmony)],
    ]);
  });

  it('two written calls in one message: two warnings, in order', () => {
    const a = '<function=get_weather>{"city": "Oslo"}</function>';
    const b = '<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>';
    assert.deepEqual(found(chat(`${a}\nand\n${b}`)).map((x) => x.token), [asWritten(a), asWritten(b)]);
  });

  it('text parts of a Chat message are read one by one, each at its own place', () => {
    const call = '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>';
    const text = chat([{ type: 'text', text: 'Looking.' }, { type: 'text', text: call }]);
    const f = checkAndLocate(text, { fileName: 't.json' }).findings.filter((x) => x.code === 'call-in-text');
    assert.deepEqual(f.map((x) => [x.line, x.token]), [[text.split('\n').findIndex((l) => l.includes('<tool_call>')) + 1, asWritten(call)]]);
  });
});

describe('call-in-text: quiet', () => {
  it('prose that quotes call-shaped JSON inside a sentence, JSON that names no tool, a tag without a tool', () => {
    assert.deepEqual(found(chat('The tool takes input like {"name": "get_weather", "arguments": {"city": "Oslo"}} and returns a forecast.')), []);
    assert.deepEqual(found(chat('Use `<function=get_weather>` to call it.')), [], 'the syntax in backticks is prose');
    assert.deepEqual(found(chat('Here is the data:\n{"city": "Oslo", "temp": 3}\n')), [], 'no name, no arguments');
    assert.deepEqual(found(chat('{"name": "Alice", "arguments": ["x"]}')), [], 'contracts apply and Alice is no tool');
    assert.deepEqual(found(chat('<tool_call>not json</tool_call> {"a": 1}')), []);
  });

  it('a message that also made a real call (content next to tool_calls)', () => {
    const text = chat('<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>', {
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"}' } }],
    });
    assert.deepEqual(found(text), []);
  });

  it('without contracts any identifier-like name is a tool, a name with spaces is not', () => {
    const session = (last: string) => jsonl(
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'clock', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '12:00' },
      { role: 'assistant', content: last },
    );
    assert.deepEqual(found(session('{"name": "lookup_order", "arguments": {"id": 7}}'), 't.jsonl').map((f) => f.message), [
      'lookup_order was written as text (a JSON call), not called: the message made no call, so nothing ran',
    ]);
    assert.deepEqual(found(session('{"name": "Ada Lovelace", "arguments": {"id": 7}}'), 't.jsonl'), []);
  });
});

describe('call-in-text: messages written over several records', () => {
  const cc = (uuid: string, type: 'user' | 'assistant', message: object) => ({ type, uuid, parentUuid: null, sessionId: 'S', timestamp: '2026-01-01T00:00:00Z', message });
  const fake = '<tool_call>{"name": "Read", "arguments": {"file_path": "/a"}}</tool_call>';

  it('Claude Code: a text line followed by its own message\'s tool_use line is quiet; a final text line is not', () => {
    const text = jsonl(
      cc('u1', 'user', { role: 'user', content: 'read /a' }),
      cc('a1', 'assistant', { id: 'm1', role: 'assistant', content: [{ type: 'text', text: fake }] }),
      cc('a2', 'assistant', { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } }] }),
      cc('u2', 'user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'hello' }] }),
      cc('a3', 'assistant', { id: 'm2', role: 'assistant', content: [{ type: 'text', text: `Again:\n${fake}` }] }),
    );
    const f = found(text, 'session.jsonl');
    assert.deepEqual(f.map((x) => [x.line, x.token]), [[5, asWritten(fake)]]);
  });

  it('Codex: an assistant message item before a function_call of the same turn is quiet; the last message is not', () => {
    const env = (payload: object) => ({ timestamp: '2026-01-01T00:00:00Z', type: 'response_item', payload });
    const msg = (text: string) => env({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
    const call = '<function=shell>{"command": ["ls"]}</function>';
    const text = jsonl(
      env({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] }),
      msg(call),
      env({ type: 'function_call', name: 'shell', arguments: '{"command": ["ls"]}', call_id: 'c1' }),
      env({ type: 'function_call_output', call_id: 'c1', output: 'a.txt' }),
      msg(`Done. Next:\n${call}`),
    );
    const r = checkAndLocate(text, { fileName: 'rollout.jsonl' });
    assert.equal(r.format, 'codex');
    assert.deepEqual(r.findings.filter((x) => x.code === 'call-in-text').map((x) => [x.line, x.message, x.token]), [
      [5, 'shell was written as text (<function=…>), not called: the message made no call, so nothing ran', asWritten(call)],
    ]);
  });

  it('a text committed by a user message stays, even when a call follows later', () => {
    const text = JSON.stringify({
      tools: [weatherTool],
      messages: [
        { role: 'assistant', content: '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>' },
        { role: 'user', content: 'you did not call it' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '3 C' },
      ],
    });
    assert.equal(found(text).length, 1);
  });

  it('the session model keeps the texts of messages that made no call, and only those that could hold one', () => {
    const r = checkText(jsonl(
      { role: 'assistant', content: '<b>x</b>', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'clock', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'assistant', content: 'plain words, nothing to see' },
      { role: 'assistant', content: 'a {brace}' },
    ), { fileName: 't.jsonl', keepModel: true });
    const s: Session = r.model![0].session;
    assert.deepEqual(s.texts?.map((t) => [t.text, t.at.path, t.turn]), [['a {brace}', ['content'], 1]]);
  });
});

describe('call-in-text: a session with nothing but the written call', () => {
  // The engine checks sessions that have calls, results or tools; one whose only content is a written call (no
  // tools declared, nothing ran) needs it to look at `Session.texts` too.
  it('a completion response whose message wrote the call is warned', () => {
    const text = JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>' } }] });
    assert.equal(found(text).length, 1);
  });
});

describe('writtenCalls (the scanner)', () => {
  const any = (n: string) => n;
  it('offsets are in the decoded text', () => {
    const t = 'x\n{"name": "a", "arguments": {}}\ny <function=b>z</function>';
    assert.deepEqual(writtenCalls(t, any).map((w) => [w.name, t.slice(w.start, w.end)]), [['a', '{"name": "a", "arguments": {}}'], ['b', '<function=b>z</function>']]);
  });
  it('an unclosed tag runs to the end of the text; JSON followed by words on its line is prose', () => {
    assert.deepEqual(writtenCalls('<function=b>{"q": 1}', any).map((w) => [w.start, w.end]), [[0, 20]]);
    assert.deepEqual(writtenCalls('{"name": "a", "arguments": {}} is how you call it', any), []);
  });
});
