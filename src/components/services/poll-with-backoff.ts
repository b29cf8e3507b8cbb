/**
 * Polls until a job is done: the first check at once, then waits growing by `factor` up to `maxDelayMs`, or as long
 * as the service asked (Retry-After). The wait ends the moment the run's signal aborts (a cancelled run, the job
 * timeout), rethrowing its reason, so a poll never outlives its run.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export type PollStep<T> = { done: true; value: T } | { done: false; retryAfterMs?: number };

export interface PollOptions {
  firstDelayMs: number;
  maxDelayMs: number;
  factor: number;
  signal: AbortSignal;
}

export async function pollWithBackoff<T>(check: () => Promise<PollStep<T>>, options: PollOptions): Promise<T> {
  let delay = options.firstDelayMs;
  for (;;) {
    options.signal.throwIfAborted();
    const step = await check();
    if (step.done) return step.value;
    const wait = Math.max(delay, step.retryAfterMs ?? 0);
    try {
      await sleep(wait, undefined, { signal: options.signal });
    } catch (error) {
      throw options.signal.aborted ? options.signal.reason : error;
    }
    delay = Math.min(options.maxDelayMs, delay * options.factor);
  }
}
