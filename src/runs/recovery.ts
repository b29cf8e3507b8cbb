/**
 * Recovery at start-up: runs whose records say they were queued or in progress when the last process stopped.
 * Each entry point with durable records is a source; what happens to each run is decided here, once, as data:
 * a queued run that can still run is queued again, every other one ends `failed` (interrupted) through its
 * adapter, so its record, its log and any waiting reader agree.
 */
import type { JobInput } from '../../actors/job.actor.js';
import type { RunStart } from './run-adapter.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs of every entry point, each with its own answer type
export interface UnfinishedRun<A = any> {
  /** The status its record was left in. */
  status: 'queued' | 'in_progress';
  run: Omit<RunStart<A>, 'job'>;
  /** What to execute, when the run can run again (its flow still exists and still compiles). */
  job?: JobInput;
}

/** An entry point's durable runs. */
export interface RecoverySource {
  /** What the records are (for the log line), e.g. "workflow jobs". */
  name: string;
  unfinished(): Promise<UnfinishedRun[]>;
}

export type RecoveryAction = { action: 'requeue'; job: JobInput } | { action: 'interrupt' };

/**
 * Only a run that never started is run again: one that was in progress may have had effects (messages stored,
 * tools called) that running it again would repeat.
 */
export function recoveryAction(run: UnfinishedRun): RecoveryAction {
  if (run.status === 'queued' && run.job) return { action: 'requeue', job: run.job };
  return { action: 'interrupt' };
}

export interface RecoveryCounts {
  requeued: number;
  interrupted: number;
}

/** What the lifecycle does with each: queue it again, or end it (through its adapter) from the status it was in. */
export interface RecoverySteps {
  requeue(run: UnfinishedRun['run'], job: JobInput): void;
  end(run: UnfinishedRun['run'], status: UnfinishedRun['status']): Promise<unknown>;
}

export async function recoverUnfinished(sources: readonly RecoverySource[], steps: RecoverySteps): Promise<RecoveryCounts> {
  const counts: RecoveryCounts = { requeued: 0, interrupted: 0 };
  const endings: Promise<unknown>[] = [];
  for (const source of sources) {
    for (const unfinished of await source.unfinished()) {
      const decision = recoveryAction(unfinished);
      if (decision.action === 'requeue') {
        steps.requeue(unfinished.run, decision.job);
        counts.requeued++;
      } else {
        // Settled from the status it was stored in, without logging that status again; records are written
        // together (one commit), not one after another.
        endings.push(steps.end(unfinished.run, unfinished.status).catch(() => undefined));
        counts.interrupted++;
      }
    }
  }
  await Promise.all(endings);
  return counts;
}
