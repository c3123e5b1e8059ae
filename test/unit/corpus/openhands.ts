// Corpus expectations: openhands/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const openhands: Record<string, Expectation> = {
  'openhands/basic.json': {
    why: 'an OpenHands event stream: arguments from the model response inside tool_call_metadata, observations linked by cause; an observation that is not an error says the action succeeded (isError=false)',
    format: 'openhands', sessions: 1, calls: 2, results: 1, unanswered: ['finish'],
    transport: ['str_replace_editor isError=false'],
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
};
