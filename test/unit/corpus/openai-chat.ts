// Corpus expectations: openai-chat/ (see expect.ts).
import assert from 'node:assert/strict';
import { spanOf } from '../../../src/core';
import { type Expectation, NO_CONTRACT } from './expect';

export const openaiChat: Record<string, Expectation> = {
  'openai-chat/cct-antigravity_export.json': {
    why: 'an app export wrapping Chat messages in {conversation: {messages}}',
    format: 'openai-chat', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 21:23 shell_command', NO_CONTRACT]],
  },
  'openai-chat/vai-alibaba-qwen3-tool-call.chunks.jsonl': {
    why: 'chat.completion.chunk lines: the call is assembled by index from its fragments',
    format: 'stream', sessions: 1, calls: 1, results: 0, unanswered: ['weather'],
    findings: [['no-contract 1:137 weather', NO_CONTRACT + '; it points at the chunk that named the tool']],
    extra: (r, [s], pos) => {
      const c = s.calls[0];
      assert.equal(c.id, 'call_eee11723464a4b9eb8cee71d', 'the later chunks\' id "" does not overwrite the real id');
      assert.deepEqual(c.args, { location: 'San Francisco' });
      assert.equal(pos(spanOf(c.argsAt).start), '3:113', 'the arguments point at the fragment that completed them ("\\"}" on line 3)');
    },
  },
  'openai-chat/vai-deepseek-reasoner-tool-call.json': {
    why: 'a Chat completion response (content "", reasoning_content) with one tool call',
    format: 'openai-chat', sessions: 1, calls: 1, results: 0, unanswered: ['weather'],
    findings: [['no-contract 19:23 weather', NO_CONTRACT]],
  },
};
