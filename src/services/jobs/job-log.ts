/**
 * A running job's ordered event log. Watchers get the events after the one they name, then every new event as it
 * is appended, then `onEnd`; replay and subscription happen in one synchronous step, so nothing is missed or
 * repeated.
 */
import type { JobEvent } from '../../../protocol/job.schema.js';
import { jobEvent } from './job-json.js';

export interface LogWatcher {
  onEvent(event: JobEvent): void;
  onEnd(): void;
}

export class JobLog {
  readonly events: JobEvent[] = [];
  private readonly watchers = new Set<LogWatcher>();
  private ended = false;

  /** `dataText`, when the caller has it, is `JSON.stringify(data)` (frames and the stored log then reuse it). */
  append(event: string, data: unknown, dataText?: string): JobEvent {
    const entry = jobEvent(this.events.length + 1, event, data, dataText);
    this.events.push(entry);
    for (const watcher of this.watchers) watcher.onEvent(entry);
    return entry;
  }

  /** Replays events with seq > `after`, then follows; returns the unsubscribe function. */
  watch(after: number, watcher: LogWatcher): () => void {
    for (let i = Math.max(0, after); i < this.events.length; i++) watcher.onEvent(this.events[i]);
    if (this.ended) {
      watcher.onEnd();
      return () => {};
    }
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  end(): void {
    this.ended = true;
    for (const watcher of this.watchers) watcher.onEnd();
    this.watchers.clear();
  }
}
