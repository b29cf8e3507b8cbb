/**
 * Who reaches a project's MCP server, through the real edge on every adapter and both transports with the SDK's
 * client: by default its owner only (their key or their access token); no key and a wrong key are Langflow's 401s,
 * another user's key "Project not found"; `auth_type: none` set by the owner opens it to anyone, acting as the
 * owner but without the power to replace the owner's variables; `apikey` (or settings without a type) closes it.
 */
import t from 'tap';
import { MCP_SETTINGS_MAX } from '../protocol/mcp.schema.js';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { echoFlow, edge, flow, node } from './support/langflow-json.js';
import { connectMcp, type McpTransportKind } from './support/mcp-client.js';
import { startTestServer, type TestServer } from './support/server.js';

const KINDS: McpTransportKind[] = ['streamable', 'sse'];
const KEY_REQUIRED = 'API key required for this project. Provide x-api-key header or query parameter.';

async function project(server: TestServer, name: string): Promise<{ id: string; base: string }> {
  const created = await (await server.request('/api/v1/projects/', { method: 'POST', json: { name } })).json();
  await createFlow(server, echoFlow(`${name} echo`, { folder_id: created.id, mcp_enabled: true, action_name: 'echo' }));
  const greeting = flow(`${name} greeting`, [node('ChatInput-in001', 'ChatInput', { input_value: { value: 'GREETING', load_from_db: true } }), node('ChatOutput-out01', 'ChatOutput')], [edge('ChatInput-in001', 'message', 'ChatOutput-out01', 'input_value')], { folder_id: created.id, mcp_enabled: true, action_name: 'greeting' });
  await createFlow(server, greeting);
  return { id: created.id, base: `/api/v1/mcp/project/${created.id}` };
}

async function ownerToken(server: TestServer): Promise<string> {
  const body = new URLSearchParams({ username: 'langflow', password: 'test-password' }).toString();
  const login = await server.request('/api/v1/login', { method: 'POST', key: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return (await login.json()).access_token;
}

/** Lists and calls the echo tool; resolves to what the call answered. */
async function useServer(server: TestServer, kind: McpTransportKind, base: string, key: string | null, headers: Record<string, string> = {}): Promise<string> {
  const mcp = await connectMcp(server, kind, { base, key, headers });
  try {
    const tools = (await mcp.client.listTools()).tools.map((tool) => tool.name).sort();
    if (tools.join() !== 'echo,greeting') throw new Error(`unexpected tools ${tools.join()}`);
    const called = await mcp.client.callTool({ name: 'echo', arguments: { input_value: `via ${kind}` } });
    return (called.content as { text: string }[])[0]!.text;
  } finally {
    await mcp.close();
  }
}

const patch = (server: TestServer, id: string, json: unknown) => server.request(`/api/v1/mcp/project/${id}`, { method: 'PATCH', json });

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: a project's MCP server answers only its owner unless the owner opens it`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter });
    t.teardown(() => server.close());
    const { id, base } = await project(server, `Access ${adapter}`);
    const other = await secondUser(server, `mcp-access-${adapter}`);
    t.equal((await (await server.request(base)).json()).auth_settings, null, 'no settings written: the default');

    const keyless = await server.request(`${base}/streamable`, { key: null, method: 'POST', headers: { accept: 'application/json, text/event-stream' }, json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    t.equal(keyless.status, 401);
    t.same(await keyless.json(), { detail: KEY_REQUIRED });
    const sseKeyless = await server.request(`${base}/sse`, { key: null });
    t.equal(sseKeyless.status, 401);
    const postKeyless = await server.request(base, { key: null, method: 'POST', json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    t.equal(postKeyless.status, 401, 'the SSE message route too');
    const otherRaw = await server.request(`${base}/streamable`, { key: other.key, method: 'POST', headers: { accept: 'application/json, text/event-stream' }, json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    t.equal(otherRaw.status, 404);
    t.same(await otherRaw.json(), { detail: 'Project not found' });
    for (const kind of KINDS) {
      await t.rejects(connectMcp(server, kind, { base, key: null }), /401|API key required/, `${kind}: no key`);
      await t.rejects(connectMcp(server, kind, { base, key: 'sk-not-a-key' }), /401|Invalid API key/, `${kind}: a wrong key`);
      await t.rejects(connectMcp(server, kind, { base, key: other.key }), /404|Project not found/, `${kind}: another user's key`);
      t.equal(await useServer(server, kind, base, server.apiKey), `via ${kind}`, `${kind}: the owner's key`);
    }
    const token = await ownerToken(server);
    t.equal(await useServer(server, 'streamable', base, null, { authorization: `Bearer ${token}` }), 'via streamable', "the owner's access token");

    t.equal((await patch(server, id, { settings: [], auth_settings: {} })).status, 200);
    t.same((await (await server.request(base)).json()).auth_settings, { auth_type: 'apikey' }, 'settings without a type are apikey');
    await t.rejects(connectMcp(server, 'streamable', { base, key: null }), /API key required/, 'and stay closed');

    t.equal((await patch(server, id, { settings: [], auth_settings: { auth_type: 'none' } })).status, 200);
    t.same((await (await server.request(base)).json()).auth_settings, { auth_type: 'none' }, 'the settings answer that it is public');
    for (const kind of KINDS) {
      t.equal(await useServer(server, kind, base, null), `via ${kind}`, `${kind}: anyone, once the owner wrote none`);
      t.equal(await useServer(server, kind, base, other.key), `via ${kind}`, `${kind}: another user as a visitor`);
    }
    const header = { 'X-LANGFLOW-GLOBAL-VAR-GREETING': 'set by a visitor' };
    const visitor = await connectMcp(server, 'streamable', { base, key: null, headers: header });
    const visitorCall = await visitor.client.callTool({ name: 'greeting', arguments: {} });
    await visitor.close();
    t.notMatch(JSON.stringify(visitorCall.content), /set by a visitor/, "a visitor's variable headers do not replace the owner's variables");
    const owner = await connectMcp(server, 'streamable', { base, headers: header });
    const ownerCall = await owner.client.callTool({ name: 'greeting', arguments: {} });
    await owner.close();
    t.same(ownerCall.content, [{ type: 'text', text: 'set by a visitor' }], "the owner's own variable headers still count");

    t.equal((await patch(server, id, { settings: [], auth_settings: { auth_type: 'apikey' } })).status, 200);
    for (const kind of KINDS) await t.rejects(connectMcp(server, kind, { base, key: null }), /401|API key required/, `${kind}: closed again`);
  });
}

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: PATCH settings: repeats of a flow are one update (the last wins); past the bound a 422`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter });
    t.teardown(() => server.close());
    const { id, base } = await project(server, `Patch ${adapter}`);
    const [flowId] = (await (await server.request(`${base}?mcp_enabled=false`)).json()).tools.map((tool: { id: string }) => tool.id);
    const repeats = Array.from({ length: MCP_SETTINGS_MAX }, (_, i) => ({ id: flowId, mcp_enabled: true, action_name: `name ${i}` }));
    const res = await patch(server, id, { settings: repeats });
    t.same(await res.json(), { message: 'Updated MCP settings for 1 flows' });
    const tools = (await (await server.request(base)).json()).tools as { id: string; action_name: string }[];
    t.equal(tools.find((tool) => tool.id === flowId)!.action_name, `name_${MCP_SETTINGS_MAX - 1}`, 'the last entry for the flow is what it keeps');
    const over = await patch(server, id, { settings: [...repeats, repeats[0]] });
    t.equal(over.status, 422);
    t.match(JSON.stringify(await over.json()), `At most ${MCP_SETTINGS_MAX} items`);
    t.equal((await server.request('/health')).status, 200);
  });
}

t.test('with FLOWSVC_SKIP_AUTH_AUTO_LOGIN, a keyless client acts as the superuser and reaches its own projects only', async (t) => {
  const server = await startTestServer({ SKIP_AUTH_AUTO_LOGIN: 'true' });
  t.teardown(() => server.close());
  const mine = await project(server, 'Superuser own');
  t.equal(await useServer(server, 'streamable', mine.base, null), 'via streamable');
  const other = await secondUser(server, 'mcp-skip-other');
  const theirs = await (await server.request('/api/v1/projects/', { method: 'POST', key: other.key, json: { name: 'Theirs' } })).json();
  const refused = await server.request(`/api/v1/mcp/project/${theirs.id}/streamable`, { key: null, method: 'POST', headers: { accept: 'application/json, text/event-stream' }, json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
  t.equal(refused.status, 404, "another user's project is not the superuser's to reach without a key");
});
