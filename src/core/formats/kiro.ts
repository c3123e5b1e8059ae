// Kiro CLI conversation exports: `{conversation_id, history: [{user, assistant}]}` with Rust-enum style keys.
// Calls: `assistant.ToolUse.tool_uses[]` `{id, name, args}` (`args` is what ran; `orig_args` what the model first
// wrote, when Kiro rewrote it). Results: the next turn's `user.content.ToolUseResults[]` `{tool_use_id, content,
// status}`; a status other than "Success" is an error.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import { isPlainObject, str, textOf, type Obj } from './util';

function isExport(v: unknown): v is Obj & { history: unknown[] } {
  return isPlainObject(v) && Array.isArray(v.history) && v.history.length > 0
    && v.history.every((h) => isPlainObject(h) && ('user' in h || 'assistant' in h)) && v.history.some((h) => isPlainObject((h as Obj).assistant));
}

export const kiro: FormatAdapter = {
  id: 'kiro',
  document: {
    claims(v) {
      return isExport(v);
    },
    read(doc, emit) {
      const v = doc.value as Obj & { history: unknown[] };
      singleSession((b) => {
        v.history.forEach((h, i) => {
          if (!isPlainObject(h)) return;
          const content = isPlainObject(h.user) && isPlainObject(h.user.content) ? h.user.content : undefined;
          if (content && Array.isArray(content.ToolUseResults)) {
            content.ToolUseResults.forEach((r, j) => {
              if (!isPlainObject(r)) return;
              const status = str(r.status);
              b.result({ at: { doc, path: ['history', i, 'user', 'content', 'ToolUseResults', j] },
                callId: str(r.tool_use_id), payload: r.content, payloadPath: ['content'], transport: status === undefined ? {} : { isError: status !== 'Success' } });
            });
            b.breakTurn();
          }
          const use = isPlainObject(h.assistant) && isPlainObject(h.assistant.ToolUse) ? h.assistant.ToolUse : undefined;
          if (use && Array.isArray(use.tool_uses)) {
            const turn = b.newTurn();
            use.tool_uses.forEach((u, j) => {
              if (!isPlainObject(u) || typeof u.name !== 'string') return;
              b.call({ name: u.name, id: str(u.id), at: { doc, path: ['history', i, 'assistant', 'ToolUse', 'tool_uses', j] }, namePath: ['name'],
                argsPath: ['args'], args: u.args, expect: 'object', messageText: textOf(use.content) }, turn);
            });
          } else {
            b.breakTurn();
          }
        });
      }, emit, str(v.conversation_id));
    },
  },
};
