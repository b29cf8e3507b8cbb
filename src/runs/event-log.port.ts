/**
 * The event-log port (the bus a run's events travel on): one ordered log per run, sequence numbers from 1, replay
 * and follow in one step. `RunLog` (run-log.ts) is the in-memory implementation: the run's own process is the
 * only place its events can be read while it runs.
 *
 * Where instances share runs, a shared run's log is a `MirroredLog` (src/cluster/mirrored-log.ts): in memory for
 * this instance's watchers, and appended to NATS JetStream (one subject per run) for the others, which replay from
 * a sequence number and then follow (src/cluster/jetstream-run-logs.ts). Appends there are pipelined, never awaited
 * by `append`.
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
  /**
   * A shared log keeps what is appended from now on (a run's last entries) from the other instances until
   * `releaseShared`: sent once the run's record is committed, dropped when it was not (the instance that ends the run
   * instead writes its own end there). So an owner killed before its record leaves no end that the record will
   * contradict. Watchers here see every entry at once. Absent where nobody else reads the log.
   */
  holdShared?(): void;
  releaseShared?(send: boolean): void;
}
