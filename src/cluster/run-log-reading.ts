/**
 * Reading a run's subject as a log. The subject may hold more than one clean sequence: an entry sent again after
 * its duplicate window, a late owner still appending after a sweeper took its run over and ended it. A reader keeps
 * the first of each sequence number and the entries up to the first end marker, so every reader of one subject
 * sees the same log.
 *
 * Readers use ordered consumers filtered on the run's subject: the server pushes the subject's messages in batches
 * (a replay of thousands costs a few round trips, not one each), and the client recreates the consumer from the
 * last stream sequence it delivered when the connection comes back, so a restart neither loses nor repeats one.
 */
import { DeliverPolicy, type Consumer, type ConsumerMessages, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { LogEntry } from '../runs/run-log.js';
import { decodeEntry, isEndMarker } from './run-log-messages.js';

/** Messages per pull: large enough that a long replay is a few requests, small enough to bound a reader's buffer. */
export const READ_BATCH = 1_000;

export type ReadStep = { kind: 'entry'; entry: LogEntry } | { kind: 'end' } | { kind: 'skip' };

/** Tells each message of a subject, in stream order, apart: a new entry, the end, or one to pass over. */
export class SubjectReader {
  private ended = false;

  constructor(private lastSeq: number) {}

  step(msg: Pick<JsMsg, 'headers' | 'data'>): ReadStep {
    if (this.ended) return { kind: 'skip' };
    if (isEndMarker(msg.headers)) {
      this.ended = true;
      return { kind: 'end' };
    }
    const entry = decodeEntry(msg.data);
    if (entry.seq <= this.lastSeq) return { kind: 'skip' };
    this.lastSeq = entry.seq;
    return { kind: 'entry', entry };
  }
}

/** Removes a reader's consumer now rather than when the server would (after minutes of inactivity). */
export function dropConsumer(consumer: Consumer): void {
  consumer.delete().catch(() => {
    // Gone already (a restarted server), or the connection is closed: the server drops it when inactive.
  });
}

/**
 * Calls `onMessage` with each message of `subject` in stream order, up to stream sequence `lastSeq` (the subject's
 * last message when the scan began; fewer if the oldest expire meanwhile). `headersOnly` leaves the payloads on
 * the server, for a scan that looks for the end marker only.
 */
export async function scanSubject(js: JetStreamClient, stream: string, subject: string, lastSeq: number, onMessage: (msg: JsMsg) => void, headersOnly = false): Promise<void> {
  const consumer = await js.consumers.get(stream, { filter_subjects: subject, deliver_policy: DeliverPolicy.All, headers_only: headersOnly });
  let finished!: () => void;
  let failed!: (error: unknown) => void;
  const done = new Promise<void>((resolve, reject) => ((finished = resolve), (failed = reject)));
  let messages: ConsumerMessages | undefined;
  try {
    messages = await consumer.consume({
      max_messages: READ_BATCH,
      callback: (msg) => {
        try {
          onMessage(msg);
        } catch (error) {
          failed(error);
        }
        if (msg.seq >= lastSeq || msg.info.pending === 0) finished();
      },
    });
    await done;
  } finally {
    messages?.stop();
    dropConsumer(consumer);
  }
}
