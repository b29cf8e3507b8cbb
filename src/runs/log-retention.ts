/**
 * Retention of finished runs' stored logs: each log is stored with the time it may go (`expiresAt`), and a sweep
 * removes the logs past theirs. A run's record and answer are kept; only its events go.
 */
import type { Logger } from '../logger.js';

export class LogRetention {
  private readonly sweeper: NodeJS.Timeout;
  private readonly sweepWaiters: ((removed: number) => void)[] = [];
  private closed = false;

  constructor(
    readonly retentionMs: number,
    /** Removes the logs that expired before `now`; returns how many. */
    private readonly expire: (now: number) => Promise<number>,
    private readonly logger: Logger,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), Math.min(retentionMs, 60_000)).unref();
  }

  /** When a log stored now may be removed (epoch ms). */
  expiresAt(): number {
    return Date.now() + this.retentionMs;
  }

  /** Removes expired logs now; never rejects. */
  async sweep(): Promise<number> {
    if (this.closed) return 0;
    let removed = 0;
    try {
      removed = await this.expire(Date.now());
    } catch (err) {
      this.logger.warn({ err }, 'run log expiry failed');
    }
    if (removed > 0) for (const waiter of this.sweepWaiters.splice(0)) waiter(removed);
    return removed;
  }

  /** Settles after the next sweep that removes a log (how many it removed): the moment retention took effect. */
  nextRemoval(): Promise<number> {
    return new Promise((resolve) => this.sweepWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
  }
}
