// A text that is several JSON values one after another (not one document, not one value per line): what an SDK's
// console exporter prints (OpenTelemetry Python's `ConsoleSpanExporter` writes each span as indented JSON), `jq`
// without `-c`, pretty-printed JSONL. Each value is a unit of its own, at its offset in the file, as a line is.
import type { Line } from './reader';

/** The values of such a text, each with its offset; undefined unless it holds two or more values and nothing else
 *  between them (only objects and arrays are cut: a bare scalar is no trace record). Strings are skipped with their
 *  escapes, so a bracket inside one does not count. */
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
      if (c !== 123 && c !== 91) return undefined; // text between values that is not a value
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
