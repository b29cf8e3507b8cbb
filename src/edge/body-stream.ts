/**
 * A request body as a stream (bodyKind `stream`: uploads), read as the handler consumes it instead of buffered
 * whole: the server is paused while the reader is behind (backpressure on the socket), so a 1 GB upload holds
 * about a chunk or two in memory. Past `limit` bytes, or when the client goes away, the stream fails.
 */
import { Readable } from 'node:stream';
import { onClientGone, type Exchange } from './exchange.js';
import { reclaimAfter } from './upload-reclaim.js';
import { tooLarge } from './wire.js';

/** Made as the request arrives: uWS hands body chunks only to a reader attached before its callback returns. */
export function streamBody(exchange: Exchange, limit: number): Readable {
  const { res } = exchange;
  let size = 0;
  let paused = false;
  const stream = new Readable({
    highWaterMark: 1 << 18,
    read() {
      if (!paused) return;
      paused = false;
      res.resume();
    },
  });
  // Its failure reaches whoever reads it (a pipeline, a parser); one nobody reads yet (a refused request) must not
  // end the process as an unhandled 'error' event.
  stream.on('error', ignore);
  const forget = onClientGone(exchange, () => stream.destroy(new Error('client aborted')));
  res.onData((chunk, isLast) => {
    if (stream.destroyed) return;
    size += chunk.byteLength;
    if (size > limit) {
      forget();
      stream.destroy(tooLarge(limit, size));
      return;
    }
    // uWS reuses the chunk's memory once this returns: the stream keeps a copy. node:http hands Buffers of their
    // own, kept as they are.
    const more = stream.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(new Uint8Array(chunk)));
    reclaimAfter(chunk.byteLength);
    if (isLast) {
      forget();
      stream.push(null);
    } else if (!more && !paused) {
      paused = true;
      res.pause();
    }
  });
  return stream;
}

const ignore = () => {};
