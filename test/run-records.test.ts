/**
 * Records of what ran through the real edge: every entry point (v1 run, v2 workflow, responses) leaves a trace with
 * a span per component and a transaction per component execution; pages, filters, refusals, ownership, deletion,
 * and records that survive a restart.
 */
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { openaiClient } from './support/responses.js';
import { startTestServer, type TestServer } from './support/server.js';
import { postWorkflow } from './support/workflows.js';
import { within } from './support/within.js';

const getJson = async (server: TestServer, path: string, key?: string) => {
  const res = await server.request(path, { key });
  return { status: res.status, body: await res.json() };
};

t.test('every entry point leaves a trace; spans, transactions and pages read as Langflow', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const echo = await createFlow(server, echoFlow('Echo records'));
  await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(echo.id).run('from v1', { session_id: 'S1' });
  const v2 = await postWorkflow(server, { flow_id: echo.id, inputs: { 'ChatInput-in001.input_value': 'from v2', 'ChatInput-in001.session_id': 'S2' } });
  const jobId = (await v2.json()).job_id;
  const response = await openaiClient(server).responses.create({ model: echo.id, input: 'from responses' });

  const list = await getJson(server, `/api/v1/monitor/traces?flow_id=${echo.id}`);
  t.equal(list.status, 200);
  t.equal(list.body.total, 3, 'one trace per run, whatever its entry point');
  t.equal(list.body.pages, 1);
  const inputs = list.body.traces.map((trace: any) => trace.input?.input_value);
  t.same(inputs, ['from responses', 'from v2', 'from v1'], 'newest first, each with the text it was asked');
  const byId = new Map(list.body.traces.map((trace: any) => [trace.id, trace]));
  t.ok(byId.has(jobId), 'a v2 run is traced under its job id');
  t.ok(byId.has(response.id), 'a responses run is traced under its response id');
  const [first] = list.body.traces;
  t.match(first, { name: `Echo records - ${echo.id}`, status: 'ok', flowId: echo.id, totalTokens: 0, output: { message: { text: 'from responses' } } });
  t.ok(Number.isInteger(first.totalLatencyMs) && first.totalLatencyMs >= 0);
  t.ok(!Number.isNaN(Date.parse(first.startTime)));

  const detail = await getJson(server, `/api/v1/monitor/traces/${jobId}`);
  t.equal(detail.status, 200);
  t.same(detail.body.spans.map((span: any) => span.name), ['Chat Input', 'Chat Output'], 'a span per component, in the order they ran');
  t.match(detail.body.spans[1], { type: 'chain', status: 'ok', error: null, tokenUsage: null, inputs: { input_value: { text: 'from v2' } }, outputs: { message: { text: 'from v2' } } });
  t.equal(detail.body.sessionId, 'S2');
  t.ok(detail.body.endTime >= detail.body.startTime);

  const sessions = await getJson(server, `/api/v1/monitor/traces?session_id=S1`);
  t.same(sessions.body.traces.map((trace: any) => trace.input.input_value), ['from v1'], 'filtered by session');
  const paged = await getJson(server, `/api/v1/monitor/traces?flow_id=${echo.id}&size=2&page=2`);
  t.match(paged.body, { total: 3, pages: 2 });
  t.equal(paged.body.traces.length, 1);

  const transactions = await getJson(server, `/api/v1/monitor/transactions?flow_id=${echo.id}&page=1&size=4`);
  t.equal(transactions.status, 200);
  t.match(transactions.body, { total: 6, page: 1, size: 4, pages: 2 });
  t.equal(transactions.body.items.length, 4);
  t.match(transactions.body.items[0], { vertex_id: 'ChatInput-in001', target_id: 'ChatOutput-out01', status: 'success', error: null, flow_id: echo.id, inputs: { input_value: 'from v1' } });
  t.match(transactions.body.items[1], { vertex_id: 'ChatOutput-out01', target_id: null, outputs: { message: { text: 'from v1' } } });
  const beyond = await getJson(server, `/api/v1/monitor/transactions?flow_id=${echo.id}&page=9&size=4`);
  t.match(beyond.body, { items: [], total: 6, page: 9 });
});

t.test('bad input and other users: 422 and 404, never a crash', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const echo = await createFlow(server, echoFlow('Echo private'));
  await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(echo.id).run('secret');
  const [trace] = (await getJson(server, '/api/v1/monitor/traces')).body.traces;

  for (const query of ['page=0', 'size=0', 'size=201', 'page=x']) {
    const res = await getJson(server, `/api/v1/monitor/traces?${query}`);
    t.equal(res.status, 422, query);
    t.match(res.body.detail[0], { loc: ['query', query.split('=')[0]], msg: String, type: String });
  }
  t.equal((await getJson(server, `/api/v1/monitor/transactions?flow_id=${echo.id}&size=101`)).status, 422, 'Langflow caps a page at 100');
  t.equal((await getJson(server, '/api/v1/monitor/transactions')).status, 422, 'flow_id is required');
  t.equal((await getJson(server, `/api/v1/monitor/traces/${'x'.repeat(401)}`)).status, 422, 'ids are bounded');
  const unknown = await getJson(server, '/api/v1/monitor/traces/00000000-0000-0000-0000-000000000000');
  t.same(unknown, { status: 404, body: { detail: 'Trace not found' } });
  t.equal((await getJson(server, '/api/v1/monitor/traces?flow_id=nope')).status, 404);

  const other = await createUserWithKey(server, 'other-records');
  t.equal((await getJson(server, `/api/v1/monitor/traces?flow_id=${echo.id}`, other.apiKey)).status, 404, "another user's flow is not found");
  t.equal((await getJson(server, `/api/v1/monitor/transactions?flow_id=${echo.id}`, other.apiKey)).status, 404);
  t.equal((await getJson(server, `/api/v1/monitor/traces/${trace.id}`, other.apiKey)).status, 404, "another user's trace is not found");
  t.same((await getJson(server, '/api/v1/monitor/traces', other.apiKey)).body, { traces: [], total: 0, pages: 1 });
  const theirDelete = await server.request(`/api/v1/monitor/traces/${trace.id}`, { method: 'DELETE', key: other.apiKey });
  t.equal(theirDelete.status, 404);
  t.equal((await getJson(server, `/api/v1/monitor/traces/${trace.id}`)).status, 200, 'still there for its owner');
  t.equal((await server.request('/api/v1/monitor/traces', { key: null })).status, 403);
});

t.test('deleting: one trace, a flow\'s traces, a deleted flow\'s records', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const flow = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const kept = await createFlow(server, echoFlow('Kept'));
  const cleared = await createFlow(server, echoFlow('Cleared'));
  for (const id of [kept.id, kept.id, cleared.id]) await flow.flow(id).run('x');

  const [one] = (await getJson(server, `/api/v1/monitor/traces?flow_id=${kept.id}`)).body.traces;
  t.equal((await server.request(`/api/v1/monitor/traces/${one.id}`, { method: 'DELETE' })).status, 204);
  t.equal((await getJson(server, `/api/v1/monitor/traces/${one.id}`)).status, 404);
  t.match((await getJson(server, `/api/v1/monitor/transactions?flow_id=${kept.id}`)).body, { total: 2 }, "the trace's transactions went with it");

  t.equal((await server.request(`/api/v1/monitor/traces?flow_id=${cleared.id}`, { method: 'DELETE' })).status, 204);
  t.match((await getJson(server, `/api/v1/monitor/traces?flow_id=${cleared.id}`)).body, { total: 0 });
  t.match((await getJson(server, `/api/v1/monitor/transactions?flow_id=${cleared.id}`)).body, { total: 0 });
  t.match((await getJson(server, `/api/v1/monitor/traces?flow_id=${kept.id}`)).body, { total: 1 }, 'other flows keep theirs');

  t.equal((await server.request(`/api/v1/flows/${kept.id}`, { method: 'DELETE' })).status, 200);
  t.same(await server.services.store.runRecords.traceIndex(server.services.superuserId), [], "a deleted flow's traces go");
  t.same(await server.services.store.runRecords.traceIndex(server.services.superuserId, kept.id), [], 'and so do its transactions, its traces\' spans');
});

t.test('records survive a restart; retention removes them', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-records-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startTestServer({}, dataDir);
  const echo = await createFlow(first, echoFlow('Durable'));
  await new LangflowClient({ baseUrl: first.url, apiKey: first.apiKey }).flow(echo.id).run('before restart');
  // Stopped right after the answer: what the run recorded is written by the shutdown, not lost with it.
  await first.stop();

  const second = await startTestServer({ TRACE_RETENTION_DAYS: '0.00001' }, dataDir);
  t.teardown(() => second.stop());
  const list = await getJson(second, `/api/v1/monitor/traces?flow_id=${echo.id}`);
  t.equal(list.body.total, 1);
  t.equal(list.body.traces[0].input.input_value, 'before restart');
  t.match((await getJson(second, `/api/v1/monitor/transactions?flow_id=${echo.id}`)).body, { total: 2 });

  // Under a second of retention now: the first sweep after it passes removes this run's records, not the first's.
  await new LangflowClient({ baseUrl: second.url, apiKey: second.apiKey }).flow(echo.id).run('short-lived');
  const removed = await second.services.records.nextExpiry();
  t.ok(removed >= 1, 'the sweep removed expired traces');
  const left = await getJson(second, `/api/v1/monitor/traces?flow_id=${echo.id}`);
  t.same(left.body.traces.map((trace: any) => trace.input.input_value), ['before restart'], 'what was kept for longer stays');
  t.match((await getJson(second, `/api/v1/monitor/transactions?flow_id=${echo.id}`)).body, { total: 2 });
});

t.test('traces are written on their own after runs end, with no read asking for them', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const echo = await createFlow(server, echoFlow('Echo written'));
  const repo = server.services.store.runRecords;
  const [prepare, put] = [repo.prepare.bind(repo), repo.put.bind(repo)];
  const asked = new Map<string, string>();
  const written = new Set<string>();
  let allWritten!: () => void;
  const done = new Promise<void>((resolve) => (allWritten = resolve));
  let expected: string[] | undefined;
  // Watching the store's writes, not reading through the service: a read would write what is queued first.
  repo.prepare = (trace) => {
    asked.set(trace.id, trace.record().input ?? '');
    return prepare(trace);
  };
  repo.put = (traces, expiresAt) => {
    for (const trace of traces) written.add(asked.get(trace.id) ?? '');
    if (expected?.every((input) => written.has(input))) allWritten();
    return put(traces, expiresAt);
  };
  const flow = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(echo.id);
  const inputs = ['first', 'second', 'third'];
  await Promise.all(inputs.map((input) => flow.run(input, { session_id: 'W' })));
  expected = inputs;
  if (inputs.every((input) => written.has(input))) allWritten();
  await within(done, 'the traces of three runs written');
  t.same([...written].sort(), [...inputs].sort());
  const list = await getJson(server, `/api/v1/monitor/traces?flow_id=${echo.id}`);
  t.equal(list.body.total, 3, 'and read back');
});
