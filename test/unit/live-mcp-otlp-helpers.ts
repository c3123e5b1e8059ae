// Shared by the `mcp wrap` and `otlp` tests: the built CLI in a child process (its output collected, killed if a
// test ends early), live finding lines parsed back, and `check --format json` of a recording.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT } from './helpers';

export const CLI = path.join(ROOT, 'dist', 'cli.js');

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `cg-${prefix}-`));
}

export interface Proc {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kill it (SIGKILL) if it still runs: every test calls this in `finally`. */
  stop: () => void;
}

/** Every child still running when this test file's process ends (a test that timed out never reached its
 *  `finally`) is killed then: nothing a test started outlives it. */
const running = new Set<ChildProcessWithoutNullStreams>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Run a program (default: the CLI with `args`) with its output collected. */
export function start(args: string[], program = process.execPath, cwd = ROOT): Proc {
  const child = spawn(program, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Wait until `get()` matches `re` (polling), or fail after `ms` with what it held. */
export async function waitFor(get: () => string, re: RegExp, ms = 8000): Promise<RegExpExecArray> {
  const until = Date.now() + ms;
  for (;;) {
    const m = re.exec(get());
    if (m) return m;
    if (Date.now() > until) assert.fail(`timed out waiting for ${re}; got:\n${get()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface LiveLine {
  file: string;
  line: number;
  column: number;
  severity: string;
  code: string;
  message: string;
}

/** The finding lines a live command printed (`  file:line:col  severity  code  message`). */
export function findingLines(text: string): LiveLine[] {
  const out: LiveLine[] = [];
  for (const l of text.split('\n')) {
    const m = /^ {2}(\S+):(\d+):(\d+) +(error|warning|info) +(\S+) +(.*)$/.exec(l);
    if (m) out.push({ file: m[1], line: Number(m[2]), column: Number(m[3]), severity: m[4], code: m[5], message: m[6] });
  }
  return out;
}

/** `code line:col message`, sorted: what two views of the same findings must agree on. */
export function keys(list: { code: string; line: number; column: number; message: string }[]): string[] {
  return list.map((f) => `${f.code} ${f.line}:${f.column} ${f.message}`).sort();
}

/** `check FILE --format json`: the reader and the findings of the recording. */
export function checkRecording(file: string, extra: string[] = []): { format?: string; calls: number; findings: LiveLine[] } {
  const r = spawnSync(process.execPath, [CLI, 'check', file, '--format', 'json', '--fail-on', 'never', ...extra], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { files: { format?: string; calls: number; diagnostics: LiveLine[] }[] };
  assert.equal(doc.files.length, 1);
  return { format: doc.files[0].format, calls: doc.files[0].calls, findings: doc.files[0].diagnostics };
}
