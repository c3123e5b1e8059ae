// Model API logs and recordings (round seven): Bedrock model invocation logs (one record holds the body the model
// got and the one it gave back), Groq's server-side tools (`executed_tools`, whole on a message or streamed twice),
// cassettes whose bodies are typed (`body: {type: json | text, content}`, as pydantic-ai's newer cassettes keep
// them), and Assistants code interpreter steps. Every trace here is small and written for the test, after the
// layout of a real file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

function read(text: string, fileName = 'trace.json') {
  const m = readModel(text, { fileName });
  return { ...m, codes: [...m.codes].sort() };
}

const J = JSON.stringify;
const jsonl = (...lines: unknown[]) => lines.map((l) => J(l)).join('\n') + '\n';
const allCalls = (sessions: { calls: { name: string }[] }[]) => sessions.flatMap((s) => s.calls);

// ---- Bedrock model invocation logging

const converseTools = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } } } }] };
const logRecord = (operation: string, input: unknown, output: unknown, extra: Record<string, unknown> = {}) => ({
  schemaType: 'ModelInvocationLog', schemaVersion: '1.0', timestamp: '2025-03-11T00:38:02Z', accountId: '000000000000',
  identity: { arn: 'arn:aws:iam::000000000000:user/dev' }, region: 'us-east-1', requestId: `req-${operation}`, operation,
  modelId: 'amazon.nova-lite-v1:0',
  input: { inputContentType: 'application/json', inputBodyJson: input, inputTokenCount: 4 },
  output: { outputContentType: 'application/json', outputBodyJson: output, outputTokenCount: 38 },
  ...extra,
});

describe('real layouts (apis7): Bedrock model invocation logs', () => {
  it('Converse: the tools of the input apply to the call of the output (one record, one session)', () => {
    const text = J(logRecord('Converse',
      { messages: [{ role: 'user', content: [{ text: 'weather in Paris?' }] }], toolConfig: converseTools, inferenceConfig: { maxTokens: 512 } },
      { output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { town: 'Paris' } } }] } },
        stopReason: 'tool_use', metrics: { latencyMs: 302 }, usage: { inputTokens: 4, outputTokens: 38, totalTokens: 42 } }), null, 4);
    const { r, sessions, codes } = read(text, 'invocations.json');
    assert.equal(r.format, 'bedrock-converse');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['get_weather']);
    assert.equal(sessions[0].calls[0].id, 'tooluse_1');
    // checked against the definition the input carried: before, the two halves were two sessions (no-contract)
    assert.deepEqual(codes, ['extra-key', 'missing-key']);
  });

  it('a CloudWatch log of ConverseStream records (output as its events) and an errored result in the input', () => {
    const streamed = [
      { messageStart: { role: 'assistant' } },
      { contentBlockStart: { start: { toolUse: { toolUseId: 'tooluse_2', name: 'get_weather' } }, contentBlockIndex: 0 } },
      { contentBlockDelta: { delta: { toolUse: { input: '{"city":' } }, contentBlockIndex: 0 } },
      { contentBlockDelta: { delta: { toolUse: { input: '"Rome"}' } }, contentBlockIndex: 0 } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: 'tool_use' } },
      { metadata: { usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 }, metrics: { latencyMs: 1 } } },
    ];
    const input = { messages: [
      { role: 'user', content: [{ text: 'weather?' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'service down' }], status: 'error' } }] },
    ], toolConfig: converseTools };
    const { sessions } = read(jsonl(logRecord('ConverseStream', input, streamed), logRecord('Converse', input, undefined, { errorCode: 'ThrottlingException' })), 'log.jsonl');
    assert.equal(sessions.length, 2);
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => `${c.id} t${c.turn}`), ['tooluse_1 t1', 'tooluse_2 t2']);
    assert.deepEqual(s.calls[1].args, { city: 'Rome' });
    assert.equal(s.results.length, 1);
    assert.equal(s.results[0].callId, 'tooluse_1');
    assert.equal(s.results[0].transport.isError, true);
    // the throttled record has its request only
    assert.deepEqual(sessions[1].calls.map((c) => c.id), ['tooluse_1']);
  });

  it('InvokeModel of an Anthropic model, the output body as JSON text; its stream events as a list', () => {
    const body = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] };
    const reply = { id: 'msg_bdrk_1', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'tool_use', id: 'toolu_bdrk_1', name: 'get_weather', input: { town: 'Oslo' } }],
      stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } };
    const events = [
      { type: 'message_start', message: { id: 'msg_bdrk_2', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 6, output_tokens: 2 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_bdrk_2', name: 'get_weather', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city": "Oslo"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
      { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 6, outputTokenCount: 9 } },
    ];
    const text = jsonl(
      { ...logRecord('InvokeModel', body, J(reply)), modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
      { ...logRecord('InvokeModelWithResponseStream', body, events), modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0' },
    );
    const { sessions, codes } = read(text, 'log.jsonl');
    assert.equal(sessions.length, 2);
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => c.id)), [['toolu_bdrk_1'], ['toolu_bdrk_2']]);
    assert.deepEqual(sessions[1].calls[0].args, { city: 'Oslo' });
    assert.ok(sessions.every((s) => s.tools.some((t) => t.name === 'get_weather')));
    // the JSON-text body's call is checked against the tools of its input, inside the string
    assert.deepEqual(codes.filter((c) => c !== 'orphan-call'), ['extra-key', 'missing-key']);
  });

  it('a record whose bodies went to S3 (only named) or are not ones this reader knows is left alone', () => {
    const s3 = { schemaType: 'ModelInvocationLog', operation: 'Converse', input: { inputBodyS3Path: 's3://b/in.json.gz' }, output: { outputBodyS3Path: 's3://b/out.json.gz' } };
    const llama = logRecord('InvokeModel', { prompt: 'hi', max_gen_len: 10 }, { generation: 'hello', stop_reason: 'stop' });
    for (const v of [s3, llama]) {
      const { r, sessions } = read(J(v), 'invocation.json');
      assert.equal(allCalls(sessions).length, 0);
      assert.notEqual(r.format, 'bedrock-converse');
    }
  });
});

// ---- Groq executed tools

const compoundMessage = {
  role: 'assistant',
  content: 'It is partly cloudy, 17 C.',
  reasoning: 'I will search, then compute.',
  executed_tools: [
    { index: 0, type: 'search', arguments: J({ query: 'weather in San Francisco today' }), output: 'Title: Weather in San Francisco\nURL: https://example.com/w\nScore: 0.98\n',
      search_results: { results: [{ title: 'Weather in San Francisco', url: 'https://example.com/w', content: 'partly cloudy', score: 0.98 }] } },
    { index: 1, type: 'python', arguments: J({ code: 'print((62.6 - 32) / 1.8)' }), output: '17.0\n' },
  ],
};

describe('real layouts (apis7): Groq executed tools', () => {
  it('a compound system\'s completion: each executed tool is a call and its result, the platform\'s tool', () => {
    const text = J({ id: 'stub', object: 'chat.completion', model: 'groq/compound', choices: [{ index: 0, finish_reason: 'stop', message: compoundMessage }] });
    const { r, sessions, codes } = read(text);
    assert.equal(r.format, 'openai-chat');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => `${c.name} t${c.turn}`), ['search t1', 'python t1']);
    assert.deepEqual(s.calls[0].args, { query: 'weather in San Francisco today' });
    assert.equal(s.calls[0].encoding, 'json-string');
    assert.deepEqual(s.results.map((x) => x.callIndex), [0, 1]);
    assert.equal(s.results[1].payload, '17.0\n');
    // no tools of the trace's own: the platform's have no contract, like any call
    assert.deepEqual(s.tools, []);
    assert.deepEqual(codes, ['no-contract', 'no-contract']);
  });

  it('beside the function tools a request declares, an executed tool is the platform\'s (not unknown), a function call still checked', () => {
    const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
    const msg = { ...compoundMessage, content: null, executed_tools: [compoundMessage.executed_tools[0]],
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: J({ town: 'SF' }) } }] };
    const text = J({ request: { model: 'openai/gpt-oss-120b', messages: [{ role: 'user', content: 'weather?' }], tools: [weather, { type: 'browser_search' }] },
      response: { object: 'chat.completion', choices: [{ index: 0, finish_reason: 'tool_calls', message: msg }] } });
    const { sessions, codes } = read(text);
    assert.deepEqual(sessions[0].calls.map((c) => `${c.name} t${c.turn}`), ['search t1', 'get_weather t1']);
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['get_weather', 'search']);
    assert.deepEqual(codes.filter((c) => c !== 'orphan-call'), ['extra-key', 'missing-key']);
  });

  it('an executed tool recorded without its arguments is not read; its structured results answer when there is no output', () => {
    const msg = { role: 'assistant', content: 'x', executed_tools: [
      { index: 0, type: 'search', search_results: { results: [{ url: 'https://example.com' }] } },
      { index: 1, type: 'browser.search', arguments: J({ query: 'q' }), search_results: { results: [{ url: 'https://example.com' }] } },
    ] };
    const { sessions } = read(J({ object: 'chat.completion', choices: [{ index: 0, message: msg }] }));
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['browser.search']);
    assert.deepEqual(sessions[0].results[0].payloadAt?.path.slice(-1), ['search_results']);
  });

  it('a stream: the tool comes with its arguments, then again with its output (chunks of their own ids): one call, paired', () => {
    const chunk = (id: string, delta: unknown, finish: string | null = null) => ({ id, object: 'chat.completion.chunk', created: 1, model: 'groq/compound',
      system_fingerprint: null, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
    const [search, python] = compoundMessage.executed_tools;
    const text = jsonl(
      chunk('c1', { reasoning: '<think>' }),
      chunk('c2', { executed_tools: [{ index: 0, type: 'search', arguments: search.arguments, search_results: { results: [] } }] }),
      chunk('c3', { executed_tools: [search] }),
      chunk('c4', { executed_tools: [{ index: 1, type: 'python', arguments: python.arguments }] }),
      chunk('c5', { executed_tools: [python] }),
      chunk('c6', { content: 'It is partly cloudy.' }),
      chunk('c7', {}, 'stop'),
    );
    const { r, sessions, codes } = read(text, 'stream.jsonl');
    assert.equal(r.format, 'stream');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => c.name), ['search', 'python']);
    assert.deepEqual(s.results.map((x) => `${x.callIndex} ${J(x.payload)}`), [`0 ${J(search.output)}`, `1 ${J(python.output)}`]);
    assert.deepEqual(codes, ['no-contract', 'no-contract']);
  });
});

// ---- typed cassette bodies

const groqCassette = `version: 1
interactions:
- request:
    method: POST
    uri: https://api.groq.com/openai/v1/chat/completions
    headers:
      content-type:
      - application/json
    body:
      type: json
      content:
        messages:
        - content: What is the weather in San Francisco today?
          role: user
        model: compound-beta
        stream: true
  response:
    status: 200
    headers:
      content-type:
      - text/event-stream
    body:
      type: text
      content: |+
        data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"groq/compound","choices":[{"index":0,"delta":{"executed_tools":[{"index":0,"type":"search","arguments":"{\\"query\\": \\"weather SF\\"}","search_results":{"results":[]}}]},"finish_reason":null}]}

        data: {"id":"c2","object":"chat.completion.chunk","created":1,"model":"groq/compound","choices":[{"index":0,"delta":{"executed_tools":[{"index":0,"type":"search","arguments":"{\\"query\\": \\"weather SF\\"}","output":"Title: Weather\\n"}]},"finish_reason":null}]}

        data: {"id":"c3","object":"chat.completion.chunk","created":1,"model":"groq/compound","choices":[{"index":0,"delta":{"content":"Cloudy."},"finish_reason":"stop"}]}

        data: [DONE]

  recorded_at: 2026-03-06T19:45:38.605778+00:00
- request:
    method: POST
    uri: https://api.openai.com/v1/chat/completions
    headers:
      content-type:
      - application/json
    body:
      type: json
      content:
        messages:
        - content: weather?
          role: user
        model: gpt-4o
        tools:
        - function:
            name: get_weather
            parameters:
              additionalProperties: false
              properties:
                city:
                  type: string
              required:
              - city
              type: object
          type: function
  response:
    status: 200
    headers:
      content-type:
      - application/json
    body:
      type: json
      content:
        choices:
        - finish_reason: tool_calls
          index: 0
          message:
            content: null
            role: assistant
            tool_calls:
            - function:
                arguments: '{"town": "Paris"}'
                name: get_weather
              id: call_1
              type: function
        id: chatcmpl-1
        object: chat.completion
  recorded_at: 2026-03-06T19:45:40.000000+00:00
`;

describe('real layouts (apis7): cassettes with typed bodies', () => {
  it('`body: {type: json | text, content}` is read like a body: the stream and the JSON answer, the request tools applied', () => {
    const { r, sessions, codes } = read(groqCassette, 'test_web_search.yaml');
    assert.equal(r.format, 'http-cassette');
    const calls = allCalls(sessions) as { name: string; id?: string }[];
    assert.deepEqual(calls.map((c) => `${c.name} ${c.id}`), ['search undefined', 'get_weather call_1']);
    assert.equal(sessions.flatMap((s) => s.results).length, 1);
    // the JSON answer is checked against the tools the request declared, on the key as written
    assert.ok(codes.includes('missing-key') && codes.includes('extra-key'), codes.join());
    const missing = r.findings.find((f) => f.code === 'extra-key')!;
    assert.equal(groqCassette.slice(missing.span.start, missing.span.end), '"town"');
  });

  it('a typed body of another kind (none, or text that is no JSON) brings nothing and breaks nothing', () => {
    const text = groqCassette.replace(/ {4}body:\n {6}type: json\n {6}content:\n {8}messages:\n {8}- content: weather\?/, '    body:\n      type: none\n      x:\n        messages:\n        - content: weather?');
    const { sessions, codes } = read(text, 'c.yaml');
    assert.equal(allCalls(sessions).length, 2);
    // that request is not read: its tools are not known, so the answer's call has no contract
    assert.ok(codes.includes('no-contract') && !codes.includes('missing-key'), codes.join());
  });
});

// ---- Assistants code interpreter steps

describe('real layouts (apis7): Assistants code interpreter steps', () => {
  const step = (status: string, input: string, outputs: unknown[]) => ({
    id: 'step_1', object: 'thread.run.step', created_at: 10, run_id: 'run_1', thread_id: 'thread_1', type: 'tool_calls', status,
    step_details: { type: 'tool_calls', tool_calls: [{ id: 'call_ci', type: 'code_interpreter', code_interpreter: { input, outputs } }] },
  });

  it('streamed: created with no code yet, completed with its code and logs: one call, paired with its outputs', () => {
    const text = jsonl(
      { event: 'thread.run.step.created', data: step('in_progress', '', []) },
      { event: 'thread.run.step.completed', data: step('completed', 'print(6*7)', [{ type: 'logs', logs: '42\n' }]) },
    );
    const { r, sessions } = read(text, 'run.jsonl');
    assert.equal(r.format, 'openai-assistants');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => [c.id, c.name, c.args]), [['call_ci', 'code_interpreter_call', 'print(6*7)']]);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError, x.payload]), [['call_ci', false, [{ type: 'logs', logs: '42\n' }]]]);
  });

  it('a streamed run: the run\'s events carry its tools (read once), the step\'s call is checked against them', () => {
    const run = (status: string) => ({ id: 'run_1', object: 'thread.run', status,
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }, { type: 'code_interpreter' }] });
    const fnStep = (status: string, output: string | null) => ({ id: 'step_2', object: 'thread.run.step', created_at: 20, run_id: 'run_1', type: 'tool_calls', status,
      step_details: { type: 'tool_calls', tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: J({ town: 'Paris' }), output } }] } });
    const text = jsonl(
      { event: 'thread.run.created', data: run('queued') },
      { event: 'thread.run.in_progress', data: run('in_progress') },
      { event: 'thread.run.step.created', data: { ...fnStep('in_progress', null), step_details: { type: 'tool_calls', tool_calls: [] } } },
      { event: 'thread.run.requires_action', data: run('requires_action') },
      { event: 'thread.run.step.completed', data: fnStep('completed', 'sunny') },
      { event: 'thread.run.step.completed', data: { ...step('completed', 'print(1)', [{ type: 'logs', logs: '1\n' }]), id: 'step_3', created_at: 30 } },
      { event: 'thread.run.completed', data: run('completed') },
    );
    const { r, sessions, codes } = read(text, 'run-stream.jsonl');
    assert.equal(r.format, 'openai-assistants');
    // the code interpreter the run enables is declared: its call is no unknown tool
    assert.deepEqual(sessions[0].tools.map((t) => t.name), ['get_weather', 'code_interpreter_call']);
    assert.deepEqual(sessions[0].calls.map((c) => c.name), ['get_weather', 'code_interpreter_call']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_w', 'call_ci']);
    assert.deepEqual(codes, ['extra-key', 'missing-key']);
  });

  it('a failed step is a failed run; a file search (no input recorded) is no call', () => {
    const failed = step('failed', 'open("/nope")', []);
    (failed.step_details.tool_calls as unknown[]).push({ id: 'call_fs', type: 'file_search', file_search: { ranking_options: { ranker: 'auto', score_threshold: 0 }, results: [] } });
    const { sessions } = read(J(failed), 'step.json');
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['call_ci']);
    assert.equal(sessions[0].results[0].transport.isError, true);
  });
});

// ---- ConverseStream: a server tool's result in a block of its own

describe('real layouts (apis7): ConverseStream server tool results', () => {
  const events = (result: unknown[], status = 'success') => [
    { messageStart: { role: 'assistant', p: 'abc' } },
    { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { name: 'nova_code_interpreter', toolUseId: 'tooluse_A', type: 'server_tool_use' } }, p: 'ab' } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"snippet":"1234 * 5678"}' } } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    { contentBlockStart: { contentBlockIndex: 1, start: { toolResult: { status, toolUseId: 'tooluse_A', type: 'nova_code_interpreter_result' } } } },
    ...result.map((r) => ({ contentBlockDelta: { contentBlockIndex: 1, delta: { toolResult: [r] } } })),
    { contentBlockStop: { contentBlockIndex: 1 } },
    { contentBlockStart: { contentBlockIndex: 2, start: { toolUse: { name: 'final_result', toolUseId: 'tooluse_B', type: 'tool_use' } } } },
    { contentBlockDelta: { contentBlockIndex: 2, delta: { toolUse: { input: '{"result":7006652.0}' } } } },
    { contentBlockStop: { contentBlockIndex: 2 } },
    { messageStop: { stopReason: 'tool_use' } },
    { metadata: { metrics: { latencyMs: 1732 }, usage: { inputTokens: 1002, outputTokens: 59, totalTokens: 1061 } } },
  ];

  it('the result block answers the server tool call by its id, its lone json block the payload', () => {
    const out = { stdOut: '7006652', stdErr: '', exitCode: 0, isError: false };
    const { r, sessions } = read(jsonl(...events([{ json: out }])), 'converse-stream.jsonl');
    assert.equal(r.format, 'bedrock-converse');
    const [s] = sessions;
    assert.deepEqual(s.calls.map((c) => `${c.name} ${c.id} t${c.turn}`), ['nova_code_interpreter tooluse_A t1', 'final_result tooluse_B t1']);
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError, x.payload]), [['tooluse_A', false, out]]);
  });

  it('a result in several deltas is their blocks together; status error is a failure', () => {
    const { sessions } = read(J(events([{ text: 'Traceback' }, { text: ' (most recent call last)' }], 'error')), 'events.json');
    assert.deepEqual(sessions[0].results.map((x) => [x.callId, x.transport.isError, x.payload]),
      [['tooluse_A', true, [{ text: 'Traceback' }, { text: ' (most recent call last)' }]]]);
  });
});

// ---- legacy function_call in chat chunks

describe('real layouts (apis7): streamed legacy function_call', () => {
  it('the name, then the argument fragments: one call, checked against the request\'s `functions`', () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-3.5-turbo-0613',
      choices: [{ index: 0, delta, finish_reason: finish }] });
    const request = { model: 'gpt-3.5-turbo-0613', messages: [{ role: 'user', content: 'weather in Boston?' }],
      functions: [{ name: 'get_current_weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } }] };
    const stream = [
      chunk({ role: 'assistant', content: null, function_call: { name: 'get_current_weather', arguments: '' } }),
      chunk({ function_call: { arguments: '{\n  "loc' } }),
      chunk({ function_call: { arguments: 'ation": "Boston, MA"\n}' } }),
      chunk({}, 'function_call'),
    ];
    const { r, sessions, codes } = read(jsonl(...stream), 'chunks.jsonl');
    assert.equal(r.format, 'stream');
    assert.deepEqual(sessions[0].calls.map((c) => [c.name, c.args]), [['get_current_weather', { location: 'Boston, MA' }]]);
    assert.deepEqual(codes, ['no-contract']);
    // in a cassette with its request, the request's functions are its definitions
    const sse = stream.map((c) => `data: ${J(c)}\n\n`).join('') + 'data: [DONE]\n\n';
    const har = { log: { entries: [{ request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', postData: { mimeType: 'application/json', text: J(request) } },
      response: { status: 200, content: { mimeType: 'text/event-stream', text: sse } } }] } };
    const h = read(J(har), 'session.har');
    assert.deepEqual(allCalls(h.sessions).map((c) => c.name), ['get_current_weather']);
    assert.deepEqual(h.codes, []);
  });
});

// ---- Gemini grounding

describe('real layouts (apis7): Gemini grounding is metadata, not calls', () => {
  it('a grounded answer beside a function call: the call is read, the search queries are not calls', () => {
    const text = J({ candidates: [{ content: { role: 'model', parts: [{ text: 'Spain won Euro 2024.' }, { functionCall: { name: 'save_fact', args: { fact: 'Spain' } } }] },
      finishReason: 'STOP', groundingMetadata: { webSearchQueries: ['UEFA Euro 2024 winner'], searchEntryPoint: { renderedContent: '<div></div>' },
        groundingChunks: [{ web: { uri: 'https://example.com', title: 'uefa.com' } }],
        groundingSupports: [{ segment: { startIndex: 0, endIndex: 20, text: 'Spain won Euro 2024.' }, groundingChunkIndices: [0] }] } }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: 'gemini-2.5-flash' });
    const { r, sessions } = read(text);
    assert.equal(r.format, 'gemini');
    assert.deepEqual(allCalls(sessions).map((c) => c.name), ['save_fact']);
  });
});

// ---- Gemini Batch API inline results

describe('real layouts (apis7): Gemini Batch API jobs with inline results', () => {
  const answer = (city: string) => ({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city } } }] }, finishReason: 'STOP' }], modelVersion: 'gemini-2.5-flash' });

  it('the operation (REST): each inlined response is a session of its own; an errored one brings none', () => {
    const op = { name: 'batches/123', done: true,
      metadata: { '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch', model: 'models/gemini-2.5-flash', state: 'BATCH_STATE_SUCCEEDED',
        output: { inlinedResponses: { inlinedResponses: [
          { response: answer('Paris'), metadata: { key: 'r1' } },
          { error: { code: 3, message: 'invalid' }, metadata: { key: 'r2' } },
          { response: answer('Rome'), metadata: { key: 'r3' } },
        ] } } } };
    const { r, sessions, codes } = read(J(op, null, 2), 'batch.json');
    assert.equal(r.format, 'gemini');
    assert.deepEqual(sessions.map((s) => s.calls.map((c) => (c.args as { city: string }).city)), [['Paris'], ['Rome']]);
    assert.ok(!codes.includes('read-by-shape'), codes.join());
  });

  it('a Python SDK dump of the job (`dest.inlined_responses`, snake_case parts)', () => {
    const job = { name: 'batches/456', state: 'JOB_STATE_SUCCEEDED', dest: { inlined_responses: [
      { response: { candidates: [{ content: { role: 'model', parts: [{ function_call: { name: 'get_weather', args: { city: 'Oslo' } } }] }, finish_reason: 'STOP' }] } },
    ] } };
    const { r, sessions } = read(J(job), 'job.json');
    assert.equal(r.format, 'gemini');
    assert.deepEqual(allCalls(sessions).map((c) => c.name), ['get_weather']);
  });
});

// ---- a request logged beside the events of its streamed answer

describe('real layouts (apis7): {request, response: [events]}', () => {
  const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } };

  it('Chat: the request\'s tools apply to the call the chunks stream (one session); its history is read once', () => {
    const request = { model: 'gpt-4o', stream: true, tools: [{ type: 'function', function: weather }], messages: [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: J({ city: 'Paris' }) } }] },
      { role: 'tool', tool_call_id: 'call_0', content: 'sunny' },
    ] };
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] });
    const response = [
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"town":"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
    ];
    const { r, sessions, codes } = read(jsonl({ request, response }), 'proxy.jsonl');
    assert.equal(r.format, 'stream');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].calls.map((c) => `${c.id} t${c.turn}`), ['call_0 t1', 'call_1 t2']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_0']);
    assert.deepEqual(codes.filter((c) => c !== 'orphan-call'), ['extra-key', 'missing-key']);
  });

  it('Anthropic: a Messages request and its event stream', () => {
    const request = { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ name: 'get_weather', input_schema: weather.parameters }] };
    const response = [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"town": "Oslo"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ];
    const { sessions, codes } = read(J({ request, response }, null, 2), 'exchange.json');
    assert.equal(sessions.length, 1);
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['toolu_1']);
    assert.deepEqual(codes.filter((c) => c !== 'orphan-call'), ['extra-key', 'missing-key']);
  });
});
