import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { apiRequest } from '../src/components/data/api-request.js';
import { createData } from '../src/values/data.js';
import { PRIVATE_NETWORK_ALLOWED, runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { closedPort, httpFixture } from './support/http-fixture.js';
import { startTestServer } from './support/server.js';

const api = await httpFixture({
  '/echo': (req, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'X-Served-By': 'fixture' }).end(JSON.stringify({ method: req.method, url: req.url, body: req.body || null, auth: req.headers.authorization ?? null })),
  '/text': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('plain answer'),
  '/bytes': (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 255])),
  '/missing': (_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"nope"}'),
  '/moved': (_req, res) => res.writeHead(302, { location: '/text' }).end(),
  '/slow': () => {},
});
t.teardown(() => api.close());

const call = async (params: Record<string, unknown>, edges?: Record<string, unknown>) => (await runComponent(apiRequest, params, { edges, network: PRIVATE_NETWORK_ALLOWED })).data.data;

t.test('GET, POST and friends: the answer as Data with status, headers and the parsed body', async (t) => {
  const get = await call({ url_input: `${api.url}/echo` });
  t.same(get.result, { method: 'GET', url: '/echo', body: null, auth: null });
  t.equal(get.status_code, 200);
  t.equal(get.source, `${api.url}/echo`);
  t.equal(get.response_headers['x-served-by'], 'fixture', 'response header names are lower-cased');

  const post = await call({ url_input: `${api.url}/echo`, method: 'POST', body: [{ key: 'name', value: 'Ada' }, { key: 'tags', value: '["a","b"]' }], headers: [{ key: 'Authorization', value: 'Bearer t0k3n' }] });
  t.same(JSON.parse(post.result.body), { name: 'Ada', tags: ['a', 'b'] }, 'body rows become a JSON object; JSON strings are sent as JSON');
  t.equal(post.result.auth, 'Bearer t0k3n');
  t.equal(api.seen.at(-1)!.headers['content-type'], 'application/json');

  const withQuery = await call({ url_input: `${api.url}/echo?keep=1` }, { query_params: createData({ q: 'search term', page: 2 }) });
  t.equal(withQuery.result.url, '/echo?keep=1&q=search+term&page=2');
  t.equal((await call({ url_input: `${api.url}/echo`, method: 'DELETE' })).result.body, null, 'DELETE without a body sends none');
  t.equal((await call({ url_input: `${api.url}/echo`, method: 'PUT' })).result.body, '{}', 'PUT always sends a JSON body');
  t.equal((await call({ url_input: `${api.url}/echo`, method: 'PATCH', body: { flat: 'object' } })).result.body, '{"flat":"object"}', 'a plain object is a body too');
  t.equal((await call({ url_input: `${api.url}/text` })).result, 'plain answer', 'a non-JSON body is its text');
  t.equal((await call({ url_input: `${api.url}/bytes` })).result, Buffer.from([0, 1, 2, 255]).toString('base64'), 'a binary body is base64');
  t.match(await call({ url_input: `${api.url}/missing` }), { status_code: 404, result: { detail: 'nope' } }, 'an HTTP error status is an answer');
  t.match(await call({ url_input: `${api.url}/moved` }), { status_code: 200, result: 'plain answer' });
  t.match(await call({ url_input: `${api.url}/moved`, follow_redirects: false }), { status_code: 302, response_headers: { location: '/text' } });
  t.same((await call({ url_input: `${api.url}/echo`, include_httpx_metadata: true })).headers, { 'User-Agent': 'Langflow/1.0' });
});

t.test('failures are errors naming the URL or the field', async (t) => {
  const port = await closedPort();
  await t.rejects(call({ url_input: `http://127.0.0.1:${port}/x` }), { name: 'ComponentError', message: `Request to http://127.0.0.1:${port}/x failed: ECONNREFUSED` });
  await t.rejects(call({ url_input: `${api.url}/slow`, timeout: 1 }), { message: `Request to ${api.url}/slow timed out after 1 s` });
  await t.rejects(call({ url_input: '' }), { message: 'Field "URL" (url_input): the URL is empty' });
  await t.rejects(call({ url_input: 'file:///etc/passwd' }), { message: /only http and https URLs/ });
  await t.rejects(call({ url_input: `${api.url}/echo`, method: 'FETCH' }), { message: /Field "Method" \(method\)/ });
  await t.rejects(call({ url_input: `${api.url}/echo`, body: [{ key: 'a', value: 1 }] }), { message: /Field "Body" \(body\): a GET request cannot carry a body/ });
  await t.rejects(call({ url_input: `${api.url}/echo`, headers: 'Authorization: x' }), { message: /Field "Headers" \(headers\)/ });
  await t.rejects(call({ url_input: `${api.url}/echo`, timeout: -5 }), { message: /Field "Timeout" \(timeout\)/ });
});

t.test('a flow through /api/v1/run calls the API with the chat text as URL and prints the Data', async (t) => {
  const server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'true' });
  t.teardown(() => server.close());
  const created = await createFlow(
    server,
    flow(
      'Caller',
      [
        node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'),
        node('APIRequest-a0001', 'APIRequest', { method: 'POST', body: { value: [{ key: 'ping', value: 'pong' }] } }, 'API Request'),
        node('ParserComponent-p0001', 'ParserComponent', { pattern: '{status_code} {result[body]}' }, 'Parser'),
        node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output'),
      ],
      [
        edge('ChatInput-in001', 'message', 'APIRequest-a0001', 'url_input'),
        edge('APIRequest-a0001', 'data', 'ParserComponent-p0001', 'input_data'),
        edge('ParserComponent-p0001', 'parsed_text', 'ChatOutput-out01', 'input_value'),
      ],
    ),
  );
  const reply = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run(`${api.url}/echo`);
  t.equal(reply.chatOutputText(), '200 {"ping":"pong"}');
});
