/** The node:http adapter: the same dispatch as uWS, for machines whose uWS build cannot answer every request. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatch } from './dispatch.js';
import type { EdgeOptions, EdgeServer } from './uws-server.js';
import { watchAbort, type Exchange } from './exchange.js';
import { NodeResponse } from './node-response.js';
import type { HttpMethod } from './route.js';

export function listenNode(dispatch: Dispatch, options: EdgeOptions): Promise<EdgeServer> {
  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const exchange: Exchange = {
      res: new NodeResponse(req, res),
      method: (req.method ?? 'GET') as HttpMethod,
      path: mark === -1 ? url : url.slice(0, mark),
      headers: headersOf(req),
      aborted: false,
      started: performance.now(),
    };
    watchAbort(exchange);
    dispatch(exchange, mark === -1 ? '' : url.slice(mark + 1));
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(new Error(`cannot listen on ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}`));
    });
    server.listen({ host: options.host, port: options.port, exclusive: true, reusePort: options.reusePort ?? false }, () => {
      resolve({
        adapter: 'node',
        port: (server.address() as AddressInfo).port,
        close() {
          server.close();
          server.closeIdleConnections();
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
