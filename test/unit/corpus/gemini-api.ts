// Corpus expectations: gemini-api/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const geminiApi: Record<string, Expectation> = {
  'gemini-api/fbx-googleai-streaming-thinking-function-call.sse.txt': {
    why: 'a streamGenerateContent SSE body: each data: event is a chunk; the third holds a whole functionCall part beside its thoughtSignature',
    format: 'gemini', sessions: 1, calls: 1, results: 0, unanswered: ['now'],
    transport: [],
    findings: [['no-contract 5:72 now', NO_CONTRACT + '; a response alone records no results, so the call is not an orphan']],
    extra: (r, [s]) => {
      assert.equal(s.calls[0].encoding, 'object');
      assert.deepEqual(s.calls[0].args, {});
      assert.equal(s.calls[0].id, undefined, 'no call id anywhere in the stream');
    },
  },
  'gemini-api/fbx-vertexai-unary-parallel-auto-function-call.json': {
    why: 'a generateContent response: two parallel functionCall parts in candidates[0].content',
    format: 'gemini', sessions: 1, calls: 2, results: 0, unanswered: ['fetchWeather', 'completelyDifferentFunction'],
    transport: [],
    findings: [
      ['no-contract 8:23 fetchWeather', NO_CONTRACT],
      ['no-contract 20:23 completelyDifferentFunction', NO_CONTRACT + '; same arguments as fetchWeather but another tool, so no duplicate'],
    ],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls.map((c) => c.turn), [1, 1], 'one response, one turn');
      assert.deepEqual(s.calls[1].args, { param: { state: 'MA', city: 'Boston', date: '2024-10-17' } });
    },
  },
};
