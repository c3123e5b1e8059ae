// tau-bench result files: a JSON array of `{task_id, reward, info, traj, trial}`. Each entry is a session whose
// `traj` is an OpenAI Chat conversation (read by the Chat adapter's reader). A crashed run has an empty `traj`
// and its `info.error`: no calls, nothing to pair.
import type { FormatAdapter } from './adapter';
import { readChatMessage, isChatMessage } from './openai-chat';
import { isPlainObject, SessionSet, type Obj, keyText } from './util';

function isEntry(v: unknown): v is Obj & { traj: unknown[] } {
  return isPlainObject(v) && 'task_id' in v && 'reward' in v && Array.isArray(v.traj);
}

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
          if (isChatMessage(m)) readChatMessage(b, doc, [i, 'traj', j], m);
        });
      });
      sessions.emitAll(emit);
    },
  },
};
