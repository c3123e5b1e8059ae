// OpenAI Chat Completions: a messages array, a request or fine-tune line `{messages, tools}`, a completion
// response with `choices`, a log of both (`messages` and `choices`, or LiteLLM's logging payload: `messages`, the
// answer under `response`, the tools in `model_parameters`), an exchange record `{request, response}` (exchange.ts),
// or JSONL of single messages. Calls:
// `tool_calls[]` function calls (arguments are JSON strings, `function.arguments`), custom tool calls (`type:
// "custom"`, free-form `custom.input`), and the legacy `function_call`. Results: `tool` messages pair by
// `tool_call_id`; the legacy `function` role (and a `tool` message without an id) names no id, only the tool:
// it answers the earliest unanswered call of that name (by position when it names none). The format has no
// error flag: a result's failure is only what its body says.
// Groq's server-side tools (the compound systems' web search, code execution, website visits; `browser_search` of
// the models that take it) are recorded on the assistant message as `executed_tools[] {index, type, arguments,
// output?, search_results?, code_results?, browser_results?}`: each ran on Groq's servers, so it is a call (named
// by its `type`, its arguments a JSON string) and its result (`output`, else the structured results); its tool is
// the platform's: in a trace that declares tools it is declared by the record itself (no schema). A stream sends each in `delta.executed_tools`,
// first with its arguments and then again, under the same `index`, with its output.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { isPlainObject, type Obj } from '../objects';
import { jsonIn, str, textOf, unansweredByName } from './util';
import { isMiniSweTrajectory } from './mini-swe-shape';
import { isLettaAgentFile } from './letta';
import { childPath, type Doc, type JsonPath } from '../parse/doc';
import { exchangeParts, isExchange } from './exchange';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

export function isChatMessage(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.role === 'string' && ROLES.has(v.role);
}

/** Where an executed tool's result is: its `output` text, else its structured results. */
const EXECUTED_RESULTS = ['output', 'search_results', 'code_results', 'browser_results'] as const;

function executedResult(tool: Obj): string | undefined {
  return EXECUTED_RESULTS.find((k) => tool[k] !== undefined && tool[k] !== null);
}

/** Groq's executed tools, of one message or of one stream: each read once by its `index` (a stream repeats it
 *  with its output), its result once it has one (a message holds only finished ones: `finished`). */
export class ExecutedTools {
  private readonly open = new Map<string, { call: number; answered: boolean }>();

  constructor(private readonly b: SessionBuilder) {}

  read(doc: Doc, path: JsonPath, list: unknown[], scope: string, turn: () => number, finished: boolean): void {
    list.forEach((tool, i) => {
      if (!isPlainObject(tool)) return;
      const name = str(tool.type) ?? str(tool.name);
      const key = `${scope}|${typeof tool.index === 'number' ? tool.index : i}`;
      let seen = this.open.get(key);
      const at = { doc, path: childPath(path, i) };
      if (!seen) {
        // a tool run without the arguments it ran with is not read (every such call would look alike)
        if (name === undefined || (typeof tool.arguments !== 'string' && !isPlainObject(tool.arguments))) return;
        // in a trace that declares tools of its own, the platform's is declared by its record (no schema), or it would
        // be unknown there; elsewhere it has no contract, like any call
        const tools = this.b.session.tools;
        if (tools.length > 0 && !tools.some((t) => t.name === name)) this.b.tool(name, undefined, at);
        const call = this.b.call({ name, at, namePath: [typeof tool.type === 'string' ? 'type' : 'name'], argsPath: ['arguments'], args: tool.arguments,
          expect: 'string' }, turn());
        seen = { call: call.index, answered: false };
        this.open.set(key, seen);
      }
      const result = seen.answered ? undefined : executedResult(tool);
      if (result === undefined || (!finished && result !== 'output')) return;
      seen.answered = true;
      this.b.result({ at, callIndex: seen.call, payload: tool[result], payloadPath: [result] });
    });
  }

  /** A message (or a stream's choice) ended: its indexes are free again. */
  forget(scope: string): void {
    for (const key of [...this.open.keys()]) if (key.startsWith(`${scope}|`)) this.open.delete(key);
  }
}

/** Read one chat message at `path` of `doc`. Shared by every document shape and by JSONL lines. */
export function readChatMessage(b: SessionBuilder, doc: Doc, path: JsonPath, msg: Obj): void {
  const calls = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
  const executed = msg.role === 'assistant' && Array.isArray(msg.executed_tools) ? msg.executed_tools : undefined;
  let serverTurn: number | undefined;
  if (executed) new ExecutedTools(b).read(doc, childPath(path, 'executed_tools'), executed, '', () => (serverTurn ??= b.newTurn()), true);
  if (msg.role === 'assistant' && (calls.length > 0 || isPlainObject(msg.function_call))) {
    const turn = serverTurn ?? b.newTurn();
    const messageText = textOf(msg.content);
    calls.forEach((tc, i) => {
      if (!isPlainObject(tc)) return;
      const custom = isPlainObject(tc.custom) ? tc.custom : undefined;
      if (custom && typeof custom.name === 'string') {
        // a custom tool: its input is free-form text (a grammar's language), not JSON
        b.call({ name: custom.name, id: str(tc.id), at: { doc, path: childPath(path, 'tool_calls', i) }, namePath: ['custom', 'name'],
          argsPath: ['custom', 'input'], args: custom.input, expect: 'any', freeform: typeof custom.input === 'string', messageText }, turn);
        return;
      }
      const fn = isPlainObject(tc.function) ? tc.function : undefined;
      if (!fn || typeof fn.name !== 'string') return;
      b.call(
        {
          name: fn.name,
          id: typeof tc.id === 'string' ? tc.id : undefined,
          at: { doc, path: childPath(path, 'tool_calls', i) },
          namePath: ['function', 'name'],
          argsPath: ['function', 'arguments'],
          args: fn.arguments,
          expect: 'string',
          messageText,
        },
        turn,
      );
    });
    const legacy = msg.function_call;
    if (isPlainObject(legacy) && typeof legacy.name === 'string') {
      b.call(
        { name: legacy.name, at: { doc, path: childPath(path, 'function_call') }, namePath: ['name'], argsPath: ['arguments'],
          args: legacy.arguments, expect: 'string', messageText },
        turn,
      );
    }
    return;
  }
  if (msg.role === 'tool' || msg.role === 'function') {
    const id = typeof msg.tool_call_id === 'string' && msg.tool_call_id !== '' ? msg.tool_call_id : undefined;
    const name = str(msg.name);
    b.result({ at: { doc, path }, callId: id, payload: msg.content, payloadPath: ['content'],
      callIndex: id === undefined && name !== undefined ? unansweredByName(b, name) : undefined });
  }
  // an assistant message without calls: its text is kept (a call written as text is a fault of its own)
  if (msg.role === 'assistant') b.assistantText({ doc, path: childPath(path, 'content') }, msg.content);
  else b.breakTurn();
}

export function readChatTools(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const fn = isPlainObject(t.function) ? t.function : t; // `tools[].function` or legacy `functions[]`
    if (typeof fn.name === 'string' && 'parameters' in fn) b.tool(fn.name, fn.parameters, { doc, path: childPath(path, i) });
    else if (t.type === 'custom' && isPlainObject(t.custom) && typeof t.custom.name === 'string') b.tool(t.custom.name, undefined, { doc, path: childPath(path, i) });
  });
}

function messagesOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v) && Array.isArray(v.messages)) return v.messages;
  if (isPlainObject(v) && isPlainObject(v.conversation) && Array.isArray(v.conversation.messages)) return v.conversation.messages; // app exports
  return undefined;
}

function messagesPath(v: unknown): JsonPath {
  if (Array.isArray(v)) return [];
  return isPlainObject(v) && Array.isArray(v.messages) ? ['messages'] : ['conversation', 'messages'];
}

/** A completion: `choices` holding a message. */
function isCompletion(v: unknown): boolean {
  return isPlainObject(v) && Array.isArray(v.choices) && v.choices.some((c) => isPlainObject(c) && isChatMessage(c.message));
}

/** A request body: `messages` that are all chat messages (also the request half of Cohere's and Ollama's exchange
 *  records, whose response says whose the request is). */
export function isChatRequest(v: unknown): boolean {
  return isPlainObject(v) && Array.isArray(v.messages) && v.messages.length > 0 && v.messages.every(isChatMessage);
}

function readChoices(b: SessionBuilder, doc: Doc, base: JsonPath, choices: unknown[]): void {
  choices.forEach((c, i) => {
    if (isPlainObject(c) && isChatMessage(c.message)) readChatMessage(b, doc, [...base, i, 'message'], c.message);
  });
}

/** A request, a transcript, a response, or a log of the request and its response. */
export function readChatDocument(b: SessionBuilder, doc: Doc): void {
  const v = doc.value;
  if (isPlainObject(v)) {
    // a dataset's `tools` column is often the JSON text of the list (Hugging Face `messages` datasets)
    const tools = jsonIn(doc, ['tools'], v.tools);
    readChatTools(b, tools.doc, tools.path, tools.value);
    readChatTools(b, doc, ['functions'], v.functions);
    // LiteLLM's logging payload keeps the request's optional parameters, tools among them, in `model_parameters`
    if (isPlainObject(v.model_parameters)) readChatTools(b, doc, ['model_parameters', 'tools'], v.model_parameters.tools);
  }
  const list = messagesOf(v);
  if (list) {
    const base = messagesPath(v);
    list.forEach((m, i) => isChatMessage(m) && readChatMessage(b, doc, childPath(base, i), m));
  }
  // a response, or a log of the request and its response: the choices follow the messages they answer (LiteLLM's
  // logging payload keeps the answer under `response`)
  if (isPlainObject(v) && Array.isArray(v.choices)) readChoices(b, doc, ['choices'], v.choices);
  else if (isPlainObject(v) && list && isCompletion(v.response)) readChoices(b, doc, ['response', 'choices'], (v.response as Obj).choices as unknown[]);
}

function hasChatToolTraffic(list: unknown[]): boolean {
  return list.some((m) => isChatMessage(m) && (Array.isArray(m.tool_calls) || m.role === 'tool' || isPlainObject(m.function_call)));
}

export const openaiChat: FormatAdapter = {
  id: 'openai-chat',
  document: {
    claims(v) {
      if (isPlainObject(v) && Array.isArray(v.choices)) return isCompletion(v);
      if (isExchange(v, isChatRequest, isCompletion)) return true;
      const list = messagesOf(v);
      if (!list || list.length === 0 || !list.every(isChatMessage) || isMiniSweTrajectory(v) || isLettaAgentFile(v)) return false;
      // An array of messages with no tool traffic of either dialect is still a (call-less) chat transcript.
      return hasChatToolTraffic(list) || !list.some((m) => Array.isArray(m.content) && m.content.some((p) => isPlainObject(p) && (p.type === 'tool_use' || p.type === 'tool_result')));
    },
    read(doc, emit) {
      singleSession((b) => {
        for (const part of exchangeParts(doc, isChatRequest, isCompletion)) readChatDocument(b, part);
      }, emit);
    },
  },
  lines: {
    claims(v) {
      return isChatMessage(v) && !('type' in v) && (Array.isArray(v.tool_calls) || v.role === 'tool' || v.role === 'function' || isPlainObject(v.function_call));
    },
    accepts(v) {
      return isChatMessage(v) && !('type' in v) && !(Array.isArray(v.content) && v.content.some((p) => isPlainObject(p) && (p.type === 'tool_use' || p.type === 'tool_result')));
    },
    open: ({ builder }) => ({ read: (doc) => readChatMessage(builder, doc, [], doc.value as Obj) }),
  },
};
