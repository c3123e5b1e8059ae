// The body of a `check` thread (src/cli/pool.ts): started once with the run's settings, it compiles the contracts
// once and then checks job after job (thread-jobs.ts): a whole file (read from disk here), a slice of a JSONL
// file's lines (cut by the main thread, src/cli/check-files.ts) or parts of a large document. Every reply carries
// report entries (positions already lines and columns); nothing here can throw past its reply.
import { parentPort, workerData } from 'node:worker_threads';
import { loadContracts, type CheckOptions } from '../core';
import type { ThreadJob, ThreadSettings } from './threads';
import { jobRunner } from './thread-jobs';
import { setHeapFlags } from './heap-flags';

const settings = workerData as ThreadSettings;
if (settings.heapFlags) setHeapFlags(settings.heapFlags);
const { contracts } = loadContracts(settings.contracts.files, settings.contracts.profile);
const options: CheckOptions = { ...settings.options, contracts };
const answer = jobRunner(options, settings.entry);

parentPort?.on('message', (job: ThreadJob & { id: number }) => {
  // a slice's buffer goes back with its reply, to be filled again (see SliceReply.bytes)
  void answer(job).then((a) => parentPort?.postMessage(a, a.kind === 'slice' && a.bytes ? [a.bytes] : undefined));
});
