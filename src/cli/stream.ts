// Checking one file from disk. JSONL is streamed line by line (never read whole), everything else is read
// whole (a JSON document cannot be checked before its end). Which one a file is, is decided from its first bytes
// (parse/reader shapeFromHead), whatever its name: a `.txt` or extensionless file of JSON lines is streamed too.
import { createReadStream, promises as fs } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, gunzipSync } from 'node:zlib';
import { checkBytes } from '../core/bytes';
import { TraceChecker, type CheckOptions, type FileResult } from '../core/engine';
import { JSONL_NAME, LineIndex, shapeFromHead } from '../core/parse/reader';

const CONTAINER = /\.eval$/i;
/** Gzipped traces (`run.jsonl.gz`) are read through zlib, named by what they hold. */
const GZIP = /\.gz$/i;

export interface CheckedFile {
  result: FileResult;
  index: LineIndex;
}

export async function checkFile(file: string, options: CheckOptions): Promise<CheckedFile> {
  if (!GZIP.test(file)) return checkPlainOrGzip(file, options);
  try {
    return await checkPlainOrGzip(file, options);
  } catch (e) {
    // A broken gzip stream is a finding on the file, like any unreadable input.
    if (!/^Z_|ERR_/.test(String((e as { code?: string }).code ?? ''))) throw e;
    const message = `not a readable gzip file (${(e as Error).message})`;
    return { result: { format: undefined, calls: 0, sessions: 0, findings: [{ code: 'parse-error', severity: 'error', message, span: { start: 0, end: 0 } }] }, index: LineIndex.of('') };
  }
}

/** How the file's head says it is read; `document` also when only the whole can tell (then addText decides). */
async function headShape(file: string, name: string): Promise<'lines' | 'document'> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(1 << 16);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const complete = bytesRead < buf.length;
    // a cut UTF-8 sequence at the end of the head only affects the last line, which decides nothing; when the head
    // cannot tell, the whole is read and addText decides with its own (single) parse
    const head = shapeFromHead(buf.subarray(0, bytesRead).toString('utf8'), name, complete);
    return head ?? (JSONL_NAME.test(name) ? 'lines' : 'document');
  } finally {
    await handle.close();
  }
}

async function checkPlainOrGzip(file: string, options: CheckOptions): Promise<CheckedFile> {
  const gzip = GZIP.test(file);
  const inner = gzip ? file.slice(0, -3) : file;
  if (CONTAINER.test(file)) {
    // A zip container (Inspect AI .eval): positions refer to the JSON text its members make.
    const result = checkBytes(await fs.readFile(file), { ...options, fileName: file });
    return { result, index: LineIndex.of(result.text) };
  }
  if (gzip ? !JSONL_NAME.test(inner) : (await headShape(file, inner)) === 'document') {
    const bytes = await fs.readFile(file);
    const text = (gzip ? gunzipSync(bytes) : bytes).toString('utf8');
    const checker = new TraceChecker({ ...options, fileName: inner });
    checker.addText(text);
    return { result: checker.finish(), index: LineIndex.of(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  }
  const checker = new TraceChecker({ ...options, fileName: inner });
  const index = new LineIndex();
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let base = 0; // offset of `pending`'s first character in the file
  let first = true;
  const take = (chunk: string, final: boolean) => {
    if (first && chunk.length) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
    }
    pending += chunk;
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      const end = nl > start && pending.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      checker.addLine(pending.slice(start, end), base + start);
      start = nl + 1;
      index.addLineStart(base + start);
    }
    if (final && start < pending.length) {
      const tail = pending.slice(start);
      checker.addLine(tail.endsWith('\r') ? tail.slice(0, -1) : tail, base + start);
      start = pending.length;
    }
    base += start;
    pending = pending.slice(start);
  };
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  for await (const buf of gzip ? source.pipe(createGunzip()) : source) take(decoder.write(buf as Buffer), false);
  take(decoder.end(), true);
  return { result: checker.finish(), index };
}
