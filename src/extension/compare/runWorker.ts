// The body of a compare thread (see runs.ts): one side of a compare, its files posted one at a time, collected by
// the core's RunCollector; each file is answered with its counts (the progress), `end` with the run's summary.
// Contracts are compiled here from their sources (compiled validators do not cross threads). Nothing throws past a
// reply; the host terminates the thread when the compare is done or cancelled.
import { parentPort } from 'node:worker_threads';
import { loadContracts, RunCollector, type ContractSet } from '../../core';
import { collectFile, type FromRunWorker, type ToRunWorker } from './collect';

let run: RunCollector | undefined;
let contracts: ContractSet | undefined;
// files are checked one after the other, in the order they were posted
let queue: Promise<void> = Promise.resolve();

parentPort?.on('message', (m: ToRunWorker) => {
  queue = queue.then(() => handle(m)).catch((e: unknown) => reply({ type: 'error', message: e instanceof Error ? e.message : String(e) }));
});

async function handle(m: ToRunWorker): Promise<void> {
  switch (m.type) {
    case 'start': {
      contracts = loadContracts(m.contracts.files, m.contracts.profile).contracts;
      run = new RunCollector({ contracts, profile: m.profile, volatileTools: m.volatileTools });
      break;
    }
    case 'file':
      if (!run || !contracts) throw new Error('the compare thread got a file before its start');
      reply({ type: 'file', counts: await collectFile(run, m.job, contracts, { sliceMs: 200 }) });
      break;
    case 'end':
      if (!run) throw new Error('the compare thread ended before its start');
      reply({ type: 'summary', summary: run.summary() });
      break;
  }
}

function reply(message: FromRunWorker): void {
  parentPort?.postMessage(message);
}
