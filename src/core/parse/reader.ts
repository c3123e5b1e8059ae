// Turning text into Docs: a whole JSON document, or JSONL line by line (BOM, CRLF, blank lines and a missing
// final newline are fine). A line that is not JSON becomes a parse failure with the place the parser stopped.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Span } from '../model';
import { topDoc, type Doc } from './doc';
import { JSONL_NAME } from '../names';
import { parseYaml, YAML_NAME } from './yaml';
import { LOG_LINE } from './log-lines';
import { valueSequence } from './sequence';
import { keptPrefix } from './truncated';
import { parseJsonOrPython, pythonJson } from './non-finite';

export { JSONL_NAME };

export interface ParseFailure {
  span: Span;
  message: string;
}

const PLAIN: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':'",
  CommaExpected: "expected ',' or a closing bracket",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'unexpected text after the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'control character in a string',
};

export function describeParseError(code: string): string {
  return PLAIN[code] ?? code;
}

/** Where and why JSON.parse rejected `text` (relative offsets). */
export function locateParseFailure(text: string, fallback: string): ParseFailure {
  const errors: ParseError[] = [];
  try {
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    // jsonc-parser recurses; on absurd nesting it can overflow. JSON.parse's own message is then the answer.
  }
  const first = errors[0];
  if (first) {
    // At the end of the text there is no character to point at: point at the last one, where the text stopped.
    const start = first.offset >= text.length && text.length > 0 ? text.length - 1 : first.offset;
    const end = Math.min(start + Math.max(1, first.length), text.length);
    const atEnd = first.offset >= text.trimEnd().length;
    const message = describeParseError(printParseErrorCode(first.error));
    return { span: { start, end: Math.max(end, start) }, message: atEnd ? `unexpected end of input: ${message}` : message };
  }
  // jsonc-parser overflowed (nesting far too deep): JSON.parse's position, kept inside the text (it may be the end)
  const pos = /position (\d+)/.exec(fallback);
  const found = pos ? Number(pos[1]) : /end of JSON input/i.test(fallback) ? text.length : 0;
  const at = found >= text.length && text.length > 0 ? text.length - 1 : found;
  const message = fallback.replace(/^JSON\.parse: /, '').replace(/ in JSON at position \d+.*$/, '');
  return { span: { start: at, end: Math.min(at + 1, text.length) }, message: found >= text.length ? `unexpected end of input: ${message}` : message };
}

export type ParsedUnit = { ok: true; doc: Doc } | { ok: false; failure: ParseFailure };

/** Parse one unit of JSON text at `base` in the file. */
export function parseUnit(text: string, base: number): ParsedUnit {
  try {
    return { ok: true, doc: topDoc(text, base, JSON.parse(text)) };
  } catch (e) {
    const python = pythonJson(text); // Python's NaN / Infinity (non-finite.ts), asked only once JSON.parse failed
    if (python) return { ok: true, doc: topDoc(python.text, base, python.value) };
    const failure = e instanceof SyntaxError ? locateParseFailure(text, e.message) : { span: { start: 0, end: 1 }, message: String((e as Error).message) };
    return { ok: false, failure: { span: { start: base + failure.span.start, end: base + failure.span.end }, message: failure.message } };
  }
}

export interface Line {
  text: string;
  /** Offset of the line's first character in the file. */
  base: number;
  /** 0-based line number. */
  line: number;
}

/** Split text into lines (LF or CRLF), without the line breaks. */
export function* lines(text: string): Generator<Line> {
  let start = 0;
  let n = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    yield { text: text.slice(start, lineEnd), base: start, line: n };
    n += 1;
    if (end === text.length) break;
    start = end + 1;
  }
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}


/** A Server-Sent Events line (`data: {...}`, `event: x`, `id:`, `retry:`, a `:` comment): a recorded stream body. */
export const SSE_LINE = /^(data|event|id|retry):|^:/;

/** Whether the head of a plain-text file (a `.log`, a `.txt`: names.ts TEXT_LOG_NAME) reads like a trace: its first
 *  line that is not blank is JSON on its own, a recorded SSE stream's `data:` line, or a line of a log that frames
 *  JSON messages (log-lines.ts). A walk of folders takes such files; other text is not looked at. */
export function traceTextHead(head: string): boolean {
  const { first } = firstLine(head);
  return parsesAlone(first) || /^data: ?[{[]/.test(first) || LOG_LINE.test(first);
}

/** The first line of a text that is not blank (after a BOM), and where the line after it starts (-1: none). */
function firstLine(text: string): { first: string; nl: number } {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl === -1 || text.slice(start, nl).trim() !== '') break;
    start = nl + 1;
  }
  const nl = text.indexOf('\n', start);
  return { first: text.slice(start, nl === -1 ? text.length : nl), nl };
}

/** Whether one line of text parses as JSON on its own. */
function parsesAlone(line: string): boolean {
  const t = line.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  try {
    parseJsonOrPython(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * How a text is read, as far as its first lines tell (the name only breaks a tie): `lines` (JSONL, or a recorded
 * SSE stream), `document`, or undefined when only parsing the whole can tell (the first line is not JSON alone and
 * more lines follow: a pretty-printed document, or JSONL whose first line is broken). Cheap: one line is parsed.
 */
export function shapeFromHead(text: string, fileName?: string, complete = true): 'lines' | 'document' | undefined {
  const { first, nl } = firstLine(text);
  if (yamlText(first, fileName)) return 'document';
  if (SSE_LINE.test(first)) return 'lines';
  if (LOG_LINE.test(first)) return 'lines';
  const named = fileName !== undefined && JSONL_NAME.test(fileName);
  const more = nl !== -1 && (text.slice(nl + 1).trim() !== '' || !complete);
  if (!more) return named && parsesAlone(first) ? 'lines' : 'document';
  if (parsesAlone(first)) return 'lines';
  return undefined;
}

/** A text that is not one document, and whose first line is not JSON alone: JSONL with a broken first line when
 *  the name says so or one of the next few lines parses on its own. */
export function linesAfterBrokenFirst(text: string, fileName?: string): boolean {
  if (fileName !== undefined && JSONL_NAME.test(fileName)) return true;
  let from = text.indexOf('\n', text.search(/\S/)) + 1;
  for (let k = 0; k < 4 && from > 0 && from < text.length; k++) {
    const next = text.indexOf('\n', from);
    if (parsesAlone(text.slice(from, next === -1 ? text.length : next))) return true;
    if (next === -1) break;
    from = next + 1;
  }
  return false;
}

/**
 * How a text is read, decided here once from its bytes: `lines` or one `document`. `text` may be the head of a
 * longer file (`complete` false): then a text whose first line is not JSON alone answers `document` unless its
 * name says JSONL (read the whole and ask again: a pretty-printed array may hold lines that parse alone). The
 * engine asks `shapeFromHead` itself, so that a document is parsed once.
 */
export function textShape(text: string, fileName?: string, complete = true): 'lines' | 'document' {
  const head = shapeFromHead(text, fileName, complete);
  if (head) return head;
  if (!complete) return fileName !== undefined && JSONL_NAME.test(fileName) ? 'lines' : 'document';
  try {
    parseJsonOrPython(text);
    return 'document';
  } catch {
    return linesAfterBrokenFirst(text, fileName) ? 'lines' : 'document';
  }
}

/** How much of a text's head `readsAsLines` looks at. */
const HEAD = 1 << 16;

/** Whether a text is read line by line, from its head only (textShape's rules), so that a large document is never
 *  parsed just to ask. `complete`: false when `text` is itself only the head of the document. */
export function readsAsLines(text: string, fileName?: string, complete = true): boolean {
  return textShape(text.length > HEAD ? text.slice(0, HEAD) : text, fileName, complete && text.length <= HEAD) === 'lines';
}

/** How the engine reads a whole text: line by line, or as one document, already parsed (a document is parsed once,
 *  here). textShape's rules; a text that is neither one document nor JSONL is one document that failed to parse. */
/** `cut`: where a document cut short stopped being readable (what came before it is `unit`). */
export type TextReading = { shape: 'lines'; units?: Line[] } | { shape: 'document'; unit: ParsedUnit; cut?: ParseFailure };

/** A file named `.yaml`/`.yml` is YAML (a recorded cassette), unless it is written as JSON (which YAML includes,
 *  and which the JSON reader places more cheaply). `first`: its first non-blank line. */
function yamlText(first: string, fileName?: string): boolean {
  return fileName !== undefined && YAML_NAME.test(fileName) && !/^\s*[[{]/.test(first);
}

export function readingOf(text: string, fileName?: string): TextReading {
  if (fileName !== undefined && YAML_NAME.test(fileName) && yamlText(text.slice(0, Math.max(text.search(/\S/), 0) + 1), fileName)) {
    return { shape: 'document', ...parseYaml(text) };
  }
  const head = shapeFromHead(text, fileName);
  if (head === 'lines') return { shape: 'lines' };
  const unit = parseUnit(text, 0);
  if (unit.ok) return { shape: 'document', unit };
  // several JSON values one after another (parse/sequence.ts), each a unit as a line is: a text that opens with a
  // line holding only a bracket is indented JSON, not JSONL whose first line is broken
  const from = Math.max(text.search(/\S/), 0);
  const nl = text.indexOf('\n', from);
  const indented = /^[[{]\s*$/.test(text.slice(from, nl === -1 ? text.length : nl));
  const document = head === 'document' || !linesAfterBrokenFirst(text, fileName);
  const units = indented || document ? valueSequence(text) : undefined;
  if (units) return { shape: 'lines', units };
  if (!document) return { shape: 'lines' };
  // a document cut short: what came before the break is read (parse/truncated.ts), the break is the parse error
  const kept = keptPrefix(text, unit.failure.span.start);
  return kept ? { shape: 'document', unit: { ok: true, doc: kept }, cut: unit.failure } : { shape: 'document', unit };
}

/** Converts offsets to 1-based line and column, from the line starts of a text. */
export { LineIndex } from './line-index';
