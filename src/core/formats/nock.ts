// nock HTTP recordings (`nock.recorder` with `output_objects`, as test suites commit them): a JSON array of
// `{scope, method, path, body, status, response, rawHeaders?, reqheaders?, responseIsBinary?}`. `body` is the
// request the client sent and `response` what came back, each a parsed object or a string (JSON text, or the hex
// of a binary body when `responseIsBinary`: Bedrock's streaming answers are AWS event streams, decoded into their
// events, event-stream.ts). Not an adapter: the exchanges of a recording, decoded with positions
// kept, for the adapter of the provider the recording talked to. The one home of how a nock recording is read.
import type { Doc } from '../parse/doc';
import { eventStreamEvents, hexBytes, spreadDoc } from './event-stream';
import { isPlainObject, jsonIn, str, type Located, type Obj } from './util';

export interface NockExchange {
  /** The record's index in the recording. */
  index: number;
  /** `scope` + `path`: which endpoint was called. */
  url: string;
  status?: number;
  /** The request body and the response body, JSON strings decoded (undefined when absent). */
  request?: Located;
  response?: Located;
}

export function isNockRecord(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.scope === 'string' && typeof v.method === 'string' && typeof v.path === 'string' && 'response' in v;
}

/** Whether `v` is a nock recording: a non-empty array of nock records. */
export function isNockRecording(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isNockRecord);
}

/** Past this many hex digits a binary body is left unread (its offset map holds one entry per character). */
const BINARY_MAX = 1 << 22;

/** A binary response (hex) that is an AWS event stream, as the list of its events; undefined otherwise. */
function binaryResponse(doc: Doc, index: number, hex: unknown): Located | undefined {
  if (typeof hex !== 'string' || hex.length > BINARY_MAX) return undefined;
  const bytes = hexBytes(hex);
  const events = bytes && eventStreamEvents(bytes);
  return events ? spreadDoc(doc, [index, 'response'], events) : undefined;
}

/** The exchanges of a recording (a binary response body is read when it is an event stream). */
export function nockExchanges(doc: Doc): NockExchange[] {
  if (!isNockRecording(doc.value)) return [];
  return doc.value.map((r, index) => {
    const binary = r.responseIsBinary === true;
    return {
      index,
      url: `${str(r.scope) ?? ''}${str(r.path) ?? ''}`,
      status: typeof r.status === 'number' ? r.status : undefined,
      request: 'body' in r ? jsonIn(doc, [index, 'body'], r.body) : undefined,
      response: binary ? binaryResponse(doc, index, r.response) : jsonIn(doc, [index, 'response'], r.response),
    };
  });
}
