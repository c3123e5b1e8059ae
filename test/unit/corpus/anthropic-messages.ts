// Corpus expectations: anthropic-messages/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const anthropicMessages: Record<string, Expectation> = {
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
    // the server tool's result block has no is_error: its content type (not a `*_error`) is the envelope's success
    transport: ['code_execution isError=false exitCode=0'],
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
};
