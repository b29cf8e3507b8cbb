/**
 * A run's status and the moves it may make, as data. Every status change of every run goes through `advance`, so
 * a run that ended stays ended (a late stop cannot turn `completed` into `cancelled`, a timeout cannot follow a
 * failure).
 */
import type { JobStatus } from '../../protocol/workflow.schema.js';

/** The statuses a run goes through; `error` (a value the v2 schema allows) is never given by this service. */
export type RunStatus = Exclude<JobStatus, 'error'>;
export type TerminalStatus = Exclude<RunStatus, 'queued' | 'in_progress'>;

/** queued -> in_progress -> completed | failed | cancelled | timed_out; a queued run may end without starting. */
export const TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ['in_progress', 'cancelled', 'failed'],
  in_progress: ['completed', 'failed', 'cancelled', 'timed_out'],
  completed: [],
  failed: [],
  cancelled: [],
  timed_out: [],
};

export function isTerminal(status: RunStatus): status is TerminalStatus {
  return TRANSITIONS[status].length === 0;
}

export class IllegalTransitionError extends Error {
  override name = 'IllegalTransitionError';
  constructor(
    readonly from: RunStatus,
    readonly to: RunStatus,
  ) {
    super(`A run cannot go from ${from} to ${to}`);
  }
}

/** The next status, or an IllegalTransitionError: the one place where a run's status changes. */
export function advance(from: RunStatus, to: RunStatus): RunStatus {
  if (!TRANSITIONS[from].includes(to)) throw new IllegalTransitionError(from, to);
  return to;
}
