/** The sink of a streamed reply over one uWS exchange: writes with backpressure, and word of a client gone. */
import { onClientGone, type Exchange } from './exchange.js';
import type { StreamSink } from './reply.js';

/**
 * The sink of one streamed reply. A class rather than a literal of closures: an open stream holds one small
 * object, and the closures uWS needs (cork, onWritable) are made per write or only when the socket fills.
 */
export class ExchangeSink implements StreamSink {
  #ended = false;
  #full = false;
  #waiter: (() => void) | undefined;

  /** A producer waiting in `drained()` goes on when the client goes away (this listener comes first). */
  constructor(private readonly exchange: Exchange) {
    onClientGone(exchange, () => this.wake());
  }

  /** The exchange's own listeners: the same list a body read and a handler use. */
  onClientGone(listener: () => void): void {
    onClientGone(this.exchange, listener);
  }

  get closed(): boolean {
    return this.exchange.aborted || this.#ended;
  }

  write(chunk: string | Uint8Array): boolean {
    const { exchange } = this;
    if (exchange.aborted || this.#ended) return true;
    const { res } = exchange;
    let ok = true;
    res.cork(() => (ok = res.write(chunk)));
    if (!ok && !this.#full) {
      this.#full = true;
      res.onWritable(() => {
        this.#full = false;
        this.wake();
        return true;
      });
    }
    return ok;
  }

  drained(): Promise<void> {
    if (!this.#full || this.exchange.aborted || this.#ended) return Promise.resolve();
    return new Promise<void>((resolve) => (this.#waiter = resolve));
  }

  /** The socket drained or the client went away: the producer waiting in `drained()` goes on. */
  wake(): void {
    const woken = this.#waiter;
    this.#waiter = undefined;
    woken?.();
  }

  end(): void {
    this.#ended = true;
    const { exchange } = this;
    if (!exchange.aborted) exchange.res.cork(() => exchange.res.end());
  }
}
