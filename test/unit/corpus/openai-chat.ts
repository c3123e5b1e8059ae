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
  'openai-chat/vai-mistral-tool-call.json': {
    why: 'a Mistral chat completion: OpenAI-shaped, the tool call has no "type" and the message no content',
    format: 'openai-chat', sessions: 1, calls: 1, results: 0, unanswered: ['weather'],
    findings: [['no-contract 21:23 weather', NO_CONTRACT]],
    extra: (r, [s]) => {
      assert.equal(s.calls[0].id, 'gSIMJiOkT', 'the 9-character Mistral id');
      assert.deepEqual(s.calls[0].args, { location: 'San Francisco' });
    },
  },
  'openai-chat/vai-mistral-tool-call.chunks.jsonl': {
    why: 'Mistral chunks: the whole call in one delta, without "index" or "type", with finish_reason in the same chunk',
    format: 'stream', sessions: 1, calls: 1, results: 0, unanswered: ['weather'],
    findings: [['no-contract 2:224 weather', NO_CONTRACT + '; it points at the chunk that named the tool']],
    extra: (r, [s]) => {
      assert.equal(s.calls[0].id, 'gSIMJiOkT');
      assert.deepEqual(s.calls[0].args, { location: 'San Francisco' }, 'a call without index is still assembled (by its position)');
    },
  },
  'openai-chat/vai-deepseek-reasoner-tool-call.json': {
    why: 'a Chat completion response (content "", reasoning_content) with one tool call',
    format: 'openai-chat', sessions: 1, calls: 1, results: 0, unanswered: ['weather'],
    findings: [['no-contract 19:23 weather', NO_CONTRACT]],
  },
};
