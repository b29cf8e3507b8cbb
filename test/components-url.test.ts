import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { urlComponent } from '../src/components/data/url.js';
import { PRIVATE_NETWORK_ALLOWED, runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { closedPort, httpFixture, type Handler } from './support/http-fixture.js';
import { startTestServer } from './support/server.js';

const html = (title: string, body: string): Handler => (_req, res) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="About ${title}"></head><body>${body}</body></html>`);

const site = await httpFixture({
  '/': html('Home', '<h1>Welcome</h1><a href="/a">A</a> <a href="b#frag">B</a> <a href="https://elsewhere.invalid/">out</a> <a href="mailto:x@y">mail</a>'),
  '/a': html('Page A', '<p>Alpha</p><a href="/a/deep">deeper</a>'),
  '/b': html('Page B', '<p>Beta</p><a href="/">home</a>'),
  '/a/deep': html('Deep', '<p>Deep down</p>'),
  '/plain': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('just text'),
  '/teapot': (_req, res) => res.writeHead(418, { 'content-type': 'text/plain' }).end('short and stout'),
  '/slow': () => {},
});
t.teardown(() => site.close());

// The stand-in site is on 127.0.0.1: these tests opt in to private addresses (components-private-network.test.ts checks the default).
const fetchPages = (params: Record<string, unknown>) => runComponent(urlComponent, params, { network: PRIVATE_NETWORK_ALLOWED });

t.test('depth 1 fetches the pages themselves, as text with their metadata', async (t) => {
  const { page_results, raw_results } = await fetchPages({ urls: [`${site.url}/`, `${site.url}/plain`] });
  t.same(page_results.rows, [
    { text: 'Home\nWelcome\nA B out mail', url: `${site.url}/`, title: 'Home', description: 'About Home', content_type: 'text/html; charset=utf-8', language: 'en' },
    { text: 'just text', url: `${site.url}/plain`, title: '', description: '', content_type: 'text/plain', language: '' },
  ]);
  t.equal(raw_results.text, 'Home\nWelcome\nA B out mail\n\njust text');
  const raw = await fetchPages({ urls: `${site.url}/a`, format: 'HTML' });
  t.match(raw.raw_results.text, /^<!doctype html><html lang="en">/, 'HTML format keeps the markup');
  t.match(site.seen.at(-1)!.headers['user-agent'], 'Langflow/1.0', 'the default headers are sent');
});

t.test('deeper crawls follow links inside the root, once each', async (t) => {
  const depth2 = await fetchPages({ urls: [`${site.url}/`], max_depth: 2 });
  t.same(depth2.page_results.rows.map((r: { title: string }) => r.title), ['Home', 'Page A', 'Page B']);
  const depth3 = await fetchPages({ urls: [`${site.url}/`], max_depth: 3 });
  t.same(depth3.page_results.rows.map((r: { title: string }) => r.title), ['Home', 'Page A', 'Page B', 'Deep'], 'the link back home is not fetched again');
  const fromA = await fetchPages({ urls: [`${site.url}/b`], max_depth: 2 });
  t.same(fromA.page_results.rows.map((r: { title: string }) => r.title), ['Page B'], 'links outside the root URL are not followed');
  const outside = await fetchPages({ urls: [`${site.url}/b`], max_depth: 2, prevent_outside: false });
  t.same(outside.page_results.rows.map((r: { title: string }) => r.title), ['Page B', 'Home']);
});

t.test('failures name the URL', async (t) => {
  const port = await closedPort();
  await t.rejects(fetchPages({ urls: [`http://127.0.0.1:${port}/`] }), { name: 'ComponentError', message: `No page could be loaded: Request to http://127.0.0.1:${port}/ failed: ECONNREFUSED` });
  await t.rejects(fetchPages({ urls: [`http://127.0.0.1:${port}/`], continue_on_failure: false }), { message: `Request to http://127.0.0.1:${port}/ failed: ECONNREFUSED` });
  await t.rejects(fetchPages({ urls: [`${site.url}/slow`], timeout: 1 }), { message: `No page could be loaded: Request to ${site.url}/slow timed out after 1 s` });
  await t.rejects(fetchPages({ urls: [`${site.url}/teapot`], check_response_status: true }), { message: /Request to .*\/teapot answered HTTP 418/ });
  t.equal((await fetchPages({ urls: [`${site.url}/teapot`] })).raw_results.text, 'short and stout', 'without the status check an error page is content');
  await t.rejects(fetchPages({ urls: ['ftp://example.com/file'] }), { message: /Field "URLs" \(urls\): only http and https URLs/ });
  await t.rejects(fetchPages({ urls: ['http://exa mple.com'] }), { message: /Field "URLs" \(urls\): invalid URL/ });
  await t.rejects(fetchPages({ urls: [] }), { message: 'Field "URLs" (urls): no URL given' });
  await t.rejects(fetchPages({ urls: [`${site.url}/`], max_depth: 9 }), { message: /Field "Depth" \(max_depth\)/ });
});

t.test('a cancelled run stops the fetch', async (t) => {
  const controller = new AbortController();
  const pending = runComponent(urlComponent, { urls: [`${site.url}/slow`] }, { signal: controller.signal, network: PRIVATE_NETWORK_ALLOWED });
  setTimeout(() => controller.abort(new Error('run cancelled')), 50);
  await t.rejects(pending, { message: 'run cancelled' });
});

t.test('a flow through /api/v1/run fetches the URL typed in the chat', async (t) => {
  const server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'true' });
  t.teardown(() => server.close());
  const created = await createFlow(
    server,
    flow(
      'Fetcher',
      [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node('URL-u0001', 'URL', {}, 'URL'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
      [edge('ChatInput-in001', 'message', 'URL-u0001', 'urls'), edge('URL-u0001', 'raw_results', 'ChatOutput-out01', 'input_value')],
    ),
  );
  const reply = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run(`${site.url}/a`);
  t.equal(reply.chatOutputText(), 'Page A\nAlpha\ndeeper');
});
