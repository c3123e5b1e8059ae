// Recorded HTTP cassettes in YAML, laid out the way the recorders write them (VCR.py / pytest-recording, Ruby VCR,
// go-vcr, pydantic-ai's `parsed_body` serializer): every call, result and pairing read from the bodies, and findings
// placed on the body text in the .yaml file. The traces are small and written here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, gzipSync } from 'node:zlib';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { checkText, looksLikeCassette, type Session } from '../../src/core';
import { findTraceFiles } from '../../src/cli/files';
import { binaryText, YAML_MAX_CHARS } from '../../src/core/parse/yaml';

function read(text: string, fileName: string) {
  const r = checkText(text, { fileName, keepModel: true, packs: false });
  const sessions: Session[] = (r.model ?? []).map((m) => m.session);
  const codes = r.findings.map((f) => f.code);
  const at = (code: string) => {
    const f = r.findings.find((x) => x.code === code);
    assert.ok(f, `no ${code} in ${codes.join()}`);
    return text.slice(f.span.start, f.span.end);
  };
  return { r, sessions, codes, at };
}

/** A single-quoted YAML scalar the way PyYAML and Psych write a long one: `'` doubled, folded at spaces onto lines
 *  indented by `indent` (a fold reads back as one space). */
function sq(s: string, indent: number, width = 60): string {
  const words = s.replace(/'/g, "''").split(' ');
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  return `'${lines.join(`\n${' '.repeat(indent)}`)}'`;
}

const weatherTool = { type: 'function', function: { name: 'get_weather', description: "the weather's report", parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } } };
const chatRequest = (messages: unknown[]) => JSON.stringify({ model: 'gpt-4o', messages, tools: [weatherTool] });
const chatResponse = (message: unknown) => JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }] });
const badCall = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ town: "L'Haÿ" }) } };

/** A VCR.py cassette (its default YAML serializer): request body a string, response body `{string}`. */
function vcrpy(pairs: [string, string][]): string {
  const out = ['interactions:'];
  for (const [req, res] of pairs) {
    out.push('- request:', `    body: ${sq(req, 6)}`, '    headers:', '      Content-Type:', '      - application/json', '    method: POST', '    uri: https://api.openai.com/v1/chat/completions');
    out.push('  response:', '    body:', `      string: ${sq(res, 8)}`, '    headers: {}', '    status:', '      code: 200', '      message: OK');
  }
  out.push('version: 1', '');
  return out.join('\n');
}

describe('YAML cassettes: VCR.py / pytest-recording', () => {
  const user = { role: 'user', content: "What's the weather in Paris?" };
  const assistant = { role: 'assistant', content: null, tool_calls: [badCall] };
  const text = vcrpy([
    [chatRequest([user]), chatResponse(assistant)],
    [chatRequest([user, assistant, { role: 'tool', tool_call_id: 'call_1', content: 'sunny' }]), chatResponse({ role: 'assistant', content: 'It is sunny.' })],
  ]);

  it('reads the call once (the next request echoes it), pairs its result, applies the request tools', () => {
    const { r, sessions, codes } = read(text, 'test_weather.yaml');
    assert.equal(r.format, 'http-cassette');
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].calls[0].id, 'call_1');
    assert.deepEqual(sessions[0].calls[0].args, { town: "L'Haÿ" });
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].callId, 'call_1');
    assert.ok(codes.includes('extra-key') && codes.includes('missing-key'), codes.join());
    assert.ok(!codes.includes('orphan-call') && !codes.includes('parse-error'), codes.join());
  });

  it('places a finding on the key as written inside the folded, quoted body string', () => {
    const { at } = read(text, 'test_weather.yml');
    assert.equal(at('extra-key'), '\\"town\\"');
  });

  it('with CRLF line breaks the same call is read and the finding lands on the same key', () => {
    const { r, at } = read(text.replace(/\n/g, '\r\n'), 'crlf.yaml');
    assert.equal(r.calls, 1);
    assert.equal(at('extra-key'), '\\"town\\"');
  });

  it('an SSE body in single quotes (a line break written as an empty line, long lines folded) is read event by event', () => {
    const events = [
      { type: 'message_start', message: { id: 'msg_q', type: 'message', role: 'assistant', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_q', name: 'get_weather', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"town": "San Francisco, CA"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
      { type: 'message_stop' },
    ];
    const sse = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
    // each line break of the body doubled (a single one would fold to a space), long lines folded at a space
    const lines = sse.split('\n').map((l) => l.replace(/'/g, "''").replace('San Francisco', 'San\n        Francisco'));
    const body = `'${lines.join('\n\n        ')}'`;
    const doc = ['interactions:', '- request:', `    body: ${sq(chatRequest([{ role: 'user', content: 'w' }]).replace('"gpt-4o"', '"claude"'), 6)}`, '    method: POST', '    uri: https://api.anthropic.com/v1/messages', '  response:', '    body:', `      string: ${body}`, '    status:', '      code: 200', 'version: 1', ''].join('\n');
    const { sessions } = read(doc, 'sse-quoted.yaml');
    assert.equal(sessions[0]?.calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { town: 'San Francisco, CA' });
  });

  it('a `.yml` or `.yaml` file written as JSON is read as the JSON it is', () => {
    const json = JSON.stringify({ interactions: [{ request: { body: chatRequest([user]), method: 'POST', uri: 'u' }, response: { body: { string: chatResponse(assistant) }, status: { code: 200 } } }], version: 1 });
    const a = read(json, 'c.yaml');
    const b = read(json, 'c.json');
    assert.equal(a.r.calls, 1);
    assert.deepEqual(a.r.findings.map((f) => [f.code, f.span]), b.r.findings.map((f) => [f.code, f.span]));
  });

  it('a body in double quotes, with escapes and escaped line breaks, maps its characters back', () => {
    const body = chatResponse({ role: 'assistant', content: 'Let me look', tool_calls: [{ id: 'c9', type: 'function', function: { name: 'get_weather', arguments: '{"town": "Nice"}' } }] });
    // VCR.py writes a body with non-printable or non-ASCII characters in double quotes: `\"`, `\u00e9`, and a long
    // line cut with `\` at its end, the next line's `\ ` keeping the space the cut fell on
    const escaped = JSON.stringify(body).slice(1, -1);
    const sp = escaped.indexOf(' me');
    const dq = `"${escaped.slice(0, sp)}\\\n        \\ ${escaped.slice(sp + 1)}"`;
    const doc = ['interactions:', '- request:', `    body: ${sq(chatRequest([{ role: 'user', content: 'caf\u00e9' }]), 6)}`, '    method: POST', '    uri: u', '  response:', '    body:', '      encoding: utf-8', `      string: ${dq}`, '    status:', '      code: 200', 'version: 1', ''].join('\n');
    const { sessions, at } = read(doc, 'dq.yaml');
    assert.equal(sessions[0]?.calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { town: 'Nice' });
    assert.equal(at('extra-key'), '\\\\\\"town\\\\\\"');
  });
});

describe('YAML cassettes: Ruby VCR', () => {
  it('`http_interactions` with `body: {encoding, string}`: tool_use and tool_result paired', () => {
    const tools = [{ name: 'add', description: 'Add two numbers', input_schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } }];
    const use = { type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 2, b: 'two' } };
    const req1 = JSON.stringify({ model: 'claude', messages: [{ role: 'user', content: [{ type: 'text', text: "What's 2 + 2?" }] }], tools });
    const res1 = JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: "I'll add them." }, use], stop_reason: 'tool_use' });
    const req2 = JSON.stringify({ model: 'claude', messages: [{ role: 'user', content: [{ type: 'text', text: "What's 2 + 2?" }] }, { role: 'assistant', content: [use] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '4' }] }], tools });
    const res2 = JSON.stringify({ id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'It is 4.' }], stop_reason: 'end_turn' });
    const side = (body: string) => ['    body:', '      encoding: UTF-8', `      string: ${sq(body, 8)}`];
    const doc = ['---', 'http_interactions:'];
    for (const [q, s] of [[req1, res1], [req2, res2]]) {
      doc.push('- request:', '    method: post', '    uri: https://api.anthropic.com/v1/messages', ...side(q), '    headers:', '      Content-Type:', '      - application/json');
      doc.push('  response:', '    status:', '      code: 200', '      message: OK', ...side(s), '  recorded_at: Thu, 12 Jun 2025 16:29:20 GMT');
    }
    doc.push('recorded_with: VCR 6.3.1', '');
    const text = doc.join('\n');
    const { r, sessions, codes, at } = read(text, 'can_use_a_tool.yml');
    assert.equal(r.format, 'http-cassette');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 1);
    assert.equal(sessions[0].results[0].callId, 'toolu_1');
    assert.ok(!codes.includes('orphan-call'), codes.join());
    assert.equal(at('type-drift'), '"two"');
  });
});

describe("YAML cassettes: pydantic-ai's parsed_body", () => {
  const tools = ['      tools:', '      - description: The country of the user', '        input_schema:', '          additionalProperties: false', '          properties:', '            code:', '              type: string', '          required:', '          - code', '          type: object', '        name: get_country'];
  const interaction = (messages: string[], content: string[]) => [
    '- request:', '    headers:', '      content-type:', '      - application/json', '    method: POST', '    parsed_body:', '      max_tokens: 1024', '      messages:', ...messages, '      model: claude', ...tools, '    uri: https://api.anthropic.com/v1/messages',
    '  response:', '    headers:', '      content-type:', '      - application/json', '    parsed_body:', '      content:', ...content, '      role: assistant', '      type: message', '    status:', '      code: 200', '      message: OK',
  ];
  const ask = ['      - content:', '        - text: Which country?', '          type: text', '        role: user'];
  const use = ['      - id: toolu_9', '        input:', '          iso: FR', '        name: get_country', '        type: tool_use'];
  const echo = ['      - content:', '        - id: toolu_9', '          input:', '            iso: FR', '          name: get_country', '          type: tool_use', '        role: assistant'];
  const result = ['      - content:', '        - content: France', '          is_error: false', '          tool_use_id: toolu_9', '          type: tool_result', '        role: user'];
  const text = ['interactions:', ...interaction(ask, use), ...interaction([...ask, ...echo, ...result], ['      - text: France.', '        type: text']), 'version: 1', ''].join('\n');

  it('reads JSON bodies saved as mappings: one call, its result paired, the tools applied', () => {
    const { r, sessions, codes, at } = read(text, 'test_tool.yaml');
    assert.equal(r.format, 'http-cassette');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { iso: 'FR' });
    assert.equal(sessions[0].results.length, 1);
    assert.ok(!codes.includes('orphan-call'), codes.join());
    // the finding is on the YAML key of the argument the tool does not declare
    assert.equal(at('extra-key'), 'iso');
  });

  it('a call the model made without an id, sent back by the client with one, is one call with its result', () => {
    const g = (parts: string[]) => ['      contents:', '      - parts:', '        - text: Capital of France?', '        role: user', ...parts];
    const decl = ['      tools:', '      - functionDeclarations:', '        - name: get_capital', '          parameters_json_schema:', '            properties:', '              country:', '                type: string', '            type: object'];
    const side = (body: string[]) => ['    headers:', '      content-type:', '      - application/json', '    parsed_body:', ...body];
    const gemini = [
      'interactions:',
      '- request:', ...side([...g([]), ...decl]), '    method: POST', '    uri: https://generativelanguage.googleapis.com/v1beta/models/m:generateContent',
      '  response:', ...side(['      candidates:', '      - content:', '          parts:', '          - functionCall:', '              args:', '                country: France', '              name: get_capital', '          role: model', '        finishReason: STOP']), '    status:', '      code: 200',
      '- request:', ...side([...g(['      - parts:', '        - functionCall:', '            args:', '              country: France', '            id: pyd_ai_1', '            name: get_capital', '        role: model', '      - parts:', '        - functionResponse:', '            id: pyd_ai_1', '            name: get_capital', '            response:', '              return_value: Paris', '        role: user']), ...decl]), '    method: POST', '    uri: u',
      '  response:', ...side(['      candidates:', '      - content:', '          parts:', '          - text: Paris.', '          role: model', '        finishReason: STOP']), '    status:', '      code: 200',
      'version: 1', '',
    ].join('\n');
    const { sessions, codes } = read(gemini, 'gemini.yaml');
    assert.equal(sessions[0].calls.length, 1, JSON.stringify(sessions[0].calls.map((c) => c.id)));
    assert.equal(sessions[0].calls[0].id, 'pyd_ai_1');
    assert.equal(sessions[0].results.length, 1);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result') && !codes.includes('duplicate-fingerprint'), codes.join());
  });

  it('a streamed (SSE) body kept as a literal block is read event by event, findings inside the block', () => {
    const events = [
      ['message_start', { type: 'message_start', message: { id: 'msg_s', type: 'message', role: 'assistant', content: [] } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_s', name: 'get_country', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"lang": "fr"}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' } }],
      ['message_stop', { type: 'message_stop' }],
    ] as const;
    const block = events.flatMap(([e, d]) => [`        event: ${e}`, `        data: ${JSON.stringify(d)}`, '']);
    const doc = ['interactions:', '- request:', '    parsed_body:', '      model: claude', '      stream: true', '      messages:', ...ask, ...tools, '    method: POST', '    uri: u', '  response:', '    body:', '      string: |+', ...block, '    headers:', '      content-type:', '      - text/event-stream', '    status:', '      code: 200', 'version: 1', ''].join('\n');
    const { sessions, at } = read(doc, 'stream.yaml');
    assert.equal(sessions[0].calls.length, 1);
    assert.deepEqual(sessions[0].calls[0].args, { lang: 'fr' });
    assert.equal(at('extra-key'), '\\"lang\\"');
  });
});

describe('YAML cassettes: go-vcr and other layouts', () => {
  it('go-vcr v4 (`version: 2`, string bodies, `code`): the call and its result', () => {
    const user = { role: 'user', content: 'Weather?' };
    const assistant = { role: 'assistant', content: null, tool_calls: [{ ...badCall, function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] };
    const side = (body: string) => [`        body: ${sq(body, 10, 10_000)}`];
    const doc = ['---', 'version: 2', 'interactions:'];
    [[chatRequest([user]), chatResponse(assistant)], [chatRequest([user, assistant, { role: 'tool', tool_call_id: 'call_1', content: 'rain' }]), chatResponse({ role: 'assistant', content: 'Rain.' })]].forEach(([q, s], i) => {
      doc.push(`    - id: ${i}`, '      request:', '        proto: HTTP/1.1', '        host: api.openai.com', ...side(q), '        url: https://api.openai.com/v1/chat/completions', '        method: POST');
      doc.push('      response:', '        proto: HTTP/2.0', '        content_length: -1', ...side(s), '        status: 200 OK', '        code: 200', '        duration: 1.2s');
    });
    const { r, sessions, codes } = read(doc.join('\n') + '\n', 'TestWeather.yaml');
    assert.equal(r.format, 'http-cassette');
    assert.equal(sessions[0].calls.length, 1);
    assert.equal(sessions[0].results.length, 1);
    assert.deepEqual(codes.filter((c) => c !== 'no-contract'), []);
  });

  it('a gzip body saved as `!!binary` is inflated and read; its findings stay on the body', () => {
    const body = chatResponse({ role: 'assistant', content: null, tool_calls: [badCall] });
    const b64 = gzipSync(Buffer.from(body)).toString('base64').match(/.{1,76}/g)!;
    const doc = ['interactions:', '- request:', `    body: ${sq(chatRequest([{ role: 'user', content: 'hi' }]), 6)}`, '    method: POST', '    uri: u', '  response:', '    body:', '      string: !!binary |', ...b64.map((l) => `        ${l}`), '    headers:', '      Content-Encoding:', '      - gzip', '    status:', '      code: 200', 'version: 1', ''].join('\n');
    const { r, sessions, codes } = read(doc, 'gz.yaml');
    assert.equal(sessions[0].calls.length, 1);
    assert.ok(codes.includes('extra-key'));
    const f = r.findings.find((x) => x.code === 'extra-key')!;
    const start = doc.indexOf(b64[0]);
    assert.ok(f.span.start >= start && f.span.end <= doc.indexOf('    headers:', start), JSON.stringify(f.span));
  });

  it('base64 bodies (Ruby VCR `base64_string`, HAR `content.encoding: base64`), gzip or not, are decoded and read', () => {
    const res = chatResponse({ role: 'assistant', content: null, tool_calls: [badCall] });
    const req = chatRequest([{ role: 'user', content: 'hi' }]);
    const gz = gzipSync(Buffer.from(res)).toString('base64');
    const ruby = ['---', 'http_interactions:', '- request:', '    method: post', '    uri: u', '    body:', '      encoding: UTF-8', `      string: ${sq(req, 8)}`, '  response:', '    status:', '      code: 200', '    body:', '      encoding: ASCII-8BIT', `      base64_string: |`, ...gz.match(/.{1,60}/g)!.map((l) => `        ${l}`), 'recorded_with: VCR 6.3.1', ''].join('\n');
    const a = read(ruby, 'b64.yml');
    assert.equal(a.sessions[0]?.calls.length, 1);
    const f = a.r.findings.find((x) => x.code === 'extra-key')!;
    assert.ok(f.span.start >= ruby.indexOf('base64_string') && f.span.end <= ruby.length, JSON.stringify(f.span));
    const har = JSON.stringify({ log: { version: '1.2', entries: [{ request: { method: 'POST', url: 'u', postData: { mimeType: 'application/json', text: req } }, response: { status: 200, content: { mimeType: 'application/json', encoding: 'base64', text: Buffer.from(res).toString('base64') } } }] } });
    const b = read(har, 'session.har');
    assert.equal(b.r.format, 'http-cassette');
    assert.equal(b.sessions[0]?.calls.length, 1);
    assert.ok(b.codes.includes('extra-key'));
    // not base64 at all, or not text once decoded: nothing read, no crash
    const junk = read(har.replace(/"text":"[A-Za-z0-9+/=]+"}}/, '"text":"%%%"}}'), 'junk.har');
    assert.equal(junk.r.calls, 0);
    // a small gzip body that inflates past the bounded map (one entry per character) is left unread
    const padded = JSON.stringify({ ...JSON.parse(res), pad: ' '.repeat(9 << 20) });
    const bomb = read(har.replace(Buffer.from(res).toString('base64'), gzipSync(Buffer.from(padded)).toString('base64')), 'bomb.har');
    assert.equal(bomb.r.calls, 0);
  });

  it('a literal block with an indentation indicator (`|2-`: the text starts with spaces) maps its characters', () => {
    const body = `  ${chatResponse({ role: 'assistant', content: null, tool_calls: [badCall] })}`;
    const doc = ['interactions:', '- request:', `    body: ${sq(chatRequest([{ role: 'user', content: 'hi' }]), 6)}`, '    method: POST', '    uri: u', '  response:', '    body:', '      string: |2-', `        ${body}`, '    status:', '      code: 200', 'version: 1', ''].join('\n');
    const { at } = read(doc, 'indent.yaml');
    assert.equal(at('extra-key'), '\\"town\\"');
  });

  it('several documents (`---` between them) are each read', () => {
    const one = vcrpy([[chatRequest([{ role: 'user', content: 'a' }]), chatResponse({ role: 'assistant', content: null, tool_calls: [badCall] })]]);
    const two = one.replace(/call_1/g, 'call_2');
    const { r } = read(`${one}---\n${two}`, 'two.yaml');
    assert.equal(r.calls, 2);
  });

  it('a cassette cut short is read up to the cut, and the cut is one parse error', () => {
    const user = { role: 'user', content: 'a' };
    const whole = vcrpy([
      [chatRequest([user]), chatResponse({ role: 'assistant', content: null, tool_calls: [badCall] })],
      [chatRequest([user]), chatResponse({ role: 'assistant', content: null, tool_calls: [{ ...badCall, id: 'call_2' }] })],
    ]);
    const cut = whole.slice(0, whole.lastIndexOf('string:') + 40);
    const { r, codes } = read(cut, 'cut.yaml');
    assert.equal(r.calls, 1);
    assert.equal(codes.filter((c) => c === 'parse-error').length, 1);
  });

  it('text that is not YAML is one parse error; YAML that is not a cassette is an unknown format, not a crash', () => {
    const bad = read('interactions: [1, 2\nversion: 1\n', 'bad.yaml');
    assert.deepEqual(bad.codes, ['parse-error']);
    assert.match(bad.r.findings[0].message, /^YAML: /);
    const ci = read('name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n', 'ci.yml');
    assert.equal(ci.r.calls, 0);
    assert.ok(!ci.codes.includes('parse-error'), ci.codes.join());
  });

  it('a YAML file over the size read as YAML is one parse error naming the limit, read no further', () => {
    const big = 'interactions:\n' + '- request: {body: null, method: GET, uri: "http://127.0.0.1/"}\n'.repeat(Math.ceil(YAML_MAX_CHARS / 60) + 10);
    assert.ok(big.length > YAML_MAX_CHARS);
    const { r, codes } = read(big, 'big.yaml');
    assert.deepEqual(codes, ['parse-error']);
    assert.match(r.findings[0].message, /^YAML: limit reached: this file is over 16 MB/);
  });
});

describe('YAML cassettes: which files a folder scan takes', () => {
  it('looksLikeCassette answers on the head of a file', () => {
    assert.equal(looksLikeCassette('interactions:\n- request:\n'), true);
    assert.equal(looksLikeCassette('---\nhttp_interactions:\n- request:\n'), true);
    assert.equal(looksLikeCassette('---\nversion: 2\ninteractions:\n    - id: 0\n'), true);
    assert.equal(looksLikeCassette('name: CI\non: push\njobs: {}\n'), false);
    assert.equal(looksLikeCassette('services:\n  web:\n    interactions: 3\n'), false);
  });

  it('a folder scan takes cassettes (also gzipped) and passes other YAML by; a YAML file named is always taken', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cg-cassettes-'));
    try {
      mkdirSync(path.join(root, 'cassettes'));
      const cassette = vcrpy([[chatRequest([{ role: 'user', content: 'a' }]), chatResponse({ role: 'assistant', content: 'b' })]]);
      writeFileSync(path.join(root, 'cassettes', 'a.yaml'), cassette);
      writeFileSync(path.join(root, 'cassettes', 'b.yaml.gz'), gzipSync(Buffer.from(cassette)));
      writeFileSync(path.join(root, 'ci.yml'), 'name: CI\non: push\n');
      // a large gzipped cassette (its head is read, the rest is not) and a broken gzip (passed by, no error)
      const filler = Array.from({ length: 20_000 }, (_, i) => `# ${i.toString(36).repeat(9)} ${Math.random()}`).join('\n');
      writeFileSync(path.join(root, 'cassettes', 'c.yaml.gz'), gzipSync(Buffer.from(`${cassette}${filler}\n`)));
      writeFileSync(path.join(root, 'cassettes', 'd.yaml.gz'), Buffer.concat([gzipSync(Buffer.from(cassette)).subarray(0, 12), Buffer.alloc(64, 7)]));
      const found = (await findTraceFiles([root], new Set())).map((f) => path.relative(root, f).split(path.sep).join('/'));
      assert.deepEqual(found.sort(), ['cassettes/a.yaml', 'cassettes/b.yaml.gz', 'cassettes/c.yaml.gz']);
      const named = await findTraceFiles([path.join(root, 'ci.yml')], new Set());
      assert.equal(named.length, 1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('YAML cassettes: hostile input stays cheap', () => {
  it('a literal block header followed by a long run of blanks is read at once (no regex backtracking)', () => {
    const doc = `interactions:\n- body: |${' '.repeat(200_000)}\n    hello\n`;
    const t = Date.now();
    const { r } = read(doc, 'blanks.yaml');
    assert.ok(Date.now() - t < 5000, `took ${Date.now() - t} ms`);
    assert.ok(!r.findings.some((f) => f.code === 'parse-error'), r.findings.map((f) => f.message).join());
  });

  it('a large anchored body aliased a thousand times is expanded only a few times, not into a text too long to hold', () => {
    const big = 'x'.repeat(1 << 20);
    const doc = `interactions: []\nb: &b "${big}"\nc: [${Array(999).fill('*b').join(',')}]\n`;
    const { r } = read(doc, 'aliases.yaml');
    assert.ok(!r.findings.some((f) => /limit reached|string length/i.test(f.message)), r.findings.map((f) => f.message).join());
    assert.equal(r.calls, 0);
  });

  it('aliases of deeply nested anchors nest past the depth limit: one parse error, not a stack overflow', () => {
    const n = 600; // each anchor within the parser's reach, their aliases 8 x 600 levels deep
    let doc = `a0: &a0 ${'['.repeat(n)}${']'.repeat(n)}\n`;
    for (let i = 1; i < 8; i++) doc += `a${i}: &a${i} ${'['.repeat(n)}*a${i - 1}${']'.repeat(n)}\n`;
    const { codes, r } = read(doc, 'deep.yaml');
    assert.deepEqual(codes, ['parse-error']);
    assert.match(r.findings[0].message, /^YAML: nested deeper than \d+ levels/);
  });

  it('a compressed body that inflates past the limit (a "zip bomb") is left unread; a small one is read', () => {
    const zeros = Buffer.alloc(40 << 20);
    assert.equal(binaryText(gzipSync(zeros)), undefined);
    assert.equal(binaryText(deflateSync(zeros)), undefined);
    assert.equal(binaryText(gzipSync(Buffer.from('{"ok":1}'))), '{"ok":1}');
    assert.equal(binaryText(deflateSync(Buffer.from('{"ok":2}'))), '{"ok":2}');
  });
});
