// Finding the source position of one node of a JSON text without building a tree: walk down the path, skipping
// every other value with native string searches. Much cheaper than a full parse, and iterative, so nesting depth
// cannot overflow the stack. Used only for nodes that have findings.
import type { JsonPath } from './doc';

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

/** Position after the string literal starting at `pos` (which holds the opening quote). */
function skipString(text: string, pos: number): number {
  let i = pos + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q === -1) return text.length;
    let backslashes = 0;
    for (let b = q - 1; b > pos && text.charCodeAt(b) === 92; b--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    i = q + 1;
  }
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

/** What earlier walks of the same text learned: where the value at a path prefix starts, and where the elements of
 *  an array start (as far as they were skipped). With it, locating many nodes of one large document (an OTLP
 *  export, an Inspect log) resumes from the nearest known place instead of rescanning from the start. */
export interface LocateCache {
  starts: Map<string, number>;
  elements: Map<string, number[]>;
  /** The members of an object (last of duplicate keys), once it was scanned: thousands of findings on the keys of
   *  one object (every key extra) cost one scan, not one each. */
  members?: Map<string, Map<string, Member>>;
}

interface Member {
  value: number;
  ks: number;
  ke: number;
}

export function newLocateCache(): LocateCache {
  return { starts: new Map(), elements: new Map(), members: new Map() };
}

/** All members of the object whose '{' is at `open`, or undefined when the text is not well formed there. */
function membersOf(text: string, open: number): Map<string, Member> | undefined {
  const out = new Map<string, Member>();
  let pos = skipWs(text, open + 1);
  while (pos < text.length && text[pos] === '"') {
    const ks = pos;
    const ke = skipString(text, pos);
    pos = skipWs(text, ke);
    if (text[pos] !== ':') return undefined;
    const valueStart = skipWs(text, pos + 1);
    out.set(keyOf(text, ks, ke), { value: valueStart, ks, ke });
    pos = skipWs(text, skipValue(text, valueStart));
    if (text[pos] !== ',') break;
    pos = skipWs(text, pos + 1);
  }
  return out;
}

export function locate(text: string, path: JsonPath, cache?: LocateCache): Located | undefined {
  const keys: string[] = [''];
  for (let i = 0; i < path.length; i++) keys.push(keys[i] + '\u0000' + String(path[i]));
  // Resume from the longest known proper prefix (the last segment is always walked, for its key span).
  let from = 0;
  let pos = skipWs(text, 0);
  if (cache) {
    for (let l = path.length - 1; l > 0; l--) {
      const known = cache.starts.get(keys[l]);
      if (known !== undefined) {
        from = l;
        pos = known;
        break;
      }
    }
  }
  let keyStart: number | undefined;
  let keyEnd: number | undefined;
  for (let depth = from; depth < path.length; depth++) {
    const seg = path[depth];
    const open = text[pos];
    if (typeof seg === 'number') {
      if (open !== '[') return undefined;
      let els = cache?.elements.get(keys[depth]);
      if (!els) {
        els = [skipWs(text, pos + 1)];
        cache?.elements.set(keys[depth], els);
      }
      if (text[els[0]] === ']') return undefined;
      let i = Math.min(seg, els.length - 1);
      pos = els[i];
      for (; i < seg; i++) {
        pos = skipWs(text, skipValue(text, pos));
        if (text[pos] !== ',') return undefined;
        pos = skipWs(text, pos + 1);
        if (text[pos] === ']') return undefined;
        els.push(pos);
      }
      if (text[pos] === ']' || pos >= text.length) return undefined;
      keyStart = keyEnd = undefined;
      cache?.starts.set(keys[depth + 1], pos);
      continue;
    }
    if (open !== '{') return undefined;
    // JSON.parse keeps the last of duplicate keys, so the last match is the node whose value we checked.
    let found: Member | undefined;
    if (cache?.members) {
      let members = cache.members.get(keys[depth]);
      if (!members) {
        members = membersOf(text, pos);
        if (!members) return undefined;
        cache.members.set(keys[depth], members);
      }
      found = members.get(String(seg));
      if (!found) return undefined;
      pos = found.value;
      keyStart = found.ks;
      keyEnd = found.ke;
      cache.starts.set(keys[depth + 1], pos);
      continue;
    }
    pos = skipWs(text, pos + 1);
    while (pos < text.length && text[pos] === '"') {
      const ks = pos;
      const ke = skipString(text, pos);
      pos = skipWs(text, ke);
      if (text[pos] !== ':') return undefined;
      const valueStart = skipWs(text, pos + 1);
      if (keyOf(text, ks, ke) === seg) found = { value: valueStart, ks, ke };
      pos = skipWs(text, skipValue(text, valueStart));
      if (text[pos] !== ',') break;
      pos = skipWs(text, pos + 1);
    }
    if (!found) return undefined;
    pos = found.value;
    keyStart = found.ks;
    keyEnd = found.ke;
    cache?.starts.set(keys[depth + 1], pos);
  }
  if (pos >= text.length) return undefined;
  return { start: pos, end: skipValue(text, pos), keyStart, keyEnd };
}
