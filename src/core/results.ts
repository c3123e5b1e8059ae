// Reading a tool result the way a person would: one home for unwrapping payloads and for "did this call fail?".
// - A string holding JSON is read as JSON (with positions mapped back through the string's escapes).
// - Text blocks (`[{"type": "text", "text": ...}]`) are read as their text.
// - `{"status"|"status_code"|"statusCode": N, "body"|"data"|"response": ...}` is transport (HTTP N) plus body;
//   `{"exit_code"|"exitCode"|"returncode"|"return_code": N, ...}` carries an exit code; so do the text forms
//   `Exit code: N` (Codex) and `<returncode>N</returncode>` (mini-swe-agent).
// - An MCP CallToolResult's `isError` is transport; its body is `structuredContent` (any JSON value, taken as it
//   is: it is what the tool's `outputSchema` describes) or else its text. A `null` structuredContent is read as
//   absent (serializers write null for "none"). Wrapped in a transport that already said success in so many words
//   (`is_error: false`, span status OK, exit 0, HTTP 2xx not carrying JSON-RPC), its `isError: true` is the body
//   saying failure: status theater, not an honest failure.
// - An MCP result with `resultType: "input_required"` (an InputRequiredResult: the server asks for input, then the
//   client retries the request) is neither success nor failure: the call has not run yet. The draft's name for it,
//   `"incomplete"`, is read the same.
// - A JSON-RPC `error` response is an honest failure; so is an OTel `error.type` on a tool span.
import type { ToolResult, TransportSignals } from './model';
import { embeddedDoc, joinPath, type Anchor, type JsonPath } from './parse/doc';
import { isPlainObject, type Obj } from './objects';

export interface ResultSignals extends TransportSignals {
  /** A JSON-RPC error response (an honest failure). */
  jsonRpcError?: boolean;
  /** The result came through a channel with an error flag (`is_error`, `isError`) that was left out: by that
   *  channel's definition, absent means success. */
  errorFlagAbsent?: boolean;
  /** The server asked for more input before it runs the call (MCP `resultType: "input_required"`). */
  inputRequired?: boolean;
}

export interface ResultReading {
  /** The body as the tool meant it: unwrapped from transport wrappers, JSON read out of strings. */
  body: unknown;
  /** Where the body is in the source: only in a reading made with anchors (readResult, resultBodyAnchor);
   *  undefined when the adapter recorded no position for the payload. */
  at?: Anchor;
  /** The body as text, when it is text (or the stdout of an exit-code wrapper). */
  text?: string;
  /** The adapter's transport signals merged with those found in wrappers. */
  transport: ResultSignals;
  /** A quick reading left a string holding JSON unparsed (no key in it could matter to status or digests). */
  skipped?: boolean;
  /** Characters of JSON text this reading parsed (what keeping it costs). */
  parsed?: number;
  /** The body's own error flag where the transport above it said success (an MCP result's `isError: true` under
   *  `is_error: false`, a span status OK, exit 0 or HTTP 2xx): the body's failure, in its words. */
  bodyError?: string;
}

const HTTP_KEYS = ['status', 'status_code', 'statusCode'];
const BODY_KEYS = ['body', 'data', 'response'];
const EXIT_KEYS = ['exit_code', 'exitCode', 'returncode', 'return_code'];
const TEXT_BLOCK = new Set(['text', 'output_text', 'input_text']);
const RPC_KEYS = new Set(['jsonrpc', 'id', 'result', 'error']);
const MCP_KEYS = new Set(['content', 'isError', 'structuredContent', '_meta', 'resultType']);
const INPUT_REQUIRED = new Set(['input_required', 'incomplete']);

const cache = new WeakMap<ToolResult, ResultReading>();

/** The value at an anchor. */
export function valueAt(anchor: Anchor): unknown {
  let v: unknown = anchor.doc.value;
  for (const seg of anchor.path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

function sub(at: Anchor | undefined, ...path: JsonPath): Anchor | undefined {
  return at && { doc: at.doc, path: joinPath(at.path, path) };
}

/** Read a result's payload, fully (cached per result). */
export function readResult(result: ToolResult): ResultReading {
  let r = cache.get(result);
  if (!r) {
    r = readResultOnce(result, false, true);
    cache.set(result, r);
  }
  return r;
}

// Words that can make a JSON body matter to the status and digest checks (as keys, or anywhere for digests). A
// long string holding JSON without any of them is left unparsed by a `quick` reading: it cannot say failure,
// carry a wrapper or report a digest. Short strings are simply parsed.
const TELLING = /"(?:ok|error|errors|success|status|status_code|statusCode|isError|jsonrpc|exit_code|exitCode|returncode|return_code|text)"|sha|hash|digest|etag|checksum|md5/i;
const QUICK_MIN = 512;

/** Read a result's payload, uncached. `quick`: leave long strings holding JSON unparsed when nothing in them
 *  could matter to the status and digest checks (the body is then the string itself). `anchors`: also say where
 *  the body is in the source (costs a little; the checks ask for it only when they report). */
export function readResultOnce(result: ToolResult, quick: boolean, anchors = false): ResultReading {
  const t = result.transport;
  const transport: ResultSignals = { httpStatus: t.httpStatus, exitCode: t.exitCode, isError: t.isError, spanStatus: t.spanStatus, errorType: t.errorType };
  if (t.isError === undefined) {
    const raw = valueAt(result.at);
    if (isPlainObject(raw) && (raw.type === 'tool_result' || raw.type === 'custom_tool_result')) transport.errorFlagAbsent = true;
  }
  const r: ResultReading = { body: undefined, transport };
  unwrap(r, result.payload, anchors ? result.payloadAt : undefined, 0, quick);
  return r;
}

/** Where a path inside a result's body is in the source (falls back to the result). */
export function resultBodyAnchor(result: ToolResult, path: JsonPath): Anchor {
  const at = readResultOnce(result, false, true).at;
  return at ? { doc: at.doc, path: joinPath(at.path, path) } : result.at;
}

/** `rpc`: the value is (inside) a JSON-RPC message, so an HTTP status above it speaks for the message, not the tool. */
function unwrap(r: ResultReading, value: unknown, at: Anchor | undefined, depth: number, quick = false, rpc = false): void {
  r.body = value;
  r.at = at;
  if (depth > 6) return;
  const t = r.transport;
  if (typeof value === 'string') {
    r.text = value;
    const lead = firstNonBlank(value);
    if (lead === '{' || lead === '[') {
      if (quick && value.length >= QUICK_MIN && !TELLING.test(value)) {
        r.text = undefined;
        r.skipped = true;
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return;
      }
      r.parsed = (r.parsed ?? 0) + value.length;
      const doc = at && embeddedDoc(at.doc, at.path, value, 0, value, parsed);
      r.text = undefined;
      unwrap(r, parsed, doc && { doc, path: [] }, depth + 1, quick, rpc);
      return;
    }
    const codex = /^Exit code: (\d+)\r?\n/.exec(value);
    if (codex && t.exitCode === undefined) {
      t.exitCode = Number(codex[1]);
      const out = value.indexOf('\nOutput:\n');
      if (out >= 0) r.text = value.slice(out + 9);
      return;
    }
    const mswe = /^\s*<returncode>(-?\d+)<\/returncode>/.exec(value);
    if (mswe && t.exitCode === undefined) {
      t.exitCode = Number(mswe[1]);
      const m = /<output>([\s\S]*?)(<\/output>|$)/.exec(value);
      r.text = m ? m[1] : '';
    }
    return;
  }
  if (Array.isArray(value)) {
    let texts = 0;
    let only = -1;
    for (let i = 0; i < value.length; i++) {
      const b = value[i];
      if (isPlainObject(b) && typeof b.type === 'string' && TEXT_BLOCK.has(b.type) && typeof b.text === 'string') {
        texts++;
        only = i;
      }
    }
    if (texts === 1) unwrap(r, (value[only] as Obj).text, sub(at, only, 'text'), depth + 1, quick, rpc);
    else if (texts > 1) {
      r.text = value.filter((b) => isPlainObject(b) && typeof b.text === 'string').map((b) => (b as Obj).text).join('\n');
      r.body = r.text;
    }
    return;
  }
  if (!isPlainObject(value)) return;
  // JSON-RPC response
  if (value.jsonrpc === '2.0' || ('id' in value && ('result' in value || 'error' in value) && onlyKeys(value, RPC_KEYS))) {
    if (value.error !== undefined && value.error !== null) {
      t.jsonRpcError = true;
      return;
    }
    if ('result' in value) unwrap(r, value.result, sub(at, 'result'), depth + 1, quick, true);
    return;
  }
  // MCP InputRequiredResult: the body stays the request for input
  if (typeof value.resultType === 'string' && INPUT_REQUIRED.has(value.resultType)) {
    t.inputRequired = true;
    return;
  }
  // MCP CallToolResult
  if (Array.isArray(value.content) && onlyKeys(value, MCP_KEYS)) {
    if (typeof value.isError === 'boolean') {
      // the transport above it said success in so many words: the result's own isError: true is the body's word
      if (value.isError && saysSuccess(t, rpc)) r.bodyError = 'isError: true';
      else if (t.isError === undefined) t.isError = value.isError;
    } else if (t.isError === undefined) t.errorFlagAbsent = true;
    const structured = value.structuredContent;
    if (structured !== undefined && structured !== null) {
      r.body = structured;
      r.at = sub(at, 'structuredContent');
      r.text = typeof structured === 'string' ? structured : undefined;
    } else unwrap(r, value.content, sub(at, 'content'), depth + 1, quick, rpc);
    return;
  }
  // HTTP wrapper
  const sk = firstKey(value, HTTP_KEYS, isHttpStatus);
  const bk = sk && firstKey(value, BODY_KEYS, isPresent);
  if (sk && bk) {
    if (t.httpStatus === undefined) t.httpStatus = value[sk] as number;
    unwrap(r, value[bk], sub(at, bk), depth + 1, quick, rpc);
    return;
  }
  // Exit-code wrapper: the object stays the body; its output is the text.
  const ek = firstKey(value, EXIT_KEYS, Number.isInteger);
  if (ek) {
    if (t.exitCode === undefined) t.exitCode = value[ek] as number;
    const out = [value.stdout, value.output].find((s) => typeof s === 'string' && s.trim() !== '');
    const text = out ?? (typeof value.stderr === 'string' ? value.stderr : undefined);
    if (typeof text === 'string') r.text = text;
  }
}

/** Transport signals that say success in so many words: `is_error: false`, span status OK (UNSET says nothing),
 *  exit code 0, HTTP 2xx (unless what it carries is a JSON-RPC message: HTTP 200 is how every JSON-RPC response
 *  travels). Absent flags are no such word. */
function saysSuccess(t: ResultSignals, rpc: boolean): boolean {
  if (t.isError === true || t.jsonRpcError || (t.errorType !== undefined && t.errorType !== '')) return false;
  if (t.spanStatus !== undefined && SPAN_ERROR.test(t.spanStatus)) return false;
  if (t.httpStatus !== undefined && t.httpStatus >= 400) return false;
  if (t.exitCode !== undefined && t.exitCode !== 0) return false;
  return t.isError === false || (t.spanStatus !== undefined && SPAN_OK_SAID.test(t.spanStatus)) || t.exitCode === 0
    || (!rpc && t.httpStatus !== undefined && t.httpStatus >= 200 && t.httpStatus < 300);
}

function onlyKeys(o: Obj, allowed: Set<string>): boolean {
  for (const k in o) if (!allowed.has(k)) return false;
  return true;
}

const isHttpStatus = (v: unknown) => Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 599;
const isPresent = (v: unknown) => v !== undefined;

function firstKey(o: Obj, keys: readonly string[], test: (v: unknown) => boolean): string | undefined {
  for (const k of keys) if (test(o[k])) return k;
  return undefined;
}

function firstNonBlank(s: string): string {
  for (let i = 0; i < s.length && i < 64; i++) {
    const c = s[i];
    if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') return c;
  }
  return '';
}

// ---- what the transport said -------------------------------------------------------------------------------

/** Tools that use exit code 1 for "no match" or "differs", when no contract says otherwise. */
const NO_MATCH_TOOLS = new Set(['grep', 'rg', 'ripgrep', 'egrep', 'fgrep', 'diff', 'cmp', 'git_diff']);

const ONLY_ZERO: readonly number[] = [0];
const ZERO_ONE: readonly number[] = [0, 1];

export function okExitCodesFor(tool: string | undefined, declared?: number[]): number[] {
  if (declared) return declared;
  return (tool && NO_MATCH_TOOLS.has(tool.toLowerCase()) ? ZERO_ONE : ONLY_ZERO) as number[];
}

export type TransportVerdict =
  | { kind: 'failure'; said: string }
  | { kind: 'success'; said: string }
  | { kind: 'silent' };

const SPAN_ERROR = /^(error|status_code_error|2)$/i;
const SPAN_OK = /^(ok|unset|status_code_ok|status_code_unset|0|1)$/i;
const SPAN_OK_SAID = /^(ok|status_code_ok|1)$/i;

/** What the transport says, without the words (no allocation: the checks ask this of every result). */
export function transportKind(r: ResultReading, okExitCodes: readonly number[] = ONLY_ZERO): TransportVerdict['kind'] {
  const t = r.transport;
  if (t.isError === true || t.jsonRpcError) return 'failure';
  if (t.spanStatus !== undefined && SPAN_ERROR.test(t.spanStatus)) return 'failure';
  if (t.errorType !== undefined && t.errorType !== '') return 'failure';
  if (t.httpStatus !== undefined && t.httpStatus >= 400) return 'failure';
  if (t.exitCode !== undefined && !okExitCodes.includes(t.exitCode)) return 'failure';
  if (t.httpStatus !== undefined && t.httpStatus >= 200 && t.httpStatus < 300) return 'success';
  if (t.exitCode !== undefined || t.isError === false || t.errorFlagAbsent) return 'success';
  if (t.spanStatus !== undefined && SPAN_OK.test(t.spanStatus)) return 'success';
  return 'silent';
}

/** Failure if any transport signal says so (an honest failure); success if one affirmatively says success. */
export function transportVerdict(r: ResultReading, okExitCodes: number[] = [0]): TransportVerdict {
  const t = r.transport;
  if (t.isError === true) return { kind: 'failure', said: 'is_error: true' };
  if (t.spanStatus !== undefined && /^(error|status_code_error|2)$/i.test(t.spanStatus)) return { kind: 'failure', said: 'span status ERROR' };
  if (t.jsonRpcError) return { kind: 'failure', said: 'a JSON-RPC error' };
  if (t.errorType !== undefined && t.errorType !== '') return { kind: 'failure', said: `error.type ${brief(t.errorType)}` };
  if (t.httpStatus !== undefined && t.httpStatus >= 400) return { kind: 'failure', said: `HTTP ${t.httpStatus}` };
  if (t.exitCode !== undefined && !okExitCodes.includes(t.exitCode)) return { kind: 'failure', said: `exit ${t.exitCode}` };
  if (t.httpStatus !== undefined && t.httpStatus >= 200 && t.httpStatus < 300) return { kind: 'success', said: `HTTP ${t.httpStatus}` };
  if (t.exitCode !== undefined) return { kind: 'success', said: `exit ${t.exitCode}` };
  if (t.isError === false) return { kind: 'success', said: 'is_error: false' };
  if (t.spanStatus !== undefined && /^(ok|unset|status_code_ok|status_code_unset|0|1)$/i.test(t.spanStatus)) return { kind: 'success', said: `span status ${t.spanStatus.replace(/^status_code_/i, '').toUpperCase()}` };
  if (t.errorFlagAbsent) return { kind: 'success', said: 'is_error absent' };
  return { kind: 'silent' };
}

// ---- what the body said -------------------------------------------------------------------------------------

export interface BodyFailure {
  /** e.g. `ok: false`, `error: "unknown_room"`. */
  said: string;
  /** True for the text heuristic ("Error:", "Traceback", "fatal:" at the start). */
  heuristic?: boolean;
}

const FAILED_STATUS = /^(error|errored|failed|failure|fail)$/i;
const ERROR_TEXT = /^\s*(Error:|ERROR:|error:|Traceback \(most recent call last\)|fatal:|Exception:|panic:)/;

export function brief(v: unknown, max = 40): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

/** A non-empty error value: a message, a code, an object with content (not null, false, "" or {}). */
export function isSetError(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isPlainObject(v)) return Object.keys(v).length > 0;
  return true;
}

/** What in the body says the call failed, if anything. */
export function bodyFailure(r: ResultReading): BodyFailure | undefined {
  if (r.transport.inputRequired) return undefined; // a request for input, not an outcome
  if (r.bodyError !== undefined) return { said: r.bodyError };
  const b = r.body;
  if (isPlainObject(b)) {
    if (b.ok === false) return { said: 'ok: false' };
    if (b.success === false) return { said: 'success: false' };
    if (typeof b.status === 'string' && FAILED_STATUS.test(b.status)) return { said: `status: ${brief(b.status)}` };
    if (isSetError(b.error)) return { said: `error: ${brief(b.error)}` };
    if (Array.isArray(b.errors) && b.errors.length > 0) return { said: `errors: ${brief(b.errors)}` };
  }
  const text = r.text ?? (typeof b === 'string' ? b : undefined);
  if (text !== undefined) {
    const m = ERROR_TEXT.exec(text);
    if (m) return { said: brief(text.trimStart().split('\n', 1)[0], 48), heuristic: true };
  }
  return undefined;
}
