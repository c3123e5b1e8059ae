// Corpus expectations: bedrock/ (see expect.ts).
import assert from 'node:assert/strict';
import { spanOf } from '../../../src/core';
import { type Expectation, NO_CONTRACT } from './expect';

export const bedrock: Record<string, Expectation> = {
  'bedrock/oi-nock-converse-tool-response-processing.json': {
    why: 'a nock recording of one Converse call: the request body\'s toolConfig is the schema, the response\'s toolUse the call',
    format: 'bedrock-converse', sessions: 1, calls: 1, results: 0, unanswered: ['calculate'], tools: 1,
    // the call matches the recorded toolSpec (expression is a string), and a single round trip ends on the call
    findings: [],
    extra: (r, [s]) => {
      const c = s.calls[0];
      assert.equal(c.id, 'tooluse_RVjyNbnRRAqT_YlXqlJDUQ');
      assert.equal(c.encoding, 'object', 'toolUse.input is an object, as Converse sends it');
      assert.deepEqual(c.args, { expression: '15 * 23' });
      assert.deepEqual(c.nameAt.path, [0, 'response', 'output', 'message', 'content', 1, 'toolUse', 'name']);
      assert.deepEqual(s.tools[0].at.path, [0, 'body', 'toolConfig', 'tools', 0, 'toolSpec'], 'the definition comes from the request body');
      assert.equal((s.tools[0].inputSchema as { required: string[] }).required[0], 'expression', 'inputSchema.json is the schema');
    },
  },
  'bedrock/vai-bedrock-tool-no-args.chunks.jsonl': {
    why: 'ConverseStream events, one per line: contentBlockStart names the call, its only input fragment is ""',
    format: 'bedrock-converse', sessions: 1, calls: 1, results: 0, unanswered: ['updateIssueList'],
    findings: [['no-contract 4:98 updateIssueList', NO_CONTRACT + '; it points at the start event\'s toolUse']],
    extra: (r, [s], pos) => {
      const c = s.calls[0];
      assert.equal(c.id, 'tool-use-id');
      assert.deepEqual(c.args, {}, 'an empty input fragment is a call without arguments');
      assert.notEqual(c.encoding, 'invalid', 'and not an encoding fault');
      assert.equal(pos(spanOf(c.nameAt).start), '4:98', 'named by the contentBlockStart on line 4');
    },
  },
};
