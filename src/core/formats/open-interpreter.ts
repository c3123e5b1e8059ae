// Open Interpreter conversations in its LMC message format: a saved conversation
// (`conversations/<name>.json`, a JSON array) and the stream `interpreter.chat(stream=True)` / the server print
// (JSONL of chunks). A message is `{role: user | assistant | computer, type, format?, content}`. The model's call is an
// assistant `type: "code"` message: `format` is the language (the call's name: `python`, `shell`, ...) and
// `content` the code, free-form text by design. Its result is what the computer printed next: `type: "console"`
// messages of `format: "output"` (`active_line` chunks are progress, not output); images and other computer
// messages are output too. A user message `[User declined to run this code.]` answers the call it follows as a
// failure. The format has no error flag and no exit code. In a stream each message comes as chunks between `{start:
// true}` and `{end: true}` flags: a code message's content pieces join into one call, a console's into one result.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj } from './util';

const ROLES = new Set(['user', 'assistant', 'computer', 'system']);
const DECLINED = /^\[User declined to run this code/;

const TYPES = new Set(['message', 'code', 'console', 'image', 'confirmation', 'file', 'audio']);
const KEYS = new Set(['role', 'type', 'format', 'content', 'start', 'end', 'recipient', 'source']);

/** An LMC message: its roles, its types, its keys only, and text content (a confirmation holds the code object). */
function isLmc(v: unknown): v is Obj & { role: string; type: string } {
  if (!isPlainObject(v) || !ROLES.has(v.role as string) || !TYPES.has(v.type as string)) return false;
  for (const k of Object.keys(v)) if (!KEYS.has(k)) return false;
  const c = v.content;
  return c === undefined || c === null || typeof c === 'string' || (v.type === 'confirmation' && isPlainObject(c));
}

/** A line that proves nothing alone, taken once the file is this format's: a user's plain message (the Responses
 *  API's input item has the same three keys) only with the stream's flags, or as the decline notice. */
function acceptsLine(v: unknown): boolean {
  if (!isLmc(v)) return false;
  if (v.role !== 'user' || v.type !== 'message') return true;
  return v.start === true || v.end === true || (typeof v.content === 'string' && DECLINED.test(v.content));
}

/** A message only Open Interpreter writes: the computer's, or an assistant's code in a language. */
function isOwn(v: unknown): boolean {
  return isLmc(v) && (v.role === 'computer' || (v.role === 'assistant' && v.type === 'code' && typeof v.format === 'string'));
}

function isConversation(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isLmc) && v.some(isOwn);
}

function isOutput(m: Obj): boolean {
  return m.role === 'computer' && m.type !== 'confirmation' && !(m.type === 'console' && m.format === 'active_line');
}

/** The latest call, when nothing answered it yet (output answers the code just run, never an older one). */
function waiting(b: SessionBuilder): number | undefined {
  const last = b.session.calls.length - 1;
  if (last < 0) return undefined;
  const results = b.session.results;
  return results.length > 0 && results[results.length - 1].callIndex === last ? undefined : last;
}

function readConversation(b: SessionBuilder, doc: Doc, list: Obj[]): void {
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (m.role === 'assistant' && m.type === 'code' && typeof m.format === 'string') {
      // each code message is a response of its own: the model saw the last one's output
      b.call({ name: m.format, at: { doc, path: [i] }, namePath: ['format'], argsPath: ['content'], args: m.content, expect: 'string', freeform: true }, b.newTurn());
    } else if (isOutput(m)) {
      const callIndex = waiting(b);
      if (callIndex === undefined) continue; // output a call already got (a console after an image)
      b.result({ at: { doc, path: [i] }, callIndex, payload: m.content, payloadPath: ['content'], transport: {} });
    } else if (m.role === 'user' && typeof m.content === 'string' && DECLINED.test(m.content)) {
      const callIndex = waiting(b);
      if (callIndex !== undefined) b.result({ at: { doc, path: [i] }, callIndex, payload: m.content, payloadPath: ['content'], transport: { isError: true } });
      else b.breakTurn();
    } else if (m.role === 'assistant') b.assistantText({ doc, path: [i, 'content'] }, m.content);
    else if (m.role === 'user') b.breakTurn();
  }
}

/** A stream's chunks: the code or output being assembled, written out when its message ends. */
class ChunkReader {
  private code?: { first: Doc; last: Doc; format: string; text: string };
  private output?: { first: Doc; text: string };

  constructor(private readonly sink: LineSink) {}

  read(doc: Doc): void {
    const m = doc.value as Obj;
    if (!isLmc(m)) return;
    const content = str(m.content);
    if (m.role === 'assistant' && m.type === 'code') {
      this.endOutput();
      const format = str(m.format) ?? this.code?.format;
      if (content === undefined || (m.start === true && content === '')) {
        if (m.end === true) this.endCode();
        return;
      }
      // a start flag that carries the first piece (some wrappers send it so) begins a new message with it
      if (m.start === true) this.endCode();
      if (this.code && format === this.code.format) {
        this.code.text += content;
        this.code.last = doc;
      } else {
        this.endCode();
        if (format !== undefined) this.code = { first: doc, last: doc, format, text: content };
      }
      if (m.end === true) this.endCode();
      return;
    }
    this.endCode();
    if (isOutput(m)) {
      if (m.type === 'console' && m.format !== 'output' && m.format !== undefined) return;
      if (content !== undefined && content !== '') {
        if (this.output) this.output.text += content;
        else this.output = { first: doc, text: content };
      }
      if (m.end === true) this.endOutput();
      return;
    }
    this.endOutput();
    const b = this.sink.builder;
    if (m.role === 'user' && content !== undefined && DECLINED.test(content)) {
      const callIndex = waiting(b);
      if (callIndex !== undefined) b.result({ at: { doc, path: [] }, callIndex, payload: content, payloadPath: ['content'], transport: { isError: true } });
    } else if (m.role === 'user' && m.start !== true && m.end !== true) b.breakTurn();
  }

  private endCode(): void {
    const c = this.code;
    if (!c) return;
    this.code = undefined;
    const one = c.first === c.last;
    this.sink.builder.call({ name: c.format, at: { doc: c.first, path: [] }, namePath: ['format'], argsPath: ['content'], args: c.text,
      expect: 'string', freeform: true, argsAt: one ? undefined : { doc: c.last, path: ['content'] as JsonPath }, assembled: !one }, this.sink.builder.newTurn());
  }

  private endOutput(): void {
    const o = this.output;
    if (!o) return;
    this.output = undefined;
    const b = this.sink.builder;
    const callIndex = waiting(b);
    if (callIndex !== undefined) b.result({ at: { doc: o.first, path: [] }, callIndex, payload: o.text, payloadPath: ['content'], transport: {} });
  }

  finish(): void {
    this.endCode();
    this.endOutput();
  }
}

export const openInterpreter: FormatAdapter = {
  id: 'open-interpreter',
  document: {
    claims: isConversation,
    read(doc, emit) {
      singleSession((b) => readConversation(b, doc, doc.value as Obj[]), emit);
    },
  },
  lines: {
    claims: isOwn,
    accepts: acceptsLine,
    open(sink) {
      const reader = new ChunkReader(sink);
      return { read: (doc) => reader.read(doc), finish: () => reader.finish() };
    },
  },
};
