/**
 * Raw HTTP over a socket, for requests fetch cannot make: bodies cut short or never finished, connections that send
 * nothing, HTTP/1.0. Each answer says what the server did and when.
 */
import { connect, type Socket } from 'node:net';
import { readdirSync } from 'node:fs';

export interface RawAnswer {
  /** The status of the first answer, if one came. */
  status?: number;
  text: string;
  /** The server closed the connection. */
  closed: boolean;
  /** Milliseconds from the last byte sent to the answer (or the close, or the wait's end). */
  ms: number;
}

/** Opens a connection and writes `text` (nothing when empty); resolves once connected and written. */
export function openRaw(port: number, text: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      if (text) socket.write(text);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Waits until the server answers and closes, closes, or `waitMs` passes (the connection is then destroyed). */
export function awaitRaw(socket: Socket, waitMs: number, untilClosed = true): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let text = '';
    const done = (closed: boolean) => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : undefined, text, closed, ms: performance.now() - started });
      socket.destroy();
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (!untilClosed && /\r\n\r\n/.test(text)) done(false);
    });
    socket.once('close', () => done(true));
  });
}

/** One request written raw, then the wait for what the server does. */
export async function rawRequest(port: number, text: string, waitMs = 5000, untilClosed = true): Promise<RawAnswer> {
  return awaitRaw(await openRaw(port, text), waitMs, untilClosed);
}

/** A request head; `headers` are written as given (no Host is added when one is there). */
export function head(method: string, path: string, headers: Record<string, string | number>, version = '1.1'): string {
  const lines = [`${method} ${path} HTTP/${version}`, ...('host' in headers ? [] : ['Host: 127.0.0.1']), ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return lines.join('\r\n') + '\r\n\r\n';
}

/** Open file descriptors of this process (the server runs in it too). */
export function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}
