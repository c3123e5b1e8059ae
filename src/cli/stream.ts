// Checking one file from disk. JSONL is streamed line by line (never read whole); a JSON document is read whole
// when small, else as it streams, in parts (core/bytes.ts checkDocumentStream). Which one a file is, is decided from its first bytes
// (parse/reader shapeFromHead), whatever its name: a `.txt` or extensionless file of JSON lines is streamed too.
import { createReadStream, promises as fs } from 'node:fs';
import './native-decoders'; // zstd .eval members and Brotli cassette bodies, by this Node's zlib
import { pipeline, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { getHeapStatistics } from 'node:v8';
import { createGunzip } from 'node:zlib';
import { StreamedLineIndex } from './line-starts';
import { checkBytes, checkDocumentStream, DEFAULT_STREAM_LIMITS, DOCUMENT_CHANGED, JSONL_NAME, LineIndex, ReadLimit, shapeFromHead, TraceChecker, type CheckOptions, type FileResult, type FindingSink, type StreamLimits, utf8Of, utf8Stream } from '../core';
import { LimitError } from './limits';

const CONTAINER = /\.(?:eval|zip)$/i;
/** Gzipped traces (`run.jsonl.gz`) are read through zlib, named by what they hold. */
const GZIP = /\.gz$/i;

export interface CheckedFile {
  result: FileResult;
  index: LineIndex;
}

/** `findings`: where the findings of a file streamed as lines go as they are made, given the file's line index
 *  (they are then not in the result); a document's stay in the result. */
export type FindingsOut = (index: LineIndex) => FindingSink;

export async function checkFile(file: string, options: CheckOptions, findings?: FindingsOut): Promise<CheckedFile> {
  if (!GZIP.test(file)) return checkPlainOrGzip(file, options, findings);
  try {
    return await checkPlainOrGzip(file, options, findings);
  } catch (e) {
    // A broken gzip stream is a finding on the file, like any unreadable input.
    if (!/^Z_|ERR_/.test(String((e as { code?: string }).code ?? ''))) throw e;
    const message = `not a readable gzip file (${(e as Error).message})`;
    return { result: { format: undefined, calls: 0, sessions: 0, findings: [{ code: 'parse-error', severity: 'error', message, span: { start: 0, end: 0 } }] }, index: LineIndex.of('') };
  }
}

/** How the file's head says it is read; `document` also when only the whole can tell (then addText decides).
 *  `whole`: the file's bytes, when the head is all of it (a small file is opened and read once). */
async function headOf(file: string, name: string): Promise<{ shape: 'lines' | 'document'; whole?: Buffer }> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(1 << 16);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const complete = bytesRead < buf.length;
    // a cut UTF-8 sequence at the end of the head only affects the last line, which decides nothing; when the head
    // cannot tell, the whole is read and addText decides with its own (single) parse
    const bytes = toBuffer(utf8Of(buf.subarray(0, bytesRead))); // a UTF-16 head (parse/encoding.ts) as UTF-8
    const head = shapeFromHead(bytes.toString('utf8'), name, complete);
    // a whole file the head cannot tell (a first line that is not JSON alone: objects pretty-printed one after
    // another, a broken first line) is read whole, and addText decides as checkText does, whatever its name
    return { shape: head ?? (!complete && JSONL_NAME.test(name) ? 'lines' : 'document'), whole: complete ? bytes : undefined };
  } finally {
    await handle.close();
  }
}

/** Whether checkFile streams this file as JSONL lines (the same decision it makes). */
export async function readsAsJsonl(file: string): Promise<boolean> {
  if (CONTAINER.test(file)) return false;
  const inner = GZIP.test(file) ? file.slice(0, -3) : file;
  return GZIP.test(file) ? JSONL_NAME.test(inner) : (await headOf(file, inner)).shape === 'lines';
}

async function checkPlainOrGzip(file: string, options: CheckOptions, findings?: FindingsOut): Promise<CheckedFile> {
  const gzip = GZIP.test(file);
  const inner = gzip ? file.slice(0, -3) : file;
  if (CONTAINER.test(file)) {
    // A zip container (an Inspect AI .eval, or a zip of one trace): positions refer to the text its members make.
    const result = checkBytes(await fs.readFile(file), { ...options, fileName: file });
    return { result, index: LineIndex.of(result.text) };
  }
  const head = gzip ? undefined : await headOf(file, inner);
  if (gzip ? !JSONL_NAME.test(inner) : head!.shape === 'document') {
    if (!gzip && (head!.whole !== undefined || (await fs.stat(file)).size <= DEFAULT_STREAM_LIMITS.wholeChars)) {
      const text = (head!.whole ?? toBuffer(utf8Of(await fs.readFile(file)))).toString('utf8');
      const checker = new TraceChecker({ ...options, fileName: inner });
      checker.addText(text);
      return { result: checker.finish(), index: LineIndex.of(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
    }
    // a large document (or any gzipped one: its size is unknown) is read as it streams, in parts when large
    const checked = await checkDocumentFile(file, gzip, { ...options, fileName: inner });
    if (checked) return checked;
  }
  const index = new StreamedLineIndex();
  const checker = new TraceChecker({ ...options, fileName: inner, findings: findings?.(index) });
  const cutter = new LineCutter((text, base) => checker.addLine(text, base), (offset) => index.addLineStart(offset));
  if (head?.whole) cutter.push(head.whole.toString('utf8'));
  else for await (const piece of decodedText(file, gzip)) cutter.push(piece);
  cutter.end();
  return { result: checker.finish(), index };
}

/** One JSON document from disk through checkDocumentStream (core/bytes.ts); undefined when it turned out to be JSON
 *  lines (then it is streamed as lines). Its limits are this process's: the whole-read size and the heap watch. */
async function checkDocumentFile(file: string, gzip: boolean, options: CheckOptions): Promise<CheckedFile | undefined> {
  const index = new StreamedLineIndex();
  const addLines = (text: string, offset: number) => {
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) index.addLineStart(offset + nl + 1);
  };
  const open = passesOf(file, gzip);
  try {
    const { result, text, lines } = await checkDocumentStream(open, options, processLimits(), addLines);
    if (lines) return undefined;
    return { result, index: text === undefined ? index : LineIndex.of(text) };
  } catch (e) {
    if (e instanceof ReadLimit) throw new LimitError(e.message);
    throw e;
  }
}

/** The stream limits of this process: read whole only what its heap can parse; stop before the heap runs out. */
function processLimits(): Partial<StreamLimits> {
  const heap = getHeapStatistics().heap_size_limit;
  const mb = Math.round(heap / 2 ** 20);
  return {
    maxWholeChars: Math.min(MAX_STRING, Math.floor(heap / 16)),
    check: () => (getHeapStatistics().used_heap_size > 0.85 * heap ? `limit reached: checking this document needs more than the ${mb} MB heap (sessions still open or kept; node --max-old-space-size raises it)` : undefined),
  };
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The longest string V8 makes (0x1fffffe8 characters). */
const MAX_STRING = 0x1fffffe8;

/** A file's text as it is read, decoded piece by piece (through zlib for a `.gz`). */
export async function* decodedText(file: string, gzip: boolean): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const buf of fileBytes(file, gzip)) yield decoder.write(buf);
  yield decoder.end();
}

/** A file's bytes for each pass of checkDocumentStream. A pass that finds the file modified since the first pass
 *  began (its mtime or size) fails with one line: a rewrite of the same size that the text's stamp does not see
 *  (core/parse/text-stamp.ts samples the text past its head) still shows here. */
export function passesOf(file: string, gzip: boolean): () => AsyncIterable<Uint8Array> {
  let first: string | undefined;
  const stamp = async () => {
    const s = await fs.stat(file);
    return `${s.mtimeMs} ${s.size}`;
  };
  return async function* () {
    const before = await stamp();
    first ??= before;
    if (before !== first) throw new Error(DOCUMENT_CHANGED);
    yield* fileStream(file, gzip) as AsyncIterable<Uint8Array>;
    if ((await stamp()) !== first) throw new Error(DOCUMENT_CHANGED);
  };
}

/** A file's bytes as a stream, through zlib for a `.gz`: joined by `pipeline`, so that a read error reaches the
 *  reader of the stream (one line, not an uncaught error) and a reader that stops early closes the file too. */
export function fileStream(file: string, gzip: boolean): Readable {
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  if (!gzip) return source;
  const gunzip = createGunzip();
  pipeline(source, gunzip, () => undefined); // an error is the gunzip's, which its reader sees
  return gunzip;
}

/**
 * A file's bytes as they are read (through zlib for a `.gz`). A plain file is read into one buffer, again and
 * again: each piece is valid only until the next is asked for (a caller that keeps bytes copies them). A fresh
 * buffer per read would be garbage the heap does not see (a few bytes of object each), collected only once tens of
 * MB of them wait.
 */
export function fileBytes(file: string, gzip: boolean): AsyncGenerator<Uint8Array> {
  return utf8Stream(rawFileBytes(file, gzip)); // a UTF-16 file as UTF-8 (parse/encoding.ts); UTF-8 passes as it is
}

async function* rawFileBytes(file: string, gzip: boolean): AsyncGenerator<Uint8Array> {
  if (gzip) {
    for await (const buf of fileStream(file, true)) yield buf as Buffer;
    return;
  }
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.allocUnsafeSlow(1 << 16);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Cuts text into JSONL lines as it arrives: a BOM at the start dropped, `\r\n` ends, a last line without a newline.
 * `base`: the offset of the first character pushed; offsets count the text without its BOM. `first`: the text
 * starts the file (where a BOM is dropped). Line starts are reported after every newline (the LineIndex of the text).
 */
export class LineCutter {
  /** The start of a line still open: pieces, joined once its end arrives (a line of many pieces is copied once). */
  private pending: string[] = [];
  private first: boolean;

  constructor(
    private readonly onLine: (text: string, base: number) => void,
    private readonly onLineStart: (offset: number) => void,
    private base = 0,
    first = base === 0,
  ) {
    this.first = first;
  }

  push(chunk: string): void {
    if (this.first && chunk.length) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      this.first = false;
    }
    let nl = chunk.indexOf('\n');
    if (nl === -1) {
      if (chunk.length) this.pending.push(chunk);
      return;
    }
    let start = 0;
    if (this.pending.length) {
      // the open line ends in this chunk: only that line is joined (not the whole chunk: a copy of every chunk)
      this.pending.push(chunk.slice(0, nl));
      const line = this.pending.join('');
      this.pending = [];
      this.onLine(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line, this.base);
      this.base += line.length - nl; // the base of the chunk
      start = nl + 1;
      this.onLineStart(this.base + start);
      nl = chunk.indexOf('\n', start);
    }
    for (; nl !== -1; nl = chunk.indexOf('\n', start)) {
      const end = nl > start && chunk.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.onLine(chunk.slice(start, end), this.base + start);
      start = nl + 1;
      this.onLineStart(this.base + start);
    }
    this.base += start;
    if (start < chunk.length) this.pending.push(chunk.slice(start));
  }

  end(): void {
    const tail = this.pending.join('');
    this.pending = [];
    if (tail.length) this.onLine(tail.endsWith('\r') ? tail.slice(0, -1) : tail, this.base);
    this.base += tail.length;
  }
}
