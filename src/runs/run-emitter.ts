/** Where a run's engine events go: its adapter's log entries, its watchers, both, or nowhere. */
import type { RunEvent } from '../engine/events.js';
import type { LiveRun } from './live-run.js';

const ignore = () => {};

export function emitterFor<A>(run: LiveRun<A>): (event: RunEvent) => void {
  const { log, watch } = run;
  const toEntry = run.adapter.event;
  const logged =
    log && toEntry
      ? (event: RunEvent) => {
          const entry = toEntry(event);
          if (entry) log.append(entry.event, entry.data);
        }
      : undefined;
  if (!watch) return logged ?? ignore;
  if (!logged) return (event) => watch.event(event);
  return (event) => {
    logged(event);
    watch.event(event);
  };
}
