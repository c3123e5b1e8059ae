// Every file of ../shared/corpus/, read by the adapter of its format: which adapter, how many calls and results,
// how they pair, the transport signals the results carry, and every finding (without workspace contracts), each
// expectation written from reading the file, with its reason. Detection is unambiguous: each corpus file is
// claimed by exactly one adapter, and JSON that is no trace is claimed by none. Skips when the corpus is absent.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ADAPTERS, checkBytes, checkText, type BytesResult, type Session, type ToolCall } from '../../src/core';
import { containerText } from '../../src/core/parse/container';
import { LineIndex } from '../../src/core/parse/reader';
import { spanOf } from '../../src/core/parse/doc';

function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'src', 'core'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('no repository root above ' + __dirname);
  }
}

const ROOT = repoRoot();
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');
const SKIP = !existsSync(CORPUS) && 'corpus absent (../shared/corpus)';

interface Expectation {
  /** Why this adapter reads the file. */
  why: string;
  format: string | undefined;
  sessions: number;
  calls: number;
  results: number;
  /** Names of the calls no result answers (by id, or by position where the format has no ids). */
  unanswered: string[];
  /** Results whose call is not in the session. */
  stray?: number;
  /** Embedded tool definitions (distinct names over all sessions). */
  tools?: number;
  /** `<tool> <signal>=<value>` for each result that carries transport signals, in order. */
  transport?: string[];
  /** `[code line:column tool, reason]`: every finding, in order. */
  findings: [string, string][];
  /** Further facts about this file. */
  extra?: (r: BytesResult, sessions: Session[], pos: (s: number) => string) => void;
}

function callOf(s: Session, r: Session['results'][number]): ToolCall | undefined {
  if (r.callId !== undefined) return s.calls.find((c) => c.id === r.callId);
  return r.callIndex !== undefined ? s.calls[r.callIndex] : undefined;
}

const NO_CONTRACT = 'no contract file is given and the trace records no definition for it: reported once per tool';

const EXPECT: Record<string, Expectation> = {
  'anthropic-messages/oi-reasoning-tool-use-non-streaming.json': {
    why: 'an HTTP cassette {status, headers, body}; the body string is an Anthropic Messages response, read inside the string',
    format: 'http-cassette', sessions: 1, calls: 1, results: 0, unanswered: ['get_weather'],
    findings: [['no-contract 6:909 get_weather', NO_CONTRACT]],
    extra: (r, [s]) => assert.deepEqual(s.calls[0].args, { location: 'San Francisco' }, 'the tool_use input inside the body string'),
  },
  'anthropic-messages/oi-reasoning-tool-use-streaming.json': {
    why: 'an HTTP cassette whose body is an SSE stream: the tool_use block is assembled from input_json_delta fragments',
    format: 'http-cassette', sessions: 1, calls: 1, results: 0, unanswered: ['get_weather'],
    findings: [['no-contract 6:2454 get_weather', NO_CONTRACT + '; it points at the content_block_start that named the tool']],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls[0].args, { location: 'San Francisco' }, 'partial_json fragments concatenated and parsed');
      assert.equal(s.calls[0].id, 'toolu_01X1PSFUkNua9EZHLVHwy6T4', 'the id comes from content_block_start');
    },
  },
  'anthropic-messages/vai-anthropic-mcp.1.json': {
    why: 'an Anthropic Messages response; mcp_tool_use and mcp_tool_result (server-side MCP) sit in the same message',
    format: 'anthropic', sessions: 1, calls: 1, results: 1, unanswered: [],
    transport: ['echo isError=false'],
    findings: [['no-contract 10:15 echo', NO_CONTRACT]],
  },
  'anthropic-messages/vai-anthropic-programmatic-tool-calling.1.json': {
    why: 'an Anthropic Messages response: a server_tool_use code_execution with its code_execution_tool_result, then four client rollDie calls',
    format: 'anthropic', sessions: 1, calls: 5, results: 1, unanswered: ['rollDie', 'rollDie', 'rollDie', 'rollDie'],
    transport: ['code_execution exitCode=0'],
    findings: [
      ['no-contract 14:15 code_execution', NO_CONTRACT],
      ['no-contract 25:15 rollDie', NO_CONTRACT],
      ['orphan-call 25:15 rollDie', 'the response ends before the client runs the rolls: info, the trace ends here'],
      ['orphan-call 37:15 rollDie', 'same: unanswered at the end of the trace'],
      ['orphan-call 49:15 rollDie', 'same'],
      ['orphan-call 61:15 rollDie', 'same; identical inputs in one turn are a fan-out, not a duplicate'],
    ],
  },
  'anthropic-messages/vai-anthropic-tool-no-args.json': {
    why: 'an Anthropic Messages response with one tool_use whose input is {}',
    format: 'anthropic', sessions: 1, calls: 1, results: 0, unanswered: ['updateIssueList'],
    findings: [['no-contract 14:15 updateIssueList', NO_CONTRACT]],
  },
  'bfcl/BFCL_v4_live_parallel.json': {
    why: 'BFCL question lines (JSONL in a .json file): each question is a session of tool definitions, no calls',
    format: 'bfcl', sessions: 16, calls: 0, results: 0, unanswered: [], tools: 7,
    findings: [],
    extra: (r, sessions) => {
      const def = sessions[0].tools[0].inputSchema as { type: string };
      assert.equal(def.type, 'object', 'BFCL "dict" is read as JSON Schema "object"');
    },
  },
  'bfcl/BFCL_v4_live_parallel.possible_answer.json': {
    why: 'a BFCL answer key: acceptable values per parameter, not calls a model made; recognised, nothing to check',
    format: 'bfcl', sessions: 0, calls: 0, results: 0, unanswered: [],
    findings: [],
  },
  'claude-code/ccl-edge_cases.jsonl': {
    why: 'Claude Code log lines (uuid, sessionId, message); junk lines (a string, 42, [1], {"silly"}) are skipped',
    format: 'claude-code', sessions: 2, calls: 3, results: 2, unanswered: ['TodoWrite'],
    transport: ['FailingTool isError=true'],
    findings: [
      ['no-contract 4:405 FailingTool', NO_CONTRACT],
      ['no-contract 9:580 MultiEdit', NO_CONTRACT],
      ['no-contract 17:173 TodoWrite', NO_CONTRACT + ' (its own session: todowrite_session, which records no results, so no orphan check)'],
    ],
    extra: (r, sessions) => {
      assert.deepEqual(sessions.map((s) => s.id), ['edge_cases', 'todowrite_session'], 'one session per sessionId');
      const multi = sessions[0].results[1];
      assert.deepEqual(multi.at.path, ['toolUseResult'], 'line 10 misspells message.content: the MultiEdit result comes from toolUseResult');
      assert.equal(callOf(sessions[0], multi)?.name, 'MultiEdit');
      assert.equal(sessions[0].results.length, 2, 'line 18 repeats uuid edge_010: a replayed copy, not a second result');
    },
  },
  'claude-code/ccl-representative_messages.jsonl': {
    why: 'Claude Code log: Edit and Bash tool_use, each answered by a tool_result with is_error false',
    format: 'claude-code', sessions: 1, calls: 2, results: 2, unanswered: [],
    transport: ['Edit isError=false', 'Bash isError=false'],
    findings: [['no-contract 4:395 Edit', NO_CONTRACT], ['no-contract 8:395 Bash', NO_CONTRACT]],
  },
  'claude-code/ccl-todowrite_examples.jsonl': {
    why: 'Claude Code log: three TodoWrite calls; their tool_results have no is_error key, so no transport signal',
    format: 'claude-code', sessions: 1, calls: 3, results: 3, unanswered: [],
    transport: [],
    findings: [['no-contract 3:173 TodoWrite', NO_CONTRACT + ' (once, though called three times)']],
  },
  'claude-code/cct-sample_session.json': {
    why: 'a {loglines: [...]} export of a Claude Code session',
    format: 'claude-code', sessions: 1, calls: 12, results: 12, unanswered: [],
    transport: ['Write isError=false', 'Bash isError=false', 'TodoWrite isError=false', 'Bash isError=false', 'Bash isError=false', 'Glob isError=false',
      'Edit isError=false', 'Grep isError=false', 'Bash isError=true', 'Edit isError=false', 'Bash isError=false', 'Edit isError=false'],
    findings: [
      ['no-contract 28:21 Write', NO_CONTRACT], ['no-contract 65:21 Bash', NO_CONTRACT], ['no-contract 102:21 TodoWrite', NO_CONTRACT],
      ['no-contract 218:21 Glob', NO_CONTRACT], ['no-contract 251:21 Edit', NO_CONTRACT], ['no-contract 289:21 Grep', NO_CONTRACT],
    ],
  },
  'claude-code/cct-sample_session.jsonl': {
    why: 'a simplified Claude Code log (no parentUuid); a summary line first',
    format: 'claude-code', sessions: 1, calls: 2, results: 2, unanswered: [],
    transport: [],
    findings: [['no-contract 3:234 Write', NO_CONTRACT], ['no-contract 5:174 Bash', NO_CONTRACT]],
  },
  'codex-cli/ccl-rollout-11111111.jsonl': {
    why: 'a Codex rollout: {timestamp, type, payload} lines; an unknown record type at the end is skipped',
    format: 'codex', sessions: 1, calls: 3, results: 3, unanswered: [],
    transport: [],
    findings: [
      ['no-contract 6:105 exec_command', NO_CONTRACT],
      ['no-contract 8:108 apply_patch', NO_CONTRACT + '; its free-form patch input is no arguments-encoding fault'],
      ['no-contract 10:105 mcp__synthetic__lookup', NO_CONTRACT],
    ],
    extra: (r, [s]) => {
      assert.equal(s.id, '11111111-1111-4111-8111-111111111111', 'session_meta names the session');
      assert.equal(s.calls[1].encoding, 'freeform');
      assert.match(s.calls[1].args as string, /^\*\*\* Begin Patch/);
    },
  },
  'inspect-ai/browser_gpt-4o-mini.json': {
    why: 'an Inspect AI .json log: calls from samples[].messages, definitions from the model events',
    format: 'inspect', sessions: 1, calls: 4, results: 4, unanswered: [], tools: 8,
    findings: [],
    extra: (r, [s]) => {
      assert.equal(s.id, '1#1', 'a session per sample and epoch');
      assert.deepEqual(s.calls.map((c) => c.args), [{ url: 'https://www.aisi.gov.uk/' }, { element_id: 151 }, { element_id: 884 }, { element_id: 903 }],
        'the calls appear twice (messages and tool events): read once; element ids are integers as the schema wants, so no finding');
    },
  },
  'inspect-ai/log_streaming.eval': {
    why: 'an Inspect AI .eval zip (header.json, samples/*.json) unpacked through checkBytes; a mockllm run without tool calls',
    format: 'inspect', sessions: 0, calls: 0, results: 0, unanswered: [],
    findings: [],
    extra: (r) => {
      assert.equal(r.container, true);
      const v = JSON.parse(r.text) as { header: { eval: unknown }; samples: unknown[] };
      assert.equal(v.samples.length, 4, 'four samples (two ids x two epochs)');
    },
  },
  'inspect-ai/skeleton_basic.json': {
    why: 'a bare Inspect event list: one tool event (bash, c1) without a result field',
    format: 'inspect', sessions: 1, calls: 1, results: 0, unanswered: ['bash'],
    findings: [['no-contract 8:64 bash', NO_CONTRACT + ' (the session records no results at all, so no orphan check)']],
  },
  'inspect-ai/timeline_utility_subagent_loop.json': {
    why: 'an Inspect event list: the tool event carries call and result; the model event echoing the call is not a second call',
    format: 'inspect', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 76:19 search', NO_CONTRACT]],
  },
  'langchain/langsmith_py_wrap_openai_.json': {
    why: 'a LangSmith ingest payload {post, patch}; the one LLM run answered in text (tool_calls null)',
    format: 'langsmith', sessions: 0, calls: 0, results: 0, unanswered: [],
    findings: [],
  },
  'langfuse-export/claude-agent-2025-12-22.trace.json': {
    why: 'a Langfuse export (strings inside): calls from the GENERATION tool_use blocks, TOOL observations answer them by name and order',
    format: 'langfuse', sessions: 1, calls: 2, results: 2, unanswered: [],
    findings: [['no-contract 599:106 mcp__weather__get_weather', NO_CONTRACT + '; the TOOL input\'s {"input": ...} is the tracer\'s wrapper, not the call']],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls.map((c) => c.args), [{ city: 'Berlin' }, { city: 'New York' }], 'in start-time order');
      assert.deepEqual(s.results.map((x) => JSON.stringify(x.payload).includes(x === s.results[0] ? 'Berlin' : 'New York')), [true, true],
        'the earlier TOOL observation (Berlin) answers the earlier call');
    },
  },
  'langfuse-export/openai-agents-2025-09-30.json': {
    why: 'a Langfuse export: the GENERATION output is a Responses object (function_call, arguments already decoded by Langfuse)',
    format: 'langfuse', sessions: 1, calls: 1, results: 1, unanswered: [], tools: 1,
    findings: [],
    extra: (r, [s]) => assert.equal(s.calls[0].encoding, 'object', 'decoded by the exporter: no arguments-encoding finding; {city} fits the recorded schema'),
  },
  'langfuse-export/pydantic-ai-tools-2025-12-04.json': {
    why: 'a Langfuse export of OTel GenAI parts: three parallel tools answered by TOOL observations with gen_ai.tool.call.id',
    format: 'langfuse', sessions: 1, calls: 4, results: 3, unanswered: ['final_result'],
    findings: [
      ['no-contract 719:23 final_result', NO_CONTRACT],
      ['orphan-call 719:23 final_result', 'pydantic-ai\'s output tool is never executed: the trace ends on it (info)'],
      ['no-contract 1552:23 get_pun_suggestion', NO_CONTRACT],
      ['no-contract 1560:23 get_dad_joke_suggestion', NO_CONTRACT],
      ['no-contract 1568:23 get_one_liner_suggestion', NO_CONTRACT],
    ],
  },
  'mcp/explore-mcp-filesystem-session_20251023_230251.jsonl': {
    why: 'an MCP client-session capture: requests and responses paired by count; list_tools gives 14 definitions',
    format: 'mcp', sessions: 1, calls: 3, results: 3, unanswered: [], tools: 14,
    transport: ['read_file isError=false', 'list_directory isError=false', 'write_file isError=false'],
    findings: [],
    extra: (r, [s]) => assert.deepEqual(s.calls.map((c) => c.args), [{ path: 'README.md' }, { path: '.' }, { path: '/private/tmp/demo.txt', content: 'Demo from npm workflow' }],
      'every call fits the server\'s own inputSchema: nothing to report'),
  },
  'mini-swe-agent/github_issue.traj.json': {
    why: 'a mini-swe-agent message array: each assistant message\'s mswea_bash_command fence is a bash call, the next user message its output',
    format: 'mini-swe-agent', sessions: 1, calls: 10, results: 10, unanswered: [],
    transport: ['bash exitCode=1', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=1', 'bash exitCode=0'],
    findings: [['no-contract 12:16 bash', NO_CONTRACT + '; repeated cat commands have a sed (a shell call, mutating) between them: no duplicate']],
    extra: (r, [s]) => assert.equal(s.results[9].transport.exitCode, undefined, 'the final submit output has no <returncode>'),
  },
  'mini-swe-agent/local.traj.json': {
    why: 'a short mini-swe-agent run: two fenced actions, the last answered by an empty user message',
    format: 'mini-swe-agent', sessions: 1, calls: 2, results: 2, unanswered: [],
    transport: ['bash exitCode=0'],
    findings: [['no-contract 12:16 bash', NO_CONTRACT]],
    extra: (r, [s]) => assert.deepEqual(s.calls.map((c) => c.args), ["echo 'hello world'", 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT']),
  },
  'openai-agents/run_state_v1_13_programmatic_tool_calling.json': {
    why: 'an OpenAI Agents RunState: generated_items wrap Responses items; the copies in model responses are not read again',
    format: 'openai-agents', sessions: 1, calls: 1, results: 0, unanswered: ['lookup'],
    findings: [['no-contract 65:17 lookup', NO_CONTRACT]],
  },
  'openai-agents/run_state_v1_9_custom_tool_call_and_tool_origin.json': {
    why: 'an OpenAI Agents RunState with a custom_tool_call (free-form input) and its output',
    format: 'openai-agents', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 46:17 custom_lookup', NO_CONTRACT]],
  },
  'openai-chat/cct-antigravity_export.json': {
    why: 'an app export wrapping Chat messages in {conversation: {messages}}',
    format: 'openai-chat', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 21:23 shell_command', NO_CONTRACT]],
  },
  'openai-chat/vai-alibaba-qwen3-tool-call.chunks.jsonl': {
    why: 'chat.completion.chunk lines: the call is assembled by index from its fragments',
    format: 'stream', sessions: 1, calls: 1, results: 0, unanswered: ['weather'],
    findings: [['no-contract 1:137 weather', NO_CONTRACT + '; it points at the chunk that named the tool']],
    extra: (r, [s], pos) => {
      const c = s.calls[0];
      assert.equal(c.id, 'call_eee11723464a4b9eb8cee71d', 'the later chunks\' id "" does not overwrite the real id');
      assert.deepEqual(c.args, { location: 'San Francisco' });
      assert.equal(pos(spanOf(c.argsAt).start), '3:113', 'the arguments point at the fragment that completed them ("\\"}" on line 3)');
    },
  },
  'openai-chat/vai-deepseek-reasoner-tool-call.json': {
    why: 'a Chat completion response (content "", reasoning_content) with one tool call',
    format: 'openai-chat', sessions: 1, calls: 1, results: 0, unanswered: ['weather'],
    findings: [['no-contract 19:23 weather', NO_CONTRACT]],
  },
  'openai-responses/vai-openai-mcp-tool-approval.4.json': {
    why: 'a Responses object: mcp_list_tools gives definitions, mcp_call is a call and its result in one item',
    format: 'openai-responses', sessions: 1, calls: 1, results: 1, unanswered: [], tools: 4,
    transport: ['create_short_url isError=false'],
    findings: [],
  },
  'openai-responses/vai-openai-tool-search.1.json': {
    why: 'a Responses object: function definitions in tools[], a get_weather call the client has not run yet',
    format: 'openai-responses', sessions: 1, calls: 1, results: 0, unanswered: ['get_weather'], tools: 3,
    findings: [],
  },
  'openai-responses/vai-parallel-tool-call-wrapper.1.json': {
    why: 'a Responses object whose one call is the "parallel" wrapper: unwrapped into its two real calls',
    format: 'openai-responses', sessions: 1, calls: 2, results: 0, unanswered: ['weather', 'cityAttractions'],
    findings: [
      ['no-contract 18:57 weather', NO_CONTRACT + '; not unknown-tool "parallel": the wrapper stands for its calls'],
      ['no-contract 18:148 cityAttractions', NO_CONTRACT],
    ],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls.map((c) => [c.name, c.id, c.turn]), [['weather', 'call_parallel#0', 1], ['cityAttractions', 'call_parallel#1', 1]]);
      assert.deepEqual(s.calls[1].args, { city: 'Rome' });
    },
  },
  'openai-responses/vai-programmatic-tool-calling.1.json': {
    why: 'a Responses object: a program item and a function_call it makes (in progress); definitions in tools[]',
    format: 'openai-responses', sessions: 1, calls: 1, results: 0, unanswered: ['getInventory'], tools: 2,
    findings: [],
  },
  'openhands/basic.json': {
    why: 'an OpenHands event stream: arguments from the model response inside tool_call_metadata, observations linked by cause',
    format: 'openhands', sessions: 1, calls: 2, results: 1, unanswered: ['finish'],
    findings: [
      ['no-contract 42:29 str_replace_editor', NO_CONTRACT],
      ['no-contract 170:29 finish', NO_CONTRACT],
      ['orphan-call 170:29 finish', 'finish ends the run and gets no observation: info at the end of the trace'],
    ],
    extra: (r, [s]) => assert.equal((s.calls[0].args as { command: string }).command, 'create', 'the JSON string the model wrote, not the action\'s args'),
  },
  'openhands/basic_interactions.json': {
    why: 'an OpenHands event stream of messages and one finish call',
    format: 'openhands', sessions: 1, calls: 1, results: 0, unanswered: ['finish'],
    findings: [['no-contract 93:29 finish', NO_CONTRACT]],
  },
  'otel/oi-openinference_client_span_tool_calls.json': {
    why: 'a flat OpenInference attribute map: the call and its result are in llm.input_messages (input.value repeats them, read once)',
    format: 'openinference', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 14:72 get_weather', NO_CONTRACT]],
  },
  'otel/oi-otel_genai_client_span_tool_calls.json': {
    why: 'a flat GenAI attribute map: tool_call and tool_call_response parts inside the gen_ai.input.messages string',
    format: 'otel', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 15:282 get_weather', NO_CONTRACT + '; it points inside the JSON string']],
  },
  'otel/oi-otel_genai_deprecated_client_span_tool_calls.json': {
    why: 'a flat GenAI attribute map with the deprecated gen_ai.prompt holding the parts',
    format: 'otel', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 13:274 get_weather', NO_CONTRACT]],
  },
  'otel/oi-otel_genai_tool_execution_span.json': {
    why: 'a flat execute_tool span: the call (gen_ai.tool.name, input) and its result (output) in one span',
    format: 'otel', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 3:23 get_weather', NO_CONTRACT]],
  },
  'otel/phoenix-pxi_turn_trace.json': {
    why: 'a Phoenix span array: calls from LLM output messages (and the history), results from TOOL spans with their status',
    format: 'openinference', sessions: 1, calls: 11, results: 11, unanswered: [],
    transport: ['list_datasets spanStatus=OK', 'list_datasets spanStatus=OK', 'ask_user spanStatus=OK', 'create_dataset spanStatus=OK',
      'add_spans_to_dataset spanStatus=ERROR', 'bash spanStatus=OK', 'add_spans_to_dataset spanStatus=OK', 'get_route_info spanStatus=OK'],
    findings: [
      ['no-contract 47:76 load_skill', NO_CONTRACT + ' (an earlier turn, known from the history)'],
      ['no-contract 54:76 read_skill_resource', NO_CONTRACT],
      ['no-contract 61:76 bash', NO_CONTRACT],
      ['no-contract 74:77 list_datasets', NO_CONTRACT + '; its arguments "" are an empty object, not broken JSON'],
      ['no-contract 273:77 ask_user', NO_CONTRACT],
      ['no-contract 383:77 create_dataset', NO_CONTRACT],
      ['no-contract 500:77 add_spans_to_dataset', NO_CONTRACT + '; its ERROR span is an honest failure, and the retry has other spanIds'],
      ['no-contract 904:77 get_route_info', NO_CONTRACT],
    ],
    extra: (r, [s]) => assert.equal(s.id, 'fixture-trace-1', 'a session per trace id'),
  },
  'other/cct-kiro_export.json': {
    why: 'a Kiro export: ToolUse.tool_uses answered by the next turn\'s ToolUseResults (status "Success")',
    format: 'kiro', sessions: 1, calls: 1, results: 1, unanswered: [],
    transport: ['fs_ls isError=false'],
    findings: [['no-contract 20:23 fs_ls', NO_CONTRACT]],
  },
  'other/lsdk-anthropic_managed_custom_tools.jsonl': {
    why: 'a Managed Agents recording of [method, payload] lines: the custom tool\'s schema, its call event and the sent result',
    format: 'anthropic-managed-agents', sessions: 1, calls: 1, results: 1, unanswered: [], tools: 1,
    transport: ['get_weather isError=false'],
    findings: [],
    extra: (r, [s]) => assert.equal(s.calls[0].id, 'sevt_018iPB2RYrthWNKugV6ehDxH', 'the call id is the event id'),
  },
  'swe-agent/function_calling_simple.traj': {
    why: 'a SWE-agent demonstration: tool_calls with JSON-string arguments, role:tool results through tool_call_ids',
    format: 'swe-agent', sessions: 1, calls: 5, results: 5, unanswered: [],
    findings: [
      ['no-contract 25:21 find_file', NO_CONTRACT], ['no-contract 52:21 open', NO_CONTRACT], ['no-contract 79:21 edit', NO_CONTRACT],
      ['no-contract 106:21 bash', NO_CONTRACT], ['no-contract 133:21 submit', NO_CONTRACT],
    ],
  },
  'swe-agent/pydicom-1458_textaction.traj': {
    why: 'a legacy SWE-agent run with text actions: the tool is the first word of each action, the next observation answers it',
    format: 'swe-agent', sessions: 1, calls: 12, results: 11, unanswered: ['submit'],
    findings: [
      ['no-contract 110:17 create', NO_CONTRACT],
      ['no-contract 122:17 edit', NO_CONTRACT],
      ['no-contract 134:17 python', NO_CONTRACT],
      ['no-contract 146:17 find_file', NO_CONTRACT],
      ['no-contract 158:17 open', NO_CONTRACT],
      ['duplicate-fingerprint 194:17 edit', 'history[17] repeats history[15]\'s edit 287:295 verbatim after a syntax-error observation: a stuck retry'],
      ['no-contract 230:17 rm', NO_CONTRACT],
      ['no-contract 242:17 submit', NO_CONTRACT],
      ['orphan-call 242:17 submit', 'the history ends on submit (info)'],
    ],
  },
  'swe-agent/sweagenttestrepo-1c2844.traj': {
    why: 'a full SWE-agent .traj: four tool_calls answered through tool_call_ids; trajectory[] repeats them and is not read',
    format: 'swe-agent', sessions: 1, calls: 4, results: 4, unanswered: [],
    findings: [['no-contract 83:21 find_file', NO_CONTRACT], ['no-contract 110:21 open', NO_CONTRACT], ['no-contract 137:21 edit', NO_CONTRACT], ['no-contract 164:21 bash', NO_CONTRACT]],
  },
  'tau-bench/deepseek-v3-human-user-crash.json': {
    why: 'a tau-bench results file whose one run crashed before any turn (traj [], info.error)',
    format: 'tau-bench', sessions: 0, calls: 0, results: 0, unanswered: [],
    findings: [],
  },
};

function corpusFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return walk(CORPUS).filter((f) => !f.endsWith('.md')).map((f) => path.relative(CORPUS, f).split(path.sep).join('/')).sort();
}

function transportOf(sessions: Session[]): string[] {
  const out: string[] = [];
  for (const s of sessions) {
    for (const r of s.results) {
      const t = Object.entries(r.transport).map(([k, v]) => `${k}=${String(v)}`).join(' ');
      if (t) out.push(`${callOf(s, r)?.name ?? '?'} ${t}`);
    }
  }
  return out;
}

describe('corpus formats: each file read by its adapter', { skip: SKIP }, () => {
  it('every corpus file has an expectation, and every expectation a file', () => {
    assert.deepEqual(corpusFiles(), Object.keys(EXPECT).sort());
  });

  for (const [rel, e] of Object.entries(EXPECT)) {
    it(`${rel}: ${e.format ?? 'no format'}, ${e.calls} calls, ${e.results} results`, () => {
      const file = path.join(CORPUS, rel);
      // The adapters are under test here (no built-in packs); packs.test.ts checks the corpus with them.
      const r = checkBytes(readFileSync(file), { fileName: file, keepModel: true, packs: false });
      const sessions = (r.model ?? []).map((m) => m.session);
      const index = LineIndex.of(r.text);
      const pos = (offset: number) => {
        const p = index.position(offset);
        return `${p.line}:${p.column}`;
      };
      assert.equal(r.format, e.format, e.why);
      assert.equal(sessions.length, e.sessions, 'sessions');
      assert.equal(r.calls, e.calls, 'calls');
      assert.equal(sessions.reduce((n, s) => n + s.results.length, 0), e.results, 'results');
      const unanswered: string[] = [];
      let stray = 0;
      for (const s of sessions) {
        const answered = new Set<number>();
        for (const x of s.results) {
          const c = callOf(s, x);
          if (c) answered.add(c.index);
          else stray += 1;
        }
        for (const c of s.calls) if (!answered.has(c.index)) unanswered.push(c.name);
      }
      assert.deepEqual(unanswered, e.unanswered, 'calls no result answers');
      assert.equal(stray, e.stray ?? 0, 'results that answer no call');
      assert.equal(new Set(sessions.flatMap((s) => s.tools.map((t) => t.name))).size, e.tools ?? 0, 'embedded tool definitions');
      if (e.transport) assert.deepEqual(transportOf(sessions), e.transport, 'transport signals');
      // Every call and result keeps its source anchors: they resolve to a place in the file.
      for (const s of sessions) {
        for (const c of s.calls) {
          for (const a of [c.at, c.nameAt, c.argsAt]) assert.ok(spanOf(a).end > 0 && spanOf(a).end <= r.text.length, `${c.name} anchor inside the file`);
        }
        for (const x of s.results) assert.ok(spanOf(x.at).end > 0 && spanOf(x.at).end <= r.text.length, 'result anchor inside the file');
      }
      const got = r.findings.map((f) => `${f.code} ${pos(f.span.start)}${f.tool ? ' ' + f.tool : ''}`);
      assert.deepEqual(got, e.findings.map(([f]) => f), 'findings');
      e.extra?.(r, sessions, pos);
    });
  }
});

describe('corpus formats: detection is unambiguous', { skip: SKIP }, () => {
  it('each corpus file is claimed by exactly one adapter (every adapter\'s claim functions asked of every unit)', () => {
    const claims: Record<string, string[]> = {};
    for (const rel of corpusFiles()) {
      const bytes = readFileSync(path.join(CORPUS, rel));
      const text = containerText(bytes) ?? bytes.toString('utf8');
      let units: unknown[];
      try {
        units = [JSON.parse(text)];
      } catch {
        units = text.split('\n').filter((l) => l.trim()).flatMap((l) => {
          try {
            return [JSON.parse(l)];
          } catch {
            return [];
          }
        });
      }
      const ids = new Set<string>();
      for (const u of units) for (const a of ADAPTERS) if (a.claimsDocument?.(u) || a.claimsLine?.(u)) ids.add(a.id);
      claims[rel] = [...ids];
    }
    const expected = Object.fromEntries(Object.entries(EXPECT).map(([rel, e]) => [rel, e.format ? [e.format] : []]));
    assert.deepEqual(claims, expected);
  });
});

describe('JSON that is no trace', () => {
  for (const name of ['package.json', 'tsconfig.json', 'package-lock.json']) {
    it(`${name} gets no format and no findings`, () => {
      const r = checkText(readFileSync(path.join(ROOT, name), 'utf8'), { fileName: name });
      assert.equal(r.format, undefined);
      assert.equal(r.calls, 0);
      assert.deepEqual(r.findings, []);
      for (const a of ADAPTERS) assert.equal(a.claimsDocument?.(JSON.parse(readFileSync(path.join(ROOT, name), 'utf8'))) ?? false, false, `${a.id} leaves ${name} alone`);
    });
  }
});
