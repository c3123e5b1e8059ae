// Corpus expectations: codex-cli/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const codexCli: Record<string, Expectation> = {
  'codex-cli/ccl-rollout-11111111.jsonl': {
    why: 'a Codex rollout: {timestamp, type, payload} lines; an unknown record type at the end is skipped',
    format: 'codex', sessions: 1, calls: 3, results: 3, unanswered: [],
    transport: [],
    findings: [
      ['no-contract 6:105 exec_command', NO_CONTRACT],
      ['no-contract 8:108 apply_patch', NO_CONTRACT + '; its free-form patch input is no arguments-encoding fault'],
      ['no-contract 10:105 mcp__synthetic__lookup', NO_CONTRACT],
    ],
    extra: (r, [s]) => {
      assert.equal(s.id, '11111111-1111-4111-8111-111111111111', 'session_meta names the session');
      assert.equal(s.calls[1].encoding, 'freeform');
      assert.match(s.calls[1].args as string, /^\*\*\* Begin Patch/);
    },
  },
};
