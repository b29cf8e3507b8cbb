/**
 * A flow with nodes this service cannot run: saved as Langflow saves it, with `unsupported_nodes` in the answer;
 * refused as a whole by every way of running it (v1 run, build, v2 job, MCP tool call) with ONE 400 that lists every
 * such node and why.
 */
import { LangflowClient } from '@datastax/langflow-client';
import t, { type Test } from 'tap';
import { UNSUPPORTED_COMPONENTS } from '../src/langflow/unsupported-components.js';
import { findComponent } from '../src/components/registry.js';
import { toGraph } from '../src/langflow/to-graph.js';
import { FlowUnsupportedError } from '../src/errors/index.js';
import { postBuild } from './support/builds.js';
import { createFlow, upload } from './support/flow-helpers.js';
import { edge, echoFlow, flow, node } from './support/langflow-json.js';
import { connectMcp } from './support/mcp-client.js';
import { startTestServer, type TestServer } from './support/server.js';
import { postWorkflow } from './support/workflows.js';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const PYTHON = 'from lfx.custom import Component\n\nclass Remix(Component):\n    display_name = "Remix"\n';

/** Chat Input -> DS Star Agent (known, not run) -> Mystery (unknown) -> Remix (Python code) -> Chat Output. */
function unrunnableFlow(name = 'Unrunnable') {
  return flow(
    name,
    [
      node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'),
      node('OpenDsStarAgent-t1', 'OpenDsStarAgent', {}, 'DS Star Agent'),
      node('Mystery-m1', 'MysteryComponent', {}, 'Mystery Box'),
      node('Remix-r1', 'RemixThing', { code: PYTHON }, 'Remix Docs'),
      node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output'),
    ],
    [edge('ChatInput-in001', 'message', 'OpenDsStarAgent-t1', 'input_value'), edge('Remix-r1', 'text', 'ChatOutput-out01', 'input_value')],
    { mcp_enabled: true },
  );
}

const EXPECTED = [
  { id: 'OpenDsStarAgent-t1', type: 'OpenDsStarAgent', display_name: 'DS Star Agent', reason: UNSUPPORTED_COMPONENTS.OpenDsStarAgent },
  { id: 'Mystery-m1', type: 'MysteryComponent', display_name: 'Mystery Box', reason: 'unknown component type "MysteryComponent"' },
  { id: 'Remix-r1', type: 'RemixThing', display_name: 'Remix Docs', reason: 'holds Python code for a component this service does not have: Python components are not run here' },
];

/** The one message names every node, its type, display name and reason. */
function namesAll(t: Test, text: string) {
  t.match(text, /^3 components of this flow cannot run here: /);
  for (const expected of EXPECTED) t.ok(text.includes(`${expected.id} (${expected.type}, "${expected.display_name}"): ${expected.reason}`), expected.id);
}

t.test('create, upload and update accept the flow and say what will not run', async (t) => {
  const created = await createFlow(server, unrunnableFlow());
  t.same(created.unsupported_nodes, EXPECTED);
  const uploaded = await upload(server, '/api/v1/flows/upload/', JSON.stringify(unrunnableFlow('Uploaded')));
  t.equal(uploaded.status, 201);
  t.same((await uploaded.json())[0].unsupported_nodes, EXPECTED);
  const read = await (await server.request(`/api/v1/flows/${created.id}`)).json();
  t.notOk('unsupported_nodes' in read, 'a plain read is Langflow\'s shape');
  const fixed = await server.request(`/api/v1/flows/${created.id}`, { method: 'PATCH', json: { data: echoFlow().data } });
  t.notOk('unsupported_nodes' in (await fixed.json()), 'absent once every node runs');
  t.notOk('unsupported_nodes' in (await createFlow(server, echoFlow('Fine'))));
});

t.test('a run through the Langflow client is one 400 listing every node', async (t) => {
  const created = await createFlow(server, unrunnableFlow('Run me'));
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const error = await client.flow(created.id).run('hi').then(
    () => undefined,
    (e: Error & { response?: Response }) => e,
  );
  t.ok(error, 'the client throws');
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi' } });
  t.equal(res.status, 400);
  const body = await res.json();
  namesAll(t, body.detail);
  t.same(body.unsupported_nodes, EXPECTED, 'the list, beside detail');
});

t.test('a build, a v2 job and an MCP tool call refuse it the same way', async (t) => {
  const created = await createFlow(server, unrunnableFlow('Tool flow'));
  const build = await postBuild(server, created.id);
  t.equal(build.status, 400);
  namesAll(t, (await build.json()).detail);

  const job = await postWorkflow(server, { flow_id: created.id, background: false, inputs: {} });
  t.equal(job.status, 400);
  const jobBody = await job.json();
  namesAll(t, jobBody.detail);
  t.same(jobBody.unsupported_nodes, EXPECTED);

  const mcp = await connectMcp(server, 'streamable');
  t.teardown(() => mcp.close());
  const result = await mcp.client.callTool({ name: 'tool_flow', arguments: { input_value: 'hi' } });
  const text = (result.content as { text: string }[])[0].text;
  for (const expected of EXPECTED) t.match(text, expected.id);
  t.match(text, UNSUPPORTED_COMPONENTS.OpenDsStarAgent!);
});

t.test('ten thousand unknown nodes: one bounded 400 at once', async (t) => {
  const nodes = Array.from({ length: 10_000 }, (_, i) => node(`X-${i}`, 'Nope'));
  const res = await server.request('/api/v1/build/00000000-0000-4000-8000-000000000000/flow', { method: 'POST', json: { data: flow('Huge', nodes, []).data } });
  t.ok([400, 404].includes(res.status), 'refused');
  let refused: unknown;
  try {
    toGraph(flow('Huge', nodes, []).data);
  } catch (error) {
    refused = error;
  }
  t.ok(refused instanceof FlowUnsupportedError);
  t.equal((refused as FlowUnsupportedError).nodes.length, 10_000);
  t.ok((refused as FlowUnsupportedError).message.length < 10_000, 'the text is bounded');
  t.match((refused as FlowUnsupportedError).message, /and 9950 more \(see unsupported_nodes\)$/);
  const created = await createFlow(server, flow('Huge', nodes, []));
  const run = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'hi' } });
  t.equal(run.status, 400);
  t.equal((await run.json()).unsupported_nodes.length, 10_000);
});

t.test('the table lists only types the registry does not run, each with a reason', async (t) => {
  for (const [type, reason] of Object.entries(UNSUPPORTED_COMPONENTS)) {
    t.notOk(findComponent(type), `${type} is registered now: remove its line from src/langflow/unsupported-components.ts`);
    t.ok(reason.length > 20, `${type} says why`);
  }
});
