// A record of one exchange with a model API that keeps the request and its answer side by side: a proxy's or a
// gateway's log (`{request, response}`), a recorder's entry, a batch line that keeps both (`{custom_id, request,
// response: {status_code, body}}`). The two halves are one conversation: the tools the request declares apply to
// the calls of the answer, and the answer continues the request's messages. Without this rule the engine's
// wrapper search reads each half as a session of its own, and no definition ever meets the call it declares.
// Each message reader asks with its own tests of a request and of an answer, so a record is read by the reader
// whose format both halves are (a half of another format leaves the record to the wrapper search).
import { isPlainObject } from '../objects';
import { nodeDoc, type Doc, type JsonPath } from '../parse/doc';

const REQUEST_KEYS = ['request', 'request_body', 'requestBody'] as const;
const RESPONSE_KEYS = ['response', 'response_body', 'responseBody'] as const;

type Test = (v: unknown) => boolean;

interface Half {
  path: JsonPath;
  value: unknown;
}

function half(v: unknown, path: JsonPath, test: Test): Half | undefined {
  if (test(v)) return { path, value: v };
  // a batch line's answer: `{status_code, body}`
  if (isPlainObject(v) && 'body' in v && test(v.body)) return { path: [...path, 'body'], value: v.body };
  return undefined;
}

/** The first of `keys` whose value is the half `test` asks for: a log may keep several (`request` holding the
 *  HTTP metadata, `request_body` the body). */
function firstHalf(v: Record<string, unknown>, keys: readonly string[], test: Test): Half | undefined {
  for (const k of keys) {
    const found = k in v ? half(v[k], [k], test) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The request and the answer of an exchange record whose halves pass `isRequest` and `isResponse`. */
function halvesOf(v: unknown, isRequest: Test, isResponse: Test): Half[] | undefined {
  if (!isPlainObject(v)) return undefined;
  const request = firstHalf(v, REQUEST_KEYS, isRequest);
  const response = request && firstHalf(v, RESPONSE_KEYS, isResponse);
  return request && response ? [request, response] : undefined;
}

export function isExchange(v: unknown, isRequest: Test, isResponse: Test): boolean {
  return halvesOf(v, isRequest, isResponse) !== undefined;
}

/** What to read of `doc`, in order: each half of an exchange record as a doc of its own (anchors still point
 *  into the file), or else `doc` itself. */
export function exchangeParts(doc: Doc, isRequest: Test, isResponse: Test): Doc[] {
  const halves = halvesOf(doc.value, isRequest, isResponse);
  return halves ? halves.map((h) => nodeDoc(doc, h.path, h.value)) : [doc];
}
