/**
 * The build API refusing what it must: unknown and other users' flows and jobs (404), a dangling edge in `data`
 * (400 naming the node), a stop component not in the flow, bad bodies and queries (422), cancelling unknown jobs;
 * public builds (no key, a client_id cookie, PUBLIC flows only); the removed vertex routes (410 naming the way).
 */
import t from 'tap';
import { uuid5 } from '../src/ids/uuid5.js';
import { buildEvents, getEvents, kinds, postBuild, readBuildStream, startBuild } from './support/builds.js';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let flowId: string;
let other: { id: string; key: string };

t.before(async () => {
  server = await startTestServer();
  flowId = (await createFlow(server, echoFlow('Guarded echo'))).id;
  other = await secondUser(server, 'build-other');
});
t.teardown(() => server.close());

const detail = async (res: Response) => (await res.json()).detail;

t.test('an unknown flow, or another user’s, is a 404', async (t) => {
  const unknown = '00000000-0000-4000-8000-000000000000';
  const res = await postBuild(server, unknown, {});
  t.equal(res.status, 404);
  t.equal(await detail(res), `Flow with id ${unknown} not found`);
  const theirs = await postBuild(server, flowId, {}, '', other.key);
  t.equal(theirs.status, 404);
});

t.test('data with a dangling edge is refused before any job exists, naming the node', async (t) => {
  const dangling = flow('dangling', [node('ChatInput-d1', 'ChatInput')], [edge('ChatInput-d1', 'message', 'ChatOutput-gone1', 'input_value')]).data;
  const res = await postBuild(server, flowId, { data: dangling });
  t.equal(res.status, 400);
  t.match(await detail(res), /ChatOutput-gone1/);
});

t.test('a start or stop component that is not in the flow is a 400 naming it', async (t) => {
  const stop = await postBuild(server, flowId, { stop_component_id: 'ChatOutput-nowhere' });
  t.equal(stop.status, 400);
  t.match(await detail(stop), /ChatOutput-nowhere/);
  const start = await postBuild(server, flowId, {}, '?start_component_id=Nope-1');
  t.equal(start.status, 400);
  t.match(await detail(start), /Nope-1/);
});

t.test('bad bodies and queries are 422s naming the field', async (t) => {
  const extra = await postBuild(server, flowId, { inputs: { input_value: 'x', surprise: 1 } });
  t.equal(extra.status, 422, 'InputValueRequest refuses unknown fields, as Langflow');
  const delivery = await postBuild(server, flowId, {}, '?event_delivery=carrier-pigeon');
  t.equal(delivery.status, 422);
  t.match(JSON.stringify(await delivery.json()), /event_delivery/);
  const longSession = await postBuild(server, flowId, { inputs: { session: 'x'.repeat(5000) } });
  t.equal(longSession.status, 422, 'a session id is bounded (it keys stored messages)');
  const nodes = await postBuild(server, flowId, { data: { nodes: 'not a list', edges: [] } });
  t.equal(nodes.status, 422);
});

t.test("events and cancel of an unknown job, or another user's, are 404s", async (t) => {
  const jobId = await startBuild(server, flowId, { inputs: { input_value: 'mine' } });
  await buildEvents(server, jobId);
  const theirs = await getEvents(server, jobId, '', other.key);
  t.equal(theirs.status, 404);
  t.equal(await detail(theirs), `Job not found: ${jobId}`);
  t.equal((await getEvents(server, 'no-such-job')).status, 404);
  t.equal((await server.request('/api/v1/build/no-such-job/cancel', { method: 'POST' })).status, 404);
  t.equal((await server.request(`/api/v1/build/${jobId}/cancel`, { method: 'POST', key: other.key })).status, 404);
  t.equal((await getEvents(server, jobId, '', null)).status, 403, 'no key at all: refused before anything is looked up');
});

t.test('public builds: no key, a client_id cookie, PUBLIC flows only', async (t) => {
  const publicId = (await createFlow(server, echoFlow('Public echo', { access_type: 'PUBLIC' }))).id;
  const anonymous = (id: string, cookie?: string, query = '?event_delivery=direct') =>
    server.request(`/api/v1/build_public_tmp/${id}/flow${query}`, { method: 'POST', key: null, json: { inputs: { input_value: 'hello public' } }, headers: cookie ? { cookie } : {} });
  const privateFlow = await anonymous(flowId, 'client_id=visitor-1');
  t.equal(privateFlow.status, 403);
  t.equal(await detail(privateFlow), 'Flow is not public');
  t.equal((await anonymous('00000000-0000-4000-8000-000000000000', 'client_id=visitor-1')).status, 404);
  const noCookie = await anonymous(publicId);
  t.equal(noCookie.status, 400);
  t.match(await detail(noCookie), /client_id/);

  const res = await anonymous(publicId, 'theme=dark; client_id=visitor-1');
  t.equal(res.status, 200);
  const events = await readBuildStream(res);
  t.equal(events.at(-1)!.event, 'end');
  const virtualId = uuid5(`visitor-1_${publicId}`);
  const reply = events.filter((e) => e.event === 'add_message').at(-1)!.data;
  t.match(reply, { text: 'hello public', flow_id: virtualId, session_id: virtualId }, "the visitor's own flow id and session");
  const polled = await anonymous(publicId, 'client_id=visitor-2', '');
  const { job_id } = await polled.json();
  t.match(job_id, /^[0-9a-f-]{36}$/);
  // The visitor reads and cancels its build under the public prefix with its cookie (Langflow's newer playground).
  const visitorEvents = (cookie?: string, query = '') => server.request(`/api/v1/build_public_tmp/${job_id}/events${query}`, { key: null, headers: cookie ? { cookie } : {} });
  const read = await visitorEvents('client_id=visitor-2');
  t.equal(read.status, 200);
  const visitorLog = await readBuildStream(read);
  t.equal(visitorLog.at(-1)!.event, 'end');
  t.match(visitorLog.filter((e) => e.event === 'add_message').at(-1)!.data, { flow_id: uuid5(`visitor-2_${publicId}`) });
  t.equal((await visitorEvents('client_id=visitor-1')).status, 404, "another visitor's build is not found");
  t.equal((await visitorEvents()).status, 400, 'no cookie');
  const cancelled = await server.request(`/api/v1/build_public_tmp/${job_id}/cancel`, { method: 'POST', key: null, headers: { cookie: 'client_id=visitor-2' } });
  t.same(await cancelled.json(), { success: true, message: 'Flow build cancelled successfully' });
  t.equal((await getEvents(server, job_id)).status, 200, "the flow's owner reads it too");
  t.equal(uuid5('www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2', "uuid5 as Python's uuid.uuid5(NAMESPACE_DNS, ...)");
});

t.test('the removed vertex routes answer 410 naming their replacement', async (t) => {
  const cases: [string, string, RegExp][] = [
    ['POST', `/api/v1/build/${flowId}/vertices`, /POST \/api\/v1\/build\/\{flow_id\}\/flow/],
    ['POST', `/api/v1/build/${flowId}/vertices/ChatInput-in001`, /stop_component_id/],
    ['GET', `/api/v1/build/${flowId}/ChatInput-in001/stream`, /"token" events/],
    ['GET', '/api/v1/task/some-task', /\/api\/v1\/run\/\{flow_id\}/],
  ];
  for (const [method, path, names] of cases) {
    const res = await server.request(path, { method });
    t.equal(res.status, 410, `${method} ${path}`);
    t.match(await detail(res), names);
  }
});

t.test('a build answers while other builds run, each with its own complete log', async (t) => {
  const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => startBuild(server, flowId, { inputs: { input_value: `n${i}` } })));
  const logs = await Promise.all(ids.map((id) => buildEvents(server, id)));
  logs.forEach((events, i) => {
    t.equal(events.at(-1)!.event, 'end');
    t.equal(events.filter((e) => e.event === 'add_message').at(-1)!.data.text, `n${i}`);
  });
  t.same(new Set(logs.map((events) => kinds(events).join())).size, 1, 'the same sequence of kinds for each');
});
