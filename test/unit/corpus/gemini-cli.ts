// Corpus expectations: gemini-cli/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const geminiCli: Record<string, Expectation> = {
  'gemini-cli/aim-session-2026-03-18T01-46-50316244.json': {
    why: 'a Gemini CLI chat recording (ConversationRecord): each gemini message\'s toolCalls[] carry their result inline (result[].functionResponse) and a status',
    format: 'gemini-cli', sessions: 1, calls: 6, results: 6, unanswered: [],
    transport: [
      'cli_help isError=false',
      'run_shell_command isError=true', // status 'error' with response.error: the tool was not found
      'cli_help isError=false',
      'read_file isError=false',
      'cli_help isError=false',
      'grep_search isError=false',
    ],
    findings: [
      ['no-contract 41:19 cli_help', NO_CONTRACT],
      ['no-contract 94:19 run_shell_command', NO_CONTRACT + '; its failed result is an honest failure, not theater'],
      ['no-contract 200:19 read_file', NO_CONTRACT],
      ['no-contract 306:19 grep_search', NO_CONTRACT],
    ],
    extra: (r, [s]) => {
      assert.equal(s.id, '50316244-145e-46cb-b42b-db11410ad87a', 'the recording names the session');
      assert.deepEqual(s.calls.map((c) => c.turn), [1, 2, 3, 4, 5, 6], 'one gemini message, one turn');
      assert.deepEqual(s.results.map((x) => x.callId), s.calls.map((c) => c.id), 'each result answers the call it sits in');
      assert.match((s.results[1].payload as { error: string }).error, /^Tool "run_shell_command" not found/);
      assert.match(s.results[0].payload as string, /^Subagent 'cli_help' finished\./, '{output: X} is read as X');
    },
  },
  'gemini-cli/aim-session-2026-03-18T01-58-b26e4930.json': {
    why: 'a Gemini CLI chat recording with error/info records, six parallel calls in one gemini message, and a cancelled call',
    format: 'gemini-cli', sessions: 1, calls: 8, results: 8, unanswered: [],
    transport: [
      'read_file isError=false', 'read_file isError=false', 'read_file isError=false', 'read_file isError=false', 'read_file isError=false',
      'list_directory isError=false', 'read_file isError=false',
      'cli_help isError=true', // status 'cancelled': response.error '[Operation Cancelled] ...'
    ],
    findings: [
      ['no-contract 73:19 read_file', NO_CONTRACT],
      ['no-contract 193:19 list_directory', NO_CONTRACT],
      ['no-contract 270:19 cli_help', NO_CONTRACT + '; its subagent\'s own call exists only in resultDisplay, a display summary'],
    ],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls.map((c) => c.turn), [1, 1, 1, 1, 1, 1, 2, 2], 'parallel calls share their message\'s turn');
      assert.deepEqual(s.results[7].payload, { error: '[Operation Cancelled] Operation cancelled.' });
    },
  },
};
