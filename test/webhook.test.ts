import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { jobsEnded } from './support/runs.js';
import { startTestServer } from './support/server.js';

t.test('webhook: 202 with a job id; empty body 400; unknown flow 404; Langflow auth rules', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(server, echoFlow('Hooked', { endpoint_name: 'hooked' }));
  const accepted: string[] = [];
  const post = (target: string, body: string | undefined, key?: string | null) =>
    server.request(`/api/v1/webhook/${target}`, { method: 'POST', body, key, headers: body === undefined ? {} : { 'content-type': 'application/json' } });

  const started = await post(created.id, '{"event":"push"}');
  t.equal(started.status, 202);
  const reply = await started.json();
  t.equal(reply.message, 'Task started in the background');
  t.equal(reply.status, 'in progress');
  t.match(reply.job_id, /^[0-9a-f-]{36}$/, 'a job id comes back');
  const byName = await post('hooked', 'not json at all');
  t.equal(byName.status, 202, 'any body, by endpoint name');
  accepted.push(reply.job_id, (await byName.json()).job_id);

  const empty = await post(created.id, undefined);
  t.equal(empty.status, 400);
  t.match((await empty.json()).detail, /Request body is empty/);
  t.equal((await post('no-such-flow', '{}')).status, 404);

  const noKey = await post(created.id, '{}', null);
  t.equal(noKey.status, 403);
  t.same(await noKey.json(), { detail: 'API key required when webhook authentication is enabled' });
  const badKey = await post(created.id, '{}', 'sk-wrong');
  t.same(await badKey.json(), { detail: 'Invalid API key' });
  const other = await createUserWithKey(server, 'other');
  const foreign = await post(created.id, '{}', other.apiKey);
  t.equal(foreign.status, 403);
  t.same(await foreign.json(), { detail: 'Access denied: You can only execute webhooks for flows you own' });

  // The background runs (the two accepted posts) store their messages under the flow's session.
  t.same(await jobsEnded(server, accepted), ['completed', 'completed'], 'the accepted posts ran');
  t.ok((await server.services.store.messages.scan(created.id)).length >= 4, 'the flow ran in the background');
});

t.test('webhook with authentication disabled runs a flow with a Webhook component as its owner without a key', async (t) => {
  const server = await startTestServer({ WEBHOOK_AUTH_ENABLE: 'false' });
  t.teardown(() => server.close());
  const { flow, node, edge } = await import('./support/langflow-json.js');
  const hook = flow('Open', [node('Webhook-hook1', 'Webhook', {}, 'Webhook'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')], [edge('Webhook-hook1', 'output_data', 'ChatOutput-out01', 'input_value')], { endpoint_name: 'open-hook' });
  const created = await createFlow(server, hook);
  const res = await server.request('/api/v1/webhook/open-hook', { method: 'POST', body: '{"a":1}', key: null });
  t.equal(res.status, 202);
  const plain = await createFlow(server, echoFlow('No hook', { endpoint_name: 'no-hook' }));
  for (const target of ['no-hook', plain.id]) {
    const refused = await server.request(`/api/v1/webhook/${target}`, { method: 'POST', body: '{"a":1}', key: null });
    t.equal(refused.status, 404, 'a flow its owner gave no Webhook component is not run without a key');
    t.same(await refused.json(), { detail: 'Flow not found' });
  }
  const unknown = await server.request('/api/v1/webhook/00000000-0000-4000-8000-000000000000', { method: 'POST', body: '{}', key: null });
  t.equal(unknown.status, 404);
  t.same(await unknown.json(), { detail: 'Flow not found' });
  t.ok(created.id);
});

t.test('the body reaches every Webhook component: JSON parsed, anything else under payload', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { flow, node, edge } = await import('./support/langflow-json.js');
  const created = await createFlow(
    server,
    flow('Hook to chat', [node('Webhook-hook1', 'Webhook', {}, 'Webhook'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')], [edge('Webhook-hook1', 'output_data', 'ChatOutput-out01', 'input_value')]),
  );
  /** Posts a body, waits for its run to end, and gives the texts the flow's runs stored so far. */
  const stored = async (body: string) => {
    const { job_id } = await (await server.request(`/api/v1/webhook/${created.id}`, { method: 'POST', body })).json();
    await jobsEnded(server, [job_id]);
    return (await server.services.store.messages.scan(created.id)).map((m) => m.text);
  };
  const [first] = await stored('{"event":"push","n":1}');
  t.match(first, /"event": "push"/, 'the JSON body became the Webhook output');
  const texts = await stored('plain text');
  t.match(texts[1], /"payload": "plain text"/, 'a non-JSON body is wrapped under payload');
});
