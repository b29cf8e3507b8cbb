/**
 * Where the run-log writers of one instance get their acknowledgements: one subscription on an inbox of its own
 * (a reply subject per message: writer and key), rather than one request, timer and stack per append. It also
 * tells writers when the connection is lost and back: the client drops whatever is published while it is down,
 * so a writer holds its appends meanwhile and sends again, in order, all that was not acknowledged.
 */
import { createInbox, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';

/** What the acks router asks of a writer. */
export interface AckedWriter {
  /** The server's reply to the message with this key (a sequence number, or 'end'). */
  onReply(key: string, reply: Msg): void;
  /** The connection is lost: publish nothing until `onResume`. */
  onDisconnect(): void;
  /** The connection is back, or closed for good: send again everything not acknowledged (which then fails). */
  onResume(): void;
}

export class RunLogAcks {
  private readonly inbox = createInbox();
  private readonly writers = new Map<number, AckedWriter>();
  private readonly subscription: Subscription;
  private nextWriterId = 1;
  private down = false;
  private closed = false;

  constructor(private readonly nc: NatsConnection) {
    const callback = (error: Error | null, msg: Msg) => {
      if (!error) this.route(msg);
    };
    this.subscription = nc.subscribe(`${this.inbox}.>`, { callback });
    void this.followConnection();
  }

  /** Whether the connection is down now (a new writer starts held). */
  get disconnected(): boolean {
    return this.down;
  }

  /** Registers a writer; returns its id, used in its reply subjects. */
  add(writer: AckedWriter): number {
    const id = this.nextWriterId++;
    this.writers.set(id, writer);
    return id;
  }

  remove(id: number): void {
    this.writers.delete(id);
  }

  replySubject(writerId: number, key: string): string {
    return `${this.inbox}.${writerId}.${key}`;
  }

  close(): void {
    this.closed = true;
    if (!this.subscription.isClosed()) this.subscription.unsubscribe();
  }

  private route(msg: Msg): void {
    const [writerId, key] = msg.subject.slice(this.inbox.length + 1).split('.');
    this.writers.get(Number(writerId))?.onReply(key, msg);
  }

  private async followConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (this.closed) break;
      if (status.type === 'disconnect') {
        this.down = true;
        for (const writer of this.writers.values()) writer.onDisconnect();
      } else if (status.type === 'reconnect') {
        this.resume();
      }
    }
    // The connection is closed: writers held would otherwise wait for ever.
    if (!this.closed) this.resume();
  }

  private resume(): void {
    this.down = false;
    for (const writer of this.writers.values()) writer.onResume();
  }
}
