// Glaive function-calling data (glaiveai/glaive-function-calling-v2, and the sets built on it): a record
// `{system, chat}` of two texts. `system` lists the definitions as JSON objects after its sentence ("…Use them if
// required -"); `chat` is the conversation as text, each turn opened by `USER:`, `ASSISTANT:` or `FUNCTION
// RESPONSE:` (turns end with `<|endoftext|>`). A call is `<functioncall> {"name": …, "arguments": '{…}'}` in an
// assistant turn, its arguments JSON in single quotes (`tool-tags.ts`); the `FUNCTION RESPONSE:` after it is its
// result, paired by position (the text names no call id). Each record is one session (JSONL, or the JSON array
// the dataset ships, read element by element).
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc } from '../parse/doc';
import { callBlocks, jsonBody, valueDoc, writeCalls, writeResult, writeTextDefinitions } from './tool-tags';
import { isPlainObject, unansweredByName, type Obj } from './util';

const MARK = /(?:^|\s)(USER|ASSISTANT|FUNCTION RESPONSE|SYSTEM):[ \t]*/g;
const END = /\s*(?:<\|endoftext\|>|<\/s>)?\s*$/;

function isGlaive(v: unknown): v is Obj & { chat: string } {
  return isPlainObject(v) && typeof v.chat === 'string' && (v.system === undefined || typeof v.system === 'string')
    && /(?:^|\s)USER:/.test(v.chat) && /(?:^|\s)ASSISTANT:/.test(v.chat);
}

function readChat(b: SessionBuilder, doc: Doc, rec: Obj & { chat: string }): void {
  if (typeof rec.system === 'string') writeTextDefinitions(b, doc, ['system'], rec.system);
  const chat = rec.chat;
  const marks: { role: string; body: number; at: number }[] = [];
  MARK.lastIndex = 0;
  for (let m = MARK.exec(chat); m; m = MARK.exec(chat)) marks.push({ role: m[1], at: m.index, body: m.index + m[0].length });
  const blocks = callBlocks(chat);
  let pending: number[] = [];
  // blocks and marks both in text order: one walk through the blocks hands each turn its own
  let next = 0;
  marks.forEach((mark, k) => {
    const end = k + 1 < marks.length ? marks[k + 1].at : chat.length;
    while (next < blocks.length && blocks[next].start < mark.body) next++;
    const first = next;
    while (next < blocks.length && blocks[next].start < end) next++;
    if (mark.role === 'ASSISTANT') {
      const mine = blocks.slice(first, next);
      if (mine.length === 0) return b.breakTurn();
      const turn = b.newTurn();
      pending = mine.flatMap((v) => writeCalls(b, valueDoc(doc, ['chat'], chat, v), [], v.value, turn));
    } else if (mark.role === 'FUNCTION RESPONSE') {
      const raw = chat.slice(mark.body, end);
      const lead = raw.length - raw.trimStart().length;
      const body = raw.trimStart().replace(END, '');
      writeResult(b, doc, ['chat'], chat, { body, value: jsonBody(chat, mark.body + lead, body) }, pending.shift() ?? unansweredByName(b));
    } else b.breakTurn();
  });
}

export const glaive: FormatAdapter = {
  id: 'glaive',
  document: {
    claims: isGlaive,
    read(doc, emit) {
      if (isGlaive(doc.value)) singleSession((b) => readChat(b, doc, doc.value as Obj & { chat: string }), emit);
    },
  },
};
