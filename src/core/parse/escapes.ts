// Offset maps for JSON string literals: decoded index -> index in the literal as written (quotes included),
// so a finding inside string-encoded arguments points at the source characters, escapes and all.

// The last few maps, by the text they were built from and the literal's place in it: every finding inside the
// same arguments asks for the same map. Small and by position, so no big line text is kept alive for long.
const recent: { text: string; start: number; end: number; map: Int32Array }[] = [];

/** For the literal text[start, end): map[i] is the offset (from `start`) of decoded code unit i;
 *  map[decodedLength] is the closing quote. */
export function escapeMap(text: string, start = 0, end = text.length): Int32Array {
  for (const r of recent) if (r.text === text && r.start === start && r.end === end) return r.map;
  const out: number[] = [];
  let i = text.charCodeAt(start) === 34 ? start + 1 : start;
  const stop = end - start > 1 && text.charCodeAt(end - 1) === 34 ? end - 1 : end;
  while (i < stop) {
    out.push(i - start);
    if (text.charCodeAt(i) === 92) i += text[i + 1] === 'u' ? 6 : 2;
    else i += 1;
  }
  out.push(stop - start);
  const map = Int32Array.from(out);
  recent.unshift({ text, start, end, map });
  if (recent.length > 4) recent.pop();
  return map;
}

/** Past this length a literal's offset map is built (and kept among the recent ones) instead of walking to each
 *  offset: thousands of findings inside one long string cost one walk. */
const WALK_MAX = 1024;

/** escapeMap(text, start, end)[min(i, decoded length)], without building the map for a short literal. */
export function sourceOffset(text: string, start: number, end: number, i: number): number {
  if (end - start > WALK_MAX) {
    const map = escapeMap(text, start, end);
    return map[Math.min(i, map.length - 1)];
  }
  let p = text.charCodeAt(start) === 34 ? start + 1 : start;
  const stop = end - start > 1 && text.charCodeAt(end - 1) === 34 ? end - 1 : end;
  for (let k = 0; k < i && p < stop; k++) p += text.charCodeAt(p) === 92 ? (text.charCodeAt(p + 1) === 117 ? 6 : 2) : 1;
  return (p < stop ? p : stop) - start;
}
