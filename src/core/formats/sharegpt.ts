// ShareGPT-layout training data with tool use, as LLaMA-Factory reads it (its `sharegpt` formatting) and as
// Hermes Agent, APIGen-MT, ToolACE and Hermes' function-calling sets write it: a record holds the conversation in
// `conversations` (or `messages`), each message `{from, value}` (or `{role, content}`). Roles: `human`/`user`,
// `gpt`/`assistant`, `system`, `function_call` (the call as JSON `{name, arguments}`, or a list of them) and
// `observation` (its result); Glaive conversions write `function-call` / `function-response`. Hermes-style records
// use `tool` for results and write calls in the assistant's text (`<tool_call>` blocks, `tool-tags.ts`), results
// as `<tool_response>` blocks. Definitions: the record's `tools` column (JSON, or a JSON string of it) and the
// `<tools>` block of a system text (the message, or a `system` column). Results name no call id: each answers the
// calls of the turn before it, in order; the one observation of a turn of several calls answers them all
// (LLaMA-Factory keeps one observation per call turn). ToolACE's assistant answers calls in Python syntax
// (`[f(a=1)]`, `python-calls.ts`). A preference record's `chosen` turn is read after the conversation (its
// `rejected` turn is wrong on purpose: not read). Each record is one session; a file is one record, a JSONL of
// them, or a JSON array (read element by element). `role/content` records that are OpenAI chat messages are the
// Chat reader's, but for those whose calls are the text tags answered by `<tool_response>` turns.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { type Doc, type JsonPath } from '../parse/doc';
import { pythonCalls, writePythonCalls } from './python-calls';
import { reactSteps, writeReactCall } from './react-text';
import { firstValue } from './text-values';
import {
  callBlocks, holdsCallTags, jsonBody, responseBlocks, resultName, valueDoc, writeCalls,
  writeDefinitions, writeResult, writeTextDefinitions,
} from './tool-tags';
import { isPlainObject, jsonIn, keyText, str, unansweredByName, type Obj } from './util';

const USER = new Set(['human', 'user']);
const ASSISTANT = new Set(['gpt', 'assistant', 'model', 'chatgpt', 'bot']);
const CALL = new Set(['function_call', 'tool_call']);
const OBSERVATION = new Set(['observation', 'tool', 'function', 'ipython', 'tool_response', 'function_response']);
const LIST_KEYS = ['conversations', 'messages', 'conversation'] as const;

interface Layout {
  /** Where the list is in the record (`[]`: the value is the list itself). */
  path: JsonPath;
  list: Obj[];
  role: 'from' | 'role';
}

/** A message's role, lower case, `-` read as `_` (Glaive conversions write `function-call` / `function-response`). */
function roleOf(m: Obj, l: Layout): string {
  return String(m[l.role]).toLowerCase().replace(/-/g, '_');
}

/** The key of a message's text: `value` (ShareGPT) or `content`. */
function contentKey(m: Obj, l: Layout): string {
  if (l.role === 'from') return 'value' in m ? 'value' : 'content';
  return 'content' in m ? 'content' : 'value';
}

function listLayout(list: unknown, path: JsonPath): Layout | undefined {
  if (!Array.isArray(list) || list.length === 0 || !isPlainObject(list[0])) return undefined;
  const role = typeof list[0].from === 'string' ? 'from' : typeof list[0].role === 'string' ? 'role' : undefined;
  if (!role || !list.every((m) => isPlainObject(m) && typeof m[role] === 'string')) return undefined;
  return { path, list: list as Obj[], role };
}

function layoutOf(v: unknown): Layout | undefined {
  if (Array.isArray(v)) return listLayout(v, []);
  if (!isPlainObject(v)) return undefined;
  for (const key of LIST_KEYS) if (key in v) return listLayout(v[key], [key]);
  return undefined;
}

function textOfMessage(m: Obj, l: Layout): string | undefined {
  return str(m[contentKey(m, l)]);
}

/** Whether the value is a record (or a bare conversation) of this layout. */
function isShareGpt(v: unknown): boolean {
  const l = layoutOf(v);
  if (!l) return false;
  const roles = l.list.map((m) => roleOf(m, l));
  // LLaMA-Factory's own tags: no other layout writes them as roles
  if (roles.some((r) => CALL.has(r) || r === 'observation')) return true;
  // ShareGPT's own keys
  if (l.role === 'from') return roles.some((r) => USER.has(r) || ASSISTANT.has(r) || OBSERVATION.has(r));
  // `role/content` messages are OpenAI chat messages, but for records whose calls are the text tags
  if (l.list.some((m) => 'tool_calls' in m || 'function_call' in m || Array.isArray(m.content))) return false;
  const written = l.list.some((m) => ASSISTANT.has(roleOf(m, l)) && holdsCallTags(textOfMessage(m, l) ?? ''));
  if (!written) return false;
  // answered as the tags answer: a request with `tools` whose model wrote a call as text is a fault, not this layout
  return l.list.some((m) => !ASSISTANT.has(roleOf(m, l)) && (textOfMessage(m, l) ?? '').includes('<tool_response>'));
}

/** The `tools` column: definitions as JSON, or as a JSON string of them. */
function readToolsColumn(b: SessionBuilder, doc: Doc, path: JsonPath, tools: unknown): void {
  if (tools === undefined || tools === null) return;
  const loc = jsonIn(doc, path, tools);
  if (typeof loc.value !== 'string') writeDefinitions(b, loc.doc, loc.path, loc.value);
}

/** An answer in Python call syntax (ToolACE's `[f(a=1), Get Weather(city="x")]`; a `function_call` turn may hold
 *  one bare call): its calls, their arguments found at the message. Prose in brackets is no call. */
function pythonAnswer(b: SessionBuilder, doc: Doc, path: JsonPath, text: string, bare = false, turn?: number): number[] {
  if (!bare && !/^\s*\[/.test(text)) return [];
  const calls = pythonCalls(text, true);
  if (!calls) return [];
  return writePythonCalls(b, doc, path, calls, turn ?? b.newTurn());
}

/** An answer in ReAct text (ToolBench's `Thought: … / Action: <api> / Action Input: {…}`): its calls, one turn;
 *  a step whose observation the text holds is answered by it, the others by the messages that follow. */
function reactAnswer(b: SessionBuilder, message: NodeRef, key: string, text: string): number[] {
  const steps = reactSteps(text);
  if (steps.length === 0) return [];
  const turn = b.newTurn();
  const out: number[] = [];
  for (const s of steps) {
    const call = writeReactCall(b, message, text, s, turn, key);
    if (s.observation === undefined) out.push(call.index);
    else b.result({ at: { doc: message.doc, path: [...message.path, key] }, callIndex: call.index, payload: s.observation });
  }
  return out;
}

function readConversation(b: SessionBuilder, doc: Doc, l: Layout, rec: Obj | undefined): void {
  if (rec) {
    readToolsColumn(b, doc, ['tools'], rec.tools);
    if (typeof rec.system === 'string') writeTextDefinitions(b, doc, ['system'], rec.system);
  }
  let pending: number[] = [];
  const answer = (name: string | undefined) => pending.shift() ?? (name === undefined ? undefined : unansweredByName(b, name));
  // a preference record's `chosen` turn continues the conversation (its `rejected` one is wrong on purpose: not read)
  const turns: { m: Obj; at: JsonPath }[] = l.list.map((m, i) => ({ m, at: [...l.path, i] }));
  if (rec && isPlainObject(rec.chosen) && typeof rec.chosen[l.role] === 'string') turns.push({ m: rec.chosen, at: ['chosen'] });
  turns.forEach(({ m, at }, i) => {
    const role = roleOf(m, l);
    const key = contentKey(m, l);
    const path = [...at, key];
    const content = m[key];
    const text = typeof content === 'string' ? content : undefined;
    if (role === 'system') {
      if (text !== undefined) writeTextDefinitions(b, doc, path, text);
      b.breakTurn();
    } else if (CALL.has(role)) {
      const turn = b.newTurn();
      if (text !== undefined) {
        const v = firstValue(text);
        pending = v ? writeCalls(b, valueDoc(doc, path, text, v), [], v.value, turn) : pythonAnswer(b, doc, path, text, true, turn);
      } else pending = writeCalls(b, doc, path, content, turn);
    } else if (ASSISTANT.has(role)) {
      const blocks = text !== undefined ? callBlocks(text) : [];
      if (blocks.length > 0) {
        const turn = b.newTurn();
        pending = blocks.flatMap((v) => writeCalls(b, valueDoc(doc, path, text!, v), [], v.value, turn));
      } else {
        const python = text !== undefined ? pythonAnswer(b, doc, path, text) : [];
        const react = text !== undefined && python.length === 0 ? reactAnswer(b, { doc, path: at }, key, text) : [];
        if (python.length > 0) pending = python;
        else if (react.length > 0) pending = react;
        else b.assistantText({ doc, path }, content);
      }
    } else if (OBSERVATION.has(role) || (USER.has(role) && text !== undefined && text.includes('<tool_response>'))) {
      const blocks = text !== undefined ? responseBlocks(text) : [];
      if (blocks.length > 0) {
        for (const block of blocks) writeResult(b, doc, path, text, block, answer(resultName(block)));
        return;
      }
      const lead = text !== undefined ? text.length - text.trimStart().length : 0;
      const block = text !== undefined ? { body: text.trim(), value: jsonBody(text, lead, text.trim()) } : undefined;
      const next = turns[i + 1]?.m;
      const alone = !(next && OBSERVATION.has(roleOf(next, l)));
      // one observation after a turn of several calls: the answer of them all, or, when it is a JSON list of as many
      // entries (ToolACE's `[{name, results}, …]`), each entry the answer of its call
      const first = i === 0 || !OBSERVATION.has(roleOf(turns[i - 1].m, l));
      if (alone && first && pending.length > 1) {
        const list = block?.value?.value;
        if (text !== undefined && block?.value && Array.isArray(list) && list.length === pending.length) {
          const inner = valueDoc(doc, path, text, block.value);
          pending.forEach((idx, k) => b.result({ at: { doc: inner, path: [k] }, callIndex: idx, payload: list[k], payloadPath: [] }));
        } else for (const idx of pending) writeResult(b, doc, path, text, block, idx);
        pending = [];
        return;
      }
      if (text === undefined) {
        b.result({ at: { doc, path }, callIndex: answer(str(m.name)), payload: content, payloadPath: [] });
        return;
      }
      writeResult(b, doc, path, text, block, answer(str(m.name) ?? resultName(block)));
    } else {
      b.breakTurn();
    }
  });
}

function recordId(rec: Obj | undefined): string | undefined {
  const id = rec?.id;
  return typeof id === 'string' || typeof id === 'number' ? keyText(id) : undefined;
}

export const sharegpt: FormatAdapter = {
  id: 'sharegpt',
  document: {
    claims: isShareGpt,
    read(doc, emit) {
      const l = layoutOf(doc.value);
      if (!l) return;
      const rec = isPlainObject(doc.value) ? doc.value : undefined;
      singleSession((b) => readConversation(b, doc, l, rec), emit, recordId(rec));
    },
  },
};
