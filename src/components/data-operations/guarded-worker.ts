/**
 * A small pool of worker threads for work that might never finish: user regexes (catastrophic backtracking) and
 * jq programs (jq is a full programming language). Every task has a deadline and follows the run's AbortSignal;
 * a worker that overruns is terminated (V8 interrupts even a regex in the middle of a match) and replaced when the
 * next task comes, so the service's event loop never waits on a user's pattern or program. A task's deadline
 * counts from when its worker is ready (the script says so once loaded): a new worker's start-up, seconds on a
 * loaded machine, is not charged to the user's pattern; a worker that never gets ready is given up after a minute.
 */
import { Worker } from 'node:worker_threads';

export type SandboxFailure = 'timeout' | 'aborted' | 'failed' | 'crashed';

/** Why a task did not produce a value; callers turn it into a component error naming their operation. */
export class SandboxError extends Error {
  override name = 'SandboxError';
  constructor(readonly reason: SandboxFailure, message: string) {
    super(message);
  }
}

export interface TaskOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Buffers moved to the worker instead of copied. */
  transfer?: ArrayBuffer[];
}

interface Job extends TaskOptions {
  id: number;
  task: unknown;
  resolve(value: unknown): void;
  reject(error: SandboxError): void;
  onAbort(): void;
}

interface Slot {
  worker: Worker;
  /** The script has loaded and listens for tasks. */
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string } | { ready: true };

/** How long a new worker may take to load its script before it is given up. */
const START_MS = 60_000;

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 0;

  constructor(
    private readonly script: URL,
    private readonly size: number,
  ) {}

  run<T>(task: unknown, options: TaskOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (options.signal?.aborted) return reject(new SandboxError('aborted', 'the run was cancelled'));
      const job: Job = { ...options, id: ++this.nextId, task, resolve: resolve as (value: unknown) => void, reject, onAbort: () => this.abort(job) };
      options.signal?.addEventListener('abort', job.onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Live workers (for tests). */
  get workers(): number {
    return this.slots.size;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = [...this.slots].find((s) => !s.job) ?? (this.slots.size < this.size ? this.spawn() : undefined);
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.script), ready: false };
    slot.worker.on('message', (reply: Reply) => ('ready' in reply ? this.ready(slot) : this.finish(slot, reply)));
    slot.worker.on('error', (error: Error) => this.drop(slot, new SandboxError('crashed', error.message)));
    slot.worker.on('exit', (code: number) => this.drop(slot, new SandboxError('crashed', `the worker stopped (exit code ${code})`)));
    // An idle worker must not keep the process alive.
    slot.worker.unref();
    this.slots.add(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, task: job.task }, job.transfer ?? []);
    if (slot.ready) this.startDeadline(slot, job);
    else slot.timer = setTimeout(() => this.drop(slot, new SandboxError('crashed', `the worker did not start within ${START_MS} ms`)), START_MS);
  }

  private ready(slot: Slot): void {
    slot.ready = true;
    clearTimeout(slot.timer);
    if (slot.job) this.startDeadline(slot, slot.job);
  }

  private startDeadline(slot: Slot, job: Job): void {
    slot.timer = setTimeout(() => this.drop(slot, new SandboxError('timeout', `it did not finish within ${job.timeoutMs} ms`)), job.timeoutMs);
  }

  private finish(slot: Slot, reply: Exclude<Reply, { ready: true }>): void {
    const job = slot.job;
    if (!job || reply.id !== job.id) return;
    this.release(slot, job);
    if (reply.ok) job.resolve(reply.value);
    else job.reject(new SandboxError('failed', reply.error));
    this.dispatch();
  }

  private release(slot: Slot, job: Job): void {
    clearTimeout(slot.timer);
    job.signal?.removeEventListener('abort', job.onAbort);
    slot.job = undefined;
    slot.worker.unref();
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.reject(new SandboxError('aborted', 'the run was cancelled'));
      return;
    }
    const slot = [...this.slots].find((s) => s.job === job);
    if (slot) this.drop(slot, new SandboxError('aborted', 'the run was cancelled'));
  }

  /** Removes a worker (terminating it if it still runs) and fails its task. */
  private drop(slot: Slot, error: SandboxError): void {
    if (!this.slots.delete(slot)) return;
    const job = slot.job;
    if (job) {
      this.release(slot, job);
      job.reject(error);
    }
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {});
    void slot.worker.terminate();
    this.dispatch();
  }
}
