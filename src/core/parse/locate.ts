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

export function locate(text: string, path: JsonPath): Located | undefined {
  let pos = skipWs(text, 0);
  let keyStart: number | undefined;
  let keyEnd: number | undefined;
  for (const seg of path) {
    const open = text[pos];
    if (typeof seg === 'number') {
      if (open !== '[') return undefined;
      pos = skipWs(text, pos + 1);
      for (let i = 0; i < seg; i++) {
        if (text[pos] === ']') return undefined;
        pos = skipWs(text, skipValue(text, pos));
        if (text[pos] !== ',') return undefined;
        pos = skipWs(text, pos + 1);
      }
      if (text[pos] === ']' || pos >= text.length) return undefined;
      keyStart = keyEnd = undefined;
      continue;
    }
    if (open !== '{') return undefined;
    // JSON.parse keeps the last of duplicate keys, so the last match is the node whose value we checked.
    let found: { value: number; ks: number; ke: number } | undefined;
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
  }
  if (pos >= text.length) return undefined;
  return { start: pos, end: skipValue(text, pos), keyStart, keyEnd };
}
