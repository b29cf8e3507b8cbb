/**
 * The build API end to end, with plain fetch against the real server: POST /api/v1/build/{flow_id}/flow in each
 * event delivery, GET /api/v1/build/{job_id}/events in Langflow's NDJSON framing (live, late, polled, resumed,
 * stream=false), `data` replacing the stored flow for one build, start and stop components.
 */
import t from 'tap';
import { buildEvents, getEvents, kinds, parseNdjson, postBuild, readBuildStream, startBuild } from './support/builds.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let echoId: string;

t.before(async () => {
  server = await startTestServer();
  echoId = (await createFlow(server, echoFlow('Build echo'))).id;
});
t.teardown(() => server.close());

const ECHO_KINDS = ['vertices_sorted', 'build_start', 'add_message', 'end_vertex', 'add_message', 'end_vertex', 'end'];

t.test('polling (default) answers the job id at once; the events stream in Langflow framing and shapes', async (t) => {
  const res = await postBuild(server, echoId, { inputs: { input_value: 'hello build', session: 'sess-1' } });
  t.equal(res.status, 200);
  const { job_id } = await res.json();
  t.match(job_id, /^[0-9a-f-]{36}$/);
  const events = await getEvents(server, job_id);
  t.match(events.headers.get('content-type'), /^application\/x-ndjson/);
  const text = await events.text();
  t.ok(text.endsWith('}\n\n'), 'every event is followed by a blank line');
  const parsed = parseNdjson(text);
  t.same(kinds(parsed), ECHO_KINDS);
  t.same(parsed[0].data, { ids: ['ChatInput-in001'], to_run: ['ChatInput-in001', 'ChatOutput-out01'] });
  t.match(parsed[2].data, { sender: 'User', text: 'hello build', session_id: 'sess-1', flow_id: echoId, category: 'message' });
  const input = parsed[3].data;
  t.match(input.build_data, { id: 'ChatInput-in001', valid: true, params: 'Built successfully ✨', next_vertices_ids: ['ChatOutput-out01'], inactivated_vertices: [] });
  t.match(input.build_data.data, { results: { message: { text: 'hello build' } }, outputs: { message: { message: 'hello build', type: 'text' } }, logs: { message: [] }, used_frozen_result: false });
  t.type(input.build_data.data.timedelta, 'number');
  t.match(input.build_data.data.duration, /^\d+ ms$/);
  t.match(input.output_meta, { component_id: 'ChatInput-in001', vertex_type: 'ChatInput', is_output: false, is_terminal: false });
  t.match(parsed[4].data, { sender: 'Machine', text: 'hello build' });
  t.match(parsed[5].data.build_data, { id: 'ChatOutput-out01', valid: true, next_vertices_ids: [] });
  t.match(parsed[5].data.output_meta, { is_output: true, is_terminal: true });
  t.type(parsed[6].data.build_duration, 'number');
});

t.test('a reader that joins after the end gets the whole log; stream=false answers it as one JSON array', async (t) => {
  const jobId = await startBuild(server, echoId, { inputs: { input_value: 'late' } });
  const first = await buildEvents(server, jobId);
  const again = await buildEvents(server, jobId);
  t.same(again, first, 'the same log, replayed');
  const json = await getEvents(server, jobId, '?stream=false');
  t.match(json.headers.get('content-type'), /^application\/json/);
  t.same(await json.json(), first);
});

t.test('sequence_id continues after the events a client already counted', async (t) => {
  const jobId = await startBuild(server, echoId, { inputs: { input_value: 'resume' } });
  const all = await buildEvents(server, jobId);
  t.same(await buildEvents(server, jobId, '?sequence_id=3'), all.slice(3));
  t.same(await buildEvents(server, jobId, `?sequence_id=${all.length}`), []);
});

t.test('event_delivery=polling: each poll continues after the last; together they are the log once', async (t) => {
  const jobId = await startBuild(server, echoId, { inputs: { input_value: 'polled' } });
  const polled = [];
  for (let i = 0; i < 50 && polled.at(-1)?.event !== 'end'; i++) {
    const res = await getEvents(server, jobId, '?event_delivery=polling');
    t.equal(res.status, 200);
    const batch = parseNdjson(await res.text());
    t.ok(batch.length > 0, 'a poll answers at least one event (it waits for the next)');
    polled.push(...batch);
  }
  t.same(kinds(polled), ECHO_KINDS);
});

t.test('event_delivery=direct answers the events on the build request itself', async (t) => {
  const res = await postBuild(server, echoId, { inputs: { input_value: 'direct' } }, '?event_delivery=direct');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/x-ndjson/);
  const events = await readBuildStream(res);
  t.same(kinds(events), ECHO_KINDS);
  t.equal(events[4].data.text, 'direct');
});

t.test('event_delivery=streaming answers the job id too (the events are read from /events, as Langflow)', async (t) => {
  const res = await postBuild(server, echoId, { inputs: { input_value: 'streamed' } }, '?event_delivery=streaming');
  const { job_id } = await res.json();
  t.same(kinds(await buildEvents(server, job_id)), ECHO_KINDS);
});

t.test("the request's files go with the Chat Input's message; `components` picks which inputs get the value", async (t) => {
  const files = [`${echoId}/2025-01-01_00-00-00_photo.png`];
  const events = await buildEvents(server, await startBuild(server, echoId, { inputs: { input_value: 'with a file' }, files }));
  t.same(events.find((e) => e.event === 'add_message')!.data.files, files);
  const targeted = await buildEvents(server, await startBuild(server, echoId, { inputs: { input_value: 'targeted', components: ['ChatInput-in001'] } }));
  t.equal(targeted.find((e) => e.event === 'add_message')!.data.text, 'targeted');
  const elsewhere = await buildEvents(server, await startBuild(server, echoId, { inputs: { input_value: 'not for you', components: ['Other-1'] } }));
  t.equal(elsewhere.find((e) => e.event === 'add_message')!.data.text, '', 'an input not named keeps its own value');
});

t.test('`data` replaces the stored flow for this build only', async (t) => {
  const replacement = flow('replacement', [node('TextInput-t1', 'TextInput', {}, 'Text Input'), node('ChatOutput-x1', 'ChatOutput', {}, 'Chat Output')], [edge('TextInput-t1', 'text', 'ChatOutput-x1', 'input_value')]).data;
  const jobId = await startBuild(server, echoId, { inputs: { input_value: 'replaced', type: 'any' }, data: replacement });
  const events = await buildEvents(server, jobId);
  t.same(events[0].data.ids, ['TextInput-t1']);
  t.same(events.filter((e) => e.event === 'end_vertex').map((e) => e.data.build_data.id), ['TextInput-t1', 'ChatOutput-x1']);
  t.match(events.find((e) => e.event === 'add_message')!.data, { text: 'replaced' });
  const stored = await (await server.request(`/api/v1/flows/${echoId}`)).json();
  t.same(stored.data.nodes.map((n: any) => n.id), ['ChatInput-in001', 'ChatOutput-out01'], 'the stored flow is unchanged');
});

t.test('stop_component_id builds that component and what it depends on; start_component_id its branch', async (t) => {
  const branches = flow(
    'Two branches',
    [node('ChatInput-a1', 'ChatInput'), node('ChatOutput-a2', 'ChatOutput'), node('ChatOutput-a3', 'ChatOutput'), node('TextInput-b1', 'TextInput'), node('TextOutput-b2', 'TextOutput')],
    [edge('ChatInput-a1', 'message', 'ChatOutput-a2', 'input_value'), edge('ChatOutput-a2', 'message', 'ChatOutput-a3', 'input_value'), edge('TextInput-b1', 'text', 'TextOutput-b2', 'input_value')],
  );
  const id = (await createFlow(server, branches)).id;
  const built = async (body: Record<string, unknown>, query = '') => {
    const events = await buildEvents(server, await startBuild(server, id, { inputs: { input_value: 'x' }, ...body }, query));
    t.equal(events.at(-1)!.event, 'end');
    return { toRun: [...events[0].data.to_run].sort(), ran: events.filter((e) => e.event === 'end_vertex').map((e) => e.data.build_data.id).sort() };
  };
  t.same(await built({ stop_component_id: 'ChatOutput-a2' }), { toRun: ['ChatInput-a1', 'ChatOutput-a2'], ran: ['ChatInput-a1', 'ChatOutput-a2'] });
  t.same(await built({}, '?stop_component_id=ChatOutput-a2'), { toRun: ['ChatInput-a1', 'ChatOutput-a2'], ran: ['ChatInput-a1', 'ChatOutput-a2'] }, 'in the query too, as Langflow');
  t.same(await built({ start_component_id: 'TextOutput-b2' }), { toRun: ['TextInput-b1', 'TextOutput-b2'], ran: ['TextInput-b1', 'TextOutput-b2'] });
  const all = await built({});
  t.equal(all.ran.length, 5);
});

t.test("a router's unchosen branch is reported inactivated, and only the chosen branch is next", async (t) => {
  const routed = flow(
    'Routed',
    [
      node('ChatInput-r1', 'ChatInput'),
      node('ConditionalRouter-r2', 'ConditionalRouter', { operator: 'contains', match_text: 'yes', case_sensitive: false }, 'If-Else'),
      node('ChatOutput-yes', 'ChatOutput'),
      node('ChatOutput-no', 'ChatOutput'),
    ],
    [edge('ChatInput-r1', 'message', 'ConditionalRouter-r2', 'input_text'), edge('ConditionalRouter-r2', 'true_result', 'ChatOutput-yes', 'input_value'), edge('ConditionalRouter-r2', 'false_result', 'ChatOutput-no', 'input_value')],
  );
  const id = (await createFlow(server, routed)).id;
  const events = await buildEvents(server, await startBuild(server, id, { inputs: { input_value: 'yes please' } }));
  const router = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === 'ConditionalRouter-r2')!.data.build_data;
  t.same(router.inactivated_vertices, ['ChatOutput-no']);
  t.same(router.next_vertices_ids, ['ChatOutput-yes']);
  t.same(events.filter((e) => e.event === 'end_vertex').map((e) => e.data.build_data.id), ['ChatInput-r1', 'ConditionalRouter-r2', 'ChatOutput-yes']);
  t.equal(events.at(-1)!.event, 'end');
});
