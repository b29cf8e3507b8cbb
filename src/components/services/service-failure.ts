/**
 * How a hosted service's failures read: always naming the service and what it said, never a stack trace or a bare
 * "fetch failed". Shared by every service component, so that Tavily's 401 and Apify's 401 read alike.
 */
import { ComponentError } from '../component.error.js';
import type { ServiceInfo } from './service-endpoint.js';

/** The Retry-After header in seconds (a number of seconds or an HTTP date), when present and readable. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** A non-2xx answer, worded by status, with the service's own message when it gave one. */
export function statusFailure(service: ServiceInfo, status: number, headers: Headers, body: string): ComponentError {
  if (status === 401 || status === 403) return new ComponentError(`${service.name} refused the API key (${status})${detailOf(body, ': ')}`);
  if (status === 429) {
    const after = retryAfterSeconds(headers);
    const when = after === undefined ? '' : `; it asks to retry after ${Math.ceil(after)} s`;
    return new ComponentError(`${service.name} is limiting requests (429)${when}`);
  }
  return new ComponentError(`${service.name} answered ${status}${detailOf(body, ': ') || ' with no explanation'}`);
}

export const timeoutFailure = (service: ServiceInfo, seconds: number) => new ComponentError(`${service.name} did not answer within ${formatSeconds(seconds)} s`);

export const tooLargeFailure = (service: ServiceInfo, maxBytes: number) =>
  new ComponentError(`${service.name}'s answer is larger than ${Math.round(maxBytes / (1024 * 1024))} MB; it was not read`);

export const notJsonFailure = (service: ServiceInfo) => new ComponentError(`${service.name} answered with something that is not JSON`);

export function unreachableFailure(service: ServiceInfo, baseUrl: string, error: unknown): ComponentError {
  // undici's request puts the socket's code on the error, its fetch on the error's cause.
  const { code, cause } = error as { code?: string; cause?: { code?: string; message?: string } };
  const why = (code && !code.startsWith('UND_ERR') ? code : undefined) ?? cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new ComponentError(`${service.name} could not be reached at ${baseUrl}: ${why}`, { cause: error });
}

/** The service's message: `detail`, `error`, `message` or `error_info` of a JSON body, else the text, shortened. */
function detailOf(body: string, prefix: string): string {
  const text = body.trim();
  if (!text) return '';
  let message: unknown = text;
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const found = json.detail ?? json.error_info ?? json.message ?? json.error;
    message = typeof found === 'object' && found !== null ? ((found as Record<string, unknown>).message ?? JSON.stringify(found)) : (found ?? text);
  } catch {
    // not JSON: the text as it is
  }
  const words = String(message).replace(/\s+/g, ' ');
  return prefix + (words.length > 200 ? `${words.slice(0, 200)}...` : words);
}

const formatSeconds = (seconds: number) => (Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1));
