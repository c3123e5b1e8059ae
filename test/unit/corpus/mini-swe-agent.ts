// Corpus expectations: mini-swe-agent/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const miniSweAgent: Record<string, Expectation> = {
  'mini-swe-agent/github_issue.traj.json': {
    why: 'a mini-swe-agent message array: each assistant message\'s mswea_bash_command fence is a bash call, the next user message its output',
    format: 'mini-swe-agent', sessions: 1, calls: 10, results: 10, unanswered: [],
    transport: ['bash exitCode=1', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=0', 'bash exitCode=1', 'bash exitCode=0'],
    findings: [['no-contract 12:16 bash', NO_CONTRACT + '; repeated cat commands have a sed (a shell call, mutating) between them: no duplicate']],
    extra: (r, [s]) => assert.equal(s.results[9].transport.exitCode, undefined, 'the final submit output has no <returncode>'),
  },
  'mini-swe-agent/local.traj.json': {
    why: 'a short mini-swe-agent run: two fenced actions, the last answered by an empty user message',
    format: 'mini-swe-agent', sessions: 1, calls: 2, results: 2, unanswered: [],
    transport: ['bash exitCode=0'],
    findings: [['no-contract 12:16 bash', NO_CONTRACT]],
    extra: (r, [s]) => assert.deepEqual(s.calls.map((c) => c.args), ["echo 'hello world'", 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT']),
  },
};
