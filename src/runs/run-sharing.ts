/**
 * What changes when several instances share runs (src/cluster): a shared run's log is one other instances can
 * follow (NATS JetStream), and a run's final record is written only by the instance that still holds the run's
 * lease, so an owner that was paused or cut off past its lease cannot overwrite what the instance that took the
 * run over recorded. On one instance, logs are in memory and every run may record its end.
 */
import type { LeaseFence } from '../store/job-leases.port.js';
import type { EventLog } from './event-log.port.js';
import type { RunLogSpec } from './run-adapter.js';
import { RunLog } from './run-log.js';

/**
 * A run's final write: given a fence where the run is leased, it ends that lease in the same transaction, and only
 * if the lease is still the writer's. Resolves false when nothing was written (the fence refused it).
 */
export type FinalWrite = (fence: LeaseFence | undefined) => Promise<boolean>;

export interface RunSharing {
  /** The log of a run whose adapter asks for a shared one. */
  log(runId: string, spec: RunLogSpec): EventLog;
  /**
   * Records the run's end with `write`, if this instance still may (a compare-and-set on its lease where runs are
   * leased): false when another instance took the run over. Throws when the write failed for good.
   */
  record(runId: string, write: FinalWrite): Promise<boolean>;
  /** A graceful shutdown began: take no more runs from the shared queue. */
  drain?(): void;
}

export const LOCAL_RUNS: RunSharing = {
  log: (_runId, spec) => new RunLog(spec.retention, spec.entry),
  record: (_runId, write) => write(undefined),
};
