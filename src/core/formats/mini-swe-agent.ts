// mini-swe-agent trajectories (`*.traj.json`): a bare array of `{role, content}` messages, or `{info, messages,
// trajectory_format}`. There are no structured tool calls: the action is the one fenced block
// (```mswea_bash_command or ```bash) in an assistant message, a shell command kept as free-form input of the tool
// `bash`; the next user message is its output, `<returncode>N</returncode>` its exit code.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, type Obj } from './util';

const ACTION = /```(?:mswea_bash_command|bash)[ \t]*\r?\n([\s\S]*?)\r?\n?```/g;
const RETURNCODE = /<returncode>\s*(-?\d+)\s*<\/returncode>/;

function isMessage(m: unknown): m is Obj {
  return isPlainObject(m) && typeof m.role === 'string' && typeof m.content === 'string' && !('tool_calls' in m);
}

function messagesOf(v: unknown): { list: Obj[]; path: JsonPath } | undefined {
  if (Array.isArray(v)) return { list: v as Obj[], path: [] };
  if (isPlainObject(v) && Array.isArray(v.messages) && typeof v.trajectory_format === 'string' && v.trajectory_format.startsWith('mini-swe-agent')) {
    return { list: v.messages as Obj[], path: ['messages'] };
  }
  return undefined;
}

/** A mini-swe-agent run: every message plain text, and an action fence or a `<returncode>` observation among them. */
export function isMiniSweTrajectory(v: unknown): boolean {
  const found = messagesOf(v);
  if (!found || found.list.length === 0 || !found.list.every(isMessage)) return false;
  return found.list.some((m) => (m.role === 'assistant' && /```mswea_bash_command/.test(m.content as string)) || (m.role === 'user' && RETURNCODE.test(m.content as string)));
}

function readMessages(b: SessionBuilder, doc: Doc, base: JsonPath, list: Obj[]): void {
  let waiting: number | undefined;
  list.forEach((m, i) => {
    const path = [...base, i];
    const content = m.content as string;
    if (m.role === 'assistant') {
      const actions = [...content.matchAll(ACTION)];
      // Exactly one action per message is the protocol; a message with none or several ran nothing.
      if (actions.length === 1) {
        const call = b.call({ name: 'bash', at: { doc, path }, namePath: ['content'], argsPath: ['content'], args: actions[0][1], expect: 'any', freeform: true, messageText: content }, b.newTurn());
        waiting = call.index;
      } else {
        b.breakTurn();
      }
      return;
    }
    if (m.role === 'user' && waiting !== undefined) {
      const code = RETURNCODE.exec(content);
      b.result({ at: { doc, path }, callIndex: waiting, payload: content, payloadPath: ['content'], transport: code ? { exitCode: Number(code[1]) } : {} });
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
