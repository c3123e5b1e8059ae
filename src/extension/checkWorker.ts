// The body of a background check thread (see background.ts): one job in, one reply out, then the thread is
// ended by the host — or, for a trace that grows (CheckJob.grow), it stays and checks what is appended, from a
// growing trace of the text built after the reply. No `vscode` import, and nothing here can throw past a reply.
import { parentPort } from 'node:worker_threads';
import '../cli/native-decoders'; // zstd .eval members and Brotli cassette bodies, by this Node's zlib
import { buildDecisionTable, type CheckedSession, checkTextChunked, type Finding, findingsDelta, growingTrace, lineStandsAlone, loadContracts, CallMarks } from '../core';
import type { AppendMessage, AppendReply, CheckJob, CheckReply } from './background';

parentPort?.once('message', (job: CheckJob) => {
  const started = Date.now();
  const { contracts } = loadContracts(job.contracts.files, job.contracts.profile);
  let independent = true;
  const marks = new CallMarks();
  // the chunked checker reads JSONL line by line and hands each line over: whether all are units of their own is
  // learnt on the way (its yields cost nothing here, and keep the thread answering terminate at once)
  // the decision table needs the model, which stays on this thread: the table is built here and sent instead
  const options = { ...job.options, contracts, keepModel: job.table !== undefined, onSession: (checked: CheckedSession, index: number) => marks.add(checked, index) };
  checkTextChunked(job.text, options, { sliceMs: 50, onLine: (text) => (independent &&= lineStandsAlone(text)) })
    .then(({ model, ...result }) => {
      const table = job.table && model ? buildDecisionTable({ ...result, model }, { ...job.table, contracts }) : undefined;
      // lines that are each a unit of their own are patched by the host's line table; the others grow here
      const growing = job.grow === true && !independent && result.format !== undefined;
      reply({ ok: true, result, independent, marks: marks.marks, table, millis: Date.now() - started, growing });
      if (growing) follow(job, { ...job.options, contracts }, result.findings);
    })
    .catch((e: unknown) => reply({ ok: false, error: e instanceof Error ? e.message : String(e) }));
});

function reply(message: CheckReply | AppendReply): void {
  parentPort?.postMessage(message);
}

/** Stay, and check what the host says was appended (in order: the messages wait for the growing trace). */
function follow(job: CheckJob, options: Parameters<typeof growingTrace>[1], sent: Finding[]): void {
  const ready = growingTrace(job.text, options, { sliceMs: 50 });
  parentPort?.on('message', (m: AppendMessage) => {
    void ready.then((trace) => {
      if (!trace) return reply({ ok: false, error: 'the text is not read line by line' });
      try {
        // only what changed crosses the threads (copying thousands of findings each time would cost more than the check)
        const { findings, ...result } = trace.append(m.append, m.tail);
        reply({ ok: true, result, findings: findingsDelta(sent, findings) });
        sent = findings;
      } catch (e) {
        reply({ ok: false, error: e instanceof Error ? e.message : String(e) });
      }
    });
  });
}
