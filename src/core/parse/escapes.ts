// Offset maps for JSON string literals: decoded index -> index in the literal as written (quotes included),
// so a finding inside string-encoded arguments points at the source characters, escapes and all.

const cache = new Map<string, Int32Array>();

/** map[i] is the literal offset of decoded code unit i; map[decodedLength] is the closing quote. */
export function escapeMap(literal: string): Int32Array {
  const hit = cache.get(literal);
  if (hit) return hit;
  const out: number[] = [];
  let i = literal.startsWith('"') ? 1 : 0;
  const end = literal.endsWith('"') && literal.length > 1 ? literal.length - 1 : literal.length;
  while (i < end) {
    out.push(i);
    if (literal[i] === '\\') {
      if (literal[i + 1] === 'u') {
        i += 6;
      } else {
        i += 2;
      }
    } else {
      i += 1;
    }
  }
  out.push(end);
  const map = Int32Array.from(out);
  if (cache.size > 256) cache.clear();
  cache.set(literal, map);
  return map;
}
