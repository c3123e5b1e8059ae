// Entire (entireio/cli) compact transcripts: the `transcript.jsonl` a checkpoint keeps beside the agent's own
// transcript (`full.jsonl` or `raw_transcript`, read by that agent's reader). Entire writes one normalized record
// per line, whatever the agent (Claude Code, Codex, Gemini CLI, OpenCode, Copilot CLI, Cursor, Droid, Pi):
// `{v: 1, agent, cli_version, type: user | assistant, ts, id?, input_tokens?, output_tokens?, content}`. Entire itself
// takes a line as compact when `v` is set and `cli_version` is not empty. A user line's `content` is text blocks
// `{id?, text}` (older versions: a string); an assistant line is one model message (its streamed fragments
// merged), `content` a string or blocks: `text`, and `tool_use {id, name, input, result?}` whose `result {output,
// status, file?, matchCount?}` is the tool's outcome inlined into its call (`status` "error", else "success": no
// flag was set). `input` is absent when the agent's arguments were not JSON. Entire inlines only the results of
// the record right after a message and drops the others, so a call without `result` proves nothing: the file's
// links are only those it states.
import type { FormatAdapter, LineReader } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc } from '../parse/doc';
import type { TransportSignals } from '../model';
import { isPlainObject, str, type Obj } from './util';
import { blockText } from './anthropic';

/** A compact transcript record, beyond doubt: Entire's own test (`v` set, `cli_version` not empty) plus its
 *  agent, kind and content. */
export function isEntireLine(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.v === 'number' && v.v > 0 && typeof v.cli_version === 'string' && v.cli_version !== ''
    && typeof v.agent === 'string' && (v.type === 'user' || v.type === 'assistant') && 'content' in v;
}

const FAILED = new Set(['error', 'failed', 'failure', 'cancelled', 'canceled', 'rejected', 'denied']);

/** What an inlined result's `status` says. Entire writes "success" wherever the agent's transcript set no error
 *  flag (every Codex output, whatever its exit code), so only a failed status is a signal. */
function signalsOf(result: Obj): TransportSignals {
  const status = str(result.status)?.toLowerCase();
  return status !== undefined && FAILED.has(status) ? { isError: true } : {};
}

/** Reads one assistant record; `sameTurn` is the turn of the record before when it carried the same message id
 *  (Entire merges only a message's adjacent fragments, so one message may still span two records). Returns the
 *  turn its calls took, if any. */
function readAssistant(b: SessionBuilder, doc: Doc, line: Obj, sameTurn: number | undefined): number | undefined {
  const content = line.content;
  const blocks = Array.isArray(content) ? content : [];
  const uses = blocks.some((p) => isPlainObject(p) && p.type === 'tool_use' && typeof p.name === 'string');
  if (!uses) {
    b.assistantText({ doc, path: ['content'] }, content);
    return sameTurn;
  }
  const turn = sameTurn ?? b.newTurn(); // one message: its calls are one turn
  const messageText = blockText(blocks) || undefined;
  blocks.forEach((p, j) => {
    if (!isPlainObject(p) || p.type !== 'tool_use' || typeof p.name !== 'string') return;
    const at = { doc, path: ['content', j] };
    const id = str(p.id);
    const call = b.call({ name: p.name, id, at, namePath: ['name'], argsPath: ['input'], args: p.input, expect: 'object', messageText }, turn);
    if (!isPlainObject(p.result)) return;
    b.result({ at: { doc, path: ['content', j, 'result'] }, callId: id, callIndex: id === undefined ? call.index : undefined,
      payload: p.result.output, payloadPath: ['output'], transport: signalsOf(p.result) });
  });
  return turn;
}

function open(b: SessionBuilder): LineReader {
  b.session.linksStated = true;
  let last: { id?: string; turn?: number } = {};
  return {
    read(doc) {
      const line = doc.value as Obj;
      if (line.type !== 'assistant') {
        last = {};
        b.breakTurn();
        return;
      }
      const id = str(line.id);
      const turn = readAssistant(b, doc, line, id !== undefined && id === last.id ? last.turn : undefined);
      last = { id, turn };
    },
  };
}

export const entire: FormatAdapter = {
  id: 'entire',
  lines: {
    // a call's result is inlined into it: every call is settled once its line is read
    segments: 'settled',
    claims: isEntireLine,
    open: ({ builder }) => open(builder),
  },
};
