/**
 * A watcher of a run's JetStream log (jetstream-run-logs.ts `watch`): the entries after the one it names, then each
 * new one as it is stored, then `onEnd` once at the end marker, and nothing after. Attaching needs the server;
 * while it cannot be reached the follower tries again every second until it attaches or is stopped.
 */
import type { ConsumerMessages, JetStreamClient } from '@nats-io/jetstream';
import type { Logger } from '../logger.js';
import type { LogWatcher } from '../runs/run-log.js';
import { dropConsumer, READ_BATCH, SubjectReader, subjectConsumer } from './run-log-reading.js';

const ATTACH_RETRY_MS = 1_000;

export class RunLogFollower {
  private stopped = false;
  private messages: ConsumerMessages | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly reader: SubjectReader;

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

  private async attach(): Promise<void> {
    try {
      const consumer = await subjectConsumer(this.js, this.stream, this.subject);
      if (this.stopped) return dropConsumer(consumer);
      this.messages = await consumer.consume({ max_messages: READ_BATCH, callback: (msg) => this.receive(msg) });
      void this.messages.closed().then(() => dropConsumer(consumer));
      // Stopped while consume() was being set up: the callback may not have seen it.
      if (this.stopped) this.messages.stop();
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn({ err: error, subject: this.subject }, 'cannot follow run log yet; retrying');
      this.retry = setTimeout(() => void this.attach(), ATTACH_RETRY_MS);
    }
  }

  private receive(msg: Parameters<SubjectReader['step']>[0]): void {
    if (this.stopped) return;
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
