/**
 * The owner's side of a run's JetStream log: appends go out in order without waiting for each acknowledgement
 * (a run's tokens would otherwise each cost a round trip), and `end` publishes the end marker and waits for every
 * acknowledgement of the run. A failed append is logged once and makes `end` fail; the appends after it are still
 * sent, so watchers get what the server did store. While the connection is down appends fail (the client does not
 * keep them across a reconnect, and their acknowledgements time out): the stored log then has a hole there.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import type { Logger } from '../logger.js';
import type { LogEntry } from '../runs/run-log.js';
import { encodeEntry, endMarkerHeaders, endMsgId, entryMsgId } from './run-log-messages.js';

export interface RunLogWriter {
  /** Sends the entry (its own seq); `dataText`, when given, is `JSON.stringify(entry.data)`. Never waits. */
  append(entry: LogEntry, dataText?: string): void;
  /** Sends the end marker; resolves once every message of the run is acknowledged, rejects with the first failure. */
  end(): Promise<void>;
}

export class PipelinedRunLogWriter implements RunLogWriter {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;
  private failures = 0;
  private ending: Promise<void> | undefined;

  constructor(
    private readonly js: JetStreamClient,
    private readonly subject: string,
    private readonly runToken: string,
    private readonly logger: Logger,
  ) {}

  append(entry: LogEntry, dataText?: string): void {
    if (this.ending) {
      this.logger.error({ subject: this.subject, seq: entry.seq }, 'run log entry appended after its end: dropped');
      return;
    }
    this.track(entry.seq, this.js.publish(this.subject, encodeEntry(entry, dataText), { msgID: entryMsgId(this.runToken, entry.seq) }));
  }

  end(): Promise<void> {
    this.ending ??= this.finish();
    return this.ending;
  }

  private async finish(): Promise<void> {
    this.track('end', this.js.publish(this.subject, undefined, { msgID: endMsgId(this.runToken), headers: endMarkerHeaders() }));
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    if (this.failures > 0) {
      throw new Error(`${this.failures} message(s) of ${this.subject} were not acknowledged`, { cause: this.failure });
    }
  }

  private track(what: number | 'end', publish: Promise<unknown>): void {
    const settled = publish.then(
      () => {},
      (error: unknown) => {
        if (this.failures++ === 0) {
          this.failure = error;
          this.logger.error({ err: error, subject: this.subject, seq: what }, 'run log append failed');
        }
      },
    );
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
  }
}
