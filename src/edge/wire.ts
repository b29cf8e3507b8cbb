/** Writing heads and reading bodies over an Exchange, whichever adapter serves it. */
import type { Credentials } from '../auth/principal.js';
import { PayloadTooLargeError } from '../errors/index.js';
import { readCookie } from './cookie.js';
import type { EdgeResponse, Exchange } from './exchange.js';
import { statusLine } from './http-status.js';
import type { ReplyHeaders } from './reply.js';

export const EMPTY = Buffer.alloc(0);

export function writeHead(exchange: Exchange, status: number, cors: readonly [string, string][], headers: ReplyHeaders = {}): void {
  exchange.res.cork(() => writeHeadCorked(exchange.res, status, cors, headers));
}

/** Status and headers; the caller holds the cork. */
export function writeHeadCorked(res: EdgeResponse, status: number, cors: readonly [string, string][], headers: ReplyHeaders): void {
  res.writeStatus(statusLine(status));
  for (const [key, value] of cors) res.writeHeader(key, value);
  for (const key in headers) {
    const value = headers[key];
    if (typeof value === 'string') res.writeHeader(key, value);
    else for (const each of value) res.writeHeader(key, each);
  }
}

/** Langflow's wording: the limit as configured, the size received in MB to three decimals as Python prints it. */
export function tooLarge(limit: number, got: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`Content size limit exceeded. Maximum allowed is ${megabytes(limit)}MB and got ${pythonFloat(megabytes(got))}MB.`);
}

const megabytes = (bytes: number) => Math.round((bytes / 1048576) * 1000) / 1000;

/** Python's str(float): whole numbers keep a ".0" (`round(2.0, 3)` prints as 2.0). */
function pythonFloat(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

export function byteLength(data: string | Uint8Array): number {
  return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
}

export function credentialsOf(headers: Record<string, string>, query: Record<string, string | string[]>): Credentials {
  const fromQuery = query['x-api-key'];
  // Langflow: the query parameter wins over the header when both are sent.
  const apiKey = (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery) || headers['x-api-key'] || undefined;
  const authorization = headers.authorization;
  let bearer = authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : undefined;
  bearer ||= readCookie(headers.cookie, 'access_token_lf');
  return { apiKey, bearer };
}
