/**
 * The in-process job queue (job-queue.port.ts): runs at most `limit` background runs at once; the rest wait in
 * arrival order (their status says `queued`).
 */
import type { JobQueue } from './job-queue.port.js';

export type { JobQueue };

export class RunQueue<T> implements JobQueue<T> {
  private readonly waiting: T[] = [];
  private running = 0;
  private paused = false;

  constructor(
    private readonly limit: number,
    /** Runs an item; its slot is free again when the promise settles (at once when there is none). */
    private readonly run: (item: T) => Promise<void> | undefined,
  ) {}

  push(item: T): void {
    this.waiting.push(item);
    // Started on a later turn, so the caller's reply (which says `queued`) is built first.
    setImmediate(() => this.pump());
  }

  /** Takes a waiting item out (a stop before it started); false when none is waiting. */
  remove(matches: (item: T) => boolean): boolean {
    const index = this.waiting.findIndex(matches);
    if (index === -1) return false;
    this.waiting.splice(index, 1);
    return true;
  }

  get size(): number {
    return this.waiting.length;
  }

  /** Starts nothing more (a shutdown draining): what waits stays queued, in the store too, for the next start. */
  pause(): void {
    this.paused = true;
  }

  /** Forgets every waiting item (shutdown: their records stay queued for the next start). */
  clear(): void {
    this.waiting.length = 0;
  }

  private pump(): void {
    while (!this.paused && this.running < this.limit && this.waiting.length > 0) {
      const item = this.waiting.shift()!;
      this.running++;
      const running = this.run(item);
      if (!running) {
        this.running--;
        continue;
      }
      void running.finally(() => {
        this.running--;
        this.pump();
      });
    }
  }
}
