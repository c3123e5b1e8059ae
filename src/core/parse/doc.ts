// A Doc is one unit of parsed JSON: a JSONL line, a whole JSON file, or the decoded text of a string that held
// JSON (OpenAI's string-encoded `arguments`). Values come from JSON.parse (the fast path); source spans and
// number lexemes are recovered lazily, by walking the text to the node, only for nodes that have findings.
import type { JsonPath, Span } from './span';
import { sourceOffset } from './escapes';
import { RecentCache } from '../recent';
import { lastAtOrBefore } from './line-index';
import { LARGE_TEXT, locate, newLocateCache, resetLocateCache, type LocateCache, type Located } from './locate';

export type { JsonPath } from './span';

export interface Doc {
  /** The JSON text of this unit. */
  readonly text: string;
  /** Offset of text[0] in the file (top-level docs only). */
  readonly base: number;
  /** The decoded value (JSON.parse of text). */
  readonly value: unknown;
  /** For a doc decoded from a JSON string: the string node that holds it, and where in the decoded string
   *  this doc's text starts (after a markdown fence or leading blanks). */
  readonly parent?: { doc: Doc; path: JsonPath; skip: number };
  /** For a doc that is a node of another (a unit inside a wrapper, such as a capture's `response`): that doc and
   *  the node's path. Anchors in this doc resolve through it, so readers see the node as their root. */
  readonly within?: { doc: Doc; path: JsonPath };
  /** For a part of a document read in parts (split.ts): where each piece of `text` is in the file (then `base`
   *  is only where the part's first element is). */
  readonly pieces?: OffsetMap;
}

/** Where each piece of a text made of pieces of the file comes from: text offsets and the file offsets they start
 *  at, ascending. Characters between pieces (brackets, commas) map past the end of the piece before them. */
export interface OffsetMap {
  text: number[];
  file: number[];
}

/** The file offset of `offset` in a text made of pieces. */
export function pieceOffset(map: OffsetMap, offset: number): number {
  const i = lastAtOrBefore(map.text, offset);
  return map.file[i] + offset - map.text[i];
}

/** Where a finding points: a node of a doc, or the key of that node, or a range of the string the node holds. */
export interface Anchor {
  doc: Doc;
  path: JsonPath;
  part?: 'value' | 'key';
  /** [start, end) in the decoded value of the string at `path` (e.g. a call written inside a message's text). */
  range?: Span;
}

// Paths are joined at their final length: a spread (`[...a, ...b]`) grows its array as it goes, about two and a
// half times the bytes, and `concat` is a slow built-in. Readers make several paths per call and result.
/** `[...a, ...b]`. */
export function joinPath(a: JsonPath, b: JsonPath): JsonPath {
  const n = a.length;
  const m = b.length;
  const out = new Array<string | number>(n + m);
  for (let i = 0; i < n; i++) out[i] = a[i];
  for (let i = 0; i < m; i++) out[n + i] = b[i];
  return out;
}

/** `[...a, seg]`, or `[...a, seg, next]`. */
export function childPath(a: JsonPath, seg: string | number, next?: string | number): JsonPath {
  const n = a.length;
  const out = new Array<string | number>(next === undefined ? n + 1 : n + 2);
  for (let i = 0; i < n; i++) out[i] = a[i];
  out[n] = seg;
  if (next !== undefined) out[n + 1] = next;
  return out;
}

export function topDoc(text: string, base: number, value: unknown): Doc {
  return { text, base, value };
}

/** A part of a document read in parts: its text is made of pieces of the file (see split.ts). */
export function partDoc(text: string, base: number, value: unknown, pieces: OffsetMap): Doc {
  return { text, base, value, pieces };
}

/** A doc for JSON found inside the string at `path` of `parent`; `decoded` is that string's value. */
export function embeddedDoc(parent: Doc, path: JsonPath, decoded: string, skip: number, text: string, value: unknown): Doc {
  void decoded;
  return { text, base: 0, value, parent: { doc: parent, path, skip } };
}

/** The node at `path` of `doc` as a doc of its own, whose anchors point into `doc`. */
export function nodeDoc(doc: Doc, path: JsonPath, value: unknown): Doc {
  return { text: doc.text, base: doc.base, value, within: { doc, path } };
}

// Where earlier walks of a doc's text got to (the last path, big objects and arrays), so that the findings of one
// doc (and every finding inside string-encoded arguments needs the string that holds them) resume, not rescan.
// Small docs (a JSONL line, a call's arguments) keep theirs among the last few docs located: a WeakMap entry per
// doc kept every walk alive through young-generation collections. Large docs (a whole export) keep theirs for
// as long as they live: rebuilding their member maps would rescan the document.
const recentWalks = new RecentCache<Doc, LocateCache>(8);
const largeWalks = new WeakMap<Doc, LocateCache>();
/** The walk of a doc that left the recent ones is reset for the next, not made anew. */
const walkFor = (_doc: Doc, evicted?: LocateCache): LocateCache => (evicted ? resetLocateCache(evicted) : newLocateCache());

function nodeAt(doc: Doc, path: JsonPath): Located | undefined {
  if (doc.within) return nodeAt(doc.within.doc, joinPath(doc.within.path, path));
  let cache: LocateCache | undefined;
  if (doc.text.length > LARGE_TEXT) {
    cache = largeWalks.get(doc);
    if (!cache) largeWalks.set(doc, (cache = newLocateCache()));
  } else cache = recentWalks.get(doc, walkFor);
  return locate(doc.text, path, cache);
}

/** Map a [start, end) range of a doc's text to absolute file offsets, through every string it was decoded from. */
function toFile(doc: Doc, start: number, end: number): Span {
  if (doc.within) return toFile(doc.within.doc, start, end); // nodeAt answered in that doc's text
  const p = doc.parent;
  if (!p) return doc.pieces ? { start: pieceOffset(doc.pieces, start), end: pieceOffset(doc.pieces, end) } : { start: doc.base + start, end: doc.base + end };
  const holder = nodeAt(p.doc, p.path);
  if (!holder) return toFile(p.doc, 0, 0);
  const text = p.doc.text;
  return toFile(p.doc, holder.start + sourceOffset(text, holder.start, holder.end, start + p.skip), holder.start + sourceOffset(text, holder.start, holder.end, end + p.skip));
}

/** The absolute span of an anchor: one token (the value, or the key). */
export function spanOf(anchor: Anchor): Span {
  const node = nodeAt(anchor.doc, anchor.path);
  if (!node) return toFile(anchor.doc, 0, 0);
  if (anchor.part === 'key' && node.keyStart !== undefined) return toFile(anchor.doc, node.keyStart, node.keyEnd!);
  const r = anchor.range;
  if (r && anchor.doc.text.charCodeAt(node.start) === 34) {
    const text = anchor.doc.text;
    return toFile(anchor.doc, node.start + sourceOffset(text, node.start, node.end, r.start), node.start + sourceOffset(text, node.start, node.end, r.end));
  }
  return toFile(anchor.doc, node.start, node.end);
}

// Only a doc whose text has a digit followed by '.', 'e' or 'E' can hold a number written as a non-integer
// lexeme; for all others the value JSON.parse gave is the lexeme, and no tree is needed.
const FLOATISH = /\d[.eE]/;

/** Whether some number in the doc may be written as a non-integer lexeme (else nonIntegerLexeme is undefined
 *  for every path, and a validator need not ask). */
export function mayHoldNonInteger(doc: Doc): boolean {
  return FLOATISH.test(doc.text);
}

/** The number as written at `path`, or undefined when it is written as a plain integer. */
export function nonIntegerLexeme(doc: Doc, path: JsonPath): string | undefined {
  if (!FLOATISH.test(doc.text)) return undefined;
  const node = nodeAt(doc, path);
  if (!node) return undefined;
  const lexeme = doc.text.slice(node.start, node.end);
  return /^-?\d/.test(lexeme) && /[.eE]/.test(lexeme) ? lexeme : undefined;
}

/** The lexeme of the number at `path` as written (falls back to the decoded value). */
export function numberLexeme(doc: Doc, path: JsonPath, value: number): string {
  return nonIntegerLexeme(doc, path) ?? String(value);
}
