// The body of a background check thread (see background.ts): one job in, one reply out, then the thread is
// ended by the host. No `vscode` import, and nothing here can throw past the reply.
import { parentPort } from 'node:worker_threads';
import { checkTextChunked, lineStandsAlone, loadContracts, type CheckedSession, type GrowingState, type GrowingTrace } from '../core';
import type { CheckJob, CheckReply } from './background';
import { CallMarks } from './callMarks';
import { buildDecisionTable } from '../core/report/decision-table';

parentPort?.once('message', (job: CheckJob) => {
  const started = Date.now();
  const { contracts } = loadContracts(job.contracts.files, job.contracts.profile);
  let independent = true;
  const marks = new CallMarks();
  // the chunked checker reads JSONL line by line and hands each line over: whether all are units of their own is
  // learnt on the way (its yields cost nothing here, and keep the thread answering terminate at once)
  // the decision table needs the model, which stays on this thread: the table is built here and sent instead
  const options = { ...job.options, contracts, keepModel: job.table !== undefined, onSession: (checked: CheckedSession, index: number) => marks.add(checked, index) };
  // a line-shaped text asked to grow comes back with the state its appended lines are checked from
  let growing: GrowingState | undefined;
  const onGrowing = job.grow ? (trace: GrowingTrace) => (growing = trace.save()) : undefined;
  checkTextChunked(job.text, options, { sliceMs: 50, onLine: (text) => (independent &&= lineStandsAlone(text)), onGrowing })
    .then(({ model, ...result }) => {
      const table = job.table && model ? buildDecisionTable({ ...result, model }, { ...job.table, contracts }) : undefined;
      reply({ ok: true, result, independent, marks: marks.marks, table, millis: Date.now() - started, growing });
    })
    .catch((e: unknown) => reply({ ok: false, error: e instanceof Error ? e.message : String(e) }));
});

function reply(message: CheckReply): void {
  parentPort?.postMessage(message);
}
