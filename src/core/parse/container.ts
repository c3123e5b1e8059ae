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
}

const MONOLITH = /^samples\/[^/]+\.json$/;
const CHUNKED = /^samples\/([^/]+)\/(?:sample\.json|(messages|events|attachments)\/(\d+)\.json)$/;

function wanted(name: string): boolean {
  return name === 'header.json' || MONOLITH.test(name) || CHUNKED.test(name);
}

/** The text to check for a container, or undefined when the bytes are not one (or not one this reader knows). */
export function containerText(bytes: Uint8Array): string | undefined {
  return readContainer(bytes)?.text;
}

/** The container's text and what of it could not be read, or undefined when the bytes are not a container. */
export function readContainer(bytes: Uint8Array): Container | undefined {
  if (!isZip(bytes)) return undefined;
  const zstdNames: string[] = [];
  const tooLarge: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => {
      if (!wanted(f.name)) return false;
      if (f.originalSize > MEMBER_MAX) {
        tooLarge.push(f.name);
        return false;
      }
      if (f.compression === ZSTD) zstdNames.push(f.name);
      return f.compression === STORED || f.compression === DEFLATE;
    } });
  } catch {
    return undefined;
  }
  let unread = zstdNames;
  if (zstdNames.length > 0 && zstd) unread = inflateRaw(bytes, zstdNames, files, zstd);
  const text = joined(files);
  const large = tooLarge.length === 0 ? undefined
    : `${tooLarge.length} member${tooLarge.length === 1 ? '' : 's'} of this zip (${tooLarge[0]}${tooLarge.length > 1 ? ', ...' : ''}) would inflate to more than ${MEMBER_MAX >> 20} MB (the limit of one member): not read`;
  const problem = unread.length === 0 ? large
    : `${unread.length} member${unread.length === 1 ? '' : 's'} of this zip (${unread[0]}${unread.length > 1 ? ', ...' : ''}) ${unread.length === 1 ? 'is' : 'are'} zstd-compressed (zip method 93, as Inspect AI writes them) ${zstd ? `and could not be inflated (not a whole zstd frame, or more than ${MEMBER_MAX >> 20} MB)` : 'and this build cannot inflate zstd'}: not read`;
  if (text === undefined && !problem) return undefined;
  return { text: text ?? '', problem };
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

/** Inflate the named members with `decode` into `files`; the names it could not read are returned. Reads the
 *  central directory itself (fflate will not hand over a member it cannot inflate); a zip64 archive is not read. */
function inflateRaw(bytes: Uint8Array, names: string[], files: Record<string, Uint8Array>, decode: Decode): string[] {
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
    try {
      files[name] = decode(bytes.subarray(start, start + size), MEMBER_MAX);
      want.delete(name);
    } catch {
      // left unread: named in the problem line
    }
  }
  return names.filter((n) => want.has(n));
}

