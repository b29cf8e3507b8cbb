/**
 * The request every service component makes (bounded-service-fetch.ts): the private-network guard lets through the
 * configured base URL's origin only; everything else on the private network stays refused unless
 * FLOWSVC_ALLOW_PRIVATE_NETWORK says otherwise.
 */
import t from 'tap';
import { serviceFetch } from '../src/components/services/bounded-service-fetch.js';
import { baseUrlOf } from '../src/components/services/service-endpoint.js';
import { startServiceStandIn, sendJson } from './support/service-stand-in.js';

const standIn = await startServiceStandIn({ 'GET /ping': (_req, res) => sendJson(res, 200, { pong: true }) });
const other = await startServiceStandIn({ 'GET /ping': (_req, res) => sendJson(res, 200, { pong: 'other' }) });
t.teardown(async () => {
  await standIn.close();
  await other.close();
});

const endpoint = { name: 'Example', baseUrlVariable: 'FLOWSVC_EXAMPLE_BASE_URL', defaultBaseUrl: 'https://api.example.com' };
const caller = (allowPrivateNetwork: boolean) => ({ signal: new AbortController().signal, network: { allowPrivateNetwork } });

t.test('the configured base URL is reached on a private address; another private address is refused', async (t) => {
  const base = baseUrlOf(endpoint, { FLOWSVC_EXAMPLE_BASE_URL: `${standIn.url}/` });
  t.same(base, { url: standIn.url, configured: true }, 'a trailing slash is dropped');
  const ok = await serviceFetch('Example', base, { url: `${base.url}/ping` }, caller(false));
  t.equal(ok.status, 200);
  await t.rejects(serviceFetch('Example', base, { url: `${other.url}/ping` }, caller(false)), {
    name: 'ServiceError',
    message: `Example at ${other.url} refused: 127.0.0.1 resolves to a loopback address (FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it)`,
  });
  const allowed = await serviceFetch('Example', base, { url: `${other.url}/ping` }, caller(true));
  t.equal(allowed.status, 200, 'FLOWSVC_ALLOW_PRIVATE_NETWORK=true lets it through');
});

t.test('unset, the public address is used and the guard applies to it', async (t) => {
  t.same(baseUrlOf(endpoint, {}), { url: 'https://api.example.com', configured: false });
  await t.rejects(serviceFetch('Example', baseUrlOf(endpoint, {}), { url: `${standIn.url}/ping` }, caller(false)), { message: /refused: 127.0.0.1 resolves to a loopback address/ });
});

t.test('a cancelled run rethrows its own reason, not a service error', async (t) => {
  standIn.mode = 'silent';
  const controller = new AbortController();
  const base = baseUrlOf(endpoint, { FLOWSVC_EXAMPLE_BASE_URL: standIn.url });
  const pending = serviceFetch('Example', base, { url: `${base.url}/ping` }, { signal: controller.signal });
  await standIn.nextRequest();
  controller.abort(new Error('stopped by the user'));
  await t.rejects(pending, { message: 'stopped by the user' });
  standIn.mode = 'ok';
});
