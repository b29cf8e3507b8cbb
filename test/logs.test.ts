/**
 * /logs and /logs-stream through @datastax/langflow-client: the service's own log lines from its in-memory ring,
 * superuser only, and only when FLOWSVC_ENABLE_LOG_RETRIEVAL is on.
 */
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';
import { postWorkflow } from './support/workflows.js';

t.test('logs on: fetch and stream with the Langflow client', async (t) => {
  // The client (0.4.1) sends no API key to /logs and /logs-stream (it checks its headers against undici's Headers
  // class, and its logs code makes the global one), so it reaches them as Langflow's local default does: auto-login
  // with FLOWSVC_SKIP_AUTH_AUTO_LOGIN, where a request without a key acts as the superuser.
  const server = await startTestServer({ ENABLE_LOG_RETRIEVAL: 'true', LOG_LEVEL: 'info', LOG_RETRIEVER_BUFFER_SIZE: '50', SKIP_AUTH_AUTO_LOGIN: 'true' });
  t.teardown(() => server.close());
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const flow = await createFlow(server, echoFlow('Logs'));
  // A deprecated header makes the service log a warning: a line of its own on demand.
  const logWarning = () => postWorkflow(server, { flow_id: flow.id, inputs: { 'ChatInput-in001.input_value': 'x' } }, { headers: { 'X-LANGFLOW-GLOBAL-VAR-SOMETHING': 'v' } });
  await logWarning();
  await logWarning();

  const recent = await client.logs.fetch();
  t.ok(recent.length >= 3 && recent.length <= 10, 'the last lines, ten at most by default');
  t.ok(recent.some((log) => log.message.includes('serving with')), "the service's own start-up line is there");
  t.ok(recent.every((log) => log.timestamp instanceof Date && !Number.isNaN(log.timestamp.getTime())));
  const [last] = await client.logs.fetch({ lines_before: 1 });
  t.same(last, recent[recent.length - 1], 'lines_before=1: the newest line');
  const from = await client.logs.fetch({ timestamp: recent[0].timestamp.getTime(), lines_after: 2 });
  t.same(from, recent.slice(0, 2), 'lines_after counts from the timestamp on');
  const before = await client.logs.fetch({ timestamp: recent[1].timestamp.getTime(), lines_before: 5 });
  t.same(before, [recent[0]], 'lines_before stops short of the timestamp');

  const stream = await client.logs.stream();
  const reader = stream.getReader();
  await logWarning();
  let seen = '';
  while (!seen.includes('deprecated')) {
    const { value, done } = await reader.read();
    if (done) break;
    seen = value.message;
  }
  t.match(seen, /GLOBAL-VAR.*deprecated/, 'a line logged after the stream opened arrives on it');
  await reader.cancel();

  const both = await server.request('/logs?lines_before=1&lines_after=1&timestamp=5');
  t.same({ status: both.status, body: await both.json() }, { status: 400, body: { detail: 'Cannot request logs before and after the timestamp' } });
  const noTimestamp = await server.request('/logs?lines_after=3');
  t.same({ status: noTimestamp.status, body: await noTimestamp.json() }, { status: 400, body: { detail: 'Timestamp is required when requesting logs after the timestamp' } });
  const notInt = await server.request('/api/logs?timestamp=soon');
  t.equal(notInt.status, 422);
  t.match((await notInt.json()).detail[0], { loc: ['query', 'timestamp'] });
  t.equal((await server.request('/api/logs')).status, 200, 'also served under /api');

  const other = await createUserWithKey(server, 'not-a-superuser');
  for (const path of ['/logs', '/logs-stream']) {
    const res = await server.request(path, { key: other.apiKey });
    t.equal(res.status, 403, `${path}: superusers only`);
    await res.body?.cancel();
  }
});

t.test('logs off (the default): not served at all', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  for (const path of ['/logs', '/logs-stream', '/api/logs']) t.equal((await server.request(path)).status, 404, path);
  t.notOk(server.services.logRing, 'no lines are kept');
});
