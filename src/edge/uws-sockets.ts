/** The socket routes on uWS: its own app.ws per route, each socket wrapped in the adapter-neutral SocketOutbox. */
import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import type { Logger } from '../logger.js';
import { guarded, SocketOutbox } from './socket-outbox.js';
import { SOCKET_HARD_CAP, type SocketListener, type SocketRoute, type SocketUpgrade } from './socket-route.js';
import { matchSocketRoute, queryOf } from './socket-table.js';

interface SocketData {
  upgrade: SocketUpgrade;
  route: SocketRoute;
  outbox?: SocketOutbox;
  listener?: SocketListener;
}

const decoder = new TextDecoder();

/** Binds the routes; the function returned closes every socket still open (1001, going away), for a stop. */
export function bindUwsSockets(app: TemplatedApp, routes: readonly SocketRoute[], logger: Logger): () => void {
  const open = new Set<SocketOutbox>();
  for (const route of routes) {
    app.ws<SocketData>(route.path, {
      maxPayloadLength: route.maxFrameBytes,
      // The outbox disconnects a slow client at SOCKET_HARD_CAP; uWS's own limit sits above so it never drops first.
      maxBackpressure: SOCKET_HARD_CAP * 2,
      idleTimeout: 120,
      upgrade(res, req, context) {
        const url = req.getUrl();
        const match = matchSocketRoute(routes, url);
        if (!match) {
          res.writeStatus('404 Not Found').end();
          return;
        }
        const headers: Record<string, string> = {};
        req.forEach((name, value) => (headers[name] = value));
        const data: SocketData = { route: match.route, upgrade: { params: match.params, query: queryOf(req.getQuery() ?? ''), headers } };
        res.upgrade(data, headers['sec-websocket-key'] ?? '', headers['sec-websocket-protocol'] ?? '', headers['sec-websocket-extensions'] ?? '', context);
      },
      open(ws: WebSocket<SocketData>) {
        const data = ws.getUserData();
        const outbox = new SocketOutbox({
          write: (text) => void ws.send(text, false),
          buffered: () => ws.getBufferedAmount(),
          end: (code, reason) => ws.end(code, reason),
          abort: () => ws.close(),
        });
        data.outbox = outbox;
        open.add(outbox);
        guarded(outbox, logger, () => (data.listener = data.route.open(data.upgrade, outbox)));
      },
      message(ws, message, isBinary) {
        // The ArrayBuffer is only valid during this call: decoded at once.
        const { listener, outbox } = ws.getUserData();
        if (listener && outbox) guarded(outbox, logger, () => listener.message(isBinary ? '' : decoder.decode(message), isBinary));
      },
      drain(ws) {
        ws.getUserData().outbox?.writable();
      },
      close(ws) {
        const data = ws.getUserData();
        if (data.outbox) open.delete(data.outbox);
        if (!data.outbox) return;
        data.outbox.ended();
        const { listener } = data;
        if (listener) guarded(data.outbox, logger, () => listener.closed());
      },
    });
  }
  return () => open.forEach((socket) => socket.close(1001, 'the service is stopping'));
}
