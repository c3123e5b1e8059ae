// AWS Bedrock Converse API (`converse`, `converse-stream`), in the shapes traces keep it:
// - a request `{modelId?, messages: [{role, content: [block]}], toolConfig?, system?}` (boto3 keyword dumps too);
//   content blocks are single-key objects without `type`: `{text}`, `{toolUse: {toolUseId, name, input}}`,
//   `{toolResult: {toolUseId, content: [{text} | {json} | ...], status: 'success' | 'error'}}`, `{image}`, ...;
//   `toolConfig.tools[].toolSpec {name, inputSchema: {json}}` are the tool definitions (a `systemTool {name}` is a
//   server tool with no schema of its own: its input is the server's business, so every input is allowed);
// - a response `{output: {message}, stopReason, usage?, metrics?, ResponseMetadata?}`; a server tool (Nova
//   grounding) puts its call and its `toolResult` in the same assistant message;
// - ConverseStream events, one decoded event per line or a JSON array: `messageStart`, `contentBlockStart
//   {start: {toolUse: {toolUseId, name}}}`, `contentBlockDelta {delta: {toolUse: {input: '<fragment>'}}}` (the
//   fragments are concatenated; a lone "" is a call without arguments, `{}`, not an encoding fault),
//   `contentBlockStop`, `messageStop {stopReason}`, `metadata` (before or after messageStop); a server tool's
//   result streams in a block of its own (`start: {toolResult: {toolUseId, status}}`, `delta: {toolResult: [{json}
//   | {text}]}`), the result of that call once the block stops. Also read: the
//   payload without its event key (`{contentBlockIndex, start}`, as some SDK logs print it) and `{event: {...}}`;
// - a nock recording of bedrock-runtime calls (see nock.ts): each request body and response of the recording,
//   in one session. Each body is read on its own and the bodies merged as one conversation, each echo (what a later
//   request repeats) read once (recording.ts `mergeEchoes`). InvokeModel recordings of Anthropic models
//   (`anthropic_version` bodies, Messages responses) are read by the Anthropic reader's helpers.
// - a batch inference record (the output JSONL of a Bedrock batch job, one record per line): `{recordId, modelInput,
//   modelOutput}` (or `error` instead of the output), the request and its answer in any of the shapes above: one
//   conversation, so the tools the input declares apply to the calls of the output; so is a record
//   `{request, response}` of a Converse request and its response (exchange.ts).
// - a model invocation log record (Bedrock's model invocation logging, to CloudWatch Logs or S3, one JSON record
//   per line or pretty-printed): `{schemaType: 'ModelInvocationLog', operation, modelId, input: {inputBodyJson},
//   output: {outputBodyJson}, errorCode?}`, the body the model got and the one it gave back (a Converse request
//   and response; for ConverseStream the response whole or its events; an Anthropic InvokeModel body and reply, or
//   the reply's stream events), either body also as JSON text; a body too large for the record is only named
//   (`inputBodyS3Path`, `outputBodyS3Path`), so that half is not read. One conversation per record, like a batch
//   record: the tools of the input apply to the calls of the output.
// - a bare list of Converse messages (Strands Agents' `agent.messages`), read as a request's messages.
// A `toolResult` status 'error' is the result's `isError`. A binary event-stream body nock kept as hex is read as
// its events (nock.ts): ConverseStream events, or the Anthropic stream events of InvokeModelWithResponseStream.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { readAnthropicMessage, readAnthropicTools } from './anthropic';
import { lonePayload } from './lone-block';
import { isNockRecording, nockExchanges } from './nock';
import { mergeEchoes, type RecordedPart } from './recording';
import { EventStream, StreamAssembler, isAnthropicEvent } from './stream';
import { exchangeParts, isExchange } from './exchange';
import type { Session } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, jsonIn, jsonValue, str, type Located, type Obj } from './util';

const BLOCK_KEYS = new Set(['text', 'image', 'document', 'video', 'toolUse', 'toolResult', 'guardContent', 'cachePoint',
  'reasoningContent', 'citationsContent', 'searchResult']);

function isBlock(v: unknown): v is Obj {
  return isPlainObject(v) && !('type' in v) && Object.keys(v).some((k) => BLOCK_KEYS.has(k));
}

export function isConverseMessage(v: unknown): v is Obj & { content: unknown[] } {
  return isPlainObject(v) && (v.role === 'user' || v.role === 'assistant') && Array.isArray(v.content) && v.content.every(isBlock);
}

function isRequest(v: unknown): v is Obj & { messages: (Obj & { content: unknown[] })[] } {
  return isPlainObject(v) && Array.isArray(v.messages) && v.messages.length > 0 && v.messages.every(isConverseMessage);
}

/** A bare list of Converse messages with tool traffic: what Strands Agents' `agent.messages` holds, and what
 *  scripts that keep the `messages` they send write. */
function isMessageList(v: unknown): v is (Obj & { content: unknown[] })[] {
  return Array.isArray(v) && v.length > 0 && v.every(isConverseMessage)
    && v.some((m) => m.content.some((c) => isPlainObject(c) && (isPlainObject(c.toolUse) || isPlainObject(c.toolResult))));
}

/** A request that is Converse beyond doubt: its content blocks are Converse's (no `type`, named by their key;
 *  Chat parts always have a `type`), or it carries Converse tool definitions. */
function isConverseRequest(v: unknown): boolean {
  if (!isRequest(v)) return false;
  const config = isPlainObject(v.toolConfig) ? v.toolConfig : undefined;
  return v.messages.some((m) => m.content.length > 0) || Array.isArray(config?.tools);
}

function isResponse(v: unknown): v is Obj & { output: { message: Obj & { content: unknown[] } } } {
  return isPlainObject(v) && isPlainObject(v.output) && isConverseMessage(v.output.message) && v.output.message.role === 'assistant'
    && ('stopReason' in v || 'usage' in v || 'metrics' in v || 'ResponseMetadata' in v);
}

// ---- stream events

const EVENTS = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);

interface StreamEvent {
  kind: string;
  body: Obj;
  /** Where the event's body is, below the line or array element. */
  path: JsonPath;
  /** The event names itself (an event key), rather than being recognised by its payload's keys. */
  named: boolean;
}

function onlyKeys(o: Obj, keys: readonly string[]): boolean {
  return Object.keys(o).every((k) => keys.includes(k) || k === 'p'); // `p` pads every event on the wire
}

function eventOf(v: unknown): StreamEvent | undefined {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length === 1 && EVENTS.has(keys[0]) && isPlainObject(v[keys[0]])) return { kind: keys[0], body: v[keys[0]] as Obj, path: [keys[0]], named: true };
  if (keys.length === 1 && keys[0] === 'event') {
    const inner = eventOf(v.event);
    return inner?.named ? { ...inner, path: ['event', ...inner.path] } : undefined;
  }
  // the payload alone, without its event key
  if (typeof v.contentBlockIndex === 'number') {
    if (isPlainObject(v.start) && onlyKeys(v, ['contentBlockIndex', 'start'])) return { kind: 'contentBlockStart', body: v, path: [], named: false };
    if (isPlainObject(v.delta) && onlyKeys(v, ['contentBlockIndex', 'delta'])) return { kind: 'contentBlockDelta', body: v, path: [], named: false };
    if (onlyKeys(v, ['contentBlockIndex'])) return { kind: 'contentBlockStop', body: v, path: [], named: false };
    return undefined;
  }
  if (v.role === 'assistant' && onlyKeys(v, ['role'])) return { kind: 'messageStart', body: v, path: [], named: false };
  if (typeof v.stopReason === 'string' && onlyKeys(v, ['stopReason', 'additionalModelResponseFields'])) return { kind: 'messageStop', body: v, path: [], named: false };
  return undefined;
}

function toolUseIn(e: StreamEvent): Obj | undefined {
  const part = e.kind === 'contentBlockStart' ? e.body.start : e.kind === 'contentBlockDelta' ? e.body.delta : undefined;
  return isPlainObject(part) && isPlainObject(part.toolUse) ? part.toolUse : undefined;
}

/** An event that is ConverseStream beyond doubt: named by its event key (metadata only with its usage or
 *  metrics), or a bare payload that carries a tool use. */
function isTellingEvent(v: unknown): boolean {
  const e = eventOf(v);
  if (!e) return false;
  if (e.kind === 'metadata') return isPlainObject(e.body.usage) || isPlainObject(e.body.metrics);
  return e.named || toolUseIn(e) !== undefined;
}

function isEventArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every((e) => eventOf(e) !== undefined) && v.some(isTellingEvent);
}

/** A server tool's result streamed as a block of its own (`start: {toolResult: {toolUseId, status}}`, then
 *  `delta: {toolResult: [{json} | {text}]}`), until its block stops. */
interface StreamedResult {
  id?: string;
  status?: string;
  at: NodeRef;
  deltas: Located<unknown[]>[];
}

/** One stream's events: calls grow per message and content block index, a message's calls are one turn; a server
 *  tool's result (Nova's code interpreter, web grounding) streams in a block of its own. */
class ConverseStream extends EventStream {
  private message = 0;
  private readonly results = new Map<string, StreamedResult>();

  event(doc: Doc, path: JsonPath, v: unknown): void {
    const e = eventOf(v);
    if (!e) return;
    const at = [...path, ...e.path];
    const key = `${this.message}|${typeof e.body.contentBlockIndex === 'number' ? e.body.contentBlockIndex : -1}`;
    const use = toolUseIn(e);
    switch (e.kind) {
      case 'messageStart':
      case 'messageStop':
        this.endMessage();
        return;
      case 'contentBlockStart': {
        const start = isPlainObject(e.body.start) && isPlainObject(e.body.start.toolResult) ? e.body.start.toolResult : undefined;
        if (start) this.results.set(key, { id: str(start.toolUseId), status: str(start.status), at: { doc, path: [...at, 'start', 'toolResult'] }, deltas: [] });
        if (use && typeof use.name === 'string') {
          const p = this.calls.start(key, ['name']);
          p.name = use.name;
          p.id = str(use.toolUseId);
          p.nameAt = { doc, path: [...at, 'start', 'toolUse'] };
        }
        return;
      }
      case 'contentBlockDelta': {
        const delta = isPlainObject(e.body.delta) ? e.body.delta.toolResult : undefined;
        const streamed = this.results.get(key);
        if (streamed && Array.isArray(delta)) streamed.deltas.push({ doc, path: [...at, 'delta', 'toolResult'], value: delta });
        const p = this.calls.get(key);
        if (!p || !use) return;
        const argsAt = { doc, path: [...at, 'delta', 'toolUse', 'input'] };
        if (typeof use.input === 'string') this.calls.fragment(p, use.input, argsAt);
        else if (use.input !== undefined) p.whole = { value: use.input, at: argsAt }; // a logger that decoded the input
        return;
      }
      case 'contentBlockStop':
        this.calls.complete(key, () => this.turnNow());
        this.endResult(key);
        return;
      default:
    }
  }

  finish(): void {
    this.endMessage();
  }

  private turnNow(): number {
    return (this.turn ??= this.b.newTurn());
  }

  /** A streamed result whose block ended (or whose message did): its one delta's content, or every delta's. */
  private endResult(key: string): void {
    const r = this.results.get(key);
    if (!r) return;
    this.results.delete(key);
    const transport = r.status === undefined ? {} : { isError: r.status === 'error' };
    const [first] = r.deltas;
    if (r.deltas.length === 1) {
      const payload = lonePayload(first.value, ['json', 'text']);
      this.b.result({ at: first, callId: r.id, payload: payload.value, payloadPath: payload.path, transport });
    } else {
      this.b.result({ at: first ?? r.at, callId: r.id, payload: first ? r.deltas.flatMap((d) => d.value) : undefined, transport });
    }
  }

  private endMessage(): void {
    for (const key of [...this.results.keys()]) this.endResult(key);
    for (const key of this.calls.keys()) this.calls.complete(key, () => this.turnNow());
    this.message += 1;
    this.turn = undefined;
  }
}

// ---- messages

export function readMessage(b: SessionBuilder, doc: Doc, path: JsonPath, msg: Obj & { content: unknown[] }): void {
  const text = msg.content.filter((c) => isPlainObject(c) && typeof c.text === 'string').map((c) => (c as Obj).text as string).join('\n');
  let turn: number | undefined;
  msg.content.forEach((block, i) => {
    if (!isPlainObject(block)) return;
    const use = block.toolUse;
    if (isPlainObject(use) && typeof use.name === 'string') {
      turn ??= b.newTurn();
      b.call({ name: use.name, id: str(use.toolUseId), at: { doc, path: [...path, 'content', i, 'toolUse'] }, namePath: ['name'],
        argsPath: ['input'], args: use.input, expect: 'object', messageText: text || undefined }, turn);
      return;
    }
    const res = block.toolResult;
    if (!isPlainObject(res)) return;
    const payload = lonePayload(res.content, ['json', 'text']);
    const status = str(res.status);
    b.result({ at: { doc, path: [...path, 'content', i, 'toolResult'] }, callId: str(res.toolUseId), payload: payload.value,
      payloadPath: ['content', ...payload.path], transport: status === undefined ? {} : { isError: status === 'error' } });
  });
  if (turn !== undefined) return;
  if (msg.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, msg.content);
  else b.breakTurn();
}

// a server tool declares no schema: any input is its own business
const SERVER_TOOL_SCHEMA = { type: 'object', additionalProperties: true };

function readTools(b: SessionBuilder, doc: Doc, path: JsonPath, config: unknown): void {
  if (!isPlainObject(config) || !Array.isArray(config.tools)) return;
  config.tools.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const spec = isPlainObject(t.toolSpec) ? t.toolSpec : undefined;
    if (spec && typeof spec.name === 'string') {
      const schema = isPlainObject(spec.inputSchema) ? jsonValue(spec.inputSchema.json) : undefined;
      b.tool(spec.name, schema, { doc, path: [...path, 'tools', i, 'toolSpec'] });
      return;
    }
    const server = isPlainObject(t.systemTool) ? t.systemTool : undefined;
    if (server && typeof server.name === 'string') b.tool(server.name, SERVER_TOOL_SCHEMA, { doc, path: [...path, 'tools', i, 'systemTool'] });
  });
}

function readRequest(b: SessionBuilder, doc: Doc, base: JsonPath, v: Obj & { messages: (Obj & { content: unknown[] })[] }): void {
  readTools(b, doc, [...base, 'toolConfig'], v.toolConfig);
  v.messages.forEach((m, i) => readMessage(b, doc, [...base, 'messages', i], m));
}

// ---- recordings

function isAnthropicBody(v: unknown): v is Obj & { messages: unknown[] } {
  return isPlainObject(v) && typeof v.anthropic_version === 'string' && Array.isArray(v.messages);
}

function isAnthropicReply(v: unknown): v is Obj {
  return isPlainObject(v) && v.type === 'message' && v.role === 'assistant' && Array.isArray(v.content);
}

/** InvokeModelWithResponseStream of an Anthropic model: the Messages stream events its chunks carry. */
function isAnthropicEvents(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.some(isAnthropicEvent);
}

function readable(v: unknown): boolean {
  return isRequest(v) || isResponse(v) || isEventArray(v) || isAnthropicBody(v) || isAnthropicReply(v) || isAnthropicEvents(v);
}

function isBedrockRecording(v: unknown): boolean {
  if (!isNockRecording(v)) return false;
  return v.some((r) => /bedrock/i.test(String(r.scope)) && (readable(jsonValue(r.body)) || (r.responseIsBinary !== true && readable(jsonValue(r.response)))));
}

/** One request body or response of a recording (or of a batch record), into its own session. */
function readPart(b: SessionBuilder, part: Located): void {
  const { doc, path, value: v } = part;
  if (isRequest(v)) readRequest(b, doc, path, v);
  else if (isResponse(v)) readMessage(b, doc, [...path, 'output', 'message'], v.output.message);
  else if (isEventArray(v)) {
    new ConverseStream(b).readEvents(doc, path, v);
  } else if (isAnthropicBody(v)) {
    readAnthropicTools(b, doc, [...path, 'tools'], v.tools);
    v.messages.forEach((m, i) => {
      if (isPlainObject(m)) readAnthropicMessage(b, doc, [...path, 'messages', i], m);
    });
  } else if (isAnthropicReply(v)) {
    readAnthropicMessage(b, doc, path, v);
  } else if (isAnthropicEvents(v)) {
    const a = new StreamAssembler(b);
    v.forEach((e, i) => isPlainObject(e) && a.event(doc, [...path, i], e));
    a.flush();
  }
}

/** Bodies of one conversation, in order (`response`: what the model answered), read each on its own and merged,
 *  what a later request repeats read once. */
function conversation(bodies: { part: Located | undefined; response: boolean }[]): Session {
  const parts: RecordedPart[] = [];
  for (const { part, response } of bodies) {
    if (part && readable(part.value)) singleSession((b) => readPart(b, part), (session) => parts.push({ session, response }));
  }
  return mergeEchoes(parts);
}

/** A Bedrock batch inference record whose input or output is a body this reader knows. */
function isBatchRecord(v: unknown): v is Obj {
  return isPlainObject(v) && 'modelInput' in v && ('modelOutput' in v || 'error' in v) && (readable(v.modelInput) || readable(v.modelOutput));
}

function batchRecord(doc: Doc, v: Obj): Session {
  return conversation([
    { part: { doc, path: ['modelInput'], value: v.modelInput }, response: false },
    { part: { doc, path: ['modelOutput'], value: v.modelOutput }, response: true },
  ]);
}

/** A model invocation log record whose input or output body is one this reader knows. */
function isInvocationLog(v: unknown): v is Obj {
  if (!isPlainObject(v) || v.schemaType !== 'ModelInvocationLog') return false;
  const input = isPlainObject(v.input) ? jsonValue(v.input.inputBodyJson) : undefined;
  const output = isPlainObject(v.output) ? jsonValue(v.output.outputBodyJson) : undefined;
  return readable(input) || readable(output);
}

function invocationLog(doc: Doc, v: Obj): Session {
  const body = (half: string, key: string): Located | undefined => {
    const side = v[half];
    return isPlainObject(side) && key in side ? jsonIn(doc, [half, key], side[key]) : undefined;
  };
  return conversation([
    { part: body('input', 'inputBodyJson'), response: false },
    { part: body('output', 'outputBodyJson'), response: true },
  ]);
}

/** A Converse request and its response in one record (exchange.ts). */
function isConverseExchange(v: unknown): boolean {
  return isExchange(v, isRequest, isResponse);
}

function exchangeRecord(doc: Doc): Session {
  const [request, response] = exchangeParts(doc, isRequest, isResponse);
  return conversation([
    { part: { doc: request, path: [], value: request.value }, response: false },
    { part: { doc: response, path: [], value: response.value }, response: true },
  ]);
}

function recording(doc: Doc): Session {
  return conversation(nockExchanges(doc).flatMap((x) => [{ part: x.request, response: false }, { part: x.response, response: true }]));
}

export const bedrock: FormatAdapter = {
  id: 'bedrock-converse',
  document: {
    claims(v) {
      return isConverseRequest(v) || isResponse(v) || isEventArray(v) || isBedrockRecording(v) || isBatchRecord(v) || isMessageList(v)
        || isConverseExchange(v) || isInvocationLog(v);
    },
    read(doc, emit) {
      const v = doc.value;
      if (isNockRecording(v)) return emit(recording(doc));
      if (isBatchRecord(v)) return emit(batchRecord(doc, v));
      if (isInvocationLog(v)) return emit(invocationLog(doc, v));
      if (isConverseExchange(v)) return emit(exchangeRecord(doc));
      singleSession((b) => {
        if (isRequest(v)) readRequest(b, doc, [], v);
        else if (isResponse(v)) readMessage(b, doc, ['output', 'message'], v.output.message);
        else if (isEventArray(v)) new ConverseStream(b).readEvents(doc, [], v);
        else if (isMessageList(v)) v.forEach((m, i) => readMessage(b, doc, [i], m));
      }, emit);
    },
  },
  lines: {
    claims: isTellingEvent,
    accepts: (v) => eventOf(v) !== undefined,
    open: ({ builder }) => new ConverseStream(builder),
  },
};
