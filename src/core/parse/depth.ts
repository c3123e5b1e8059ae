// How deep a JSON text nests, found without parsing (iterative, linear): recursive parsers and walkers
// (jsonc-parser, ajv, schema transforms) overflow the stack near 100k levels, so hostile texts are refused first.

/** The offset of the bracket that opens level `limit + 1`, or -1 when the text never nests that deep. */
export function depthExceeded(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34 || c === 10 || c === 13) inString = false; // a line break ends a broken string, as in jsonc-parser
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return -1;
}
