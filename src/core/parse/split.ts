// One JSON document too large to hold as one string (a day's OTLP export, a big `.json.gz`), read as it arrives in
// chunks and cut into parts at its big arrays. A part is a JSON text of the document's skeleton (each ancestor's
// opening bracket and its keys, its small values) holding a run of consecutive elements of one array, or of
// members of one object; its offset map says where in the file each piece of it comes from, so anchors in a part
// resolve into the file (Doc.pieces). Every array element and every container member is in exactly one part;
// an ancestor's scalar members are repeated in every part after them, its container members only in the part that
// carries them. The splitter checks the structure (brackets, commas, colons, one value); JSON.parse of the parts
// checks the rest (escapes, numbers, literals), so together they accept exactly JSON.
import type { JsonPath, OffsetMap } from './doc';

export interface Part {
  text: string;
  map: OffsetMap;
  /** The path, in the part, of the container whose elements (or members) it carries. */
  path: JsonPath;
  /** File offset of the first element the part carries. */
  base: number;
  /** The part is the whole document (no part was cut from it). */
  whole?: true;
  /** How to make this part again from the same text without cutting it again (PartReplay). */
  recipe: PartRecipe;
}

/** A part's fields without its text, and how its text is made: `pieces` are strings as they are, or a pair of
 *  numbers, the [start, end) of the document's text to copy. */
export interface PartRecipe {
  pieces: (string | number)[];
  map: OffsetMap;
  path: JsonPath;
  base: number;
}

/** The document is not JSON: what was expected, and where (a file offset). */
export class SplitError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

/** A value could not be cut small enough: the one-line message says which limit. */
export class SplitLimit extends Error {}

export interface SplitOptions {
  /** Cut a part once the elements waiting in one array (or members in one object) reach this many characters. */
  partChars: number;
  /** An element of an array (a span, a record) is cut inside only once it is this many characters (see cut). */
  elementChars: number;
  /** The most characters held at once (a value with no array or object to cut at, larger than this, is refused). */
  maxHeld: number;
}

interface Piece {
  text: string;
  at: number;
}

const OBJ = 1;
const ARR = 2;
// what the next token may be
const VALUE = 0;
const FIRST_ELEMENT = 1;
const FIRST_KEY = 2;
const KEY = 3;
const COLON = 4;
const AFTER = 5;
// the token being read (it may span chunks)
const NONE = 0;
const STRING = 1;
const SCALAR = 2;

/** Scalar members longer than this are carried once, like containers, not repeated in every part. */
const LONG_SCALAR = 256;
const SCALAR_END = /[^0-9A-Za-z.+-]/g;

/** A copy that shares no memory with the chunk it was cut from (V8 slices keep their parent string alive). */
function own(s: string): string {
  return s.length < 16 ? s : (' ' + s).slice(1);
}

/** Pieces of a text longer than this are copied out of the text again by a replay rather than held by its recipe. */
const RANGE_CHARS = 64;

/** The chunks of a text still needed, by the offset each starts at. */
class HeldText {
  private readonly chunks: string[] = [];
  private readonly chunkAt: number[] = [];
  /** Characters pushed so far. */
  length = 0;

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.chunkAt.push(this.length);
    this.length += chunk.length;
  }

  /** The text of [start, end), from the chunks still held. */
  slice(start: number, end: number): string {
    let c = 0;
    while (c + 1 < this.chunks.length && this.chunkAt[c + 1] <= start) c++;
    let out = '';
    for (let at = start; at < end; c++) {
      const from = at - this.chunkAt[c];
      const chunk = this.chunks[c];
      const to = Math.min(chunk.length, end - this.chunkAt[c]);
      out += chunk.slice(from, to);
      at = this.chunkAt[c] + to;
    }
    return out;
  }

  /** Let go of the chunks wholly before `offset`; returns how many characters are still held. */
  keepFrom(offset: number): number {
    let drop = 0;
    while (drop + 1 < this.chunks.length && this.chunkAt[drop + 1] <= offset) drop++;
    if (drop) {
      this.chunks.splice(0, drop);
      this.chunkAt.splice(0, drop);
    }
    return this.chunks.length ? this.length - this.chunkAt[0] : 0;
  }
}

export class DocumentSplitter {
  private readonly held = new HeldText();
  private state = VALUE;
  private depth = -1;
  private rootDone = false;
  private token = NONE;
  private tokenStart = -1;
  private tokenIsKey = false;
  private escaped = false;
  /** Parts emitted so far. */
  parts = 0;
  /** Where the last part was cut. */
  private cutAt = 0;
  // one slot per depth (reused: no allocation per container)
  private readonly kind: number[] = [];
  private readonly at: number[] = [];
  private readonly emitted: boolean[] = [];
  /** arrays: the elements not yet in a part, [start, end) and how many */
  private readonly pendingStart: number[] = [];
  private readonly pendingEnd: number[] = [];
  private readonly pendingCount: number[] = [];
  /** objects: the open member's key [keyStart, keyEnd) and where its value starts */
  private readonly keyStart: number[] = [];
  private readonly keyEnd: number[] = [];
  private readonly valueStart: number[] = [];
  /** objects: the open member's `"key":` copied out once a part carried it (its chunk may be gone since) */
  private readonly openKey: ({ text: string; at: number; name: string } | undefined)[] = [];
  /** objects: members completed since the last part, as (start, end, carried-once) triples */
  private readonly members: number[][] = [];
  /** objects: scalar members already carried, repeated in later parts */
  private readonly kept: Piece[][] = [];

  constructor(private readonly options: SplitOptions, private readonly emitPart: (part: Part) => void) {}

  /** Characters read so far (the text comes without its BOM: offsets are those of the text after it). */
  get length(): number {
    return this.held.length;
  }

  push(chunk: string): void {
    if (chunk.length === 0) return;
    const base = this.held.length;
    this.held.push(chunk);
    const n = chunk.length;
    let i = this.token === NONE ? 0 : this.continueToken(chunk, 0, base);
    let whole = true; // array elements that close in this chunk are taken whole (see below)
    while (i < n) {
      const c = chunk.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++;
        continue;
      }
      const pos = base + i;
      switch (this.state) {
        case VALUE:
        case FIRST_ELEMENT:
          if (c === 93 && this.state === FIRST_ELEMENT) {
            this.close(pos);
            i++;
            break;
          }
          if (this.depth >= 0 && this.kind[this.depth] === OBJ) this.valueStart[this.depth] = pos;
          else if (this.depth < 0 && this.rootDone) throw new SplitError('unexpected content after the JSON document', pos);
          else if ((c === 123 || c === 91) && this.depth >= 0 && whole) {
            // an element of an array that closes within this chunk, under elementChars, is never cut inside: it is
            // taken whole, its brackets counted, and what is inside it is JSON.parse's to check with its part. One
            // that does not close here is read token by token, and so is the rest of the chunk (the elements inside
            // it would be counted again: nested ones would cost the square of the chunk)
            const end = containerEnd(chunk, i, i + this.options.elementChars);
            if (end > 0) {
              this.valueDone(pos, base + end, true);
              i = end;
              break;
            }
            whole = false;
          }
          if (c === 123) {
            this.open(OBJ, pos);
            this.state = FIRST_KEY;
            i++;
          } else if (c === 91) {
            this.open(ARR, pos);
            this.state = FIRST_ELEMENT;
            i++;
          } else if (c === 34) {
            this.startToken(STRING, pos, false);
            i = this.continueToken(chunk, i + 1, base);
          } else if (c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110) {
            this.startToken(SCALAR, pos, false);
            i = this.continueToken(chunk, i, base);
          } else throw new SplitError(`unexpected ${describe(c)} where a JSON value was expected`, pos);
          break;
        case FIRST_KEY:
        case KEY:
          if (c === 125 && this.state === FIRST_KEY) {
            this.close(pos);
            i++;
            break;
          }
          if (c !== 34) throw new SplitError(`unexpected ${describe(c)} where a property name was expected`, pos);
          this.openKey[this.depth] = undefined;
          this.startToken(STRING, pos, true);
          i = this.continueToken(chunk, i + 1, base);
          break;
        case COLON:
          if (c !== 58) throw new SplitError(`unexpected ${describe(c)} where ':' was expected`, pos);
          this.state = VALUE;
          i++;
          break;
        default: {
          if (this.depth < 0) throw new SplitError('unexpected content after the JSON document', pos);
          const k = this.kind[this.depth];
          if (c === 44) this.state = k === OBJ ? KEY : VALUE;
          else if ((c === 125 && k === OBJ) || (c === 93 && k === ARR)) this.close(pos);
          else throw new SplitError(`unexpected ${describe(c)} where ',' or '${k === OBJ ? '}' : ']'}' was expected`, pos);
          i++;
        }
      }
    }
    this.trim();
  }

  /** The text ended: the document must be complete. */
  end(): void {
    const total = this.held.length;
    if (this.token === SCALAR && this.depth < 0) {
      this.token = NONE;
      this.tokenDone(total);
    }
    if (this.token !== NONE || this.depth >= 0 || !this.rootDone) throw new SplitError(total === 0 ? 'empty document' : 'unexpected end of the JSON document', total);
  }

  private startToken(kind: number, pos: number, key: boolean): void {
    this.token = kind;
    this.tokenStart = pos;
    this.tokenIsKey = key;
  }

  /** Read on in the token being read from `i`; the index after it, or the chunk's end when it goes on. */
  private continueToken(chunk: string, i: number, base: number): number {
    const n = chunk.length;
    if (this.token === STRING) {
      if (this.escaped) {
        this.escaped = false;
        i++;
      }
      // the next quote not escaped: preceded by an even run of backslashes (a run cut by the chunk's start has
      // had its parity carried in `escaped`)
      const from = i;
      for (let q = chunk.indexOf('"', i); ; q = chunk.indexOf('"', q + 1)) {
        if (q === -1) {
          this.escaped = backslashesBefore(chunk, n, from) % 2 === 1;
          return n;
        }
        if (backslashesBefore(chunk, q, from) % 2 === 0) {
          this.token = NONE;
          this.tokenDone(base + q + 1);
          return q + 1;
        }
      }
    }
    SCALAR_END.lastIndex = i;
    const m = SCALAR_END.exec(chunk);
    if (!m) return n;
    this.token = NONE;
    this.tokenDone(base + m.index);
    return m.index;
  }

  private tokenDone(end: number): void {
    if (this.tokenIsKey) {
      this.keyStart[this.depth] = this.tokenStart;
      this.keyEnd[this.depth] = end;
      this.state = COLON;
    } else this.valueDone(this.tokenStart, end, false);
  }

  private open(kind: number, pos: number): void {
    const d = ++this.depth;
    this.kind[d] = kind;
    this.at[d] = pos;
    this.emitted[d] = false;
    this.pendingStart[d] = -1;
    this.pendingEnd[d] = -1;
    this.pendingCount[d] = 0;
    this.openKey[d] = undefined;
    if (this.members[d]) this.members[d].length = 0;
    else this.members[d] = [];
    if (this.kept[d]?.length !== 0) this.kept[d] = [];
  }

  private close(pos: number): void {
    const d = this.depth;
    if (!this.emitted[d]) {
      this.depth--;
      this.valueDone(this.at[d], pos + 1, true);
      return;
    }
    // parts carried some of it: the rest goes in a part now, and the value is done with (not carried again)
    this.emit(d, pos);
    this.depth--;
    this.state = AFTER;
    if (this.depth < 0) this.rootDone = true;
  }

  private valueDone(start: number, end: number, container: boolean): void {
    const d = this.depth;
    this.state = AFTER;
    if (d < 0) {
      // a document no part was cut from is one part, the whole
      this.rootDone = true;
      this.parts++;
      const map = { text: [0], file: [start] };
      this.emitPart({ text: this.held.slice(start, end), map, path: [], base: start, whole: true, recipe: { pieces: [start, end], map, path: [], base: start } });
      return;
    }
    if (this.kind[d] === ARR) {
      if (this.pendingStart[d] < 0) this.pendingStart[d] = start;
      this.pendingEnd[d] = end;
      this.pendingCount[d]++;
    } else this.members[d].push(this.keyStart[d], end, container || end - start > LONG_SCALAR ? 1 : 0);
    if (end - this.cutAt >= this.options.partChars) this.cut(end);
  }

  /**
   * Enough was read since the last part: cut one at the container whose waiting elements (or container members) are
   * the most characters (the big array, holding at least half of what was read since), carrying along what waits
   * in its ancestors. Never inside an element of an array while that element is under `elementChars` (a span, a
   * record, a conversation is read in one part), unless a part was cut inside it already: OTLP's one resourceSpans
   * of a whole export is cut inside, its spans are not.
   */
  private cut(end: number): void {
    let best = -1;
    let most = 0;
    for (let i = 0; i <= this.depth; i++) {
      const size = this.waiting(i);
      if (size > most) {
        most = size;
        best = i;
      }
      const inside = i < this.depth && this.kind[i] === ARR && !this.emitted[i + 1] && end - this.at[i + 1] < this.options.elementChars;
      if (inside) break;
    }
    if (best < 0 || most * 2 < end - this.cutAt) return;
    this.cutAt = end;
    this.emit(best, -1);
  }

  /** How many characters frame `i` holds that no part carried yet (elements, container members). */
  private waiting(i: number): number {
    if (this.kind[i] === ARR) return this.pendingStart[i] >= 0 ? this.pendingEnd[i] - this.pendingStart[i] : 0;
    const m = this.members[i];
    let size = 0;
    for (let j = 2; j < m.length; j += 3) if (m[j] === 1) size += m[j - 1] - m[j - 2];
    return size;
  }

  /**
   * A part: the frames from the root down to `k`, the deepest, whose waiting elements (or new members) it carries;
   * `close` is the offset of `k`'s closing bracket when it is closing, else -1. Nothing happens when nothing new
   * would be carried.
   */
  private emit(k: number, close: number): void {
    let content = false;
    for (let i = 0; i <= k && !content; i++) content = this.waiting(i) > 0;
    if (!content) return;
    const texts: string[] = [];
    const pieces: (string | number)[] = [];
    const map: OffsetMap = { text: [], file: [] };
    let length = 0;
    let base = -1;
    // `copied`: the text is [at, at + length) of the document (a replay copies it again when long)
    const put = (text: string, at: number, copied = false) => {
      if (at >= 0) {
        map.text.push(length);
        map.file.push(at);
      }
      texts.push(text);
      if (copied && text.length > RANGE_CHARS) pieces.push(at, at + text.length);
      else pieces.push(copied ? own(text) : text);
      length += text.length;
    };
    const path: JsonPath = [];
    for (let i = 0; i <= k; i++) {
      if (this.kind[i] === ARR) {
        put('[', this.at[i]);
        if (this.pendingStart[i] >= 0) {
          if (base < 0) base = this.pendingStart[i];
          put(this.held.slice(this.pendingStart[i], this.pendingEnd[i]), this.pendingStart[i], true);
          if (i < k) put(',', -1);
        }
        if (i < k) path.push(this.pendingCount[i]);
        this.pendingStart[i] = -1;
        this.pendingCount[i] = 0;
      } else {
        put('{', this.at[i]);
        let first = true;
        const comma = () => {
          if (!first) put(',', -1);
          first = false;
        };
        for (const p of this.kept[i]) {
          comma();
          put(p.text, p.at);
        }
        const m = this.members[i];
        for (let j = 0; j < m.length; j += 3) {
          const text = this.held.slice(m[j], m[j + 1]);
          comma();
          if (m[j + 2] === 1 && base < 0) base = m[j];
          put(text, m[j], true);
          // scalars are kept for the parts to come (the skeleton), containers were carried once
          if (m[j + 2] === 0 && (i < k || close < 0)) this.kept[i].push({ text: own(text), at: m[j] });
        }
        m.length = 0;
        if (i < k) {
          const key = (this.openKey[i] ??= { text: own(this.held.slice(this.keyStart[i], this.valueStart[i])), at: this.keyStart[i], name: JSON.parse(this.held.slice(this.keyStart[i], this.keyEnd[i])) as string });
          comma();
          put(key.text, key.at);
          path.push(key.name);
        }
      }
      this.emitted[i] = true;
    }
    for (let i = k; i >= 0; i--) put(this.kind[i] === OBJ ? '}' : ']', i === k && close >= 0 ? close : -1);
    this.parts++;
    base = Math.max(base, 0);
    this.emitPart({ text: texts.join(''), map, path, base, recipe: { pieces, map, path, base } });
  }

  /** Drop the chunks no part will need any more; refuse to hold more than `maxHeld` characters. */
  private trim(): void {
    let need = this.token === NONE ? Infinity : this.tokenStart;
    for (let i = 0; i <= this.depth; i++) {
      if (!this.emitted[i]) {
        need = Math.min(need, this.at[i]);
        break;
      }
      if (this.kind[i] === ARR) {
        if (this.pendingStart[i] >= 0) need = Math.min(need, this.pendingStart[i]);
      } else {
        if (this.members[i].length) need = Math.min(need, this.members[i][0]);
        if (!this.openKey[i]) need = Math.min(need, this.keyStart[i]);
      }
    }
    if (this.held.keepFrom(need) > this.options.maxHeld) {
      throw new SplitLimit(`a value of this document over ${Math.round(this.options.maxHeld / 2 ** 20)} MB has no array or object to cut it at (the most read at once)`);
    }
  }
}

/**
 * The parts a DocumentSplitter cut from a text, made again from the same text by their recipes, without cutting
 * it again (the second reading of a document read in parts: the first pass cut it and checked its structure).
 * Each part is handed out as soon as the text it copies has arrived; only the text the parts to come copy is held.
 */
export class PartReplay {
  private readonly held = new HeldText();
  private next = 0;
  /** Per part: the end of the text it copies, and the earliest start of the text it or any later part copies. */
  private readonly ready: number[] = [];
  private readonly needed: number[] = [];

  /** `length`: the characters the first reading read (the text must be the same). */
  constructor(private readonly recipes: readonly PartRecipe[], private readonly total: number, private readonly emitPart: (part: Part) => void) {
    let need = Infinity;
    for (let k = recipes.length - 1; k >= 0; k--) {
      let end = 0;
      for (const p of recipes[k].pieces) {
        if (typeof p !== 'number') continue;
        end = Math.max(end, p);
        need = Math.min(need, p);
      }
      this.ready[k] = end;
      this.needed[k] = need;
    }
  }

  get length(): number {
    return this.held.length;
  }

  push(chunk: string): void {
    if (chunk.length === 0) return;
    this.held.push(chunk);
    if (this.held.length > this.total) throw new SplitError('the document changed between its two readings', this.total);
    while (this.next < this.recipes.length && this.ready[this.next] <= this.held.length) this.emitNext();
    this.held.keepFrom(this.next < this.recipes.length ? this.needed[this.next] : Infinity);
  }

  /** The text ended: it must be the one the parts were cut from. */
  end(): void {
    if (this.held.length !== this.total || this.next < this.recipes.length) throw new SplitError('the document changed between its two readings', this.held.length);
  }

  private emitNext(): void {
    const r = this.recipes[this.next++];
    const texts: string[] = [];
    const { pieces } = r;
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      texts.push(typeof p === 'string' ? p : this.held.slice(p, pieces[++i] as number));
    }
    this.emitPart({ text: texts.join(''), map: r.map, path: r.path, base: r.base, recipe: r });
  }
}

/** The index after the array or object that opens at `open` in `chunk` when it closes there before `limit`, else
 *  -1. Only brackets outside strings are counted (a string ends at a quote after an even run of backslashes). */
function containerEnd(chunk: string, open: number, limit: number): number {
  const n = Math.min(chunk.length, limit);
  let depth = 0;
  for (let i = open; i < n; i++) {
    const c = chunk.charCodeAt(i);
    if (c === 34) {
      const from = i + 1;
      let q = chunk.indexOf('"', from);
      while (q !== -1 && backslashesBefore(chunk, q, from) % 2 === 1) q = chunk.indexOf('"', q + 1);
      if (q === -1) return -1;
      i = q;
    } else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return i + 1;
  }
  return -1;
}

/** How many backslashes come right before `at` (not counting any before `from`). */
function backslashesBefore(chunk: string, at: number, from: number): number {
  let k = at;
  while (k > from && chunk.charCodeAt(k - 1) === 92) k--;
  return at - k;
}

function describe(c: number): string {
  return c >= 33 && c < 127 ? `'${String.fromCharCode(c)}'` : `character U+${c.toString(16).padStart(4, '0').toUpperCase()}`;
}
