/**
 * One HTTP exchange as the edge keeps it once uWS's request object is gone, and what a route handler gets of it.
 */
import type { Readable } from 'node:stream';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { Principal } from '../auth/principal.js';
import type { HttpMethod, RouteRequest, UploadedFile } from './route.js';

/**
 * What the edge uses of a response: uWS's HttpResponse methods, which the node:http adapter provides too
 * (node-response.ts), so one dispatch serves both.
 */
export interface EdgeResponse {
  cork(cb: () => void): unknown;
  writeStatus(status: string): unknown;
  writeHeader(key: string, value: string): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(body?: string | Uint8Array, closeConnection?: boolean): unknown;
  endWithoutBody(reportedContentLength?: number, closeConnection?: boolean): unknown;
  tryEnd(body: Uint8Array, totalSize: number): [boolean, boolean];
  getWriteOffset(): number;
  onWritable(handler: (offset: number) => boolean): unknown;
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): unknown;
  /** Stops and restarts reading the body (backpressure for a streamed body). */
  pause(): unknown;
  resume(): unknown;
  onAborted(handler: () => void): unknown;
  getRemoteAddressAsText(): ArrayBuffer;
}

/** Per-request state that outlives the server's request object. */
export interface Exchange {
  res: EdgeResponse;
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  aborted: boolean;
  /** Called once if the client goes away: a body read in progress, a run to cancel, an open stream's sink. */
  goneListeners?: (() => void)[];
  started: number;
  /** Set once it is answered or given up (the edge's count of requests under way, traffic.ts). */
  settled?: boolean;
}

/** A new exchange for a request uWS just handed over. */
export function openExchange(res: HttpResponse, req: HttpRequest): Exchange {
  const exchange: Exchange = {
    res,
    method: req.getCaseSensitiveMethod().toUpperCase() as HttpMethod,
    path: req.getUrl(),
    headers: headersOf(req),
    aborted: false,
    started: performance.now(),
  };
  watchAbort(exchange);
  return exchange;
}

/*
 * The request's headers and its abort watch are made in functions of their own: a closure made in the route
 * callback would share its context, and uWS keeps the onAborted closure for the whole exchange (an open stream
 * would keep the headers through it).
 */
function headersOf(req: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  req.forEach((key, value) => (headers[key] = value));
  return headers;
}

export function watchAbort(exchange: Exchange): void {
  exchange.res.onAborted(() => {
    exchange.aborted = true;
    const listeners = exchange.goneListeners;
    exchange.goneListeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  });
}

/**
 * Calls `listener` once if the client goes away (at once if it already has). The returned function takes it back:
 * a body read does so when the body is in, so that an open stream does not keep the read's closure (and chunks).
 * Cheaper than an AbortSignal per request, which most requests would make and never fire.
 */
export function onClientGone(exchange: Exchange, listener: () => void): () => void {
  if (exchange.aborted) {
    listener();
    return forgetNothing;
  }
  (exchange.goneListeners ??= []).push(listener);
  return () => {
    const listeners = exchange.goneListeners;
    const at = listeners ? listeners.indexOf(listener) : -1;
    if (at !== -1) listeners!.splice(at, 1);
  };
}

const forgetNothing = () => {};

/** What an exchange holds as its headers once they are no longer needed (an open stream lets go of them). */
export const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** What a route handler gets. */
export class ExchangeRequest implements RouteRequest<unknown, unknown, unknown> {
  constructor(
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>>,
    readonly files: UploadedFile[],
    readonly principal: Principal | null,
    private readonly exchange: Exchange,
    readonly bodyStream?: Readable,
  ) {}

  onClientGone(listener: () => void): void {
    onClientGone(this.exchange, listener);
  }

  /** Read when asked, not per request: the response object stays valid until it is answered or aborted. */
  clientAddress(): string {
    return this.exchange.aborted ? '' : Buffer.from(this.exchange.res.getRemoteAddressAsText()).toString();
  }
}
