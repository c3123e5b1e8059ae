// Where a check of a whole text runs, decided once for every caller in the editor (live diagnostics, Check
// Workspace Contracts): in place when small, else on a worker thread where the host has one, else — the web host —
// in slices when the text is read line by line (parse/reader decides), and in place when it is one document, which
// cannot be cut.
import { readsAsLines } from './parse/reader';

export type CheckPlan = 'in-place' | 'worker' | 'sliced';

/** What the host the check would run in offers. */
export interface CheckHost {
  /** A worker thread can run the check here (Node's worker_threads, and the contracts' sources are at hand). */
  worker: boolean;
}

/**
 * Up to this size a whole check runs in place within about 30 ms (one session of 512 KB of call lines: 27 ms;
 * 1 MB: 47 ms) and keeps the model that hovers and the table reuse.
 */
export const IN_PLACE_LIMIT = 512 * 1024;

/** How to check `text` (its length decides, then the host, then how it is read). */
export function checkPlan(text: string, fileName: string | undefined, host: CheckHost): CheckPlan {
  if (text.length <= IN_PLACE_LIMIT) return 'in-place';
  if (host.worker) return 'worker';
  return readsAsLines(text, fileName) ? 'sliced' : 'in-place';
}
