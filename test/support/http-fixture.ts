/** A local HTTP server on 127.0.0.1 (or another loopback address) for URL and API Request tests: routes are plain handlers. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIPv6, type AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage & { body: string }, res: ServerResponse) => void;

export interface HttpFixture {
  url: string;
  /** Requests seen, in order. */
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

export async function httpFixture(routes: Record<string, Handler>, host = '127.0.0.1'): Promise<HttpFixture> {
  const seen: HttpFixture['seen'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const handler = routes[path];
      if (!handler) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      handler(Object.assign(req, { body }), res);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${isIPv6(host) ? `[${host}]` : host}:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (a server opened and closed again), for connection-refused cases. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
