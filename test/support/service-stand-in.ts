/**
 * The common part of the hosted-service stand-ins (tavily-stand-in.ts and its siblings): a local HTTP server
 * answering the routes a component calls, checking the key where the real service reads it (a wrong key is the
 * service's 401), and switchable per test to the failures a service has: a 429 with Retry-After (always, or
 * once then the answer), no answer at all, or an answer far past the size limit. Every request is recorded.
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
