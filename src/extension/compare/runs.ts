// The two sides of a compare, as the editor collects them: each side is files and folders (folders walked for
// trace files as the CLI walks them), read through vscode.workspace.fs — an open document by its current text, an
// Inspect .eval by the JSON its members make — and checked on a thread of its own (runWorker.ts) so that two runs of
// 100 MB never hold the extension host; where no thread can run (the web host) in place, between yields. Cancellable.
import * as vscode from 'vscode';
import { RunCollector, TRACE_NAME, walkSkips, type ContractSet, type Profile, type RunSummary } from '../../core';
import { abortError, workerConstructor, type ContractSources, type WorkerLike } from '../background';
import { checkOptions } from '../diagnostics';
import { evalViewUri, isEvalFile, readEval } from '../evalView';
import { decode } from '../lines';
import { readSettings } from '../settings';
import { collectFile, FIXTURE_NAME, isFromRunWorker, type FileCounts, type PlainCheckOptions, type RunFileJob } from './collect';

/** Walked folders give their TRACE_NAME files, as the CLI's walk does; a file named explicitly is read whatever its
 *  name (`.txt`, `.log`). Contract files and the config file are never traces. */
const NOT_TRACES = /\.contract\.jsonc?$|(^|\/)contract-guard\.config\.json$/i;
/** Files read ahead of the one being checked (reading is a round trip; checking is not). */
const READ_AHEAD = 4;

export interface SideInput {
  uris: vscode.Uri[];
  /** Read the frozen fixtures (*.fixture.json) among the files as one-call traces, with any traces beside them:
   *  the side is the mocks the other side is measured against. */
  fixtures?: boolean;
}

export interface CollectedSide {
  /** For the page: the files or folders the side was made of, workspace-relative. */
  label: string;
  summary: RunSummary;
  /** A summary's file name → the document its positions refer to (an .eval's JSON view for an .eval). */
  uris: Map<string, vscode.Uri>;
  /** Files read that no reader understood (not traces). */
  skipped: number;
  /** Every file read was a frozen fixture (the side is a fixtures folder). */
  allFixtures: boolean;
  /** Checked on a compare thread (else in the extension host, between yields). */
  thread: boolean;
}

export interface CollectDeps {
  contracts: ContractSet;
  sources?: ContractSources;
  /** The compare thread's bundle, where threads can run (the desktop host, the extension on a local disk). */
  workerFile?: string;
  /** A workspace contract file (a contract is never a trace, whatever its name). */
  isContract: (uri: vscode.Uri) => boolean;
}

export const relPath = (uri: vscode.Uri): string => vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);

export function sideLabel(uris: readonly vscode.Uri[]): string {
  const names = uris.map((u) => relPath(u));
  return names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

async function isFolder(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}

/** The files of a side, in a stable order: files named are taken as they are; folders give their traces, and their
 *  frozen fixtures when the side reads fixtures or has nothing else. */
export async function filesOf(side: SideInput, isContract: (uri: vscode.Uri) => boolean, token?: vscode.CancellationToken): Promise<vscode.Uri[]> {
  const named: vscode.Uri[] = [];
  const traces: vscode.Uri[] = [];
  const fixtures: vscode.Uri[] = [];
  const walk = async (dir: vscode.Uri): Promise<void> => {
    if (token?.isCancellationRequested) return;
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(dir);
    } catch {
      return;
    }
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [name, type] of entries) {
      const uri = vscode.Uri.joinPath(dir, name);
      if (type & vscode.FileType.Directory) {
        if (!walkSkips(name)) await walk(uri);
      } else if (type & vscode.FileType.File) {
        if (FIXTURE_NAME.test(name)) fixtures.push(uri);
        else if (TRACE_NAME.test(name) && !NOT_TRACES.test(name) && !isContract(uri)) traces.push(uri);
      }
    }
  };
  for (const uri of side.uris) {
    if (await isFolder(uri)) await walk(uri);
    else named.push(uri);
  }
  const walked = side.fixtures || traces.length === 0 ? [...traces, ...fixtures] : traces;
  const seen = new Set<string>();
  return [...named, ...walked].filter((u) => !seen.has(u.toString()) && !!seen.add(u.toString()));
}

interface ReadFile {
  /** The document the text is (an .eval's JSON view for an .eval). */
  target: vscode.Uri;
  text?: string;
}

async function readOne(uri: vscode.Uri): Promise<ReadFile> {
  if (isEvalFile(uri)) {
    const r = await readEval(uri);
    return { target: evalViewUri(uri), text: 'text' in r ? r.text : undefined };
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return { target: uri, text: open.getText() };
  try {
    return { target: uri, text: decode(await vscode.workspace.fs.readFile(uri)) };
  } catch {
    return { target: uri };
  }
}

function plainOptions(uri: vscode.Uri, contracts: ContractSet): PlainCheckOptions {
  const { contracts: _compiled, keepModel: _model, onSession: _each, ...plain } = checkOptions(uri, contracts);
  return plain;
}

/** One side's collector: a compare thread, or the core's RunCollector here. */
interface Sink {
  add(job: RunFileJob): Promise<FileCounts>;
  end(): Promise<RunSummary>;
  dispose(): void;
}

function threadSink(worker: WorkerLike, signal: AbortSignal): Sink {
  let waiting: { resolve(m: unknown): void; reject(e: Error): void } | undefined;
  let failed: Error | undefined;
  const fail = (e: Error) => {
    failed ??= e;
    waiting?.reject(e);
    waiting = undefined;
  };
  worker.on('message', (m) => {
    if (!isFromRunWorker(m)) return;
    if (m.type === 'error') return fail(new Error(`the compare thread failed: ${m.message}`));
    const w = waiting;
    waiting = undefined;
    w?.resolve(m);
  });
  worker.once('error', (err) => fail(new Error(`the compare thread failed: ${err.message}`)));
  worker.once('exit', (code) => fail(signal.aborted ? abortError() : new Error(`the compare thread stopped (exit code ${code})`)));
  const onAbort = () => fail(abortError());
  signal.addEventListener('abort', onAbort);
  const ask = <T>(message: unknown, pick: (m: unknown) => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failed) return reject(failed);
      waiting = { resolve: (m) => {
        const v = pick(m);
        if (v === undefined) reject(new Error('the compare thread answered out of turn'));
        else resolve(v);
      }, reject };
      worker.postMessage(message);
    });
  return {
    add: (job) => ask({ type: 'file', job }, (m) => (isFromRunWorker(m) && m.type === 'file' ? m.counts : undefined)),
    end: () => ask({ type: 'end' }, (m) => (isFromRunWorker(m) && m.type === 'summary' ? m.summary : undefined)),
    dispose: () => {
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
    },
  };
}

function hostSink(contracts: ContractSet, profile: Profile, volatileTools: string[], signal: AbortSignal): Sink {
  const run = new RunCollector({ contracts, profile, volatileTools });
  return {
    add: (job) => collectFile(run, job, contracts, { sliceMs: 40, signal }),
    end: async () => run.summary(),
    dispose: () => undefined,
  };
}

export interface SideProgress {
  /** Files done, and in all. */
  done: number;
  total: number;
  file: string;
}

/** Collect one side: find its files, read them a few ahead, check each on the side's thread (or here). */
export async function collectSide(side: SideInput, deps: CollectDeps, signal: AbortSignal, onProgress: (p: SideProgress) => void, token?: vscode.CancellationToken): Promise<CollectedSide> {
  const files = await filesOf(side, deps.isContract, token);
  if (signal.aborted) throw abortError();
  const settings = readSettings(side.uris[0]);
  const Worker = deps.workerFile && deps.sources ? workerConstructor() : undefined;
  let sink: Sink;
  if (Worker && deps.workerFile && deps.sources) {
    // a 2 GB heap bounds a runaway check, never a real run (as background.ts)
    const worker = new Worker(deps.workerFile, { resourceLimits: { maxOldGenerationSizeMb: 2048 } });
    worker.postMessage({ type: 'start', contracts: deps.sources, profile: settings.profile, volatileTools: settings.volatileTools });
    sink = threadSink(worker, signal);
  } else {
    sink = hostSink(deps.contracts, settings.profile, settings.volatileTools, signal);
  }
  const uris = new Map<string, vscode.Uri>();
  const reads = new Map<number, Promise<ReadFile>>();
  const read = (j: number) => {
    if (j < files.length && !reads.has(j)) reads.set(j, readOne(files[j]));
  };
  let skipped = 0;
  let fixtureFiles = 0;
  let traceFiles = 0;
  try {
    for (let i = 0; i < files.length; i++) {
      if (signal.aborted) throw abortError();
      for (let j = i; j < i + READ_AHEAD; j++) read(j);
      const file = await reads.get(i)!;
      reads.delete(i);
      onProgress({ done: i, total: files.length, file: relPath(files[i]) });
      if (file.text === undefined) {
        skipped++;
        continue;
      }
      const path = relPath(file.target);
      uris.set(path, file.target);
      const counts = await sink.add({ path, text: file.text, options: plainOptions(file.target, deps.contracts) });
      if (counts.format === undefined) skipped++;
      else if (counts.format === 'fixture') fixtureFiles++;
      else traceFiles++;
    }
    onProgress({ done: files.length, total: files.length, file: '' });
    const summary = await sink.end();
    return { label: sideLabel(side.uris), summary, uris, skipped, allFixtures: fixtureFiles > 0 && traceFiles === 0, thread: Worker !== undefined };
  } finally {
    sink.dispose();
  }
}
