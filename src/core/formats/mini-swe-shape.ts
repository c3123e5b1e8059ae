// What makes a list of Chat messages a mini-swe-agent trajectory. Apart from mini-swe-agent.ts because two readers
// ask it: that reader, and the Chat reader, which leaves such a file to it (and mini-swe-agent.ts reads tool-call
// messages with the Chat reader's, so neither file imports the other).
import { isPlainObject, type Obj } from '../objects';
import type { JsonPath } from '../parse/doc';

export const RETURNCODE = /<returncode>\s*(-?\d+)\s*<\/returncode>/;
/** The earliest versions (micro-swe-agent) answered with the repr of the subprocess result:
 *  `Observation: {'args': [...], 'returncode': 0, 'stdout': ..., 'stderr': ...}`. The first `'returncode'` is
 *  the result's own (its output, after it, may quote another). */
export const EARLY_RETURNCODE = /^Observation: \{[\s\S]*?'returncode': (-?\d+)/;

function isMessage(m: unknown): m is Obj {
  return isPlainObject(m) && typeof m.role === 'string' && typeof m.content === 'string' && !('tool_calls' in m);
}

/** A trajectory that names its format, or (a writer that leaves the name out) its `info.mini_version`. */
function isFormatted(v: unknown): v is Obj & { messages: unknown[] } {
  if (!isPlainObject(v) || !Array.isArray(v.messages)) return false;
  if (typeof v.trajectory_format === 'string') return v.trajectory_format.startsWith('mini-swe-agent');
  return isPlainObject(v.info) && typeof v.info.mini_version === 'string';
}

export function messagesOf(v: unknown): { list: Obj[]; path: JsonPath } | undefined {
  if (Array.isArray(v)) return { list: v as Obj[], path: [] };
  if (isFormatted(v)) return { list: v.messages as Obj[], path: ['messages'] };
  return undefined;
}

/** A mini-swe-agent run: every message plain text, and an action fence or a `<returncode>` observation among them;
 *  or a file that names its format (`trajectory_format: "mini-swe-agent…"`), whatever its messages hold. */
export function isMiniSweTrajectory(v: unknown): boolean {
  const found = messagesOf(v);
  if (!found || found.list.length === 0) return false;
  // a Responses API model's turns are response objects and `function_call_output` items, without a role
  if (isFormatted(v)) return found.list.every((m) => isPlainObject(m) && (typeof m.role === 'string' || typeof m.type === 'string' || m.object === 'response'));
  if (!found.list.every(isMessage)) return false;
  const has = (role: string, re: RegExp) => found.list.some((m) => m.role === role && re.test(m.content as string));
  return has('assistant', /```mswea_bash_command/) || has('user', RETURNCODE) || (has('assistant', /```bash/) && has('user', EARLY_RETURNCODE));
}
