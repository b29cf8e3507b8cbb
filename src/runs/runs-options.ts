/** How the run lifecycle (run-lifecycle.ts) is set up for this process. */
import type { Metrics } from '../observability/metrics.js';
import type { RunSharing } from './run-sharing.js';
import type { RunWatcher } from './run-watch.js';

export interface RunsOptions {
  /** Longest a run may take, from its start; then it ends `timed_out`. */
  timeoutMs: number;
  /** Background runs executing at once; more wait `queued`. */
  concurrency: number;
  /** Counts each run's final status (default: not counted). */
  metrics?: Pick<Metrics, 'runEnded'>;
  /** Follows every run that executes (records of what ran, OpenTelemetry export); see run-watch.ts. */
  watcher?: RunWatcher;
  /** Where instances share runs (run-sharing.ts): logs other instances follow, and fenced final records. */
  sharing?: RunSharing;
}
