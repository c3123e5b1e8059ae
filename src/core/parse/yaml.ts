// YAML documents (recorded HTTP cassettes: VCR.py / pytest-recording, Ruby VCR, go-vcr) read into the same Doc
// model as JSON. The YAML is parsed with `yaml` (its nodes keep their source ranges), then written out as a JSON
// text whose offset map (Doc.pieces) sends every character back to the YAML source: each scalar's decoded
// characters to where they are written (quotes, `''`, escapes, folded lines and block indentation undone), so a
// finding inside a body string lands on the body's text in the .yaml file. A scalar this module cannot map
// character by character (a folded block, a `!!binary` body) maps across its whole written range.
import { gunzipSync, unzlibSync } from 'fflate';
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Node as YamlNode } from 'yaml';
import { eventStreamEvents } from './event-stream';
import { partDoc, type OffsetMap } from './doc';
import type { ParsedUnit, ParseFailure } from './reader';

/** Names read as YAML. */
export const YAML_NAME = /\.ya?ml$/i;

/** Whether a YAML text's head (its first few KB) is a recorded HTTP cassette's: a top-level `interactions:`
 *  (VCR.py, pytest-recording, go-vcr) or `http_interactions:` (Ruby VCR) key. How folder scans and the editor take a
 *  YAML file, so that CI configs and other YAML are never read as traces. */
export function looksLikeCassette(head: string): boolean {
  return /^["']?(?:http_)?interactions["']?[ \t]*:/m.test(head);
}

/** Most aliases expanded into the JSON text (a "billion laughs" file stops here). */
const MAX_ALIASES = 1000;
/** How long the JSON text may grow, past the YAML's own length times this, before an alias is no longer expanded
 *  (a large anchored body aliased a thousand times would make a text longer than one string holds). */
const ALIAS_GROWTH = 4;
/** Most levels written (aliases inside aliases nest deeper than the YAML the parser read): past them the document
 *  is one parse failure, not a stack overflow. */
const MAX_DEPTH = 1000;
/** The largest YAML text read (a 22 MB cassette took 820 MB to read). */
export const YAML_MAX_CHARS = 16 << 20;

class TooDeep extends Error {
  constructor(readonly at: number) {
    super(`YAML: nested deeper than ${MAX_DEPTH} levels (aliases expanded)`);
  }
}

/** The JSON text being written and where each of its characters comes from. */
class JsonOut {
  private readonly chunks: string[] = [];
  private length = 0;
  readonly map: OffsetMap = { text: [], file: [] };
  /** text offset minus file offset in the current piece */
  private delta = NaN;
  /** The file offset after the last value written: where separators and closing brackets are said to be. */
  private tail = 0;
  aliases = 0;

  private mark(at: number): void {
    if (this.length - at === this.delta) return;
    this.delta = this.length - at;
    this.map.text.push(this.length);
    this.map.file.push(at);
  }

  /** Characters written so far. */
  get size(): number {
    return this.length;
  }

  private push(s: string): void {
    this.chunks.push(s);
    this.length += s.length;
  }

  private flushRun(run: string): void {
    if (run) this.push(run);
  }

  /** A token (a number, `true`, `null`) written at [at, end) of the file. */
  token(s: string, at: number, end: number): void {
    this.mark(at);
    this.push(s);
    this.tail = end;
  }

  /** An opening bracket at file offset `at`. */
  open(s: string, at: number): void {
    this.mark(at);
    this.push(s);
  }

  /** A separator or closing bracket, after the value before it (a closing bracket at `end` when given). */
  sep(s: string, end?: number): void {
    if (end !== undefined) this.tail = Math.max(this.tail, end);
    this.mark(end !== undefined ? Math.max(this.tail - 1, 0) : this.tail);
    this.push(s);
  }

  /** A JSON string literal of `value` for a scalar at [start, end) of the file, its decoded character i written
   *  at file offset src[i] (src[length]: where its closing quote, or its end, is). */
  string(value: string, offsets: Offsets, start: number, end: number): void {
    this.mark(start);
    this.push('"');
    if (typeof offsets === 'number' && !NEEDS_ESCAPE.test(value)) {
      this.mark(offsets);
      this.push(value);
      this.push('"');
      this.tail = end;
      return;
    }
    const src = typeof offsets === 'number' ? Array.from({ length: value.length + 1 }, (_, i) => offsets + i) : offsets;
    let run = '';
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (this.length + run.length - src[i] !== this.delta) {
        this.flushRun(run);
        run = '';
        this.mark(src[i]);
      }
      const esc = c === 34 ? '\\"' : c === 92 ? '\\\\' : c < 32 ? ESCAPES[c] : undefined;
      if (esc === undefined) run += value[i];
      else {
        this.flushRun(run);
        run = '';
        this.push(esc);
      }
    }
    if (run) this.push(run);
    this.mark(Math.max(src[value.length], start));
    this.push('"');
    this.tail = end;
  }

  done(): string {
    return this.chunks.join('');
  }
}

const ESCAPES: string[] = Array.from({ length: 32 }, (_, c) =>
  c === 10 ? '\\n' : c === 13 ? '\\r' : c === 9 ? '\\t' : c === 8 ? '\\b' : c === 12 ? '\\f' : `\\u${c.toString(16).padStart(4, '0')}`,
);

/** Offsets spread over [start, end) for `n` characters (a scalar mapped across its range, not char by char). */
function spread(n: number, start: number, end: number): number[] {
  const out = new Array<number>(n + 1);
  const width = Math.max(end - start, 1);
  for (let i = 0; i < n; i++) out[i] = start + (n <= width ? i : Math.floor((i * width) / n));
  out[n] = end;
  return out;
}

/** Where each decoded character of a scalar is written: one offset each (and one past the end), or, for a scalar
 *  written as it reads, the offset of its first character. */
type Offsets = ArrayLike<number> | number;

// eslint-disable-next-line no-control-regex -- JSON escapes U+0000-U+001F
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

const isBlank = (c: number) => c === 32 || c === 9;
const isBreak = (c: number) => c === 10 || c === 13;

/** A flow scalar (plain, 'single' or "double" quoted) decoded with the offset of each character: escapes and
 *  `''` undone, line breaks folded (one break a space, each further empty line a newline). */
function flowScalar(text: string, start: number, end: number, quote: 0 | 39 | 34): { value: string; src: number[] } {
  let value = '';
  const src: number[] = [];
  let i = quote ? start + 1 : start;
  const stop = quote && end - start >= 2 && text.charCodeAt(end - 1) === quote ? end - 1 : end;
  let literalEnd = 0; // decoded length up to the last character that is not foldable white space
  const emit = (s: string, at: number, literal: boolean) => {
    value += s;
    src.push(at);
    if (literal) literalEnd = value.length;
  };
  while (i < stop) {
    const c = text.charCodeAt(i);
    if (isBreak(c)) {
      // trailing blanks of the line are dropped, then leading blanks of the next lines; each empty line a newline
      value = value.slice(0, literalEnd);
      src.length = literalEnd;
      const at = i;
      let breaks = 0;
      while (i < stop && (isBreak(text.charCodeAt(i)) || isBlank(text.charCodeAt(i)))) {
        if (text.charCodeAt(i) === 10) breaks++;
        else if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) !== 10) breaks++;
        i++;
      }
      if (breaks <= 1) emit(' ', at, true);
      else for (let k = 1; k < breaks; k++) emit('\n', at, true);
      continue;
    }
    if (quote === 39 && c === 39 && text.charCodeAt(i + 1) === 39) {
      emit("'", i, true);
      i += 2;
      continue;
    }
    if (quote === 34 && c === 92) {
      const e = text[i + 1];
      if (e === '\n' || e === '\r') {
        // an escaped line break: nothing, and the next line's leading blanks go too
        i += e === '\r' && text[i + 2] === '\n' ? 3 : 2;
        while (i < stop && isBlank(text.charCodeAt(i))) i++;
        literalEnd = value.length;
        continue;
      }
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex) {
        const code = parseInt(text.slice(i + 2, i + 2 + hex), 16);
        const s = Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
        for (let k = 0; k < s.length; k++) emit(s[k], i, true);
        i += 2 + hex;
        continue;
      }
      const simple = DOUBLE_ESCAPES[e];
      emit(simple ?? e, i, true);
      i += 2;
      continue;
    }
    emit(text[i], i, !isBlank(c));
    i++;
  }
  if (!quote) {
    value = value.slice(0, literalEnd);
    src.length = literalEnd;
  }
  src.push(stop);
  return { value, src };
}

const DOUBLE_ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};

/** A literal block scalar (`|`, `|-`, `|+`, `|2`) decoded with the offset of each character. */
function literalBlock(text: string, start: number, end: number): { value: string; src: number[] } | undefined {
  const headerEnd = text.indexOf('\n', start);
  if (headerEnd === -1 || headerEnd >= end) return undefined;
  // the header up to a comment (`\s#`, not `\s+#`: that backtracks over a long run of blanks)
  const raw = text.slice(start + 1, headerEnd);
  const hash = raw.search(/\s#/);
  const header = (hash === -1 ? raw : raw.slice(0, hash)).trim();
  const explicit = /\d/.exec(header);
  const chomp = header.includes('-') ? 'strip' : header.includes('+') ? 'keep' : 'clip';
  const lines: { at: number; text: string }[] = [];
  for (let at = headerEnd + 1; at < end; ) {
    let nl = text.indexOf('\n', at);
    if (nl === -1 || nl > end) nl = end;
    lines.push({ at, text: text.slice(at, nl).replace(/\r$/, '') });
    at = nl + 1;
  }
  // the block's indentation: explicit, relative to its parent's (the column of the key on the header's line, past
  // any `- ` of a sequence), or that of its first non-empty line
  const first = lines.find((l) => l.text.trim() !== '');
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lead = /^[ ]*(?:-[ ]+)*/.exec(text.slice(lineStart, start))![0].length;
  const parent = lineStart + lead < start ? lead : text.slice(lineStart, start).search(/\S|$/);
  const indent = explicit ? parent + Number(explicit[0]) : first ? first.text.length - first.text.trimStart().length : undefined;
  if (indent === undefined) return undefined;
  let value = '';
  const src: number[] = [];
  for (const l of lines) {
    const body = l.text.length > indent ? l.text.slice(indent) : '';
    for (let k = 0; k < body.length; k++) {
      value += body[k];
      src.push(l.at + indent + k);
    }
    value += '\n';
    src.push(l.at + l.text.length);
  }
  let keepTo = value.length;
  while (keepTo > 0 && value[keepTo - 1] === '\n') keepTo--;
  const cut = chomp === 'keep' ? value.length : chomp === 'strip' ? keepTo : Math.min(keepTo + 1, value.length);
  value = value.slice(0, cut);
  src.length = cut;
  src.push(end);
  return { value, src };
}

/** The decoded characters of a string scalar and their offsets; across its range when its style is not mapped
 *  here or the decoding does not give the parser's value. */
function stringOffsets(text: string, node: { type?: string | null; range?: [number, number, number] | null }, value: string): Offsets {
  const [start, end] = node.range ?? [0, 0];
  // written as it reads (a key, a one-line value): each character where it is, no walk
  if (node.type === 'PLAIN' && end - start === value.length && text.startsWith(value, start)) return start;
  if ((node.type === 'QUOTE_SINGLE' || node.type === 'QUOTE_DOUBLE') && end - start === value.length + 2 && text.startsWith(value, start + 1)) return start + 1;
  let mapped: { value: string; src: number[] } | undefined;
  if (node.type === 'PLAIN') mapped = flowScalar(text, start, end, 0);
  else if (node.type === 'QUOTE_SINGLE') mapped = flowScalar(text, start, end, 39);
  else if (node.type === 'QUOTE_DOUBLE') mapped = flowScalar(text, start, end, 34);
  else if (node.type === 'BLOCK_LITERAL') mapped = literalBlock(text, start, end);
  return mapped && mapped.value === value ? mapped.src : spread(value.length, start, end);
}

/** Most bytes a compressed body is inflated to: a small "zip bomb" would otherwise fill the memory. */
const MAX_INFLATED = 32 << 20;

/** Inflate a Brotli body into at most `max` bytes (throw past it). Brotli (`Content-Encoding: br`, which VCR.py keeps
 *  as `!!binary` unless told to decode) has no pure-JS decoder here: a Node host hands zlib's to `useBrotli`; where
 *  none was handed (VS Code for the Web) such a body stays unread, as before. */
type Inflate = (raw: Uint8Array, max: number) => Uint8Array;
let brotli: Inflate | undefined;
export function useBrotli(decode: Inflate | undefined): void {
  brotli = decode;
}

/** The text of a binary body (a `!!binary` scalar, a base64 body of a recording): gzip or zlib data inflated, then
 *  UTF-8, or, when that is no text, an AWS event stream's events as a JSON array (undefined when it is neither). */
export function binaryText(bytes: Uint8Array): string | undefined {
  let data = bytes;
  try {
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      // gzip says its size in its last 4 bytes, and fflate inflates into a buffer of that size (no more is written)
      const n = bytes.length;
      if (n < 18 || (bytes[n - 4] | (bytes[n - 3] << 8) | (bytes[n - 2] << 16) | (bytes[n - 1] << 24)) >>> 0 > MAX_INFLATED) return undefined;
      data = gunzipSync(bytes);
    } else if (bytes[0] === 0x78 && (bytes[1] === 0x01 || bytes[1] === 0x5e || bytes[1] === 0x9c || bytes[1] === 0xda)) {
      // zlib does not: into a buffer one byte past the limit (deflate inflates at most ~1032 times), full is too large
      data = unzlibSync(bytes, { out: new Uint8Array(Math.min(MAX_INFLATED, bytes.length * 1032) + 1) });
      if (data.length > MAX_INFLATED) return undefined;
    }
  } catch {
    return undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    const events = eventStreamEvents(data);
    return events ? JSON.stringify(events) : data === bytes ? brotliText(bytes) : undefined;
  }
}

/** A Brotli body's text: tried last, as Brotli has no magic bytes (bytes that are not Brotli fail at once). */
function brotliText(bytes: Uint8Array): string | undefined {
  if (!brotli) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(brotli(bytes, MAX_INFLATED));
  } catch {
    return undefined;
  }
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function write(out: JsonOut, text: string, node: unknown, anchors: Map<string, YamlNode>, depth = 0): void {
  if (depth > MAX_DEPTH) throw new TooDeep((node as YamlNode | null)?.range?.[0] ?? 0);
  if (isAlias(node)) {
    const target = anchors.get(node.source);
    const [at, to] = node.range ?? [0, 0];
    if (!target || ++out.aliases > MAX_ALIASES || out.size > ALIAS_GROWTH * text.length + (1 << 20)) out.token('null', at, to);
    else write(out, text, target, anchors, depth + 1);
    return;
  }
  const n = node as YamlNode | null;
  if (n && typeof n.anchor === 'string' && n.anchor) anchors.set(n.anchor, n);
  const [start, end] = n?.range ?? [0, 0];
  if (isMap(n)) {
    out.open('{', start);
    n.items.forEach((pair, i) => {
      if (!isPair(pair)) return;
      if (i > 0) out.sep(',');
      writeKey(out, pair.key, text);
      out.sep(':');
      if (pair.value === null || pair.value === undefined) out.token('null', start, start);
      else write(out, text, pair.value, anchors, depth + 1);
    });
    out.sep('}', end);
    return;
  }
  if (isSeq(n)) {
    out.open('[', start);
    n.items.forEach((item, i) => {
      if (i > 0) out.sep(',');
      if (item === null || item === undefined) out.token('null', start, start);
      else write(out, text, item, anchors, depth + 1);
    });
    out.sep(']', end);
    return;
  }
  if (isScalar(n)) {
    const v = n.value;
    if (typeof v === 'string') out.string(v, stringOffsets(text, n, v), start, end);
    else if (v instanceof Uint8Array) {
      const s = binaryText(v);
      if (s === undefined) out.token('null', start, end);
      else out.string(s, spread(s.length, start, end), start, end);
    } else if (typeof v === 'number') {
      const lexeme = text.slice(start, end).trim();
      out.token(Number.isFinite(v) ? (JSON_NUMBER.test(lexeme) && Number(lexeme) === v ? lexeme : JSON.stringify(v)) : 'null', start, end);
    } else if (typeof v === 'bigint' || typeof v === 'boolean') out.token(String(v), start, end);
    else if (v === null || v === undefined) out.token('null', start, end);
    else {
      // another tag's value (a date under a YAML 1.1 schema): its text as written
      const s = text.slice(start, end).trim();
      out.string(s, spread(s.length, start, end), start, end);
    }
    return;
  }
  out.token('null', start, end);
}

/** A mapping key as a JSON key: a string scalar as itself, any other key as the text of its value. */
function writeKey(out: JsonOut, key: unknown, text: string): void {
  const k = key as YamlNode | null;
  const [start, end] = k?.range ?? [0, 0];
  if (isScalar(k) && typeof k.value === 'string') {
    out.string(k.value, stringOffsets(text, k, k.value), start, end);
    return;
  }
  const s = isScalar(k) ? String(k.value) : k ? JSON.stringify(k.toJSON()) : '';
  out.string(s, spread(s.length, start, end), start, end);
}

/** The first error of a document as a parse failure (file offsets, one line). */
function failureOf(doc: Document.Parsed): ParseFailure | undefined {
  const e = doc.errors[0];
  if (!e) return undefined;
  const [start, end] = e.pos;
  return { span: { start, end: Math.max(end, start + 1) }, message: `YAML: ${e.message.split('\n')[0]}` };
}

const PARSE_OPTIONS = { keepSourceTokens: false, uniqueKeys: false, customTags: ['binary' as const], prettyErrors: false, strict: false, stringKeys: false };

function unitOf(text: string, docs: Document.Parsed[]): ParsedUnit {
  const out = new JsonOut();
  const anchors = new Map<string, YamlNode>();
  const many = docs.length > 1;
  if (docs.length === 0) out.token('null', 0, 0);
  // several documents (`---` between them) are read as one array of them, each then a unit of its own
  if (many) out.open('[', 0);
  docs.forEach((d, i) => {
    if (i > 0) out.sep(',');
    anchors.clear();
    write(out, text, d.contents, anchors);
  });
  if (many) out.sep(']', text.length);
  const json = out.done();
  return { ok: true, doc: partDoc(json, 0, JSON.parse(json), out.map) };
}

/**
 * A YAML text read as one document (a parse failure where it is not YAML). A text cut short (a truncated last
 * interaction) is read up to the line its first error is on, and `cut` says where the rest could not be read.
 */
export function parseYaml(text: string): { unit: ParsedUnit; cut?: ParseFailure } {
  // a YAML tree of every node (positions kept) costs about forty times the text: larger files are refused in one line
  if (text.length > YAML_MAX_CHARS) {
    const mb = YAML_MAX_CHARS / (1 << 20);
    return { unit: { ok: false, failure: { span: { start: 0, end: Math.min(1, text.length) }, message: `YAML: limit reached: this file is over ${mb} MB, the most read as YAML (record the cassette as JSON, or split it)` } } };
  }
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, PARSE_OPTIONS) as Document.Parsed[];
  } catch (e) {
    return { unit: { ok: false, failure: { span: { start: 0, end: Math.min(1, text.length) }, message: `YAML: ${String((e as Error).message).split('\n')[0]}` } } };
  }
  if (!Array.isArray(docs)) docs = [];
  const failed = docs.find((d) => d.errors.length > 0);
  if (!failed) {
    try {
      return { unit: unitOf(text, docs) };
    } catch (e) {
      if (!(e instanceof TooDeep)) throw e;
      return { unit: { ok: false, failure: { span: { start: e.at, end: Math.min(e.at + 1, text.length) }, message: e.message } } };
    }
  }
  const failure = failureOf(failed)!;
  // read what comes before the line of the first error, when that much is YAML on its own
  const lineStart = text.lastIndexOf('\n', failure.span.start - 1) + 1;
  if (lineStart > 0) {
    const head = text.slice(0, lineStart);
    try {
      const again = parseAllDocuments(head, PARSE_OPTIONS) as Document.Parsed[];
      if (Array.isArray(again) && again.length > 0 && again.every((d) => d.errors.length === 0)) return { unit: unitOf(head, again), cut: failure };
    } catch {
      // the head is not YAML either: the failure stands
    }
  }
  return { unit: { ok: false, failure } };
}
