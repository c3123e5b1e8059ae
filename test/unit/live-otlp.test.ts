// `contract-guard otlp`: the OpenTelemetry JS SDK's own OTLP exporters (JSON over HTTP, gzip or not, and protobuf)
// send GenAI tool spans to the receiver; a tool call whose arguments drift from the definition its trace carries is
// printed as it arrives, and the recording, read by `check`, gives the same findings. Malformed bodies get 400 and
// the receiver goes on. Everything binds to 127.0.0.1; every child is killed when its test ends.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as path from 'node:path';
import { ROOT } from './helpers';
import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { decodeTraceRequest } from '../../src/cli/live/otlp-proto';
import { requestFault, splitByTrace } from '../../src/cli/live/otlp-request';
import { checkRecording, CLI, findingLines, keys, start, tempDir, waitFor, type Proc } from './live-mcp-otlp-helpers';

const DEFINITIONS = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'], additionalProperties: false } }];

/** One agent run as GenAI spans: a chat span that carries the tool definitions, then two executed tool calls (the
 *  first with a number where the definition wants a string). Exported span by span as each ends. */
async function runAgent(exporter: SpanExporter, shutdown = true): Promise<void> {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('contract-guard-test');
  const agent = tracer.startSpan('invoke_agent weather', { attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
  const ctx = trace.setSpan(ROOT_CONTEXT, agent);
  tracer.startSpan('chat gpt-test', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-test', 'gen_ai.usage.input_tokens': 12, 'gen_ai.tool.definitions': JSON.stringify(DEFINITIONS) } }, ctx).end();
  const tool = (id: string, args: unknown) => tracer.startSpan('execute_tool get_weather', { attributes: {
    'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.id': id,
    'gen_ai.tool.call.arguments': JSON.stringify(args), 'gen_ai.tool.call.result': '{"temperature": 21}' } }, ctx).end();
  tool('call_1', { city: 42 });
  tool('call_2', { city: 'Oslo', days: 2 });
  agent.end();
  await provider.forceFlush();
  if (shutdown) await provider.shutdown();
}

async function receiver(name: string): Promise<{ proc: Proc; url: string; out: string }> {
  const out = path.join(tempDir('otlp'), name);
  const proc = start([CLI, 'otlp', '--port', '0', '--out', out]);
  const m = await waitFor(proc.out, /^listening on (http:\/\/127\.0\.0\.1:\d+\/v1\/traces) \(OTLP\/HTTP traces, JSON and protobuf; recording to /);
  return { proc, url: m[1], out };
}

/** The drift is printed while the receiver runs; after it stops, what it printed is what `check` gives. */
async function sameAsCheck(r: { proc: Proc; out: string }): Promise<void> {
  await waitFor(r.proc.out, /^ {2}\S+:\d+:\d+ +error +type-drift +city wanted string, got number 42$/m);
  r.proc.child.kill('SIGTERM');
  assert.deepEqual(await r.proc.exited, { code: 0, signal: null });
  assert.match(r.proc.out(), /SIGTERM: stopping\nstopped: \d+ findings?; spans recorded to /);
  const checked = checkRecording(r.out);
  assert.equal(checked.format, 'otel');
  assert.equal(checked.calls, 2);
  assert.deepEqual(keys(findingLines(r.proc.out())), keys(checked.findings));
  assert.ok(!checked.findings.some((f) => f.code === 'no-contract'), 'the trace\'s own definitions are the contract');
}

describe('otlp receiver with the OpenTelemetry SDK exporters', () => {
  it('JSON, gzip: prints the type drift as the tool span arrives; the recording checks the same', { timeout: 30000 }, async () => {
    const r = await receiver('json.jsonl');
    try {
      await runAgent(new JsonExporter({ url: r.url, compression: CompressionAlgorithm.GZIP }));
      await sameAsCheck(r);
    } finally {
      r.proc.stop();
    }
  });

  it('JSON, plain: the same', { timeout: 30000 }, async () => {
    const r = await receiver('json-plain.jsonl');
    try {
      await runAgent(new JsonExporter({ url: r.url }));
      await sameAsCheck(r);
    } finally {
      r.proc.stop();
    }
  });

  it('protobuf, gzip and plain: decoded, recorded as OTLP JSON, the same findings', { timeout: 30000 }, async () => {
    for (const compression of [CompressionAlgorithm.GZIP, CompressionAlgorithm.NONE]) {
      const r = await receiver(`proto-${compression}.jsonl`);
      try {
        await runAgent(new ProtoExporter({ url: r.url, compression }));
        await sameAsCheck(r);
      } finally {
        r.proc.stop();
      }
    }
  });
});

function send(url: string, body: Buffer | string, headers: http.OutgoingHttpHeaders, method = 'POST'): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const GOOD = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans: [{
  traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'execute_tool get_weather', startTimeUnixNano: '1700000000000000000',
  attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'get_weather' } },
    { key: 'gen_ai.tool.call.arguments', value: { stringValue: '{"city": "Oslo"}' } }] }] }] }] });

describe('otlp receiver answers as a collector does', () => {
  it('refuses malformed bodies with 400 and goes on serving; a good body gets 200', { timeout: 30000 }, async () => {
    const r = await receiver('faults.jsonl');
    const json = { 'content-type': 'application/json' };
    const proto = { 'content-type': 'application/x-protobuf' };
    try {
      const faults: [Buffer | string, http.OutgoingHttpHeaders, number, RegExp][] = [
        ['{"resourceSpans": [', json, 400, /not JSON/],
        ['{"resourceSpans": {}}', json, 400, /resourceSpans is not an array/],
        ['[1, 2]', json, 400, /not a JSON object/],
        [Buffer.from([0x0a, 0xff, 0xff, 0xff]), proto, 400, /not an OTLP protobuf ExportTraceServiceRequest/],
        ['not gzip at all', { ...json, 'content-encoding': 'gzip' }, 400, /not valid gzip/],
        [GOOD, { 'content-type': 'text/plain' }, 415, /unsupported content type text\/plain/],
        [GOOD, { ...json, 'content-encoding': 'br' }, 415, /unsupported content encoding br/],
      ];
      for (const [body, headers, status, re] of faults) {
        const res = await send(r.url, body, headers);
        assert.equal(res.status, status, `${String(headers['content-type'])}: ${res.body.toString()}`);
        if (headers['content-type'] === 'application/x-protobuf') assert.equal(res.type, 'application/x-protobuf');
        else assert.match((JSON.parse(res.body.toString()) as { message: string }).message, re);
      }
      assert.equal((await send(r.url.replace('/v1/traces', '/v1/metrics'), '{}', json)).status, 404);
      assert.equal((await send(r.url, '', {}, 'GET')).status, 405);

      // still serving: a good JSON body, gzipped, and an empty protobuf request (no spans)
      const ok = await send(r.url, gzipSync(GOOD), { ...json, 'content-encoding': 'gzip' });
      assert.deepEqual([ok.status, ok.type, ok.body.toString()], [200, 'application/json', '{"partialSuccess":{}}']);
      const empty = await send(r.url, Buffer.alloc(0), proto);
      assert.deepEqual([empty.status, empty.type, empty.body.length], [200, 'application/x-protobuf', 0]);
      assert.match(r.proc.err(), /contract-guard: 400 POST \/v1\/traces: not JSON/);

      r.proc.child.kill('SIGTERM');
      assert.equal((await r.proc.exited).code, 0);
      const checked = checkRecording(r.out);
      assert.deepEqual([checked.format, checked.calls], ['otel', 1], 'only the good span was recorded');
    } finally {
      r.proc.stop();
    }
  });
});

describe('otlp receiver under load, with --contracts', () => {
  it('takes 50 concurrent exports without losing a span, holding definition-less spans to the contract files', { timeout: 30000 }, async () => {
    const contracts = path.join(ROOT, 'test', 'live', 'get-weather.tools.json');
    const out = path.join(tempDir('otlp'), 'load.jsonl');
    const proc = start([CLI, 'otlp', '--port', '0', '--out', out, '--contracts', contracts]);
    try {
      const url = (await waitFor(proc.out, /^listening on (\S+) /))[1];
      const body = (i: number) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{
        traceId: i.toString(16).padStart(32, '0'), spanId: 'eee19b7ec3c1b174', name: 'execute_tool get_weather', startTimeUnixNano: '1700000000000000000',
        attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'get_weather' } },
          { key: 'gen_ai.tool.call.arguments', value: { stringValue: JSON.stringify({ city: i % 2 === 0 ? i : `city ${i}` }) } }] }] }] }] });
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => send(url, body(i), { 'content-type': 'application/json' })));
      assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
      // the 25 drifting calls are printed while the receiver runs (root spans: each trace settles after a quiet time)
      await waitFor(() => String(findingLines(proc.out()).filter((f) => f.code === 'type-drift').length), /^25$/);
      proc.child.kill('SIGTERM');
      assert.equal((await proc.exited).code, 0);
      const checked = checkRecording(out, ['--contracts', contracts]);
      assert.equal(checked.calls, 50, 'every span recorded');
      assert.equal(checked.findings.filter((f) => f.code === 'type-drift').length, 25);
      assert.deepEqual(keys(findingLines(proc.out())), keys(checked.findings));
    } finally {
      proc.stop();
    }
  });
});

/** Protobuf JSON leaves default values out; the JS JSON serializer writes them. Drop them to compare. */
function withoutDefaults(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDefaults);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === 0 || x === '' || (Array.isArray(x) && x.length === 0)) continue;
    // 64-bit integers: a decimal string in OTLP JSON, whichever way the serializer wrote them
    out[k] = k === 'intValue' && typeof x === 'number' ? String(x) : withoutDefaults(x);
  }
  return out;
}

describe('otlp protobuf decoding', () => {
  it('decodes what the SDK serializes to protobuf into what it serializes to JSON', async () => {
    const memory = new InMemorySpanExporter();
    await runAgent(memory, false); // shutting down would empty the memory exporter
    const spans = memory.getFinishedSpans();
    assert.equal(spans.length, 4);
    const decoded = decodeTraceRequest(ProtobufTraceSerializer.serializeRequest(spans)!);
    const json = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8')) as unknown;
    assert.deepEqual(withoutDefaults(decoded), withoutDefaults(json));
    assert.match(JSON.stringify(decoded), /"traceId":"[0-9a-f]{32}"/);
    assert.match(JSON.stringify(decoded), /"startTimeUnixNano":"\d{19}"/, 'nanosecond times exact, as decimal strings');
  });

  it('cuts a request into one request per trace id, each span under its own resource and scope', () => {
    const span = (traceId: string, spanId: string) => ({ traceId, spanId, name: spanId });
    const request = { resourceSpans: [
      { resource: { attributes: [{ key: 'service.name', value: { stringValue: 'a' } }] }, scopeSpans: [{ scope: { name: 's1' }, spans: [span('t1', 'x'), span('t2', 'y'), span('t1', 'z')] }] },
      { resource: { attributes: [] }, schemaUrl: 'u', scopeSpans: [{ scope: { name: 's2' }, spans: [span('t2', 'w')] }] },
    ] };
    assert.equal(requestFault(request), undefined);
    const lines = splitByTrace(request);
    assert.deepEqual(lines.map((l) => [l.traceId, l.spans]), [['t1', 2], ['t2', 2]]);
    assert.deepEqual(JSON.parse(lines[0].line), { resourceSpans: [request.resourceSpans[0]].map((rs) => ({ ...rs, scopeSpans: [{ scope: { name: 's1' }, spans: [span('t1', 'x'), span('t1', 'z')] }] })) });
    assert.deepEqual(JSON.parse(lines[1].line), { resourceSpans: [
      { resource: request.resourceSpans[0].resource, scopeSpans: [{ scope: { name: 's1' }, spans: [span('t2', 'y')] }] },
      { resource: { attributes: [] }, schemaUrl: 'u', scopeSpans: [{ scope: { name: 's2' }, spans: [span('t2', 'w')] }] },
    ] });
    const old = { resourceSpans: [{ instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'l' }, spans: [span('t3', 'v')] }] }] };
    assert.deepEqual(splitByTrace(old).map((l) => JSON.parse(l.line) as unknown), [old], 'spans of OTLP before 0.15 (instrumentationLibrarySpans) too');
    assert.equal(requestFault({}), undefined, 'an empty request is a request');
    assert.match(requestFault({ resourceSpans: [{ scopeSpans: [{ spans: [1] }] }] }) ?? '', /a span is not an object/);
  });
});
