// What makes a bare array of Anthropic-style messages a Cline or Roo Code `api_conversation_history.json`. Apart from
// cline.ts because two readers ask it: the Cline reader, and the Anthropic reader, which leaves such a file to it
// (and cline.ts reads its messages with the Anthropic reader's, so neither file imports the other).
import { isPlainObject, type Obj } from '../objects';

function isMessage(v: unknown): v is Obj {
  return isPlainObject(v) && (v.role === 'user' || v.role === 'assistant') && (typeof v.content === 'string' || Array.isArray(v.content));
}

export function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.filter((b) => isPlainObject(b) && b.type === 'text' && typeof b.text === 'string').map((b) => (b as Obj).text as string);
}

export const RESULT_HEADER = /^\[([A-Za-z_][\w.-]*)\b([\s\S]*?)\] Result:[ \t]*(?:\r?\n)?/;
const CLINE_MARK = /<environment_details>|^<task>|^\[TASK RESUMPTION\]/;

/** What only Cline and Roo write into a conversation: their message keys, the environment block they append to
 *  every user message, or their result headers. */
function hasClineMarks(m: Obj): boolean {
  if ('modelInfo' in m || 'conversationHistoryIndex' in m || (typeof m.ts === 'number' && m.role === 'assistant')) return true;
  return m.role === 'user' && texts(m.content).some((t) => CLINE_MARK.test(t) || RESULT_HEADER.test(t));
}

/** A Cline or Roo `api_conversation_history.json`: a bare array of messages that carries their marks. */
export function isClineHistory(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every(isMessage) && v.some(hasClineMarks);
}
