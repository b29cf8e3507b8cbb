/**
 * The socket routes on node:http: the `ws` package's WebSocketServer in noServer mode, fed by the same server's
 * `upgrade` event (no second port), each socket wrapped in the adapter-neutral SocketOutbox.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData } from 'ws';
import type { Logger } from '../logger.js';
import { guarded, SocketOutbox } from './socket-outbox.js';
import type { SocketListener, SocketRoute } from './socket-route.js';
import { matchSocketRoute, queryOf } from './socket-table.js';

const HEARTBEAT_MS = 60_000;

/** Binds the routes; the function returned closes every socket still open (1001, going away), for a stop. */
export function bindNodeSockets(server: Server, routes: readonly SocketRoute[], logger: Logger): () => void {
  if (routes.length === 0) return () => undefined;
  // One server for every route: the largest frame any accepts is its limit, each route's own is checked per frame.
  const maxPayload = Math.max(...routes.map((route) => route.maxFrameBytes));
  const wss = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: false });
  // uWS pings idle sockets and drops the dead (idleTimeout); here one timer does it for every socket: a peer that
  // has not answered the last ping by the next one is gone (a half-open connection would hold its session forever).
  const unanswered = new WeakSet<object>();
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (unanswered.has(ws)) ws.terminate();
      else {
        unanswered.add(ws);
        ws.ping();
      }
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const match = matchSocketRoute(routes, mark === -1 ? url : url.slice(0, mark));
    if (!match) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const upgrade = { params: match.params, query: queryOf(mark === -1 ? '' : url.slice(mark + 1)), headers };
    wss.handleUpgrade(req, socket, head, (ws) => {
      const outbox = new SocketOutbox({
        // `ws` calls back once the frame is handed to the connection: the moment waiting senders may go on.
        write: (text) => ws.send(text, () => outbox.writable()),
        buffered: () => ws.bufferedAmount,
        end: (code, reason) => ws.close(code, reason),
        abort: () => ws.terminate(),
      });
      let listener: SocketListener | undefined;
      guarded(outbox, logger, () => (listener = match.route.open(upgrade, outbox)));
      ws.on('message', (data: RawData, binary: boolean) => {
        const size = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer).byteLength;
        if (size > match.route.maxFrameBytes) return ws.close(1009, 'frame too large');
        if (listener) guarded(outbox, logger, () => listener!.message(binary ? '' : data.toString(), binary));
      });
      ws.on('pong', () => unanswered.delete(ws));
      ws.on('error', () => ws.terminate());
      ws.once('close', () => {
        outbox.ended();
        if (listener) guarded(outbox, logger, () => listener!.closed());
      });
    });
  });
  return () => {
    clearInterval(heartbeat);
    wss.clients.forEach((ws) => ws.close(1001, 'the service is stopping'));
  };
}
