// Trace snippets for the unit tests: one builder per record shape, so a test says what happened (a call, its
// result, an error) and the shape each format gives it is written once, here. Builders return plain records;
// `jsonl()` (helpers.ts) turns them into a file's text.

export type Args = Record<string, unknown>;

/** A call as a test tells it: the id the format pairs by, the tool, the arguments. */
export interface CallSpec {
  id: string;
  name: string;
  args?: Args;
}

/** A result as a test tells it: the call it answers, its body (a string, or a value written as JSON), the error flag
 *  where the format has one. */
export interface ResultSpec {
  id: string;
  body: unknown;
  isError?: boolean;
}

export const callSpec = (id: string, name: string, args: Args = {}): CallSpec => ({ id, name, args });
export const resultSpec = (id: string, body: unknown, isError?: boolean): ResultSpec => ({ id, body, isError });

/** A result body as both chat formats carry it: text as is, anything else as its JSON. */
export const bodyText = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body));

/** A JSON Schema object of the given properties (all of them required unless `required` says otherwise). */
export function objectSchema(properties: Record<string, unknown>, required: string[] = Object.keys(properties)): Args {
  return { type: 'object', properties, required };
}

// ── Anthropic Messages ────────────────────────────────────────────────────────────────────────────────────

export const anthropicText = (text: string) => ({ type: 'text', text });
export const anthropicToolUse = ({ id, name, args = {} }: CallSpec) => ({ type: 'tool_use', id, name, input: args });
export const anthropicToolResult = ({ id, body, isError }: ResultSpec) =>
  ({ type: 'tool_result', tool_use_id: id, content: bodyText(body), ...(isError === undefined ? {} : { is_error: isError }) });

/** The assistant's turn: its text (if any) and a tool_use block per call. */
export function anthropicTurn(calls: CallSpec[], text?: string) {
  return { role: 'assistant', content: [...(text === undefined ? [] : [anthropicText(text)]), ...calls.map(anthropicToolUse)] };
}

/** The user message that carries results back: a tool_result block each. */
export const anthropicResults = (results: ResultSpec[]) => ({ role: 'user', content: results.map(anthropicToolResult) });

export const anthropicTool = (name: string, inputSchema: Args) => ({ name, input_schema: inputSchema });

// ── OpenAI Chat Completions ───────────────────────────────────────────────────────────────────────────────

/** An assistant message whose calls carry their arguments as a JSON string, the way the API writes them. */
export function openaiChatLine(calls: CallSpec[], content: string | null = null) {
  return {
    role: 'assistant',
    content,
    tool_calls: calls.map(({ id, name, args = {} }) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
  };
}

/** A `role: tool` message: Chat has no error flag, so `isError` is not written. */
export const openaiChatResult = ({ id, body }: ResultSpec) => ({ role: 'tool', tool_call_id: id, content: bodyText(body) });

export const openaiTool = (name: string, parameters: Args) => ({ type: 'function', function: { name, parameters } });

/** A plain user message, the same in both chat formats. */
export const userMessage = (content: string) => ({ role: 'user', content });

// ── Claude Code session logs ──────────────────────────────────────────────────────────────────────────────

export const CLAUDE_CODE_SESSION = { sessionId: 's1', userType: 'external', version: '2.1.39' };

/** One log line: the envelope (session, uuid, parent, sidechain) around a record. */
export function claudeCodeLine(uuid: string, parent: string | null, record: object, envelope: object = {}) {
  return { ...CLAUDE_CODE_SESSION, uuid, parentUuid: parent, isSidechain: false, ...envelope, ...record };
}

/** An assistant record holding one content block of message `messageId` (Claude Code writes a block per line). */
export const claudeCodeAssistant = (messageId: string, block: object) =>
  ({ type: 'assistant', message: { id: messageId, type: 'message', role: 'assistant', content: [block], stop_reason: null } });

/** A user record carrying one tool_result (its content as given: a string or blocks). */
export const claudeCodeResult = (id: string, content: unknown, extra: object = {}) =>
  ({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...extra }] } });

export const claudeCodeUser = (content: string) => ({ type: 'user', message: { role: 'user', content } });
