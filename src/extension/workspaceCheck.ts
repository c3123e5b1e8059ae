// "Contract Guard: Check Workspace Contracts": every trace the trace globs find (honouring files.exclude and
// search.exclude) is read through vscode.workspace.fs — open documents by their current text — checked, and its
// diagnostics published, with a cancellable progress notification and a summary at the end. On the desktop the
// files up to 4 MB are checked on the CLI's pool of threads (src/cli/pool.ts: one per core, contracts compiled once
// per thread), several at once, and published in order; larger ones, those in the web host, and a file under other
// settings than the pool's each go where the core's checkPlan puts it, in turn.
import * as vscode from 'vscode';
import type { CallMark, ContractSet } from '../core';
import { defaultJobs, WorkerPool } from '../cli/pool';
import type { ThreadAnswer, ThreadJob, ThreadSettings } from '../cli/threads';
import type { ContractStore } from './contracts';
import { toDiagnostics, type SeverityMap } from './convert';
import { checkOptions, countFindings, type CheckResult, type TraceDiagnostics } from './diagnostics';
import type { TraceIndex } from './traceIndex';
import { decode, EditorLines } from './lines';
import { evalViewUri, isEvalFile, readEval } from './evalView';
import { excludeGlob, globOf, readSettings } from './settings';

export interface WorkspaceSummary {
  traces: number;
  calls: number;
  error: number;
  warning: number;
  info: number;
  /** Files the globs found that no format adapter recognised. */
  skipped: number;
  cancelled: boolean;
  /** Files too large to read into the editor (check them with `contract-guard check`). */
  tooLarge?: string[];
  /** The first of the most severe problems, in file order: where "Show First Problem" goes. */
  first?: { uri: string; line: number; character: number };
  message: string;
}

/** A file's check and where its calls are (for the traces view). */
type Checked = { result: CheckResult; marks: readonly CallMark[] };

/** Files at most this large are checked on the pool (larger ones on a background thread of their own, in turn). */
const POOL_LIMIT = 4 * 1024 * 1024;

/** Files read ahead of the one being checked. */
const READ_AHEAD = 16;
/** The largest file Check Workspace Contracts reads into the extension host: a larger one (a day's OTLP export) is
 *  named in the summary instead, for `contract-guard check`, which reads it in parts. */
const MAX_HOST_FILE = 256 * 1024 * 1024;

/** A file's text, or undefined when it cannot be read, decoded, or is too large to hold in the host. */
async function readTraceText(uri: vscode.Uri, tooLarge: () => void): Promise<string | undefined> {
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > MAX_HOST_FILE) {
      tooLarge();
      return undefined;
    }
    return decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined; // unreadable, or longer than a string can be: not a trace the editor can show
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summaryMessage(s: Omit<WorkspaceSummary, 'message' | 'first'>): string {
  const parts = [plural(s.error, 'error'), plural(s.warning, 'warning')];
  if (s.info) parts.push(plural(s.info, 'info'));
  const head = `${plural(s.calls, 'call')} in ${plural(s.traces, 'trace')}: ${parts.join(', ')}`;
  const large = s.tooLarge?.length ? `; too large for the editor, check with contract-guard check: ${s.tooLarge.join(', ')}` : '';
  return (s.cancelled ? `Cancelled after ${head}` : head) + large;
}

export async function checkWorkspace(
  collection: vscode.DiagnosticCollection,
  contracts: ContractStore,
  live: TraceDiagnostics,
  severity: () => SeverityMap,
  options: { quiet?: boolean; index?: TraceIndex } = {},
): Promise<WorkspaceSummary> {
  await contracts.reload();
  const settings = readSettings();
  const summary = { traces: 0, calls: 0, error: 0, warning: 0, info: 0, skipped: 0, cancelled: false, tooLarge: [] as string[] };
  let first: WorkspaceSummary['first'];
  let firstSeverity = vscode.DiagnosticSeverity.Hint;

  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Contract Guard', cancellable: true },
    async (progress, token) => {
      progress.report({ message: 'finding traces…' });
      const uris = await vscode.workspace.findFiles(globOf(settings.traces), excludeGlob(), undefined, token);
      uris.sort((a, b) => a.toString().localeCompare(b.toString()));
      const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
      const map = severity();
      const step = uris.length ? 100 / uris.length : 100;
      // files are read a few ahead (reading is a round trip; checking is not), checked one at a time
      const reads = new Map<number, Promise<string | undefined>>();
      const read = (j: number) => {
        if (j >= uris.length || reads.has(j)) return;
        const uri = uris[j];
        const doc = open.get(uri.toString());
        let text: Promise<string | undefined>;
        if (doc) text = Promise.resolve(live.isCandidate(doc) ? doc.getText() : undefined);
        else if (contracts.file(vscode.workspace.asRelativePath(uri))) text = Promise.resolve(undefined); // a contract, not a trace
        // an Inspect AI .eval (a zip): the JSON its members make, which its read-only JSON view shows
        else if (isEvalFile(uri)) text = readEval(uri).then((r) => ('text' in r ? r.text : undefined));
        else text = readTraceText(uri, () => summary.tooLarge.push(vscode.workspace.asRelativePath(uri)));
        reads.set(j, text);
      };
      // each file checked where the core's checkPlan puts it (a worker thread is ended when the command is cancelled)
      const cancel = new AbortController();
      token.onCancellationRequested(() => cancel.abort());
      const set = contracts.contracts!;
      const pool = uris.length > 1 ? threadPool(live, contracts, set) : undefined;
      token.onCancellationRequested(() => void pool?.close());
      // a small file goes to the pool, several at once; a large one is checked in its turn where checkPlan puts it
      // (its own background thread, as when it is opened: large files never run side by side)
      const onPool = (text: string, uri: vscode.Uri): Promise<Checked> | undefined => {
        const { contracts: _compiled, ...options } = checkOptions(uri, set);
        if (!pool || text.length > POOL_LIMIT || options.profile !== pool.profile) return undefined;
        return pool.pool.run({ kind: 'text', text, options, marks: true }).then((a) => {
          if (a.kind === 'text') return { result: a.result, marks: a.marks ?? [] };
          throw new Error(a.kind === undefined ? a.error : 'unexpected reply');
        }, () => Promise.reject(Object.assign(new Error('the check was cancelled'), { name: token.isCancellationRequested ? 'AbortError' : 'Error' })));
      };
      const checkOne = (text: string, uri: vscode.Uri): Promise<Checked> => onPool(text, uri) ?? live.checkWhole(text, uri, set, cancel.signal);
      // pool checks run ahead as their texts arrive; results are taken in order
      const checks = new Map<number, Promise<Checked | undefined>>();
      const checkAhead = (j: number) => {
        if (j >= uris.length || checks.has(j)) return;
        read(j);
        const target = isEvalFile(uris[j]) ? evalViewUri(uris[j]) : uris[j];
        const p = reads.get(j)!.then((text) => (text === undefined ? undefined : onPool(text, target)));
        p.catch(() => undefined); // taken (and its failure handled) in order below
        checks.set(j, p);
      };
      let lastYield = Date.now();
      let reported = 0;
      let lastReport = 0;
      for (const [i, uri] of uris.entries()) {
        if (token.isCancellationRequested) {
          summary.cancelled = true;
          break;
        }
        for (let j = i; j < i + READ_AHEAD; j++) read(j);
        for (let j = i; j < i + (pool ? 2 * pool.pool.size : 1); j++) checkAhead(j);
        const text = await reads.get(i);
        const checked = checks.get(i)!;
        reads.delete(i);
        checks.delete(i);
        if (Date.now() - lastReport > 100 || i === uris.length - 1) {
          progress.report({ message: `${i + 1}/${uris.length} ${vscode.workspace.asRelativePath(uri)}`, increment: step * (i + 1) - reported });
          reported = step * (i + 1);
          lastReport = Date.now();
        }
        if (Date.now() - lastYield > 30) {
          // let the progress notification and the cancel button breathe
          await new Promise((r) => setTimeout(r, 0));
          lastYield = Date.now();
        }
        if (text === undefined) continue;
        // findings of an .eval are shown on its JSON view (their positions refer to that text)
        const target = isEvalFile(uri) ? evalViewUri(uri) : uri;
        const doc = open.get(target.toString());
        let result: CheckResult;
        try {
          const done = (await checked) ?? (await checkOne(text, target));
          result = done.result;
          if (!isEvalFile(uri)) options.index?.accept(uri, result, done.marks);
        } catch (e) {
          if (e instanceof Error && e.name === 'AbortError') {
            summary.cancelled = true;
            break;
          }
          // the worker failed on this file (out of memory, ...): say so and go on with the others
          console.error(`[Contract Guard] checking ${vscode.workspace.asRelativePath(uri)} failed: ${e instanceof Error ? e.message : String(e)}`);
          summary.skipped++;
          continue;
        }
        if (result.format === undefined) {
          summary.skipped++;
          collection.delete(target);
          continue;
        }
        const at = doc ?? new EditorLines(text);
        const diagnostics = toDiagnostics(result.findings, target, at, map, (p, span) => contracts.locate(p, span));
        collection.set(target, diagnostics);
        const counts = countFindings(result.findings, map);
        summary.traces++;
        summary.calls += result.calls;
        summary.error += counts.error;
        summary.warning += counts.warning;
        summary.info += counts.info;
        if (diagnostics.length) {
          // the first of the most severe problems, in file order
          const d = diagnostics.reduce((a, b) => (b.severity < a.severity || (b.severity === a.severity && b.range.start.isBefore(a.range.start)) ? b : a));
          if (!first || d.severity < firstSeverity) {
            first = { uri: target.toString(), line: d.range.start.line, character: d.range.start.character };
            firstSeverity = d.severity;
          }
        }
      }
      await pool?.close();
    },
  );
  // the traces view shows what this check found, without reading the files again
  if (!summary.cancelled) options.index?.covered();

  const result: WorkspaceSummary = { ...summary, first, message: summaryMessage(summary) };
  if (!options.quiet) void offerNext(result);
  return result;
}

async function offerNext(summary: WorkspaceSummary): Promise<void> {
  const actions: string[] = [];
  const commands = await vscode.commands.getCommands(true);
  if (commands.includes('contractGuard.showDecisionTable')) actions.push('Open Decision Table');
  if (summary.first) actions.push('Show First Problem');
  const show = summary.error ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const choice = await show(`Contract Guard: ${summary.message}`, ...actions);
  if (choice === 'Open Decision Table') await vscode.commands.executeCommand('contractGuard.showDecisionTable');
  if (choice === 'Show First Problem' && summary.first) {
    const pos = new vscode.Position(summary.first.line, summary.first.character);
    await vscode.window.showTextDocument(vscode.Uri.parse(summary.first.uri), { selection: new vscode.Range(pos, pos) });
  }
}

/** The CLI's thread pool for this run's contracts, or undefined where threads cannot run (the web host). */
function threadPool(live: TraceDiagnostics, store: ContractStore, set: ContractSet): { pool: WorkerPool<ThreadJob, ThreadAnswer>; profile: string; close(): Promise<void> } | undefined {
  const sources = store.sourcesOf(set);
  if (process.env.CONTRACT_GUARD_TARGET === 'web' || !live.background.available || !sources || typeof __dirname !== 'string') return undefined;
  const profile = sources.profile ?? 'strict';
  const settings: ThreadSettings = { options: {}, contracts: { files: sources.files, profile }, entry: { unknownSeverity: 'off' } };
  const size = Math.max(1, Math.min(8, defaultJobs()));
  // the same heap cap as a background check: a runaway file fails alone, the others are still checked
  const pool = new WorkerPool<ThreadJob, ThreadAnswer>(`${__dirname}/cliWorker.js`, size, settings, 2048);
  let closed: Promise<void> | undefined;
  return { pool, profile, close: () => (closed ??= pool.close()) };
}
