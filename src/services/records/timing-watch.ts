/**
 * What every watcher of a run's components needs of it beyond its result: when it started executing. When each
 * vertex ended comes with the result (the job notes it as it notes each duration), so a watcher follows no events
 * and the run's event path stays as it is without one. What it does once the run ends is the subclass's.
 * The watch is its run's timings itself: one object per run, not two.
 */
import type { JobInput } from '../../../actors/job.actor.js';
import type { RunResult } from '../../runs/run-adapter.js';
import type { RunWatch, WatchedRun } from '../../runs/run-watch.js';
import type { RunTimings } from './run-spans.js';

const NOT_ENDED: ReadonlyMap<string, number> = new Map();

export abstract class TimingWatch implements RunWatch, RunTimings {
  readonly startedAt = Date.now();
  ends = NOT_ENDED;

  constructor(
    readonly run: WatchedRun,
    readonly job: JobInput,
  ) {}

  end(result: RunResult): void {
    this.ends = result.ends;
    this.ended(result);
  }

  protected abstract ended(result: RunResult): void;
}
