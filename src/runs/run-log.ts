/**
 * A run's ordered event log. Each entry gets the next sequence number (from 1). Watchers get the entries after
 * the one they name, then every new entry as it is appended, then `onEnd`: replay and subscription happen in one
 * synchronous step, so nothing is missed or repeated.
 *
 * A log that nobody can attach to later (a v1 stream: its one reader is the request that started it) keeps
 * entries only until its first watcher attaches, not for the whole run: a long reply's tokens are not held twice.
 */
import type { JobEvent } from '../../protocol/job.schema.js';
import type { EventLog } from './event-log.port.js';

/** One entry of a run's log: the protocol's event name and data, and its sequence number. */
export type LogEntry = JobEvent;

export interface LogWatcher {
  onEvent(entry: LogEntry): void;
  onEnd(): void;
}

/** What a log keeps: every entry (watchers may replay from any point), or entries until it is first watched. */
export type LogRetention = 'replay' | 'until-watched';

/** Makes an entry; a log's owner may give its own maker (v2 keeps encoded text beside each entry). */
export type EntryMaker = (seq: number, event: string, data: unknown, dataText?: string) => LogEntry;

const plainEntry: EntryMaker = (seq, event, data) => ({ seq, event, data });

/** The in-memory event log (event-log.port.ts). */
export class RunLog implements EventLog {
  private entries: LogEntry[] = [];
  private count = 0;
  private readonly watchers = new Set<LogWatcher>();
  private ended = false;

  constructor(
    private readonly retention: LogRetention = 'replay',
    private readonly makeEntry: EntryMaker = plainEntry,
  ) {}

  /** A log that goes on from `prior` (a run taken over from an owner that died): its entries, then new ones. */
  static after(prior: readonly LogEntry[], retention: LogRetention = 'replay', makeEntry: EntryMaker = plainEntry): RunLog {
    const log = new RunLog(retention, makeEntry);
    log.entries = [...prior];
    log.count = prior.at(-1)?.seq ?? 0;
    return log;
  }

  /** Every entry kept so far, oldest first. */
  get events(): readonly LogEntry[] {
    return this.entries;
  }

  /** Entries appended so far (kept or not): the last sequence number. */
  get length(): number {
    return this.count;
  }

  /** `dataText`, when the caller has it, is `JSON.stringify(data)` (an entry maker may keep it). */
  append(event: string, data: unknown, dataText?: string): LogEntry {
    const entry = this.makeEntry(++this.count, event, data, dataText);
    if (this.retention === 'replay' || this.watchers.size === 0) this.entries.push(entry);
    for (const watcher of this.watchers) watcher.onEvent(entry);
    return entry;
  }

  /** Replays kept entries with seq > `after`, then follows; returns the unsubscribe function. */
  watch(after: number, watcher: LogWatcher): () => void {
    replay(this.entries, after, watcher);
    if (this.retention === 'until-watched') this.entries = [];
    if (this.ended) {
      watcher.onEnd();
      return () => {};
    }
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** No more entries: watchers get `onEnd`, and later watchers get the replay and `onEnd` at once. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const watcher of this.watchers) watcher.onEnd();
    this.watchers.clear();
  }
}

/** Gives a watcher the entries after `after` of a finished log (a stored one), then its end. */
export function replayFinished(entries: readonly LogEntry[], after: number, watcher: LogWatcher): () => void {
  replay(entries, after, watcher);
  watcher.onEnd();
  return () => {};
}

function replay(entries: readonly LogEntry[], after: number, watcher: LogWatcher): void {
  for (const entry of entries) if (entry.seq > after) watcher.onEvent(entry);
}
