// Corpus expectations: cohere/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const cohere: Record<string, Expectation> = {
  'cohere/vai-cohere-tool-call.json': {
    why: 'a Cohere v2 /chat response: message.tool_calls with JSON-string arguments, finish_reason TOOL_CALL',
    format: 'cohere', sessions: 1, calls: 2, results: 0, unanswered: ['weather', 'cityAttractions'],
    findings: [
      ['no-contract 11:19 weather', NO_CONTRACT],
      ['no-contract 19:19 cityAttractions', NO_CONTRACT],
    ],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls.map((c) => c.id), ['weather_dqgshstja6p9', 'cityAttractions_dcxfx4myvx68']);
      assert.deepEqual(s.calls[1].args, { city: 'San Francisco' });
      assert.equal(s.calls[0].turn, s.calls[1].turn, 'parallel calls of one message are one turn');
    },
  },
  'cohere/vai-cohere-empty-tool-call.chunks.jsonl': {
    why: 'Cohere v2 stream events: tool-call-start (tool_calls is one object) then tool-call-end with no delta between',
    format: 'cohere', sessions: 1, calls: 1, results: 0, unanswered: ['currentTime'],
    findings: [['no-contract 14:140 currentTime', NO_CONTRACT + '; it points at the tool-call-start\'s call object']],
    extra: (r, [s]) => {
      assert.equal(s.calls[0].id, 'currentTime_y46ar19t5gvw');
      assert.deepEqual(s.calls[0].args, {}, 'no fragment but the empty first one: no arguments');
      assert.notEqual(s.calls[0].encoding, 'invalid');
    },
  },
};
