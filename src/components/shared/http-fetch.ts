/**
 * One HTTP exchange for URL and API Request: bounded by the component's timeout and the run's AbortSignal, with
 * every failure worded as a ComponentError naming the URL. A cancelled run rethrows the cancellation as is.
 */
import { ComponentError } from '../component.error.js';

export interface FetchedResponse {
  url: string;
  status: number;
  headers: Headers;
  body: Uint8Array;
  redirected: boolean;
}

export async function fetchWithin(url: string, init: RequestInit, timeoutSeconds: number, signal: AbortSignal): Promise<FetchedResponse> {
  const timeout = timeoutSeconds > 0 ? AbortSignal.timeout(timeoutSeconds * 1000) : undefined;
  const combined = timeout ? AbortSignal.any([signal, timeout]) : signal;
  try {
    const response = await fetch(url, { ...init, signal: combined });
    const body = new Uint8Array(await response.arrayBuffer());
    return { url: response.url || url, status: response.status, headers: response.headers, body, redirected: response.redirected };
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    if (timeout?.aborted) throw new ComponentError(`Request to ${url} timed out after ${timeoutSeconds} s`);
    throw new ComponentError(`Request to ${url} failed: ${causeOf(error)}`, { cause: error });
  }
}

/** Adds `https://` to a bare host, as Langflow does, and accepts only http(s) URLs. */
export function normalizeUrl(raw: string, field: string): string {
  const trimmed = raw.trim();
  if (trimmed === '') throw new ComponentError(`${field}: the URL is empty`);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ComponentError(`${field}: invalid URL ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ComponentError(`${field}: only http and https URLs are fetched, not ${JSON.stringify(raw)}`);
  return url.href;
}

/** `{key, value}` rows (Langflow's header tables) as a header map; rows without a key or a value are left out. */
export function headerMap(rows: readonly Record<string, unknown>[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) {
    if (typeof row.key !== 'string' || row.key === '' || row.value === null || row.value === undefined) continue;
    headers[row.key] = String(row.value);
  }
  return headers;
}

export function isTextual(contentType: string): boolean {
  return contentType === '' || /^text\/|json|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|csv/i.test(contentType);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
