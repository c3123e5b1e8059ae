// Corpus expectations: tau-bench/ (see expect.ts).
import { type Expectation } from './expect';

export const tauBench: Record<string, Expectation> = {
  'tau-bench/deepseek-v3-human-user-crash.json': {
    why: 'a tau-bench results file whose one run crashed before any turn (traj [], info.error)',
    format: 'tau-bench', sessions: 0, calls: 0, results: 0, unanswered: [],
    findings: [],
  },
};
