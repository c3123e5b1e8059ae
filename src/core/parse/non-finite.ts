// Python's json.dumps writes float('nan') and float('inf') as the bare words NaN, Infinity and -Infinity (its
// default, allow_nan=True), which JSON.parse rejects: one such metric (a score, a latency) in a record a Python agent,
// eval or exporter wrote would lose the whole line. They are rewritten in place, outside strings, to JSON of the same
// length — Infinity as 1e999 (which parses to Infinity), NaN, which JSON cannot spell, as 0 — so every offset into
// the text stays where it was.

const WORDS: [string, string][] = [
  ['-Infinity', '-1e999   '],
  ['Infinity', '1e999   '],
  ['NaN', '0  '],
];

/** The text with Python's non-finite numbers made JSON, or undefined when it has none (outside strings). */
export function finiteJson(text: string): string | undefined {
  if (text.indexOf('NaN') === -1 && text.indexOf('Infinity') === -1) return undefined;
  let out: string[] | undefined;
  let from = 0;
  let last = -1; // the last character that is not whitespace, outside strings
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 92 /* \ */) i++;
        else if (s === 34) break;
      }
      last = 34;
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if ((c === 78 /* N */ || c === 73 /* I */ || c === 45 /* - */) && (last === -1 || last === 58 /* : */ || last === 44 /* , */ || last === 91 /* [ */)) {
      const word = WORDS.find(([w]) => text.startsWith(w, i) && ends(text, i + w.length));
      if (word) {
        (out ??= []).push(text.slice(from, i), word[1]);
        i += word[0].length - 1;
        from = i + 1;
        last = 48; // a value
        continue;
      }
    }
    last = c;
  }
  return out ? out.join('') + text.slice(from) : undefined;
}

function ends(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const c = text.charCodeAt(at);
  return c === 44 || c === 93 || c === 125 || c === 32 || c === 9 || c === 10 || c === 13;
}

/** The value of a text JSON.parse rejected, read with Python's NaN and Infinity rewritten (`text`: the same-length
 *  rewrite its offsets refer to); undefined when the rewrite does not parse either, or changes nothing. */
export function pythonJson(input: string): { value: unknown; text: string } | undefined {
  const finite = finiteJson(input);
  if (finite === undefined) return undefined;
  try {
    return { value: JSON.parse(finite), text: finite };
  } catch {
    return undefined;
  }
}

/** JSON.parse, taking Python's NaN and Infinity too. Throws JSON.parse's error for the input when neither parses. */
export function parseJsonOrPython(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch (e) {
    const python = pythonJson(input);
    if (python === undefined) throw e;
    return python.value;
  }
}
