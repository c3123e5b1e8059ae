// A pool of worker threads that run jobs of one kind (src/cli/worker.ts for `check`): each thread is started once
// with its settings (so contracts are compiled once per thread, not per file) and then takes job after job. Jobs go
// to the thread with the fewest waiting; replies come back by id. A thread that dies (out of memory past its heap
// limit) fails its jobs with one line saying so, and the pool starts no more on it.
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

export class WorkerPool<Job extends object, Reply> {
  private readonly slots: Slot[] = [];
  private nextId = 1;

  /** `heapMb`: each thread's heap limit; a job that needs more fails with a one-line error instead of a V8 abort. */
  constructor(file: string, size: number, workerData: unknown, heapMb: number) {
    // required here, not imported: the extension's web bundle holds this module but never starts a pool
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    for (let i = 0; i < size; i++) {
      const worker = new Worker(file, { workerData, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
      const slot: Slot = { worker, waiting: new Map() };
      worker.on('message', (m: PoolReply & { error?: string }) => {
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
      worker.on('error', (e: Error) => fail(/heap|memory/i.test(e.message) ? new Error(`a check ran out of memory (more than ${heapMb} MB of heap on one thread)`) : e));
      worker.on('exit', (code) => fail(new Error(`a check thread stopped (exit code ${code})`)));
      this.slots.push(slot);
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /** Run one job; the reply is the worker's message for it. */
  run(job: Job, transfer?: ArrayBuffer[]): Promise<Reply> {
    const live = this.slots.filter((s) => !s.dead);
    if (!live.length) return Promise.reject(this.slots[0]?.dead ?? new Error('no check thread'));
    let slot = live[0];
    for (const s of live) if (s.waiting.size < slot.waiting.size) slot = s;
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      slot.waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
      slot.worker.postMessage({ ...job, id }, transfer);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
