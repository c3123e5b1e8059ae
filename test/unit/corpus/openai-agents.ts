// Corpus expectations: openai-agents/ (see expect.ts).
import { type Expectation, NO_CONTRACT } from './expect';

export const openaiAgents: Record<string, Expectation> = {
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
};
