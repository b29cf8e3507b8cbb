/**
 * The EdgeSocket both adapters hand out, over the three things each server can do (write a frame, tell how many
 * bytes wait, end). The backpressure policy lives here once: past SOCKET_HIGH_WATER `send` says so and senders
 * pause until `drained()`; past SOCKET_HARD_CAP the client is disconnected, so one socket never holds more.
 */
import type { Logger } from '../logger.js';
import { SOCKET_HARD_CAP, SOCKET_HIGH_WATER, type EdgeSocket } from './socket-route.js';

export interface SocketWire {
  write(text: string): void;
  /** Bytes written but not yet taken by the client's connection. */
  buffered(): number;
  end(code: number, reason: string): void;
  /** Drops the connection without a closing handshake (a client that does not read would never see one). */
  abort(): void;
}

export class SocketOutbox implements EdgeSocket {
  #open = true;
  #waiters: (() => void)[] = [];

  constructor(private readonly wire: SocketWire) {}

  get isOpen(): boolean {
    return this.#open;
  }

  send(text: string): boolean {
    if (!this.#open) return false;
    if (this.wire.buffered() + text.length > SOCKET_HARD_CAP) {
      this.ended();
      this.wire.abort();
      return false;
    }
    this.wire.write(text);
    return this.wire.buffered() < SOCKET_HIGH_WATER;
  }

  drained(): Promise<void> {
    if (!this.#open || this.wire.buffered() < SOCKET_HIGH_WATER) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The server says the connection took some bytes: waiting senders go on once under the mark. */
  writable(): void {
    if (this.#waiters.length > 0 && this.wire.buffered() < SOCKET_HIGH_WATER) this.#waiters.splice(0).forEach((wake) => wake());
  }

  close(code: number, reason: string): void {
    if (!this.#open) return;
    this.ended();
    this.wire.end(code, reason);
  }

  /** The connection is gone (closed here or by the client): nothing more is written, waiters go on. */
  ended(): void {
    this.#open = false;
    this.#waiters.splice(0).forEach((wake) => wake());
  }
}

/**
 * Calls into a socket handler: one that throws closes its own socket (1011, internal error) and is logged, rather
 * than reaching the event loop as an uncaught exception that ends the process.
 */
export function guarded(outbox: SocketOutbox, logger: Logger, call: () => void): void {
  try {
    call();
  } catch (error) {
    logger.error({ err: error }, 'socket handler failed');
    outbox.close(1011, 'internal error');
  }
}
