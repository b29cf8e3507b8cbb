/**
 * The event-log port (the bus a run's events travel on): one ordered log per run, sequence numbers from 1, replay
 * and follow in one step. `RunLog` (run-log.ts) is the in-memory implementation: the run's own process is the
 * only place its events can be read while it runs.
 *
 * The shared implementation for several machines (NATS JetStream) keeps one subject per run: the run's owner
 * appends each entry with its sequence number (a second writer is fenced by the expected last sequence), and any
 * instance replays from a sequence number and then follows. Appends there are acknowledged asynchronously, which
 * the callers of `append` will have to await where an entry must be durable before a reply.
 */
import type { LogEntry, LogWatcher } from './run-log.js';

export interface EventLog {
  /** Every entry kept so far, oldest first. */
  readonly events: readonly LogEntry[];
  /** Entries appended so far: the last sequence number. */
  readonly length: number;
  /** Appends the next entry; `dataText`, when the caller has it, is `JSON.stringify(data)`. */
  append(event: string, data: unknown, dataText?: string): LogEntry;
  /** Replays kept entries with seq > `after`, then follows until the end; returns the unsubscribe function. */
  watch(after: number, watcher: LogWatcher): () => void;
  /** No more entries: watchers get `onEnd`, later watchers the replay and `onEnd` at once. */
  end(): void;
}
