/**
 * GET /metrics (FLOWSVC_PROMETHEUS_ENABLED): a 404 when off; when on, through real HTTP, requests counted under
 * their route pattern (never the URL asked for), runs by final status, event-loop lag, store commits, and the
 * open-streams gauge up while a run's stream is open and down once it has ended.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { startModelServer } from './support/model-server.js';
import { KEY_HEADER, readFrames } from './support/failure-cases.js';
import { parseExposition, valueOf, type Sample } from './support/prometheus-text.js';
import { startTestServer, type TestServer } from './support/server.js';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { NO_METRICS } from '../src/observability/metrics.js';

const ON = { PROMETHEUS_ENABLED: 'true' };
const RUN_ROUTE = '/api/v1/run/{flow_id_or_name}';

/** A scrape as Prometheus makes it: no API key. */
async function scrape(server: TestServer): Promise<Sample[]> {
  const res = await server.request('/metrics', { key: null });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return parseExposition(await res.text());
}

t.test('off (the default): /metrics is a 404 like any path not served, and nothing is counted', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  t.equal(server.services.metrics, NO_METRICS, 'the no-op metrics: requests and runs pay one empty call');
  const res = await server.request('/metrics', { key: null });
  t.equal(res.status, 404);
  t.same(await res.json(), { detail: 'Not Found' });
});

t.test('on: requests by route pattern, runs by final status, event-loop lag, store commits', async (t) => {
  const server = await startTestServer(ON);
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow());
  for (const input of ['one', 'two']) {
    const run = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: input } });
    t.equal(run.status, 200, 'the echo run answered');
    await run.arrayBuffer();
  }
  const missing = await server.request(`/api/v1/no-such-thing/${created.id}`, { key: null });
  t.equal(missing.status, 404);
  const unauthorized = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'x' }, key: 'sk-wrong-key-0123456789' });
  t.equal(unauthorized.status, 403, 'a wrong key is refused');

  const res = await server.request('/metrics', { key: null });
  t.equal(res.status, 200, 'open to a scraper without a key');
  t.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const samples = parseExposition(await res.text());

  const requests = (labels: Record<string, string>) => valueOf(samples, 'flowsvc_http_requests_total', labels);
  t.equal(requests({ method: 'POST', route: RUN_ROUTE, status: '200' }), 2, 'both runs, under the route pattern');
  t.equal(requests({ method: 'POST', route: RUN_ROUTE, status: '403' }), 1, 'the refused run, by its status');
  t.equal(requests({ method: 'GET', route: 'unmatched', status: '404' }), 1, 'a path no route serves');
  t.equal(valueOf(samples, 'flowsvc_http_request_duration_seconds_count', { method: 'POST', route: RUN_ROUTE }), 3, 'each run timed');
  const routes = new Set(samples.filter((s) => s.name.startsWith('flowsvc_http_')).map((s) => s.labels.route));
  t.equal(requests({ method: 'POST', route: '/api/v1/flows', status: '201' }), 1, 'the flow creation too (asked for as /api/v1/flows/)');
  t.notOk([...routes].some((route) => route.includes(created.id)), 'no URL with an id is a route label');

  t.equal(valueOf(samples, 'flowsvc_runs_total', { status: 'completed' }), 2, 'both runs completed');
  for (const status of ['failed', 'cancelled', 'timed_out']) t.equal(valueOf(samples, 'flowsvc_runs_total', { status }), 0, `none ${status}`);
  t.equal(valueOf(samples, 'flowsvc_runs_active', { status: 'in_progress' }), 0, 'none running now');
  t.equal(valueOf(samples, 'flowsvc_runs_active', { status: 'queued' }), 0, 'none queued');

  t.type(valueOf(samples, 'nodejs_eventloop_lag_seconds'), 'number', 'event-loop lag reported');
  t.ok(valueOf(samples, 'flowsvc_store_commit_seconds_count')! > 0, 'store commits timed');
  t.equal(valueOf(samples, 'flowsvc_open_streams'), 0, 'no stream open');

  const again = await scrape(server);
  t.equal(valueOf(again, 'flowsvc_http_requests_total', { method: 'GET', route: '/metrics', status: '200' }), 1, 'the scrape itself is counted');
  // prom-client measures the lag as a scrape is collected and reports it at the next one (the first says 0).
  const lag = valueOf(again, 'nodejs_eventloop_lag_seconds');
  t.ok(lag !== undefined && lag > 0 && lag < 1, `event-loop lag measured (${lag} s)`);
  t.type(valueOf(again, 'nodejs_eventloop_lag_p99_seconds'), 'number', 'and its distribution since the last scrape');

  const spec = await (await server.request('/openapi.json', { key: null })).json();
  t.notOk('/metrics' in spec.paths, 'not listed in /openapi.json (not part of the Langflow API)');
});

t.test('on: the open-streams gauge counts a run stream while it is open, and not once it has ended', async (t) => {
  const model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  const server = await startTestServer({ ...ON, FALLBACK_TO_ENV_VAR: 'false' });
  t.teardown(async () => {
    await server.close();
    await model.close();
  });
  const created = await createFlow(server, chatModelFlow('Slow', 'LanguageModelComponent', openaiModelTemplate()));
  // The model answers slowly (50 tokens, 40 ms apart), so the stream is open for two seconds at least.
  model.script({ tokens: Array.from({ length: 50 }, (_, i) => ` t${i}`), tokenDelayMs: 40 });

  const stream = await server.request(`/api/v1/run/${created.id}?stream=true`, { method: 'POST', json: { input_value: 'hi' }, headers: KEY_HEADER });
  t.equal(stream.status, 200, 'the stream started');
  // The gauge goes up as the reply's head is written, before the client can see the head.
  t.equal(valueOf(await scrape(server), 'flowsvc_open_streams'), 1, 'one stream open');

  const frames = await readFrames(stream);
  t.equal(frames.at(-1)?.event, 'end', 'the stream ran to its end');
  // The gauge goes down before the stream's end is sent.
  const after = await scrape(server);
  t.equal(valueOf(after, 'flowsvc_open_streams'), 0, 'no stream open once it ended');
  t.equal(valueOf(after, 'flowsvc_http_requests_total', { method: 'POST', route: RUN_ROUTE, status: '200' }), 1, 'the stream counted once it ended');
  t.equal(valueOf(after, 'flowsvc_runs_total', { status: 'completed' }), 1, 'the streamed run completed');
});

t.test('on: both HTTP servers count their requests (the count is in the dispatch they share)', async (t) => {
  for (const adapter of SERVABLE_ADAPTERS) {
    const server = await startTestServer({ ...ON, HTTP_SERVER: adapter });
    t.teardown(() => server.close());
    t.equal(server.adapter, adapter);
    for (const path of ['/health', '/health', '/api/v1/flows/not-an-id']) await (await server.request(path, { key: null })).arrayBuffer();
    const preflight = await server.request('/api/v1/flows/', { method: 'OPTIONS', key: null, headers: { origin: 'http://example.com', 'access-control-request-method': 'POST' } });
    t.equal(preflight.status, 204);
    const samples = await scrape(server);
    t.equal(valueOf(samples, 'flowsvc_http_requests_total', { method: 'GET', route: '/health', status: '200' }), 2, `${adapter}: /health twice`);
    t.equal(valueOf(samples, 'flowsvc_http_requests_total', { method: 'OPTIONS', route: 'unmatched', status: '204' }), 1, `${adapter}: a preflight`);
    const byId = samples.find((s) => s.name === 'flowsvc_http_requests_total' && s.labels.route === '/api/v1/flows/{flow_id}');
    t.ok(byId && byId.labels.status !== '200', `${adapter}: a bad id is counted under the pattern, with its error status (${byId?.labels.status})`);
  }
});
