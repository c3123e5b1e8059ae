// HTTP recordings of many exchanges with a model API, as test recorders and browsers save them:
// - HAR 1.2 (browser devtools "Save all as HAR", Polly.js): `{log: {entries: [{request: {method, url, postData:
//   {mimeType, text}}, response: {status, content: {mimeType, text, encoding?}}}]}}`; a `content.encoding` of
//   `base64` is decoded (and inflated when gzip), its findings spread across the encoded text;
// - VCR cassettes saved as JSON: Ruby VCR (and rVCR, vcr for R) `{http_interactions: [{request: {method, uri,
//   body: {encoding, string}}, response: {status: {code}, body: {encoding, string}}}], recorded_with}` and VCR.py's
//   JSON serializer `{interactions: [{request: {body (string or null), method, uri}, response: {body: {string},
//   status: {code}}}], version}` (and its YAML, the default: parse/yaml.ts; a JSON body may be saved decoded as
//   `parsed_body`, or, by the recorder pydantic-ai's newer cassettes come from, as `body: {type: json, content:
//   <mapping>}` / `{type: text, content: <text>}`); go-vcr's YAML `{interactions: [{request: {body, url}, response: {body, code}}]}` (string
//   bodies); JavaScript recorders that write the same camelCased (`httpInteractions`, a string
//   `body`, `bodyEncoding`: a `base64` body is decoded like HAR's);
// - nock recordings (nock.ts) of any provider (Bedrock's are read by the Bedrock reader).
// Each request body holds the conversation so far and each response body what the model answered (JSON or a
// server-sent-events text). Read in order into one conversation, a later request repeats what came before: a
// call, result or text met again is an echo, read once (`mergeEchoes`, also how Bedrock's nock recordings and batch
// records are merged).
import type { AssistantText, Session, ToolCall, ToolResult } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { spreadDoc } from './event-stream';
import { binaryText } from '../parse/yaml';
import { isNockRecording, nockExchanges } from './nock';
import { isPlainObject, type Obj } from './util';

/** A body as recorded: the string (or already parsed value) at `path` of `doc`. */
export interface RecordedBody {
  doc: Doc;
  path: JsonPath;
  value: unknown;
}

export interface RecordedExchange {
  request?: RecordedBody;
  response?: RecordedBody;
}

const body = (doc: Doc, path: JsonPath, value: unknown): RecordedBody | undefined =>
  value === undefined || value === null || value === '' ? undefined : { doc, path, value };

/** Past this many characters a base64 body is left unread (its offset map holds one entry per character). */
const ENCODED_MAX = 1 << 21;

/** A body recorded as base64 (HAR `content.encoding: base64`, Ruby VCR `base64_string`, `bodyEncoding: base64`),
 *  often gzip: decoded and inflated, then read like any body; a finding in it falls on the encoded text, spread
 *  across it (there is no character of the encoding that is a character of the body). */
function encodedBody(doc: Doc, path: JsonPath, encoded: unknown): RecordedBody | undefined {
  if (typeof encoded !== 'string' || encoded === '' || encoded.length > ENCODED_MAX) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(encoded.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  } catch {
    return undefined; // not base64
  }
  const decoded = binaryText(bytes);
  // a gzip body inflates far past its encoding: its map is bounded too
  if (decoded === undefined || decoded.length > 4 * ENCODED_MAX || decoded.trim() === '') return undefined;
  return spreadDoc(doc, path, decoded);
}

function harExchanges(doc: Doc, v: Obj): RecordedExchange[] | undefined {
  const log = v.log;
  if (!isPlainObject(log) || !Array.isArray(log.entries)) return undefined;
  const entries = log.entries;
  if (!entries.every((e) => isPlainObject(e) && isPlainObject(e.request) && 'response' in e)) return undefined;
  return entries.map((e, i) => {
    const req = (e as Obj).request as Obj;
    const res = (e as Obj).response;
    const post = isPlainObject(req.postData) ? req.postData : undefined;
    const content = isPlainObject(res) && isPlainObject(res.content) ? res.content : undefined;
    const base64 = content?.encoding === 'base64';
    const text: JsonPath = ['log', 'entries', i, 'response', 'content', 'text'];
    return {
      request: post ? body(doc, ['log', 'entries', i, 'request', 'postData', 'text'], post.text) : undefined,
      response: content && base64 ? encodedBody(doc, text, content.text) : content ? body(doc, text, content.text) : undefined,
    };
  });
}

/** A VCR body: `{string}` (Ruby VCR, VCR.py responses), Ruby VCR's `{base64_string}`, a typed body `{type: 'json'
 *  | 'text', content}` (the JSON decoded, or the text: an SSE stream), or a plain string (VCR.py requests, go-vcr;
 *  base64 when `bodyEncoding` says so). */
function vcrBody(doc: Doc, path: JsonPath, b: unknown, encoding: unknown): RecordedBody | undefined {
  if (encoding === 'base64') return encodedBody(doc, path, b);
  if (typeof b === 'string') return body(doc, path, b);
  if (isPlainObject(b) && typeof b.string === 'string') return body(doc, [...path, 'string'], b.string);
  if (isPlainObject(b) && typeof b.base64_string === 'string') return encodedBody(doc, [...path, 'base64_string'], b.base64_string);
  if (isPlainObject(b) && (b.type === 'json' || (b.type === 'text' && typeof b.content === 'string'))) return body(doc, [...path, 'content'], b.content);
  return undefined;
}

/** A JSON body the recorder saved decoded, as a mapping in place of the body text (pydantic-ai's cassette
 *  serializer, copied by other projects, writes `parsed_body` for an `application/json` body). */
function parsedBody(doc: Doc, path: JsonPath, side: Obj): RecordedBody | undefined {
  const v = side.parsed_body;
  return isPlainObject(v) || Array.isArray(v) ? body(doc, [...path, 'parsed_body'], v) : undefined;
}

function vcrExchanges(doc: Doc, v: Obj): RecordedExchange[] | undefined {
  const key = ['http_interactions', 'httpInteractions', 'interactions'].find((k) => Array.isArray(v[k]));
  if (!key) return undefined;
  const list = v[key] as unknown[];
  if (!list.every((x) => isPlainObject(x) && isPlainObject(x.request) && isPlainObject(x.response))) return undefined;
  return list.map((x, i) => {
    const { request, response } = x as { request: Obj; response: Obj };
    return {
      request: parsedBody(doc, [key, i, 'request'], request) ?? vcrBody(doc, [key, i, 'request', 'body'], request.body, request.bodyEncoding),
      response: parsedBody(doc, [key, i, 'response'], response) ?? vcrBody(doc, [key, i, 'response', 'body'], response.body, response.bodyEncoding),
    };
  });
}

/** The exchanges of a recording, in order; undefined when `doc` is not one. */
export function recordedExchanges(doc: Doc): RecordedExchange[] | undefined {
  const v = doc.value;
  if (isNockRecording(v)) {
    return nockExchanges(doc).map((x) => ({
      request: x.request ? body(x.request.doc, x.request.path, x.request.value) : undefined,
      response: x.response ? body(x.response.doc, x.response.path, x.response.value) : undefined,
    }));
  }
  if (!isPlainObject(v)) return undefined;
  const list = harExchanges(doc, v) ?? vcrExchanges(doc, v);
  return list && list.length > 0 ? list : undefined;
}

/** What a call says: its name and arguments. */
function shapeKey(c: ToolCall): string {
  return `call ${c.name} ${JSON.stringify(c.args ?? c.argumentsRaw ?? null)}`;
}

/** A key that names a record across copies: its id where it has one, else what it says. */
function callKey(c: ToolCall): string {
  return c.id !== undefined ? `id ${c.id}` : shapeKey(c);
}

/** Counts of keys, so that a record met N times in one part is N records once more than N were seen before. */
class Seen {
  private readonly counts = new Map<string, number>();
  /** Which record of `key` the `nth` (0-based) occurrence in a part is, and whether it was met before (an echo);
   *  a new one is counted. A response is never an echo: what the model answered is new, even the same call again. */
  has(key: string): boolean {
    return this.counts.has(key);
  }

  meet(key: string, nth: number, response: boolean): { echo: boolean; ordinal: number } {
    const had = this.counts.get(key) ?? 0;
    if (!response && nth < had) return { echo: true, ordinal: nth };
    this.counts.set(key, had + 1);
    return { echo: false, ordinal: had };
  }
}

function occurrences<T>(items: T[], key: (t: T) => string): number[] {
  const n = new Map<string, number>();
  return items.map((t) => {
    const k = key(t);
    const i = n.get(k) ?? 0;
    n.set(k, i + 1);
    return i;
  });
}

/** A session read out of one body, and whether the body was a response (else a request, which may echo). */
export interface RecordedPart {
  session: Session;
  response: boolean;
}

/** One conversation from the sessions read out of a recording's bodies, in order, each echo read once. */
export function mergeEchoes(recorded: RecordedPart[]): Session {
  const parts = recorded.map((x) => x.session);
  const out: Session = { calls: [], results: [], tools: [], turns: 0 };
  const texts: AssistantText[] = [];
  const calls = new Seen();
  const results = new Seen();
  const said = new Seen();
  const firstCall = new Map<string, ToolCall>();
  // calls the model answered without an id, by what they say: the client names them when it sends them back (a
  // Gemini functionCall has no id; pydantic-ai's next request carries it with one), and that copy is their echo
  const unnamed = new Map<string, ToolCall[]>();
  const toolNames = new Set<string>();
  let lastNew = -1; // the part that brought the last new call
  let lastText = -1; // the part that brought the last new text
  let lastAnswer = -1; // the last response that made no call: the model answered in words
  parts.forEach((p, pi) => {
    const turnOf = new Map<number, number>(); // the part's turns to the conversation's
    const indexOf = new Map<number, number>(); // the part's call positions to the conversation's
    const newTurnOf = new Map<number, number>(); // the part's turns that brought new calls
    const nth = occurrences(p.calls, callKey);
    p.calls.forEach((c, ci) => {
      const key = callKey(c);
      const named = !recorded[pi].response && c.id !== undefined && !calls.has(key) ? unnamed.get(shapeKey(c))?.shift() : undefined;
      if (named) {
        named.id = c.id;
        calls.meet(key, 0, true);
        firstCall.set(`${key}#0`, named);
        indexOf.set(c.index, named.index);
        if (!turnOf.has(c.turn)) turnOf.set(c.turn, named.turn);
        return;
      }
      const met = calls.meet(key, nth[ci], recorded[pi].response);
      if (met.echo) {
        const first = firstCall.get(`${key}#${met.ordinal}`);
        if (first) {
          indexOf.set(c.index, first.index);
          if (!turnOf.has(c.turn)) turnOf.set(c.turn, first.turn);
        }
        return;
      }
      let turn = newTurnOf.get(c.turn);
      if (turn === undefined) {
        turn = ++out.turns;
        newTurnOf.set(c.turn, turn);
        turnOf.set(c.turn, turn);
      }
      const call: ToolCall = { ...c, index: out.calls.length, turn };
      indexOf.set(c.index, call.index);
      firstCall.set(`${key}#${met.ordinal}`, call);
      if (call.id === undefined) unnamed.set(key, [...(unnamed.get(key) ?? []), call]);
      out.calls.push(call);
      lastNew = pi;
    });
    const resultKey = (r: ToolResult) =>
      r.callId !== undefined ? `id ${r.callId}` : r.callIndex !== undefined ? `at ${indexOf.get(r.callIndex) ?? r.callIndex}` : `body ${JSON.stringify(r.payload ?? null)}`;
    const rn = occurrences(p.results, resultKey);
    p.results.forEach((r, ri) => {
      if (results.meet(resultKey(r), rn[ri], recorded[pi].response).echo) return;
      out.results.push({ ...r, turn: turnOf.get(r.turn) ?? out.turns, callIndex: r.callIndex === undefined ? undefined : indexOf.get(r.callIndex) ?? r.callIndex });
    });
    const tn = occurrences(p.texts ?? [], (t) => t.text);
    (p.texts ?? []).forEach((t, ti) => {
      if (said.meet(t.text, tn[ti], recorded[pi].response).echo) return;
      texts.push({ ...t, turn: turnOf.get(t.turn) ?? out.turns });
      lastText = pi;
    });
    for (const t of p.tools) {
      if (toolNames.has(t.name)) continue; // every request repeats the tool list: one definition per name
      toolNames.add(t.name);
      out.tools.push(t);
    }
    if (p.linksStated) out.linksStated = true;
    if (recorded[pi].response && p.calls.length === 0) lastAnswer = pi;
  });
  if (texts.length > 0) out.texts = texts;
  // the conversation went on after its last call when a later body said something new (or the model answered
  // without a call), or a body from there on says so
  const answered = out.calls.length > 0 && lastAnswer > lastNew;
  if (lastText > lastNew || answered || parts.slice(Math.max(lastNew, 0)).some((p) => p.continuedAfterCalls)) out.continuedAfterCalls = true;
  return out;
}
