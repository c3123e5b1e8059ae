// Which calls change the world, and which artifact they name. One home for the rule DESIGN.md states:
// contract `mutates` first (false marks a writer-looking tool read-only); otherwise tools whose name says they
// write (`write_*`, `edit`, `apply_patch`, `Write`, `Edit`, ...) and shell tools (`Bash`, `execute_bash`,
// `shell`, `local_shell_call`, ...) are mutating.
import type { ToolContract } from '../contracts/types';
import type { ToolCall } from '../model';

const SHELL = new Set([
  'bash', 'sh', 'zsh', 'shell', 'execute_bash', 'run_bash', 'bash_command', 'local_shell', 'local_shell_call',
  'exec_command', 'exec', 'execute', 'execute_command', 'run_command', 'run_shell_command', 'run_terminal_cmd',
  'terminal', 'shell_exec', 'container.exec', 'python', 'run_python', 'execute_python', 'ipython',
]);

const WRITE_VERBS = new Set([
  'write', 'edit', 'multiedit', 'notebookedit', 'apply', 'patch', 'create', 'delete', 'remove', 'rm', 'update',
  'insert', 'replace', 'str', 'move', 'rename', 'mkdir', 'append', 'save', 'upload', 'commit', 'push', 'put', 'set',
  'modify', 'overwrite', 'touch', 'copy', 'drop',
]);

/** The tool name without server prefixes (`mcp__fs__write_file`, `functions.write_file`). */
export function baseName(name: string): string {
  const dunder = name.lastIndexOf('__');
  const tail = dunder >= 0 ? name.slice(dunder + 2) : name;
  const dot = tail.lastIndexOf('.');
  return dot >= 0 && !SHELL.has(tail.toLowerCase()) ? tail.slice(dot + 1) : tail;
}

function firstWord(name: string): string {
  const m = /^[A-Za-z][a-z0-9]*/.exec(name);
  return (m ? m[0] : name).toLowerCase();
}

const byName = new Map<string, boolean>();

/** True when the call may have changed some artifact. */
export function isMutating(call: ToolCall, contract?: ToolContract): boolean {
  if (contract?.mutates === false) return false;
  if (contract?.mutates !== undefined) return true;
  let m = byName.get(call.name);
  if (m === undefined) {
    m = mutatingByName(call.name);
    if (byName.size > 4096) byName.clear();
    byName.set(call.name, m);
  }
  return m;
}

/** The name rule alone: a writer's name or a shell tool. */
export function mutatingByName(name: string): boolean {
  return isShellTool(name) || isWriterName(name);
}

/** A shell (or code-running) tool: it may change anything, but its call does not claim to write an artifact. */
export function isShellTool(name: string): boolean {
  return SHELL.has(baseName(name).toLowerCase()) || SHELL.has(name.toLowerCase());
}

/** A name that says the tool writes (`write_*`, `edit`, `apply_patch`, `Write`, ...). */
export function isWriterName(name: string): boolean {
  const base = baseName(name);
  return WRITE_VERBS.has(base.toLowerCase()) || WRITE_VERBS.has(firstWord(base));
}

/** The call claims to write its artifact: its contract says `mutates`, or its name says it writes (a shell
 *  command does not claim a write: `cat` through Bash reads). */
export function claimsWrite(call: ToolCall, contract?: ToolContract): boolean {
  if (contract?.mutates === false) return false;
  if (contract?.mutates !== undefined) return true;
  return isWriterName(call.name);
}

/** Argument (or result) keys that name the artifact a call works on, most specific first. */
export const ARTIFACT_KEYS = ['path', 'file_path', 'filePath', 'filepath', 'file', 'filename', 'notebook_path', 'target_file', 'target', 'uri', 'url', 'key', 'artifact', 'artifact_id', 'document_id', 'doc_id', 'id'];

/** The artifact a call names: the argument its contract's `mutates` names, else a path-like argument. */
export function artifactOf(args: unknown, contract?: ToolContract): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const a = args as Record<string, unknown>;
  if (typeof contract?.mutates === 'string') {
    const v = a[contract.mutates];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  }
  for (const k of ARTIFACT_KEYS) {
    const v = a[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}
