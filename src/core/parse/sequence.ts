// A text that is several JSON values one after another (not one document, not one value per line): what an SDK's
// console exporter prints (OpenTelemetry Python's `ConsoleSpanExporter` writes each span as indented JSON), `jq`
// without `-c`, pretty-printed JSONL. Each value is a unit of its own, at its offset in the file, as a line is.
import type { Line } from './reader';

/** The values of such a text, each with its offset; undefined unless it holds two or more values and nothing else
 *  between them. A bare scalar between records (a JSONL line that is just `"error"`, pretty-printed with the rest)
 *  is a unit of its own, as its line would be: no record, and the records around it are still read. Strings are
 *  skipped with their escapes, so a bracket inside one does not count. */
export function valueSequence(text: string): Line[] | undefined {
  const out: Line[] = [];
  let depth = 0;
  let start = -1;
  let line = 0;
  let startLine = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (depth === 0) {
      if (c === 32 || c === 9 || c === 10 || c === 13) continue;
      if (c !== 123 && c !== 91) {
        const end = scalarEnd(text, i);
        if (end < 0) return undefined; // text between values that is not a value
        out.push({ text: text.slice(i, end), base: i, line });
        i = end - 1;
        continue;
      }
      start = i;
      startLine = line;
      depth = 1;
      continue;
    }
    if (c === 34) {
      // a string: to its closing quote
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
        else if (d === 10) line++;
      }
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) out.push({ text: text.slice(start, i + 1), base: start, line: startLine });
    }
  }
  // a last value cut short is a unit too: its parse error says where the text ends
  if (depth > 0) out.push({ text: text.slice(start), base: start, line: startLine });
  return out.length >= 2 ? out : undefined;
}

const SCALAR = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

/** The end of the JSON scalar (string, number, literal) at `i`, or -1 when the text there is none. A string must
 *  close on its own line, a number or literal must end at white space or the next value. */
function scalarEnd(text: string, i: number): number {
  if (text.charCodeAt(i) === 34) {
    for (let j = i + 1; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 92) j++;
      else if (d === 34) return j + 1;
      else if (d === 10) return -1;
    }
    return -1;
  }
  let j = i;
  while (j < text.length && !/[\s{["]/.test(text[j])) j++;
  return SCALAR.test(text.slice(i, j)) ? j : -1;
}
