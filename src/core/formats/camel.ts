// CAMEL (camel-ai) agent memory: the records `ChatAgent.save_memory()` and a `JsonStorage` write, one
// `MemoryRecord.to_dict()` per line (or as a JSON array). Rules followed (camel/memories/records.py,
// camel/messages/func_message.py, camel/agents/chat_agent.py):
// - A record is `{uuid, message: {__class__, role_name, role_type, meta_dict, content, ...}, role_at_backend,
//   extra_info, timestamp, agent_id}`; `__class__` is `BaseMessage` or `FunctionCallingMessage`.
// - A tool call is recorded twice, as two `FunctionCallingMessage` records: the call (`role_at_backend:
//   "assistant"`, `func_name`, `args` (an object), `tool_call_id`) and its result (`role_at_backend: "tool"`, older
//   versions `"function"`; the same `func_name` and `args`, `result`), paired by `tool_call_id` (older versions
//   have none: with the earliest call of `func_name` still waiting). CAMEL keeps no error flag: a tool that raised
//   leaves its error text as the result.
// - A `BaseMessage` record is a user's, system's or assistant's text: it ends the turn.
import type { FormatAdapter, LineSink } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { at, isPlainObject, str, unansweredByName, type Obj } from './util';

type MemoryRecord = Obj & { message: Obj & { __class__: string }; role_at_backend: string };

function isRecord(v: unknown): v is MemoryRecord {
  return isPlainObject(v) && typeof v.role_at_backend === 'string' && isPlainObject(v.message)
    && (v.message.__class__ === 'BaseMessage' || v.message.__class__ === 'FunctionCallingMessage') && 'role_name' in v.message;
}

function isFunctionRecord(v: unknown): v is MemoryRecord {
  return isRecord(v) && v.message.__class__ === 'FunctionCallingMessage' && typeof v.message.func_name === 'string';
}

function readRecord(b: SessionBuilder, ref: NodeRef, r: MemoryRecord): void {
  const m = r.message;
  const mref = at(ref, 'message');
  const name = str(m.func_name);
  if (m.__class__ !== 'FunctionCallingMessage' || name === undefined) {
    if (r.role_at_backend === 'assistant') b.assistantText(at(mref, 'content'), m.content);
    else b.breakTurn();
    return;
  }
  const id = str(m.tool_call_id);
  if (r.role_at_backend === 'assistant') {
    b.call({ name, id, at: mref, namePath: ['func_name'], argsPath: ['args'], args: m.args ?? undefined, expect: 'object', messageText: str(m.content) });
  } else if (r.role_at_backend === 'tool' || r.role_at_backend === 'function') {
    b.result({ at: mref, callId: id, callIndex: id === undefined ? unansweredByName(b, name) : undefined, payload: m.result, payloadPath: ['result'] });
  }
}

export const camel: FormatAdapter = {
  id: 'camel',
  lines: {
    claims: isFunctionRecord,
    accepts: isRecord,
    open(sink: LineSink) {
      return { read(doc) { if (isRecord(doc.value)) readRecord(sink.builder, { doc, path: [] }, doc.value); } };
    },
  },
};
