/**
 * A request body as a stream (bodyKind `stream`: uploads), read as the handler consumes it instead of buffered
 * whole: the server is paused while the reader is behind (backpressure on the socket), so a 1 GB upload holds
 * about a chunk or two in memory. Past `limit` bytes, when the client goes away, or when the body stops arriving
 * for `idleMs` while the reader waits for it, the stream fails. Nothing past the first chunk is read before
 * `admit()` (the route's authentication passed).
 */
import { Readable } from 'node:stream';
import { onClientGone, type Exchange } from './exchange.js';
import { bodyStalled } from './held-body.js';
import { reclaimAfter } from './upload-reclaim.js';
import { tooLarge } from './wire.js';

export interface StreamedBody {
  readonly stream: Readable;
  /** Lets the body be read (it was held at its first chunk). */
  admit(): void;
}

/** Made as the request arrives: uWS hands body chunks only to a reader attached before its callback returns. */
export function streamBody(exchange: Exchange, limit: number, idleMs: number): StreamedBody {
  const { res } = exchange;
  let size = 0;
  let paused = false;
  let admitted = false;
  let received = false;
  let idle: NodeJS.Timeout | undefined;
  const resume = () => {
    if (!paused || !admitted || exchange.settled || exchange.aborted) return;
    paused = false;
    res.resume();
    // Waiting on the client now (not on the reader): it has `idleMs` to send the next chunk.
    idle ??= setTimeout(() => stream.destroy(bodyStalled(idleMs)), idleMs);
    idle.refresh();
  };
  const stream = new Readable({
    highWaterMark: 1 << 18,
    read: resume,
    destroy(error, callback) {
      clearTimeout(idle);
      callback(error);
    },
  });
  // Its failure reaches whoever reads it (a pipeline, a parser); one nobody reads yet (a refused request) must not
  // end the process as an unhandled 'error' event.
  stream.on('error', ignore);
  const forget = onClientGone(exchange, () => stream.destroy(new Error('client aborted')));
  res.onData((chunk, isLast) => {
    // uWS may still hand chunks of a body whose request was answered: the response is not to be touched again.
    if (stream.destroyed || exchange.settled) return;
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
      received = true;
      clearTimeout(idle);
      stream.push(null);
    } else if ((!more || !admitted) && !paused) {
      paused = true;
      // The reader is behind (or not allowed yet): the client's silence is ours, not its own.
      clearTimeout(idle);
      idle = undefined;
      res.pause();
    } else idle?.refresh();
  });
  return {
    stream,
    admit() {
      if (admitted) return;
      admitted = true;
      if (stream.destroyed || received) return;
      if (paused) resume();
      else idle = setTimeout(() => stream.destroy(bodyStalled(idleMs)), idleMs);
    },
  };
}

const ignore = () => {};
