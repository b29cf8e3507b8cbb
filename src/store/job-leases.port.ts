/**
 * The shared job queue's leases, where several instances share the store (PostgreSQL): which v2 jobs wait for any
 * instance to claim them, which instance runs each one (`owner`, with an `epoch` bumped at every change of hands),
 * and until when its lease holds. The job records stay in `JobRepo`; a lease row is the queue entry and the fence.
 * The embedded store has none: one process runs what it accepts (src/runs/run-queue.ts).
 */

/** A job as one owner holds it: whoever takes it over next gets a higher epoch. */
export interface Lease {
  id: string;
  epoch: number;
}

/**
 * The lease a job's final write is fenced by: the write ends the lease and stores the terminal record in one
 * transaction, and only while the lease is still `owner`'s at `epoch`. No instance can die between the two.
 */
export interface LeaseFence extends Lease {
  owner: string;
}

/** What a stop asked of a job that no instance here runs. */
export type StopOutcome = 'was-queued' | 'flagged' | 'ended' | 'unknown';

export interface JobLeaseRepo {
  /** Makes a background job claimable by every instance; its queued record must be committed first. */
  enqueue(id: string): Promise<void>;
  /** Leases a job started at once (sync, streamed) to the instance that took the request. */
  own(id: string, owner: string, leaseMs: number): Promise<Lease>;
  /** Claims up to `limit` queued jobs, oldest first, skipping rows another instance is claiming at the moment. */
  claim(owner: string, limit: number, leaseMs: number): Promise<Lease[]>;
  /** Extends the owner's leases; answers the ones it still holds, each with whether a stop was asked for. */
  renew(owner: string, ids: readonly string[], leaseMs: number): Promise<{ id: string; stop: boolean }[]>;
  /**
   * The owner's final transition, a compare-and-set on (owner, epoch): false once the job is no longer its. Only
   * for a job with nothing to record (its record already ended, or gone); a job's end is `JobRepo.putFinished`
   * with a `LeaseFence`, which ends the lease in the same transaction.
   */
  end(lease: Lease, owner: string): Promise<boolean>;
  /** A stop: a queued job ends here (`was-queued`: the caller records it cancelled), a running one is flagged. */
  requestStop(id: string): Promise<StopOutcome>;
  /**
   * One instance at a time: answers the jobs the caller must now record interrupted, and marks them taken. Those
   * are running jobs whose lease expired (ended here), and unfinished jobs stranded without a live lease: their
   * lease ended, or they never had one, for longer than `graceMs` (an instance died before recording their end).
   * Each is answered again after another `graceMs` while its record stays unfinished (its sweeper died too).
   */
  sweep(graceMs: number): Promise<string[]>;
}
