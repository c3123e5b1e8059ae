// A small scripted model API on 127.0.0.1 (port 0 unless given) for the recording proxy's tests and bench: it
// answers /v1/chat/completions, /v1/responses and /v1/messages, plain or streamed (`"stream": true`), with a script
// chosen by the request's `model`:
//   weather  a get_weather call with a key its contract does not have (`lang`)          (the default)
//   fenced   the same call with its arguments fenced (```json ... ```) — Chat Completions and Responses
//   text     an answer without a call
//   big      a text answer of 10 MB
//   cut      a stream that stops in the middle of the call (the socket is destroyed)
//   fail     500 with a JSON error
//   slow     a stream of 200 small text deltas, 20 ms apart
//   gzip     the weather answer gzip-encoded, whatever the client accepts (plain calls)
// Streams are written one event per chunk, a tick apart (`gap` ms with --gap / options.gap), so a tool call really
// arrives split over deltas. Everything sent is kept per request (`sent`) so a test can compare bytes.
// Run alone: `node test/live/fake-upstream.js [--port N]` prints `listening on http://127.0.0.1:PORT`.
'use strict';
const http = require('node:http');
const zlib = require('node:zlib');

const ARGS = { city: 'Paris', units: 'metric', lang: 'fr' };
const FENCED = '```json\n' + JSON.stringify({ city: 'Paris', units: 'metric' }) + '\n```';

/** The SSE events (as texts) and the plain body of a script, for one API. */
function script(api, model) {
  const args = model === 'fenced' ? FENCED : JSON.stringify(ARGS);
  const text = model === 'big' ? 'x'.repeat(10 * 1024 * 1024) : model === 'slow' ? 'tick ' : 'It is sunny.';
  const call = model === 'weather' || model === 'fenced' || model === 'cut';
  if (api === 'chat') return chat(call, args, text, model);
  if (api === 'messages') return messages(call, text, model);
  return responses(call, args, text, model);
}

const split = (s, parts) => {
  const size = Math.max(1, Math.ceil(s.length / parts));
  const out = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
};

function chat(call, args, text, model) {
  const id = 'chatcmpl-fake1';
  const head = { id, object: 'chat.completion.chunk', created: 1764547200, model: `fake-${model}` };
  const message = call
    ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_chat1', type: 'function', function: { name: 'get_weather', arguments: args } }] }
    : { role: 'assistant', content: text };
  const plain = { id, object: 'chat.completion', created: 1764547200, model: `fake-${model}`,
    choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };
  const events = [{ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }] }];
  if (call) {
    events.push({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_chat1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, finish_reason: null }] });
    for (const piece of split(args, 4)) events.push({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] }, finish_reason: null }] });
  } else {
    const pieces = model === 'slow' ? Array(200).fill(text) : split(text, 3);
    for (const piece of pieces) events.push({ ...head, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }
  events.push({ ...head, choices: [{ index: 0, delta: {}, finish_reason: call ? 'tool_calls' : 'stop' }] });
  const sse = events.map((e) => `data: ${JSON.stringify(e)}\n\n`);
  sse.push('data: [DONE]\n\n');
  return { plain, sse };
}

function messages(call, text, model) {
  const message = { id: 'msg_fake1', type: 'message', role: 'assistant', model: `fake-${model}`, content: [], stop_reason: null, stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 } };
  const content = call
    ? [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'toolu_fake1', name: 'get_weather', input: ARGS }]
    : [{ type: 'text', text }];
  const plain = { ...message, content, stop_reason: call ? 'tool_use' : 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } };
  const ev = (type, body) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
  const sse = [ev('message_start', { message }), ev('ping', {})];
  sse.push(ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
  const pieces = call ? ['Let me', ' check.'] : model === 'slow' ? Array(200).fill(text) : split(text, 3);
  for (const piece of pieces) sse.push(ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }));
  sse.push(ev('content_block_stop', { index: 0 }));
  if (call) {
    sse.push(ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_fake1', name: 'get_weather', input: {} } }));
    for (const piece of split(JSON.stringify(ARGS), 4)) sse.push(ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: piece } }));
    sse.push(ev('content_block_stop', { index: 1 }));
  }
  sse.push(ev('message_delta', { delta: { stop_reason: plain.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } }));
  sse.push(ev('message_stop', {}));
  return { plain, sse };
}

function responses(call, args, text, model) {
  const base = { id: 'resp_fake1', object: 'response', created_at: 1764547200, model: `fake-${model}`, tools: [] };
  const item = call
    ? { type: 'function_call', id: 'fc_fake1', call_id: 'call_resp1', name: 'get_weather', arguments: args, status: 'completed' }
    : { type: 'message', id: 'msg_fake1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  const plain = { ...base, status: 'completed', output: [item] };
  const ev = (type, body) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
  const sse = [ev('response.created', { response: { ...base, status: 'in_progress', output: [] } })];
  if (call) {
    sse.push(ev('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } }));
    for (const piece of split(args, 4)) sse.push(ev('response.function_call_arguments.delta', { output_index: 0, item_id: 'fc_fake1', delta: piece }));
    sse.push(ev('response.function_call_arguments.done', { output_index: 0, item_id: 'fc_fake1', arguments: args }));
  } else {
    const pieces = model === 'slow' ? Array(200).fill(text) : split(text, 3);
    for (const piece of pieces) sse.push(ev('response.output_text.delta', { output_index: 0, item_id: 'msg_fake1', content_index: 0, delta: piece }));
  }
  sse.push(ev('response.output_item.done', { output_index: 0, item }));
  sse.push(ev('response.completed', { response: plain }));
  return { plain, sse };
}

function apiOf(url) {
  const p = url.split('?')[0];
  if (p.endsWith('/chat/completions')) return 'chat';
  if (p.endsWith('/messages')) return 'messages';
  if (p.endsWith('/responses')) return 'responses';
  return undefined;
}

/**
 * Start the fake. `sent[i]` is what the i-th answered request got: {path, model, headers (as received), body (Buffer)}.
 * @param {{port?: number, gap?: number}} [options]
 */
function startFakeUpstream(options = {}) {
  const gap = options.gap ?? 0;
  const sent = [];
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const api = apiOf(req.url || '/');
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        body = {};
      }
      const record = { path: req.url, model: body.model, headers: req.headers, request: body, body: Buffer.alloc(0) };
      sent.push(record);
      const keep = (buf) => {
        record.body = Buffer.concat([record.body, buf]);
      };
      if (!api) {
        const text = JSON.stringify({ object: 'list', data: [{ id: 'fake-weather', object: 'model' }] });
        keep(Buffer.from(text));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
        return;
      }
      const model = ['weather', 'fenced', 'text', 'big', 'cut', 'fail', 'slow', 'gzip'].includes(body.model) ? body.model : 'weather';
      if (model === 'fail') {
        const text = JSON.stringify({ error: { message: 'the fake upstream failed on purpose', type: 'server_error' } });
        keep(Buffer.from(text));
        res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'req_fake_fail' });
        res.end(text);
        return;
      }
      const { plain, sse } = script(api, model === 'gzip' ? 'weather' : model);
      if (model === 'gzip') {
        const text = zlib.gzipSync(JSON.stringify(plain));
        keep(text);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': text.length });
        res.end(text);
        return;
      }
      if (!body.stream) {
        const text = Buffer.from(JSON.stringify(plain));
        keep(text);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length, 'x-request-id': 'req_fake_plain' });
        res.end(text);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': 'req_fake_stream' });
      const events = model === 'cut' ? sse.slice(0, Math.ceil(sse.length / 2)) : sse;
      const wait = model === 'slow' ? Math.max(gap, 20) : gap;
      let i = 0;
      const next = () => {
        if (res.destroyed) return;
        if (i === events.length) {
          if (model === 'cut') {
            res.socket?.destroy(); // mid-stream: no end, no [DONE]
            return;
          }
          res.end();
          return;
        }
        const buf = Buffer.from(events[i++]);
        keep(buf);
        res.write(buf);
        if (wait > 0) setTimeout(next, wait);
        else setImmediate(next);
      };
      next();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const port = server.address().port;
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        sent,
        close: () => new Promise((done) => {
          for (const s of sockets) s.destroy();
          server.close(() => done());
        }),
      });
    });
  });
}

module.exports = { startFakeUpstream, ARGS, FENCED };

if (require.main === module) {
  const at = process.argv.indexOf('--port');
  const g = process.argv.indexOf('--gap');
  startFakeUpstream({ port: at > 0 ? Number(process.argv[at + 1]) : 0, gap: g > 0 ? Number(process.argv[g + 1]) : 0 }).then((f) => {
    process.stdout.write(`listening on ${f.url}\n`);
    const stop = () => f.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
