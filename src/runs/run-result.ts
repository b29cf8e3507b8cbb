/** A run's result as its adapter gets it: from what the engine returned, or for a run that never executed. */
import type { HostedResult } from '../../actors/actor-host.js';
import { statusOf } from './failure-table.js';
import type { RunResult } from './run-adapter.js';
import { failureOf, type RunFailure } from './run-failure.js';

const NOTHING_RAN = { results: new Map(), durations: new Map(), ends: new Map(), skipped: new Set<string>() } as const;

/** A run that ended without executing (stopped while queued, interrupted, shut down). */
export const notRun = (failure: RunFailure): RunResult => ({ status: statusOf(failure), failure, ...NOTHING_RAN });

/** A run the engine executed: a stop asked for (`stoppedFor`) names the failure; a store error fails a clean run. */
export function hostedResult(hosted: HostedResult, stoppedFor: RunFailure | undefined): RunResult {
  let failure = failureOf(hosted.end, stoppedFor);
  if (!failure && hosted.storeError) failure = { kind: 'store', error: hosted.storeError };
  return { status: statusOf(failure), failure, results: hosted.results, durations: hosted.durations, ends: hosted.ends, skipped: hosted.skipped, ...(hosted.repeats ? { repeats: hosted.repeats } : {}) };
}
