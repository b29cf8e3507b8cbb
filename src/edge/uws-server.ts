/**
 * The edge: the route table served by one of two adapters over the same dispatch (dispatch.ts). uWebSockets.js is
 * the fast one; node:http answers every valid request where the loaded uWS build cannot (adapter-choice.ts).
 */
import type { us_listen_socket } from 'uWebSockets.js';
import { createDispatch, type Dispatch, type DispatchOptions } from './dispatch.js';
import { openExchange } from './exchange.js';
import { listenNode } from './node-server.js';
import { uws } from './uws-native.js';
import { bindUwsSockets } from './uws-sockets.js';

export type EdgeAdapter = 'uws' | 'node';

export interface EdgeOptions extends DispatchOptions {
  host: string;
  port: number;
  /** Which server binds the route table (default uws). */
  adapter?: EdgeAdapter;
  /** Share the port with other listeners (SO_REUSEPORT); off, a port in use fails start-up. */
  reusePort?: boolean;
  /** node:http: a connection that sends no request for this long is closed (default 30 s; uWS: its fixed 10 s). */
  idleTimeoutMs?: number;
  /** node:http: a kept-alive connection idle this long after its last answer is closed (default 10 s; uWS: 10 s). */
  keepAliveMs?: number;
  /** node:http: headers still arriving after this long are dropped with a 408 (default 60 s; uWS: its fixed 10 s). */
  headersTimeoutMs?: number;
}

export interface EdgeServer {
  readonly port: number;
  readonly adapter: EdgeAdapter;
  /** Stops listening (open keep-alive connections end with their clients). */
  close(): void;
  /**
   * A graceful stop: stops listening, lets the requests under way finish, and closes each connection as its answer
   * goes out. Resolves when no request is under way (or never: the caller holds the deadline).
   */
  drain(): Promise<void>;
}

export function startEdge(options: EdgeOptions): Promise<EdgeServer> {
  const dispatch = createDispatch(options);
  return options.adapter === 'node' ? listenNode(dispatch, options) : listenUws(dispatch, options);
}

/** uWS's listen option that refuses a port another socket holds (its default shares it, SO_REUSEPORT). */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

function listenUws(dispatch: Dispatch, options: EdgeOptions): Promise<EdgeServer> {
  const app = uws.App();
  const closeSockets = bindUwsSockets(app, options.sockets ?? [], options.logger);
  app.any('/*', (res, req) => {
    dispatch(openExchange(res, req), req.getQuery() ?? '');
  });
  return new Promise((resolve, reject) => {
    const listenOptions = options.reusePort ? 0 : LIBUS_LISTEN_EXCLUSIVE_PORT;
    // The four-argument form (host, port, options, callback) is in the addon, not in its typings.
    const listen = app.listen as unknown as (host: string, port: number, options: number, cb: (token: us_listen_socket | false) => void) => void;
    listen.call(app, options.host, options.port, listenOptions, (token) => {
      if (!token) {
        reject(new Error(`cannot listen on ${options.host}:${options.port}: the port is in use or the address is not this machine's`));
        return;
      }
      let listening = true;
      const close = () => {
        if (listening) uws.us_listen_socket_close(token);
        listening = false;
        closeSockets();
      };
      resolve({
        adapter: 'uws',
        port: uws.us_socket_local_port(token),
        close,
        drain() {
          close();
          return dispatch.traffic.drained();
        },
      });
    });
  });
}
