// Corpus expectations: openai-agents/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const openaiAgents: Record<string, Expectation> = {
  'openai-agents/js-run_state-v1.17-side-effect-committed.json': {
    why: 'a JS SDK RunState (camelCase): the call is in modelResponses, lastModelResponse and generatedItems, read once; its function_call_result pairs by callId',
    format: 'openai-agents', sessions: 1, calls: 1, results: 1, unanswered: [],
    transport: ['side_effect_tool isError=false'],
    findings: [['no-contract 87:17 side_effect_tool', NO_CONTRACT + '; it points at generatedItems, where the call is first recorded']],
    extra: (r, [s]) => {
      assert.equal(s.calls[0].id, 'side-effect-call', 'the id is callId, not the item id fc_side-effect-call');
      assert.equal(s.results[0].payload, 'side effect completed');
    },
  },
  'openai-agents/run_state_v1_13_programmatic_tool_calling.json': {
    why: 'a Python RunState: a program item (programmatic tool calling, free-form code) answered by program_output, and the function_call it made; copies in the model responses are read once',
    format: 'openai-agents', sessions: 1, calls: 2, results: 1, unanswered: ['lookup'],
    transport: ['program isError=false'],
    findings: [
      ['no-contract 49:17 program', NO_CONTRACT + '; a built-in call is named after its item type'],
      ['no-contract 65:17 lookup', NO_CONTRACT],
      ['orphan-call 65:17 lookup', 'the program\'s lookup call has no function_call_output in the state: still awaiting, the state ends here (info)'],
    ],
    extra: (r, [s]) => assert.equal(s.calls[0].encoding, 'freeform', 'the program\'s code is text, not JSON'),
  },
  'openai-agents/run_state_v1_9_custom_tool_call_and_tool_origin.json': {
    why: 'an OpenAI Agents RunState with a custom_tool_call (free-form input) and its output',
    format: 'openai-agents', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 46:17 custom_lookup', NO_CONTRACT]],
  },
};
