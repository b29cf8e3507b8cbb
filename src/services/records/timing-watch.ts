/**
 * What every watcher of a run's components needs from the run path: when it started executing and when each vertex
 * ended (a timestamp per end_vertex, nothing built). What it does once the run ends is the subclass's.
 */
import type { JobInput } from '../../../actors/job.actor.js';
import type { RunEvent } from '../../engine/events.js';
import type { RunResult } from '../../runs/run-adapter.js';
import type { RunWatch, WatchedRun } from '../../runs/run-watch.js';
import type { RunTimings } from './run-spans.js';

export abstract class TimingWatch implements RunWatch {
  readonly timings: RunTimings = { startedAt: Date.now(), ends: new Map() };

  constructor(
    readonly run: WatchedRun,
    readonly job: JobInput,
  ) {}

  event(event: RunEvent): void {
    if (event.type === 'end_vertex') this.timings.ends.set(event.id, Date.now());
  }

  abstract end(result: RunResult): void;
}
