/**
 * One HTTP exchange as the edge keeps it once uWS's request object is gone, and what a route handler gets of it.
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { Principal } from '../auth/principal.js';
import { LazyAbortController } from '../engine/lazy-abort.js';
import type { HttpMethod, RouteRequest, UploadedFile } from './route.js';

/** Per-request state that outlives the uWS request object. */
export interface Exchange {
  res: HttpResponse;
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  aborted: boolean;
  /** Its signal is made only if a handler reads it (an open stream listens through its sink instead). */
  controller: LazyAbortController;
  /** Called once if the client goes away (resolves pending body reads and stream waits). */
  onAbort?: () => void;
  started: number;
}

/** A new exchange for a request uWS just handed over. */
export function openExchange(res: HttpResponse, req: HttpRequest): Exchange {
  const exchange: Exchange = {
    res,
    method: req.getCaseSensitiveMethod().toUpperCase() as HttpMethod,
    path: req.getUrl(),
    headers: headersOf(req),
    aborted: false,
    controller: new LazyAbortController(),
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

function watchAbort(exchange: Exchange): void {
  exchange.res.onAborted(() => {
    exchange.aborted = true;
    exchange.controller.abort();
    exchange.onAbort?.();
  });
}

/** What an exchange holds as its headers once they are no longer needed (an open stream lets go of them). */
export const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** What a route handler gets; a class so that `signal`, a prototype getter, is made only when a handler reads it. */
export class ExchangeRequest implements RouteRequest<unknown, unknown, unknown> {
  constructor(
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>>,
    readonly files: UploadedFile[],
    readonly principal: Principal | null,
    private readonly exchange: Exchange,
  ) {}

  get signal(): AbortSignal {
    return this.exchange.controller.signal;
  }
}
