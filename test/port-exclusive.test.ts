/**
 * Two services never silently share a port: the second fails to start with a clear message, whichever adapter
 * either uses, unless both ask for sharing (FLOWSVC_REUSE_PORT=true). uWS listened with SO_REUSEPORT, and the
 * kernel spread requests over two services with different users and data.
 */
import { createServer, type AddressInfo } from 'node:net';
import t from 'tap';
import { uwsIsNative } from '../src/edge/uws-native.js';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { startTestServer } from './support/server.js';

/**
 * A port nobody holds, by number: SO_REUSEPORT only ever shared a port asked for by number (a second bind to a
 * port the kernel picked for port 0 fails anyway), which is how a second `npm start` met the first.
 */
function freePort(): Promise<string> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(String(port)));
    });
  });
}

for (const [first, second] of SERVABLE_ADAPTERS.flatMap((a) => SERVABLE_ADAPTERS.map((b) => [a, b]))) {
  t.test(`a ${second} service on the port of a ${first} one fails to start`, async (t) => {
    const holder = await startTestServer({ HTTP_SERVER: first, PORT: await freePort() });
    t.teardown(() => holder.close());
    await t.rejects(startTestServer({ HTTP_SERVER: second, PORT: String(holder.port) }), /port is in use/);
    t.equal((await holder.request('/health')).status, 200, 'the first keeps serving');
  });
}

// node:http shares a port from Node 22.12 on (listen's reusePort); uWS always could.
const sharing = uwsIsNative ? 'uws' : 'node';

t.test(`FLOWSVC_REUSE_PORT=true on both lets two ${sharing} services share a port`, async (t) => {
  const one = await startTestServer({ HTTP_SERVER: sharing, REUSE_PORT: 'true', PORT: await freePort() });
  t.teardown(() => one.close());
  const two = await startTestServer({ HTTP_SERVER: sharing, REUSE_PORT: 'true', PORT: String(one.port) });
  t.teardown(() => two.close());
  t.equal(two.port, one.port);
});
