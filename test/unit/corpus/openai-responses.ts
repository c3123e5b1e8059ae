// Corpus expectations: openai-responses/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const openaiResponses: Record<string, Expectation> = {
  'openai-responses/vai-openai-mcp-tool-approval.4.json': {
    why: 'a Responses object: mcp_list_tools gives definitions, mcp_call is a call and its result in one item',
    format: 'openai-responses', sessions: 1, calls: 1, results: 1, unanswered: [], tools: 4,
    transport: ['create_short_url isError=false'],
    findings: [],
  },
  'openai-responses/vai-openai-tool-search.1.json': {
    why: 'a Responses object: function definitions in tools[], a server tool_search call answered by its tool_search_output, then a get_weather call the client has not run yet',
    // tool_search_call (call_id null) and tool_search_output (call_id null): the output answers the search before it; tools[] declares the
    // tool_search tool, so it is a definition of its own (4 names)
    format: 'openai-responses', sessions: 1, calls: 2, results: 1, unanswered: ['get_weather'], tools: 4,
    findings: [['orphan-call 67:15 get_weather', 'the client has not run it yet: info, the trace ends here (the session has a result now)']],
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
    why: 'a Responses object: a program item (a call of free-form code) and a function_call it makes (in progress); definitions in tools[]',
    // the program is a call (tools[] enables it: programmatic_tool_calling), its code free-form text
    format: 'openai-responses', sessions: 1, calls: 2, results: 0, unanswered: ['program', 'getInventory'], tools: 3,
    findings: [],
  },
};
