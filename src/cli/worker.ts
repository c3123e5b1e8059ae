// The body of a `check` thread (src/cli/pool.ts): started once with the run's settings, it compiles the contracts
// once and then checks job after job: a whole file (read from disk here), or a slice of a JSONL file's lines (cut
// by the main thread, src/cli/check-files.ts). Every reply carries report entries (positions already lines and
// columns); nothing here can throw past its reply.
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData } from 'node:worker_threads';
import { CallMarks, checkText, LineIndex, loadContracts, TraceChecker, type CheckedSession, type CheckOptions } from '../core';
import { checkedEntry, diagnosticsOf, type EntrySettings } from './entry';
import { LineCutter } from './stream';
import type { SliceJob, SliceReply, ThreadJob, ThreadReply, ThreadSettings } from './threads';
import { describeLimit } from './limits';
import { spoolText } from './spool';
import { checkParts } from './document-parts';
import { setHeapFlags } from './heap-flags';

const settings = workerData as ThreadSettings;
if (settings.heapFlags) setHeapFlags(settings.heapFlags);
const { contracts } = loadContracts(settings.contracts.files, settings.contracts.profile);
const options: CheckOptions = { ...settings.options, contracts };
const entry: EntrySettings = settings.entry;

parentPort?.on('message', (job: ThreadJob & { id: number }) => {
  void run(job).then(
    // a slice's buffer goes back with its reply, to be filled again (see SliceReply.bytes)
    (reply) => parentPort?.postMessage({ ...reply, id: job.id }, reply.kind === 'slice' && reply.bytes ? [reply.bytes] : undefined),
    (e: unknown) => parentPort?.postMessage({ id: job.id, error: describeLimit(e) }),
  );
});

async function run(job: ThreadJob): Promise<ThreadReply> {
  if (job.kind === 'file') {
    return { kind: 'file', entry: await checkedEntry(job, options, entry) };
  }
  if (job.kind === 'text') {
    const marks = job.marks ? new CallMarks() : undefined;
    const onSession = marks && ((checked: CheckedSession, index: number) => marks.add(checked, index));
    const { model: _model, ...result } = checkText(job.text, { ...job.options, contracts, onSession });
    return { kind: 'text', result, marks: marks?.marks };
  }
  if (job.kind === 'parts') return { kind: 'parts', part: checkParts(job, options) };
  return { kind: 'slice', part: checkSlice(job), bytes: job.bytes };
}

/** A slice's text is decoded a piece at a time: its lines are cut from pieces of this many bytes, not from one
 *  string of the whole slice, which (a large object every line refers to) would outlive the slice until the
 *  thread's next full collection (fine-tune 100 MB: 11-21 MB of such strings per thread). */
const DECODE_BYTES = 1 << 16;

/** A slice of lines, checked alone: its offsets count from its start, its lines from the file's (`job.line`). */
function checkSlice(job: SliceJob): SliceReply['part'] {
  const checker = new TraceChecker({ ...options, fileName: job.name, apart: true });
  const index = new LineIndex(); // offsets and lines relative to the slice
  const cutter = new LineCutter((text, base) => checker.addLine(text, base), (offset) => index.addLineStart(offset), 0, job.first);
  const bytes = Buffer.from(job.bytes, 0, job.length);
  const decoder = new StringDecoder('utf8');
  for (let at = 0; at < bytes.length; at += DECODE_BYTES) cutter.push(decoder.write(bytes.subarray(at, at + DECODE_BYTES)));
  cutter.push(decoder.end());
  cutter.end();
  const result = checker.finish();
  // set by the engine when reading the slice alone read it as the whole file would (see FileResult)
  const alone = (result as { alone?: string }).alone;
  const diagnostics = diagnosticsOf(result.findings, index, job.rel, entry);
  for (const d of diagnostics) {
    d.line += job.line;
    d.endLine += job.line;
  }
  return { format: result.format, calls: result.calls, alone, apart: result.apart, diagnostics: spoolText(diagnostics) };
}
