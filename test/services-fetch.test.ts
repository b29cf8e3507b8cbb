/**
 * Service requests to whole addresses (service-fetch.ts's `url`, as a caption track a service names): the
 * private-network guard lets through the configured base URL's origin only; everything else on the private network
 * stays refused unless FLOWSVC_ALLOW_PRIVATE_NETWORK says otherwise.
 */
import t from 'tap';
import { endpointOf, type ServiceInfo } from '../src/components/services/service-endpoint.js';
import { requestService } from '../src/components/services/service-fetch.js';
import { startServiceStandIn, sendJson } from './support/service-stand-in.js';

const standIn = await startServiceStandIn({ 'GET /ping': (_req, res) => sendJson(res, 200, { pong: true }) });
const other = await startServiceStandIn({ 'GET /ping': (_req, res) => sendJson(res, 200, { pong: 'other' }) });
t.teardown(async () => {
  delete process.env.FLOWSVC_EXAMPLE_BASE_URL;
  await standIn.close();
  await other.close();
});

const EXAMPLE: ServiceInfo = { name: 'Example', setting: 'EXAMPLE', defaultBaseUrl: 'https://api.example.com' };
const caller = (allowPrivateNetwork: boolean) => ({ signal: new AbortController().signal, network: { allowPrivateNetwork } });

t.test('the configured base URL is reached on a private address; another private address is refused', async (t) => {
  process.env.FLOWSVC_EXAMPLE_BASE_URL = `${standIn.url}/`;
  t.same(endpointOf(EXAMPLE), { baseUrl: standIn.url, configured: true }, 'a trailing slash is dropped');
  const ok = await requestService(EXAMPLE, { url: `${standIn.url}/ping` }, caller(false));
  t.same([ok.status, JSON.parse(ok.body)], [200, { pong: true }]);
  await t.rejects(requestService(EXAMPLE, { url: `${other.url}/ping` }, caller(false)), {
    name: 'ComponentError',
    message: `Example at ${other.url} refused: it resolves to a loopback address (set FLOWSVC_EXAMPLE_BASE_URL to this address to allow it, or FLOWSVC_ALLOW_PRIVATE_NETWORK=true)`,
  });
  const allowed = await requestService(EXAMPLE, { url: `${other.url}/ping` }, caller(true));
  t.same(JSON.parse(allowed.body), { pong: 'other' }, 'FLOWSVC_ALLOW_PRIVATE_NETWORK=true lets it through');
});

t.test('unset, the public address is used and the guard applies to a whole address too', async (t) => {
  delete process.env.FLOWSVC_EXAMPLE_BASE_URL;
  t.same(endpointOf(EXAMPLE), { baseUrl: 'https://api.example.com', configured: false });
  await t.rejects(requestService(EXAMPLE, { url: `${standIn.url}/ping` }, caller(false)), { message: /refused: it resolves to a loopback address/ });
});

t.test('a cancelled run rethrows its own reason, not a service error', async (t) => {
  process.env.FLOWSVC_EXAMPLE_BASE_URL = standIn.url;
  standIn.mode = 'silent';
  const controller = new AbortController();
  const pending = requestService(EXAMPLE, { path: '/ping' }, { signal: controller.signal });
  await standIn.nextRequest();
  controller.abort(new Error('stopped by the user'));
  await t.rejects(pending, { message: 'stopped by the user' });
  standIn.mode = 'ok';
});
