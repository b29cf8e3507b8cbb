/**
 * How a hosted service's failures read: always naming the service and what it said, never a stack trace or a bare
 * "fetch failed". Shared by every service component, so that Tavily's 401 and Apify's 401 read alike.
 */
import { ComponentError } from '../component.error.js';
import type { ServiceInfo } from './service-endpoint.js';

/**
 * A service's failure. The status and Retry-After travel along for the callers that decide what to do with it (a
 * poll that asks again after a 503, a component that turns a 404 into its own row); the text is what a person, or
 * a model calling the component as a tool, reads.
 */
export class ServiceError extends ComponentError {
  constructor(
    message: string,
    /** The service's HTTP status, when it answered. */
    readonly status?: number,
    /** Seconds the service asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The Retry-After header in seconds (a number of seconds or an HTTP date), when present and readable. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** A non-2xx answer, worded by status, with the service's own message when it gave one. */
export function statusFailure(service: ServiceInfo, status: number, headers: Headers, body: string): ServiceError {
  if (status === 401 || status === 403) return new ServiceError(`${service.name} refused the API key (${status})${detailOf(body, ': ')}`, status);
  if (status === 429) {
    const after = retryAfterSeconds(headers);
    const when = after === undefined ? '' : `; it asks to retry after ${Math.ceil(after)} s`;
    return new ServiceError(`${service.name} is limiting requests (429)${when}`, status, after);
  }
  return new ServiceError(`${service.name} answered ${status}${detailOf(body, ': ') || ' with no explanation'}`, status);
}

export const timeoutFailure = (service: ServiceInfo, seconds: number) => new ServiceError(`${service.name} did not answer within ${formatSeconds(seconds)} s`);

export const tooLargeFailure = (service: ServiceInfo, maxBytes: number) =>
  new ServiceError(`${service.name}'s answer is larger than ${Math.round(maxBytes / (1024 * 1024))} MB; it was not read`);

export const notJsonFailure = (service: ServiceInfo) => new ServiceError(`${service.name} answered with something that is not JSON`);

export function unreachableFailure(service: ServiceInfo, baseUrl: string, error: unknown): ComponentError {
  // undici's request puts the socket's code on the error, its fetch on the error's cause.
  const { code, cause } = error as { code?: string; cause?: { code?: string; message?: string } };
  const why = (code && !code.startsWith('UND_ERR') ? code : undefined) ?? cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new ServiceError(`${service.name} could not be reached at ${baseUrl}: ${why}`, undefined, undefined, { cause: error });
}

/**
 * The service's message: `detail`, `error_info`, `message`, `error` or `errors` of a JSON body, looked for inside
 * an object found there too (`{"error": {"message"}}`), else the text, shortened.
 */
function detailOf(body: string, prefix: string): string {
  const text = body.trim();
  if (!text) return '';
  let message: unknown = text;
  try {
    message = messageIn(JSON.parse(text)) ?? text;
  } catch {
    // not JSON: the text as it is
  }
  const words = (typeof message === 'string' ? message : JSON.stringify(message)).replace(/\s+/g, ' ');
  return prefix + (words.length > 200 ? `${words.slice(0, 200)}...` : words);
}

function messageIn(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['detail', 'error_info', 'message', 'error', 'errors']) {
    const inner = record[key];
    if (typeof inner === 'string') return inner;
    if (typeof inner === 'object' && inner !== null) return messageIn(inner) ?? inner;
  }
  return undefined;
}

const formatSeconds = (seconds: number) => (Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1));
