/**
 * What the operator may hand a sandbox beyond pure JavaScript, each off by default: `fetch` to an allow-list of
 * hosts (FLOWSVC_CUSTOM_COMPONENT_FETCH_HOSTS), and `readFile` of the caller's own files through the run's file
 * port (FLOWSVC_CUSTOM_COMPONENT_READ_FILES). Inside, both return promises of JSON values; outside, each call is
 * checked here and bounded (the run's signal, a timeout, a size).
 */
import { readFile, stat } from 'node:fs/promises';
import { ComponentError } from '../component.error.js';
import type { ComponentContext } from '../contract.js';
import { fetchWithin } from '../shared/http-fetch.js';

export interface Capabilities {
  /** Host names `fetch` may reach (lower case, exact); empty: no `fetch`. */
  fetchHosts: readonly string[];
  readFiles: boolean;
}

export const NO_CAPABILITIES: Capabilities = { fetchHosts: [], readFiles: false };

/** A run's host calls by name: each takes the sandbox's JSON text and resolves to JSON text (or a plain string). */
export type HostCalls = Partial<Record<'fetch' | 'readFile', (argument: string) => Promise<string>>>;

const FETCH_TIMEOUT_SECONDS = 30;
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Script evaluated before the component's: defines the handed-in globals over the one host function. */
export function capabilitiesPrelude(capabilities: Capabilities): string {
  const lines = ['(function (hostCall) {', '  var stringify = JSON.stringify, parse = JSON.parse;'];
  if (capabilities.fetchHosts.length) {
    lines.push("  globalThis.fetch = function (url, init) { return hostCall('fetch', stringify({ url: String(url), init: init || {} })).then(parse); };");
  }
  if (capabilities.readFiles) lines.push("  globalThis.readFile = function (path) { return hostCall('readFile', String(path)); };");
  lines.push('})(globalThis.__hostCall); delete globalThis.__hostCall;');
  return lines.join('\n');
}

/** The host calls of one run, for its caller. */
export function hostCallsFor(capabilities: Capabilities, ctx: ComponentContext): HostCalls {
  const calls: HostCalls = {};
  if (capabilities.fetchHosts.length) calls.fetch = (argument) => fetchAllowed(capabilities.fetchHosts, argument, ctx);
  if (capabilities.readFiles) calls.readFile = (path) => readCallerFile(path, ctx);
  return calls;
}

async function fetchAllowed(hosts: readonly string[], argument: string, ctx: ComponentContext): Promise<string> {
  const { url, init } = JSON.parse(argument) as { url: string; init: { method?: unknown; headers?: unknown; body?: unknown } };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ComponentError(`fetch: "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ComponentError(`fetch: only http and https URLs are allowed, not ${parsed.protocol}`);
  if (!hosts.includes(parsed.hostname.toLowerCase())) {
    throw new ComponentError(`fetch: ${parsed.hostname} is not an allowed host (FLOWSVC_CUSTOM_COMPONENT_FETCH_HOSTS lists them)`);
  }
  const headers = typeof init.headers === 'object' && init.headers !== null ? (Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k, String(v)])) as Record<string, string>) : undefined;
  // Redirects are not followed: a redirect to a host off the list is the component's to see, not to take.
  const response = await fetchWithin(
    parsed.href,
    { method: typeof init.method === 'string' ? init.method : 'GET', headers, body: typeof init.body === 'string' ? init.body : undefined, redirect: 'manual' },
    FETCH_TIMEOUT_SECONDS,
    ctx.signal,
    ctx.network,
  );
  const text = new TextDecoder().decode(response.body);
  return JSON.stringify({ status: response.status, ok: response.status >= 200 && response.status < 300, url: response.url, headers: Object.fromEntries(response.headers), text });
}

async function readCallerFile(path: string, ctx: ComponentContext): Promise<string> {
  if (!ctx.files) throw new ComponentError('readFile: this run has no files to read');
  const onDisk = await ctx.files.open(path);
  const { size } = await stat(onDisk);
  if (size > MAX_FILE_BYTES) throw new ComponentError(`readFile: ${path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  return readFile(onDisk, { encoding: 'utf8', signal: ctx.signal });
}
