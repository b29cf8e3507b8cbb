/**
 * A watcher of a run's JetStream log (jetstream-run-logs.ts `watch`): the entries after the one it names, then each
 * new one as it is stored, then `onEnd` once at the end marker, and nothing after.
 *
 * The follower keeps the stream sequence of the last message it was given. When the connection comes back after a
 * loss (the server restarted, and its consumers with it), `reattach` starts a new consumer just after that message:
 * the client's own recovery of an ordered consumer was seen to stall for good after a server restart. Messages of a
 * replaced consumer still arriving are ignored, so nothing is repeated. Attaching needs the server: while it cannot
 * be reached the follower tries again every second until it attaches or is stopped.
 */
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { Logger } from '../logger.js';
import type { LogWatcher } from '../runs/run-log.js';
import { dropConsumer, READ_BATCH, SubjectReader } from './run-log-reading.js';

const ATTACH_RETRY_MS = 1_000;

export class RunLogFollower {
  private stopped = false;
  private messages: ConsumerMessages | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly reader: SubjectReader;
  /** Stream sequence of the last message handled: where a new consumer starts after it. */
  private lastStreamSeq = 0;
  /** Counts attachments: only the latest one's messages are handled. */
  private attachment = 0;

  constructor(
    private readonly js: JetStreamClient,
    private readonly stream: string,
    private readonly subject: string,
    after: number,
    private readonly watcher: LogWatcher,
    private readonly logger: Logger,
    /** Told once the follower stops (ended, stopped, or closed with the logs). */
    private readonly onStop: () => void,
  ) {
    this.reader = new SubjectReader(after);
    void this.attach();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retry);
    this.messages?.stop();
    this.onStop();
  }

  /** Replaces the consumer with a new one starting after the last message handled (the connection came back). */
  reattach(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.messages?.stop();
    void this.attach();
  }

  private async attach(): Promise<void> {
    const attachment = ++this.attachment;
    const current = () => !this.stopped && attachment === this.attachment;
    try {
      const start = this.lastStreamSeq === 0
        ? { deliver_policy: DeliverPolicy.All }
        : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.lastStreamSeq + 1 };
      const consumer = await this.js.consumers.get(this.stream, { filter_subjects: this.subject, ...start });
      if (!current()) return dropConsumer(consumer);
      const messages = await consumer.consume({
        max_messages: READ_BATCH,
        callback: (msg) => {
          if (current()) this.receive(msg);
        },
      });
      void messages.closed().then(() => dropConsumer(consumer));
      // Stopped or replaced while consume() was being set up.
      if (!current()) return messages.stop();
      this.messages = messages;
    } catch (error) {
      if (!current()) return;
      this.logger.warn({ err: error, subject: this.subject }, 'cannot follow run log yet; retrying');
      this.retry = setTimeout(() => void this.attach(), ATTACH_RETRY_MS);
    }
  }

  private receive(msg: JsMsg): void {
    if (msg.seq <= this.lastStreamSeq) return;
    this.lastStreamSeq = msg.seq;
    let step;
    try {
      step = this.reader.step(msg);
    } catch (error) {
      this.logger.error({ err: error, subject: this.subject }, 'unreadable run log message skipped');
      return;
    }
    try {
      if (step.kind === 'entry') this.watcher.onEvent(step.entry);
      else if (step.kind === 'end') {
        this.stop();
        this.watcher.onEnd();
      }
    } catch (error) {
      this.logger.error({ err: error, subject: this.subject }, 'run log watcher failed');
    }
  }
}
