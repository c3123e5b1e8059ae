// Binary trace containers. An Inspect AI `.eval` file is a zip of `header.json`, `samples/*.json` and summaries;
// its members are joined into one JSON text `{"header": ..., "samples": [...]}` (members byte for byte, in zip
// order), which is what the checker reads and what positions refer to (the editor shows it read-only).
// A chunked sample (Inspect's log version 3: `samples/<id>_epoch_<n>/sample.json`, its shell, beside the numbered
// chunks of its `messages/`, `events/` and `attachments/` sequences) becomes one element of `samples` too:
// `{"chunked_sample": <shell>, "message_chunks": [...], "event_chunks": [...], "attachment_chunks": [...]}`, each
// list the chunk members (arrays) in index order. Inspect compresses members with zstd (zip method 93), which
// fflate cannot inflate: `fzstd` (pure JS, so the web build has it too) inflates them, and a Node host with a
// native decoder hands that to `useZstd` instead (faster); a member no decoder can read is left out and `problem`
// says so in one line.
// Any other zip (an export someone zipped) holding one trace file is read as that file; one holding several is
// not guessed at: `problem` says so in one line.
import { unzipSync } from 'fflate';
import { Decompress } from 'fzstd';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const STORED = 0;
const DEFLATE = 8;
const ZSTD = 93;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZIP_MAGIC.every((b, i) => bytes[i] === b);
}

/** Inflate a zstd member; throw rather than make more than `max` bytes (a tiny member can claim gigabytes). */
type Decode = (raw: Uint8Array, max: number) => Uint8Array;

/** What one member may inflate to: the members are joined into one string, which V8 caps near 512 MB. */
export const MEMBER_MAX = 256 << 20;
/** What all members together may inflate to (many members, each under MEMBER_MAX, could claim gigabytes): under the
 *  2^29 - 24 characters one V8 string holds, with room for what joins them, so their text is always one string. */
export const TOTAL_MAX = 480 << 20;

/** fzstd's streaming decoder, so the output is counted as it comes (its one-shot form sizes nothing), and Inspect's
 *  multi-frame members are read whole. */
const BUILT_IN: Decode = (raw, max) => {
  const parts: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > max) throw new RangeError('inflates past the limit');
    parts.push(chunk);
  });
  stream.push(raw, true);
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
let zstd: Decode | undefined = BUILT_IN;

/** A host with a faster zstd decoder (node:zlib's `zstdDecompressSync` where it exists) hands it here; undefined
 *  puts the built-in one back, null takes every decoder away (a test of the one-line answer). */
export function useZstd(decode: Decode | null | undefined): void {
  zstd = decode === undefined ? BUILT_IN : decode ?? undefined;
}

export interface Container {
  /** The JSON text the members make ('' when none could be read). */
  text: string;
  /** One line: members this build could not read (left out of `text`). */
  problem?: string;
  /** For a zip that is not an Inspect log: the name of the one trace file in it, whose text `text` is. */
  member?: string;
}

const MONOLITH = /^samples\/[^/]+\.json$/;
const CHUNKED = /^samples\/([^/]+)\/(?:sample\.json|(messages|events|attachments)\/(\d+)\.json)$/;

function wanted(name: string): boolean {
  return name === 'header.json' || MONOLITH.test(name) || CHUNKED.test(name);
}

/** A member of some other zip that may be a trace (not a folder, not the resource forks macOS zips add). */
const TRACE_MEMBER = /\.(?:jsonl|ndjson|json|har|ya?ml)$/i;
function traceMember(name: string): boolean {
  return TRACE_MEMBER.test(name) && !/(?:^|\/)__MACOSX\//.test(name) && !/(?:^|\/)\._/.test(name);
}

/** The text to check for a container, or undefined when the bytes are not one (or not one this reader knows). */
export function containerText(bytes: Uint8Array): string | undefined {
  return readContainer(bytes)?.text;
}

/** The container's text and what of it could not be read, or undefined when the bytes are not a container. */
export function readContainer(bytes: Uint8Array): Container | undefined {
  if (!isZip(bytes)) return undefined;
  const inspect = unzipWithin(bytes, wanted);
  if (!inspect) return undefined;
  const text = joined(inspect.files);
  if (text === undefined && !inspect.problem) return otherZip(bytes);
  return { text: text ?? '', problem: inspect.problem };
}

/** A zip that is not an Inspect log: its one trace file, or one line saying why none is read. */
function otherZip(bytes: Uint8Array): Container | undefined {
  const names: string[] = [];
  const read = unzipWithin(bytes, (name) => traceMember(name) && names.push(name) > 0);
  if (!read) return undefined;
  if (names.length === 0) return { text: '', problem: 'a zip archive with no trace in it (no .json, .jsonl, .har or .yaml file, and not an Inspect AI .eval log)' };
  if (names.length > 1) {
    return { text: '', problem: `a zip archive of ${names.length} trace files (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', ...' : ''}): one trace per zip is read; unzip it and check its files` };
  }
  const member = names[0];
  const raw = read.files[member];
  return { text: raw ? new TextDecoder('utf-8').decode(raw) : '', problem: read.problem, member };
}

/** The members `want` names, inflated within MEMBER_MAX each and TOTAL_MAX together, and one line on those left
 *  out; undefined when the bytes are not a zip fflate can read. */
function unzipWithin(bytes: Uint8Array, want: (name: string) => boolean): { files: Record<string, Uint8Array>; problem?: string } | undefined {
  const zstdNames: string[] = [];
  const tooLarge: string[] = [];
  // the bytes the members read so far inflate to (a stored member: its stored size, whatever it claims)
  const budget = { left: TOTAL_MAX, past: [] as string[] };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => {
      if (!want(f.name)) return false;
      if (f.originalSize > MEMBER_MAX) {
        tooLarge.push(f.name);
        return false;
      }
      if (f.compression === ZSTD) zstdNames.push(f.name);
      if (f.compression !== STORED && f.compression !== DEFLATE) return false;
      const size = Math.max(f.size, f.originalSize);
      if (size > budget.left) {
        budget.past.push(f.name);
        return false;
      }
      budget.left -= size;
      return true;
    } });
  } catch {
    return undefined;
  }
  let unread = zstdNames;
  if (zstdNames.length > 0 && zstd) unread = inflateRaw(bytes, zstdNames, files, zstd, budget);
  const members = (names: string[]) => `${names.length} member${names.length === 1 ? '' : 's'} of this zip (${names[0]}${names.length > 1 ? ', ...' : ''})`;
  const problems = [
    unread.length === 0 ? undefined
      : `${members(unread)} ${unread.length === 1 ? 'is' : 'are'} zstd-compressed (zip method 93, as Inspect AI writes them) ${zstd ? `and could not be inflated (not a whole zstd frame, or more than ${MEMBER_MAX >> 20} MB)` : 'and this build cannot inflate zstd'}: not read`,
    tooLarge.length === 0 ? undefined : `${members(tooLarge)} would inflate to more than ${MEMBER_MAX >> 20} MB (the limit of one member): not read`,
    budget.past.length === 0 ? undefined : `${members(budget.past)} would inflate the zip past ${TOTAL_MAX >> 20} MB (the limit of all members together): not read`,
  ].filter((p) => p !== undefined);
  return { files, problem: problems.length ? problems.join('; ') : undefined };
}

/** The members' JSON text, or undefined when there is neither a header nor a sample. */
function joined(files: Record<string, Uint8Array>): string | undefined {
  const decoder = new TextDecoder('utf-8');
  const read = (n: string) => decoder.decode(files[n]).trim();
  const header = files['header.json'];
  const names = Object.keys(files).sort(byName);
  const parts: string[] = [];
  const chunked = new Map<string, { shell?: string; messages: string[]; events: string[]; attachments: string[] }>();
  for (const n of names) {
    if (MONOLITH.test(n)) {
      parts.push(read(n));
      continue;
    }
    const m = CHUNKED.exec(n);
    if (!m) continue;
    let s = chunked.get(m[1]);
    if (!s) {
      s = { messages: [], events: [], attachments: [] };
      chunked.set(m[1], s);
      parts.push(m[1]); // its place in sample order, filled in below
    }
    if (m[2] === undefined) s.shell = read(n);
    else s[m[2] as 'messages' | 'events' | 'attachments'].push(read(n));
  }
  const samples = parts.flatMap((p) => {
    const s = chunked.get(p);
    if (!s) return [p];
    if (s.shell === undefined) return []; // chunks without their shell: not a sample
    return [`{"chunked_sample": ${s.shell},\n"message_chunks": [${s.messages.join(',\n')}],\n"event_chunks": [${s.events.join(',\n')}],\n"attachment_chunks": [${s.attachments.join(',\n')}]}`];
  });
  if (!header && samples.length === 0) return undefined;
  return `{"header": ${header ? decoder.decode(header).trim() : 'null'},\n"samples": [\n${samples.join(',\n')}\n]}\n`;
}

/** `samples/<id>_epoch_<n>.json` in id, then epoch order (numerically where they are numbers); a chunked sample's
 *  chunks by their first index. */
function byName(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

const u16 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u32 = (b: Uint8Array, i: number) => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;

/** Inflate the named members with `decode` into `files`, within `budget` (a member past what is left of it goes to
 *  `budget.past`); the names it could not read are returned. Reads the central directory itself (fflate will not
 *  hand over a member it cannot inflate); a zip64 archive is not read. */
function inflateRaw(bytes: Uint8Array, names: string[], files: Record<string, Uint8Array>, decode: Decode, budget: { left: number; past: string[] }): string[] {
  const want = new Set(names);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (u32(bytes, i) === 0x06054b50) { end = i; break; }
  }
  if (end < 0) return names;
  let at = u32(bytes, end + 16);
  const count = u16(bytes, end + 10);
  const decoder = new TextDecoder('utf-8');
  for (let k = 0; k < count && at + 46 <= bytes.length && u32(bytes, at) === 0x02014b50; k++) {
    const method = u16(bytes, at + 10);
    const size = u32(bytes, at + 20);
    const nameLen = u16(bytes, at + 28);
    const local = u32(bytes, at + 42);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLen));
    at += 46 + nameLen + u16(bytes, at + 30) + u16(bytes, at + 32);
    if (!want.has(name) || method !== ZSTD || u32(bytes, local) !== 0x04034b50) continue;
    const start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
    const max = Math.min(MEMBER_MAX, budget.left);
    const raw = bytes.subarray(start, start + size);
    if (!zstdWithin(raw, max)) {
      if (max < MEMBER_MAX) {
        budget.past.push(name);
        want.delete(name);
      }
      continue; // otherwise named as not inflatable
    }
    try {
      const out = decode(raw, max);
      if (out.length > max) throw new RangeError('inflated past the limit'); // a decoder that ignored `max`
      files[name] = out;
      budget.left -= out.length;
      want.delete(name);
    } catch {
      // left unread, named in the problem line: past what the members together may take, or not inflatable
      if (max < MEMBER_MAX) {
        budget.past.push(name);
        want.delete(name);
      }
    }
  }
  return names.filter((n) => want.has(n));
}


/** Bytes of window a decoder may copy for one member: a frame without a stated size is decoded through its window,
 *  which fzstd copies once per block (a 41 MB member written with a 128 MB window: 40 GB, 4.5 s); a tiny member of
 *  one-byte blocks under a big window would copy for hours. */
const WORK_MAX = 48 * 2 ** 30;

/** Whether the zstd frames of `raw` stay within `max` bytes out and WORK_MAX of work, read from their headers alone:
 *  a few bytes can declare a 2 GB window (which fzstd allocates) or a stream of 128 KB RLE blocks, and the headers
 *  say so before anything is allocated. Frames are walked block by block; a malformed one is left to the decoder. */
function zstdWithin(raw: Uint8Array, max: number): boolean {
  let at = 0;
  let out = 0;
  let work = 0;
  while (at + 4 <= raw.length) {
    const magic = u32(raw, at);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      at += 8 + u32(raw, at + 4); // a skippable frame
      continue;
    }
    if (magic !== 0xfd2fb528 || at + 5 > raw.length) return true;
    const fhd = raw[at + 4];
    const single = (fhd >> 5) & 1;
    const fcsFlag = fhd >> 6;
    const dictBytes = [0, 1, 2, 4][fhd & 3];
    const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
    let p = at + 5;
    let window = 0;
    if (!single) {
      const wd = raw[p++];
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    p += dictBytes;
    let declared = 0;
    for (let k = 0; k < fcsBytes; k++) declared += raw[p + k] * 2 ** (8 * k);
    if (fcsFlag === 1) declared += 256;
    p += fcsBytes;
    if (single) window = declared;
    if (window > max || declared > max) return false;
    for (;;) {
      if (p + 3 > raw.length) return true;
      const h = raw[p] | (raw[p + 1] << 8) | (raw[p + 2] << 16);
      const type = (h >> 1) & 3;
      const blockSize = h >>> 3;
      out += type === 2 ? Math.min(window, 128 << 10) : blockSize; // a compressed block: at most a block's worth
      work += fcsBytes > 0 ? blockSize : window;
      if (out > max + (128 << 10) || work > WORK_MAX) return false;
      p += 3 + (type === 1 ? 1 : type === 3 ? 0 : blockSize);
      if (h & 1) break;
    }
    at = p + ((fhd >> 2) & 1 ? 4 : 0);
  }
  return true;
}
