// Corpus expectations: copilot-cli/ (see expect.ts).
import { type Expectation } from './expect';

export const copilotCli: Record<string, Expectation> = {
  'copilot-cli/devchain-copilot-events-singleturn.jsonl': {
    why: 'a Copilot CLI events.jsonl: session.start (producer copilot-agent) names the format; its one assistant.message has toolRequests []',
    format: 'copilot-cli', sessions: 0, calls: 0, results: 0, unanswered: [],
    transport: [],
    findings: [],
  },
};
