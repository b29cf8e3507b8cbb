/**
 * Test-only fault injection for the cluster tests (test-cluster/stranded-jobs.test.ts): with
 * `FLOWSVC_TEST_KILL_AT=<point>` in its environment, a process SIGKILLs itself the first time it reaches that point,
 * so a test can kill an instance at an exact moment instead of hoping a random kill lands there. Unset, which it
 * always is outside those tests, a fault point does nothing. Read once at start-up; not a setting (config.ts).
 */

/** The moments a test can kill an instance at. */
export type FaultPoint =
  /** An owner whose run has ended, about to write the job's final record (and end its lease with it). */
  | 'final-record'
  /** A sweeper that has just marked jobs taken, before it records them interrupted. */
  | 'after-sweep'
  /** A background job whose record is committed, before its queue entry (or its lease here) is written. */
  | 'queue-entry';

const KILL_AT = process.env.FLOWSVC_TEST_KILL_AT;

export function faultPoint(point: FaultPoint): void {
  if (KILL_AT === point) process.kill(process.pid, 'SIGKILL');
}
