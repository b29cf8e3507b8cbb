/**
 * v2 job events as server-sent events: POST with stream=true, GET stream=true live and replayed, resume with
 * sequence_id and Last-Event-ID (no gap, no duplicate), several watchers, cancel while watching, retention.
 */
import t from 'tap';
import { within } from './support/within.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { startTestServer, type TestServer } from './support/server.js';
import { getJob, postWorkflow, readSse, stopJob, waitForJob, type SseEvent } from './support/workflows.js';

const KEY = { OPENAIKEY: 'sk-test' };
const input = (text: string) => ({ 'ChatInput-in001.input_value': text });
const tokens = (count: number, delay: number) => ({ tokens: Array.from({ length: count }, (_, i) => ` w${i}`), tokenDelayMs: delay });

let model: ModelServer;
let server: TestServer;
let modelFlowId: string;

t.before(async () => {
  model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  server = await startTestServer();
  modelFlowId = (await createFlow(server, chatModelFlow('Model stream v2', 'LanguageModelComponent', openaiModelTemplate()))).id;
});
t.teardown(async () => {
  await server.close();
  await model.close();
});

const seqs = (events: SseEvent[]) => events.map((e) => e.id);
const contiguous = (events: SseEvent[], from = 1) => events.every((e, i) => e.id === from + i);

t.test('POST stream=true streams the run: status, messages, tokens in order, outputs, final status with the reply', async (t) => {
  model.script({ tokens: ['Hel', 'lo', ' there'] });
  const res = await postWorkflow(server, { flow_id: modelFlowId, stream: true, inputs: input('hi'), globals: KEY });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/event-stream/);
  const events = await readSse(res);
  t.ok(contiguous(events), `ids 1..n without gaps: ${seqs(events)}`);
  t.match(events[0], { event: 'job_status', data: { status: 'in_progress' } });
  const jobId = events[0].data.job_id;
  const kinds = events.map((e) => e.event);
  t.same(kinds.filter((k) => k === 'add_message').length >= 2, true);
  t.same(events.filter((e) => e.event === 'token').map((e) => e.data.chunk), ['Hel', 'lo', ' there']);
  t.match(events.find((e) => e.event === 'output')!.data, { component_id: 'ChatOutput-out01', type: 'message', content: 'Hello there' });
  const last = events.at(-1)!;
  t.match(last, { event: 'job_status', data: { job_id: jobId, status: 'completed', response: { object: 'response', status: 'completed', outputs: { 'ChatOutput-out01': { content: 'Hello there' } } } } });
  t.equal((await (await getJob(server, jobId)).json()).status, 'completed', 'the streamed run is a job too');
});

t.test('POST stream=true with background=true answers the job; GET stream=true attaches', async (t) => {
  model.script(tokens(5, 20));
  const res = await postWorkflow(server, { flow_id: modelFlowId, stream: true, background: true, inputs: input('bg'), globals: KEY });
  const job = await res.json();
  t.match(job, { object: 'job', status: 'queued' });
  const events = await readSse(await getJob(server, job.job_id, '&stream=true'));
  t.ok(contiguous(events));
  t.same(events.filter((e) => e.event === 'job_status').map((e) => e.data.status), ['queued', 'in_progress', 'completed']);
  t.equal(events.filter((e) => e.event === 'token').length, 5);
});

t.test('several watchers of one live job see the same events, and all end after the terminal status', async (t) => {
  model.script(tokens(20, 15));
  const job = await (await postWorkflow(server, { flow_id: modelFlowId, background: true, inputs: input('fan out'), globals: KEY })).json();
  const watchers = await Promise.all([1, 2, 3].map(async () => readSse(await getJob(server, job.job_id, '&stream=true'))));
  for (const events of watchers) {
    t.ok(contiguous(events));
    t.equal(events.at(-1)!.data.status, 'completed');
    t.same(seqs(events), seqs(watchers[0]));
  }
  t.equal(watchers[0].filter((e) => e.event === 'token').length, 20);
});

t.test('resume: sequence_id and Last-Event-ID continue after N with no gap and no duplicate, live and replayed', async (t) => {
  model.script(tokens(30, 15));
  const job = await (await postWorkflow(server, { flow_id: modelFlowId, background: true, inputs: input('resume'), globals: KEY })).json();

  // Read live until event 6, then drop the connection and come back with Last-Event-ID.
  const controller = new AbortController();
  const first: SseEvent[] = [];
  const res = await server.request(`/api/v2/workflows?job_id=${job.job_id}&stream=true`, { signal: controller.signal } as never);
  await readSse(res, (event) => {
    // Frames already received in the same chunk may still be parsed after the abort: the client saw up to 6.
    if (controller.signal.aborted) return;
    first.push(event);
    if (event.id === 6) controller.abort();
  }).catch(() => {});
  t.same(seqs(first), [1, 2, 3, 4, 5, 6]);
  const rest = await readSse(await getJob(server, job.job_id, '&stream=true', { headers: { 'Last-Event-ID': '6' } }));
  t.equal(rest[0].id, 7, 'continues right after the last seen event');
  const joined = [...first, ...rest];
  t.ok(contiguous(joined), 'no gap, no duplicate');
  t.equal(joined.at(-1)!.data.status, 'completed');

  const full = await readSse(await getJob(server, job.job_id, '&stream=true'));
  t.same(seqs(full), seqs(joined), 'a finished job replays its whole log');
  t.same(full.map((e) => e.data), joined.map((e) => e.data), 'with the same payloads');
  const fromTen = await readSse(await getJob(server, job.job_id, '&stream=true&sequence_id=10'));
  t.same(seqs(fromTen), seqs(full).filter((n) => n > 10));
  const pastEnd = await readSse(await getJob(server, job.job_id, `&stream=true&sequence_id=${full.length}`));
  t.same(pastEnd, [], 'nothing after the last event');
  t.equal((await getJob(server, job.job_id, '&stream=true&sequence_id=-1')).status, 422);
});

t.test('stopping a job ends its watchers with status cancelled and aborts the model call', async (t) => {
  model.script(tokens(300, 20));
  const aborted = model.nextAbort();
  const job = await (await postWorkflow(server, { flow_id: modelFlowId, background: true, inputs: input('stop me'), globals: KEY })).json();
  const watching = getJob(server, job.job_id, '&stream=true').then((res) =>
    readSse(res, (event) => {
      if (event.event === 'token' && event.data.chunk === ' w3') void stopJob(server, job.job_id);
    }),
  );
  const events = await watching;
  t.equal(events.at(-1)!.data.status, 'cancelled');
  t.ok(events.filter((e) => e.event === 'token').length < 300);
  t.ok((await aborted).aborted);
});

t.test('a client that leaves a POST stream cancels its run', async (t) => {
  model.script(tokens(300, 20));
  const controller = new AbortController();
  let jobId = '';
  const res = await server.request('/api/v2/workflows', { method: 'POST', json: { flow_id: modelFlowId, stream: true, inputs: input('leave'), globals: KEY }, signal: controller.signal } as never);
  await readSse(res, (event) => {
    if (event.event === 'job_status') jobId = event.data.job_id;
    if (event.event === 'token') controller.abort();
  }).catch(() => {});
  t.ok(jobId);
  t.equal((await waitForJob(server, jobId)).status, 'cancelled');
});

t.test('event logs expire after the retention; the terminal status stays readable at its number', async (t) => {
  const short = await startTestServer({ JOB_RETENTION_SECONDS: '0.2' });
  t.teardown(() => short.close());
  const echoId = (await createFlow(short, echoFlow('Retention'))).id;
  const job = await (await postWorkflow(short, { flow_id: echoId, background: true, inputs: input('kept') })).json();
  await waitForJob(short, job.job_id);
  // Heard before the log can go, so the sweep that removes it is not missed.
  const removed = within(short.services.retention.nextRemoval(), 'the retention sweep removing the log');
  const full = await readSse(await getJob(short, job.job_id, '&stream=true'));
  t.ok(full.length > 3);
  await removed;
  const after = await readSse(await getJob(short, job.job_id, '&stream=true'));
  t.equal(after.length, 1, 'only the terminal status remains');
  t.match(after[0], { id: full.at(-1)!.id, event: 'job_status', data: { status: 'completed', response: { outputs: { 'ChatOutput-out01': { content: 'kept' } } } } });
  t.equal((await (await getJob(short, job.job_id)).json()).outputs['ChatOutput-out01'].content, 'kept', 'the reply itself is kept');
});
