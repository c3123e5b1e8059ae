// tau-bench result files: a JSON array of `{task_id, reward, info, traj, trial}`. Each entry is a session whose
// `traj` is an OpenAI Chat conversation (read by the Chat adapter's reader). A crashed run has an empty `traj`
// and its `info.error`: no calls, nothing to pair. The environment answers every call with a `role: "tool"` message
// whose content is the tool's return; a tool that raised (or refused) answers `"Error: ..."` — tau-bench's only error
// signal, so such a result is an honest failure and any other says success.
import type { FormatAdapter } from './adapter';
import { readChatMessage, isChatMessage } from './openai-chat';
import { isPlainObject, SessionSet, type Obj, keyText } from './util';

function isEntry(v: unknown): v is Obj & { traj: unknown[] } {
  return isPlainObject(v) && 'task_id' in v && 'reward' in v && Array.isArray(v.traj);
}

/** The environment's error answer (`f"Error: {e}"` and the tools' own `"Error: ..."` returns). */
const ERROR_ANSWER = /^Error:/;

export const tauBench: FormatAdapter = {
  id: 'tau-bench',
  document: {
    claims(v) {
      return Array.isArray(v) && v.length > 0 && v.every(isEntry);
    },
    read(doc, emit) {
      const sessions = new SessionSet();
      (doc.value as (Obj & { traj: unknown[] })[]).forEach((e, i) => {
        const b = sessions.get(`${keyText(e.task_id)}#${keyText(e.trial ?? i)}`);
        e.traj.forEach((m, j) => {
          if (!isChatMessage(m)) return;
          const before = b.session.results.length;
          readChatMessage(b, doc, [i, 'traj', j], m);
          const r = b.session.results[before];
          if (r && m.role === 'tool') r.transport = { isError: typeof m.content === 'string' && ERROR_ANSWER.test(m.content) };
        });
      });
      sessions.emitAll(emit);
    },
  },
};
