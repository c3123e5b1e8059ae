// Corpus expectations: opencode/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const opencode: Record<string, Expectation> = {
  'opencode/cap-opencode-session-redacted.excerpt-msgs33-40.json': {
    why: 'an `opencode export` {info, messages: [{info, parts}]}: each tool part is a call and, through its state, its result',
    format: 'opencode', sessions: 1, calls: 11, results: 11, unanswered: [],
    transport: [
      'write isError=false', 'write isError=false', 'write isError=false', 'write isError=false', 'write isError=false',
      'edit isError=true', 'edit isError=false', 'read isError=false', 'edit isError=false', 'edit isError=false', 'bash isError=false',
    ],
    findings: [
      ['no-contract 233:19 write', NO_CONTRACT + '; the redactor left every input an object {redacted}, so all five writes differ'],
      ['no-contract 406:19 edit', NO_CONTRACT + '; the failed edit (state.status "error") is an honest error result, not theater'],
      ['no-contract 517:19 read', NO_CONTRACT],
      ['no-contract 724:19 bash', NO_CONTRACT],
    ],
    extra: (r, [s]) => {
      assert.equal(s.id, 'ses_0922c7a27ffesprkDLUo8I7EY3', 'the export\'s info.id names the session');
      assert.deepEqual(s.calls.map((c) => c.turn), [1, 1, 1, 1, 1, 2, 2, 3, 4, 4, 5], 'each assistant step is one turn');
      const failed = s.results.find((x) => x.transport.isError === true);
      assert.match(String(failed?.payload), /^Could not find oldString/, 'an error state\'s payload is its error text');
    },
  },
  'opencode/pfmcat-opencode-session.excerpt-msgs15-19.json': {
    why: 'an `opencode export` (v1.17.18): bash with metadata.exit, read, and the question tool, each completed',
    format: 'opencode', sessions: 1, calls: 3, results: 3, unanswered: [],
    transport: ['bash isError=false exitCode=0', 'read isError=false', 'question isError=false'],
    findings: [
      ['no-contract 123:19 bash', NO_CONTRACT],
      ['no-contract 232:19 read', NO_CONTRACT],
      ['no-contract 361:19 question', NO_CONTRACT],
    ],
    extra: (r, [s]) => {
      assert.equal(s.calls[0].id, 'toolu_01SgnEvXUT7J62Eh7sFaWGWx', 'callID is the call id');
      assert.equal(s.continuedAfterCalls, true, 'the final text answer comes after the last call');
    },
  },
};
