/**
 * The bus of several instances (event-bus.port.ts) on core NATS: one subject per topic (cluster-names.ts), plain
 * publish and subscribe, no JetStream. A message published while the connection is down is lost: the client (v3)
 * clears what it buffered each time it dials again. One published on a closed connection is dropped (a debug line).
 * Neither is thrown at the caller: bus messages are hints, and the store of record has the facts.
 *
 * The connection is shared and not this bus's to close: `close` ends the bus's own subscriptions only.
 */
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Logger } from '../logger.js';
import type { ClusterNames } from './cluster-names.js';
import type { BusTopic, EventBus } from './event-bus.port.js';

export class NatsBus implements EventBus {
  private readonly subscriptions = new Set<Subscription>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly names: ClusterNames,
    private readonly logger: Logger,
  ) {}

  publish(topic: BusTopic, payload: string): void {
    try {
      this.nc.publish(this.names.busSubject(topic), payload);
    } catch (error) {
      this.logger.debug({ err: error, topic }, 'bus message dropped');
    }
  }

  subscribe(topic: BusTopic, handler: (payload: string) => void): () => void {
    const subscription = this.nc.subscribe(this.names.busSubject(topic), {
      callback: (error, msg) => {
        if (error) {
          this.logger.warn({ err: error, topic }, 'bus subscription failed');
          return;
        }
        try {
          handler(msg.string());
        } catch (handlerError) {
          this.logger.error({ err: handlerError, topic }, 'bus handler failed');
        }
      },
    });
    this.subscriptions.add(subscription);
    return () => {
      this.subscriptions.delete(subscription);
      if (!subscription.isClosed()) subscription.unsubscribe();
    };
  }

  async close(): Promise<void> {
    for (const subscription of this.subscriptions) if (!subscription.isClosed()) subscription.unsubscribe();
    this.subscriptions.clear();
  }
}
