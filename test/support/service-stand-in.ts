/**
 * The common part of the hosted-service stand-ins (tavily-stand-in.ts, needle-stand-in.ts and their siblings): a
 * local HTTP server answering the routes a component calls, switchable per test to the failures a service has: a
 * refused key (401), a 429 with Retry-After (always, or once then the answer), no answer at all, or an answer far
 * past the size limit. Every request is recorded. Two ways to write routes: `startStandIn` for JSON services (a
 * route returns the JSON answer; the key is checked where the real service reads it), `startServiceStandIn` for
 * services answering feeds, pages or cookies (a route writes its own answer; `:name` path segments).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
  /** When it arrived (Date.now()). */
  at: number;
}

/** A route's answer: a JSON body (200), or a status and body. */
export type RouteAnswer = unknown | { status: number; json: unknown };
export type Route = (request: StandInRequest, match: RegExpMatchArray) => RouteAnswer | Promise<RouteAnswer>;

export type StandInMode =
  | { kind: 'answer' }
  | { kind: 'rate-limited'; retryAfterSeconds: number; times?: number }
  | { kind: 'hang' }
  | { kind: 'huge'; megabytes: number };

export interface StandIn {
  url: string;
  readonly requests: StandInRequest[];
  mode: StandInMode;
  /** Requests the stand-in left unanswered ('hang'), still open. */
  readonly hanging: number;
  close(): Promise<void>;
}

export interface StandInSpec {
  /** The key the stand-in accepts, and where the request carries it. */
  keyOf(request: StandInRequest): string | undefined;
  key: string;
  /** `METHOD /path` patterns (regular expressions over the path) to routes. */
  routes: [method: string, path: RegExp, route: Route][];
}

export async function startStandIn(spec: StandInSpec): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  const open = new Set<ServerResponse>();
  let rateLimited = 0;
  const standIn: StandIn = {
    url: '',
    requests,
    mode: { kind: 'answer' },
    get hanging() {
      return [...open].filter((res) => !res.destroyed).length;
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await text(req);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const request: StandInRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: raw ? JSON.parse(raw) : null, at: Date.now() };
    requests.push(request);
    const mode = standIn.mode;
    if (mode.kind === 'hang') return void open.add(res);
    if (mode.kind === 'rate-limited' && (mode.times === undefined || rateLimited < mode.times)) {
      rateLimited++;
      return send(res, 429, { detail: 'Too many requests' }, { 'retry-after': String(mode.retryAfterSeconds) });
    }
    if (spec.keyOf(request) !== spec.key) return send(res, 401, { detail: 'Invalid API key' });
    if (mode.kind === 'huge') return sendHuge(res, mode.megabytes);
    for (const [method, pattern, route] of spec.routes) {
      const match = request.path.match(pattern);
      if (method !== request.method || !match) continue;
      const answer = await route(request, match);
      if (typeof answer === 'object' && answer !== null && 'status' in answer && 'json' in answer) return send(res, (answer as { status: number }).status, (answer as { json: unknown }).json);
      return send(res, 200, answer);
    }
    send(res, 404, { detail: `no route for ${request.method} ${request.path}` });
  }
  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => send(res, 500, { detail: error.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

function send(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(json));
}

/** A JSON document of `megabytes` MB, streamed without a length (so only reading it shows its size). */
function sendHuge(res: ServerResponse, megabytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = `"${'x'.repeat(1024 * 1024 - 3)}",`;
  res.write('[');
  let sent = 0;
  const more = () => {
    while (sent < megabytes) {
      sent++;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end('"end"]');
  };
  res.on('error', () => {});
  more();
}

export type ServiceStandInMode = 'ok' | 'unauthorized' | 'rate-limited' | 'silent' | 'huge';

export interface RawStandInRequest {
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
export type StandInRoute = (req: RawStandInRequest, res: ServerResponse, params: Record<string, string>) => void;

export interface ServiceStandIn {
  url: string;
  mode: ServiceStandInMode;
  readonly seen: RawStandInRequest[];
  /** Resolves with the next request that arrives. */
  nextRequest(): Promise<RawStandInRequest>;
  /** Sets the base-URL variable to this stand-in (and returns a function that restores it). */
  setBaseUrl(variable: string, path?: string): () => void;
  close(): Promise<void>;
}

/** Longer than a service request waits to retry, so a 429 fails at once. */
export const RETRY_AFTER_SECONDS = 120;

export async function startServiceStandIn(routes: Record<string, StandInRoute>): Promise<ServiceStandIn> {
  const seen: RawStandInRequest[] = [];
  const waiters: ((request: RawStandInRequest) => void)[] = [];
  const compiled = Object.entries(routes).map(([pattern, route]) => ({ ...compile(pattern), route }));
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = Buffer.concat(chunks);
    const request: RawStandInRequest = { method: `${req.method}`, path: url.pathname, url: req.url ?? '/', query: url.searchParams, headers: req.headers, body, json: () => JSON.parse(body.toString('utf8')) };
    seen.push(request);
    waiters.splice(0).forEach((resolve) => resolve(request));
    if (standIn.mode === 'silent') return;
    if (standIn.mode === 'unauthorized') return void sendJson(res, 401, { error: 'Invalid API key' });
    if (standIn.mode === 'rate-limited') return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_SECONDS) }).end('{"error":"Too many requests"}');
    if (standIn.mode === 'huge') return void sendHuge(res, 64);
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
