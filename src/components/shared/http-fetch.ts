/**
 * One HTTP exchange for URL and API Request: bounded by the component's timeout and the run's AbortSignal, with
 * every failure worded as a ComponentError naming the URL. A cancelled run rethrows the cancellation as is. Unless
 * the policy allows private networks, the connection goes through the private network guard (a refused request
 * never reaches its server, and its error says which setting allows it).
 */
import type * as Undici from 'undici';
import { ComponentError } from '../component.error.js';
import type { NetworkPolicy } from '../contract.js';
import { undici } from './heavy-modules.js';
import { unbracketed } from './private-addresses.js';
import { privateNetworkGuard, refusalOf } from './private-network-guard.js';

export interface FetchedResponse {
  url: string;
  status: number;
  headers: Headers;
  body: Uint8Array;
  redirected: boolean;
}

export type FetchInit = Pick<Undici.RequestInit, 'method' | 'headers' | 'body' | 'redirect'>;

export async function fetchWithin(url: string, init: FetchInit, timeoutSeconds: number, signal: AbortSignal, network: NetworkPolicy | undefined): Promise<FetchedResponse> {
  const timeout = timeoutSeconds > 0 ? AbortSignal.timeout(timeoutSeconds * 1000) : undefined;
  const combined = timeout ? AbortSignal.any([signal, timeout]) : signal;
  try {
    const client = await undici.load();
    const response = await client.fetch(url, { ...init, signal: combined, dispatcher: dispatcherFor(client, network) });
    const body = new Uint8Array(await response.arrayBuffer());
    return { url: response.url || url, status: response.status, headers: response.headers, body, redirected: response.redirected };
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    if (timeout?.aborted) throw new ComponentError(`Request to ${url} timed out after ${timeoutSeconds} s`);
    const refusal = refusalOf(error);
    if (refusal) throw new ComponentError(`Request to ${url} refused: ${refusedBecause(url, refusal)} (FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it)`);
    throw new ComponentError(`Request to ${url} failed: ${causeOf(error)}`, { cause: error });
  }
}

/** One guard for every guarded request: its connection pool is shared like the default dispatcher's. */
let guard: Undici.Agent | undefined;

function dispatcherFor(client: typeof Undici, network: NetworkPolicy | undefined): Undici.Dispatcher {
  if (network?.allowPrivateNetwork) return client.getGlobalDispatcher();
  return (guard ??= privateNetworkGuard(client));
}

/** `it resolves to a loopback address`; a connection to another host than the URL's was a redirect's. */
function refusedBecause(url: string, refusal: { host: string; reason: string }): string {
  const host = unbracketed(new URL(url).hostname);
  return refusal.host === host ? `it ${refusal.reason}` : `it was redirected to ${refusal.host}, which ${refusal.reason}`;
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
