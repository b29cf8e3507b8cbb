/**
 * The connection-level guard over real HTTP. Every server here is on loopback, so the guard is given an address
 * check that lets exactly one stand-in through (127.0.0.1, playing a public site) and a resolver stub (playing DNS):
 * what is tested is that each connection, redirects included, is checked, and goes to the address checked.
 */
import t from 'tap';
import * as undici from 'undici';
import { privateRangeOf } from '../src/components/shared/private-addresses.js';
import { privateNetworkGuard, refusalOf, type GuardOptions } from '../src/components/shared/private-network-guard.js';
import { httpFixture } from './support/http-fixture.js';

const internal = await httpFixture({ '/secret': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('internal only') }, '127.0.0.2');
const site = await httpFixture({
  '/start': (_req, res) => res.writeHead(302, { location: `${internal.url}/secret` }).end(),
  '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('public page'),
});
t.teardown(async () => {
  await site.close();
  await internal.close();
});

/** 127.0.0.1 passes as if public; every other address is judged as in production. */
const siteIsPublic = (address: string) => (address === '127.0.0.1' ? undefined : privateRangeOf(address));

async function fetchThrough(url: string, options: GuardOptions): Promise<{ status: number; text: string }> {
  const agent = privateNetworkGuard(undici, options);
  try {
    const response = await undici.fetch(url, { dispatcher: agent });
    return { status: response.status, text: await response.text() };
  } finally {
    await agent.close();
  }
}

t.test('a redirect from an allowed site to a private address is refused before connecting', async (t) => {
  const before = internal.seen.length;
  const error = await fetchThrough(`${site.url}/start`, { rangeOf: siteIsPublic }).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.match(refusalOf(error), { host: '127.0.0.2', reason: 'resolves to a loopback address' }, 'the redirect hop is the one refused');
  t.equal(site.seen.at(-1)?.url, '/start', 'the first hop was fetched');
  t.equal(internal.seen.length, before, 'the redirect target got no request');
});

t.test('control: with nothing refused, the same redirect reaches the internal server', async (t) => {
  const before = internal.seen.length;
  t.same(await fetchThrough(`${site.url}/start`, { rangeOf: () => undefined }), { status: 200, text: 'internal only' });
  t.equal(internal.seen.length, before + 1);
});

t.test('a name that resolves to a private address is refused; the server sees nothing', async (t) => {
  const before = site.seen.length;
  const port = new URL(site.url).port;
  const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
  const error = await fetchThrough(`http://rebind.test:${port}/page`, { resolve }).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.match(refusalOf(error), { host: 'rebind.test', reason: 'resolves to a loopback address' });
  t.equal(site.seen.length, before);
});

t.test('the connection goes to the checked address: the name is not looked up again', async (t) => {
  // public.test exists in no DNS: the request can only arrive if the socket used the address the stub gave.
  const port = new URL(site.url).port;
  const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
  t.same(await fetchThrough(`http://public.test:${port}/page`, { resolve, rangeOf: siteIsPublic }), { status: 200, text: 'public page' });
  t.equal(site.seen.at(-1)?.headers.host, `public.test:${port}`, 'the request still names its host');
});
