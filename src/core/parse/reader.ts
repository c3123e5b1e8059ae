// Turning text into Docs: a whole JSON document, or JSONL line by line (BOM, CRLF, blank lines and a missing
// final newline are fine). A line that is not JSON becomes a parse failure with the place the parser stopped.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Span } from '../model';
import { topDoc, type Doc } from './doc';

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

const JSONL_NAME = /\.(jsonl|ndjson|jsonlines)$/i;

/** Whether a file is read as JSONL: by name, or because it is not one JSON document but its lines are. */
export function looksLikeJsonl(fileName: string | undefined, text: string): boolean {
  if (fileName && JSONL_NAME.test(fileName)) return true;
  const first = text.indexOf('\n');
  if (first === -1 || first === text.trimEnd().length) return false;
  const firstLine = text.slice(0, first).trim();
  if (!firstLine.startsWith('{') && !firstLine.startsWith('[')) return false;
  try {
    JSON.parse(firstLine);
  } catch {
    return false;
  }
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/** Converts offsets to 1-based line and column, from the line starts of a text. */
export class LineIndex {
  private readonly starts: number[] = [0];

  static of(text: string): LineIndex {
    const index = new LineIndex();
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) index.starts.push(i + 1);
    return index;
  }

  /** For streaming: record that a line starts at `offset`. */
  addLineStart(offset: number): void {
    if (offset > this.starts[this.starts.length - 1]) this.starts.push(offset);
  }

  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }
}
