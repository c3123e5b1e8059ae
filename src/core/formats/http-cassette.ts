// Recorded HTTP exchanges ("cassettes" written by VCR-style test recorders): `{status, headers, body}` where the
// body (a string) is the provider's response as a JSON string, or a server-sent-events stream as text. The body is
// decoded (positions map back through the string's escapes) and read by the adapter that claims it, or, for SSE, by
// the stream assembler, one `data:` event at a time. Recordings of many exchanges (HAR, VCR cassettes saved as JSON,
// nock recordings: recording.ts) are read the same way, body by body, into one conversation; so is a gateway's
// request log row (Helicone's `request_body` / `response_body`).
import type { FormatAdapter } from './adapter';
import { readAsLines, singleSession } from './adapter';
import { StreamAssembler, isStreamEvent } from './stream';
import { embeddedDoc, nodeDoc, type Doc, type JsonPath } from '../parse/doc';
import type { Session } from '../model';
import { isPlainObject, jsonIn, jsonValue, type Obj } from './util';
import { mergeEchoes, recordedExchanges, type RecordedPart } from './recording';

function isCassette(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.status === 'number' && isPlainObject(v.headers) && typeof v.body === 'string';
}

/** A model gateway's request log row (Helicone's request query and export: `{request_id, request_body,
 *  response_body, response_status}`): one exchange, its bodies objects or JSON strings. A list of rows is read row by
 *  row (the engine's wrappers), each a session: every request carries its own history. */
function isGatewayRow(v: unknown): v is Obj {
  return isPlainObject(v) && 'request_body' in v && 'response_body' in v;
}

interface SseEvent {
  doc: Doc;
  value: Obj;
}

/** The JSON `data:` payloads of an SSE text (the string at `path` of `parent`), each a Doc inside that string. */
function sseEvents(parent: Doc, path: JsonPath, body: string): SseEvent[] {
  const out: SseEvent[] = [];
  const re = /^data:[ \t]?(.*)$/gm;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const text = m[1].replace(/\r$/, '');
    if (!text.trimStart().startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(text);
      if (!isPlainObject(value)) continue;
      const skip = m.index + m[0].length - m[1].length;
      out.push({ doc: embeddedDoc(parent, path, body, skip, text, value), value });
    } catch {
      // a data line that is not JSON ([DONE], a comment) carries no call
    }
  }
  return out;
}

function isSse(body: unknown): body is string {
  return typeof body === 'string' && /^(event|data):/m.test(body) && !body.trimStart().startsWith('{');
}

type Adapters = () => readonly FormatAdapter[];

/** Whether two request bodies say the same, whatever their spacing (a JSON body compared as its value). */
function sameRequest(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a === 'string' ? a.trim() !== '' : a !== undefined && a !== null;
  const key = (body: unknown) => {
    const v = jsonValue(body);
    return isPlainObject(v) || Array.isArray(v) ? JSON.stringify(v) : undefined;
  };
  const ka = key(a);
  return ka !== undefined && ka === key(b);
}

/** A body's size without its spacing (a request sent again has the same however it is spaced; a continuation
 *  grows): the cheap test before comparing what two requests say. */
function bodySize(body: unknown): number {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) n++;
  }
  return n;
}

const innerFormat = (adapters: Adapters, value: unknown) =>
  adapters().find((a) => a.id !== 'http-cassette' && a.document?.claims(value))?.document;

/** Whether a recorded body (a JSON string, an SSE text, or a value already parsed) holds something a reader takes. */
function readableBody(adapters: Adapters, body: unknown): boolean {
  if (isSse(body)) return true;
  const inner = jsonValue(body);
  return isPlainObject(inner) || Array.isArray(inner) ? innerFormat(adapters, inner) !== undefined || isStreamEvent(inner) : false;
}

/** Events a gateway wraps (Gemini Code Assist sends `{response: <chunk>, traceId}`): when no reader takes an event
 *  as it is, but one takes a member of one, each event's member of that name is the event. */
function unwrapped(adapters: Adapters, events: SseEvent[]): SseEvent[] {
  const claimed = (v: unknown) => isStreamEvent(v) || adapters().some((a) => a.id !== 'http-cassette' && a.lines?.claims(v));
  if (events.some((e) => claimed(e.value))) return events;
  let key: string | undefined;
  for (const e of events) {
    key = Object.keys(e.value).find((k) => isPlainObject(e.value[k]) && claimed(e.value[k]));
    if (key !== undefined) break;
  }
  if (key === undefined) return events;
  const k = key;
  return events.flatMap((e) => (isPlainObject(e.value[k]) ? [{ doc: nodeDoc(e.doc, [k], e.value[k]), value: e.value[k] }] : []));
}

/** Read the body at `path` of `doc`: by the adapter that claims it, or its SSE events by their stream's reader. */
function readBody(adapters: Adapters, doc: Doc, path: JsonPath, body: unknown, emit: (s: Session) => void): void {
  if (isSse(body)) {
    const events = unwrapped(adapters, sseEvents(doc, path, body));
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
  const inner = jsonIn(doc, path, body);
  if (inner.doc === doc && typeof body === 'string') return;
  const format = innerFormat(adapters, inner.value);
  if (format) {
    format.read(inner.doc === doc ? nodeDoc(doc, path, inner.value) : inner.doc, emit);
  } else if (isStreamEvent(inner.value)) {
    singleSession((b) => {
      const a = new StreamAssembler(b);
      a.event(inner.doc, inner.path, inner.value as Obj);
      a.flush();
    }, emit);
  }
}

/** The cassette adapter, given the list of adapters that may claim a body (the registry, asked lazily: the
 *  registry holds this adapter too, so it cannot be imported here without a cycle). */
export function httpCassetteAdapter(adapters: Adapters): FormatAdapter {
  return {
    id: 'http-cassette',
    document: {
      claims(v) {
        if (isCassette(v)) return readableBody(adapters, v.body);
        if (isGatewayRow(v)) return readableBody(adapters, v.request_body) || readableBody(adapters, v.response_body);
        const exchanges = recordedExchanges({ text: '', base: 0, value: v });
        // a recording another reader knows as a whole (Bedrock's nock recordings) is left to it
        if (!exchanges || innerFormat(adapters, v)) return false;
        return exchanges.some((x) => [x.request, x.response].some((b) => b !== undefined && readableBody(adapters, b.value)));
      },
      read(doc, emit) {
        const v = doc.value as Obj;
        if (isCassette(v)) {
          readBody(adapters, doc, ['body'], v.body, emit);
          return;
        }
        const parts: RecordedPart[] = [];
        const row: unknown = doc.value;
        if (isGatewayRow(row)) {
          readBody(adapters, doc, ['request_body'], row.request_body, (session) => parts.push({ session, response: false }));
          readBody(adapters, doc, ['response_body'], row.response_body, (session) => parts.push({ session, response: true }));
          emit(mergeEchoes(parts));
          return;
        }
        let first: { body: unknown; size: number } | undefined;
        for (const x of recordedExchanges(doc) ?? []) {
          // the conversation's first request sent again (a test recorded twice into one cassette, a run replayed): a
          // new conversation, not a continuation of the one before (whose calls it would repeat as duplicates)
          const size = x.request ? bodySize(x.request.value) : 0;
          if (x.request && first && parts.length > 0 && size === first.size && sameRequest(first.body, x.request.value)) {
            emit(mergeEchoes(parts.splice(0)));
            first = undefined;
          }
          if (x.request && !first) first = { body: x.request.value, size };
          if (x.request) readBody(adapters, x.request.doc, x.request.path, x.request.value, (session) => parts.push({ session, response: false }));
          if (x.response) readBody(adapters, x.response.doc, x.response.path, x.response.value, (session) => parts.push({ session, response: true }));
        }
        emit(mergeEchoes(parts));
      },
    },
  };
}
