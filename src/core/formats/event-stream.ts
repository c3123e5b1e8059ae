// Bodies a recorder kept encoded, decoded into a doc of their own whose positions spread across the encoded text
// in the file (no character of an encoding is a character of the body: a finding in it falls on the part of the
// encoded string that holds it, roughly). Used for base64 bodies (recording.ts) and for the AWS event stream
// (`application/vnd.amazon.eventstream`, Bedrock's streaming responses) that nock records as hex; the frames are
// decoded in parse/event-stream.ts (YAML's `!!binary` bodies need them too).
import { partDoc, spanOf, type Doc, type JsonPath } from '../parse/doc';
export { eventStreamEvents, hexBytes } from '../parse/event-stream';

/** A doc of one member, `{"b": value}`, whose characters map evenly across the node at `path` of `doc`. */
export function spreadDoc(doc: Doc, path: JsonPath, value: unknown): { doc: Doc; path: JsonPath; value: unknown } {
  const text = `{"b":${JSON.stringify(value)}}`;
  const at = spanOf({ doc, path });
  const width = Math.max(at.end - at.start, 1);
  const map = { text: [] as number[], file: [] as number[] };
  for (let i = 0; i < text.length; i++) {
    map.text.push(i);
    map.file.push(at.start + Math.floor((i * width) / text.length));
  }
  return { doc: partDoc(text, at.start, { b: value }, map), path: ['b'], value };
}

