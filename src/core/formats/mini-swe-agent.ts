// mini-swe-agent trajectories (`*.traj.json`): a bare array of `{role, content}` messages, or `{info, messages,
// trajectory_format}`. Text mode (v1, and v2's text models): there are no structured tool calls; the action is the one
// fenced block (```mswea_bash_command or ```bash) in an assistant message, a shell command kept as free-form input of
// the tool `bash`; the next user message is its output. Tool-call mode (v2): assistant `tool_calls` to `bash` (read by
// the Chat adapter's reader) answered by `role: "tool"` messages with `tool_call_id`; with a Responses API model the
// assistant turn is the whole response object (`object: "response"`, its `output` items read by the Responses
// reader) and each observation a `function_call_output` item (`call_id`, `output`). Either way the exit code is
// `extra.returncode` (v2) or the observation's `<returncode>N</returncode>` (the earliest versions: `Observation:` and
// the repr of the subprocess result, `'returncode': N` in it); `extra.exception_info` (an action that
// was not executed, a timeout) or the timeout template is an honest failure. The payload is v2's `extra.raw_output`
// (the command's output without the template around it), else the observation text. v2 keeps the actions it parsed
// from a reply in the assistant message's `extra.actions` (`[{command, tool_call_id?}]`), whatever its action regex
// or its message's content (some writers keep none): where the message holds no `tool_calls`, those are its calls,
// a tool call's `{command}` when it has an id, else the command as free-form input.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { readChatMessage } from './openai-chat';
import { readResponsesItem } from './openai-responses';
import type { TransportSignals } from '../model';
import type { Doc, JsonPath } from '../parse/doc';
import { EARLY_RETURNCODE, isMiniSweTrajectory, messagesOf, RETURNCODE } from './mini-swe-shape';
import { isPlainObject, num, type Obj } from './util';

const ACTION = /```(?:mswea_bash_command|bash)[ \t]*\r?\n([\s\S]*?)\r?\n?```/g;
/** The default timeout template: the command was killed, it did not complete. */
const TIMED_OUT = /^\s*The last command <command>[\s\S]*?<\/command> timed out/;

/** An observation's exit code, failure and output (a path relative to the message). */
function observation(m: Obj, textKey = 'content'): { transport: TransportSignals; payload: unknown; payloadPath: JsonPath } {
  const extra = isPlainObject(m.extra) ? m.extra : {};
  const content = typeof m[textKey] === 'string' ? m[textKey] : undefined;
  const code = num(extra.returncode) ?? (content !== undefined ? num((RETURNCODE.exec(content) ?? EARLY_RETURNCODE.exec(content))?.[1]) : undefined);
  const transport: TransportSignals = {};
  if (code !== undefined && code !== -1) transport.exitCode = code;
  // -1 is the stand-in of an action that did not run; exception_info says why
  if ((typeof extra.exception_info === 'string' && extra.exception_info !== '') || code === -1 || (content !== undefined && TIMED_OUT.test(content))) transport.isError = true;
  if (typeof extra.raw_output === 'string') return { transport, payload: extra.raw_output, payloadPath: ['extra', 'raw_output'] };
  return { transport, payload: m[textKey], payloadPath: [textKey] };
}

/** Read a result the Chat or Responses reader pairs, then give it the observation's exit code and raw output. */
function readObservation(b: SessionBuilder, doc: Doc, path: JsonPath, m: Obj, read: () => void, textKey: string): void {
  const before = b.session.results.length;
  read();
  const r = b.session.results[before];
  if (!r) return;
  const o = observation(m, textKey);
  r.transport = o.transport;
  r.payload = o.payload;
  r.payloadAt = { doc, path: [...path, ...o.payloadPath] };
}

/** v2's parsed actions of an assistant message (`extra.actions`), read as its calls; false when it has none. */
function readExtraActions(b: SessionBuilder, doc: Doc, path: JsonPath, m: Obj, content: string): boolean {
  const actions = isPlainObject(m.extra) && Array.isArray(m.extra.actions) ? m.extra.actions : [];
  const commands = actions.filter((a): a is Obj => isPlainObject(a) && typeof a.command === 'string');
  if (commands.length === 0 || commands.length !== actions.length) return false;
  const turn = b.newTurn();
  actions.forEach((a, k) => {
    const act = a as Obj;
    const id = typeof act.tool_call_id === 'string' ? act.tool_call_id : undefined;
    const at = { doc, path: [...path, 'extra', 'actions', k] };
    if (id !== undefined) b.call({ name: 'bash', id, at, namePath: [], argsPath: [], args: { command: act.command }, expect: 'object', messageText: content }, turn);
    else b.call({ name: 'bash', at, namePath: [], argsPath: ['command'], args: act.command, expect: 'any', freeform: true, messageText: content }, turn);
  });
  return true;
}

function readMessages(b: SessionBuilder, doc: Doc, base: JsonPath, list: Obj[]): void {
  let waiting: number | undefined;
  list.forEach((m, i) => {
    if (!isPlainObject(m)) return;
    const path = [...base, i];
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      readChatMessage(b, doc, path, m);
      waiting = undefined;
      return;
    }
    if (m.role === 'tool') {
      readObservation(b, doc, path, m, () => readChatMessage(b, doc, path, m), 'content');
      return;
    }
    if (m.object === 'response' && Array.isArray(m.output)) {
      m.output.forEach((item, j) => {
        if (isPlainObject(item)) readResponsesItem(b, doc, [...path, 'output', j], item);
      });
      waiting = undefined;
      return;
    }
    if (m.type === 'function_call_output') {
      readObservation(b, doc, path, m, () => readResponsesItem(b, doc, path, m), 'output');
      return;
    }
    const content = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'assistant' && readExtraActions(b, doc, path, m, content)) {
      waiting = b.session.calls.length - 1;
      return;
    }
    if (m.role === 'assistant') {
      const actions = [...content.matchAll(ACTION)];
      // Exactly one action per message is the protocol; a message with none or several ran nothing.
      if (actions.length === 1) {
        const call = b.call({ name: 'bash', at: { doc, path }, namePath: ['content'], argsPath: ['content'], args: actions[0][1], expect: 'any', freeform: true, messageText: content }, b.newTurn());
        waiting = call.index;
      } else {
        waiting = undefined;
        b.assistantText({ doc, path: [...path, 'content'] }, m.content);
      }
      return;
    }
    if (m.role === 'user' && waiting !== undefined && !(isPlainObject(m.extra) && typeof m.extra.interrupt_type === 'string')) {
      const o = observation(m);
      b.result({ at: { doc, path }, callIndex: waiting, payload: o.payload, payloadPath: o.payloadPath, transport: o.transport });
      waiting = undefined;
    }
    b.breakTurn();
  });
}

export const miniSweAgent: FormatAdapter = {
  id: 'mini-swe-agent',
  document: {
    claims(v) {
      return isMiniSweTrajectory(v);
    },
    read(doc, emit) {
      const found = messagesOf(doc.value)!;
      singleSession((b) => readMessages(b, doc, found.path, found.list), emit);
    },
  },
};
