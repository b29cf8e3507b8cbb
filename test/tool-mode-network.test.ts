/**
 * A URL component used as an agent tool follows the service's FLOWSVC_ALLOW_PRIVATE_NETWORK like the component
 * itself: set, the tool reaches a loopback page; unset, the refusal goes back to the model and the run goes on.
 */
import t from 'tap';
import { agentToolFlow, repeatToolResult, toolMessageOf } from './support/agent-tool-flow.js';
import { createFlow } from './support/flow-helpers.js';
import { httpFixture } from './support/http-fixture.js';
import { startModelServer } from './support/model-server.js';
import { modelClient } from './support/model-flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const page = await httpFixture({ '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('the loopback page') });
const model = await startModelServer();
t.teardown(async () => {
  await page.close();
  await model.close();
});

async function askForThePage(server: TestServer): Promise<{ toolSaw: string; reply: string }> {
  const urlTool = { id: 'URLComponent-tool1', type: 'URLComponent', template: { urls: [] } };
  const created = await createFlow(server, agentToolFlow('URL tool', urlTool, model.baseURL));
  model.script({ toolCalls: [{ name: 'fetch_content_as_message', arguments: { urls: [`${page.url}/page`] } }] }, repeatToolResult);
  const before = model.chats.length;
  const reply = await modelClient(server).flow(created.id).run('Read the page');
  return { toolSaw: toolMessageOf(model.chats[before + 1]!), reply: reply.chatOutputText() ?? '' };
}

t.test('with FLOWSVC_ALLOW_PRIVATE_NETWORK=true the tool reaches a loopback page', async (t) => {
  const server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'true' });
  t.teardown(() => server.close());
  const seen = page.seen.length;
  const { toolSaw, reply } = await askForThePage(server);
  t.match(toolSaw, /the loopback page/);
  t.notMatch(toolSaw, /refused/);
  t.equal(page.seen.length, seen + 1, 'the page was fetched once');
  t.match(reply, /^Tool said: .*the loopback page/);
});

t.test('by default the refusal is the tool result and the run still answers', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const seen = page.seen.length;
  const { toolSaw, reply } = await askForThePage(server);
  t.match(toolSaw, /refused: it resolves to a loopback address \(FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it\)/);
  t.equal(page.seen.length, seen, 'no request reached the page');
  t.match(reply, /^Tool said: /);
});
