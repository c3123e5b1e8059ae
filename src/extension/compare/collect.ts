// One side of a compare, collected file by file with the core's RunCollector: the same code on the compare worker
// thread (runWorker.ts) and, where no worker can run (the web extension host), in the extension host between
// yields. No `vscode` import. A frozen fixture (*.fixture.json) is read as the one-call trace it is.
import { checkFixture, checkTextChunked, LineIndex, RunCollector, type CheckOptions, type ContractSet, type Profile, type RunSummary } from '../../core';
import type { ContractSources } from '../background';

/** Check options without what cannot cross a thread (compiled contracts, callbacks). */
export type PlainCheckOptions = Omit<CheckOptions, 'contracts' | 'keepModel' | 'onSession'>;

export const FIXTURE_NAME = /\.fixture\.json$/i;

export interface RunFileJob {
  /** As reports show it (workspace-relative): the summary's file names. */
  path: string;
  text: string;
  options: PlainCheckOptions;
}

export interface FileCounts {
  path: string;
  format?: string;
  calls: number;
  findings: number;
}

/** Host → worker, in order: one `start`, a `file` per file, one `end` (answered by `summary`). */
export type ToRunWorker =
  | { type: 'start'; contracts: ContractSources; profile?: Profile; volatileTools?: string[] }
  | { type: 'file'; job: RunFileJob }
  | { type: 'end' };

export type FromRunWorker = { type: 'file'; counts: FileCounts } | { type: 'summary'; summary: RunSummary } | { type: 'error'; message: string };

export function isFromRunWorker(m: unknown): m is FromRunWorker {
  const t = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined;
  return t === 'file' || t === 'summary' || t === 'error';
}

/** Check one file into the run. Never throws on a broken file: what no reader understands counts as no trace. */
export async function collectFile(run: RunCollector, job: RunFileJob, contracts: ContractSet, chunk: { sliceMs?: number; signal?: AbortSignal } = {}): Promise<FileCounts> {
  const sink = run.file(job.path);
  const options: CheckOptions = { ...job.options, contracts, onSession: sink.onSession };
  let result;
  try {
    result = FIXTURE_NAME.test(job.path) ? checkFixture(job.text, options) : await checkTextChunked(job.text, options, chunk);
  } catch (e) {
    if (e instanceof Error && e.name === 'AbortError') throw e;
    result = { calls: 0, sessions: 0, findings: [] };
  }
  const lines = LineIndex.of(job.text);
  sink.done(result, (offset) => lines.position(offset));
  return { path: job.path, format: result.format, calls: result.calls, findings: result.findings.length };
}
