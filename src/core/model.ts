// The TraceModel every format adapter produces, and the Finding every check returns.
// Plain records with source offsets only: views turn offsets into lines, columns or editor ranges.

/** A half-open range of UTF-16 code units in the source text: [start, end). */
import type { Span } from './parse/span';

export type { Span };

export type Severity = 'error' | 'warning' | 'info';

/** How a call's arguments were written. Only `object`, `json-string` (where the format sends strings) and `absent`
 *  are clean; every other encoding is one `arguments-encoding` finding, and what could be recovered is still checked. */
export type ArgumentsEncoding =
  | 'object'
  | 'json-string'
  | 'absent'
  | 'freeform' // free-form text input by design (a custom tool's grammar, a shell command line): args is the text
  | 'object-where-string-expected' // e.g. OpenAI Chat `arguments` as an object
  | 'string-where-object-expected' // e.g. Anthropic `input` as a JSON string
  | 'double-encoded' // a string holding a string holding JSON
  | 'fenced' // a markdown code fence around the JSON
  | 'input-wrapper' // {"input": {...}} around the real arguments
  | 'non-object' // JSON, but not an object
  | 'invalid'; // not JSON at all

import type { Anchor, Doc, JsonPath } from './parse/doc';

export interface ToolCall {
  /** Position of this call in its session, 0-based. */
  index: number;
  /** 1-based turn: the model message that made the call. */
  turn: number;
  name: string;
  id?: string;
  /** The call object, and its tool name (where call-level findings point). */
  at: Anchor;
  nameAt: Anchor;
  /** The node holding the arguments as written: the object, or the string that encodes them. */
  argsAt: Anchor;
  encoding: ArgumentsEncoding;
  /** The decoded arguments (after any unwrapping), when they could be recovered. */
  args?: unknown;
  /** Where the decoded arguments live, so findings inside them point into the source. */
  argsDoc?: Doc;
  argsPath?: JsonPath;
  /** Arguments assembled from stream fragments live in no single node (findings point at `argsAt`), but their text
   *  still has number lexemes as written: this is that text, read for lexemes only. */
  argsLexemes?: { doc: Doc; path: JsonPath };
  /** The raw string when the arguments were string-encoded. */
  argumentsRaw?: string;
  /** Why the arguments did not decode (the JSON parser's message), for `invalid`. */
  encodingDetail?: string;
  /** The text of the model message that made the call. */
  messageText?: string;
  /** The format says the result comes from outside the trace, later (an ADK long-running tool waiting for a person
   *  or a job): unanswered, the call is still awaited, not lost. */
  awaited?: boolean;
}

export interface TransportSignals {
  httpStatus?: number;
  exitCode?: number;
  isError?: boolean;
  /** OTel span status: 'OK' | 'ERROR' | 'UNSET'. */
  spanStatus?: string;
  /** OTel `error.type`: the class of error the operation ended with (set only when it ended in one). */
  errorType?: string;
}

export interface ToolResult {
  callId?: string;
  /** The call this result answers when the format pairs by position rather than by id. */
  callIndex?: number;
  turn: number;
  at: Anchor;
  payload?: unknown;
  payloadAt?: Anchor;
  transport: TransportSignals;
  /** The format says the call it answers was made outside the trace (a Responses request that continues
   *  `previous_response_id`: the calls are in that stored response): unmatched, it is no orphan. */
  callElsewhere?: boolean;
}

/** What a definition says about a tool's effects (MCP `annotations`): absent where it says nothing. */
export interface ToolBehaviour {
  /** The tool changes its environment (true) or only reads it (false). */
  mutates?: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotent?: boolean;
}

/** A tool definition recorded in the trace (request `tools`, MCP `tools/list`, ...). */
export interface EmbeddedTool {
  name: string;
  inputSchema: unknown;
  resultSchema?: unknown;
  behaviour?: ToolBehaviour;
  at: Anchor;
}

/** The text of an assistant message that made no tool call. Only texts that could hold a call written as text
 *  (they have a `<` or a `{`) are kept. */
export interface AssistantText {
  /** The string node that holds the text. */
  at: Anchor;
  /** Its decoded value. */
  text: string;
  /** Turns begun before it (the calls of turns 1..turn came earlier). */
  turn: number;
}

export interface Session {
  id?: string;
  calls: ToolCall[];
  results: ToolResult[];
  tools: EmbeddedTool[];
  /** The reader saw only the links the file states (the shape reader): a call without a result may have been
   *  answered in a way it cannot see, so no call is an orphan. */
  linksStated?: boolean;
  /** Assistant texts of messages that made no call, in order (absent when there are none). */
  texts?: AssistantText[];
  turns: number;
  /** A message other than a result (a user's, the model's answer) came after the last call: the trace went on,
   *  so a call still unanswered then was not merely cut off by the end of the trace. */
  continuedAfterCalls?: boolean;
}

export interface TraceModel {
  format: string;
  sessions: Session[];
}

export interface RelatedInfo {
  span: Span;
  message: string;
  /** Another file, when the related place is not in the trace (a contract file). */
  file?: string;
}

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  span: Span;
  tool?: string;
  callId?: string;
  turn?: number;
  /** Index of the call in its session, for views that group by call. */
  callIndex?: number;
  session?: number;
  related?: RelatedInfo[];
  /** Matches the same finding after lines move (code, tool, call fingerprint, place in the call): baselines
   *  and SARIF partialFingerprints use it. */
  fingerprint?: string;
}
