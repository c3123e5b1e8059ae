// The body of a `check` thread (src/cli/pool.ts): started once with the run's settings, it compiles the contracts
// once and then checks job after job: a whole file (read from disk here), or a slice of a JSONL file's lines (cut
// by the main thread, src/cli/check-files.ts). Every reply carries report entries (positions already lines and
// columns); nothing here can throw past its reply.
import { parentPort, workerData } from 'node:worker_threads';
import { checkText, LineIndex, loadContracts, TraceChecker, type CheckOptions } from '../core';
import { checkedEntry, diagnosticsOf, type EntrySettings } from './entry';
import { LineCutter } from './stream';
import type { SliceJob, SliceReply, ThreadJob, ThreadReply, ThreadSettings } from './threads';
import { describeLimit } from './limits';
import { checkParts } from './document-parts';

const settings = workerData as ThreadSettings;
const { contracts } = loadContracts(settings.contracts.files, settings.contracts.profile);
const options: CheckOptions = { ...settings.options, contracts };
const entry: EntrySettings = settings.entry;

parentPort?.on('message', (job: ThreadJob & { id: number }) => {
  void run(job).then(
    (reply) => parentPort?.postMessage({ ...reply, id: job.id }),
    (e: unknown) => parentPort?.postMessage({ id: job.id, error: describeLimit(e) }),
  );
});

async function run(job: ThreadJob): Promise<ThreadReply> {
  if (job.kind === 'file') {
    return { kind: 'file', entry: await checkedEntry(job, options, entry) };
  }
  if (job.kind === 'text') {
    const { model: _model, ...result } = checkText(job.text, { ...job.options, contracts });
    return { kind: 'text', result };
  }
  if (job.kind === 'parts') return { kind: 'parts', part: checkParts(job, options) };
  return { kind: 'slice', part: checkSlice(job) };
}

/** A slice of lines, checked alone: its lines are numbered from 1 (the main thread adds the lines before it). */
function checkSlice(job: SliceJob): SliceReply['part'] {
  const checker = new TraceChecker({ ...options, fileName: job.name, apart: true });
  const index = new LineIndex(); // offsets and lines relative to the slice
  let newlines = 0;
  const cutter = new LineCutter((text, base) => checker.addLine(text, base), (offset) => {
    newlines++;
    index.addLineStart(offset);
  }, 0, job.first);
  cutter.push(Buffer.from(job.bytes).toString('utf8'));
  cutter.end();
  const result = checker.finish();
  // set by the engine when reading the slice alone read it as the whole file would (see FileResult)
  const alone = (result as { alone?: string }).alone;
  return { format: result.format, calls: result.calls, alone, apart: result.apart, newlines, diagnostics: diagnosticsOf(result.findings, index, job.rel, entry) };
}
