/**
 * v2 background jobs: the state table of spec part 3 row by row, stop (queued, running mid model call, finished),
 * timeouts, the error statuses of part 7, and 200 concurrent jobs.
 */
import t from 'tap';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { startTestServer, type TestServer } from './support/server.js';
import { within } from './support/within.js';
import { getJob, postWorkflow, stopJob, waitForJob } from './support/workflows.js';

const KEY = { OPENAIKEY: 'sk-test' };
const slowReply = (count = 200, delay = 20) => ({ tokens: Array.from({ length: count }, (_, i) => ` t${i}`), tokenDelayMs: delay });

let model: ModelServer;
let server: TestServer;
let modelFlowId: string;
let echoId: string;

t.before(async () => {
  model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  server = await startTestServer({ JOB_CONCURRENCY: '2' });
  modelFlowId = (await createFlow(server, chatModelFlow('Model v2', 'LanguageModelComponent', openaiModelTemplate()))).id;
  echoId = (await createFlow(server, echoFlow('Echo jobs'))).id;
});
t.teardown(async () => {
  await server.close();
  await model.close();
});

const modelInputs = (text: string) => ({ 'ChatInput-in001.input_value': text });

t.test('background: queued at once with links, in_progress while running, the full reply once completed', async (t) => {
  model.script({ tokens: [' slow', ' reply'], tokenDelayMs: 100 });
  const res = await postWorkflow(server, { flow_id: modelFlowId, background: true, inputs: modelInputs('hello'), globals: KEY });
  t.equal(res.status, 200);
  const job = await res.json();
  t.match(job, { object: 'job', flow_id: modelFlowId, status: 'queued', errors: [] });
  t.same(job.links, { status: `/api/v2/workflows?job_id=${job.job_id}`, stop: '/api/v2/workflows/stop', stream: `/api/v2/workflows?job_id=${job.job_id}&stream=true` });
  const running = await waitForJob(server, job.job_id, (b) => b.status === 'in_progress');
  t.match(running, { object: 'job', status: 'in_progress', job_id: job.job_id });
  const done = await waitForJob(server, job.job_id);
  t.match(done, { object: 'response', status: 'completed', job_id: job.job_id, inputs: modelInputs('hello'), globals: KEY });
  t.equal(done.outputs['ChatOutput-out01'].content, ' slow reply');
});

t.test('stop in the middle of a streaming model call aborts the call; a later GET says cancelled', async (t) => {
  model.script(slowReply());
  const aborted = model.nextAbort();
  const asked = model.nextChat();
  const job = await (await postWorkflow(server, { flow_id: modelFlowId, background: true, inputs: modelInputs('long'), globals: KEY })).json();
  await waitForJob(server, job.job_id, (b) => b.status === 'in_progress');
  await within(asked, 'the job calling its model');
  const stop = await stopJob(server, job.job_id);
  t.equal(stop.status, 200);
  t.same(await stop.json(), { job_id: job.job_id, message: `Job ${job.job_id} cancelled successfully.` });
  const request = await aborted;
  t.ok(request.aborted, 'the model server saw the request closed before its reply ended');
  const after = await (await getJob(server, job.job_id)).json();
  t.match(after, { object: 'response', status: 'cancelled', outputs: {}, errors: [{ code: 'JOB_CANCELLED' }] });
});

t.test('stopping a finished job leaves its status and says so', async (t) => {
  const job = await (await postWorkflow(server, { flow_id: echoId, background: true, inputs: modelInputs('done') })).json();
  await waitForJob(server, job.job_id);
  const stop = await (await stopJob(server, job.job_id)).json();
  t.equal(stop.message, `Job ${job.job_id} already finished (completed).`);
  t.equal((await (await getJob(server, job.job_id)).json()).status, 'completed');
});

t.test('stopping a queued job cancels it before it runs', async (t) => {
  // JOB_CONCURRENCY is 2: two slow jobs hold both slots, the third waits.
  model.script(slowReply(30, 20), slowReply(30, 20));
  const busy = await Promise.all([1, 2].map(async (i) => (await postWorkflow(server, { flow_id: modelFlowId, background: true, inputs: modelInputs(`busy ${i}`), globals: KEY })).json()));
  const chatsBefore = model.chats.length;
  const waiting = await (await postWorkflow(server, { flow_id: modelFlowId, background: true, inputs: modelInputs('waiting'), globals: KEY })).json();
  t.equal((await (await getJob(server, waiting.job_id)).json()).status, 'queued');
  const stop = await (await stopJob(server, waiting.job_id)).json();
  t.equal(stop.message, `Job ${waiting.job_id} cancelled successfully.`);
  for (const job of busy) t.equal((await waitForJob(server, job.job_id)).status, 'completed');
  t.equal((await (await getJob(server, waiting.job_id)).json()).status, 'cancelled');
  t.equal(model.chats.length - chatsBefore <= 2, true, 'the stopped job never called the model');
});

t.test('errors of part 7', async (t) => {
  const missing = await server.request('/api/v2/workflows');
  t.equal(missing.status, 400);
  t.match(await missing.json(), { detail: 'Job ID must be provided', code: 'MISSING_PARAMETER' });
  const unknown = await getJob(server, '00000000-0000-0000-0000-000000000000');
  t.equal(unknown.status, 404);
  t.match(await unknown.json(), { code: 'JOB_NOT_FOUND' });
  t.equal((await getJob(server, 'not-a-uuid')).status, 404);
  const stopUnknown = await stopJob(server, '00000000-0000-0000-0000-000000000000');
  t.equal(stopUnknown.status, 404);
  const stopBad = await server.request('/api/v2/workflows/stop', { method: 'POST', json: { job_id: 'nope' } });
  t.equal(stopBad.status, 422);
  t.match(await stopBad.json(), { detail: [{ loc: ['body', 'job_id'] }] });
  const stopEmpty = await server.request('/api/v2/workflows/stop', { method: 'POST', json: {} });
  t.equal(stopEmpty.status, 422);
  t.equal((await server.request('/api/v2/workflows?job_id=x', { key: 'sk-wrong' })).status, 401);

  const job = await (await postWorkflow(server, { flow_id: echoId, background: true, inputs: modelInputs('mine') })).json();
  await waitForJob(server, job.job_id);
  const other = await createUserWithKey(server, 'jobs-other');
  t.equal((await getJob(server, job.job_id, '', { key: other.apiKey })).status, 404, "another user's job is not found");
  t.equal((await stopJob(server, job.job_id, other.apiKey)).status, 404);
  t.equal((await getJob(server, job.job_id, '&stream=true', { key: other.apiKey })).status, 404);
});

t.test('200 concurrent background jobs all complete with their own outputs', async (t) => {
  const jobs = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const res = await postWorkflow(server, { flow_id: echoId, background: true, inputs: { 'ChatInput-in001.input_value': `job ${i}`, 'ChatInput-in001.session_id': `s${i}` } });
      return { i, job: await res.json() };
    }),
  );
  t.equal(new Set(jobs.map(({ job }) => job.job_id)).size, 200, 'distinct job ids');
  const results = await Promise.all(jobs.map(async ({ i, job }) => ({ i, body: await waitForJob(server, job.job_id, undefined, 60_000) })));
  t.equal(results.filter(({ body }) => body.status === 'completed').length, 200);
  t.ok(results.every(({ i, body }) => body.outputs['ChatOutput-out01'].content === `job ${i}`), 'each job answered its own input');
});

t.test('past the maximum run time a job is timed_out, and a sync run answers 408', async (t) => {
  const quick = await startTestServer({ JOB_TIMEOUT_SECONDS: '0.3' });
  t.teardown(() => quick.close());
  const flowId = (await createFlow(quick, chatModelFlow('Timeout', 'LanguageModelComponent', openaiModelTemplate()))).id;
  model.script(slowReply(100, 20));
  const job = await (await postWorkflow(quick, { flow_id: flowId, background: true, inputs: modelInputs('slow'), globals: KEY })).json();
  const done = await waitForJob(quick, job.job_id);
  t.match(done, { status: 'timed_out', errors: [{ code: 'EXECUTION_TIMEOUT', details: { timeout_seconds: 0.3 } }] });

  model.script(slowReply(100, 20));
  const sync = await postWorkflow(quick, { flow_id: flowId, inputs: modelInputs('slow sync'), globals: KEY });
  t.equal(sync.status, 408);
  t.match(await sync.json(), { code: 'EXECUTION_TIMEOUT', detail: /exceeded 0.3 seconds/ });
});
