// The bytes entry point: a file as it is on disk. Containers (an Inspect AI `.eval` zip) become the JSON text
// their members make (see parse/container.ts); anything else is decoded (UTF-8, or UTF-16: parse/encoding.ts) and checked like any text. The
// text the positions refer to is returned with the result. One JSON document arriving as a stream of bytes (too
// large, maybe, for one string) is checked in parts by checkDocumentStream.
import { checkText, TraceChecker, type CheckOptions, type FileResult } from './engine';
import { readContainer } from './parse/container';
import { partDoc, pieceOffset } from './parse/doc';
import { DocumentSplitter, PartReplay, SplitError, SplitLimit, type Part, type PartRecipe } from './parse/split';
import { TextStamp } from './parse/text-stamp';
import { decodeText, utf8Stream } from './parse/encoding';

export interface BytesResult extends FileResult {
  /** The text that was checked (and that finding spans refer to). */
  text: string;
  /** True when the text was made from a container's members rather than decoded from the bytes. */
  container: boolean;
}

export function checkBytes(bytes: Uint8Array, options: CheckOptions = {}): BytesResult {
  const inner = readContainer(bytes);
  if (!inner) {
    const text = decodeText(bytes); // UTF-8, or UTF-16 (PowerShell's `>`), as the text it holds
    return { ...checkText(text, options), text, container: false };
  }
  // an Inspect log's text is made, not a file; a zip's one trace file is read under its own name
  const checker = new TraceChecker({ ...options, fileName: inner.member });
  checker.addText(inner.text);
  if (inner.problem) checker.addUnreadable(inner.problem);
  return { ...checker.finish(), text: inner.text, container: true };
}

// ---- one JSON document, as a stream of bytes -----------------------------------------------------------------

/** Where reading one document from a stream of bytes stops making it one string (see checkDocumentStream). */
export interface StreamLimits {
  /** A document of at most this many characters is read whole, exactly as checkText reads it. */
  wholeChars: number;
  /** A document that cannot be read in parts is still read whole up to this many characters. */
  maxWholeChars: number;
  /** A part is cut once the elements waiting in one array reach this many characters. */
  partChars: number;
  /** An element of an array (a span, a record) is cut inside only once it is this many characters. */
  elementChars: number;
  /** The most characters held at once while cutting (one value with nothing to cut it at). */
  maxHeld: number;
  /** The most entries the recipes of the parts may hold between the passes (a document nested very deep repeats its
   *  skeleton in every part): past it they are let go, and the second pass cuts the document again. */
  recipeEntries: number;
  /** Asked after each part of either pass: a message stops the check (the CLI watches its heap here). */
  check?: () => string | undefined;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { wholeChars: 16 << 20, maxWholeChars: 64 << 20, partChars: 256 << 10, elementChars: 2 << 20, maxHeld: 256 << 20, recipeEntries: 1 << 22 };

/** A limit of reading was reached: the message is one line that says which. */
export class ReadLimit extends Error {}

export interface StreamedDocument {
  result: FileResult;
  /** The text, when the document was read whole (positions refer to it without its BOM). */
  text?: string;
  /** The bytes are JSON lines, not one document: the caller reads them as lines. */
  lines?: true;
}

/** A part is not read as the whole would be, or is not JSON: read the document whole, or say why it cannot be. */
class NotInParts extends Error {
  constructor(readonly why: string, readonly parseError?: { message: string; offset: number }) {
    super(why);
  }
}

const UTF8 = { ignoreBOM: true } as const;
/** What a check says of a file rewritten between the two passes of reading it in parts. */
export const DOCUMENT_CHANGED = 'the document changed between its two readings';
const MB = (chars: number) => `${Math.round(chars / 2 ** 20)} MB`;

/**
 * Check one JSON document that arrives as bytes (`open` starts them again for each pass), without making one
 * string of it when it is large. Up to `wholeChars` it is read whole, like checkText. A larger one is cut into parts
 * (parse/split.ts) and read twice: the first pass checks that it is JSON, that its parts read as the whole would
 * (TraceChecker.readsInParts) and lets the line reader note what each part holds (so an OTLP trace's session is
 * checked once its last span is read); the second pass makes the same parts again from their recipes (no second
 * cutting; past `recipeEntries`, it cuts again) and reads them. A document that cannot be read in parts
 * is read whole while it fits `maxWholeChars`; past a limit a ReadLimit says which. `onText` sees the text of the
 * pass that is read (offsets after the BOM), for the caller's line index.
 */
export async function checkDocumentStream(open: () => AsyncIterable<Uint8Array>, options: CheckOptions = {}, limits: Partial<StreamLimits> = {}, onText?: (text: string, offset: number) => void): Promise<StreamedDocument> {
  const L = { ...DEFAULT_STREAM_LIMITS, ...limits };
  const checker = new TraceChecker(options);
  const split = { partChars: L.partChars, elementChars: L.elementChars, maxHeld: L.maxHeld };
  // pass 1: held whole while small; then cut, every part parsed and previewed
  const held: string[] = [];
  let heldChars = 0;
  let splitter: DocumentSplitter | undefined;
  let recipes: PartRecipe[] | undefined = [];
  let recipeEntries = 0;
  // what pass 1 read, for pass 2 to read the same (parse/text-stamp.ts)
  const read1 = new TextStamp();
  const preview = (part: Part) => {
    if (part.whole) throw new NotInParts('it is one part'); // small enough to read whole after all
    const value = parsePart(part);
    if (!checker.readsInParts(value, part.path)) throw new NotInParts('its format reads it only whole');
    checker.previewPart(partDoc(part.text, part.base, value, part.map));
    if (recipes) {
      recipeEntries += part.recipe.pieces.length + part.recipe.map.text.length;
      if (recipeEntries > L.recipeEntries) recipes = undefined;
      else recipes.push(part.recipe);
    }
    const stop = L.check?.();
    if (stop) throw new ReadLimit(stop);
  };
  try {
    let first = true;
    for await (const bytes of decoded(open())) {
      read1.push(bytes);
      if (splitter) splitter.push(bytes);
      else {
        held.push(bytes);
        heldChars += bytes.length;
        if (heldChars > L.wholeChars) {
          splitter = new DocumentSplitter(split, preview);
          for (const t of held.splice(0)) {
            splitter.push(first ? withoutBom(t) : t);
            first = false;
          }
        }
      }
    }
    if (!splitter) {
      const text = held.join('');
      checker.addText(text);
      return { result: checker.finish(), text: withoutBom(text) };
    }
    splitter.end();
  } catch (e) {
    if (e instanceof SplitLimit) throw new ReadLimit(`limit reached: ${e.message}`);
    if (e instanceof SplitError) {
      if (/after the JSON document/.test(e.message)) return { result: checker.finish(), lines: true };
      return readWhole(open, options, L, new NotInParts('it is not valid JSON', { message: e.message, offset: e.offset }));
    }
    if (e instanceof NotInParts) return readWhole(open, options, L, e);
    throw e;
  }
  // pass 2: the parts, read in file order
  const read = (part: Part) => {
    checker.addPart(partDoc(part.text, part.base, parsePart(part), part.map));
    const stop = L.check?.();
    if (stop) throw new ReadLimit(stop);
  };
  const reader = recipes ? new PartReplay(recipes, splitter.length, read) : new DocumentSplitter(split, read);
  let offset = 0;
  const read2 = new TextStamp();
  try {
    for await (const raw of decoded(open())) {
      read2.push(raw);
      const text = offset === 0 && reader.length === 0 ? withoutBom(raw) : raw;
      onText?.(text, offset);
      offset += text.length;
      reader.push(text);
    }
    // the same length is not the same text: a file rewritten between the passes is not checked as a mix of both
    if (!read2.same(read1)) throw new SplitError(DOCUMENT_CHANGED, Math.min(read1.length, read2.length));
    reader.end();
  } catch (e) {
    // pass one read all of it as JSON: what fails to read now was written in between
    if (e instanceof SplitError) throw new SplitError(DOCUMENT_CHANGED, e.offset);
    throw e;
  }
  return { result: checker.finish() };
}

/** The document could not be read in parts: read whole if it fits, else one parse error or the limit. */
async function readWhole(open: () => AsyncIterable<Uint8Array>, options: CheckOptions, L: StreamLimits, why: NotInParts): Promise<StreamedDocument> {
  const texts: string[] = [];
  let chars = 0;
  for await (const text of decoded(open())) {
    texts.push(text);
    chars += text.length;
    if (chars > L.maxWholeChars) {
      const failure = why.parseError;
      if (failure) {
        const finding = { code: 'parse-error', severity: 'error' as const, message: failure.message, span: { start: failure.offset, end: failure.offset + 1 } };
        return { result: { format: undefined, calls: 0, sessions: 0, findings: [finding] } };
      }
      throw new ReadLimit(`limit reached: this JSON document is over ${MB(L.maxWholeChars)} (the most read whole) and ${why.why}`);
    }
  }
  const text = texts.join('');
  return { result: checkText(text, options), text: withoutBom(text) };
}

/** JSON.parse of a part; a failure says where in the file. */
function parsePart(part: Part): unknown {
  try {
    return JSON.parse(part.text);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message);
    const offset = at ? pieceOffset(part.map, Number(at[1])) : part.base;
    throw new SplitError(`not valid JSON: ${(e as Error).message.replace(/\s*(in JSON )?at position \d+.*$/, '')}`, offset);
  }
}

/** The text of a stream of bytes, piece by piece. Each piece is decoded on its own, cut where no UTF-8 sequence is
 *  cut (streaming TextDecoder makes two-byte strings of ASCII in Node: twice the memory of one-byte ones). */
async function* decoded(bytes: AsyncIterable<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8', UTF8);
  let carry: Uint8Array | undefined;
  for await (let b of utf8Stream(bytes)) {
    if (carry) {
      const joined = new Uint8Array(carry.length + b.length);
      joined.set(carry);
      joined.set(b, carry.length);
      b = joined;
      carry = undefined;
    }
    const cut = wholeSequences(b);
    if (cut < b.length) carry = new Uint8Array(b.subarray(cut));
    if (cut > 0) yield decoder.decode(b.subarray(0, cut));
  }
  if (carry) yield decoder.decode(carry);
}

/** The length of the longest prefix of `b` that does not end inside a UTF-8 sequence. */
function wholeSequences(b: Uint8Array): number {
  let i = b.length - 1;
  while (i >= 0 && b.length - i <= 3 && (b[i] & 0xc0) === 0x80) i--;
  if (i < 0) return b.length;
  const lead = b[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return b.length - i >= need ? b.length : i;
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
