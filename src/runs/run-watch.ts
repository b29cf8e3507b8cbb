/**
 * Watchers of every run, whatever its entry point: the records of what ran (traces, transactions) and the
 * OpenTelemetry export follow runs here, so an entry point added later gets them without asking. A watcher knows a
 * run as it starts and gets its result once it ends (each vertex's outputs, duration and end time): it follows no
 * events, so the run's event path costs nothing more for it (run-emitter.ts). It must never throw into the run.
 */
import type { JobInput } from '../../actors/job.actor.js';
import type { RunResult } from './run-adapter.js';

/** What a watcher knows of a run as it starts executing. */
export interface WatchedRun {
  readonly id: string;
  readonly userId: string;
  readonly flowId: string;
}

/** One run followed by one watcher. */
export interface RunWatch {
  /** The run ended (once), with its final status; never awaited: a watcher queues its work, not doing it here. */
  end(result: RunResult): void;
}

export interface RunWatcher {
  /** Starts following a run that is about to execute; undefined: not this one. */
  begin(run: WatchedRun, job: JobInput): RunWatch | undefined;
}

/** Several watchers as one; none at all when the list is empty (the run path then pays nothing). */
export function allWatchers(watchers: readonly RunWatcher[]): RunWatcher | undefined {
  if (watchers.length === 0) return undefined;
  if (watchers.length === 1) return watchers[0];
  return {
    begin(run, job) {
      const watches = watchers.map((watcher) => watcher.begin(run, job)).filter((watch): watch is RunWatch => watch !== undefined);
      if (watches.length <= 1) return watches[0];
      return { end: (result) => watches.forEach((watch) => watch.end(result)) };
    },
  };
}
