// V8 flags of a `check` run, set from inside the CLI (v8.setFlagsFromString) before any thread starts: a flag set
// then applies to the threads' heaps as they are made, and to the main heap where V8 reads it as it goes (how far
// a heap grows), so the run's peak memory stays near what it holds rather than what its garbage could fill. Only
// the CLI's `check` sets them (main.ts imports this module first): never the editor's extension host, whose heap
// is VS Code's, nor another command.
import { setFlagsFromString } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

/**
 * Each flag with why it is here (100 MB bench traces, --jobs 2, busy 2-core machine, peak RSS and user+sys CPU):
 * - `--semi-space-growth-factor=1`: a young generation never grows past its first size. The main thread's grew
 *   to 2 × 16 MB while it handed out slices and wrote the report (short-lived garbage, nothing it keeps); a
 *   thread's stays at the size its resource limit gives it (pool.ts YOUNG_MB). V8 puts this factor back to 2
 *   whenever it makes a heap, so each thread sets the flags again as it starts (ThreadSettings.heapFlags).
 *   Measured since on Node 20 (V8 11.3, whose minimum for this factor is 2): the main thread's young generation
 *   still grows to 2 × 4 MB, with the flag set from inside or on the command line; only --max-semi-space-size at
 *   start would hold it (-6 MB peak), and a thread's stays at its resource limit anyway.
 * - `--heap-growing-percent=20`: after a full collection the old generation may grow by 20% before the next, not
 *   by V8's factor of up to 4: a thread's garbage (lines of a slice, parts of a document, a long session's
 *   settled calls) is collected before it piles up to tens of MB.
 * Together: fine-tune 191 → 150 MB, Claude Code 231 → 157 MB, OTLP 325 → 185 MB, at 0–13% more CPU.
 */
export const CHECK_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20'];

/** Sets V8 flags (on the main thread as the CLI loads, on each check thread as it starts). */
export function setHeapFlags(flags: readonly string[]): void {
  for (const flag of flags) setFlagsFromString(flag);
}

// `contract-guard check …`: set as this module loads, which main.ts makes the first thing the CLI does (a young
// generation grown while the CLI's code loads would not shrink back).
// A thread (whose argv is its parent's) never sets them here: only with its settings.
if (isMainThread && process.argv[2] === 'check') setHeapFlags(CHECK_HEAP_FLAGS);
