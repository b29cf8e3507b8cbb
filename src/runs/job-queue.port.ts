/**
 * The job-queue port: where admitted background runs wait for a slot. `RunQueue` (run-queue.ts) is the in-process
 * implementation every instance uses today: arrival order, `FLOWSVC_JOB_CONCURRENCY` slots, nothing shared.
 *
 * The shared implementation for several machines (PostgreSQL) keeps the same calls with a different reach: `push`
 * makes the run claimable by any instance (its `queued` record is the queue entry, committed before a wake-up hint
 * goes out), instances claim with `FOR UPDATE SKIP LOCKED` under a lease (`owner`, `epoch`, `lease_until`) the owner
 * renews, and `remove` is a compare-and-set on the record, so a stop reaches a run whichever instance holds it.
 */
export interface JobQueue<T> {
  /** Admits an item; it starts once a slot is free, never in the caller's turn (the caller answers `queued` first). */
  push(item: T): void;
  /** Takes a waiting item out (a stop before it started); false when none matched. */
  remove(matches: (item: T) => boolean): boolean;
  /** Items waiting for a slot. */
  readonly size: number;
  /** Starts nothing more (a shutdown draining); what waits stays queued, in the store too, for the next start. */
  pause(): void;
  /** Forgets every waiting item (shutdown: their records stay queued for the next start). */
  clear(): void;
}
