/**
 * A project's MCP server and settings: only its enabled flows are tools (under their action names); PATCH enables,
 * disables and renames them, and connected clients hear tools/list_changed; `apikey` auth refuses keyless and
 * wrong keys with Langflow's 401 messages; another user's project is a 404; install answers a config, writes none.
 */
import t from 'tap';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { connectMcp, type McpTransportKind } from './support/mcp-client.js';
import { startTestServer, type TestServer } from './support/server.js';
import { occurrence, within } from './support/within.js';

let server: TestServer;

t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

async function newProject(name: string): Promise<{ id: string; enabled: string; disabled: string; base: string }> {
  const res = await server.request('/api/v1/projects/', { method: 'POST', json: { name } });
  const project = await res.json();
  const enabled = (await createFlow(server, echoFlow(`${name} Enabled`, { folder_id: project.id, mcp_enabled: true, action_name: 'Shout It', action_description: 'Says it back' }))).id;
  const disabled = (await createFlow(server, echoFlow(`${name} Hidden`, { folder_id: project.id, mcp_enabled: false }))).id;
  return { id: project.id, enabled, disabled, base: `/api/v1/mcp/project/${project.id}` };
}

const settings = async (projectId: string, all = false) => (await server.request(`/api/v1/mcp/project/${projectId}${all ? '?mcp_enabled=false' : ''}`)).json();
const patch = (projectId: string, json: unknown) => server.request(`/api/v1/mcp/project/${projectId}`, { method: 'PATCH', json });

t.test('GET lists the enabled actions (all with mcp_enabled=false) with Langflow 1.7 shapes', async (t) => {
  const project = await newProject('Settings One');
  const enabledOnly = await settings(project.id);
  t.same(enabledOnly, {
    tools: [{ id: project.enabled, mcp_enabled: true, action_name: 'shout_it', action_description: 'Says it back', name: 'Settings One Enabled', description: null }],
    auth_settings: null,
  });
  t.same((await settings(project.id, true)).tools.map((tool: { id: string }) => tool.id), [project.enabled, project.disabled]);
});

for (const kind of ['streamable', 'sse'] as McpTransportKind[]) {
  t.test(`${kind}: only enabled flows are tools; disabling one sends tools/list_changed and it disappears`, async (t) => {
    const project = await newProject(`Listing ${kind}`);
    const mcp = await connectMcp(server, kind, { base: project.base });
    t.teardown(() => mcp.close());
    t.same((await mcp.client.listTools()).tools.map((tool) => tool.name), ['shout_it']);
    const called = await mcp.client.callTool({ name: 'shout_it', arguments: { input_value: 'project call' } });
    t.same(called.content, [{ type: 'text', text: 'project call' }]);
    const changed = occurrence();
    mcp.client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.fire());
    await within(mcp.listening, 'the client listening for notifications');
    const res = await patch(project.id, { settings: [{ id: project.enabled, mcp_enabled: false }] });
    t.same(await res.json(), { message: 'Updated MCP settings for 1 flows' });
    await within(changed.happened, 'tools/list_changed');
    t.same((await mcp.client.listTools()).tools, [], 'the disabled flow is no longer a tool');
  });
}

t.test('PATCH enables and renames an action; the project server offers it under the new name', async (t) => {
  const project = await newProject('Renaming');
  const res = await patch(project.id, { settings: [{ id: project.disabled, mcp_enabled: true, action_name: 'Now Visible 2', action_description: 'Fresh words' }] });
  t.equal(res.status, 200);
  const mcp = await connectMcp(server, 'streamable', { base: project.base });
  t.teardown(() => mcp.close());
  const tools = (await mcp.client.listTools()).tools;
  t.same(tools.map((tool) => [tool.name, tool.description]), [['shout_it', 'Says it back'], ['now_visible_2', 'Fresh words']]);
});

t.test('apikey auth: a keyless client and a wrong key get 401s, the owner\'s key gets in, another user\'s is a 404', async (t) => {
  const project = await newProject('Locked');
  const res = await patch(project.id, { settings: [], auth_settings: { auth_type: 'apikey' } });
  t.same(await res.json(), { message: 'Updated MCP settings for 0 flows and project auth settings' });
  t.same((await settings(project.id)).auth_settings, { auth_type: 'apikey' });
  const keyless = await server.request(`${project.base}/streamable`, { key: null, method: 'POST', headers: { accept: 'application/json, text/event-stream' }, json: {} });
  t.equal(keyless.status, 401);
  t.same(await keyless.json(), { detail: 'API key required for this project. Provide x-api-key header or query parameter.' });
  await t.rejects(connectMcp(server, 'streamable', { base: project.base, key: null }), /API key required for this project/);
  await t.rejects(connectMcp(server, 'sse', { base: project.base, key: null }), /401/);
  await t.rejects(connectMcp(server, 'streamable', { base: project.base, key: 'sk-wrong' }), /Invalid API key/);
  const other = await secondUser(server, 'mcp-project-other');
  await t.rejects(connectMcp(server, 'streamable', { base: project.base, key: other.key }), /Project not found/);
  const owner = await connectMcp(server, 'streamable', { base: project.base });
  t.teardown(() => owner.close());
  t.same((await owner.client.listTools()).tools.map((tool) => tool.name), ['shout_it']);
  t.equal((await server.request(`/api/v1/mcp/project/${project.id}`, { key: other.key })).status, 404, "another user cannot read the project's settings");
});

t.test('X-LANGFLOW-GLOBAL-VAR-* headers reach the run as request variables', async (t) => {
  const project = await newProject('Variables');
  const varFlow = flow('Greeting', [node('ChatInput-in001', 'ChatInput', { input_value: { value: 'GREETING', load_from_db: true } }), node('ChatOutput-out01', 'ChatOutput')], [edge('ChatInput-in001', 'message', 'ChatOutput-out01', 'input_value')], { folder_id: project.id, mcp_enabled: true });
  await createFlow(server, varFlow);
  const mcp = await connectMcp(server, 'streamable', { base: project.base, headers: { 'X-LANGFLOW-GLOBAL-VAR-GREETING': 'hello from a header' } });
  t.teardown(() => mcp.close());
  const result = await mcp.client.callTool({ name: 'greeting', arguments: {} });
  t.same(result.content, [{ type: 'text', text: 'hello from a header' }]);
});

t.test('install answers the client configuration and writes nothing; installed knows of no configured client', async (t) => {
  const project = await newProject('Desk Top');
  const res = await server.request(`/api/v1/mcp/project/${project.id}/install`, { method: 'POST', json: { client: 'cursor' } });
  t.equal(res.status, 200);
  const body = await res.json();
  const url = new URL(server.url);
  // A project's server wants its owner's key unless the owner made it public: the config carries a placeholder.
  t.same(body.config, { mcpServers: { 'lf-desk_top': { command: 'uvx', args: ['mcp-proxy', '--transport', 'streamablehttp', '--headers', 'x-api-key', 'YOUR_API_KEY', `http://${url.host}/api/v1/mcp/project/${project.id}/streamable`] } } });
  await server.request(`/api/v1/mcp/project/${project.id}`, { method: 'PATCH', json: { settings: [], auth_settings: { auth_type: 'none' } } });
  const open = await (await server.request(`/api/v1/mcp/project/${project.id}/install`, { method: 'POST', json: { client: 'cursor' } })).json();
  t.same(open.config.mcpServers['lf-desk_top'].args, ['mcp-proxy', '--transport', 'streamablehttp', `http://${url.host}/api/v1/mcp/project/${project.id}/streamable`], 'a public server needs no key');
  t.equal(body.client, 'cursor');
  const installed = await (await server.request(`/api/v1/mcp/project/${project.id}/installed`)).json();
  t.same(installed.map((c: { name: string; installed: boolean }) => [c.name, c.installed]), [['claude', false], ['cursor', false], ['windsurf', false]]);
  const bad = await server.request(`/api/v1/mcp/project/${project.id}/install`, { method: 'POST', json: { client: 'notepad' } });
  t.equal(bad.status, 422);
});

t.test('a flow keeps its MCP fields through export and upload', async (t) => {
  const project = await newProject('Exported');
  const exported = await (await server.request('/api/v1/flows/download/', { method: 'POST', json: [project.enabled] })).json();
  t.match(exported, { mcp_enabled: true, action_name: 'Shout It', action_description: 'Says it back' });
  const uploaded = await createFlow(server, { ...exported, name: 'Exported Again' });
  t.match(uploaded, { mcp_enabled: true, action_name: 'Shout It', action_description: 'Says it back' });
});
