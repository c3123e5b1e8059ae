// Corpus expectations: claude-code/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT, callOf } from './expect';

export const claudeCode: Record<string, Expectation> = {
  'claude-code/entire-5c1039ad85f4-hooks-edit-errors.jsonl': {
    why: 'Claude Code 2.1 log (Entire checkpoint): one block per line, hook `progress` records between, 4 parallel calls answered out of order',
    format: 'claude-code', sessions: 1, calls: 10, results: 10, unanswered: [],
    transport: ['Edit isError=true', 'Edit isError=true'],
    findings: [
      ['no-contract 6:421 Grep', NO_CONTRACT],
      ['no-contract 7:421 Glob', NO_CONTRACT + ' (three parallel Globs, lines 7-9, one turn with the Grep)'],
      ['no-contract 20:453 Edit', NO_CONTRACT + '; both Edits fail ("File has not been read yet", is_error true): honest failures'],
      ['no-contract 25:453 Read', NO_CONTRACT + '; the same mise.toml Edit again on line 32 is no repeat: it follows the Read its error asked for'],
    ],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls.map((c) => c.turn), [1, 1, 1, 1, 2, 2, 3, 3, 4, 4], 'lines sharing message.id are one turn');
      assert.deepEqual(s.results.map((x) => callOf(s, x)?.index), [1, 2, 0, 3, 4, 5, 6, 7, 8, 9], 'results pair by tool_use_id whatever their order');
      assert.match(s.calls[0].messageText ?? '', /\S/, 'the text block on its own line is the calls\' message text');
    },
  },
  'claude-code/entire-dc49cb8a2a42-task-subagents.jsonl': {
    why: 'Claude Code 2.1 log: two parallel Bash calls answered in reverse order, two Task (subagent) calls whose results are arrays of text blocks',
    format: 'claude-code', sessions: 1, calls: 4, results: 4, unanswered: [],
    transport: ['Bash isError=false', 'Bash isError=false'],
    findings: [
      ['no-contract 5:429 Bash', NO_CONTRACT],
      ['no-contract 11:429 Task', NO_CONTRACT + '; the subagents\' own transcripts are not in this file (only their agentId)'],
    ],
    extra: (r, [s]) => {
      assert.equal(callOf(s, s.results[0])?.index, 1, 'the second Bash is answered first');
      assert.ok(Array.isArray(s.results[2].payload), 'a Task result is a list of text blocks');
    },
  },
  'claude-code/ccl-edge_cases.jsonl': {
    why: 'Claude Code log lines (uuid, sessionId, message); junk lines (a string, 42, [1], {"silly"}) are skipped',
    format: 'claude-code', sessions: 2, calls: 3, results: 2, unanswered: ['TodoWrite'],
    transport: ['FailingTool isError=true'],
    findings: [
      ['no-contract 4:405 FailingTool', NO_CONTRACT],
      ['no-contract 9:580 MultiEdit', NO_CONTRACT],
      ['no-contract 17:173 TodoWrite', NO_CONTRACT + ' (its own session: todowrite_session, which records no results, so no orphan check)'],
    ],
    extra: (r, sessions) => {
      assert.deepEqual(sessions.map((s) => s.id), ['edge_cases', 'todowrite_session'], 'one session per sessionId');
      const multi = sessions[0].results[1];
      assert.deepEqual(multi.at.path, ['toolUseResult'], 'line 10 misspells message.content: the MultiEdit result comes from toolUseResult');
      assert.equal(callOf(sessions[0], multi)?.name, 'MultiEdit');
      assert.equal(sessions[0].results.length, 2, 'line 18 repeats uuid edge_010: a replayed copy, not a second result');
    },
  },
  'claude-code/ccl-representative_messages.jsonl': {
    why: 'Claude Code log: Edit and Bash tool_use, each answered by a tool_result with is_error false',
    format: 'claude-code', sessions: 1, calls: 2, results: 2, unanswered: [],
    transport: ['Edit isError=false', 'Bash isError=false'],
    findings: [['no-contract 4:395 Edit', NO_CONTRACT], ['no-contract 8:395 Bash', NO_CONTRACT]],
  },
  'claude-code/ccl-todowrite_examples.jsonl': {
    why: 'Claude Code log: three TodoWrite calls; their tool_results have no is_error key, so no transport signal',
    format: 'claude-code', sessions: 1, calls: 3, results: 3, unanswered: [],
    transport: [],
    findings: [['no-contract 3:173 TodoWrite', NO_CONTRACT + ' (once, though called three times)']],
  },
  'claude-code/cct-sample_session.json': {
    why: 'a {loglines: [...]} export of a Claude Code session',
    format: 'claude-code', sessions: 1, calls: 12, results: 12, unanswered: [],
    transport: ['Write isError=false', 'Bash isError=false', 'TodoWrite isError=false', 'Bash isError=false', 'Bash isError=false', 'Glob isError=false',
      'Edit isError=false', 'Grep isError=false', 'Bash isError=true', 'Edit isError=false', 'Bash isError=false', 'Edit isError=false'],
    findings: [
      ['no-contract 28:21 Write', NO_CONTRACT], ['no-contract 65:21 Bash', NO_CONTRACT], ['no-contract 102:21 TodoWrite', NO_CONTRACT],
      ['no-contract 218:21 Glob', NO_CONTRACT], ['no-contract 251:21 Edit', NO_CONTRACT], ['no-contract 289:21 Grep', NO_CONTRACT],
    ],
  },
  'claude-code/cct-sample_session.jsonl': {
    why: 'a simplified Claude Code log (no parentUuid); a summary line first',
    format: 'claude-code', sessions: 1, calls: 2, results: 2, unanswered: [],
    transport: [],
    findings: [['no-contract 3:234 Write', NO_CONTRACT], ['no-contract 5:174 Bash', NO_CONTRACT]],
  },
};
