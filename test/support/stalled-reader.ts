/**
 * A client that sends a raw HTTP/1.1 request and then does not read for a while, so the server's socket fills and
 * its backpressure path runs; then it reads the reply to the connection's close.
 */
import { connect } from 'node:net';

export interface RawReply {
  /** Status line and headers, as sent. */
  head: string;
  /** The bytes after the head, as sent (chunked framing included). */
  body: Buffer;
}

/** `request` must ask for `Connection: close`: the reply is read until the server closes. */
export async function readAfterStall(port: number, request: string, stallMs: number): Promise<RawReply> {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.write(request);
  await new Promise((resolve) => setTimeout(resolve, stallMs));
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.resume();
  await new Promise((resolve) => socket.once('close', resolve));
  const raw = Buffer.concat(received);
  const headEnd = raw.indexOf('\r\n\r\n');
  return { head: raw.subarray(0, headEnd).toString('latin1'), body: raw.subarray(headEnd + 4) };
}

/** The body of a chunked HTTP/1.1 reply. */
export function dechunk(body: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts).toString('utf8');
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
