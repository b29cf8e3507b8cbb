/**
 * One request to a hosted service, bounded: in time (the service timeout, and the run's signal, which the job
 * timeout and a cancel abort), in size (the body is read in chunks and dropped past the limit, so a 50 MB answer
 * never sits in memory), and in retries (a 429 asking for a short wait is retried, a longer one fails at once).
 * Requests go through the private-network guard unless FLOWSVC_ALLOW_PRIVATE_NETWORK is on or they go to the
 * origin of the base URL the operator set. Failures are ServiceErrors naming the service (service-failure.ts); a
 * cancelled run rethrows its own reason. `callService` reads a JSON answer, `requestService` any other (a feed, a
 * page, a cookie).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type * as Undici from 'undici';
import type { ComponentContext } from '../contract.js';
import { undici } from '../shared/heavy-modules.js';
import { privateNetworkGuard, refusalOf } from '../shared/private-network-guard.js';
import { ComponentError } from '../component.error.js';
import { endpointOf, baseUrlSetting, isConfiguredOrigin, serviceTimeoutSeconds, type ServiceInfo } from './service-endpoint.js';
import { ServiceError, notJsonFailure, retryAfterSeconds, statusFailure, timeoutFailure, tooLargeFailure, unreachableFailure } from './service-failure.js';

export const MAX_SERVICE_ANSWER_BYTES = 16 * 1024 * 1024;
/** A 429 asking to wait longer than this fails at once instead of holding the run. */
const LONGEST_RETRY_WAIT_SECONDS = 10;
const RETRIES_AFTER_429 = 2;

export interface ServiceRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Appended to the base URL (`/search`)... */
  path?: string;
  /** ...or a whole address (a caption track the service named); only the base URL's origin skips the guard. */
  url?: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Sent as JSON... */
  json?: unknown;
  /** ...or as it is (an uploaded file, streamed). */
  body?: string | Uint8Array | NodeJS.ReadableStream;
  /** Overrides FLOWSVC_SERVICE_TIMEOUT_SECONDS (a node's own timeout field). */
  timeoutSeconds?: number;
  /** Overrides MAX_SERVICE_ANSWER_BYTES. */
  maxBytes?: number;
  /** Hands back any status instead of failing on a non-2xx one (a cookie endpoint that answers 404 with its cookie). */
  anyStatus?: boolean;
}

export interface ServiceAnswer {
  status: number;
  headers: Headers;
  body: string;
}

type Caller = Pick<ComponentContext, 'signal' | 'network'>;

/** The parsed JSON answer of a 2xx response. */
export async function callService(service: ServiceInfo, request: ServiceRequest, ctx: Caller): Promise<unknown> {
  const answer = await requestService(service, { ...request, headers: { accept: 'application/json', ...request.headers } }, ctx);
  return parseJson(service, answer.body);
}

/** The answer as text, with its status and headers; a non-2xx one is a failure unless `anyStatus`. */
export async function requestService(service: ServiceInfo, request: ServiceRequest, ctx: Caller): Promise<ServiceAnswer> {
  const endpoint = endpointOf(service);
  const url = new URL(request.url ?? endpoint.baseUrl + (request.path ?? ''));
  for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
  const timeoutSeconds = request.timeoutSeconds ?? serviceTimeoutSeconds();
  const client = await undici.load();
  const trusted = isConfiguredOrigin(url, endpoint) || ctx.network?.allowPrivateNetwork === true;
  const dispatcher = trusted ? client.getGlobalDispatcher() : (guard ??= privateNetworkGuard(client));
  const where = request.url === undefined ? endpoint.baseUrl : url.origin;
  // A streamed body (an upload) is read once: its request is not retried.
  const replayable = typeof request.body !== 'object' || request.body instanceof Uint8Array;
  for (let attempt = 0; ; attempt++) {
    const answer = await exchange(service, url, request, { client, dispatcher, timeoutSeconds, signal: ctx.signal, where });
    if (request.anyStatus || (answer.status >= 200 && answer.status < 300)) return answer;
    const wait = answer.status === 429 ? retryAfterSeconds(answer.headers) : undefined;
    if (replayable && wait !== undefined && wait <= LONGEST_RETRY_WAIT_SECONDS && attempt < RETRIES_AFTER_429) {
      await sleep(wait * 1000, undefined, { signal: ctx.signal }).catch((error: unknown) => {
        throw ctx.signal.reason ?? error;
      });
      continue;
    }
    throw statusFailure(service, answer.status, answer.headers, answer.body);
  }
}

/** One guard for every service request (its connection pool is shared). */
let guard: Undici.Agent | undefined;

interface Exchange {
  client: typeof Undici;
  dispatcher: Undici.Dispatcher;
  timeoutSeconds: number;
  signal: AbortSignal;
  /** How failures name the address: the base URL, or the origin of a whole address. */
  where: string;
}

async function exchange(service: ServiceInfo, url: URL, request: ServiceRequest, how: Exchange): Promise<ServiceAnswer> {
  const timeout = AbortSignal.timeout(how.timeoutSeconds * 1000);
  const signal = AbortSignal.any([how.signal, timeout]);
  const headers: Record<string, string> = { ...request.headers };
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  const maxBytes = request.maxBytes ?? MAX_SERVICE_ANSWER_BYTES;
  try {
    // undici's request, not its fetch: the same connection pool at a fraction of the CPU per call (no WHATWG
    // streams), which matters for a tool an agent may call many times a run.
    const response = await how.client.request(url, {
      method: request.method ?? (request.json === undefined && request.body === undefined ? 'GET' : 'POST'),
      headers,
      body: request.json === undefined ? (request.body as Undici.Dispatcher.RequestOptions['body']) : JSON.stringify(request.json),
      signal,
      dispatcher: how.dispatcher,
    });
    const body = await boundedText(response, maxBytes);
    if (body === undefined) throw tooLargeFailure(service, maxBytes);
    return { status: response.statusCode, headers: headersOf(response.headers), body };
  } catch (error) {
    if (how.signal.aborted) throw how.signal.reason ?? error;
    if (timeout.aborted) throw timeoutFailure(service, how.timeoutSeconds);
    if (error instanceof ComponentError) throw error;
    const refusal = refusalOf(error);
    if (refusal) throw new ServiceError(`${service.name} at ${how.where} refused: it ${refusal.reason} (set ${baseUrlSetting(service)} to this address to allow it, or FLOWSVC_ALLOW_PRIVATE_NETWORK=true)`);
    throw unreachableFailure(service, how.where, error);
  }
}

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  // Each value appended on its own: several Set-Cookie headers stay several (getSetCookie).
  for (const [name, value] of Object.entries(raw)) for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  return headers;
}

/** The body as text, or undefined (the rest left unread, the connection dropped) once it passes `maxBytes`. */
async function boundedText(response: Undici.Dispatcher.ResponseData, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers['content-length']);
  if (declared > maxBytes) {
    response.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      response.body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(service: ServiceInfo, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw notJsonFailure(service);
  }
}
