/**
 * The owner's side of a run's JetStream log. Appends go out in order without waiting for each acknowledgement (a
 * run's tokens would otherwise each cost a round trip); acknowledgements come back on the instance's ack inbox
 * (run-log-acks.ts) and `end` waits for all of them, its end marker included.
 *
 * Nothing is lost to a NATS restart: while the connection is down the writer holds its appends, and once it is
 * back it sends again, in order, every message not acknowledged (the client dropped what was in its buffer). The
 * message ids make the server store once what it had already stored. If acknowledgements stop coming while the
 * connection is up, `end` sends the rest again, and gives up (failing) after a while without progress.
 */
import type { Msg, MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../logger.js';
import type { LogEntry } from '../runs/run-log.js';
import type { AckedWriter, RunLogAcks } from './run-log-acks.js';
import { encodeEntry, endMsgId, entryMsgId, messageHeaders } from './run-log-messages.js';

export interface RunLogWriter {
  /** Sends the entry (its own seq); `dataText`, when given, is `JSON.stringify(entry.data)`. Never waits. */
  append(entry: LogEntry, dataText?: string): void;
  /** Sends the end marker; resolves once every message of the run is acknowledged, rejects with the first failure. */
  end(): Promise<void>;
}

/** While `end` waits on a live connection: how often it checks for progress, and how many idle checks it allows. */
const END_CHECK_MS = 5_000;
const END_IDLE_CHECKS = 6;

interface Unacknowledged {
  payload: Uint8Array;
  headers: MsgHdrs;
}

export class PipelinedRunLogWriter implements RunLogWriter, AckedWriter {
  /** In publication order (a Map keeps insertion order), so sending them again keeps the log's order. */
  private readonly unacknowledged = new Map<string, Unacknowledged>();
  private readonly id: number;
  private held: boolean;
  private acknowledged = 0;
  private failures = 0;
  private failure: unknown;
  private ending: Promise<void> | undefined;
  private allSettled: (() => void) | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly acks: RunLogAcks,
    private readonly subject: string,
    private readonly runToken: string,
    private readonly logger: Logger,
  ) {
    this.id = acks.add(this);
    this.held = acks.disconnected;
  }

  append(entry: LogEntry, dataText?: string): void {
    if (this.ending) {
      this.logger.error({ subject: this.subject, seq: entry.seq }, 'run log entry appended after its end: dropped');
      return;
    }
    const msgId = entryMsgId(this.runToken, entry.seq);
    this.send(String(entry.seq), { payload: encodeEntry(entry, dataText), headers: messageHeaders(msgId) });
  }

  end(): Promise<void> {
    this.ending ??= this.finish();
    return this.ending;
  }

  onReply(key: string, reply: Msg): void {
    if (!this.unacknowledged.has(key)) return;
    // No responders: JetStream is not up on this server (yet). The message stays, to be sent again.
    if (reply.data.length === 0) return;
    let ack: { error?: { description?: string } };
    try {
      ack = reply.json();
    } catch {
      ack = { error: { description: 'unreadable acknowledgement' } };
    }
    if (ack.error) this.fail(key, new Error(ack.error.description ?? 'rejected by the server'));
    else {
      this.unacknowledged.delete(key);
      this.acknowledged++;
    }
    this.checkSettled();
  }

  onDisconnect(): void {
    this.held = true;
  }

  onResume(): void {
    this.held = false;
    this.sendAgain();
  }

  private send(key: string, message: Unacknowledged): void {
    // The same sequence number twice: the first copy is the one kept (the server drops the second by its id).
    if (!this.unacknowledged.has(key)) this.unacknowledged.set(key, message);
    if (!this.held) this.publish(key, message);
  }

  private sendAgain(): void {
    for (const [key, message] of this.unacknowledged) this.publish(key, message);
  }

  private publish(key: string, { payload, headers }: Unacknowledged): void {
    try {
      this.nc.publish(this.subject, payload, { reply: this.acks.replySubject(this.id, key), headers });
    } catch (error) {
      // The connection is closed for good.
      this.fail(key, error);
    }
  }

  private fail(key: string, error: unknown): void {
    this.unacknowledged.delete(key);
    if (this.failures++ === 0) {
      this.failure = error;
      this.logger.error({ err: error, subject: this.subject, key }, 'run log append failed');
    }
  }

  private async finish(): Promise<void> {
    this.send('end', { payload: new Uint8Array(), headers: messageHeaders(endMsgId(this.runToken), true) });
    await this.settled();
    this.acks.remove(this.id);
    if (this.failures > 0) {
      throw new Error(`${this.failures} message(s) of ${this.subject} were not stored`, { cause: this.failure });
    }
  }

  /** Resolves once no message is waiting for its acknowledgement (acknowledged, or given up on). */
  private settled(): Promise<void> {
    if (this.unacknowledged.size === 0) return Promise.resolve();
    let idleChecks = 0;
    let seen = this.acknowledged;
    const check = setInterval(() => {
      if (this.held) return;
      if (this.acknowledged !== seen) {
        seen = this.acknowledged;
        idleChecks = 0;
        return;
      }
      if (++idleChecks < END_IDLE_CHECKS) return this.sendAgain();
      for (const key of [...this.unacknowledged.keys()]) this.fail(key, new Error('no acknowledgement'));
      this.checkSettled();
    }, END_CHECK_MS);
    return new Promise<void>((resolve) => {
      this.allSettled = () => {
        clearInterval(check);
        resolve();
      };
    });
  }

  private checkSettled(): void {
    if (this.unacknowledged.size === 0) this.allSettled?.();
  }
}
