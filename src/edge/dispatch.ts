/**
 * What every edge adapter shares: a request as an Exchange goes through routing, limits, auth, validation and the
 * handler, and its Reply goes out (JSON, bytes, or a stream with backpressure). Adapters only bind a server to it:
 * handlers never know which one runs them.
 */
import { MethodNotAllowedError, NotFoundError, PayloadTooLargeError } from '../errors/index.js';
import type { Logger } from '../logger.js';
import { NO_METRICS, type Metrics } from '../observability/metrics.js';
import type { Authenticator } from '../auth/principal.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { errorReply } from './error-reply.js';
import { ExchangeRequest, NO_HEADERS, type Exchange } from './exchange.js';
import { ExchangeSink } from './exchange-sink.js';
import { Reply, type ReplyHeaders, type StreamSink } from './reply.js';
import { parseJsonBody, parseMultipart, parseQuery, validate } from './request-input.js';
import type { Route, UploadedFile } from './route.js';
import type { SocketRoute } from './socket-route.js';
import { Router } from './router.js';
import { streamBody, type StreamedBody } from './body-stream.js';
import { holdBody, type HeldBody } from './held-body.js';
import { Traffic } from './traffic.js';
import { byteLength, credentialsOf, EMPTY, tooLarge, writeHead, writeHeadCorked } from './wire.js';

export interface DispatchOptions {
  routes: Route[];
  authenticator: Authenticator;
  logger: Logger;
  /** Body limit of streamed uploads (bodyKind `stream`) in bytes. */
  bodyLimit: number;
  /**
   * Body limit of every other route in bytes, buffered forms (flow and project files) included: a JSON body far
   * smaller than an upload can still cost gigabytes parsed.
   */
  jsonBodyLimit: number;
  /** A request body that stops arriving for this long is abandoned (408, connection closed). Default 30 s. */
  bodyIdleMs?: number;
  /** WebSocket routes, served by either adapter (socket-route.ts). */
  sockets?: SocketRoute[];
  /** Counts requests by route and open streams (default: nothing is counted). */
  metrics?: Metrics;
}

/** Handles one exchange, given its raw query string; `traffic` counts the exchanges under way. */
export type Dispatch = ((exchange: Exchange, query: string) => void) & { readonly traffic: Traffic };

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LARGE_BODY = 1 << 20;
const NO_BODY: HeldBody = { admit: () => Promise.resolve(EMPTY), complete: true };

export function createDispatch(options: DispatchOptions): Dispatch {
  const router = new Router();
  for (const route of options.routes) router.add(route);
  const { logger } = options;
  const traffic = new Traffic();
  const metrics = options.metrics ?? NO_METRICS;

  function dispatch(exchange: Exchange, query: string): void {
    traffic.begin();
    if ((exchange.method as string) === 'OPTIONS') {
      writeHead(exchange, 204, preflightHeaders(exchange.headers.origin, exchange.headers['access-control-request-headers']));
      exchange.res.cork(() => exchange.res.endWithoutBody(0, traffic.draining));
      settle(exchange);
      metrics.requestDone(exchange, undefined, 204);
      return;
    }
    const match = router.match(exchange.method, exchange.path);
    if (match.kind !== 'found') {
      if (match.kind === 'not-found') return send(exchange, errorReply(new NotFoundError('Not Found'), logger), undefined);
      // A 405 answers in the shape of the routes at that path (OpenAI's on the responses routes).
      const sibling = router.match(match.allowed[0], exchange.path);
      send(exchange, errorReply(new MethodNotAllowedError(match.allowed), logger, sibling.kind === 'found' ? sibling.route.errorBody : undefined), undefined);
      return;
    }
    const { route, params } = match;
    // Streamed uploads have their own limit; everything buffered in memory (JSON, forms of flow files) the JSON one.
    const limit = route.bodyLimit ?? (route.bodyKind === 'stream' ? options.bodyLimit : options.jsonBodyLimit);
    const declared = Number(exchange.headers['content-length'] ?? 0);
    if (declared > limit) {
      send(exchange, errorReply(tooLarge(limit, declared), logger, route.errorBody), route, true);
      return;
    }
    const idleMs = options.bodyIdleMs ?? 30_000;
    // Held at its first chunk until the request is authenticated (handle admits it).
    const streamed = route.bodyKind === 'stream' ? streamBody(exchange, limit, idleMs) : undefined;
    const held = streamed || !METHODS_WITH_BODY.has(exchange.method) ? NO_BODY : holdBody(exchange, limit, idleMs);
    handle(exchange, route, params, query, held, streamed).then(
      // A streamed body the handler left unread (or half read) is not read on: the connection closes after the reply.
      (reply) => send(exchange, reply, route, unread(streamed)),
      // A body not read to its end (refused before it was read, over the limit, stalled) is not read on: close.
      (error) => {
        // A client that went away mid-request is routine, not a server error: nobody is left to answer.
        if (exchange.aborted) {
          settle(exchange);
          return logger.debug({ method: exchange.method, path: exchange.path }, 'client aborted the request');
        }
        send(exchange, errorReply(error, logger, route.errorBody), route, error instanceof PayloadTooLargeError || !held.complete || unread(streamed));
      },
    );
  }

  async function handle(exchange: Exchange, route: Route, params: Record<string, string>, query: string, held: HeldBody, streamed?: StreamedBody): Promise<Reply> {
    const rawQuery = parseQuery(query);
    const principal = await options.authenticator.authenticate(route.auth, credentialsOf(exchange.headers, rawQuery));
    streamed?.admit();
    const raw = await held.admit();
    let body: unknown;
    let files: UploadedFile[] = [];
    if (route.bodyKind === 'multipart') {
      const form = await parseMultipart(raw, exchange.headers, route.bodyLimit ?? options.jsonBodyLimit);
      files = form.files;
      body = validate('body', route.body, form.fields);
    } else if (route.bodyKind === 'raw') {
      body = raw;
    } else if (streamed) {
      body = undefined;
    } else {
      body = validate('body', route.body, parseJsonBody(raw));
    }
    const request = new ExchangeRequest(validate('path', route.params, params), validate('query', route.query, rawQuery), body, exchange.headers, files, principal, exchange, streamed?.stream);
    const result = await route.handler(request);
    return result instanceof Reply ? result : Reply.json(result);
  }

  /** The exchange is answered (or its client gone): it no longer holds a shutdown back. */
  function settle(exchange: Exchange): void {
    if (exchange.settled) return;
    exchange.settled = true;
    traffic.end();
  }

  /** `route` is the route that answers, undefined when none matched (what the request is counted under). */
  function send(exchange: Exchange, reply: Reply, route: Route | undefined, closeConnection = false): void {
    if (exchange.aborted) return settle(exchange);
    closeConnection ||= traffic.draining;
    const { res } = exchange;
    const cors = corsHeaders(exchange.headers.origin);
    const body = reply.body;
    if (body.kind === 'stream') {
      writeHead(exchange, reply.status, cors, reply.headers);
      pump(exchange, body.produce, route);
      return;
    }
    let data: string | Uint8Array = '';
    const headers: ReplyHeaders = { ...reply.headers };
    if (body.kind === 'json') {
      try {
        data = JSON.stringify(body.value);
      } catch (error) {
        // A reply past V8's longest string (RangeError) once ended the process here.
        logger.error({ err: error, method: exchange.method, path: exchange.path }, 'reply could not be encoded');
        send(exchange, Reply.json({ detail: 'The reply is too large to encode' }, 500), route);
        return;
      }
      headers['content-type'] ??= 'application/json';
    } else if (body.kind === 'bytes') {
      data = body.data;
    }
    if (typeof data !== 'string' && data.byteLength > LARGE_BODY && exchange.method !== 'HEAD') {
      writeHead(exchange, reply.status, cors, headers);
      // uWS's tryEnd has no close flag (node:http's adapter closes every connection answered while draining).
      endLarge(exchange, data);
    } else {
      // Head and body in one cork: one write to the socket for the common reply.
      res.cork(() => {
        writeHeadCorked(res, reply.status, cors, headers);
        if (exchange.method === 'HEAD' || body.kind === 'empty') res.endWithoutBody(body.kind === 'empty' ? 0 : byteLength(data), closeConnection);
        else res.end(data, closeConnection);
      });
      settle(exchange);
    }
    logDone(exchange, reply.status, route);
  }

  function logDone(exchange: Exchange, status: number, route: Route | undefined): void {
    metrics.requestDone(exchange, route, status);
    if (logger.isLevelEnabled('debug')) {
      logger.debug({ method: exchange.method, path: exchange.path, status, ms: +(performance.now() - exchange.started).toFixed(2) }, 'request');
    }
  }

  /**
   * Streams a reply through a sink that reports when the socket is full and when it has drained (uWS backpressure).
   * Not an async function: an open stream would keep its suspended frame (generator, context, promise) alive.
   */
  function pump(exchange: Exchange, produce: (sink: StreamSink) => Promise<void>, route: Route | undefined): void {
    const sink = new ExchangeSink(exchange);
    metrics.streamOpened();
    // The request's headers were read when the reply started: an open stream does not keep them (and their strings).
    exchange.headers = NO_HEADERS;
    let produced: Promise<void>;
    try {
      produced = produce(sink);
    } catch (error) {
      produced = Promise.reject(error);
    }
    const done = () => {
      // Counted closed before the end is sent: a client that has read the end never scrapes it as still open.
      metrics.streamClosed();
      sink.end();
      settle(exchange);
      logDone(exchange, 200, route);
    };
    produced.then(done, (error: unknown) => {
      logger.error({ err: error, path: exchange.path }, 'stream producer failed');
      done();
    });
  }

  /** Large bodies go out chunk by chunk as the socket drains, instead of being copied whole into uWS. */
  function endLarge(exchange: Exchange, data: Uint8Array): void {
    const { res } = exchange;
    const total = data.byteLength;
    let start = 0;
    let done = false;
    res.cork(() => {
      start = res.getWriteOffset();
      [, done] = res.tryEnd(data, total);
    });
    if (done) return settle(exchange);
    res.onWritable((offset) => {
      if (exchange.aborted) {
        settle(exchange);
        return true;
      }
      const [ok, finished] = res.tryEnd(data.subarray(offset - start), total);
      if (finished) settle(exchange);
      return ok;
    });
  }

  return Object.assign(dispatch, { traffic });
}

function unread(streamed: StreamedBody | undefined): boolean {
  if (!streamed || streamed.stream.readableEnded) return false;
  streamed.stream.destroy();
  return true;
}
