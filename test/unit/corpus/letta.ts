// Corpus expectations: letta/ (see expect.ts).
import assert from 'node:assert/strict';
import type { Expectation } from './expect';

export const letta: Record<string, Expectation> = {
  'letta/deep_research_agent-v0.7.10.af': {
    why: 'a legacy Letta agent file (0.7.10): the boot send_message call and its tool message, linked by tool_call_id; five tools with json_schema',
    format: 'letta', sessions: 1, calls: 1, results: 1, unanswered: [], tools: 5,
    transport: ['send_message isError=false'],
    findings: [],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls[0].args, { message: 'More human than human is our motto.' });
      const schema = s.tools.find((t) => t.name === 'send_message')?.inputSchema as { required: string[] };
      assert.deepEqual(schema.required, ['message'], 'request_heartbeat is Letta\'s, optional: the boot call omits it and is not missing a key');
    },
  },
  'letta/outreach_workflow_agent.af': {
    why: 'a legacy Letta agent file (0.6.47, minified): three calls answered by tool messages named after the agent, paired by tool_call_id; tool_returns say success',
    format: 'letta', sessions: 1, calls: 3, results: 3, unanswered: [], tools: 4,
    transport: ['retrieve_candidate isError=false', 'evaluate_candidate isError=false', 'reject isError=false'],
    findings: [],
    extra: (r, [s]) => assert.deepEqual(s.calls.map((c) => c.args), [
      { candidate_name: 'Charles Packer', request_heartbeat: true }, { request_heartbeat: true }, { candidate_name: 'Charles Packer', request_heartbeat: true },
    ], 'request_heartbeat is declared by the stored schemas: no extra-key'),
  },
};
