/**
 * The bus of a single instance (event-bus.port.ts): subscribers in this process only. Delivery waits for a later
 * microtask, as a networked bus would, so a publisher never runs its subscribers' code in its own call stack (and
 * code tested on this bus does not come to rely on that).
 */
import type { Logger } from '../logger.js';
import type { BusTopic, EventBus } from './event-bus.port.js';

type Handler = (payload: string) => void;

export class MemoryBus implements EventBus {
  private readonly handlers = new Map<BusTopic, Set<Handler>>();
  private closed = false;

  /** `logger` hears of handlers that throw; without one their errors are dropped, as a lost hint would be. */
  constructor(private readonly logger?: Logger) {}

  publish(topic: BusTopic, payload: string): void {
    if (this.closed) return;
    const handlers = this.handlers.get(topic);
    if (!handlers || handlers.size === 0) return;
    // Those subscribed at publish time receive it, as with a server that routes the message when it arrives.
    const receivers = [...handlers];
    queueMicrotask(() => {
      for (const handler of receivers) {
        if (this.closed || !handlers.has(handler)) continue;
        try {
          handler(payload);
        } catch (error) {
          this.logger?.error({ err: error, topic }, 'bus handler failed');
        }
      }
    });
  }

  subscribe(topic: BusTopic, handler: Handler): () => void {
    let handlers = this.handlers.get(topic);
    if (!handlers) this.handlers.set(topic, (handlers = new Set()));
    // A wrapper of its own, so the same function subscribed twice is two subscriptions, each undone by its own call.
    const subscription: Handler = (payload) => handler(payload);
    handlers.add(subscription);
    return () => handlers.delete(subscription);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
  }
}
