/**
 * Builds of a model flow against the stand-in OpenAI server: token events arrive in the build's NDJSON stream,
 * a cancel really stops the run (the model server sees its request closed), a client of a direct build leaving
 * cancels it, and a reader that leaves and comes back continues where it stopped without stopping the build.
 */
import t from 'tap';
import { buildEvents, getEvents, kinds, readBuildStream, type BuildEvent } from './support/builds.js';
import { startBuildModelStack, type BuildModelStack } from './support/build-model-stack.js';
import type { ModelServer } from './support/model-server.js';
import { createFlow } from './support/flow-helpers.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate } from './support/model-flows.js';
import { startTestServer, type TestServer } from './support/server.js';
import { within } from './support/within.js';

let stack: BuildModelStack;
let model: ModelServer;
let server: TestServer;
let flowId: string;
const KEY_HEADER = { headers: { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-test' } };
const many = (count: number, delay: number) => ({ tokens: Array.from({ length: count }, (_, i) => ` t${i}`), tokenDelayMs: delay });

t.before(async () => {
  stack = await startBuildModelStack();
  ({ model, server, flowId } = stack);
});
t.teardown(() => stack.close());

const build = (query = '') => server.request(`/api/v1/build/${flowId}/flow${query}`, { method: 'POST', json: { inputs: { input_value: 'hi model' } }, ...KEY_HEADER });

t.test('a streaming build carries the model tokens as token events, then the reply message and the end', async (t) => {
  model.script({ tokens: ['Hel', 'lo', ' build'] });
  const { job_id } = await (await build('?event_delivery=streaming')).json();
  const events = await buildEvents(server, job_id);
  t.same(events.filter((e) => e.event === 'token').map((e) => e.data.chunk), ['Hel', 'lo', ' build']);
  const tokenIds = new Set(events.filter((e) => e.event === 'token').map((e) => e.data.id));
  t.equal(tokenIds.size, 1, 'every token names the message it extends');
  const reply = events.filter((e) => e.event === 'add_message').at(-1)!;
  t.match(reply.data, { sender: 'Machine', text: 'Hello build' });
  const modelBuild = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === 'LanguageModelComponent-model1')!;
  t.match(modelBuild.data.build_data, { valid: true, next_vertices_ids: ['ChatOutput-out01'] });
  t.equal(events.at(-1)!.event, 'end');
  t.equal(model.chats.at(-1)!.body.stream, true, 'the model was asked to stream');
});

t.test('POST /build/{job_id}/cancel stops the run: the model request is closed, the log ends, success as Langflow', async (t) => {
  model.script(many(200, 20));
  const aborted = model.nextAbort();
  const asked = model.nextChat();
  const jobId = (await (await build()).json()).job_id;
  await within(asked, 'the build asking its model');
  const cancel = await server.request(`/api/v1/build/${jobId}/cancel`, { method: 'POST' });
  t.equal(cancel.status, 200);
  t.same(await cancel.json(), { success: true, message: 'Flow build cancelled successfully' });
  const request = await within(aborted, 'the model server seeing its request closed');
  t.ok(request.aborted, 'the model call was aborted');
  const events = await buildEvents(server, jobId);
  t.equal(events.at(-1)!.event, 'end', 'the log ends');
  t.ok(events.filter((e) => e.event === 'token').length < 200, 'the reply did not run to its end');
  const again = await server.request(`/api/v1/build/${jobId}/cancel`, { method: 'POST' });
  t.same(await again.json(), { success: true, message: 'Flow build cancelled successfully' }, 'a finished build counts as cancelled (Langflow)');
});

t.test('a direct build is cancelled when its client goes away mid-stream', async (t) => {
  model.script(many(200, 20));
  const aborted = model.nextAbort();
  const controller = new AbortController();
  const res = await server.request(`/api/v1/build/${flowId}/flow?event_delivery=direct`, { method: 'POST', json: { inputs: { input_value: 'go' } }, signal: controller.signal, ...KEY_HEADER });
  await t.rejects(
    readBuildStream(res, (event) => {
      if (event.event === 'token') controller.abort();
    }),
    { name: 'AbortError' },
  );
  t.ok((await within(aborted, 'the model request closed')).aborted);
});

t.test('a reader that leaves does not stop the build; coming back with sequence_id it continues with no gap', async (t) => {
  model.script(many(40, 10));
  const jobId = (await (await build()).json()).job_id;
  const controller = new AbortController();
  const first: BuildEvent[] = [];
  const res = await server.request(`/api/v1/build/${jobId}/events`, { signal: controller.signal });
  await readBuildStream(res, (event) => (first.push(event), event.event === 'token' && first.filter((e) => e.event === 'token').length === 5)).catch(() => undefined);
  controller.abort();
  const rest = await buildEvents(server, jobId, `?sequence_id=${first.length}`);
  const whole = [...first, ...rest];
  t.same(whole, await buildEvents(server, jobId), 'the two reads make the log, once');
  t.equal(whole.filter((e) => e.event === 'token').length, 40, 'the build ran to its end');
  t.equal(whole.at(-1)!.event, 'end');
});

t.test('a model failure: the error message names the component, its build is invalid, then the end', async (t) => {
  model.script({ error: { status: 401, message: 'Invalid key.' } });
  const jobId = (await (await build()).json()).job_id;
  const events = await within(buildEvents(server, jobId), 'the failed build\'s events to their end');
  t.same(kinds(events).slice(-3), ['error', 'end_vertex', 'end']);
  const error = events.at(-3)!.data;
  t.match(error, { category: 'error', error: true, properties: { source: { id: 'LanguageModelComponent-model1' }, icon: 'error', text_color: 'red' } });
  t.match(error.text, /Invalid key/);
  const failed = events.at(-2)!.data.build_data;
  t.match(failed, { id: 'LanguageModelComponent-model1', valid: false });
  t.match(failed.data.outputs.text_output, { type: 'error', message: { errorMessage: /Invalid key/ } });
});

t.test('the events of a build that polls: a poll waits for the next event rather than answering nothing', async (t) => {
  model.script(many(3, 50));
  const jobId = (await (await build()).json()).job_id;
  const seen: string[] = [];
  while (seen.at(-1) !== 'end') {
    const body = await (await getEvents(server, jobId, '?event_delivery=polling')).text();
    t.not(body, '', 'never an empty poll while the build runs');
    seen.push(...body.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as BuildEvent).event));
  }
  t.equal(seen.filter((k) => k === 'token').length, 3);
});


t.test('a build that runs past FLOWSVC_JOB_TIMEOUT_SECONDS ends with an error naming the limit (no end), its model call aborted', async (t) => {
  const short = await startTestServer({ JOB_TIMEOUT_SECONDS: '1' });
  t.teardown(() => short.close());
  const id = (await createFlow(short, chatModelFlow('Build timeout', 'LanguageModelComponent', openaiModelTemplate({ stream: true })))).id;
  model.script(many(100, 50));
  const aborted = model.nextAbort();
  const res = await short.request(`/api/v1/build/${id}/flow?event_delivery=direct`, { method: 'POST', json: { inputs: { input_value: 'slow' } }, ...KEY_HEADER });
  const events = await within(readBuildStream(res), 'the timed-out build ending', 15_000);
  const last = events.at(-1)!;
  t.equal(last.event, 'error');
  t.match(last.data, { category: 'error', error: true, text: 'Flow execution exceeded 1 seconds', properties: { source: { id: null } } });
  t.notOk(kinds(events).includes('end'), 'as Langflow, no end follows a flow error');
  t.ok((await within(aborted, 'the model request closed')).aborted);
});
