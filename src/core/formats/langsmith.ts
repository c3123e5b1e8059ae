// LangSmith run payloads (`{post: [runs], patch: [runs]}` as the SDK ingests them, or a list of runs): a run is
// split over post and patch, merged by id, and ordered by `dotted_order`. LLM runs whose outputs are Chat
// completions make calls (read by the Chat adapter's reader); `tool` runs are executions: the answer to the
// earliest unanswered call of their name, else a call (`inputs`) and its result (`outputs`, `error`).
import type { FormatAdapter } from './adapter';
import { readChatMessage, isChatMessage } from './openai-chat';
import type { JsonPath } from '../parse/doc';
import { isPlainObject, SessionSet, str, unansweredByName, type Obj, keyText } from './util';

function isRun(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.id === 'string' && ('run_type' in v || 'dotted_order' in v || 'trace_id' in v);
}

function isIngest(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  const lists = ['post', 'patch'].filter((k) => k in v);
  return lists.length > 0 && lists.every((k) => Array.isArray(v[k]) && (v[k] as unknown[]).every(isRun)) && lists.some((k) => (v[k] as unknown[]).length > 0);
}

interface Part {
  run: Obj;
  path: JsonPath;
}

export const langsmith: FormatAdapter = {
  id: 'langsmith',
  document: {
    claims(v) {
      return isIngest(v);
    },
    read(doc, emit) {
      const v = doc.value as Obj;
      const byId = new Map<string, Part[]>();
      for (const key of ['post', 'patch']) {
        if (!Array.isArray(v[key])) continue;
        (v[key] as Obj[]).forEach((run, i) => {
          const parts = byId.get(run.id as string) ?? [];
          parts.push({ run, path: [key, i] });
          byId.set(run.id as string, parts);
        });
      }
      const runs = [...byId.values()].sort((a, b) => keyText(a[0].run.dotted_order ?? '').localeCompare(keyText(b[0].run.dotted_order ?? '')));
      const sessions = new SessionSet();
      for (const parts of runs) {
        const first = parts[0].run;
        const b = sessions.get(str(first.trace_id) ?? '');
        const type = parts.map((p) => str(p.run.run_type)).find((t) => t !== undefined);
        const outputs = parts.find((p) => isPlainObject(p.run.outputs) && Object.keys(p.run.outputs as Obj).length > 0);
        if (type === 'tool') {
          const name = str(first.name) ?? 'tool';
          const inputs = parts.find((p) => 'inputs' in p.run);
          const error = parts.find((p) => typeof p.run.error === 'string');
          const index = unansweredByName(b, name);
          const callIndex = index ?? b.call({ name, at: { doc, path: inputs?.path ?? parts[0].path }, namePath: ['name'], argsPath: ['inputs'], args: inputs?.run.inputs, expect: 'object' }, b.newTurn()).index;
          const at = (error ?? outputs ?? parts[0]).path;
          b.result({ at: { doc, path: at }, callId: b.session.calls[callIndex].id, callIndex, payload: error ? error.run.error : outputs?.run.outputs,
            payloadPath: [error ? 'error' : 'outputs'], transport: error ? { isError: true } : {} });
          b.breakTurn();
          continue;
        }
        if (!outputs) continue;
        const out = outputs.run.outputs as Obj;
        if (Array.isArray(out.choices)) {
          out.choices.forEach((c, i) => {
            if (isPlainObject(c) && isChatMessage(c.message)) readChatMessage(b, doc, [...outputs.path, 'outputs', 'choices', i, 'message'], c.message);
          });
        }
      }
      sessions.emitAll(emit);
    },
  },
};
