/**
 * The README's table of what answers without a key, row by row, through the real edge on every adapter: each row's
 * limit holds for a caller with no credentials (the rows that need a setting of their own are tested beside it:
 * public builds in build-data-policy, MCP projects in mcp-project-access, webhooks in webhook, auto-login in
 * auto-login-hosts, /metrics in metrics, voice in voice-refusals).
 */
import t from 'tap';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, flow, node } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

const anonymous = (server: TestServer, path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, key: null });
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: each route open without a key does only what its row says`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter });
    t.teardown(() => server.close());
    const secretNode = node('OpenAIModel-mod01', 'OpenAIModel', { api_key: { value: 'sk-owner-secret', password: true, load_from_db: false } });
    const publicFlow = await createFlow(server, flow('Shown', [secretNode], [], { access_type: 'PUBLIC' }));
    const privateFlow = await createFlow(server, echoFlow('Hidden'));

    t.test('health and version say the service is up, and nothing of anyone', async (t) => {
      for (const path of ['/health', '/health_check', '/api/v1/version']) {
        const res = await anonymous(server, path);
        t.equal(res.status, 200, path);
        t.notMatch(await res.text(), /langflow|user|sk-/, `${path} names no user and no key`);
      }
    });

    t.test('docs serve the API description and the bundled assets only', async (t) => {
      t.equal((await anonymous(server, '/openapi.json')).status, 200);
      t.equal((await anonymous(server, '/docs')).status, 200);
      for (const name of ['..%2F..%2Fpackage.json', '%2E%2E%2F.flowsvc', 'package.json']) {
        t.equal((await anonymous(server, `/docs/assets/${name}`)).status, 404, `asset ${name}`);
      }
    });

    t.test('login, refresh and logout hand out nothing without a valid password or token', async (t) => {
      const body = new URLSearchParams({ username: 'langflow', password: 'wrong' }).toString();
      const login = await anonymous(server, '/api/v1/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      t.equal(login.status, 401);
      const refresh = await anonymous(server, '/api/v1/refresh', { method: 'POST', headers: { cookie: 'refresh_token_lf=not-a-token' } });
      t.equal(refresh.status, 401);
      t.notOk(refresh.headers.get('set-cookie')?.includes('access_token_lf=ey'), 'no token handed out');
      const logout = await anonymous(server, '/api/v1/logout', { method: 'POST' });
      t.equal(logout.status, 200, 'logout only clears cookies');
      t.equal((await server.request('/api/v1/users/whoami')).status, 200, 'and changes nothing stored');
    });

    t.test('a PUBLIC flow is readable without its secrets; a private or unknown one is not', async (t) => {
      const read = await anonymous(server, `/api/v1/flows/public_flow/${publicFlow.id}`);
      t.equal(read.status, 200);
      const text = await read.text();
      t.match(text, /OpenAIModel-mod01/);
      t.notMatch(text, /sk-owner-secret/, "the owner's typed-in secret is left out");
      for (const id of [privateFlow.id, UNKNOWN]) t.equal((await anonymous(server, `/api/v1/flows/public_flow/${id}`)).status, 403, id);
      t.equal((await anonymous(server, '/api/v1/flows/basic_examples')).status, 200, 'the shipped examples');
    });

    t.test('public builds run PUBLIC flows only, and a visitor reads only its own builds', async (t) => {
      const headers = { cookie: 'client_id=anon-audit' };
      const build = (id: string) => anonymous(server, `/api/v1/build_public_tmp/${id}/flow`, { method: 'POST', headers, json: { inputs: { input_value: 'x' } } });
      t.equal((await build(privateFlow.id)).status, 403);
      t.equal((await build(UNKNOWN)).status, 404);
      t.equal((await anonymous(server, `/api/v1/build_public_tmp/${UNKNOWN}/events`, { headers })).status, 404);
      t.equal((await anonymous(server, `/api/v1/build_public_tmp/${UNKNOWN}/cancel`, { method: 'POST', headers })).status, 404);
    });

    t.test('the removed build routes, the voice paths over HTTP and shared messages do nothing', async (t) => {
      t.equal((await anonymous(server, `/api/v1/build/${privateFlow.id}/vertices`, { method: 'POST', json: {} })).status, 410);
      t.equal((await anonymous(server, `/api/v1/voice/ws/flow_tts/${privateFlow.id}`)).status, 426);
      const shared = await anonymous(server, `/api/v1/monitor/messages/shared?source_flow_id=${publicFlow.id}`);
      t.ok([404, 405].includes(shared.status), `shared playground messages are not served (${shared.status})`);
      t.notMatch(await shared.text(), /Shown|sender/);
    });

    t.test("a project's MCP server: HEAD says only that the route exists; the rest wants its owner", async (t) => {
      const project = await (await server.request('/api/v1/projects/', { method: 'POST', json: { name: `Audit ${adapter}` } })).json();
      for (const id of [project.id, UNKNOWN]) {
        const head = await anonymous(server, `/api/v1/mcp/project/${id}/streamable`, { method: 'HEAD' });
        t.equal(head.status, 200);
        t.equal(await head.text(), '');
      }
      const sse = await anonymous(server, `/api/v1/mcp/project/${project.id}/sse`);
      t.equal(sse.status, 401);
      t.equal((await anonymous(server, `/api/v1/mcp/project/${UNKNOWN}/sse`)).status, 404);
    });

    t.test('the webhook wants a key by default', async (t) => {
      const res = await anonymous(server, `/api/v1/webhook/${privateFlow.id}`, { method: 'POST', body: '{}' });
      t.equal(res.status, 403);
      t.equal((await server.request('/health')).status, 200);
    });
  });
}
