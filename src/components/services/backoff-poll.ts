/**
 * Polling a hosted job (an Apify run, an AssemblyAI transcript) until it is done: the first check at once, then
 * waits that grow by `factor` (doubling by default) from `firstDelayMs` up to `maxDelayMs`, so that a quick job is
 * seen quickly and a long one costs few requests; a check may ask for a longer wait (a service's Retry-After). The wait ends early when the run is cancelled or reaches its job timeout (the run's signal),
 * and the poll gives up after `deadlineMs` of its own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ComponentError } from '../component.error.js';

export interface PollOptions {
  signal: AbortSignal;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** How much each wait grows over the one before (2 unless said). */
  factor?: number;
  /** Gives up after this long (the run's job timeout bounds it anyway). */
  deadlineMs?: number;
  /** "the Apify run" in "the Apify run did not finish within 300 s". */
  what: string;
}

/**
 * Calls `check` until it returns a value other than undefined; rethrows the run's abort reason when it is cancelled.
 * `check` may call `waitAtLeast` to make the next wait at least that long (the service asked for it).
 */
export async function pollWithBackoff<T>(check: (waitAtLeast: (ms: number) => void) => Promise<T | undefined>, options: PollOptions): Promise<T> {
  const { signal, firstDelayMs = 250, maxDelayMs = 5000, factor = 2, deadlineMs = Number.POSITIVE_INFINITY, what } = options;
  const started = Date.now();
  let delay = firstDelayMs;
  for (;;) {
    signal.throwIfAborted();
    let asked = 0;
    const result = await check((ms) => (asked = Math.max(asked, ms)));
    if (result !== undefined) return result;
    const left = deadlineMs - (Date.now() - started);
    if (left <= 0) throw new ComponentError(`${what} did not finish within ${Math.round(deadlineMs / 1000)} s`);
    await sleep(Math.min(Math.max(delay, asked), left), undefined, { signal }).catch((error: unknown) => {
      throw signal.aborted ? (signal.reason ?? error) : error;
    });
    delay = Math.min(delay * factor, maxDelayMs);
  }
}
