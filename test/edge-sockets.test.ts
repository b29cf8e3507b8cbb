/**
 * WebSocket routes on both edge adapters (uWS's app.ws, node:http's upgrade with `ws`), through one interface: an
 * echo route answers frames, sees its path parameters and query, refuses frames over its limit, and holds a bound
 * for a client that does not read; HTTP routes keep working on the same port.
 */
import t from 'tap';
import WebSocket from 'ws';
import { createLogger } from '../src/logger.js';
import { startEdge, type EdgeAdapter } from '../src/edge/uws-server.js';
import { uwsIsNative } from '../src/edge/uws-native.js';
import { defineRoute } from '../src/edge/route.js';
import type { EdgeSocket, SocketRoute } from '../src/edge/socket-route.js';
import { SOCKET_HARD_CAP } from '../src/edge/socket-route.js';

const adapters: EdgeAdapter[] = uwsIsNative ? ['node', 'uws'] : ['node'];

function echoRoute(onClosed: () => void, opened: EdgeSocket[]): SocketRoute {
  return {
    path: '/ws/echo/:room',
    summary: 'echo',
    maxFrameBytes: 1024,
    open(upgrade, socket) {
      opened.push(socket);
      socket.send(JSON.stringify({ room: upgrade.params.room, who: upgrade.query.who, header: upgrade.headers['x-probe'] }));
      return {
        message(text, binary) {
          if (text === 'boom') throw new Error('a handler bug');
          if (text === 'flood') {
            // Sends until the socket says to pause, then past it: the outbox must disconnect, never grow unbounded.
            const big = 'x'.repeat(64 * 1024);
            for (let i = 0; i < (SOCKET_HARD_CAP / big.length) * 4 && socket.isOpen; i++) socket.send(big);
            return;
          }
          socket.send(JSON.stringify({ echo: text, binary }));
        },
        closed: onClosed,
      };
    },
  };
}

function nextMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve, reject) => {
    ws.once('message', (data) => resolve(JSON.parse(data.toString())));
    ws.once('error', reject);
  });
}

const closeOf = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

for (const adapter of adapters) {
  t.test(`sockets on ${adapter}`, async (t) => {
    let closedCount = 0;
    const closedWaiters: (() => void)[] = [];
    const opened: EdgeSocket[] = [];
    const onClosed = () => {
      closedCount++;
      closedWaiters.splice(0).forEach((wake) => wake());
    };
    const ping = defineRoute({ method: 'GET', path: '/ping', summary: 'ping', tags: [], auth: 'none', handler: () => ({ pong: true }) });
    const edge = await startEdge({
      host: '127.0.0.1',
      port: 0,
      adapter,
      routes: [ping],
      sockets: [echoRoute(onClosed, opened)],
      authenticator: { authenticate: async () => null },
      logger: createLogger('silent'),
      bodyLimit: 1 << 20,
      jsonBodyLimit: 1 << 20,
    });
    t.teardown(() => edge.close());
    const url = `ws://127.0.0.1:${edge.port}`;

    t.test('a frame is answered, with the path parameter, query and headers seen', async (t) => {
      const ws = new WebSocket(`${url}/ws/echo/kitchen?who=ann`, { headers: { 'x-probe': 'yes' } });
      t.same(await nextMessage(ws), { room: 'kitchen', who: 'ann', header: 'yes' });
      ws.send('hello');
      t.same(await nextMessage(ws), { echo: 'hello', binary: false });
      const closed = new Promise<void>((resolve) => closedWaiters.push(resolve));
      ws.close(1000);
      await closed;
      t.ok(closedCount >= 1, 'the handler heard the close');
    });

    t.test('HTTP still answers on the same port, and an unknown socket path is refused', async (t) => {
      t.same(await (await fetch(`http://127.0.0.1:${edge.port}/ping`, { headers: { connection: 'close' } })).json(), { pong: true });
      const plain = await fetch(`http://127.0.0.1:${edge.port}/ws/echo/kitchen`, { headers: { connection: 'close' } });
      t.equal(plain.status, 404, 'a plain request to a socket path goes to the route table (no HTTP route there)');
      await plain.arrayBuffer();
      const ws = new WebSocket(`${url}/ws/nowhere`);
      const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (req, res) => {
        // With this listener, `ws` leaves ending the refused request to the caller.
        req.destroy();
        resolve(res.statusCode ?? 0);
      }));
      t.equal(status, 404);
    });

    t.test('a handler that throws closes its socket with 1011, and the server goes on', async (t) => {
      const ws = new WebSocket(`${url}/ws/echo/bug`);
      await nextMessage(ws);
      ws.send('boom');
      t.equal(await closeOf(ws), 1011);
      const next = new WebSocket(`${url}/ws/echo/after`);
      t.equal((await nextMessage(next)).room, 'after');
      next.close();
    });

    t.test('a frame over the route limit closes the connection (1009, or dropped: uWS does not read it)', async (t) => {
      const ws = new WebSocket(`${url}/ws/echo/big`);
      await nextMessage(ws);
      ws.send('y'.repeat(4096));
      t.ok([1006, 1009].includes(await closeOf(ws)));
    });

    t.test('a client that does not read is disconnected at the hard cap, not buffered without bound', async (t) => {
      const ws = new WebSocket(`${url}/ws/echo/slow`);
      await nextMessage(ws);
      const before = opened.length;
      // Stop reading: the socket's receive buffer fills, then the server's.
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      ws.send('flood');
      const closed = new Promise<void>((resolve) => closedWaiters.push(resolve));
      await closed;
      t.notOk(opened[before - 1].isOpen, 'the server side is closed');
      ws.terminate();
    });
  });
}
