/**
 * The global MCP server through the real edge with the official SDK client: its tools are the caller's flows
 * (Langflow's names, descriptions and input schema), and a call runs the flow and answers its output, over
 * Streamable HTTP (stateful and stateless) and legacy SSE.
 */
import t from 'tap';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, flow, node } from './support/langflow-json.js';
import { connectMcp, type McpTransportKind } from './support/mcp-client.js';
import { startTestServer, type TestServer } from './support/server.js';
import { within } from './support/within.js';

let server: TestServer;
let echoId: string;

t.before(async () => {
  server = await startTestServer();
  echoId = (await createFlow(server, echoFlow('My Échö Flow! 🚀', { description: 'Echoes its input' }))).id;
});
t.teardown(() => server.close());

for (const kind of ['streamable', 'sse'] as McpTransportKind[]) {
  t.test(`${kind}: tools/list names the caller's flows as Langflow does, with the Chat Input's schema`, async (t) => {
    const mcp = await connectMcp(server, kind);
    t.teardown(() => mcp.close());
    const { tools } = await mcp.client.listTools();
    const echo = tools.find((tool) => tool.name === 'my_echo_flow');
    t.ok(echo, `the flow is a tool named my_echo_flow (got ${tools.map((tool) => tool.name).join(', ')})`);
    t.equal(echo!.description, `${echoId}: Echoes its input`);
    t.same(echo!.inputSchema, { type: 'object', properties: { input_value: { type: 'string', description: 'Message to be passed as input.' } }, required: [] });
  });

  t.test(`${kind}: tools/call runs the flow and answers its output as text`, async (t) => {
    const mcp = await connectMcp(server, kind);
    t.teardown(() => mcp.close());
    const result = await mcp.client.callTool({ name: 'my_echo_flow', arguments: { input_value: `hello over ${kind}` } });
    t.same(result.content, [{ type: 'text', text: `hello over ${kind}` }]);
    t.notOk(result.isError);
  });
}

t.test('an unknown tool answers an error result naming it', async (t) => {
  const mcp = await connectMcp(server, 'streamable');
  t.teardown(() => mcp.close());
  const result = await mcp.client.callTool({ name: 'no_such_flow', arguments: {} });
  t.equal(result.isError, true);
  t.same(result.content, [{ type: 'text', text: "Flow with name 'no_such_flow' not found" }]);
});

t.test('creating, renaming and deleting a flow each send tools/list_changed, and the list follows', async (t) => {
  const mcp = await connectMcp(server, 'streamable');
  t.teardown(() => mcp.close());
  const names = async () => (await mcp.client.listTools()).tools.map((tool) => tool.name);
  t.notOk((await names()).includes('late_arrival'));
  await within(mcp.listening, 'the client listening for notifications');
  let changes = 0;
  let heard: () => void = () => {};
  mcp.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
    heard();
  });
  const nextChange = () => new Promise<void>((resolve) => (heard = resolve));
  let changed = nextChange();
  const created = await createFlow(server, echoFlow('Late Arrival'));
  await within(changed, 'list_changed after a create');
  t.ok((await names()).includes('late_arrival'), 'the new flow is listed');
  changed = nextChange();
  await server.request(`/api/v1/flows/${created.id}`, { method: 'PATCH', json: { name: 'Renamed Arrival' } });
  await within(changed, 'list_changed after a rename');
  const renamed = await names();
  t.ok(renamed.includes('renamed_arrival') && !renamed.includes('late_arrival'), 'listed under its new name');
  changed = nextChange();
  await server.request(`/api/v1/flows/${created.id}`, { method: 'DELETE' });
  await within(changed, 'list_changed after a delete');
  t.notOk((await names()).includes('renamed_arrival'), 'the deleted flow is gone');
  t.ok(changes >= 3);
});

t.test('a flow that does not build answers Langflow\'s error text, and still lists with the default schema', async (t) => {
  await createFlow(server, flow('Broken Build', [node('Mystery-1', 'NoSuchComponent')], []));
  const mcp = await connectMcp(server, 'streamable');
  t.teardown(() => mcp.close());
  const listed = (await mcp.client.listTools()).tools.find((tool) => tool.name === 'broken_build');
  t.same(listed?.inputSchema, { type: 'object', properties: { input_value: { type: 'string', description: 'Message to be passed as input.' } }, required: [] });
  const result = await mcp.client.callTool({ name: 'broken_build', arguments: { input_value: 'x' } });
  t.notOk(result.isError);
  t.match((result.content as { text: string }[])[0].text, /^Error Executing the Broken Build tool\. Error: .*NoSuchComponent/);
});
