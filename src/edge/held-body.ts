/**
 * A buffered request body (JSON, raw, small forms) that is read only once the request is admitted: the route's
 * authentication comes first. uWS hands body chunks only to a reader attached before its route callback returns,
 * so the reader is attached at once, but the socket is paused at the first chunk until `admit()`: an anonymous
 * caller's upload costs a chunk, not its size. Admitted, a body that stops arriving for `idleMs` is abandoned.
 */
import { TimeoutError } from '../errors/index.js';
import { onClientGone, type Exchange } from './exchange.js';
import { tooLarge } from './wire.js';

export interface HeldBody {
  /** Starts (or goes on) reading; resolves with the whole body. */
  admit(): Promise<Buffer>;
  /** True once every byte of the body is in (or there was none). */
  readonly complete: boolean;
}

export const bodyStalled = (idleMs: number) => new TimeoutError(`The request body stopped arriving for ${idleMs / 1000} s`);

export function holdBody(exchange: Exchange, limit: number, idleMs: number): HeldBody {
  const { res } = exchange;
  const chunks: Buffer[] = [];
  let size = 0;
  let failed = false;
  let complete = false;
  let admitted = false;
  let paused = false;
  let idle: NodeJS.Timeout | undefined;
  let resolve!: (body: Buffer) => void;
  let reject!: (error: Error) => void;
  const body = new Promise<Buffer>((ok, fail) => ((resolve = ok), (reject = fail)));
  // Rejected before anyone awaits it (a refused request whose body then goes over the limit): not unhandled.
  body.catch(() => undefined);
  const fail = (error: Error) => {
    failed = true;
    clearTimeout(idle);
    forget();
    reject(error);
  };
  const forget = onClientGone(exchange, () => fail(new Error('client aborted')));
  res.onData((chunk, isLast) => {
    // uWS may still hand chunks of a body whose request was answered (refused unread): the response is gone.
    if (failed || exchange.settled) return;
    size += chunk.byteLength;
    if (size > limit) return fail(tooLarge(limit, size));
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) {
      complete = true;
      clearTimeout(idle);
      forget();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    } else if (!admitted && !paused) {
      paused = true;
      res.pause();
    } else idle?.refresh();
  });
  return {
    get complete() {
      return complete;
    },
    admit() {
      if (admitted) return body;
      admitted = true;
      if (!complete && !failed) {
        idle = setTimeout(() => fail(bodyStalled(idleMs)), idleMs);
        if (paused) {
          paused = false;
          res.resume();
        }
      }
      return body;
    },
  };
}
