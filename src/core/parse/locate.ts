// Finding the source position of one node of a JSON text without building a tree: walk down the path, skipping
// every other value with native string searches. Much cheaper than a full parse, and iterative, so nesting depth
// cannot overflow the stack. Used only for nodes that have findings. The text is one that JSON.parse accepted.
import type { JsonPath } from './span';

export interface Located {
  start: number;
  end: number;
  /** The key's span, when the node is a property value. */
  keyStart?: number;
  keyEnd?: number;
}

// Plain character loops: no regular-expression match objects, so locating allocates next to nothing.
function skipWs(text: string, pos: number): number {
  for (let c = text.charCodeAt(pos); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++pos));
  return Math.min(pos, text.length);
}

/** Position after the string literal starting at `pos` (which holds the opening quote). A native search finds
 *  the first quote; one with a backslash before it may be escaped, and such a literal (JSON inside a string:
 *  `"{\"city\": ...}"`) is walked character by character, as a search per escaped quote costs more. */
function skipString(text: string, pos: number): number {
  const q = text.indexOf('"', pos + 1);
  if (q === -1) return text.length;
  if (text.charCodeAt(q - 1) !== 92) return q + 1;
  const n = text.length;
  for (let i = pos + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i + 1;
  }
  return n;
}

/** Position after the value starting at `pos`. */
function skipValue(text: string, pos: number): number {
  const first = text.charCodeAt(pos);
  if (first === 34) return skipString(text, pos);
  const n = text.length;
  if (first === 123 || first === 91) {
    let depth = 0;
    for (let i = pos; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) i = skipString(text, i) - 1;
      else if (c === 123 || c === 91) depth++;
      else if ((c === 125 || c === 93) && --depth === 0) return i + 1;
    }
    return n;
  }
  let i = pos;
  for (let c = text.charCodeAt(i); i < n && c !== 44 && c !== 125 && c !== 93 && c !== 32 && c !== 9 && c !== 10 && c !== 13; c = text.charCodeAt(++i));
  return i;
}

function keyOf(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** Whether the key literal text[ks, ke) decodes to `key`, without slicing it out. */
function keyIs(text: string, ks: number, ke: number, key: string): boolean {
  const n = ke - ks - 2;
  if (n < key.length) return false; // escapes only make a literal longer than its value
  if (n === key.length && text.startsWith(key, ks + 1)) return key.indexOf('\\') === -1 || keyOf(text, ks, ke) === key;
  for (let i = ks + 1; i < ke - 1; i++) if (text.charCodeAt(i) === 92) return keyOf(text, ks, ke) === key;
  return false;
}

// A key with none of these characters can only be written as itself or with \u escapes.
// eslint-disable-next-line no-control-regex -- JSON writes U+0000-U+001F only as escapes, so they cannot be literal
const LITERAL_ONLY = /^[^"\\/\u0000-\u001f]*$/;

// Per key: a search for the key's literal (its closing quote included) or any \u escape, in one native pass.
const laterKey = new Map<string, RegExp | null>();

/** True when no member after `from` can repeat `key`: its literal does not occur again and no \u escape could
 *  spell it. (JSON.parse keeps the last of duplicate keys; this spares skipping the rest of a large object.) */
function noLaterDuplicate(text: string, from: number, key: string): boolean {
  let search = laterKey.get(key);
  if (search === undefined) {
    search = LITERAL_ONLY.test(key) ? new RegExp(key.replace(/[.*+?^${}()|[\]]/g, '\\$&') + '"|\\\\u', 'g') : null;
    if (laterKey.size > 256) laterKey.clear();
    laterKey.set(key, search);
  }
  if (search === null) return false;
  search.lastIndex = from;
  return !search.test(text);
}

interface Member {
  value: number;
  ks: number;
  ke: number;
}

/** All members of the object whose '{' is at `open`, or undefined when the text is not well formed there. */
function membersOf(text: string, open: number): Map<string, Member> | undefined {
  const out = new Map<string, Member>();
  let pos = skipWs(text, open + 1);
  while (pos < text.length && text.charCodeAt(pos) === 34) {
    const ks = pos;
    const ke = skipString(text, pos);
    pos = skipWs(text, ke);
    if (text.charCodeAt(pos) !== 58) return undefined;
    const valueStart = skipWs(text, pos + 1);
    out.set(keyOf(text, ks, ke), { value: valueStart, ks, ke });
    pos = skipWs(text, skipValue(text, valueStart));
    if (text.charCodeAt(pos) !== 44) break;
    pos = skipWs(text, pos + 1);
  }
  return out;
}

/** Past this many members of one object (or elements of one array) skipped in a walk, the object's members (the
 *  array's element starts) are kept: thousands of findings on the keys of one object cost one scan, not one each. */
const MANY = 32;
/** In texts longer than this (a whole OTLP export, an Inspect log), every object and array walked is kept. */
export const LARGE_TEXT = 16384;

/** What earlier walks of the same text learned. The last walk: where the value of each prefix of its path starts
 *  (and its key, for a property), so the next walk resumes from the longest shared prefix; the root member found
 *  last; the element starts of arrays (as far as they were skipped) and the members of objects with many, by the
 *  offset of their opening bracket. */
export interface LocateCache {
  /** The segments of the last path walked: a copy, as the caller's array is the caller's. */
  path: JsonPath;
  walked: boolean;
  /** How many prefixes of `path` (from the empty one) have a known start. */
  reached: number;
  starts: number[];
  keyStarts: number[];
  keyEnds: number[];
  result?: Located;
  /** The last member of the root object found, and where its value and key are. */
  rootKey?: string;
  rootValue: number;
  rootKeyStart: number;
  rootKeyEnd: number;
  members?: Map<number, Map<string, Member>>;
  elements?: Map<number, number[]>;
}

export function newLocateCache(): LocateCache {
  // every field from the start: one hidden class for every cache (a field added later deoptimized `locate`)
  return { path: [], walked: false, reached: 0, starts: [], keyStarts: [], keyEnds: [], result: undefined, rootKey: undefined, rootValue: 0, rootKeyStart: 0, rootKeyEnd: 0, members: undefined, elements: undefined };
}

/** A cache as new, for another text (its arrays kept: every finding of a JSONL line needs one, often two). */
export function resetLocateCache(cache: LocateCache): LocateCache {
  cache.path.length = 0;
  cache.walked = false;
  cache.reached = 0;
  cache.result = undefined;
  cache.rootKey = undefined;
  cache.rootValue = cache.rootKeyStart = cache.rootKeyEnd = 0;
  cache.members = undefined;
  cache.elements = undefined;
  return cache;
}

export function locate(text: string, path: JsonPath, cache: LocateCache = newLocateCache()): Located | undefined {
  const last = cache.path;
  let from = 0;
  if (cache.walked) {
    const n = Math.min(last.length, path.length, cache.reached - 1);
    while (from < n && last[from] === path[from]) from++;
    if (from === path.length && path.length === last.length) return cache.result;
  }
  const starts = cache.starts;
  const keyStarts = cache.keyStarts;
  const keyEnds = cache.keyEnds;
  if (from === 0) {
    starts[0] = skipWs(text, 0);
    keyStarts[0] = keyEnds[0] = -1;
  }
  last.length = path.length;
  for (let i = from; i < path.length; i++) last[i] = path[i];
  cache.walked = true;
  cache.reached = from + 1;
  cache.result = undefined;
  const large = text.length > LARGE_TEXT;
  let pos = starts[from];
  for (let depth = from; depth < path.length; depth++) {
    const seg = path[depth];
    const open = text.charCodeAt(pos);
    let ks = -1;
    let ke = -1;
    if (typeof seg === 'number') {
      if (open !== 91) return undefined;
      let els = cache.elements?.get(pos);
      let i: number;
      if (els !== undefined) {
        i = Math.min(seg, els.length - 1);
        pos = els[i];
      } else {
        const first = skipWs(text, pos + 1);
        if (seg > 0) {
          els = [first];
          (cache.elements ??= new Map()).set(pos, els);
        }
        i = 0;
        pos = first;
      }
      if (text.charCodeAt(pos) === 93) return undefined;
      for (; i < seg; i++) {
        pos = skipWs(text, skipValue(text, pos));
        if (text.charCodeAt(pos) !== 44) return undefined;
        pos = skipWs(text, pos + 1);
        if (text.charCodeAt(pos) === 93) return undefined;
        if (els !== undefined && els.length === i + 1) els.push(pos);
      }
      if (pos >= text.length || text.charCodeAt(pos) === 93) return undefined;
    } else {
      if (open !== 123) return undefined;
      let members = cache.members?.get(pos);
      let found: Member | undefined;
      let value = -1;
      if (depth === 0 && cache.rootKey === seg) {
        pos = cache.rootValue;
        starts[1] = pos;
        keyStarts[1] = cache.rootKeyStart;
        keyEnds[1] = cache.rootKeyEnd;
        cache.reached = 2;
        continue;
      }
      if (members === undefined && large) {
        members = membersOf(text, pos);
        if (!members) return undefined;
        (cache.members ??= new Map()).set(pos, members);
      }
      if (members === undefined) {
        // Walk the members (at the root, stop at the key unless a later member may repeat it: the root object
        // ends with the text, so the native search costs less than skipping the rest).
        let p = skipWs(text, pos + 1);
        let count = 0;
        while (p < text.length && text.charCodeAt(p) === 34) {
          const s = p;
          const e = skipString(text, p);
          p = skipWs(text, e);
          if (text.charCodeAt(p) !== 58) return undefined;
          const valueStart = skipWs(text, p + 1);
          if (keyIs(text, s, e, seg)) {
            value = valueStart;
            ks = s;
            ke = e;
            if (depth === 0 && noLaterDuplicate(text, valueStart, seg)) break;
          }
          if (++count > MANY) {
            members = membersOf(text, pos);
            if (!members) return undefined;
            (cache.members ??= new Map()).set(pos, members);
            break;
          }
          p = skipWs(text, skipValue(text, valueStart));
          if (text.charCodeAt(p) !== 44) break;
          p = skipWs(text, p + 1);
        }
      }
      if (members !== undefined) {
        found = members.get(seg);
        if (!found) return undefined;
        value = found.value;
        ks = found.ks;
        ke = found.ke;
      }
      if (value < 0) return undefined;
      if (depth === 0) {
        cache.rootKey = seg;
        cache.rootValue = value;
        cache.rootKeyStart = ks;
        cache.rootKeyEnd = ke;
      }
      pos = value;
    }
    starts[depth + 1] = pos;
    keyStarts[depth + 1] = ks;
    keyEnds[depth + 1] = ke;
    cache.reached = depth + 2;
  }
  if (pos >= text.length) return undefined;
  const ks = keyStarts[path.length];
  const result: Located = ks >= 0 ? { start: pos, end: skipValue(text, pos), keyStart: ks, keyEnd: keyEnds[path.length] } : { start: pos, end: skipValue(text, pos), keyStart: undefined, keyEnd: undefined };
  cache.result = result;
  return result;
}
