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
  /** The owner's final transition, a compare-and-set on (owner, epoch): false once the job is no longer its. */
  end(lease: Lease, owner: string): Promise<boolean>;
  /** A stop: a queued job ends here (`was-queued`: the caller records it cancelled), a running one is flagged. */
  requestStop(id: string): Promise<StopOutcome>;
  /** Ends the running jobs whose lease expired (one instance at a time); the caller records them interrupted. */
  sweep(): Promise<string[]>;
}
