// Google Antigravity (`agy`) transcripts, `brain/<conversation>/.system_generated/logs/transcript_full.jsonl`: one
// step per line `{step_index, source, type, status, created_at, content?, thinking?, tool_calls?}` (the token counts
// live in the conversation's own database, not here). `USER_INPUT` is the user (`source: USER_EXPLICIT`), a
// `PLANNER_RESPONSE` the model: its `tool_calls[] {name, args}` are the calls of one turn, with no ids. The steps
// after it hold what the tools did, one step per call in the calls' order, typed by the action (`VIEW_FILE` for
// `view_file`, `RUN_COMMAND`, `GREP_SEARCH`, or a `GENERIC` step), `content` the rendered output: a step named like a
// waiting call answers it, any other the earliest call still waiting (a step with none waiting, such as a note on
// the workspace's permissions, is no result). `status` `ERROR` / `FAILED` (or a cancellation) is an honest failure; a step not finished
// yet (another status) is not read. `CHECKPOINT` (a compaction summary), `CONVERSATION_HISTORY` and
// `EPHEMERAL_MESSAGE` are markers. A step index met again is a copy.
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc } from '../parse/doc';
import { isPlainObject, unansweredByName, type Obj } from './util';

const STEP_TYPE = /^[A-Z][A-Z0-9_]*$/;
/** The steps that are no tool's outcome. */
const NOT_OUTCOMES = new Set(['USER_INPUT', 'PLANNER_RESPONSE', 'CHECKPOINT', 'CONVERSATION_HISTORY', 'EPHEMERAL_MESSAGE']);
const FAILED = new Set(['ERROR', 'FAILED', 'CANCELED', 'CANCELLED']);
/** Statuses of a step that ended (absent: it says nothing, and is read). */
const ENDED = new Set(['DONE', ...FAILED]);

function isStep(v: unknown): v is Obj & { step_index: number; type: string } {
  return isPlainObject(v) && typeof v.step_index === 'number' && typeof v.type === 'string' && STEP_TYPE.test(v.type)
    && typeof v.source === 'string' && typeof v.created_at === 'string';
}

/** A step only Antigravity writes: the user's input, or the planner's (its calls). */
function isOwnStep(v: unknown): boolean {
  return isStep(v) && (v.type === 'USER_INPUT' || v.type === 'PLANNER_RESPONSE' || Array.isArray(v.tool_calls));
}

class StepReader {
  private readonly seen = new Set<number>();

  constructor(private readonly b: SessionBuilder) {}

  read(doc: Doc): void {
    const v = doc.value;
    if (!isStep(v)) return;
    const status = typeof v.status === 'string' ? v.status : undefined;
    if (status !== undefined && !ENDED.has(status) && v.type !== 'PLANNER_RESPONSE') return; // read once it ends
    if (this.seen.has(v.step_index)) return;
    this.seen.add(v.step_index);
    const b = this.b;
    if (v.type === 'PLANNER_RESPONSE') {
      const calls = Array.isArray(v.tool_calls) ? v.tool_calls : [];
      if (!calls.some((c) => isPlainObject(c) && typeof c.name === 'string')) {
        b.breakTurn();
        return;
      }
      const turn = b.newTurn();
      const text = typeof v.content === 'string' && v.content !== '' ? v.content : undefined;
      calls.forEach((c, i) => {
        if (!isPlainObject(c) || typeof c.name !== 'string') return;
        b.call({ name: c.name, at: { doc, path: ['tool_calls', i] }, namePath: ['name'], argsPath: ['args'], args: c.args, expect: 'object',
          messageText: text }, turn);
      });
      return;
    }
    if (NOT_OUTCOMES.has(v.type)) {
      b.breakTurn();
      return;
    }
    // the step of the call it is named after, else of the earliest call still waiting
    const callIndex = unansweredByName(b, v.type.toLowerCase()) ?? unansweredByName(b);
    if (callIndex === undefined) return;
    b.result({ at: { doc, path: [] }, callIndex, payload: v.content, payloadPath: ['content'],
      transport: { isError: status !== undefined && FAILED.has(status) } });
  }
}

export const antigravity: FormatAdapter = {
  id: 'antigravity',
  lines: {
    claims: isOwnStep,
    accepts: isStep,
    open({ builder }) {
      const reader = new StepReader(builder);
      return { read: (doc) => reader.read(doc) };
    },
  },
};
