// The AWS event stream (`application/vnd.amazon.eventstream`: Bedrock's streaming responses) as the JSON events
// it carries, from its bytes: however a recorder kept them (nock: hex, VCR.py YAML: `!!binary`, HAR: base64).
// Frame: total length (u32), headers length (u32), prelude CRC, headers, payload, message CRC; a header is a name
// (u8 length), a value type (u8) and a value (strings: u16 length). The `:event-type` header names the event
// (`contentBlockDelta`, ... for ConverseStream; `chunk` for InvokeModelWithResponseStream, whose payload `{bytes}`
// is the base64 of the model's own stream event); `:exception-type` names an error frame.
import { isPlainObject } from '../objects';

/** Sizes of the fixed-width header value types (0/1 are booleans without a value; 6/7 carry a u16 length). */
const FIXED: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };

function u32(b: Uint8Array, i: number): number {
  return ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
}

/** The string headers of one frame, or undefined when they do not parse. */
function headers(b: Uint8Array, start: number, end: number): Map<string, string> | undefined {
  const out = new Map<string, string>();
  const dec = new TextDecoder();
  let i = start;
  while (i < end) {
    const n = b[i];
    const name = dec.decode(b.subarray(i + 1, i + 1 + n));
    i += 1 + n;
    const type = b[i++];
    if (type === 6 || type === 7) {
      const len = (b[i] << 8) | b[i + 1];
      if (type === 7) out.set(name, dec.decode(b.subarray(i + 2, i + 2 + len)));
      i += 2 + len;
    } else if (type in FIXED) i += FIXED[type];
    else return undefined;
  }
  return i === end ? out : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The base64 `bytes` of an InvokeModel stream chunk as the JSON event they hold (else the chunk as it is). */
function chunkEvent(payload: unknown): unknown {
  if (!isPlainObject(payload) || typeof payload.bytes !== 'string') return payload;
  try {
    const bytes = Uint8Array.from(atob(payload.bytes), (c) => c.charCodeAt(0));
    // a model's stream event is an object; an agent's answer text (`"42"` is JSON too) stays the chunk it came in
    const event = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return isPlainObject(event) ? event : payload;
  } catch {
    return payload;
  }
}

/** The events of an event-stream body, as JSON values: `{<event-type>: payload}` (the shape the SDKs print), a
 *  chunk's own event, or `{<exception-type>: payload}`. Undefined when the bytes are not an event stream; a stream
 *  cut short (a recording of an interrupted response) is read up to its last whole frame. */
export function eventStreamEvents(b: Uint8Array): unknown[] | undefined {
  const out: unknown[] = [];
  const dec = new TextDecoder('utf-8', { fatal: true });
  let i = 0;
  let frames = 0;
  while (i < b.length) {
    const total = b.length - i < 16 ? 0 : u32(b, i);
    const hlen = total === 0 ? 0 : u32(b, i + 4);
    const h = total < 16 + hlen || i + total > b.length ? undefined : headers(b, i + 12, i + 12 + hlen);
    // not a frame: no event stream at all, or the end of one that was cut short
    if (!h) {
      if (frames === 0) return undefined;
      break;
    }
    frames++;
    let payload: unknown;
    try {
      payload = parseJson(dec.decode(b.subarray(i + 12 + hlen, i + total - 4)));
    } catch {
      payload = undefined;
    }
    i += total;
    if (payload === undefined) continue;
    const type = h.get(':event-type');
    const exception = h.get(':exception-type');
    if (type === 'chunk') out.push(chunkEvent(payload));
    else if (exception !== undefined) out.push({ [exception]: payload });
    else if (type !== undefined) out.push({ [type]: payload });
  }
  return out.length > 0 ? out : undefined;
}

/** Hex text (nock's `responseIsBinary` bodies) as bytes; undefined when it is not hex. */
export function hexBytes(s: string): Uint8Array | undefined {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return undefined;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}
