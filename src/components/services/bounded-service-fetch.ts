/**
 * One request to a hosted service, bounded in time (the whole exchange, body included) and in size (the body is
 * read chunk by chunk and dropped past the limit), with every failure a ServiceError naming the service. A
 * cancelled run rethrows its cancellation as is. The connection passes the private-network guard unless it goes
 * to the operator's configured base URL or the service allows private networks.
 */
import type * as Undici from 'undici';
import type { ComponentContext } from '../contract.js';
import { undici } from '../shared/heavy-modules.js';
import { privateNetworkGuard, refusalOf } from '../shared/private-network-guard.js';
import { isConfiguredOrigin, type ResolvedBase } from './service-endpoint.js';
import { ServiceError, statusError } from './service-error.js';

const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

export interface ServiceRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  timeoutSeconds?: number;
  maxBytes?: number;
  /** Answer any status instead of failing on non-2xx (a cookie endpoint that answers 404 with its cookie). */
  anyStatus?: boolean;
}

export interface ServiceResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

type Caller = Pick<ComponentContext, 'signal' | 'network'>;

export async function serviceFetch(service: string, base: ResolvedBase, request: ServiceRequest, ctx: Caller): Promise<ServiceResponse> {
  const timeoutSeconds = request.timeoutSeconds ?? serviceTimeoutSeconds();
  const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const trusted = isConfiguredOrigin(request.url, base) || ctx.network?.allowPrivateNetwork === true;
  try {
    const client = await undici.load();
    const response = await client.fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body as Undici.RequestInit['body'],
      duplex: request.body && typeof request.body !== 'string' && !(request.body instanceof Uint8Array) ? 'half' : undefined,
      signal,
      // The global dispatcher does not check addresses: a redirect from a trusted origin must not lead elsewhere.
      redirect: trusted ? 'manual' : 'follow',
      dispatcher: trusted ? client.getGlobalDispatcher() : (guard ??= privateNetworkGuard(client)),
    } as Undici.RequestInit);
    const body = await readBounded(service, response, request.maxBytes ?? DEFAULT_MAX_BYTES);
    if (!request.anyStatus && (response.status < 200 || response.status >= 300)) throw statusError(service, response.status, response.headers as Headers, new TextDecoder().decode(body));
    return { status: response.status, headers: response.headers as Headers, body };
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? error;
    if (error instanceof ServiceError) throw error;
    if (timeout.aborted) throw new ServiceError(`${service} did not answer within ${timeoutSeconds} s`);
    const refusal = refusalOf(error);
    if (refusal) throw new ServiceError(`${service} at ${originOf(request.url)} refused: ${refusal.host} ${refusal.reason} (FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it)`);
    throw new ServiceError(`Could not reach ${service} at ${originOf(request.url)}: ${causeOf(error)}`, undefined, undefined, { cause: error });
  }
}

/** The body as JSON; a body that is not JSON is the service's fault, said so. */
export function jsonOf(service: string, response: ServiceResponse): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(response.body));
  } catch {
    throw new ServiceError(`${service} answered with something that is not JSON`);
  }
}

export const textOf = (response: ServiceResponse): string => new TextDecoder().decode(response.body);

let guard: Undici.Agent | undefined;

/**
 * FLOWSVC_SERVICE_TIMEOUT_SECONDS (default 30): how long one request to a hosted service may take, body included.
 * Read per request, like the base URLs, so that one setting covers every service component.
 */
export function serviceTimeoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.FLOWSVC_SERVICE_TIMEOUT_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS;
}

async function readBounded(service: string, response: Undici.Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new ServiceError(`${service} answered more than ${Math.round(maxBytes / 1024 / 1024)} MB: the answer was dropped`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
