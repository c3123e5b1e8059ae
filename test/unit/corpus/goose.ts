// Corpus expectations: goose/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const goose: Record<string, Expectation> = {
  'goose/agentscribe-sample_session.jsonl': {
    why: 'a legacy Goose session JSONL: a metadata first line, then messages; a toolRequest answered by the next line\'s toolResponse',
    format: 'goose', sessions: 1, calls: 1, results: 1, unanswered: [],
    transport: ['developer__shell isError=false'],
    findings: [['no-contract 3:316 developer__shell', NO_CONTRACT]],
    extra: (r, [s]) => {
      assert.equal(s.calls[0].id, 'toolu_bdrk_01H6Vzjip2dzWDWJMQkiwevZ');
      assert.ok(Array.isArray(s.results[0].payload), 'the legacy toolResult.value is a bare content array');
    },
  },
};
