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
