/**
 * The job-queue port: where admitted background runs wait for a slot. `RunQueue` (run-queue.ts) is the in-process
 * implementation every instance uses today: arrival order, `FLOWSVC_JOB_CONCURRENCY` slots, nothing shared.
 *
 * Where instances share jobs, v2 jobs do not come here: they queue in PostgreSQL (src/cluster/leased-jobs.ts), and
 * the instance that claims one builds its run from the record and starts it at once (`Runs.startClaimed`). What
 * stays here is each instance's own background work (background responses).
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
