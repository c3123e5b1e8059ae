// What every format adapter writes into: one session at a time. Argument decoding lives here, once, so every
// format reports the same encodings with the same offsets.
import type { ArgumentsEncoding, Session, ToolBehaviour, ToolCall, TransportSignals } from '../model';
import { type Anchor, type Doc, type JsonPath, childPath, embeddedDoc, joinPath } from '../parse/doc';
import { isPlainObject } from '../objects';

export type ArgsExpectation = 'string' | 'object' | 'any';

export interface NodeRef {
  doc: Doc;
  path: JsonPath;
}

export interface CallInput {
  name: string;
  /** The call object, and the path of its name and arguments relative to it. */
  at: NodeRef;
  namePath: JsonPath;
  argsPath: JsonPath;
  args: unknown;
  expect: ArgsExpectation;
  id?: string;
  messageText?: string;
  /** Where the arguments are when they are not under `at` (a stream: the name in one chunk, arguments in another). */
  argsAt?: NodeRef;
  /** Free-form text input by design (a custom tool's grammar, a command line): kept as text, never decoded. */
  freeform?: boolean;
  /** The arguments were assembled from stream fragments: they live in no single node, so findings inside them
   *  point at `argsPath` (the fragment that completed them). */
  assembled?: boolean;
}

export interface ResultInput {
  at: NodeRef;
  callId?: string;
  callIndex?: number;
  payloadPath?: JsonPath;
  payload?: unknown;
  transport?: TransportSignals;
}

const FENCE = /^\s*```[\w+-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```\s*$/;

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

export interface DecodedArgs {
  encoding: ArgumentsEncoding;
  args?: unknown;
  doc?: Doc;
  path?: JsonPath;
  raw?: string;
  detail?: string;
}

/** `{"input": {...}}` around the real arguments (seen from SDKs and agent frameworks) is reported, then looked inside. */
function unwrapInput(outer: DecodedArgs): DecodedArgs {
  const v = outer.args;
  // no own `input` key: no wrapper (asked first: listing every call's keys was an array per call)
  if (!isPlainObject(v) || !outer.doc || !Object.prototype.hasOwnProperty.call(v, 'input')) return outer;
  const keys = Object.keys(v);
  if (keys.length !== 1 || keys[0] !== 'input') return outer;
  const inner = decodeArguments(outer.doc, childPath(outer.path ?? [], 'input'), v.input, 'any');
  if (inner.encoding !== 'object' && inner.encoding !== 'json-string') return outer;
  return { ...inner, encoding: 'input-wrapper', raw: outer.raw };
}

/** Decode a call's arguments as written into the object the tool receives, remembering where it lives. */
export function decodeArguments(doc: Doc, path: JsonPath, value: unknown, expect: ArgsExpectation): DecodedArgs {
  if (value === undefined) return { encoding: 'absent', args: {}, doc, path };
  if (typeof value !== 'string') {
    if (!isPlainObject(value)) return { encoding: 'non-object', args: value, doc, path };
    return unwrapInput({ encoding: expect === 'string' ? 'object-where-string-expected' : 'object', args: value, doc, path });
  }
  const raw = value;
  // Some providers send "" for a tool without arguments: that is an empty object, not broken JSON.
  if (raw.trim() === '') return { encoding: expect === 'object' ? 'string-where-object-expected' : 'json-string', args: {}, doc, path, raw };
  const parsed = tryParse(raw);
  if (parsed.ok) {
    const inner = embeddedDoc(doc, path, raw, 0, raw, parsed.value);
    if (typeof parsed.value === 'string') {
      const twice = tryParse(parsed.value);
      if (twice.ok && isPlainObject(twice.value)) {
        const innermost = embeddedDoc(inner, [], parsed.value, 0, parsed.value, twice.value);
        return { encoding: 'double-encoded', args: twice.value, doc: innermost, path: [], raw };
      }
    }
    if (!isPlainObject(parsed.value)) return { encoding: 'non-object', args: parsed.value, doc: inner, path: [], raw };
    return unwrapInput({ encoding: expect === 'object' ? 'string-where-object-expected' : 'json-string', args: parsed.value, doc: inner, path: [], raw });
  }
  const fence = FENCE.exec(raw);
  if (fence) {
    const body = fence[1];
    const innerParsed = tryParse(body);
    if (innerParsed.ok) {
      const skip = raw.indexOf(body, raw.indexOf('```') + 3);
      const inner = embeddedDoc(doc, path, raw, skip, body, innerParsed.value);
      return { encoding: 'fenced', args: innerParsed.value, doc: inner, path: [], raw };
    }
  }
  return { encoding: 'invalid', raw, detail: parsed.error, doc, path };
}

function anchor(ref: NodeRef, sub: JsonPath = [], part?: 'key'): Anchor {
  return { doc: ref.doc, path: sub.length ? joinPath(ref.path, sub) : ref.path, part };
}

export class SessionBuilder {
  readonly session: Session;
  private lastTurnWasCalls = false;
  /** The last thing recorded was a result, whose own record's break is not a new message. */
  private afterResult = false;
  /** Texts of `session.texts` before this index ended their turn beyond doubt: something else happened after them.
   *  The ones after it may still be followed by a call of their own message (written in a later record). */
  private textsFrom = 0;

  constructor(id?: string) {
    this.session = { id, calls: [], results: [], tools: [], turns: 0 };
  }

  /** Start a new turn (a model message that makes calls); returns its 1-based number. */
  newTurn(): number {
    this.session.turns += 1;
    this.lastTurnWasCalls = true;
    return this.session.turns;
  }

  /** The current turn, starting one if the last message was not a call-making one. */
  currentTurn(): number {
    return this.lastTurnWasCalls && this.session.turns > 0 ? this.session.turns : this.newTurn();
  }

  /** Something other than a call happened (a user message, a result): the next call starts a new turn. */
  breakTurn(): void {
    this.endMessage();
    this.textsFrom = this.session.texts?.length ?? 0;
  }

  /** An assistant message that made no call (use it instead of `breakTurn` for one): its text — `content` is a
   *  string, or a list of parts whose `text` strings are read (`text`, `output_text`) — at `ref` is kept for the
   *  checks that read what the model wrote (a call written as text). A format that writes one message over several
   *  records (its text first, its calls in later ones) needs nothing more: a call before any other message or
   *  result drops the texts as the text of a message that did make a call. `endsTurn: false` for a format whose
   *  commentary between calls belongs to the turn (Codex): then the turn goes on. Texts with neither `<` nor `{`
   *  cannot hold a written call and are not kept. */
  assistantText(ref: NodeRef, content: unknown, endsTurn = true): void {
    if (endsTurn) this.endMessage();
    if (typeof content === 'string') {
      if (mayHoldCall(content)) this.keepText(ref.doc, ref.path, content);
    } else if (Array.isArray(content)) {
      for (let i = 0; i < content.length; i++) {
        const part = content[i];
        if (isPlainObject(part) && typeof part.text === 'string' && (part.type === 'text' || part.type === 'output_text' || part.type === undefined) && mayHoldCall(part.text)) {
          this.keepText(ref.doc, childPath(ref.path, i, 'text'), part.text);
        }
      }
    }
  }

  private keepText(doc: Doc, path: JsonPath, text: string): void {
    (this.session.texts ??= []).push({ at: { doc, path }, text, turn: this.session.turns });
  }

  private endMessage(): void {
    this.lastTurnWasCalls = false;
    if (this.afterResult) this.afterResult = false;
    else if (this.session.calls.length > 0) this.session.continuedAfterCalls = true;
  }

  call(input: CallInput, turn = this.currentTurn()): ToolCall {
    const argsRef = input.argsAt ?? { doc: input.at.doc, path: joinPath(input.at.path, input.argsPath) };
    const decoded: DecodedArgs = input.freeform && typeof input.args === 'string'
      ? { encoding: 'freeform', args: input.args, doc: argsRef.doc, path: argsRef.path, raw: input.args }
      : decodeArguments(argsRef.doc, argsRef.path, input.args, input.expect);
    // assembled arguments: their decoded text maps to no single source node, so it keeps only its lexemes
    let lexemes: ToolCall['argsLexemes'];
    if (input.assembled) {
      if (decoded.doc) lexemes = { doc: decoded.doc, path: decoded.path ?? [] };
      decoded.doc = undefined;
      decoded.path = undefined;
    }
    const inner = parallelCalls(input.name, decoded);
    if (inner) {
      let first: ToolCall | undefined;
      for (const c of inner) {
        const call = this.call({ ...c, id: input.id === undefined ? undefined : `${input.id}#${c.index}`, messageText: input.messageText }, turn);
        first ??= call;
      }
      if (first) return first;
    }
    const call: ToolCall = {
      index: this.session.calls.length,
      turn,
      name: input.name,
      id: input.id,
      at: anchor(input.at),
      nameAt: anchor(input.at, input.namePath),
      argsAt: input.args === undefined ? anchor(input.at) : anchor(argsRef),
      encoding: decoded.encoding,
      args: decoded.args,
      argsDoc: decoded.doc,
      argsPath: decoded.path,
      argsLexemes: lexemes,
      argumentsRaw: decoded.raw,
      encodingDetail: decoded.detail,
      messageText: input.messageText,
    };
    this.session.calls.push(call);
    this.session.continuedAfterCalls = false;
    this.afterResult = false;
    // texts since the last other message were this call's own message (a text record, then its call records)
    const texts = this.session.texts;
    if (texts !== undefined && texts.length > this.textsFrom) texts.length = this.textsFrom;
    return call;
  }

  result(input: ResultInput): void {
    this.afterResult = true;
    this.textsFrom = this.session.texts?.length ?? 0;
    this.session.results.push({
      callId: input.callId,
      callIndex: input.callIndex,
      turn: Math.max(this.session.turns, 1),
      at: anchor(input.at),
      payload: input.payload,
      payloadAt: input.payloadPath ? anchor(input.at, input.payloadPath) : undefined,
      transport: input.transport ?? {},
    });
  }

  /** A tool definition; `behaviour` is what it says of the tool's effects (MCP `annotations`, read by
   *  `behaviourOf` in contracts/annotations.ts). */
  tool(name: string, inputSchema: unknown, at: NodeRef, resultSchema?: unknown, behaviour?: ToolBehaviour): void {
    this.session.tools.push(behaviour ? { name, inputSchema, resultSchema, behaviour, at: anchor(at) } : { name, inputSchema, resultSchema, at: anchor(at) });
  }
}

/** A text with neither `<` nor `{` cannot hold a call written as text. */
function mayHoldCall(text: string): boolean {
  return text.indexOf('<') >= 0 || text.indexOf('{') >= 0;
}

const PARALLEL = new Set(['multi_tool_use.parallel', 'parallel', 'multi_tool_use']);

/** `multi_tool_use.parallel` (or a bare `parallel`) whose arguments hold `{tool_uses: [{recipient_name,
 *  parameters}]}` is a wrapper some models leak: it stands for its inner calls, one per tool use, each anchored
 *  inside the wrapper's arguments. Any other shape is left alone (then it is an ordinary, probably unknown, tool). */
function parallelCalls(name: string, decoded: DecodedArgs): (CallInput & { index: number })[] | undefined {
  if (!PARALLEL.has(name) || !decoded.doc || !isPlainObject(decoded.args)) return undefined;
  const uses = decoded.args.tool_uses;
  if (!Array.isArray(uses) || uses.length === 0) return undefined;
  if (!uses.every((u) => isPlainObject(u) && typeof u.recipient_name === 'string')) return undefined;
  const base = childPath(decoded.path ?? [], 'tool_uses');
  return uses.map((u, index) => {
    const use = u as Record<string, unknown>;
    return {
      index,
      name: (use.recipient_name as string).replace(/^functions\./, ''),
      at: { doc: decoded.doc!, path: childPath(base, index) },
      namePath: ['recipient_name'],
      argsPath: ['parameters'],
      args: use.parameters,
      expect: 'object' as const,
    };
  });
}
