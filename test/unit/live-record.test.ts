// The recording proxy with the official clients (openai, @anthropic-ai/sdk) against the scripted fake upstream
// (test/live/fake-upstream.js), all on 127.0.0.1: the bytes a client gets are the bytes the upstream sent, plain and
// streamed; every exchange is a line `check` reads with the findings the proxy printed (same line:column); no key
// reaches the file; findings are printed before the client has its answer's end.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { gunzipSync } from 'node:zlib';
import * as os from 'node:os';
import * as path from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startRecordingProxy, type RecordingProxy } from '../../src/cli/live/proxy';
import { ANTHROPIC_KEY, ANTHROPIC_TOOLS, CHAT_TOOLS, checked, fake, OPENAI_KEY, RESPONSES_TOOLS, type FakeUpstream } from './live-record-helpers';


interface Printed {
  line: string;
  clientDone: boolean;
}

/** The printed lines as `line:col code`. */
function places(printed: Printed[]): string[] {
  return printed.map((p) => {
    const m = /^ {2}\S+?:(\d+):(\d+) +\S+ +(\S+)/.exec(p.line);
    assert.ok(m, `a check text line: ${p.line}`);
    return `${m[1]}:${m[2]} ${m[3]}`;
  });
}

async function bytesOf(response: Response, onDone?: () => void): Promise<Buffer> {
  const reader = response.body!.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  onDone?.();
  return Buffer.concat(parts);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('record: the recording proxy with real clients', { timeout: 120_000 }, () => {
  let upstream: FakeUpstream;
  let proxy: RecordingProxy;
  let dir: string;
  let file: string;
  const printed: Printed[] = [];
  let clientDone = true;
  let openai: OpenAI;
  let anthropic: Anthropic;

  before(async () => {
    upstream = await fake.startFakeUpstream();
    dir = mkdtempSync(path.join(os.tmpdir(), 'cg-record-'));
    file = path.join(dir, 'recorded.jsonl');
    proxy = await startRecordingProxy({ upstream: upstream.url, out: file, shownAs: 'recorded.jsonl', onFinding: (line) => printed.push({ line, clientDone }) });
    openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0, timeout: 20_000 });
    anthropic = new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: proxy.url, maxRetries: 0, timeout: 20_000, defaultHeaders: { 'x-api-key': ANTHROPIC_KEY } });
  });

  after(async () => {
    await proxy?.close();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const lines = () => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');

  it('listens on 127.0.0.1 only', () => {
    assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('a plain Chat Completions call: the client gets the upstream bytes; the call is recorded and its finding printed', async () => {
    const before = upstream.sent.length;
    clientDone = false;
    const response = await openai.chat.completions.create({ model: 'weather', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: CHAT_TOOLS }).asResponse();
    const got = await bytesOf(response, () => (clientDone = true));
    assert.equal(response.status, 200);
    assert.equal(got.toString('utf8'), upstream.sent[before].body.toString('utf8'));
    // the key went to the upstream (the proxy is transparent) but not to the file
    assert.equal(upstream.sent[before].headers.authorization, `Bearer ${OPENAI_KEY}`);
    assert.equal(lines().length, 1);
    const rec = JSON.parse(lines()[0]) as { choices: { message: { tool_calls: { function: { arguments: string } }[] } }[]; tools: unknown[] };
    assert.equal(rec.choices[0].message.tool_calls[0].function.arguments, JSON.stringify(fake.ARGS));
    assert.deepEqual(rec.tools, CHAT_TOOLS);
    assert.equal(printed.length, 1);
    assert.match(printed[0].line, /extra-key +lang is not declared by get_weather/);
    assert.equal(printed[0].clientDone, false, 'printed before the client had the whole answer');
  });

  it('a streamed Chat Completions call: bytes equal, the deltas assembled in the recording, printed while the client is connected', async () => {
    const before = upstream.sent.length;
    const n = printed.length;
    clientDone = false;
    const response = await openai.chat.completions.create({ model: 'fenced', stream: true, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: CHAT_TOOLS }).asResponse();
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const got = await bytesOf(response, () => (clientDone = true));
    assert.equal(got.toString('utf8'), upstream.sent[before].body.toString('utf8'));
    assert.ok((got.toString('utf8').match(/^data: /gm) ?? []).length > 4, 'the call came split over deltas');
    const rec = JSON.parse(lines()[1]) as { recorded: { stream: boolean }; choices: { message: { tool_calls: { function: { arguments: string } }[] } }[] };
    assert.equal(rec.recorded.stream, true);
    assert.equal(rec.choices[0].message.tool_calls[0].function.arguments, fake.FENCED);
    assert.equal(printed.length, n + 1);
    assert.match(printed[n].line, /arguments-encoding/);
    assert.equal(printed[n].clientDone, false);
  });

  it('the SDK reads a streamed tool call split over deltas through the proxy', async () => {
    const stream = await openai.chat.completions.create({ model: 'weather', stream: true, messages: [{ role: 'user', content: 'Weather?' }], tools: CHAT_TOOLS });
    let args = '';
    let deltas = 0;
    for await (const chunk of stream) {
      for (const tc of chunk.choices[0]?.delta.tool_calls ?? []) {
        deltas += 1;
        args += tc.function?.arguments ?? '';
      }
    }
    assert.ok(deltas > 2);
    assert.deepEqual(JSON.parse(args), fake.ARGS);
  });

  it('Anthropic Messages, plain and streamed: the answer unchanged, the request tools are the contract', async () => {
    const before = upstream.sent.length;
    const n = printed.length;
    const response = await anthropic.messages.create({ model: 'weather', max_tokens: 100, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: ANTHROPIC_TOOLS }).asResponse();
    const got = await bytesOf(response);
    assert.equal(got.toString('utf8'), upstream.sent[before].body.toString('utf8'));
    const sentHeaders = upstream.sent[before].headers;
    assert.ok(sentHeaders['x-api-key'] === ANTHROPIC_KEY || sentHeaders.authorization === `Bearer ${ANTHROPIC_KEY}`, 'the key went upstream');
    const streamed = await anthropic.messages.create({ model: 'weather', stream: true, max_tokens: 100, messages: [{ role: 'user', content: 'Weather in Nice?' }], tools: ANTHROPIC_TOOLS }).asResponse();
    assert.equal((await bytesOf(streamed)).toString('utf8'), upstream.sent[before + 1].body.toString('utf8'), 'the streamed bytes too');
    const stream = anthropic.messages.stream({ model: 'weather', max_tokens: 100, messages: [{ role: 'user', content: 'Weather in Lyon?' }], tools: ANTHROPIC_TOOLS });
    const message = await stream.finalMessage();
    const use = message.content.find((b) => b.type === 'tool_use');
    assert.ok(use && use.type === 'tool_use');
    assert.deepEqual(use.input, fake.ARGS);
    const recorded = lines().slice(-3).map((l) => JSON.parse(l) as { messages: { role: string; content: unknown }[] });
    for (const r of recorded) {
      const last = r.messages[r.messages.length - 1] as { role: string; content: { type: string; input?: unknown }[] };
      assert.equal(last.role, 'assistant');
      assert.deepEqual(last.content.find((b) => b.type === 'tool_use')?.input, fake.ARGS, 'the streamed input assembled from its partial_json');
    }
    // the plain call's `lang` is new; the streamed call (another call id in real life; the same here) is not repeated
    assert.ok(printed.slice(n).some((p) => /extra-key +lang is not declared/.test(p.line)));
  });

  it('Responses, streamed: bytes equal, the final response recorded', async () => {
    const before = upstream.sent.length;
    const response = await openai.responses.create({ model: 'fenced', stream: true, input: 'Weather in Paris?', tools: RESPONSES_TOOLS }).asResponse();
    const got = await bytesOf(response);
    assert.equal(got.toString('utf8'), upstream.sent[before].body.toString('utf8'));
    const rec = JSON.parse(lines()[lines().length - 1]) as { object: string; input: string; output: { arguments: string }[] };
    assert.equal(rec.object, 'response');
    assert.equal(rec.input, 'Weather in Paris?');
    assert.equal(rec.output[0].arguments, fake.FENCED);
  });

  it('an upstream 500: the client gets the status and body; the exchange is recorded; the proxy keeps serving', async () => {
    const before = upstream.sent.length;
    await assert.rejects(openai.chat.completions.create({ model: 'fail', messages: [{ role: 'user', content: 'x' }] }), (e: { status?: number }) => e.status === 500);
    assert.equal(upstream.sent.length, before + 1);
    const rec = JSON.parse(lines()[lines().length - 1]) as { recorded: { status: number; response: { error: { type: string } } } };
    assert.equal(rec.recorded.status, 500);
    assert.equal(rec.recorded.response.error.type, 'server_error');
    const ok = await openai.chat.completions.create({ model: 'text', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(ok.choices[0].message.content, 'It is sunny.');
  });

  it('a 10 MB answer passes whole and is recorded', async () => {
    const before = upstream.sent.length;
    const response = await openai.chat.completions.create({ model: 'big', messages: [{ role: 'user', content: 'x' }] }).asResponse();
    const got = await bytesOf(response);
    assert.ok(got.length > 10 * 1024 * 1024);
    assert.equal(sha(got), sha(upstream.sent[before].body));
    const rec = JSON.parse(lines()[lines().length - 1]) as { choices: { message: { content: string } }[] };
    assert.equal(rec.choices[0].message.content.length, 10 * 1024 * 1024);
  });

  it('an answer the upstream encodes anyway: the client gets the encoded bytes, the recording the decoded answer', async () => {
    const before = upstream.sent.length;
    const got = await new Promise<Buffer>((resolve, reject) => {
      const body = JSON.stringify({ model: 'gzip', messages: [{ role: 'user', content: 'x' }], tools: CHAT_TOOLS });
      const req = http.request(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve(Buffer.concat(parts)));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(sha(got), sha(upstream.sent[before].body), 'the encoded bytes, unchanged');
    assert.equal(gunzipSync(got).toString('utf8').slice(0, 1), '{');
    const rec = JSON.parse(lines()[lines().length - 1]) as { choices: { message: { tool_calls: unknown[] } }[] };
    assert.equal(rec.choices[0].message.tool_calls.length, 1);
  });

  it('200 concurrent clients: every exchange answered and recorded, every line whole', async () => {
    const before = lines().length;
    const calls = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0
        ? openai.chat.completions.create({ model: 'weather', messages: [{ role: 'user', content: `q${i}` }], tools: CHAT_TOOLS }).then((r) => r.choices[0].message.tool_calls?.length ?? 0)
        : openai.chat.completions.create({ model: 'weather', stream: true, messages: [{ role: 'user', content: `q${i}` }], tools: CHAT_TOOLS }).then(async (s) => {
          let calls = 0;
          for await (const c of s) if (c.choices[0]?.delta.tool_calls?.[0]?.id) calls += 1;
          return calls;
        }),
    );
    const got = await Promise.all(calls);
    assert.deepEqual(got, Array(200).fill(1));
    const all = lines();
    assert.equal(all.length, before + 200);
    const asked = new Set(all.slice(before).map((l) => (JSON.parse(l) as { messages: { content: string }[] }).messages[0].content));
    assert.equal(asked.size, 200, 'each client’s exchange is its own line');
  });

  it('other paths pass through unrecorded', async () => {
    const n = lines().length;
    const models = await openai.models.list();
    assert.deepEqual(models.data.map((m) => m.id), ['fake-weather']);
    assert.equal(lines().length, n);
  });

  it('a key in the query or in a header of any name is redacted too', async () => {
    const r = await fetch(`${proxy.url}/v1/chat/completions?api-version=2024-10-21&api-key=INVENTEDkeyQ0123456789`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-custom-thing': `Bearer ${OPENAI_KEY}`, 'openai-organization': 'org-visible' },
      body: JSON.stringify({ model: 'text', messages: [{ role: 'user', content: 'x' }] }),
    });
    assert.equal(r.status, 200);
    await r.arrayBuffer();
    const rec = JSON.parse(lines()[lines().length - 1]) as { recorded: { path: string; headers: Record<string, string> } };
    assert.equal(rec.recorded.path, '/v1/chat/completions?api-version=2024-10-21&api-key=%5Bredacted%5D');
    assert.equal(rec.recorded.headers['x-custom-thing'], '[redacted]');
    assert.equal(rec.recorded.headers['openai-organization'], 'org-visible');
  });

  it('no key reaches the file; check FILE reads every exchange with the printed findings at the same places', () => {
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes('INVENTEDkey'), 'no key in the recording');
    assert.match(text, /"authorization":"\[redacted\]"/);
    assert.match(text, /"x-api-key":"\[redacted\]"/);
    const c = checked(file);
    assert.equal(c.parseErrors, 0);
    assert.equal(c.calls, lines().filter((l) => /get_weather","arguments|"type":"tool_use"|"type":"function_call"/.test(l)).length);
    for (const p of places(printed)) assert.ok(c.places.includes(p), `${p} is where check puts it (${c.places.slice(0, 5).join(', ')}…)`);
  });
});

describe('record: what a line keeps is capped', { timeout: 60_000 }, () => {
  it('an answer over the cap reaches the client whole; the line says it was not kept', async () => {
    const upstream = await fake.startFakeUpstream();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-record-cap-'));
    const file = path.join(dir, 'capped.jsonl');
    const proxy = await startRecordingProxy({ upstream: upstream.url, out: file, maxKept: 1024 * 1024 });
    try {
      const openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
      const r = await openai.chat.completions.create({ model: 'big', messages: [{ role: 'user', content: 'x' }] });
      assert.equal(r.choices[0].message.content?.length, 10 * 1024 * 1024);
      const rec = JSON.parse(readFileSync(file, 'utf8').trim()) as { recorded: { incomplete: string }; choices?: unknown; messages: unknown[] };
      assert.equal(rec.recorded.incomplete, 'the answer is over 1048576 bytes: not kept');
      assert.equal(rec.choices, undefined);
      assert.equal(rec.messages.length, 1, 'the request is kept');
    } finally {
      await proxy.close();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
