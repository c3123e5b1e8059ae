// OpenAI Responses: a response object with `output`, a request with `input` items, or a list (or JSONL) of
// items. Calls are `function_call` items with JSON-string `arguments`; results are `function_call_output`.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { isPlainObject, type ArgsExpectation, type SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';

type Obj = Record<string, unknown>;

const ITEM_TYPES = new Set(['message', 'function_call', 'function_call_output', 'reasoning', 'custom_tool_call', 'custom_tool_call_output', 'mcp_call', 'mcp_list_tools']);
const CALL_ITEMS = new Set(['function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'mcp_call']);

function isItem(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && ITEM_TYPES.has(v.type);
}

function isCallItem(v: unknown): boolean {
  return isPlainObject(v) && CALL_ITEMS.has(v.type as string);
}

/** Read one Responses item. Consecutive function_call items are one turn. `expect` is how arguments are sent
 *  (exporters that decoded them already pass 'any'). */
export function readResponsesItem(b: SessionBuilder, doc: Doc, path: JsonPath, item: Obj, expect: ArgsExpectation = 'string'): void {
  if (item.type === 'function_call' && typeof item.name === 'string') {
    b.call({
      name: item.name,
      id: typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : undefined,
      at: { doc, path },
      namePath: ['name'],
      argsPath: ['arguments'],
      args: item.arguments,
      expect,
    });
    return;
  }
  if (item.type === 'custom_tool_call') {
    readCustomToolCall(b, doc, path, item);
    return;
  }
  if (item.type === 'mcp_call' && typeof item.name === 'string') {
    // A hosted MCP call: the call and its result (`output`, or `error`) are one item, with no call_id.
    const id = typeof item.id === 'string' ? item.id : undefined;
    b.call({ name: item.name, id, at: { doc, path }, namePath: ['name'], argsPath: ['arguments'], args: item.arguments, expect });
    const failed = item.error !== undefined && item.error !== null;
    if ('output' in item || failed) {
      b.result({ at: { doc, path }, callId: id, payload: failed ? item.error : item.output, payloadPath: [failed ? 'error' : 'output'],
        transport: 'error' in item ? { isError: failed } : {} });
    }
    b.breakTurn();
    return;
  }
  if (item.type === 'mcp_list_tools' && Array.isArray(item.tools)) {
    item.tools.forEach((t, i) => {
      if (isPlainObject(t) && typeof t.name === 'string' && 'input_schema' in t) b.tool(t.name, t.input_schema, { doc, path: [...path, 'tools', i] });
    });
    return;
  }
  if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
    b.result({ at: { doc, path }, callId: typeof item.call_id === 'string' ? item.call_id : undefined,
      payload: item.output, payloadPath: ['output'] });
  }
  // An assistant `message` item keeps its `output_text` parts: a `function_call` item after it (the same
  // response) drops them again, as the text of a message that did call.
  if (item.type === 'message' && item.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, item.content);
  else if (item.type !== 'reasoning') b.breakTurn();
}

export function readResponsesTools(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (isPlainObject(t) && t.type === 'function' && typeof t.name === 'string') b.tool(t.name, t.parameters, { doc, path: [...path, i] });
  });
}

function itemsOf(v: unknown): { list: unknown[]; key?: string } | undefined {
  if (Array.isArray(v)) return { list: v };
  if (!isPlainObject(v)) return undefined;
  if (Array.isArray(v.output) && (v.object === 'response' || v.output.some(isCallItem))) return { list: v.output, key: 'output' };
  if (Array.isArray(v.input) && v.input.some(isCallItem)) return { list: v.input, key: 'input' };
  return undefined;
}

export const openaiResponses: FormatAdapter = {
  id: 'openai-responses',
  document: {
    claims(v) {
      const found = itemsOf(v);
      if (!found) return false;
      if (found.key === 'output' && isPlainObject(v) && v.object === 'response') return true;
      return found.list.length > 0 && found.list.every(isItem) && found.list.some(isCallItem);
    },
    read(doc, emit) {
      const v = doc.value;
      const found = itemsOf(v);
      singleSession((b) => {
        if (isPlainObject(v)) readResponsesTools(b, doc, ['tools'], v.tools);
        found?.list.forEach((item, i) => {
          if (isItem(item)) readResponsesItem(b, doc, found.key ? [found.key, i] : [i], item);
        });
      }, emit);
    },
  },
  lines: {
    claims: isCallItem,
    accepts: isItem,
    open: ({ builder }) => ({ read: (doc) => readResponsesItem(builder, doc, [], doc.value as Obj) }),
  },
};

/** A `custom_tool_call`: its `input` is free-form text (a grammar's language, e.g. a patch), not JSON. */
export function readCustomToolCall(b: SessionBuilder, doc: Doc, path: JsonPath, item: Obj): void {
  if (typeof item.name !== 'string') return;
  b.call({ name: item.name, id: typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : undefined,
    at: { doc, path }, namePath: ['name'], argsPath: ['input'], args: item.input, expect: 'any', freeform: typeof item.input === 'string' });
}
