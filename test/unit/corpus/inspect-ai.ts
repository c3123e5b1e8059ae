// Corpus expectations: inspect-ai/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const inspectAi: Record<string, Expectation> = {
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
    why: 'an Inspect event list: the model event\'s output makes the call, the tool event with its id is the execution (one call, not two)',
    format: 'inspect', sessions: 1, calls: 1, results: 1, unanswered: [],
    transport: ['search isError=false'],
    findings: [['no-contract 52:31 search', NO_CONTRACT + '; anchored where the model wrote the call (the model event\'s output), no longer at the tool event']],
  },
};
