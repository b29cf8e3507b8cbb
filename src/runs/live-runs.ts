/**
 * The runs this process knows, running or about to run, by id: what a stop, a scrape of the metrics and a
 * graceful shutdown (waiting until none is in progress) ask of them.
 */
import { ReleasingMap } from '../collections/releasing-map.js';
import type { ActiveRunCounts } from '../observability/metrics.js';
import type { LiveRun } from './live-run.js';
import { isTerminal } from './run-status.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs of every entry point, each with its own answer type
type AnyRun = LiveRun<any>;

export class LiveRuns {
  /** One entry added and one deleted per run: a ReleasingMap, so that V8's old tables do not keep ended runs. */
  private readonly byId = new ReleasingMap<string, AnyRun>();
  /** Set while a shutdown waits: called once no run is in progress. */
  private whenIdle?: () => void;

  get(id: string): LiveRun<unknown> | undefined {
    return this.byId.get(id);
  }

  add(run: AnyRun): void {
    this.byId.set(run.id, run);
  }

  delete(id: string): void {
    this.byId.delete(id);
    if (this.whenIdle) this.checkIdle();
  }

  /** A copy: settling a run removes it. */
  all(): AnyRun[] {
    return [...this.byId.values()];
  }

  inProgress(): AnyRun[] {
    return this.all().filter((run) => run.status === 'in_progress');
  }

  /** Runs queued and in progress now, counted when asked (a metrics scrape): a run's moves pay nothing for it. */
  counts(): ActiveRunCounts {
    const counts = { queued: 0, in_progress: 0 };
    for (const run of this.byId.values()) if (!isTerminal(run.status)) counts[run.status]++;
    return counts;
  }

  /** Resolves once no run is in progress (at once when none is); runs may still start meanwhile. */
  noneInProgress(): Promise<void> {
    return new Promise((resolve) => {
      this.whenIdle = resolve;
      this.checkIdle();
    });
  }

  private checkIdle(): void {
    for (const run of this.byId.values()) if (run.status === 'in_progress') return;
    this.whenIdle?.();
    this.whenIdle = undefined;
  }
}
