// One large JSON document whose units are independent (an OTLP export of many traces) checked on several threads:
// this thread cuts it into parts as it streams (core DocumentSplitter, the cutting a whole read does) and hands out
// groups of consecutive parts, cut where the next part's first trace id differs from the last one before it; each
// thread reads its group apart (previewed, then read, as a whole read does) and says which traces it read
// (FileResult.apart). The groups are put together only when one line reader read them all and no two share a
// trace; else the document is checked whole on one thread. Finding offsets are the file's: lines come from the
// index this thread builds while it reads.
import { DEFAULT_STREAM_LIMITS, DocumentSplitter, LineIndex, partDoc, SplitError, SplitLimit, TraceChecker, type CheckOptions, type Doc, type Part } from '../core';
import { diagnosticOf, spooledEntry, type EntrySettings, type FileReport } from './entry';
import { DiagnosticSpool, removeSpool, spoolSink } from './spool';
import { decodedText } from './stream';
import type { PartsJob, PartsReply } from './threads';
import { Apart, sliceLog } from './session-slices';

type PartsResult = PartsReply['part'];

/** What the caller (check-files.ts) lends: its threads and its whole-file check. */
export interface PartsIo {
  /** Hand out a group of parts (returns once another may be handed out); its result to come. */
  send(parts: PartsJob['parts']): Promise<{ result: Promise<PartsResult> }>;
  whole(): Promise<FileReport>;
}

/** The file as check-files.ts names it. */
interface Target {
  file: string;
  shown: string;
  rel: string;
  wanted: boolean;
}

/** A group holds at least this many characters of parts (then is cut where a trace ends). */
const GROUP_CHARS = 1 << 20;
/** A group that finds no trace end this far beyond that is sent anyway (the threads tell whether it mattered). */
const MAX_GROUP_CHARS = 16 << 20;

const SPLIT = { partChars: DEFAULT_STREAM_LIMITS.partChars, elementChars: DEFAULT_STREAM_LIMITS.elementChars, maxHeld: DEFAULT_STREAM_LIMITS.maxHeld };

const TRACE_ID = '"traceId":"';

/** The first (or last) trace id a part's text names: only a proposal of where traces end. */
function traceIdIn(text: string, last: boolean): string | undefined {
  const at = last ? text.lastIndexOf(TRACE_ID) : text.indexOf(TRACE_ID);
  if (at < 0) return undefined;
  const from = at + TRACE_ID.length;
  const to = text.indexOf('"', from);
  return to < 0 ? undefined : text.slice(from, to);
}

class NotInParts extends Error {}

/**
 * Check a document in groups of parts on the threads. The entry to come, or undefined when it is not read that way
 * (one part, not JSON, JSON lines, a limit): the caller checks it whole, which says why where it must.
 */
export async function checkByParts(t: Target, entry: EntrySettings, io: PartsIo): Promise<{ result: Promise<FileReport> } | undefined> {
  const file = t.file;
  const index = new LineIndex();
  // the groups' results are not kept: each is spooled in order as it comes (`kept`), then let go
  let groups = 0;
  let failed = false;
  const apart = new Apart();
  // each group's findings as diagnostics, in the order of the groups, as they come (a whole read's order: by span,
  // then as made), never all held
  const spool = new DiagnosticSpool();
  const sink = spoolSink(spool, (f) => diagnosticOf(f, index, t.rel, entry));
  let order = 0;
  let calls = 0;
  let kept = Promise.resolve();
  let dropped = false;
  const drop = () => {
    dropped = true;
    void kept.then(() => spool.discard());
  };
  const ready: PartsJob['parts'][] = [];
  let group: PartsJob['parts'] = [];
  let chars = 0;
  let lastTrace: string | undefined;
  const onPart = (part: Part) => {
    if (part.whole) throw new NotInParts();
    const first = traceIdIn(part.text, false);
    if (chars >= MAX_GROUP_CHARS || (chars >= GROUP_CHARS && (first === undefined || first !== lastTrace))) {
      ready.push(group);
      group = [];
      chars = 0;
    }
    group.push({ text: part.text, map: part.map, path: part.path, base: part.base });
    chars += part.text.length;
    lastTrace = traceIdIn(part.text, true);
  };
  const sendReady = async () => {
    for (let g = ready.shift(); g; g = ready.shift()) {
      const later = await io.send(g);
      later.result.then((r) => apart.add(r), () => {
        failed = true;
        apart.add(undefined);
      });
      groups++;
      kept = kept.then(() => later.result).then((r) => {
        calls += r.calls;
        if (!dropped && !apart.broken) for (const f of r.findings) sink.add(f, order++);
      }, () => undefined);
    }
  };
  const splitter = new DocumentSplitter(SPLIT, onPart);
  let offset = 0;
  try {
    for await (let text of decodedText(file, /\.gz$/i.test(file))) {
      if (offset === 0 && splitter.length === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) index.addLineStart(offset + nl + 1);
      offset += text.length;
      splitter.push(text);
      await sendReady();
      if (apart.broken) {
        sliceLog(file, 'checked whole: its groups of parts share a trace');
        drop();
        return undefined;
      }
    }
    splitter.end();
  } catch (e) {
    if (e instanceof NotInParts || e instanceof SplitError || e instanceof SplitLimit) {
      sliceLog(file, 'checked whole: not read in parts');
      drop();
      return undefined;
    }
    throw e;
  }
  if (group.length) ready.push(group);
  await sendReady();
  return {
    // `kept` waits for every group in turn, after its own handlers above have run
    result: kept.then(async () => {
      const reader = apart.result;
      if (reader === undefined || failed) {
        sliceLog(file, 'checked whole: its groups of parts share a trace, or read only whole');
        dropped = true;
        removeSpool(spool.done());
        return io.whole();
      }
      sliceLog(file, `${groups} groups of parts by traces`);
      return spooledEntry(t.shown, reader, calls, spool, t.wanted, entry);
    }),
  };
}

/** On a thread: a group of parts read apart, as a whole read reads them (each part asked whether it reads in
 *  parts, all previewed, then read). Not apart (FileResult.apart undefined) when one says it reads only whole. */
export function checkParts(job: PartsJob, options: CheckOptions): PartsResult {
  const checker = new TraceChecker({ ...options, fileName: job.name, apart: true });
  const docs: Doc[] = [];
  for (const p of job.parts) {
    const value: unknown = JSON.parse(p.text);
    if (!checker.readsInParts(value, p.path)) return { calls: 0, findings: [] };
    const doc = partDoc(p.text, p.base, value, p.map);
    checker.previewPart(doc);
    docs.push(doc);
  }
  for (const d of docs) checker.addPart(d);
  const result = checker.finish();
  return { format: result.format, calls: result.calls, apart: result.apart, findings: result.findings };
}
