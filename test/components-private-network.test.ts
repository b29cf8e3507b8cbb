/**
 * URL and API Request refuse the server's own network by default (FLOWSVC_ALLOW_PRIVATE_NETWORK=false): a stand-in
 * server on loopback, named in every spelling a URL allows, gets no request; allowed, the same URLs reach it.
 */
import t from 'tap';
import { apiRequest } from '../src/components/data/api-request.js';
import { urlComponent } from '../src/components/data/url.js';
import { PRIVATE_NETWORK_ALLOWED, runComponent, type RunOptions } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { httpFixture, type Handler, type HttpFixture } from './support/http-fixture.js';
import { startTestServer } from './support/server.js';

const ok: Handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('stand-in reached');
const v4 = await httpFixture({ '/': ok });
const v6 = await httpFixture({ '/': ok }, '::1');
t.teardown(async () => {
  await v4.close();
  await v6.close();
});

const port4 = new URL(v4.url).port;
/** [URL as typed, URL as the error names it, the stand-in it would reach] */
const LOOPBACK_URLS: [string, string, HttpFixture][] = [
  [`http://127.0.0.1:${port4}/`, `http://127.0.0.1:${port4}/`, v4],
  [`http://localhost:${port4}/`, `http://localhost:${port4}/`, v4],
  [`http://0x7f000001:${port4}/`, `http://127.0.0.1:${port4}/`, v4],
  [`http://2130706433:${port4}/`, `http://127.0.0.1:${port4}/`, v4],
  [`${v6.url}/`, `${v6.url}/`, v6],
];

const refusal = (url: string) => `Request to ${url} refused: it resolves to a loopback address (FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it)`;
const seenCount = () => v4.seen.length + v6.seen.length;
const fetchPage = (url: string, options: RunOptions = {}, params: Record<string, unknown> = {}) => runComponent(urlComponent, { urls: [url], ...params }, options);
const callApi = (url: string, options: RunOptions = {}) => runComponent(apiRequest, { url_input: url }, options);

t.test('by default, URL refuses every spelling of loopback and the stand-in gets no request', async (t) => {
  for (const [typed, named] of LOOPBACK_URLS) {
    await t.rejects(fetchPage(typed, {}, { continue_on_failure: false }), { name: 'ComponentError', message: refusal(named) }, typed);
    await t.rejects(fetchPage(typed), { name: 'ComponentError', message: `No page could be loaded: ${refusal(named)}` }, `${typed}, continuing on failure`);
  }
  t.equal(seenCount(), 0, 'no request arrived');
});

t.test('by default, API Request refuses every spelling of loopback and the stand-in gets no request', async (t) => {
  for (const [typed, named] of LOOPBACK_URLS) await t.rejects(callApi(typed), { name: 'ComponentError', message: refusal(named) }, typed);
  t.equal(seenCount(), 0, 'no request arrived');
});

t.test('cloud metadata addresses and names are refused without a connection or a lookup', async (t) => {
  const linkLocal = 'it resolves to a link-local address (where cloud metadata services answer)';
  await t.rejects(callApi('http://169.254.169.254/latest/meta-data/'), { message: `Request to http://169.254.169.254/latest/meta-data/ refused: ${linkLocal} (FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it)` });
  await t.rejects(callApi('http://[::ffff:169.254.169.254]/'), { message: `Request to http://[::ffff:a9fe:a9fe]/ refused: ${linkLocal} (FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it)` });
  await t.rejects(callApi('http://metadata.google.internal/computeMetadata/v1/'), { message: /^Request to http:\/\/metadata\.google\.internal\/computeMetadata\/v1\/ refused: it is a cloud metadata host name/ });
  await t.rejects(fetchPage('http://10.0.0.1/', {}, { continue_on_failure: false }), { message: /refused: it resolves to a private network address/ });
  await t.rejects(callApi(`http://0.0.0.0:${port4}/`), { message: /refused: it resolves to an unspecified address/ });
  t.equal(seenCount(), 0, 'no request arrived');
});

t.test('allowed, the same URLs reach the stand-in', async (t) => {
  const allowed = { network: PRIVATE_NETWORK_ALLOWED };
  for (const [typed, , standIn] of LOOPBACK_URLS) {
    const before = standIn.seen.length;
    t.equal((await fetchPage(typed, allowed)).raw_results.text, 'stand-in reached', `URL: ${typed}`);
    t.equal((await callApi(typed, allowed)).data.data.result, 'stand-in reached', `API Request: ${typed}`);
    t.equal(standIn.seen.length, before + 2);
  }
});

/** ChatInput -> URL -> ChatOutput: the URL is the chat text. */
const fetcherFlow = flow(
  'Fetcher',
  [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node('URL-u0001', 'URL', { continue_on_failure: { value: false } }, 'URL'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
  [edge('ChatInput-in001', 'message', 'URL-u0001', 'urls'), edge('URL-u0001', 'raw_results', 'ChatOutput-out01', 'input_value')],
);

t.test('a service run refuses by default: the run fails naming the component, the stand-in sees nothing', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, fetcherFlow);
  const before = seenCount();
  const reply = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: `http://localhost:${port4}/` } });
  t.not(reply.status, 200);
  const body = (await reply.json()) as { detail: string };
  t.match(body.detail, 'URL (URL-u0001)', 'the failing component is named');
  t.match(body.detail, refusal(`http://localhost:${port4}/`));
  t.notMatch(JSON.stringify(body), 'stand-in reached', 'no content leaks');
  t.equal(seenCount(), before, 'no request arrived');
});

t.test('a service run with FLOWSVC_ALLOW_PRIVATE_NETWORK=true reaches the stand-in', async (t) => {
  const server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'true' });
  t.teardown(() => server.close());
  const created = await createFlow(server, fetcherFlow);
  const before = v4.seen.length;
  const reply = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: `http://localhost:${port4}/` } });
  t.equal(reply.status, 200);
  t.match(JSON.stringify(await reply.json()), 'stand-in reached');
  t.equal(v4.seen.length, before + 1);
});
