// `contract-guard watch [PATHS…]`: follows traces while agents write them and prints each new finding once, in
// `check`'s text line format. A trace read line by line (JSONL) is followed at its end: appended lines are checked
// from the state saved after the lines before (the core's GrowingTrace), and a partial last line waits for its
// newline. A trace that is one JSON document (a Gemini CLI chat file, rewritten each turn) is checked whole again
// when it changes. Folders are walked as `check` walks them, again at every poll, so files created later are
// picked up; a truncated or replaced file is read again from its start. Polling (not fs.watch): it works the same
// on every file system and sees writes through any handle.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { GrowingTrace, isIgnored, JSONL_NAME, LineIndex, readsAsLines, type CheckOptions, type FileResult } from '../core';
import { loadConfiguredContracts } from './contracts';
import { displayPath, findTraceFiles, UsageError } from './files';
import { LiveFindings, settled } from './live/findings';
import { CHECKING_FLAGS, checkingSettings, countFlag } from './settings';
import { checkFile } from './stream';

const USAGE = `usage: contract-guard watch [PATHS...] [--contracts PATH]... [--tail] [--interval MS]
                            [--profile strict|json-schema] [--config FILE] [--only CODE,...] [--ignore CODE,...]
                            [--no-packs] [--max-value-length N] [--read-as READER]

Follows the traces under PATHS (files, or folders walked like check's; default: the places agents write that
exist — ~/.claude/projects, ~/.codex/sessions, ~/.gemini) and prints each new finding once, in check's text
line format, as lines are appended. Files created later in a watched folder are picked up; a truncated or
replaced file is read again; a partial last line waits for its newline. What the files hold when watch starts is
checked and printed too, unless --tail (the default with no PATHS): then only what is appended after the start.
--interval: how often the files are looked at (default 250 ms). Ctrl+C or SIGTERM stops (exit 0).`;

/** Where agents write their sessions, watched when no path is given (those that exist). */
export function agentPlaces(home = os.homedir()): string[] {
  return [path.join(home, '.claude', 'projects'), path.join(home, '.codex', 'sessions'), path.join(home, '.gemini')];
}

/** How much is read at a time from a file that grew (a long history is not held whole). */
const READ_CHUNK = 4 << 20;

interface Followed {
  file: string;
  shown: string;
  /** Relative to the config's folder, for its ignore rules. */
  rel: string;
  ino: number;
  /** Bytes read so far (complete lines, and `pending`). */
  read: number;
  /** The bytes of a partial last line. */
  pending: Buffer;
  shape?: 'lines' | 'document';
  trace?: GrowingTrace;
  index: LineIndex;
  /** For a document: the size and time it was checked at, and those it was last seen with (it is checked once they
   *  held for a poll: a file being rewritten is not caught half written). */
  checkedAt?: string;
  seenAt?: string;
  /** --tail: findings of the first this many bytes were there before the start; they are not printed. */
  quietBytes: number;
  /** While set, findings are only remembered as printed (the history under --tail). */
  quiet: boolean;
  /** What was printed (made once the shape is known: a document rewritten whole moves its findings, so they are
   *  known by what they are, not where). */
  printed?: LiveFindings;
}

export async function watchCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...CHECKING_FLAGS,
      tail: { type: 'boolean' },
      interval: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const { config, root, readAs, severity } = await checkingSettings(values);
  const interval = countFlag('interval', values.interval) ?? 250;
  if (interval < 10) throw new UsageError('--interval: at least 10 (milliseconds)');
  const profile = config.profile ?? 'strict';
  const { contracts, paths: contractPaths } = await loadConfiguredContracts(values.contracts, config.contracts, root, profile);
  const options: CheckOptions = { contracts, profile, severity, volatileTools: config.volatileTools, packs: config.packs, maxValueLength: config.maxValueLength, readAs };

  let roots = positionals;
  const tail = values.tail === true || roots.length === 0;
  if (!roots.length) {
    roots = [];
    for (const p of agentPlaces()) if (await fs.stat(p).then((s) => s.isDirectory(), () => false)) roots.push(p);
    if (!roots.length) throw new UsageError(`nothing to watch: none of ${agentPlaces().map(displayPath).join(', ')} exists (name files or folders)`);
  }
  const notTraces = new Set(contractPaths);
  // a path that does not exist is a usage error at the start (findTraceFiles says which)
  const first = await findTraceFiles(roots, notTraces);

  const followed = new Map<string, Followed>();
  const out = (line: string) => process.stdout.write(line + '\n');
  const note = (line: string) => process.stderr.write(`contract-guard watch: ${line}\n`);
  const follow = (file: string, quietBytes: number, ino: number): Followed => {
    const rel = path.relative(root, file).split(path.sep).join('/');
    const f: Followed = { file, shown: displayPath(file), rel, ino, read: 0, pending: Buffer.alloc(0), index: new LineIndex(), quietBytes, quiet: false };
    followed.set(file, f);
    return f;
  };
  for (const file of first) {
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat?.isFile()) follow(file, tail ? stat.size : 0, stat.ino);
  }

  // a trace being written has not ended: what only its end settles (an unanswered call) waits
  const report = (f: Followed, result: FileResult, quiet: boolean) => {
    f.quiet = quiet;
    const shown = settled(result.findings, false).filter((finding) => !isIgnored(config.ignore, finding, f.rel));
    f.printed ??= new LiveFindings(
      (line) => {
        if (!f.quiet) out(line);
      },
      { once: f.shape === 'document' ? 'fingerprint' : 'place' },
    );
    f.printed.report(f.shown, shown, (offset) => f.index.position(offset));
    f.quiet = false;
  };

  const look = async (f: Followed): Promise<void> => {
    const stat = await fs.stat(f.file).catch(() => undefined);
    if (!stat?.isFile()) {
      followed.delete(f.file);
      return;
    }
    if (stat.ino !== f.ino || stat.size < f.read) {
      note(`${f.shown} was ${stat.ino !== f.ino ? 'replaced' : 'truncated'}; reading it again`);
      f = follow(f.file, 0, stat.ino);
    }
    if (f.shape === undefined) f.shape = await shapeOf(f.file, stat.size);
    if (f.shape === undefined) return; // nothing to decide from yet
    if (f.shape === 'document') {
      const at = `${stat.size}:${stat.mtimeMs}`;
      if (at === f.checkedAt) return;
      if (at !== f.seenAt) {
        f.seenAt = at;
        return;
      }
      f.checkedAt = at;
      const { result, index } = await checkFile(f.file, { ...options, fileName: f.file });
      f.index = index;
      report(f, result, f.quietBytes > 0);
      f.quietBytes = 0;
      return;
    }
    if (stat.size === f.read) return;
    f.trace ??= new GrowingTrace({ ...options, fileName: f.file });
    // --tail: the history is read first and its findings only remembered
    if (f.quietBytes > 0 && f.read < f.quietBytes) {
      await readLines(f, f.quietBytes);
      report(f, f.trace.result(), true);
      f.quietBytes = 0;
    }
    await readLines(f, stat.size);
    report(f, f.trace.result(), false);
  };

  let stopping = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    stopping = true;
    wake?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  note(`following ${first.length} trace${first.length === 1 ? '' : 's'} in ${roots.map(displayPath).join(', ')} (Ctrl+C stops)`);
  while (!stopping) {
    for (const f of [...followed.values()]) {
      if (stopping) break;
      try {
        await look(f);
      } catch (e) {
        note(`${f.shown}: ${e instanceof Error ? e.message : String(e)}`);
        followed.delete(f.file);
      }
    }
    if (stopping) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, interval);
    });
    // files created since (a folder that went away is skipped until it comes back)
    for (const r of roots) {
      const found = await findTraceFiles([r], notTraces).catch(() => [] as string[]);
      for (const file of found) {
        if (followed.has(file)) continue;
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat?.isFile()) follow(file, 0, stat.ino);
      }
    }
  }
  note('stopped');
  return 0;
}

/** Read a line-shaped file from where it was left up to `end`: complete lines go to the trace, a partial last line
 *  is kept for the next time. */
async function readLines(f: Followed, end: number): Promise<void> {
  const handle = await fs.open(f.file, 'r');
  try {
    while (f.read < end) {
      const want = Math.min(READ_CHUNK, end - f.read);
      const buf = Buffer.alloc(want);
      const { bytesRead } = await handle.read(buf, 0, want, f.read);
      if (bytesRead === 0) break;
      f.read += bytesRead;
      const bytes = f.pending.length ? Buffer.concat([f.pending, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      const nl = bytes.lastIndexOf(10);
      // a line break never falls inside a UTF-8 sequence: the complete lines decode on their own
      f.pending = Buffer.from(bytes.subarray(nl + 1));
      if (nl === -1) continue;
      let text = bytes.subarray(0, nl + 1).toString('utf8');
      const trace = f.trace!;
      if (trace.consumed === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const base = trace.consumed;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) f.index.addLineStart(base + i + 1);
      trace.addLines(text);
    }
  } finally {
    await handle.close();
  }
}

/** Whether a file is read line by line (decided once, from its head), or undefined while there is nothing to decide
 *  from: an empty file, or a first line still being written (unless the name says JSONL, or it is a whole document). */
async function shapeOf(file: string, size: number): Promise<'lines' | 'document' | undefined> {
  if (/\.(gz|eval)$/i.test(file)) return 'document';
  if (size === 0) return undefined;
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, 1 << 16));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead).toString('utf8');
    if (readsAsLines(head, file, bytesRead === size)) return 'lines';
    if (JSONL_NAME.test(file)) return 'lines';
    if (!head.includes('\n') && bytesRead === size && !parses(head)) return undefined;
    return 'document';
  } finally {
    await handle.close();
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
