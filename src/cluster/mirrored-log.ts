/**
 * A run's event log on its owner: the in-memory `RunLog` (watchers on this instance read it, as with one machine)
 * with every entry also sent to the run's JetStream log, where the other instances read it. The copy is sent with
 * the same sequence number and the already encoded data, and never waited for: a token reaches local watchers at
 * once, and the shared log's acknowledgements are awaited once, at the end (`flushed`). A run's last entries are held
 * back from the shared log until its record is committed (`holdShared`).
 */
import type { Logger } from '../logger.js';
import type { EventLog } from '../runs/event-log.port.js';
import { RunLog, type EntryMaker, type LogEntry, type LogRetention, type LogWatcher } from '../runs/run-log.js';
import type { RunLogWriter } from './run-log-writer.js';

type WriterOutcome = { stored: true } | { stored: false; error: unknown };

export class MirroredLog implements EventLog {
  private readonly local: RunLog;
  private ended = false;
  /** Entries held back from the shared log, with their data text. */
  private held: [LogEntry, string | undefined][] | undefined;
  // The writer's outcome as a value: a rejected promise nobody asked `flushed` for would be an unhandled rejection.
  private settle!: (outcome: WriterOutcome) => void;
  private readonly writerOutcome = new Promise<WriterOutcome>((resolve) => (this.settle = resolve));

  constructor(
    private readonly writer: RunLogWriter,
    private readonly logger: Logger,
    retention?: LogRetention,
    makeEntry?: EntryMaker,
  ) {
    this.local = new RunLog(retention, makeEntry);
  }

  get events(): readonly LogEntry[] {
    return this.local.events;
  }

  get length(): number {
    return this.local.length;
  }

  append(event: string, data: unknown, dataText?: string): LogEntry {
    const entry = this.local.append(event, data, dataText);
    if (this.held) this.held.push([entry, dataText]);
    else this.writer.append(entry, dataText);
    return entry;
  }

  holdShared(): void {
    this.held ??= [];
  }

  releaseShared(send: boolean): void {
    const held = this.held ?? [];
    this.held = undefined;
    if (send) for (const [entry, dataText] of held) this.writer.append(entry, dataText);
  }

  watch(after: number, watcher: LogWatcher): () => void {
    return this.local.watch(after, watcher);
  }

  /** Ends the local log at once; the shared log's end is sent, and its failure (if any) logged, not thrown. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    // Held, and never released (the run's answer could not be built): what there is goes out.
    this.releaseShared(true);
    this.local.end();
    this.writer.end().then(
      () => this.settle({ stored: true }),
      (error: unknown) => {
        this.logger.error({ err: error }, 'run log not fully stored in JetStream');
        this.settle({ stored: false, error });
      },
    );
  }

  /** Resolves once `end` was called and the shared log acknowledged every entry and the end; rejects if it did not. */
  async flushed(): Promise<void> {
    const outcome = await this.writerOutcome;
    if (!outcome.stored) throw outcome.error;
  }
}
