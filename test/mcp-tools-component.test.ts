/**
 * MCP Tools on the Nvidia Remix starter's shape (MCP Tools -> the Agent's tools), against our own MCP server over
 * Streamable HTTP and SSE with the official SDK's client: the server's tools reach the model, and a call the model
 * makes runs through MCP (here: a flow of ours, exposed as a tool). The private network guard applies to the URL,
 * and a stdio command runs only when the operator lists it.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { startModelServer, type ModelServer, type RecordedRequest } from './support/model-server.js';
import { keyVariable, modelClient } from './support/model-flows.js';
import { startTestServer, type TestServer } from './support/server.js';

const MCP = 'MCPTools-rIgsP';
let model: ModelServer;
let server: TestServer;
t.before(async () => {
  model = await startModelServer();
  // Our own MCP server is on loopback: this service may reach it; the guard's own test uses a second service.
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false', ALLOW_PRIVATE_NETWORK: 'true' });
});
t.teardown(async () => {
  await server.close();
  await model.close();
});

const toolMessage = (request: RecordedRequest) => request.body.messages.find((m: { role: string }) => m.role === 'tool');

function remixFlow(name: string, mcpServer: unknown) {
  const agent = { agent_llm: 'OpenAI', model_name: 'gpt-4.1', api_key: keyVariable(), openai_api_base: model.baseURL, system_prompt: 'Use the tools.' };
  return flow(
    name,
    [
      node('ChatInput-rmx01', 'ChatInput', {}, 'Chat Input'),
      node(MCP, 'MCPTools', { mcp_server: mcpServer, headers: {}, tool: '', tool_execution_timeout: 0, use_cache: false, verify_ssl: true }, 'MCP Tools'),
      node('Agent-0RVoH', 'Agent', agent, 'Agent'),
      node('ChatOutput-rmx01', 'ChatOutput', {}, 'Chat Output'),
    ],
    [edge('ChatInput-rmx01', 'message', 'Agent-0RVoH', 'input_value'), edge(MCP, 'component_as_tool', 'Agent-0RVoH', 'tools'), edge('Agent-0RVoH', 'response', 'ChatOutput-rmx01', 'input_value')],
  );
}

for (const kind of ['streamable', 'sse']) {
  t.test(`${kind}: the server's tools reach the model, and the model's call runs through MCP`, async (t) => {
    await createFlow(server, echoFlow(`Relay ${kind}`, { description: 'Repeats what it is given' }));
    const tool = `relay_${kind}`;
    const url = `${server.url}/api/v1/mcp/${kind}`;
    const created = await createFlow(server, remixFlow(`Remix ${kind}`, { name: 'ours', config: { url, headers: { 'x-api-key': server.apiKey } } }));
    model.script({ toolCalls: [{ name: tool, arguments: { input_value: `ping over ${kind}` } }] }, (request) => ({ text: `Tool said: ${toolMessage(request)?.content ?? 'nothing'}` }));
    const before = model.chats.length;
    const response = await modelClient(server).flow(created.id).run('Relay something');
    const [first, second] = model.chats.slice(before);
    const offered = first!.body.tools.map((entry: any) => entry.function.name);
    t.ok(offered.includes(tool), `the flow tool is offered to the model (${offered.join(', ')})`);
    t.same(first!.body.tools.find((entry: any) => entry.function.name === tool).function.parameters.properties.input_value.type, 'string');
    t.equal(toolMessage(second!).content, `ping over ${kind}`, 'the call ran the flow through MCP and its answer went back to the model');
    t.match(response.chatOutputText(), `Tool said: ping over ${kind}`);
  });
}

async function refusedRun(target: TestServer, mcpServer: unknown): Promise<string> {
  const created = await createFlow(target, remixFlow('Remix refused', mcpServer));
  const res = await target.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'x' } });
  t.not(res.status, 200);
  return (await res.json()).detail;
}

t.test('with the private network guard on, an MCP URL on loopback is refused naming the node, before connecting', async (t) => {
  const guarded = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
  t.teardown(() => guarded.close());
  const before = model.chats.length;
  const detail = await refusedRun(guarded, { name: 'loop', config: { url: `${server.url}/api/v1/mcp/streamable` } });
  t.match(detail, MCP);
  t.match(detail, /MCP server http:\/\/127\.0\.0\.1:\d+\/api\/v1\/mcp\/streamable refused: it resolves to a loopback address.*FLOWSVC_ALLOW_PRIVATE_NETWORK=true allows it/s);
  t.equal(model.chats.length, before, 'the Agent never ran');
});

t.test('a stdio command not listed in FLOWSVC_MCP_STDIO_COMMANDS is refused; no server chosen says what to set', async (t) => {
  t.match(await refusedRun(server, { name: 'local', config: { command: 'node', args: ['-e', 'process.exit(1)'] } }), 'The MCP server command "node" is not allowed here: the operator lists the commands MCP Tools may run in FLOWSVC_MCP_STDIO_COMMANDS');
  t.match(await refusedRun(server, {}), `${MCP}`);
  t.match(await refusedRun(server, {}), 'Field "MCP Server" (mcp_server): no MCP server is chosen');
  t.match(await refusedRun(server, { name: 'remix', config: {} }), 'the server "remix" has no url or command here');
});
