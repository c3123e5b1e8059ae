// Tool calls, results and definitions that chat-template training data writes inside message text, and the one
// home of turning them into calls, results and definitions (read by `sharegpt.ts` and `glaive.ts`):
// - Hermes / Qwen (ChatML): definitions in the system text between `<tools>` and `</tools>` (a JSON list, or one
//   definition a line; Hermes' own dataset writes them as Python literals), each call a `<tool_call>{"name",
//   "arguments"}</tool_call>` block in an assistant turn (a cut-off last block has no closing tag), each result a
//   `<tool_response>…</tool_response>` block (`{"name", "content"}`, or Hermes Agent's `{"tool_call_id", "name",
//   "content"}`) in the turn that follows, in the order of the calls.
// - Glaive: `<functioncall> {"name": …, "arguments": '{…}'}` (the arguments JSON in single quotes), its result the
//   text after `FUNCTION RESPONSE:`; definitions are the JSON objects of the system text.
// - A definition is `{name, parameters}` or `{type: "function", function: {name, parameters}}`; parameters in
//   Python's type names (`dict`, `float`: ToolACE, BFCL-style) are mapped to JSON Schema.
// Values are located in the text they sit in (`text-values.ts`), so a finding inside a call's arguments points at
// its characters in the file.
import { embeddedDoc, type Doc, type JsonPath } from '../parse/doc';
import type { SessionBuilder } from './builder';
import { bfclSchema } from './bfcl';
import { docstringType } from './python-types';
import { firstValue, valueAt, valuesIn, type TextValue } from './text-values';
import { isPlainObject, str, type Obj } from './util';

/** A call object's name and where its arguments are: `{name, arguments}` (or `parameters`, Llama's spelling). */
export function callShape(v: unknown): { name: string; argsKey: string } | undefined {
  if (!isPlainObject(v) || typeof v.name !== 'string' || v.name === '') return undefined;
  if ('arguments' in v) return { name: v.name, argsKey: 'arguments' };
  if ('parameters' in v) return { name: v.name, argsKey: 'parameters' };
  return { name: v.name, argsKey: 'arguments' };
}

/** The call objects a value holds: itself, or each element of a list of them. */
export function callPaths(v: unknown): JsonPath[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => (callShape(x) ? [[i]] : []));
  return callShape(v) ? [[]] : [];
}

/** Write the calls `value` (at `path` of `doc`) holds as calls of `turn`; their indices. */
export function writeCalls(b: SessionBuilder, doc: Doc, path: JsonPath, value: unknown, turn: number): number[] {
  const out: number[] = [];
  for (const sub of callPaths(value)) {
    const obj = (sub.length ? (value as unknown[])[sub[0] as number] : value) as Obj;
    const shape = callShape(obj)!;
    const id = str(obj.id) ?? str(obj.tool_call_id);
    const call = b.call({ name: shape.name, id, at: { doc, path: [...path, ...sub] }, namePath: ['name'], argsPath: [shape.argsKey], args: obj[shape.argsKey], expect: 'any' }, turn);
    out.push(call.index);
  }
  return out;
}

/** A value found in the string at `path` of `doc`, as a Doc of its own whose anchors point into that string. */
export function valueDoc(doc: Doc, path: JsonPath, text: string, v: TextValue): Doc {
  return embeddedDoc(doc, path, text, v.start, v.json, v.value);
}

const TOOL_CALL_OPEN = '<tool_call>';
const TOOL_CALL_CLOSE = '</tool_call>';
const FUNCTION_CALL = '<functioncall>';

/** The values of the `<tool_call>` blocks of a text (a block cut off at the end of the text has no closing tag)
 *  and of Glaive's `<functioncall>` markers, in order. A block that holds no value is left out. */
export function callBlocks(text: string): TextValue[] {
  const out: TextValue[] = [];
  for (let i = text.indexOf(TOOL_CALL_OPEN); i >= 0; i = text.indexOf(TOOL_CALL_OPEN, i + 1)) {
    const from = i + TOOL_CALL_OPEN.length;
    const close = text.indexOf(TOOL_CALL_CLOSE, from);
    const next = text.indexOf(TOOL_CALL_OPEN, from);
    const to = close >= 0 && (next < 0 || close < next) ? close : next >= 0 ? next : text.length;
    const v = firstValue(text, from, to);
    if (v && callPaths(v.value).length > 0) out.push(v);
  }
  for (let i = text.indexOf(FUNCTION_CALL); i >= 0; i = text.indexOf(FUNCTION_CALL, i + 1)) {
    const from = i + FUNCTION_CALL.length;
    const lead = /^\s*/.exec(text.slice(from, from + 200))![0].length;
    const v = text[from + lead] === '{' || text[from + lead] === '[' ? valueAt(text, from + lead) : undefined;
    if (v && callPaths(v.value).length > 0) out.push(v);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether a text holds a written call of either dialect. */
export function holdsCallTags(text: string): boolean {
  return text.includes(TOOL_CALL_OPEN) || text.includes(FUNCTION_CALL);
}

export interface ResponseBlock {
  /** The block's body (trimmed) and where it starts in the text. */
  body: string;
  start: number;
  value?: TextValue;
}

const RESPONSE_OPEN = '<tool_response>';
const RESPONSE_CLOSE = '</tool_response>';

/** The `<tool_response>` blocks of a text, in order. */
export function responseBlocks(text: string): ResponseBlock[] {
  const out: ResponseBlock[] = [];
  for (let i = text.indexOf(RESPONSE_OPEN); i >= 0; i = text.indexOf(RESPONSE_OPEN, i + 1)) {
    const from = i + RESPONSE_OPEN.length;
    const close = text.indexOf(RESPONSE_CLOSE, from);
    const to = close >= 0 ? close : text.length;
    const raw = text.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    out.push({ body, start: from + lead, value: jsonBody(text, from + lead, body) });
  }
  return out;
}

/** The JSON value a body of text is, whole (not JSON found somewhere inside prose). */
export function jsonBody(text: string, start: number, body: string): TextValue | undefined {
  if (!body.startsWith('{') && !body.startsWith('[')) return undefined;
  const v = valueAt(text, start);
  return v && v.end - v.start === body.length ? v : undefined;
}

/** ToolBench's observation (RapidAPI's answer as its server returns it): `{error, response}`, `error` empty when
 *  the call succeeded. Any other body says nothing of success. */
export function observationTransport(v: unknown): { isError?: boolean } {
  if (!isPlainObject(v) || typeof v.error !== 'string' || !('response' in v) || Object.keys(v).length !== 2) return {};
  return { isError: v.error !== '' };
}

/** Write one result answering `callIndex`: a JSON body's `content` (Hermes' `{name, content}`) is the payload. */
export function writeResult(b: SessionBuilder, doc: Doc, path: JsonPath, text: string | undefined, block: { body: string; value?: TextValue } | undefined, callIndex: number | undefined): void {
  if (text !== undefined && block?.value) {
    const inner = valueDoc(doc, path, text, block.value);
    const v = block.value.value;
    const own = isPlainObject(v) && 'content' in v && typeof v.name === 'string';
    b.result({ at: { doc: inner, path: [] }, callIndex, payload: own ? v.content : v, payloadPath: own ? ['content'] : [], transport: observationTransport(v) });
    return;
  }
  b.result({ at: { doc, path }, callIndex, payload: block ? block.body : text, payloadPath: [] });
}

/** The tool name a result body names (`{"name": …}`), if it names one. */
export function resultName(block: { value?: TextValue } | undefined): string | undefined {
  const v = block?.value?.value;
  return isPlainObject(v) ? str(v.name) : undefined;
}

/** A definition's name and parameters: `{name, parameters}` or `{type: "function", function: {...}}`. */
function definitionOf(v: unknown): { fn: Obj; sub: JsonPath } | undefined {
  if (!isPlainObject(v)) return undefined;
  if (isPlainObject(v.function) && typeof v.function.name === 'string') return { fn: v.function, sub: ['function'] };
  if (typeof v.name === 'string' && v.name !== '' && ('parameters' in v || 'description' in v)) return { fn: v, sub: [] };
  return undefined;
}

/** xLAM's parameters, `{param: {type: "str", description, default}}`, as JSON Schema; JSON Schema is kept. */
export function parametersSchema(p: unknown): unknown {
  if (!isPlainObject(p)) return p;
  if (typeof p.type === 'string' || isPlainObject(p.properties)) return bfclSchema(p);
  const entries = Object.entries(p);
  if (entries.length === 0) return p; // `{}`: nothing said of the arguments
  if (!entries.every(([, v]) => isPlainObject(v) && typeof v.type === 'string')) return p;
  const properties: Obj = {};
  for (const [name, v] of entries) {
    const t = docstringType(String((v as Obj).type));
    properties[name] = t === undefined ? {} : { type: t };
  }
  return { type: 'object', properties };
}

/** Write the definitions a value holds (one, or a list of them), at `path` of `doc`. */
export function writeDefinitions(b: SessionBuilder, doc: Doc, path: JsonPath, value: unknown): void {
  const list = Array.isArray(value) ? value : [value];
  list.forEach((d, i) => {
    const def = definitionOf(d);
    if (!def || typeof def.fn.name !== 'string') return;
    const at = Array.isArray(value) ? [...path, i] : path;
    b.tool(def.fn.name, parametersSchema(def.fn.parameters ?? {}), { doc, path: at });
  });
}

const TOOLS_OPEN = '<tools>';
const TOOLS_CLOSE = '</tools>';

/** Definitions written in a system text: inside its `<tools>…</tools>` blocks when it has them (the sentence that
 *  names the tags, "within <tools> </tools> XML tags", is a block with nothing in it), else the JSON values of the
 *  whole text (Glaive's and ToolACE's prompts list them after a sentence); only values shaped as definitions. */
export function writeTextDefinitions(b: SessionBuilder, doc: Doc, path: JsonPath, text: string): void {
  const ranges: [number, number][] = [];
  for (let open = text.indexOf(TOOLS_OPEN); open >= 0; open = text.indexOf(TOOLS_OPEN, open + 1)) {
    const from = open + TOOLS_OPEN.length;
    const close = text.indexOf(TOOLS_CLOSE, from);
    ranges.push([from, close >= 0 ? close : text.length]);
    if (close < 0) break;
  }
  if (ranges.length === 0) ranges.push([0, text.length]);
  for (const [from, to] of ranges) for (const v of valuesIn(text, from, to)) writeDefinitions(b, valueDoc(doc, path, text, v), [], v.value);
}
