// Corpus expectations: langfuse-export/ (see expect.ts). A TOOL observation's `level` is its span status: DEFAULT reads as
// UNSET (the span ended without error), so a body that says failure under it is status theater.
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const langfuseExport: Record<string, Expectation> = {
  'langfuse-export/claude-agent-2025-12-22.trace.json': {
    why: 'a Langfuse export (strings inside): calls from the GENERATION tool_use blocks, TOOL observations answer them by name and order',
    format: 'langfuse', sessions: 1, calls: 2, results: 2, unanswered: [],
    transport: ['mcp__weather__get_weather spanStatus=UNSET', 'mcp__weather__get_weather spanStatus=UNSET'],
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
    transport: ['get_weather spanStatus=UNSET'],
    findings: [],
    extra: (r, [s]) => assert.equal(s.calls[0].encoding, 'object', 'decoded by the exporter: no arguments-encoding finding; {city} fits the recorded schema'),
  },
  'langfuse-export/pydantic-ai-tools-2025-12-04.json': {
    why: 'a Langfuse export of OTel GenAI parts: three parallel tools answered by TOOL observations with gen_ai.tool.call.id',
    format: 'langfuse', sessions: 1, calls: 4, results: 3, unanswered: ['final_result'],
    transport: ['get_pun_suggestion spanStatus=UNSET', 'get_dad_joke_suggestion spanStatus=UNSET', 'get_one_liner_suggestion spanStatus=UNSET'],
    findings: [
      ['no-contract 719:23 final_result', NO_CONTRACT],
      ['orphan-call 719:23 final_result', 'pydantic-ai\'s output tool is never executed: the trace ends on it (info)'],
      ['no-contract 1552:23 get_pun_suggestion', NO_CONTRACT],
      ['no-contract 1560:23 get_dad_joke_suggestion', NO_CONTRACT],
      ['no-contract 1568:23 get_one_liner_suggestion', NO_CONTRACT],
    ],
  },
};
