// Corpus expectations: bfcl/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation } from './expect';

export const bfcl: Record<string, Expectation> = {
  'bfcl/BFCL_v4_live_parallel.json': {
    why: 'BFCL question lines (JSONL in a .json file): each question is a session of tool definitions, no calls',
    format: 'bfcl', sessions: 16, calls: 0, results: 0, unanswered: [], tools: 7,
    findings: [],
    extra: (r, sessions) => {
      const def = sessions[0].tools[0].inputSchema as { type: string };
      assert.equal(def.type, 'object', 'BFCL "dict" is read as JSON Schema "object"');
    },
  },
  'bfcl/BFCL_v4_live_parallel.possible_answer.json': {
    why: 'a BFCL answer key: acceptable values per parameter, not calls a model made; recognised, nothing to check',
    format: 'bfcl', sessions: 0, calls: 0, results: 0, unanswered: [],
    findings: [],
  },
};
