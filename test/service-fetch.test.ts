/**
 * The shared request of the service components (src/components/services/service-fetch.ts) on its own: a service at
 * its default address goes through the private-network guard (so a default resolving to this machine is refused
 * before any connection, naming both settings that allow it), an address the operator set does not, and neither
 * does a run allowed the private network.
 */
import t from 'tap';
import type { ServiceInfo } from '../src/components/services/service-endpoint.js';
import { callService } from '../src/components/services/service-fetch.js';
import { startStandIn } from './support/service-stand-in.js';

const standIn = await startStandIn({ key: 'k', keyOf: (request) => request.headers['x-key'] as string, routes: [['GET', /^\/ping$/, () => ({ pong: true })]] });
t.teardown(() => standIn.close());

/** A service whose public address, for this test, is the loopback stand-in. */
const LOOPBACK: ServiceInfo = { name: 'Loopy', setting: 'LOOPY', defaultBaseUrl: standIn.url, keyVariable: 'LOOPY_API_KEY' };
const ping = (network?: { allowPrivateNetwork: boolean }) => callService(LOOPBACK, { path: '/ping', headers: { 'x-key': 'k' } }, { signal: new AbortController().signal, network });

t.test('a default address on this machine is refused before any connection', async (t) => {
  const seen = standIn.requests.length;
  await t.rejects(ping(), { name: 'ComponentError', message: `Loopy at ${standIn.url} refused: it resolves to a loopback address (set FLOWSVC_LOOPY_BASE_URL to this address to allow it, or FLOWSVC_ALLOW_PRIVATE_NETWORK=true)` });
  t.equal(standIn.requests.length, seen, 'nothing reached it');
});

t.test('FLOWSVC_ALLOW_PRIVATE_NETWORK lets it through', async (t) => {
  t.same(await ping({ allowPrivateNetwork: true }), { pong: true });
});

t.test('the base URL setting lets it through: the operator chose the address', async (t) => {
  process.env.FLOWSVC_LOOPY_BASE_URL = standIn.url;
  t.teardown(() => void delete process.env.FLOWSVC_LOOPY_BASE_URL);
  t.same(await ping(), { pong: true });
});

t.test('a run cancelled during the request rethrows its own reason, not a service error', async (t) => {
  process.env.FLOWSVC_LOOPY_BASE_URL = standIn.url;
  t.teardown(() => {
    delete process.env.FLOWSVC_LOOPY_BASE_URL;
    standIn.mode = { kind: 'answer' };
  });
  standIn.mode = { kind: 'hang' };
  const controller = new AbortController();
  const call = callService(LOOPBACK, { path: '/ping', headers: { 'x-key': 'k' } }, { signal: controller.signal });
  while (standIn.hanging === 0) await new Promise((resolve) => setImmediate(resolve));
  controller.abort(new Error('the run was cancelled'));
  await t.rejects(call, { message: 'the run was cancelled' });
});

t.test('a service nobody answers at is named with the address and the reason, not "fetch failed"', async (t) => {
  const { closedPort } = await import('./support/http-fixture.js');
  const url = `http://127.0.0.1:${await closedPort()}`;
  process.env.FLOWSVC_LOOPY_BASE_URL = url;
  t.teardown(() => void delete process.env.FLOWSVC_LOOPY_BASE_URL);
  await t.rejects(ping(), { name: 'ComponentError', message: `Loopy could not be reached at ${url}: ECONNREFUSED` });
});
