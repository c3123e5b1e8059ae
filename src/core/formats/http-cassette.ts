// Recorded HTTP exchanges ("cassettes" written by VCR-style test recorders): `{status, headers, body}` where the
// body (a string) is the provider's response as a JSON string, or a server-sent-events stream as text. The body is decoded
// (positions map back through the string's escapes) and read by the adapter that claims it, or, for SSE, by the
// stream assembler, one `data:` event at a time.
import type { FormatAdapter } from './adapter';
import { readAsLines, singleSession } from './adapter';
import { StreamAssembler, isStreamEvent } from './stream';
import { embeddedDoc, type Doc } from '../parse/doc';
import { isPlainObject, jsonIn, jsonValue, type Obj } from './util';

function isCassette(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.status === 'number' && isPlainObject(v.headers) && typeof v.body === 'string';
}

interface SseEvent {
  doc: Doc;
  value: Obj;
}

/** The JSON `data:` payloads of an SSE text, each a Doc inside the body string. */
function sseEvents(parent: Doc, body: string): SseEvent[] {
  const out: SseEvent[] = [];
  const re = /^data:[ \t]?(.*)$/gm;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const text = m[1].replace(/\r$/, '');
    if (!text.trimStart().startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(text);
      if (!isPlainObject(value)) continue;
      const skip = m.index + m[0].length - m[1].length;
      out.push({ doc: embeddedDoc(parent, ['body'], body, skip, text, value), value });
    } catch {
      // a data line that is not JSON ([DONE], a comment) carries no call
    }
  }
  return out;
}

function isSse(body: unknown): body is string {
  return typeof body === 'string' && /^(event|data):/m.test(body) && !body.trimStart().startsWith('{');
}

/** The cassette adapter, given the list of adapters that may claim a body (the registry, asked lazily: the
 *  registry holds this adapter too, so it cannot be imported here without a cycle). */
export function httpCassetteAdapter(adapters: () => readonly FormatAdapter[]): FormatAdapter {
  const innerFormat = (value: unknown) => adapters().find((a) => a.id !== 'http-cassette' && a.document?.claims(value))?.document;
  return {
    id: 'http-cassette',
    document: {
      claims(v) {
        if (!isCassette(v)) return false;
        if (isSse(v.body)) return true;
        const inner = jsonValue(v.body);
        return innerFormat(inner) !== undefined || isStreamEvent(inner);
      },
      read(doc, emit) {
        const v = doc.value as Obj;
        if (isSse(v.body)) {
          const events = sseEvents(doc, v.body);
          // events of another provider's stream (Gemini, Bedrock, ...) go to the line reader of their format
          const first = events.find((e) => !isStreamEvent(e.value));
          const other = first && adapters().find((a) => a.id !== 'http-cassette' && a.lines?.claims(first.value))?.lines;
          if (other && !events.some((e) => isStreamEvent(e.value))) {
            readAsLines(other, events.map((e) => e.doc), emit);
            return;
          }
          singleSession((b) => {
            const a = new StreamAssembler(b);
            for (const e of events) a.event(e.doc, [], e.value);
            a.flush();
          }, emit);
          return;
        }
        const inner = jsonIn(doc, ['body'], v.body);
        if (inner.doc === doc) return;
        const format = innerFormat(inner.value);
        if (format) {
          format.read(inner.doc, emit);
        } else if (isStreamEvent(inner.value)) {
          singleSession((b) => {
            const a = new StreamAssembler(b);
            a.event(inner.doc, [], inner.value as Obj);
            a.flush();
          }, emit);
        }
      },
    },
  };
}
