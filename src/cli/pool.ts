// A pool of worker threads that run jobs of one kind (src/cli/worker.ts for `check`): each thread is started once
// with its settings (so contracts are compiled once per thread, not per file) and then takes job after job. Jobs go
// to the thread with the fewest waiting (a new thread is started only when all are busy); replies come back by id.
// A thread that dies (out of memory past its heap limit) fails its jobs, and every later one, with its error.
import type { Worker } from 'node:worker_threads';

export interface PoolReply {
  id: number;
}

interface Slot {
  worker: Worker;
  waiting: Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>;
  dead?: Error;
}

/** The default of --jobs: the cores this process may use. */
export function defaultJobs(): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const os = require('node:os') as typeof import('node:os');
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/** Each thread's young generation: small, so a thread's short-lived garbage (a slice's lines) is collected before
 *  it grows the process (100 MB traces, 2 threads: peak RSS 247–257 MB against 280–294 MB with V8's default; same CPU). */
const YOUNG_MB = 6;

export class WorkerPool<Job extends object, Reply> {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private readonly Worker: typeof Worker;

  /** Up to `size` threads, each started when a job finds all the others busy (one file needs one thread).
   *  `heapMb`: each thread's heap limit; a job that needs more fails with a one-line error instead of a V8 abort. */
  constructor(private readonly file: string, private readonly limit: number, private readonly workerData: unknown, private readonly heapMb: number) {
    // required here, not imported: the extension's web bundle holds this module but never starts a pool
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.Worker = (require('node:worker_threads') as typeof import('node:worker_threads')).Worker;
  }

  /** The most threads it runs. */
  get size(): number {
    return this.limit;
  }

  private start(): Slot {
    const worker = new this.Worker(this.file, { workerData: this.workerData, resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: YOUNG_MB } });
    const slot: Slot = { worker, waiting: new Map() };
    worker.on('message', (m: PoolReply) => {
      const w = slot.waiting.get(m.id);
      if (!w) return;
      slot.waiting.delete(m.id);
      w.resolve(m);
    });
    const fail = (e: Error) => {
      slot.dead ??= e;
      for (const w of slot.waiting.values()) w.reject(slot.dead);
      slot.waiting.clear();
    };
    worker.on('error', (e: Error) => fail(e)); // out of memory: ERR_WORKER_OUT_OF_MEMORY (limits.ts names it)
    worker.on('exit', (code) => fail(new Error(`a check thread stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  /** Run one job; the reply is the worker's message for it. */
  run(job: Job, transfer?: ArrayBuffer[]): Promise<Reply> {
    const dead = this.slots.find((s) => s.dead)?.dead;
    if (dead) return Promise.reject(dead); // a thread died (out of memory): the run stops
    let slot: Slot | undefined;
    for (const s of this.slots) if (!slot || s.waiting.size < slot.waiting.size) slot = s;
    if (!slot || (slot.waiting.size > 0 && this.slots.length < this.limit)) slot = this.start();
    const id = this.nextId++;
    const chosen = slot;
    return new Promise<Reply>((resolve, reject) => {
      chosen.waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
      chosen.worker.postMessage({ ...job, id }, transfer);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
