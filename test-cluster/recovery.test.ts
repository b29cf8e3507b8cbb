/**
 * Start-up recovery with several instances: an instance starting while another runs a background job leaves that
 * job alone (it is not failed as interrupted, nor run a second time), and the job ends where it runs.
 */
import t from 'tap';
import { startModelServer } from '../test/support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from '../test/support/model-flows.js';
import { readSse } from '../test/support/workflows.js';
import { expectJson, startInstance } from './support/instances.js';
import { freshDatabase } from './support/postgres.js';

t.test('an instance starting beside a running job does not take it for a crashed one', async (t) => {
  const url = await freshDatabase(t);
  const model = await startModelServer();
  t.teardown(() => model.close());
  const env = { OPENAI_BASE_URL: model.baseURL };
  const a = await startInstance(t, url, env);
  const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Slow model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
  // Long enough to outlast the second start; the test stops it rather than waiting it out.
  model.script({ tokens: Array.from({ length: 3000 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const asked = model.nextChat();
  const submitted = await expectJson(
    await a.call('/api/v2/workflows', { method: 'POST', json: { flow_id: flow.id, background: true, inputs: { 'ChatInput-in001.input_value': 'hi' }, globals: { OPENAIKEY: 'sk-x' } } }),
    200,
  );
  await asked;

  const b = await startInstance(t, url, env);
  const seenFromB = await expectJson(await b.call(`/api/v2/workflows?job_id=${submitted.job_id}`), 200);
  t.equal(seenFromB.status, 'in_progress', 'B, started meanwhile, left the running job as it was');

  const log = readSse(await a.call(`/api/v2/workflows?job_id=${submitted.job_id}&stream=true`));
  await expectJson(await a.call('/api/v2/workflows/stop', { method: 'POST', json: { job_id: submitted.job_id } }), 200);
  await log;
  const final = await expectJson(await b.call(`/api/v2/workflows?job_id=${submitted.job_id}`), 200);
  t.equal(final.status, 'cancelled', 'the job ended as its owner ended it, and B reads that');
  t.equal(model.chats.length, 1, 'the model was called once: nothing ran the job again');
});
