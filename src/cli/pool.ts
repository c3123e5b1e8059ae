// A pool of worker threads that run jobs of one kind (src/cli/worker.ts for `check`): each thread is started once
// with its settings (so contracts are compiled once per thread, not per file) and then takes job after job. Jobs go
// to the thread with the fewest waiting (a new thread is started only when all are busy); replies come back by id.
// A thread that dies (out of memory past its heap limit) fails its jobs, and every later one, with its error.
// Given a way to run jobs here, the main thread is one of the pool's workers for the jobs that may run on it (small,
// bounded ones: slices, parts): it would otherwise wait while its threads check, and each thread costs a heap and
// its own warm-up of the checking code (100 MB traces: ~30 MB peak RSS and ~1 s CPU a thread).
import type { Worker } from 'node:worker_threads';

/** Where a job may run: on a thread only (false), here too (true), or here at once as the run's first job. */
export type HereToo = boolean | 'first';

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

/** Jobs run on the main thread, one at a time, each when the event loop is free again (so reading the file and
 *  handing out jobs goes on between them). */
class Here<Job, Reply> {
  private readonly queue: { job: Job & { id: number }; resolve: (r: Reply) => void }[] = [];
  private running = false;

  constructor(private readonly answer: (job: Job & { id: number }) => Promise<Reply>) {}

  get waiting(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  run(job: Job & { id: number }): Promise<Reply> {
    return new Promise<Reply>((resolve) => {
      this.queue.push({ job, resolve });
      if (!this.running) this.next();
    });
  }

  private next(): void {
    const item = this.queue.shift();
    if (!item) return;
    this.running = true;
    setImmediate(() => {
      void this.answer(item.job).then((r) => {
        this.running = false;
        item.resolve(r);
        this.next();
      });
    });
  }
}

export class WorkerPool<Job extends object, Reply> {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private readonly Worker: typeof Worker;
  private readonly here?: Here<Job, Reply>;

  /** Up to `size` threads, each started when a job finds all the others busy (one file needs one thread).
   *  `heapMb`: each thread's heap limit; a job that needs more fails with a one-line error instead of a V8 abort.
   *  `here`: answers a job on this thread (never rejects), which then counts as one of the `size` workers. */
  constructor(private readonly file: string, private readonly limit: number, private readonly workerData: unknown, private readonly heapMb: number, here?: (job: Job & { id: number }) => Promise<Reply>) {
    if (here && limit > 1) this.here = new Here(here);
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

  /** Run one job; the reply is the worker's message for it. `hereToo`: the job may run on this thread (when the
   *  pool was given a way to): it goes to whichever worker has the fewest jobs waiting, a thread on a tie;
   *  `'first'`: the run's first job, checked here while the threads start (before any has started). */
  run(job: Job, transfer?: ArrayBuffer[], hereToo: HereToo = false): Promise<Reply> {
    const dead = this.slots.find((s) => s.dead)?.dead;
    if (dead) return Promise.reject(dead); // a thread died (out of memory): the run stops
    if (hereToo === 'first' && this.here && this.slots.length === 0) {
      // a file's first slice, whose answer the rest waits for: checked here at once while the threads start (a
      // thread's start-up and warm-up is ~0.5 s, which this thread spent idle waiting for the answer)
      while (this.slots.length < this.limit - 1) this.start();
      return this.here.run({ ...job, id: this.nextId++ });
    }
    let slot: Slot | undefined;
    for (const s of this.slots) if (!slot || s.waiting.size < slot.waiting.size) slot = s;
    const here = hereToo ? this.here : undefined;
    // this thread is one of the `limit` workers for the jobs it takes (a job it may not take can have a thread
    // more); it takes one only when every thread it may have is started and has one more waiting behind the one it
    // checks: its own work (reading, handing out, writing the report) comes first, a job here, done at once, would
    // always find it free, and a thread must not run dry while this one checks
    const threads = here ? this.limit - 1 : this.limit;
    if ((!slot || slot.waiting.size > 0) && this.slots.length < threads) slot = this.start();
    else if (here && slot && here.waiting < slot.waiting.size - 1) return here.run({ ...job, id: this.nextId++ });
    slot ??= this.start();
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
