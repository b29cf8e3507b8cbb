/**
 * The WebSocket route contract, the socket counterpart of route.ts. Both adapters serve it (uws-sockets.ts with
 * uWS's own app.ws, node-sockets.ts with the `ws` package on node:http's upgrade event, on the same port), so a
 * handler sees only these interfaces: never a uWS or `ws` object.
 */

/** What the upgrade request carried, read before the connection became a WebSocket. */
export interface SocketUpgrade {
  params: Record<string, string>;
  /** The raw query, first value of each name. */
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string>>;
}

/** One open WebSocket as a handler sees it. Text frames only: every protocol served over it is JSON. */
export interface EdgeSocket {
  /**
   * Sends one text frame. False once more than the high-water mark waits for the client: the caller pauses what
   * it can pause (drained() says when to go on). A client that lets the hard cap fill is disconnected
   * (dropped without a closing handshake: it would not read one).
   */
  send(text: string): boolean;
  /** Resolves once what waits for the client is under the high-water mark (or the socket is closed). */
  drained(): Promise<void>;
  /** Closes with a close code and a reason (a no-op once closed). */
  close(code: number, reason: string): void;
  readonly isOpen: boolean;
}

/** What a handler hears of its socket. */
export interface SocketListener {
  /** A text frame (a binary frame arrives as `binary: true` and its text undecoded: handlers refuse it). */
  message(text: string, binary: boolean): void;
  /** The connection ended, whoever closed it. Called once. */
  closed(): void;
}

export interface SocketRoute {
  /** `:name` marks a path parameter. */
  path: string;
  summary: string;
  /** The largest frame accepted; a larger one closes the connection (1009) before it is buffered whole. */
  maxFrameBytes: number;
  open(upgrade: SocketUpgrade, socket: EdgeSocket): SocketListener;
}

/** Bytes waiting for a slow client past which senders should pause. */
export const SOCKET_HIGH_WATER = 256 * 1024;
/** Bytes waiting for a client past which it is disconnected: what one socket may hold at most. */
export const SOCKET_HARD_CAP = 4 * 1024 * 1024;
