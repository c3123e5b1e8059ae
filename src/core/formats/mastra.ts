// Mastra (TypeScript agents): memory messages of both storage versions, thread dumps, and the results and stream
// chunks of `agent.generate` / `agent.stream`. The messages are the AI SDK's (`ai-sdk.ts` reads them). Rules
// followed (packages/core/src/agent/message-list, memory, storage, stream/types.ts):
// - v2 (`MastraDBMessage`): `{id, role, threadId, resourceId, createdAt, content: {format: 2, parts,
//   toolInvocations?, content?}}`, the parts a UI message's; a storage row keeps `content` as JSON text.
// - v1 (`MastraMessageV1`): `{id, role, threadId, type: "text" | "tool-call" | "tool-result", content}`, the
//   content a model message's parts.
// - A thread's messages come as a list, `{messages}` (`memory.recall()` / `query()`), or `{messages, uiMessages}`
//   (the client's `getMessages()`: the same conversation twice, so `messages` is read, `uiMessages` only when
//   `messages` holds no tool traffic); one session per thread.
// - Results and chunks of the streaming protocol wrap the AI SDK's fields in `payload` (`{type: "tool-call", runId,
//   from, payload: {toolCallId, toolName, args}}`, `tool-result`, `tool-error`); read by `ai-sdk.ts`'s part reader.
import type { FormatAdapter, LineSink } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { isGenerateResult, isMessageList as isAiSdkList, isToolPart, PartReader, readGenerateResult, readMessage, readModelMessage, readUiMessage } from './ai-sdk';
import { at, isPlainObject, jsonIn, str, type Obj } from './util';

const V1_TYPES = new Set(['text', 'tool-call', 'tool-result']);

/** A v2 content (`{format: 2, parts}`), from the object or from its JSON text. */
function v2Content(c: unknown): boolean {
  if (isPlainObject(c)) return c.format === 2 && Array.isArray(c.parts);
  return typeof c === 'string' && c.startsWith('{"format":2');
}

function isMastraMessage(v: unknown): v is Obj {
  if (!isPlainObject(v) || typeof v.role !== 'string' || !('content' in v)) return false;
  if (v2Content(v.content)) return true;
  return ('threadId' in v || 'thread_id' in v || 'resourceId' in v) && (typeof v.type !== 'string' || V1_TYPES.has(v.type) || v.type === 'v2' || v.type === 'v1');
}

function holdsTools(m: Obj): boolean {
  const c = m.content;
  if (typeof c === 'string') return /"(tool-invocation|tool-call|tool-result)"/.test(c) || /"type":"tool-[^"]+","toolCallId"/.test(c);
  if (isPlainObject(c)) return Array.isArray(c.parts) && c.parts.some((p) => isPlainObject(p) && typeof p.type === 'string' && p.type.startsWith('tool-') || (isPlainObject(p) && p.type === 'dynamic-tool'));
  return Array.isArray(c) && c.some((p) => isPlainObject(p) && (p.type === 'tool-call' || p.type === 'tool-result'));
}

function isThread(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isMastraMessage) && v.some(holdsTools);
}

/** The list a dump keeps its messages in: a thread, or `{messages}` / `{messages, uiMessages}`. */
function threadOf(v: unknown): { path: string[]; list: Obj[]; ui: boolean } | undefined {
  if (isThread(v)) return { path: [], list: v, ui: false };
  if (!isPlainObject(v)) return undefined;
  if (isThread(v.messages)) return { path: ['messages'], list: v.messages, ui: false };
  if (Array.isArray(v.messages) && v.messages.every(isMastraMessage) && isAiSdkList(v.uiMessages)) return { path: ['uiMessages'], list: v.uiMessages, ui: true };
  return undefined;
}

function readMastraMessage(b: SessionBuilder, ref: NodeRef, m: Obj): void {
  let content: NodeRef & { value: unknown } = { ...at(ref, 'content'), value: m.content };
  if (typeof m.content === 'string') content = jsonIn(ref.doc, [...ref.path, 'content'], m.content);
  const c = content.value;
  if (isPlainObject(c) && c.format === 2) readUiMessage(b, content, { ...c, role: m.role });
  else if (Array.isArray(c)) readModelMessage(b, ref, { role: m.role, content: c });
  else if (m.role === 'assistant') b.assistantText(content, c);
  else b.breakTurn();
}

function isMastraChunk(v: unknown): boolean {
  return isToolPart(v) && isPlainObject(v) && isPlainObject(v.payload);
}

export const mastra: FormatAdapter = {
  id: 'mastra',
  document: {
    claims: (v) => threadOf(v) !== undefined
      || (isGenerateResult(v) && [...(Array.isArray(v.toolCalls) ? v.toolCalls : []), ...(Array.isArray(v.toolResults) ? v.toolResults : [])].some(isMastraChunk)),
    read(doc, emit) {
      const v = doc.value;
      const root: NodeRef = { doc, path: [] };
      const t = threadOf(v);
      if (t) {
        const first = t.list[0];
        const id = str(first.threadId) ?? str(first.thread_id);
        singleSession((b) => t.list.forEach((m, i) => {
          const ref = at(root, ...t.path, i);
          if (t.ui) readMessage(b, ref, m);
          else readMastraMessage(b, ref, m);
        }), emit, id);
      } else if (isGenerateResult(v)) singleSession((b) => readGenerateResult(b, root, v), emit);
    },
  },
  lines: {
    claims: isMastraChunk,
    // every chunk of Mastra's protocol names its run and its source (`from`); a `runId` alone is any log's
    accepts: (v) => isPlainObject(v) && typeof v.type === 'string' && 'runId' in v && 'from' in v,
    open(sink: LineSink) {
      const r = new PartReader(sink.builder);
      return { read(doc) { r.read({ doc, path: [] }, doc.value); } };
    },
  },
};
