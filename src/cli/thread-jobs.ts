// What a `check` job does, wherever it runs: on a thread of the pool (src/cli/worker.ts) or on the main thread,
// which checks slices and parts too while its threads do (pool.ts: one thread fewer to start and warm up). Every
// job is answered: a reply, or the one line it failed with; nothing here throws.
import { StringDecoder } from 'node:string_decoder';
import { CallMarks, checkText, LineIndex, TraceChecker, type CheckedSession, type CheckOptions } from '../core';
import { checkedEntry, diagnosticsOf, type EntrySettings } from './entry';
import { LineCutter } from './stream';
import type { SliceJob, SliceReply, ThreadAnswer, ThreadJob, ThreadReply } from './threads';
import { describeLimit } from './limits';
import { spoolText } from './spool';
import { checkParts } from './document-parts';

/** Answers jobs with the given options (contracts compiled) and entry settings. */
export function jobRunner(options: CheckOptions, entry: EntrySettings): (job: ThreadJob & { id: number }) => Promise<ThreadAnswer> {
  return (job) =>
    run(job, options, entry).then(
      (reply) => ({ ...reply, id: job.id }),
      (e: unknown) => ({ id: job.id, error: describeLimit(e) }),
    );
}

async function run(job: ThreadJob, options: CheckOptions, entry: EntrySettings): Promise<ThreadReply> {
  if (job.kind === 'file') {
    return { kind: 'file', entry: await checkedEntry(job, options, entry) };
  }
  const contracts = options.contracts;
  if (job.kind === 'text') {
    const marks = job.marks ? new CallMarks() : undefined;
    const onSession = marks && ((checked: CheckedSession, index: number) => marks.add(checked, index));
    const { model: _model, ...result } = checkText(job.text, { ...job.options, contracts, onSession });
    return { kind: 'text', result, marks: marks?.marks };
  }
  if (job.kind === 'parts') return { kind: 'parts', part: checkParts(job, options) };
  return { kind: 'slice', part: checkSlice(job, options, entry), bytes: job.bytes };
}

/** A slice's text is decoded a piece at a time: its lines are cut from pieces of this many bytes, not from one
 *  string of the whole slice, which (a large object every line refers to) would outlive the slice until the
 *  thread's next full collection (fine-tune 100 MB: 11-21 MB of such strings per thread). */
const DECODE_BYTES = 1 << 16;

/** A slice of lines, checked alone: its offsets count from its start, its lines from the file's (`job.line`). */
function checkSlice(job: SliceJob, options: CheckOptions, entry: EntrySettings): SliceReply['part'] {
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
  return { format: result.format, calls: result.calls, alone, apart: result.apart, diagnostics: spoolText(diagnostics, entry.json) };
}
