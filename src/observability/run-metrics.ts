/**
 * Runs by final status (a counter) and runs not ended yet by status (a gauge). The gauge is read from the run
 * lifecycle when scraped rather than kept up to date at each move: a run's moves cost nothing extra, and the
 * figure cannot drift (runs recovered at start-up, or ended by a shutdown, are counted as they are).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { TerminalStatus } from '../runs/run-status.js';
import type { ActiveRuns } from './metrics.js';

const TERMINAL_STATUSES: readonly TerminalStatus[] = ['completed', 'failed', 'cancelled', 'timed_out'];

export class RunMetrics {
  /** One child per status, made up front: each status shows (at 0) from the first scrape, as Prometheus advises. */
  private readonly ended: Record<TerminalStatus, Counter.Internal>;
  private source: ActiveRuns | undefined;

  constructor(register: Registry) {
    const ended = new Counter({
      name: 'flowsvc_runs_total',
      help: 'Runs ended, by final status (every entry point: v1 run, webhook, v2 workflows, responses)',
      labelNames: ['status'],
      registers: [register],
    });
    // A child shows only once incremented: adding 0 makes the series.
    for (const status of TERMINAL_STATUSES) ended.inc({ status }, 0);
    this.ended = Object.fromEntries(TERMINAL_STATUSES.map((status) => [status, ended.labels(status)])) as RunMetrics['ended'];
    const runs = this;
    new Gauge({
      name: 'flowsvc_runs_active',
      help: 'Runs not ended yet in this process: queued (background runs waiting for a slot) or in_progress',
      labelNames: ['status'],
      registers: [register],
      collect() {
        const counts = runs.source?.activeCounts() ?? { queued: 0, in_progress: 0 };
        this.set({ status: 'queued' }, counts.queued);
        this.set({ status: 'in_progress' }, counts.in_progress);
      },
    });
  }

  watch(source: ActiveRuns): void {
    this.source = source;
  }

  runEnded(status: TerminalStatus): void {
    this.ended[status].inc();
  }
}
