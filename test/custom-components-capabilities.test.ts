/**
 * The optional capabilities of custom components, through the real edge: `fetch` reaches the allow-listed hosts
 * only, and `readFile` reads the caller's own uploads only. Without the settings neither exists (see the escape
 * test in custom-sandbox.test.ts).
 */
import t from 'tap';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { httpFixture } from './support/http-fixture.js';
import { startTestServer } from './support/server.js';
import { customFlow, customSource } from './support/custom-sources.js';

const run = (server: Awaited<ReturnType<typeof startTestServer>>, id: string, input: string, key?: string) =>
  server.request(`/api/v1/run/${id}`, { method: 'POST', json: { input_value: input }, key }).then(async (res) => ({ status: res.status, body: await res.json() }));
const text = (reply: { body: any }) => reply.body.outputs[0].outputs[0].results.message.text as string;

t.test('fetch reaches an allowed host and is refused any other', async (t) => {
  const site = await httpFixture({ '/hello': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.method} ${req.body}`) });
  t.teardown(() => site.close());
  const port = new URL(site.url).port;
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true', CUSTOM_COMPONENT_FETCH_HOSTS: '127.0.0.1', ALLOW_PRIVATE_NETWORK: 'true' });
  t.teardown(() => server.close());
  const fetcher = customSource(`async run(i) {
    try {
      const res = await fetch(i.text, { method: 'POST', body: 'ping' });
      return { out: res.status + ' ' + res.text };
    } catch (error) { return { out: 'refused: ' + error.message }; }
  }`);
  const flow = await createFlow(server, customFlow('fetcher', fetcher, 'out', 'Fetcher'));
  t.equal(text(await run(server, flow.id, `http://127.0.0.1:${port}/hello`)), '200 hello POST ping');
  t.match(text(await run(server, flow.id, `http://localhost:${port}/hello`)), /^refused: fetch: localhost is not an allowed host/);
  t.match(text(await run(server, flow.id, 'file:///etc/passwd')), /^refused: fetch: only http and https/);
  t.equal(site.seen.length, 1, 'only the allowed request reached a server');
});

t.test("readFile reads the caller's own upload and nothing else", async (t) => {
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true', CUSTOM_COMPONENT_READ_FILES: 'true' });
  t.teardown(() => server.close());
  const uploaded = await (await server.request('/api/v2/files', { method: 'POST', body: formWith('Opening hours: 9 to 5.') })).json();
  const reader = customSource(`async run(i) {
    try { return { out: await readFile(i.text) }; } catch (error) { return { out: 'refused: ' + error.message }; }
  }`);
  const flow = await createFlow(server, customFlow('reader', reader, 'out', 'Reader'));
  t.equal(text(await run(server, flow.id, uploaded.path)), 'Opening hours: 9 to 5.');
  t.match(text(await run(server, flow.id, '/etc/passwd')), /^refused: /);

  const other = await secondUser(server);
  const theirs = await createFlow(server, customFlow('reader', reader, 'out', 'Reader'), other.key);
  t.match(text(await run(server, theirs.id, uploaded.path, other.key)), /^refused: /, "another user's run cannot read it");
});

function formWith(content: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([content]), 'faq.md');
  return form;
}
