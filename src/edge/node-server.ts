/** The node:http adapter: the same dispatch as uWS, for machines whose uWS build cannot answer every request. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Dispatch } from './dispatch.js';
import type { EdgeOptions, EdgeServer } from './uws-server.js';
import { watchAbort, type Exchange } from './exchange.js';
import { NodeResponse } from './node-response.js';
import { bindNodeSockets } from './node-sockets.js';
import type { HttpMethod } from './route.js';

/** Marks a socket whose first request came: its wait for one is over (node keeps the keep-alive timer itself). */
const SERVED = Symbol('served');

export function listenNode(dispatch: Dispatch, options: EdgeOptions): Promise<EdgeServer> {
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  // Headers that trickle in are dropped by node's own headersTimeout, checked every 30 s (sooner for a short one).
  const headersTimeout = options.headersTimeoutMs ?? 60_000;
  const timeouts = { keepAliveTimeout: options.keepAliveMs ?? 10_000, headersTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(250, headersTimeout / 2)) };
  const server = createServer(timeouts, (req, res) => {
    const socket = req.socket as Socket & { [SERVED]?: true };
    if (!socket[SERVED]) {
      socket[SERVED] = true;
      socket.setTimeout(0);
    }
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const exchange: Exchange = {
      res: new NodeResponse(req, res, dispatch.traffic),
      method: (req.method ?? 'GET') as HttpMethod,
      path: mark === -1 ? url : url.slice(0, mark),
      headers: headersOf(req),
      aborted: false,
      started: performance.now(),
    };
    watchAbort(exchange);
    dispatch(exchange, mark === -1 ? '' : url.slice(mark + 1));
  });
  const closeSockets = bindNodeSockets(server, options.sockets ?? [], options.logger);
  // Kept for a drain: once no request is under way, each connection is ended after its last bytes are flushed.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    // Node closes kept-alive connections, but never one that sends nothing at all: without this bound, idle
    // connections hold descriptors forever. With no 'timeout' listener of ours, node's own destroys the socket.
    socket.setTimeout(idleTimeoutMs);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(new Error(`cannot listen on ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}`));
    });
    server.listen({ host: options.host, port: options.port, exclusive: true, reusePort: options.reusePort ?? false }, () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        adapter: 'node',
        port,
        close() {
          closeSockets();
          if (server.listening) server.close();
          server.closeIdleConnections();
        },
        drain() {
          // Closing ends the idle kept-alive connections; answers given while draining close theirs (NodeResponse),
          // and a stream that began before keeps its connection until no request is under way, then it is ended.
          const closed = new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
          closeSockets();
          return dispatch.traffic.drained().then(() => {
            for (const socket of sockets) socket.end();
            return closed;
          });
        },
      });
    });
  });
}

/** Lower-cased names, one string per header (repeated ones joined as HTTP allows), as uWS hands them. */
function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
