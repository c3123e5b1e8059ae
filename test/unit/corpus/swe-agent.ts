// Corpus expectations: swe-agent/ (see expect.ts).
import { type Expectation, NO_CONTRACT } from './expect';

export const sweAgent: Record<string, Expectation> = {
  'swe-agent/function_calling_simple.traj': {
    why: 'a SWE-agent demonstration: tool_calls with JSON-string arguments, role:tool results through tool_call_ids',
    format: 'swe-agent', sessions: 1, calls: 5, results: 5, unanswered: [],
    findings: [
      ['no-contract 25:21 find_file', NO_CONTRACT], ['no-contract 52:21 open', NO_CONTRACT], ['no-contract 79:21 edit', NO_CONTRACT],
      ['no-contract 106:21 bash', NO_CONTRACT], ['no-contract 133:21 submit', NO_CONTRACT],
    ],
  },
  'swe-agent/pydicom-1458_textaction.traj': {
    why: 'a legacy SWE-agent run with text actions: the tool is the first word of each action, the next observation answers it; the linter\'s "Your proposed edit has introduced new syntax error(s)" answers are honest failures (the edit was not applied)',
    format: 'swe-agent', sessions: 1, calls: 12, results: 11, unanswered: ['submit'],
    transport: ['edit isError=true', 'edit isError=true', 'edit isError=true'],
    findings: [
      ['no-contract 110:17 create', NO_CONTRACT],
      ['no-contract 122:17 edit', NO_CONTRACT],
      ['no-contract 134:17 python', NO_CONTRACT],
      ['no-contract 146:17 find_file', NO_CONTRACT],
      ['no-contract 158:17 open', NO_CONTRACT],
      ['duplicate-fingerprint 194:17 edit', 'history[17] repeats history[15]\'s edit 287:295 verbatim after a syntax-error observation: a stuck retry'],
      ['no-contract 230:17 rm', NO_CONTRACT],
      ['no-contract 242:17 submit', NO_CONTRACT],
      ['orphan-call 242:17 submit', 'the history ends on submit (info)'],
    ],
  },
  'swe-agent/sweagenttestrepo-1c2844.traj': {
    why: 'a full SWE-agent .traj: four tool_calls answered through tool_call_ids; trajectory[] repeats them and is not read',
    format: 'swe-agent', sessions: 1, calls: 4, results: 4, unanswered: [],
    findings: [['no-contract 83:21 find_file', NO_CONTRACT], ['no-contract 110:21 open', NO_CONTRACT], ['no-contract 137:21 edit', NO_CONTRACT], ['no-contract 164:21 bash', NO_CONTRACT]],
  },
};
