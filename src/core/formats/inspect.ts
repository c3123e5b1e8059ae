// Inspect AI evaluation logs: the `.json` log (`{version, eval, samples: [...]}`), a single sample, a bare event
// list (`{events: [...]}`), and the samples of an `.eval` zip (unpacked by `containerText` into
// `{header, samples}`). Each sample (id and epoch) is a session. Calls come from the sample's messages
// (assistant `tool_calls` with `function` and object `arguments`; `role: "tool"` messages answer them, with
// `error` as the transport signal); a sample without message calls is read from its `tool` events (call and
// result in one event). Tool definitions: the `tools` of model events.
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, keyText, SessionSet, str, textOf, type Obj } from './util';

const EVENT_KINDS = new Set(['model', 'tool', 'span_begin', 'span_end', 'sample_init', 'state', 'store', 'sandbox', 'info', 'score', 'logger', 'input', 'error', 'approval', 'subtask', 'step']);

function isEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.event === 'string' && EVENT_KINDS.has(v.event);
}

function isEventList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isEvent);
}

function isSample(v: unknown): v is Obj {
  return isPlainObject(v) && 'epoch' in v && 'id' in v && (Array.isArray(v.messages) || Array.isArray(v.events));
}

function isLog(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.version === 'number' && isPlainObject(v.eval) && typeof v.status === 'string';
}

/** What `containerText` makes of an `.eval` zip. */
function isContainer(v: unknown): v is Obj {
  return isPlainObject(v) && isPlainObject(v.header) && isPlainObject((v.header as Obj).eval) && Array.isArray(v.samples);
}

function readTools(b: SessionBuilder, doc: Doc, path: JsonPath, events: unknown[], seen: Set<string>): void {
  events.forEach((e, i) => {
    if (!isPlainObject(e) || e.event !== 'model' || !Array.isArray(e.tools)) return;
    e.tools.forEach((t, j) => {
      if (!isPlainObject(t) || typeof t.name !== 'string' || seen.has(t.name) || !('parameters' in t)) return;
      seen.add(t.name);
      b.tool(t.name, t.parameters, { doc, path: [...path, i, 'tools', j] });
    });
  });
}

function readMessages(b: SessionBuilder, doc: Doc, path: JsonPath, messages: unknown[]): void {
  messages.forEach((m, i) => {
    if (!isPlainObject(m)) return;
    const at = [...path, i];
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      const turn = b.newTurn();
      const messageText = textOf(m.content);
      m.tool_calls.forEach((tc, j) => {
        if (!isPlainObject(tc) || typeof tc.function !== 'string') return;
        b.call({ name: tc.function, id: str(tc.id), at: { doc, path: [...at, 'tool_calls', j] }, namePath: ['function'], argsPath: ['arguments'],
          args: tc.arguments, expect: 'any', messageText }, turn);
      });
      return;
    }
    if (m.role === 'tool') {
      b.result({ at: { doc, path: at }, callId: str(m.tool_call_id), payload: m.content, payloadPath: ['content'],
        transport: 'error' in m ? { isError: m.error !== null && m.error !== undefined } : {} });
    }
    b.breakTurn();
  });
}

function readToolEvents(b: SessionBuilder, doc: Doc, path: JsonPath, events: unknown[]): void {
  events.forEach((e, i) => {
    if (!isPlainObject(e) || e.event !== 'tool' || typeof e.function !== 'string') return;
    const at = { doc, path: [...path, i] };
    const id = str(e.id);
    const call = b.call({ name: e.function, id, at, namePath: ['function'], argsPath: ['arguments'], args: e.arguments, expect: 'any' }, b.newTurn());
    const failed = e.error !== undefined && e.error !== null;
    if ('result' in e || failed) {
      b.result({ at: { doc, path: [...at.path, failed ? 'error' : 'result'] }, callId: id, callIndex: id === undefined ? call.index : undefined,
        payload: failed ? e.error : e.result, payloadPath: [], transport: 'error' in e ? { isError: failed } : {} });
    }
    b.breakTurn();
  });
}

function hasMessageCalls(messages: unknown): boolean {
  return Array.isArray(messages) && messages.some((m) => isPlainObject(m) && Array.isArray(m.tool_calls) && m.tool_calls.length > 0);
}

function readSample(b: SessionBuilder, doc: Doc, path: JsonPath, s: Obj): void {
  const events = Array.isArray(s.events) ? s.events : [];
  readTools(b, doc, [...path, 'events'], events, new Set());
  if (hasMessageCalls(s.messages)) readMessages(b, doc, [...path, 'messages'], s.messages as unknown[]);
  else readToolEvents(b, doc, [...path, 'events'], events);
}

export const inspect: FormatAdapter = {
  id: 'inspect',
  document: {
    claims(v) {
      if (isLog(v) || isContainer(v) || isSample(v) || isEventList(v)) return true;
      return isPlainObject(v) && isEventList(v.events) && !('epoch' in v);
    },
    read(doc, emit) {
      const v = doc.value;
      const sessions = new SessionSet();
      if (isLog(v) || isContainer(v)) {
        const samples = Array.isArray(v.samples) ? v.samples : [];
        samples.forEach((s, i) => {
          if (isSample(s)) readSample(sessions.get(`${keyText(s.id)}#${keyText(s.epoch)}`), doc, ['samples', i], s);
        });
      } else if (isSample(v)) {
        readSample(sessions.get(`${keyText(v.id)}#${keyText(v.epoch)}`), doc, [], v);
      } else {
        const events = (Array.isArray(v) ? v : (v as Obj).events) as unknown[];
        const b = sessions.get('');
        const path = Array.isArray(v) ? [] : ['events'];
        readTools(b, doc, path, events, new Set());
        readToolEvents(b, doc, path, events);
      }
      sessions.emitAll(emit);
    },
  },
};
