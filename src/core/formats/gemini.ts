// Gemini API / Vertex AI: `generateContent` requests and responses, and `streamGenerateContent` chunks.
// - Responses: `candidates[].content.parts[]`; a part `{functionCall: {name, args, id?}}` is a call (a sibling
//   `thoughtSignature` is not part of it). Python SDK dumps write snake_case (`function_call`, `finish_reason`) and
//   may carry `automatic_function_calling_history` (Content[] of the calls the SDK ran itself): both are read.
// - Requests: `contents[]` of `{role, parts}`; `model` parts hold the calls made so far, `user` (or `function`/
//   `tool`) parts hold `functionResponse {name, id?, response}`, linked by `id` when the call has that id, else by
//   name to the earliest unanswered call of that name. `response.error` is the format's error channel (an honest
//   failure); `{output: X}` is the plain wrapper around what the tool returned. `tools[].functionDeclarations[]`
//   (also under `config.tools`, the SDK's request shape) are embedded contracts: `parametersJsonSchema` as given,
//   `parameters` (OpenAPI-style Schema: upper-case `OBJECT`/`STRING`, `nullable`, int64 bounds as strings)
//   translated to JSON Schema; `response`/`responseJsonSchema` is the result schema.
// - Streams: a JSON array of chunks, JSONL of chunks, or an SSE body (the engine hands each `data:` line over as a
//   JSONL line). A chunk carries whole `functionCall` parts, or, with Vertex `streamFunctionCallArguments`, one call
//   spread over chunks: `{name, willContinue: true}` opens it, `{partialArgs: [{jsonPath, stringValue |
//   numberValue | boolValue | nullValue, willContinue?}], willContinue: true}` add to it (a string value with
//   `willContinue` continues in the next fragment of the same path), and `functionCall: {}` (or a fragment without
//   `willContinue`, or `finishReason`) closes it. Assembled arguments point at the fragment that completed them.
// - `{request, response}` pairs (batch prediction lines, recorders) are read as one conversation; a Batch API job with
//   inline results (`output.inlinedResponses.inlinedResponses[] {response | error, metadata}`, in the batch, its
//   operation, or the Python SDK's `dest.inlined_responses`) is read result by result, a session each.
// - Live API (`BidiGenerateContent`) message logs, one message per line: `setup.tools` declares, `toolCall.functionCalls`
//   are calls (with ids), `toolResponse.functionResponses` answer them by id, `toolCallCancellation.ids` are calls
//   the server dropped (a failure); `serverContent` and the other frames are the conversation around them.
// - Code execution (the `codeExecution` tool): a part `{executableCode: {language, code, id?}}` is a call of
//   `code_execution` (the server's tool, as Anthropic's code execution and Responses' code_interpreter_call are calls
//   in their readers), `{codeExecutionResult: {outcome, output?, id?}}` its result, by id when both carry one, else
//   the earliest unanswered one (with none, the latest: one run may report in several result parts); an outcome
//   other than `OUTCOME_OK` (`OUTCOME_FAILED`, `OUTCOME_DEADLINE_EXCEEDED`)
//   is an honest failure. A request's `{codeExecution: {}}` tool declares it without a schema (the input is the
//   platform's).
// - Grounding (the `googleSearch`, `urlContext`, `googleMaps` tools): not calls. The API keeps no part of the content
//   for them, only the candidate's `groundingMetadata` (`webSearchQueries`, `groundingChunks`, `groundingSupports`)
//   or `urlContextMetadata`, a summary of what the server looked up to ground its text, with no call, input or
//   result of its own to check (unlike code execution, whose `executableCode` is a part).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import { numberLexeme, type Doc, type JsonPath } from '../parse/doc';
import { isPlainObject, num, str, unansweredByName, type Obj } from './util';

// ---- reading either spelling ----------------------------------------------------------------------------------

function snake(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

/** The key under which `o` holds `camel` or its snake_case twin (the REST API takes both; Python dumps write snake). */
export function keyOf(o: Obj, camel: string): string | undefined {
  if (camel in o) return camel;
  const s = snake(camel);
  return s in o ? s : undefined;
}

/** `o[camel]` or `o[snake_case]`. */
export function field(o: Obj, camel: string): unknown {
  const k = keyOf(o, camel);
  return k === undefined ? undefined : o[k];
}

function partsOf(content: unknown): { key: string; parts: unknown[] } | undefined {
  if (!isPlainObject(content)) return undefined;
  const key = keyOf(content, 'parts');
  return key !== undefined && Array.isArray(content[key]) ? { key, parts: content[key] } : undefined;
}

/** A `Content` `{role?, parts: [...]}`. */
export function isContent(v: unknown): v is Obj {
  return partsOf(v) !== undefined && (!('role' in (v as Obj)) || typeof (v as Obj).role === 'string');
}

/** The text of a content's parts (thought summaries left out), for the call's message text. */
function partsText(parts: unknown[]): string | undefined {
  const texts = parts.filter((p) => isPlainObject(p) && typeof p.text === 'string' && p.thought !== true).map((p) => (p as Obj).text as string);
  const text = texts.join('');
  return text === '' ? undefined : text;
}

// ---- schemas -----------------------------------------------------------------------------------------------

const INT64_BOUNDS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties', 'min_items', 'max_items', 'min_length', 'max_length', 'min_properties', 'max_properties']);
const SCHEMA_MAPS = new Set(['properties']);
const SCHEMA_LISTS = new Set(['anyOf', 'any_of', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_SINGLE = new Set(['items', 'additionalProperties', 'not']);

/** A Gemini `Schema` (the OpenAPI subset of `parameters`) as JSON Schema: lower-case types, `nullable` as a
 *  `null` type, int64 bounds (strings in proto JSON) as numbers, snake_case keys camel-cased. */
export function geminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchema);
  if (!isPlainObject(schema)) return schema;
  const out: Obj = {};
  for (const [rawKey, v] of Object.entries(schema)) {
    const k = rawKey.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    if (k === 'type' && typeof v === 'string') {
      const t = v.toLowerCase();
      if (t !== 'type_unspecified') out.type = t;
    } else if (k === 'nullable' || k === 'propertyOrdering') {
      // folded into `type` below / display order only
    } else if (k === 'format' && v === 'enum') {
      // an OpenAPI marker for string enums, not a JSON Schema format
    } else if (INT64_BOUNDS.has(rawKey) && typeof v === 'string' && /^\d+$/.test(v)) {
      out[k] = Number(v);
    } else if (SCHEMA_MAPS.has(k) && isPlainObject(v)) {
      const m: Obj = {};
      for (const [name, sub] of Object.entries(v)) Object.defineProperty(m, name, { value: geminiSchema(sub), enumerable: true, writable: true, configurable: true });
      out[k] = m;
    } else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) {
      out[k] = v.map(geminiSchema);
    } else if (SCHEMA_SINGLE.has(k)) {
      out[k] = geminiSchema(v);
    } else {
      out[k] = v;
    }
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.type === undefined && Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
  }
  return out;
}

/** The function declarations of a request's `tools`: name, parameters and result as JSON Schema, and the path of
 *  each below `tools`. */
export function geminiDeclarations(tools: unknown): { name: string; params: unknown; result: unknown; path: JsonPath }[] {
  const out: { name: string; params: unknown; result: unknown; path: JsonPath }[] = [];
  if (!Array.isArray(tools)) return out;
  tools.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const dk = keyOf(t, 'functionDeclarations');
    const decls = dk === undefined ? undefined : t[dk];
    if (!Array.isArray(decls)) return;
    decls.forEach((d, j) => {
      if (!isPlainObject(d) || typeof d.name !== 'string') return;
      const jsonSchema = field(d, 'parametersJsonSchema');
      const params = jsonSchema ?? (d.parameters === undefined ? { type: 'object', properties: {} } : geminiSchema(d.parameters));
      const resultJson = field(d, 'responseJsonSchema');
      const result = resultJson ?? (d.response === undefined ? undefined : geminiSchema(d.response));
      out.push({ name: d.name, params, result, path: [i, dk!, j] });
    });
  });
  return out;
}

/** The name a code execution part's call gets. */
export const CODE_EXECUTION = 'code_execution';

/** The function declarations of a request's `tools` as embedded contracts, and its `codeExecution` tool. */
export function readGeminiTools(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  for (const d of geminiDeclarations(tools)) b.tool(d.name, d.params, { doc, path: [...path, ...d.path] }, d.result);
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    const k = isPlainObject(t) ? keyOf(t, 'codeExecution') : undefined;
    if (k !== undefined) b.tool(CODE_EXECUTION, undefined, { doc, path: [...path, i, k] });
  });
}

// ---- calls and results ---------------------------------------------------------------------------------------

/** Record the call of a `{functionCall}` part whose arguments came whole. */
/** A whole `FunctionCall` as a call; `fcKey` is its key in the part at `partPath` ('' when the call itself is there:
 *  lists of FunctionCall objects, as ADK eval sets keep them). */
export function wholeCall(b: SessionBuilder, doc: Doc, partPath: JsonPath, fcKey: string, fc: Obj, turn: number, messageText?: string): void {
  if (typeof fc.name !== 'string' || fc.name === '') return;
  b.call({ name: fc.name, id: str(fc.id), at: { doc, path: partPath }, namePath: fcKey === '' ? ['name'] : [fcKey, 'name'], argsPath: fcKey === '' ? ['args'] : [fcKey, 'args'],
    args: fc.args, expect: 'object', messageText }, turn);
}

/** The part's `functionResponse` (either spelling), with its key. */
function functionResponseOf(part: unknown): { key: string; fr: Obj } | undefined {
  if (!isPlainObject(part)) return undefined;
  const key = keyOf(part, 'functionResponse');
  return key !== undefined && isPlainObject(part[key]) ? { key, fr: part[key] } : undefined;
}

/** The part's `executableCode` / `codeExecutionResult` (either spelling), with its key. */
function codePart(part: unknown, camel: 'executableCode' | 'codeExecutionResult'): { key: string; body: Obj } | undefined {
  if (!isPlainObject(part)) return undefined;
  const key = keyOf(part, camel);
  return key !== undefined && isPlainObject(part[key]) ? { key, body: part[key] } : undefined;
}

/** A code execution part as a call of `code_execution`: its arguments are the part's `{language, code}`. */
function codeCall(b: SessionBuilder, doc: Doc, partPath: JsonPath, key: string, body: Obj, turn: number, messageText?: string): void {
  b.call({ name: CODE_EXECUTION, id: str(body.id), at: { doc, path: partPath }, namePath: [key], argsPath: [key], args: body, expect: 'object', messageText }, turn);
}

/** The latest code execution of the session. */
function latestCodeCall(b: SessionBuilder): number | undefined {
  const calls = b.session.calls;
  for (let i = calls.length - 1; i >= 0; i--) if (calls[i].name === CODE_EXECUTION) return calls[i].index;
  return undefined;
}

/** A code execution result: the output, linked by id or to the earliest unanswered code execution; with none
 *  unanswered, more of the latest one's outcome (a run can report in several result parts: its output, then the
 *  error that stopped it). */
function codeResult(b: SessionBuilder, doc: Doc, partPath: JsonPath, key: string, body: Obj): void {
  const id = str(body.id);
  const link: ResponseLink = id !== undefined && id !== '' && b.session.calls.some((c) => c.id === id) ? { callId: id }
    : { callIndex: unansweredByName(b, CODE_EXECUTION) ?? latestCodeCall(b), callId: id };
  const outcome = str(body.outcome);
  const failed = outcome !== undefined && outcome !== 'OUTCOME_OK' && outcome !== 'OUTCOME_UNSPECIFIED';
  b.result({ at: { doc, path: partPath }, ...link, payload: body.output ?? body, payloadPath: 'output' in body ? [key, 'output'] : [key], transport: failed ? { isError: true } : {} });
}

/** The part's `functionCall` (either spelling), with its key. */
function functionCallOf(part: unknown): { key: string; fc: Obj } | undefined {
  if (!isPlainObject(part)) return undefined;
  const key = keyOf(part, 'functionCall');
  return key !== undefined && isPlainObject(part[key]) ? { key, fc: part[key] } : undefined;
}

export interface ResponseLink {
  callId?: string;
  callIndex?: number;
}

/** Which call a `functionResponse` answers: its id when a call has it, else the earliest unanswered call of its
 *  name (ids are optional on both sides). */
function linkOf(b: SessionBuilder, fr: Obj): ResponseLink {
  const id = str(fr.id);
  if (id !== undefined && id !== '' && b.session.calls.some((c) => c.id === id)) return { callId: id };
  const byName = typeof fr.name === 'string' ? unansweredByName(b, fr.name) : undefined;
  if (byName !== undefined) return { callIndex: byName };
  return { callId: id };
}

/** Record a `{functionResponse}` part as a result (`key` '' when the FunctionResponse itself is at `partPath`).
 *  `transport` overrides what the response itself says (Gemini CLI's own call status); otherwise a set
 *  `response.error` is the honest-failure signal. */
export function readFunctionResponse(b: SessionBuilder, doc: Doc, partPath: JsonPath, key: string, fr: Obj, link: ResponseLink = linkOf(b, fr), transport?: TransportSignals): void {
  const response = fr.response;
  let payload: unknown = response;
  let payloadPath: JsonPath = key === '' ? ['response'] : [key, 'response'];
  // `{output: X}` is the wrapper Gemini clients put around what the tool returned
  if (isPlainObject(response) && Object.keys(response).length === 1 && 'output' in response) {
    payload = response.output;
    payloadPath = key === '' ? ['response', 'output'] : [key, 'response', 'output'];
  }
  const failed = isPlainObject(response) && response.error !== undefined && response.error !== null && response.error !== false;
  b.result({ at: { doc, path: partPath }, ...link, payload, payloadPath, transport: transport ?? (failed ? { isError: true } : {}) });
}

/** The `{functionResponse}` parts of a content, as results linked by id or name. */
export function readResponseParts(b: SessionBuilder, doc: Doc, path: JsonPath, parts: unknown[], keep: (fr: Obj) => boolean = () => true): number {
  let n = 0;
  parts.forEach((p, i) => {
    const code = codePart(p, 'codeExecutionResult');
    if (code) {
      codeResult(b, doc, [...path, i], code.key, code.body);
      n++;
      return;
    }
    const r = functionResponseOf(p);
    if (!r || !keep(r.fr)) return;
    readFunctionResponse(b, doc, [...path, i], r.key, r.fr);
    n++;
  });
  return n;
}

/** The whole `{functionCall}` parts of a content as one turn's calls; returns how many. */
export function readCallParts(b: SessionBuilder, doc: Doc, path: JsonPath, parts: unknown[]): number {
  const found = parts.map((p, i) => ({ c: functionCallOf(p), code: codePart(p, 'executableCode'), i }))
    .filter((x) => x.code || (x.c && typeof x.c.fc.name === 'string' && x.c.fc.name !== ''));
  if (found.length === 0) return 0;
  const turn = b.newTurn();
  const text = partsText(parts);
  for (const { c, code, i } of found) {
    if (code) codeCall(b, doc, [...path, i], code.key, code.body, turn, text);
    else wholeCall(b, doc, [...path, i], c!.key, c!.fc, turn, text);
  }
  return found.length;
}

/** A `contents[]` conversation: model turns' calls, user turns' function responses. */
export function readContents(b: SessionBuilder, doc: Doc, path: JsonPath, contents: unknown[]): void {
  contents.forEach((c, i) => {
    const p = partsOf(c);
    if (!p) return;
    const at = [...path, i, p.key];
    const calls = readCallParts(b, doc, at, p.parts);
    const results = readResponseParts(b, doc, at, p.parts);
    // a turn that made calls waits for their responses; anything else (text, responses) ends it
    if (calls === 0 || results > 0) b.breakTurn();
  });
}

// ---- streams -----------------------------------------------------------------------------------------------

type JsonNode = { kind: 'obj'; keys: Map<string, JsonNode> } | { kind: 'arr'; items: (JsonNode | undefined)[] } | { kind: 'str'; text: string } | { kind: 'lit'; json: string };

/** A JSON Path of RFC 9535's simple form (`$.a.b[0]`, `$['a b']`) as segments; undefined when it is not one. */
export function jsonPathSegments(p: string): (string | number)[] | undefined {
  if (!p.startsWith('$')) return undefined;
  const out: (string | number)[] = [];
  let i = 1;
  while (i < p.length) {
    if (p[i] === '.') {
      let j = i + 1;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      if (j === i + 1) return undefined;
      out.push(p.slice(i + 1, j));
      i = j;
    } else if (p[i] === '[') {
      const q = p[i + 1];
      if (q === "'" || q === '"') {
        let j = i + 2;
        let name = '';
        while (j < p.length && p[j] !== q) {
          if (p[j] === '\\' && j + 1 < p.length) j++;
          name += p[j++];
        }
        if (p[j + 1] !== ']') return undefined;
        out.push(name);
        i = j + 2;
      } else {
        const j = p.indexOf(']', i);
        const seg = j < 0 ? '' : p.slice(i + 1, j);
        if (!/^\d+$/.test(seg)) return undefined;
        out.push(Number(seg));
        i = j + 1;
      }
    } else {
      return undefined;
    }
  }
  return out;
}

function container(seg: string | number): JsonNode {
  return typeof seg === 'number' ? { kind: 'arr', items: [] } : { kind: 'obj', keys: new Map() };
}

function childOf(node: JsonNode, seg: string | number): JsonNode | undefined {
  if (node.kind === 'obj' && typeof seg === 'string') return node.keys.get(seg);
  if (node.kind === 'arr' && typeof seg === 'number') return node.items[seg];
  return undefined;
}

function setChild(node: JsonNode, seg: string | number, child: JsonNode): void {
  if (node.kind === 'obj' && typeof seg === 'string') node.keys.set(seg, child);
  else if (node.kind === 'arr' && typeof seg === 'number') node.items[seg] = child;
}

function serialize(node: JsonNode | undefined): string {
  if (!node) return 'null';
  switch (node.kind) {
    case 'obj':
      return '{' + [...node.keys].map(([k, v]) => JSON.stringify(k) + ':' + serialize(v)).join(',') + '}';
    case 'arr':
      return '[' + Array.from(node.items, (v) => serialize(v)).join(',') + ']';
    case 'str':
      return JSON.stringify(node.text);
    default:
      return node.json;
  }
}

/** A call whose arguments arrive as `partialArgs` fragments. */
interface Pending {
  name: string;
  id?: string;
  at: NodeRef;
  namePath: JsonPath;
  root: JsonNode;
  /** Paths whose string value continues in the next fragment. */
  open: Set<string>;
  fragments: number;
  lastAt?: NodeRef;
  whole?: NodeRef & { value: unknown };
  messageText?: string;
}

/** Assembles the calls of one stream of chunks (or of one response) into a session. */
export class GeminiStream {
  private readonly pending = new Map<string, Pending>();
  private turn?: number;
  private turnKey?: string;
  private response?: string;

  constructor(private readonly b: SessionBuilder) {}

  chunk(doc: Doc, path: JsonPath, v: Obj): void {
    const ck = keyOf(v, 'candidates');
    const candidates = ck === undefined ? undefined : v[ck];
    if (!Array.isArray(candidates)) return;
    // chunks of one response share its id (a chunk without one continues the response before it)
    const response = str(field(v, 'responseId')) ?? this.response ?? '';
    this.response = response;
    candidates.forEach((c, ci) => {
      if (!isPlainObject(c)) return;
      const key = String(num(c.index) ?? ci);
      const p = partsOf(c.content);
      if (p) {
        const base = [...path, ck!, ci, 'content', p.key];
        const text = partsText(p.parts);
        p.parts.forEach((part, pi) => {
          const fc = functionCallOf(part);
          if (fc) this.functionCall(doc, [...base, pi], fc.key, fc.fc, key, text);
          const code = codePart(part, 'executableCode');
          if (code) codeCall(this.b, doc, [...base, pi], code.key, code.body, this.turnFor(key), text);
          const done = codePart(part, 'codeExecutionResult');
          if (done) codeResult(this.b, doc, [...base, pi], done.key, done.body);
        });
      }
      if (typeof field(c, 'finishReason') === 'string') this.close(key);
    });
  }

  flush(): void {
    for (const key of [...this.pending.keys()]) this.close(key);
  }

  /** The turn of a call of candidate `candidate`: one per response and candidate. */
  private turnFor(candidate: string): number {
    const key = `${this.response ?? ''}|${candidate}`;
    if (this.turn === undefined || key !== this.turnKey) {
      this.turn = this.b.newTurn();
      this.turnKey = key;
    }
    return this.turn;
  }

  private functionCall(doc: Doc, partPath: JsonPath, fcKey: string, fc: Obj, key: string, text?: string): void {
    const partial = field(fc, 'partialArgs');
    const more = field(fc, 'willContinue') === true;
    const name = typeof fc.name === 'string' && fc.name !== '' ? fc.name : undefined;
    if (name !== undefined) {
      if (!more && partial === undefined) {
        this.close(key);
        wholeCall(this.b, doc, partPath, fcKey, fc, this.turnFor(key), text);
        return;
      }
      this.close(key); // a new call begins: the one before it ended without its closing part
      this.pending.set(key, { name, id: str(fc.id), at: { doc, path: partPath }, namePath: [fcKey, 'name'], root: { kind: 'obj', keys: new Map() },
        open: new Set(), fragments: 0, messageText: text,
        whole: 'args' in fc ? { doc, path: [...partPath, fcKey, 'args'], value: fc.args } : undefined });
    }
    const p = this.pending.get(key);
    if (!p) return;
    if (Array.isArray(partial)) {
      const pk = keyOf(fc, 'partialArgs')!;
      partial.forEach((arg, ai) => this.fragment(p, doc, [...partPath, fcKey, pk, ai], arg));
    }
    if (!more) this.close(key);
  }

  private fragment(p: Pending, doc: Doc, at: JsonPath, arg: unknown): void {
    if (!isPlainObject(arg)) return;
    const jp = str(field(arg, 'jsonPath'));
    const segs = jp === undefined ? undefined : jsonPathSegments(jp);
    if (!segs || segs.length === 0) return;
    let node = p.root;
    for (let i = 0; i < segs.length - 1; i++) {
      let next = childOf(node, segs[i]);
      if (!next || (next.kind !== 'obj' && next.kind !== 'arr') || (typeof segs[i + 1] === 'number') !== (next.kind === 'arr')) {
        next = container(segs[i + 1]);
        setChild(node, segs[i], next);
      }
      node = next;
    }
    const last = segs[segs.length - 1];
    if (node.kind !== (typeof last === 'number' ? 'arr' : 'obj')) return;
    const continues = field(arg, 'willContinue') === true;
    let leaf: JsonNode | undefined;
    const sk = keyOf(arg, 'stringValue');
    if (sk !== undefined && typeof arg[sk] === 'string') {
      const before = childOf(node, last);
      const text = arg[sk];
      leaf = p.open.has(jp!) && before?.kind === 'str' ? { kind: 'str', text: before.text + text } : { kind: 'str', text };
    } else {
      const nk = keyOf(arg, 'numberValue');
      const bk = keyOf(arg, 'boolValue');
      if (nk !== undefined && typeof arg[nk] === 'number') leaf = { kind: 'lit', json: numberLexeme(doc, [...at, nk], arg[nk]) };
      else if (bk !== undefined && typeof arg[bk] === 'boolean') leaf = { kind: 'lit', json: String(arg[bk]) };
      else if (keyOf(arg, 'nullValue') !== undefined) leaf = { kind: 'lit', json: 'null' };
    }
    if (!leaf) return;
    setChild(node, last, leaf);
    if (continues) p.open.add(jp!);
    else p.open.delete(jp!);
    p.fragments++;
    p.lastAt = { doc, path: at };
  }

  private close(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    const turn = this.turnFor(key);
    if (p.fragments === 0) {
      this.b.call({ name: p.name, id: p.id, at: p.at, namePath: p.namePath, argsPath: [], argsAt: p.whole ?? p.at,
        args: p.whole?.value, expect: 'object', messageText: p.messageText }, turn);
      return;
    }
    this.b.call({ name: p.name, id: p.id, at: p.at, namePath: p.namePath, argsPath: [], argsAt: p.lastAt,
      args: serialize(p.root), expect: 'any', assembled: true, messageText: p.messageText }, turn);
  }
}

// ---- documents -----------------------------------------------------------------------------------------------

function isResponse(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  const c = field(v, 'candidates');
  return Array.isArray(c) && c.length > 0 && c.every((x) => isPlainObject(x) && (keyOf(x, 'content') !== undefined || keyOf(x, 'finishReason') !== undefined));
}

/** A chunk of `streamGenerateContent` (the last one may hold usage only). */
function isChunkLike(v: unknown): v is Obj {
  return isResponse(v) || (isPlainObject(v) && keyOf(v, 'usageMetadata') !== undefined && (keyOf(v, 'responseId') !== undefined || keyOf(v, 'modelVersion') !== undefined));
}

function contentsOf(v: Obj): unknown[] | undefined {
  const c = v.contents;
  return Array.isArray(c) && c.length > 0 && c.every(isContent) ? c : undefined;
}

function isRequest(v: unknown): v is Obj {
  return isPlainObject(v) && contentsOf(v) !== undefined;
}

/** A batch line or a recorder's entry `{request?, response?}` whose halves are Gemini's (a half of another API
 *  leaves the record to the reader of that API). */
function isPair(v: unknown): v is Obj {
  if (!isPlainObject(v) || 'contents' in v || 'candidates' in v || !(isRequest(v.request) || isResponse(v.response))) return false;
  const other = (half: unknown, ok: (x: unknown) => boolean) => isPlainObject(half) && Object.keys(half).length > 0 && !ok(half);
  return !other(v.request, isRequest) && !other(v.response, isResponse);
}

function readRequest(b: SessionBuilder, doc: Doc, path: JsonPath, v: Obj): void {
  readGeminiTools(b, doc, [...path, 'tools'], v.tools);
  if (isPlainObject(v.config)) readGeminiTools(b, doc, [...path, 'config', 'tools'], v.config.tools);
  const contents = contentsOf(v);
  if (contents) readContents(b, doc, [...path, 'contents'], contents);
}

function readResponse(b: SessionBuilder, doc: Doc, path: JsonPath, v: Obj): void {
  const hk = keyOf(v, 'automaticFunctionCallingHistory');
  const history = hk === undefined ? undefined : v[hk];
  if (Array.isArray(history)) readContents(b, doc, [...path, hk!], history);
  const s = new GeminiStream(b);
  s.chunk(doc, path, v);
  s.flush();
}

// ---- Live API ---------------------------------------------------------------------------------------------------

/** A Live API (`BidiGenerateContent`) message a log keeps, camelCase or snake_case: the client's `setup` (its
 *  `tools`), the server's `toolCall` (`functionCalls[]` with ids), the client's `toolResponse` (`functionResponses[]`
 *  by id), `toolCallCancellation` (`ids`: calls the server dropped), and the frames around them. */
const LIVE_FRAMES = ['setup', 'setupComplete', 'clientContent', 'realtimeInput', 'serverContent', 'toolCall', 'toolResponse',
  'toolCallCancellation', 'goAway', 'sessionResumptionUpdate'];

function liveKey(v: unknown): { kind: string; key: string; body: Obj } | undefined {
  if (!isPlainObject(v)) return undefined;
  for (const kind of LIVE_FRAMES) {
    const key = keyOf(v, kind);
    if (key !== undefined && isPlainObject(v[key])) return { kind, key, body: v[key] };
  }
  return undefined;
}

/** A Live message that is one beyond doubt: tool traffic, or a setup that declares the session's model. */
function isTellingLive(v: unknown): boolean {
  const m = liveKey(v);
  if (!m) return false;
  if (m.kind === 'toolCall') return Array.isArray(field(m.body, 'functionCalls'));
  if (m.kind === 'toolResponse') return Array.isArray(field(m.body, 'functionResponses'));
  return m.kind === 'setup' && typeof m.body.model === 'string';
}

function readLive(b: SessionBuilder, doc: Doc, v: Obj): boolean {
  const m = liveKey(v);
  if (!m) return false;
  const list = (camel: string): { key: string; items: unknown[] } | undefined => {
    const k = keyOf(m.body, camel);
    return k !== undefined && Array.isArray(m.body[k]) ? { key: k, items: m.body[k] } : undefined;
  };
  if (m.kind === 'setup') readGeminiTools(b, doc, [m.key, 'tools'], m.body.tools);
  else if (m.kind === 'toolCall') {
    const calls = list('functionCalls');
    if (!calls) return true;
    const turn = b.newTurn();
    calls.items.forEach((fc, i) => isPlainObject(fc) && wholeCall(b, doc, [m.key, calls.key, i], '', fc, turn));
  } else if (m.kind === 'toolResponse') {
    const responses = list('functionResponses');
    responses?.items.forEach((fr, i) => isPlainObject(fr) && readFunctionResponse(b, doc, [m.key, responses.key, i], '', fr));
  } else if (m.kind === 'toolCallCancellation') {
    // the server dropped these calls (the user interrupted): they got no answer, an honest failure
    const ids = list('ids');
    ids?.items.forEach((id, i) => {
      if (typeof id === 'string') b.result({ at: { doc, path: [m.key, ids.key, i] }, callId: id, payload: id, payloadPath: [], transport: { isError: true } });
    });
  } else b.breakTurn();
  return true;
}

/** A batch's inline results (Batch API `GenerateContentBatch.output.inlinedResponses.inlinedResponses[]`, each
 *  `{response | error, metadata}`): where the batch is kept — itself, an operation's `metadata` or `response`, or a
 *  Python SDK dump's `dest.inlined_responses` — with the path of the list. */
function inlinedResponses(v: unknown): { list: unknown[]; path: JsonPath } | undefined {
  if (!isPlainObject(v)) return undefined;
  for (const [key, outputKey] of [[undefined, 'output'], ['metadata', 'output'], ['response', undefined], [undefined, 'dest']] as const) {
    const holder = key === undefined ? v : v[key];
    const out = isPlainObject(holder) && outputKey !== undefined ? holder[outputKey] : holder;
    if (!isPlainObject(out)) continue;
    const outer = keyOf(out, 'inlinedResponses');
    const inner = outer !== undefined ? out[outer] : undefined;
    const path: JsonPath = [...(key === undefined ? [] : [key]), ...(outputKey === undefined ? [] : [outputKey])];
    // REST nests the list (`inlinedResponses.inlinedResponses`); the SDK's `dest.inlined_responses` is the list
    if (Array.isArray(inner)) return { list: inner, path: [...path, outer!] };
    const innerKey = isPlainObject(inner) ? keyOf(inner, 'inlinedResponses') : undefined;
    if (innerKey !== undefined && Array.isArray((inner as Obj)[innerKey])) return { list: (inner as Obj)[innerKey] as unknown[], path: [...path, outer!, innerKey] };
  }
  return undefined;
}

function isInlinedBatch(v: unknown): boolean {
  return inlinedResponses(v)?.list.some((r) => isPlainObject(r) && isResponse(r.response)) ?? false;
}

export const gemini: FormatAdapter = {
  id: 'gemini',
  document: {
    claims(v) {
      if (Array.isArray(v)) return v.length > 0 && v.every(isChunkLike) && v.some(isResponse);
      return isResponse(v) || isRequest(v) || isPair(v) || isInlinedBatch(v);
    },
    read(doc, emit) {
      const v = doc.value;
      const batch = isInlinedBatch(v) ? inlinedResponses(v) : undefined;
      if (batch) {
        // each result answers a request of its own: a session each
        batch.list.forEach((r, i) => {
          if (isPlainObject(r) && isResponse(r.response)) singleSession((b) => readResponse(b, doc, [...batch.path, i, 'response'], r.response as Obj), emit);
        });
        return;
      }
      singleSession((b) => {
        if (Array.isArray(v)) {
          const s = new GeminiStream(b);
          v.forEach((c, i) => isPlainObject(c) && s.chunk(doc, [i], c));
          s.flush();
        } else if (isPair(v)) {
          if (isRequest(v.request)) readRequest(b, doc, ['request'], v.request);
          if (isResponse(v.response)) readResponse(b, doc, ['response'], v.response);
        } else if (isRequest(v)) {
          readRequest(b, doc, [], v);
        } else if (isPlainObject(v)) {
          readResponse(b, doc, [], v);
        }
      }, emit);
    },
  },
  lines: {
    // Each chunk of a stream is one line (JSONL, or the `data:` lines of an SSE body): read together, so that a
    // call streamed over several chunks is one call.
    claims: (v) => isResponse(v) || isTellingLive(v),
    accepts: (v) => isChunkLike(v) || liveKey(v) !== undefined,
    open({ builder }) {
      const s = new GeminiStream(builder);
      return {
        read: (doc) => {
          if (!readLive(builder, doc, doc.value as Obj)) s.chunk(doc, [], doc.value as Obj);
        },
        finish: () => s.flush(),
      };
    },
  },
};
