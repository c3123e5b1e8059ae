// Checks of large texts on a thread of their own, so that the extension host is never held by one: a 24 MB JSON
// trace or one Claude Code session over 20 MB of lines is read, modelled and checked in one piece (a session's
// cross-call checks need all of it), which no slicing can cut below 50 ms. One worker per check: it gets the text,
// the options and the contract files' sources (compiled again there; compiled validators do not cross threads), and
// answers with the findings. Cancelling terminates it at once. Only where Node's worker_threads exist (the desktop
// extension host); the web extension host keeps checking JSONL in slices. No `vscode` import: the worker entry
// (checkWorker.ts) shares these types.
import { applyDelta, type CheckOptions, completeLines, type ContractFile, type DecisionTable, type FileResult, type Finding, type FindingsDelta, type Growing, type Profile, type TableOptions, type CallMark } from '../core';

/** What a worker is asked: the options without the compiled contracts, which it builds from their sources. */
export interface CheckJob {
  text: string;
  options: Omit<CheckOptions, 'contracts' | 'keepModel' | 'onSession'>;
  contracts: ContractSources;
  /** Build the decision table too, with these options (the contracts are the job's). */
  table?: Omit<TableOptions, 'contracts'>;
  /** Follow the text as it grows: when it is read line by line and its lines are not each a unit of their own, the
   *  thread stays after its reply, keeps a growing trace of the text (core/append) and checks appended lines. */
  grow?: boolean;
}

export interface ContractSources {
  files: ContractFile[];
  profile?: Profile;
}

export type CheckReply =
  | { ok: true; result: FileResult; /** JSONL whose every line is read on its own (the line table needs no second pass) */ independent: boolean; marks: CallMark[]; table?: DecisionTable; millis: number; /** the thread stays, following the text (see CheckJob.grow) */ growing?: boolean }
  | { ok: false; error: string };

export interface BackgroundResult {
  result: FileResult;
  independent: boolean;
  /** Where the first calls start (the model stays on the worker): for the lenses above them. */
  marks: CallMark[];
  /** The decision table, when the job asked for it. */
  table?: DecisionTable;
  /** Milliseconds the worker spent checking (without starting up and the copies). */
  millis: number;
  /** When the job asked (`grow`) and the thread stayed: appended lines are checked there, from its state. */
  growing?: Growing;
}

/** What the host sends a thread that stayed to follow a growing text, and what it answers. */
export interface AppendMessage {
  append: string;
  tail: string;
}
/** The result of an append, its findings as a change of the last ones sent (the first: of the check's reply). */
export type AppendReply = { ok: true; result: Omit<FileResult, 'findings'>; findings: FindingsDelta } | { ok: false; error: string };

/** A growing trace followed on the thread that checked it: the text's state stays there, the host sends what was
 *  appended and gets the file's result back (in order). Disposing ends the thread. */
class ThreadGrowing implements Growing {
  private readonly waiting: { resolve: (r: FileResult) => void; reject: (e: Error) => void }[] = [];
  private ended?: Error;

  constructor(
    private readonly worker: WorkerLike,
    public consumed: number,
    /** The findings the thread sent last (those of its check, at first). */
    private findings: Finding[],
    private readonly onEnd: () => void,
  ) {
    worker.on('message', (m) => {
      const reply = m as AppendReply;
      const next = this.waiting.shift();
      if (!next) return;
      if (reply.ok) {
        this.findings = applyDelta(this.findings, reply.findings);
        next.resolve({ ...reply.result, findings: this.findings });
      }
      else next.reject(new Error(reply.error));
    });
    worker.once('exit', () => this.end(new Error('the thread following the trace stopped')));
    worker.once('error', (err) => this.end(new Error(`the thread following the trace failed: ${err.message}`)));
  }

  append(lines: string, tail = ''): Promise<FileResult> {
    if (this.ended) return Promise.reject(this.ended);
    this.consumed += lines.length;
    const message: AppendMessage = { append: lines, tail };
    this.worker.postMessage(message);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  dispose(): void {
    this.end(new Error('the growing trace was let go'));
  }

  private end(why: Error): void {
    if (this.ended) return;
    this.ended = why;
    for (const w of this.waiting.splice(0)) w.reject(why);
    void this.worker.terminate();
    this.onEnd();
  }
}

export interface WorkerLike {
  postMessage(message: unknown): void;
  /** Every message (a thread that answers more than once: the compare thread). */
  on(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'message', listener: (reply: CheckReply) => void): unknown;
  once(event: 'error', listener: (err: Error) => void): unknown;
  once(event: 'exit', listener: (code: number) => void): unknown;
  once(event: 'online', listener: () => void): unknown;
  terminate(): Promise<number>;
}
export type WorkerConstructor = new (file: string, options?: { resourceLimits?: { maxOldGenerationSizeMb?: number } }) => WorkerLike;

/** Node's Worker, or undefined in a browser worker (the web bundle defines the target as "web"). */
export function workerConstructor(): WorkerConstructor | undefined {
  if (process.env.CONTRACT_GUARD_TARGET === 'web') return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('node:worker_threads') as { Worker: WorkerConstructor }).Worker;
  } catch {
    return undefined;
  }
}

export function abortError(): Error {
  return Object.assign(new Error('the check was cancelled'), { name: 'AbortError' });
}

export class BackgroundChecks {
  private readonly Worker: WorkerConstructor | undefined;
  private readonly running = new Set<WorkerLike>();

  /** `workerFile`: the bundled checkWorker.js; undefined where the extension is not on a local disk. */
  constructor(private readonly workerFile: string | undefined) {
    this.Worker = workerFile ? workerConstructor() : undefined;
  }

  get available(): boolean {
    return this.Worker !== undefined;
  }

  /**
   * Check `job` on a worker thread. Resolves with its result; rejects with an AbortError when `signal` aborts
   * (the worker is terminated) and with the worker's one-line error otherwise. Undefined when no worker can run here.
   */
  check(job: CheckJob, signal?: AbortSignal): Promise<BackgroundResult> | undefined {
    const Worker = this.Worker;
    if (!Worker || !this.workerFile) return undefined;
    if (signal?.aborted) return Promise.reject(abortError());
    // a 2 GB heap bounds a runaway check without ever bounding a real trace (a 100 MB file peaks below 700 MB)
    const worker = new Worker(this.workerFile, { resourceLimits: { maxOldGenerationSizeMb: 2048 } });
    this.running.add(worker);
    return new Promise<BackgroundResult>((resolve, reject) => {
      let settled = false;
      const finish = (f: () => void, stay = false) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        if (!stay) {
          this.running.delete(worker);
          void worker.terminate();
        }
        f();
      };
      const onAbort = () => finish(() => reject(abortError()));
      signal?.addEventListener('abort', onAbort);
      worker.once('message', (reply) => {
        if (!reply.ok) return finish(() => reject(new Error(reply.error)));
        // a thread that stays follows the text as it grows, until the growing trace is let go
        if (!reply.growing) return finish(() => resolve({ ...reply, growing: undefined }));
        const growing = new ThreadGrowing(worker, completeLines(job.text), reply.result.findings, () => this.running.delete(worker));
        finish(() => resolve({ ...reply, growing }), true);
      });
      worker.once('error', (err) => finish(() => reject(new Error(`the background check failed: ${err.message}`))));
      worker.once('exit', (code) => finish(() => reject(new Error(`the background check stopped (exit code ${code})`))));
      // posted once the thread runs: copying the text then is a host task of its own, not part of the spawn's
      worker.once('online', () => {
        if (!settled) worker.postMessage(job);
      });
    });
  }

  /** Stop every worker (the extension is deactivated). */
  dispose(): void {
    for (const w of this.running) void w.terminate();
    this.running.clear();
  }
}
