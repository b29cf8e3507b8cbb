/**
 * An edge draining for a graceful stop, on each adapter: it stops listening at once, answers the requests under
 * way (a JSON reply and an open stream), closes their connections, and says it is drained only after the last one.
 */
import { Agent, request as httpRequest } from 'node:http';
import pino from 'pino';
import t from 'tap';
import { Reply } from '../src/edge/reply.js';
import { defineRoute } from '../src/edge/route.js';
import { startEdge } from '../src/edge/uws-server.js';
import { SERVABLE_ADAPTERS } from './support/adapters.js';

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Kept-alive connections, as most clients keep them; destroyed at the end so that none holds the test open. */
const agent = new Agent({ keepAlive: true });
t.teardown(() => agent.destroy());

/** A GET over a kept-alive connection: its status, its `connection` header and its body. */
function get(port: number, path: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    });
    req.on('error', reject).end();
  });
}

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: drain answers what is under way, then resolves`, async (t) => {
    const slowEntered = deferred();
    const slowRelease = deferred();
    const streamEntered = deferred();
    const streamRelease = deferred();
    const routes = [
      defineRoute({ method: 'GET', path: '/slow', summary: 'x', tags: [], auth: 'none', responses: {}, handler: async () => {
        slowEntered.resolve();
        await slowRelease.promise;
        return { answered: 'slow' };
      } }),
      defineRoute({ method: 'GET', path: '/stream', summary: 'x', tags: [], auth: 'none', responses: {}, handler: () =>
        Reply.stream('text/event-stream', async (sink) => {
          sink.write('data: first\n\n');
          streamEntered.resolve();
          await streamRelease.promise;
          sink.write('data: last\n\n');
        }) }),
    ];
    const edge = await startEdge({ host: '127.0.0.1', port: 0, adapter, routes, authenticator: { authenticate: async () => undefined } as never, logger: pino({ level: 'silent' }), bodyLimit: 1 << 20, jsonBodyLimit: 1 << 20 });
    t.teardown(() => edge.close());

    const slow = get(edge.port, '/slow');
    const stream = get(edge.port, '/stream');
    await Promise.all([slowEntered.promise, streamEntered.promise]);
    let drainedAt = 0;
    const drained = edge.drain().then(() => (drainedAt = performance.now()));

    await t.rejects(fetch(`http://127.0.0.1:${edge.port}/slow`), 'no new connection is taken');
    slowRelease.resolve();
    const slowAnswer = await slow;
    t.same([slowAnswer.status, JSON.parse(slowAnswer.body)], [200, { answered: 'slow' }]);
    t.equal(slowAnswer.connection, 'close', 'its connection is closed after the answer');
    t.equal(drainedAt, 0, 'not drained while a stream is open');

    streamRelease.resolve();
    const streamAnswer = await stream;
    t.equal(streamAnswer.body, 'data: first\n\ndata: last\n\n', 'the stream ran to its end');
    await drained;
    t.ok(drainedAt > 0, 'drained once the last request was answered');
  });
}
