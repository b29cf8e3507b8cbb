/**
 * A background job queued on one instance and run by another keeps its request's header variables
 * (X-FLOWSVC-GLOBAL-VAR-*): they travel sealed with its record, and the model called by the instance that claimed
 * it hears the key the client sent to the first.
 */
import t from 'tap';
import { startModelServer } from '../test/support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from '../test/support/model-flows.js';
import { ownerOf, submitBackground, untilTerminal } from './support/background-jobs.js';
import { startCluster } from './support/cluster.js';
import { expectJson } from './support/instances.js';

t.test('a job queued on A with a header key runs on B with that key', async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 2, { OPENAI_BASE_URL: model.baseURL, FLOWSVC_JOB_CONCURRENCY: '1' });
  const [a, b] = cluster.instances;
  const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Header key', 'LanguageModelComponent', openaiModelTemplate()) }), 201);

  model.script({ tokens: Array.from({ length: 300 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const holding = model.nextChat();
  const holder = await submitBackground(a, flow.id, 'holding A');
  await holding;
  t.equal(await ownerOf(cluster.databaseUrl, holder, cluster.instances), a, 'A runs the first job: its only slot is taken');

  const headers = { 'X-FLOWSVC-GLOBAL-VAR-OPENAIKEY': 'sk-from-header' };
  const queued = await expectJson(await a.call('/api/v2/workflows', { method: 'POST', headers, json: { flow_id: flow.id, background: true, inputs: { 'ChatInput-in001.input_value': 'queued on A' } } }), 200);
  const [final] = (await untilTerminal(b, [queued.job_id])).values();
  t.equal(final.status, 'completed');
  t.equal(await ownerOf(cluster.databaseUrl, queued.job_id, cluster.instances), b, 'B claimed and ran it');
  const chat = model.chats.find((request) => JSON.stringify(request.body).includes('queued on A'));
  t.equal(chat?.headers.authorization, 'Bearer sk-from-header', 'B called the model with the key sent to A');
  t.notMatch(JSON.stringify(final), /sk-from-header/, 'the key is not echoed');
});
