/**
 * Whose graph a build runs, through the real edge on every adapter: a public build (no key) runs the stored flow
 * only, whatever graph, custom code or file paths its body holds (Langflow's CVE-2026-33017); the owner's editor
 * build runs the `data` it sends, under the same custom-component policy as stored flows.
 */
import t from 'tap';
import { readBuildStream, type BuildEvent } from './support/builds.js';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { customFlow, SHOUT_SOURCE } from './support/custom-sources.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

/** A graph that answers a fixed text, whatever the input: what a body graph would make a public flow say. */
const injected = flow('Injected', [node('Prompt-inj01', 'Prompt', { template: 'INJECTED GRAPH RAN' }), node('ChatOutput-out01', 'ChatOutput')], [edge('Prompt-inj01', 'prompt', 'ChatOutput-out01', 'input_value')]);

const lastMessage = (events: BuildEvent[]) => events.filter((event) => event.event === 'add_message').at(-1)?.data;

function publicBuild(server: TestServer, flowId: string, body: Record<string, unknown>): Promise<Response> {
  return server.request(`/api/v1/build_public_tmp/${flowId}/flow?event_delivery=direct`, { method: 'POST', key: null, json: body, headers: { cookie: 'client_id=visitor-policy' } });
}

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: a public build ignores the body's graph and files; its inputs still count`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter, CUSTOM_COMPONENTS: 'true' });
    t.teardown(() => server.close());
    const stored = await createFlow(server, echoFlow('Public stored', { access_type: 'PUBLIC' }));

    const withGraph = await publicBuild(server, stored.id, { inputs: { input_value: 'visitor says hi' }, data: injected.data });
    t.equal(withGraph.status, 200);
    const events = await readBuildStream(withGraph);
    t.equal(events.at(-1)!.event, 'end');
    t.equal(lastMessage(events).text, 'visitor says hi', 'the stored echo answered, not the body graph');
    t.notMatch(JSON.stringify(events), /INJECTED|Prompt-inj01/, 'no vertex of the body graph was built');

    const custom = customFlow('shout', SHOUT_SOURCE);
    const withCode = await publicBuild(server, stored.id, { inputs: { input_value: 'quiet' }, data: custom.data });
    const codeEvents = await readBuildStream(withCode);
    t.equal(lastMessage(codeEvents).text, 'quiet', 'custom code in the body is not run, even where custom components are on');

    const withFiles = await publicBuild(server, stored.id, { inputs: { input_value: 'files?' }, files: [`${stored.user_id}/secret.txt`, '/etc/passwd'] });
    const fileEvents = await readBuildStream(withFiles);
    t.equal(lastMessage(fileEvents).text, 'files?');
    t.notMatch(JSON.stringify(fileEvents), /secret\.txt|etc\/passwd/, "the body's file paths (read as the owner's) are attached to no message");
  });
}

t.test('with custom components on, an editor build runs the custom code of the data it sends', async (t) => {
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true' });
  t.teardown(() => server.close());
  const stored = await createFlow(server, echoFlow('Editor target'));
  const custom = customFlow('shout', SHOUT_SOURCE, 'shouted', 'Shout', { times: 2 });
  const res = await server.request(`/api/v1/build/${stored.id}/flow?event_delivery=direct`, { method: 'POST', json: { inputs: { input_value: 'hey' }, data: custom.data } });
  t.equal(res.status, 200, 'not refused as if custom components were off');
  const events = await readBuildStream(res);
  t.equal(lastMessage(events).text, 'HEY HEY', "the sent data's custom component ran");

  const off = await startTestServer();
  t.teardown(() => off.close());
  const target = await createFlow(off, echoFlow('Editor target off'));
  const refused = await off.request(`/api/v1/build/${target.id}/flow?event_delivery=direct`, { method: 'POST', json: { inputs: { input_value: 'hey' }, data: custom.data } });
  t.equal(refused.status, 400, 'where custom components are off, the same data is refused');
  t.match((await refused.json()).detail, /Shout-cc001.*custom components are not allowed/);
});
