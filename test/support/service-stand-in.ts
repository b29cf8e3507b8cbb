/**
 * A local stand-in for a hosted service: the routes a component calls, and a switch that makes every route answer
 * as the real service fails: a refused key (401), rate limiting (429 with Retry-After), or no answer at all
 * (the component's timeout), or an answer too large to keep. Requests are recorded; `setBaseUrl` points the
 * component's FLOWSVC_<SERVICE>_BASE_URL at it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandInMode = 'ok' | 'unauthorized' | 'rate-limited' | 'silent' | 'huge';

export interface StandInRequest {
  method: string;
  path: string;
  /** The raw request target, query string included. */
  url: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  json(): any;
}

/** Answers one request; a route may match a path pattern (`:id` segments) and reads them from `params`. */
export type StandInRoute = (req: StandInRequest, res: ServerResponse, params: Record<string, string>) => void;

export interface ServiceStandIn {
  url: string;
  mode: StandInMode;
  readonly seen: StandInRequest[];
  /** Resolves with the next request that arrives. */
  nextRequest(): Promise<StandInRequest>;
  /** Sets the base-URL variable to this stand-in (and returns a function that restores it). */
  setBaseUrl(variable: string, path?: string): () => void;
  close(): Promise<void>;
}

export const RETRY_AFTER_SECONDS = 7;

export async function startServiceStandIn(routes: Record<string, StandInRoute>): Promise<ServiceStandIn> {
  const seen: StandInRequest[] = [];
  const waiters: ((request: StandInRequest) => void)[] = [];
  const compiled = Object.entries(routes).map(([pattern, route]) => ({ ...compile(pattern), route }));
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = Buffer.concat(chunks);
    const request: StandInRequest = { method: `${req.method}`, path: url.pathname, url: req.url ?? '/', query: url.searchParams, headers: req.headers, body, json: () => JSON.parse(body.toString('utf8')) };
    seen.push(request);
    waiters.splice(0).forEach((resolve) => resolve(request));
    if (standIn.mode === 'silent') return;
    if (standIn.mode === 'unauthorized') return void sendJson(res, 401, { error: 'Invalid API key' });
    if (standIn.mode === 'rate-limited') return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_SECONDS) }).end('{"error":"Too many requests"}');
    if (standIn.mode === 'huge') return void sendHuge(res);
    const key = `${req.method} ${url.pathname}`;
    for (const { regex, names, route } of compiled) {
      const match = regex.exec(key);
      if (match) return void route(request, res, Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])));
    }
    sendJson(res, 404, { error: `no route ${key}` });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const standIn: ServiceStandIn = {
    url: `http://127.0.0.1:${port}`,
    mode: 'ok',
    seen,
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    setBaseUrl(variable, path = '') {
      const before = process.env[variable];
      process.env[variable] = `${standIn.url}${path}`;
      return () => (before === undefined ? delete process.env[variable] : (process.env[variable] = before));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** "POST /v2/transcript/:id" as a regex over "METHOD path". */
function compile(pattern: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-zA-Z_]+)/g, (_m, name: string) => (names.push(name), '([^/]+)'));
  return { regex: new RegExp(`^${source}$`), names };
}

/** 64 MB of JSON-looking text, written as fast as the client reads it (it should stop reading long before). */
function sendHuge(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  let left = 64;
  const write = (): void => {
    while (left > 0) {
      left -= 1;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    res.end();
  };
  res.on('close', () => (left = 0));
  write();
}
