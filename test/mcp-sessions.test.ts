/**
 * MCP sessions over Streamable HTTP: a stateful client keeps one session until DELETE ends it; a stateless client
 * is served request by request; an unknown session is a 404; a user's server never offers another user's flows.
 */
import t from 'tap';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { connectMcp } from './support/mcp-client.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;

t.before(async () => {
  server = await startTestServer();
  await createFlow(server, echoFlow('Session Echo'));
});
t.teardown(() => server.close());

const sessionGet = (sessionId: string) => server.request('/api/v1/mcp/streamable', { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });

t.test('a stateful session is held until DELETE ends it; then its id is a 404', async (t) => {
  const before = server.services.mcp.sessions.size;
  const mcp = await connectMcp(server, 'streamable');
  const sessionId = (mcp.client.transport as { sessionId?: string }).sessionId;
  t.ok(sessionId, 'the server handed out a session id');
  t.equal(server.services.mcp.sessions.size, before + 1);
  t.ok((await mcp.client.listTools()).tools.some((tool) => tool.name === 'session_echo'));
  await mcp.close();
  t.equal(server.services.mcp.sessions.size, before, 'DELETE ended the session');
  const again = await sessionGet(sessionId!);
  t.equal(again.status, 404);
  t.match(await again.json(), { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' } });
});

t.test('a session id nobody handed out is a 404', async (t) => {
  const res = await sessionGet('not-a-session');
  t.equal(res.status, 404);
  t.match(await res.json(), { error: { message: 'Session not found' } });
});

t.test('a stateless client lists and calls tools without a session', async (t) => {
  const mcp = await connectMcp(server, 'streamable', { stateless: true });
  t.teardown(() => mcp.close());
  t.notOk((mcp.client.transport as { sessionId?: string }).sessionId, 'the client holds no session');
  const held = server.services.mcp.sessions.size;
  t.ok((await mcp.client.listTools()).tools.some((tool) => tool.name === 'session_echo'));
  const result = await mcp.client.callTool({ name: 'session_echo', arguments: { input_value: 'stateless hello' } });
  t.same(result.content, [{ type: 'text', text: 'stateless hello' }]);
  t.equal(server.services.mcp.sessions.size, held, 'no session was opened for those requests');
});

t.test("another user's flows are not the caller's tools, and the caller cannot call them", async (t) => {
  const other = await secondUser(server, 'mcp-other');
  await createFlow(server, echoFlow('Private Other Flow'), other.key);
  const mine = await connectMcp(server, 'streamable');
  t.teardown(() => mine.close());
  t.notOk((await mine.client.listTools()).tools.some((tool) => tool.name === 'private_other_flow'));
  const call = await mine.client.callTool({ name: 'private_other_flow', arguments: { input_value: 'x' } });
  t.equal(call.isError, true);
  const theirs = await connectMcp(server, 'streamable', { key: other.key });
  t.teardown(() => theirs.close());
  const names = (await theirs.client.listTools()).tools.map((tool) => tool.name);
  t.same(names, ['private_other_flow'], 'the other user sees only their own flow');
});

t.test('the global server refuses a client without credentials', async (t) => {
  await t.rejects(connectMcp(server, 'streamable', { key: null }), /An API key is required/);
});

t.test('HEAD answers 200 as a health check', async (t) => {
  t.equal((await server.request('/api/v1/mcp/streamable', { method: 'HEAD' })).status, 200);
  t.equal((await server.request('/api/v1/mcp/sse', { method: 'HEAD' })).status, 200);
});

t.test("resources are the flows' v1 files, read back as base64; prompts are an empty list", async (t) => {
  const created = await createFlow(server, echoFlow('With Files'));
  const body = new FormData();
  body.append('file', new Blob(['resource bytes']), 'notes.txt');
  const uploaded = await (await server.request(`/api/v1/files/upload/${created.id}`, { method: 'POST', body })).json();
  const stored = String(uploaded.file_path).split('/')[1];
  const mcp = await connectMcp(server, 'streamable');
  t.teardown(() => mcp.close());
  const { resources } = await mcp.client.listResources();
  const mine = resources.filter((resource) => resource.uri.includes(created.id));
  t.same(mine.map((resource) => resource.name), [stored]);
  t.equal(new URL(mine[0].uri).pathname, `/api/v1/files/${created.id}/${stored}`);
  const read = await mcp.client.readResource({ uri: mine[0].uri });
  t.equal(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64').toString(), 'resource bytes');
  await t.rejects(mcp.client.readResource({ uri: `http://localhost/api/v1/files/${created.id}/../../etc/passwd` }), /Resource not found/);
  // Another flow's file, reached from this flow's path with an encoded `../`: refused, though it exists.
  const other = await createFlow(server, echoFlow('Other Files'));
  const secret = new FormData();
  secret.append('file', new Blob(['other bytes']), 'secret.txt');
  const otherPath = String((await (await server.request(`/api/v1/files/upload/${other.id}`, { method: 'POST', body: secret })).json()).file_path);
  await t.rejects(mcp.client.readResource({ uri: `http://localhost/api/v1/files/${created.id}/..%2F${encodeURIComponent(otherPath)}` }), /Resource not found/);
  t.same((await mcp.client.listPrompts()).prompts, []);
});

t.test('a notification stream without a session is refused (405), which clients read as none offered', async (t) => {
  const res = await server.request('/api/v1/mcp/streamable', { headers: { accept: 'text/event-stream' } });
  t.equal(res.status, 405);
  t.match(res.headers.get('allow'), /POST/);
});

t.test('a Host header that is no valid host does not break a request', async (t) => {
  const { request } = await import('node:http');
  const url = new URL(server.url);
  const status = await new Promise<number>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: '/api/v1/mcp/streamable', method: 'POST', headers: { host: 'bad host[', 'x-api-key': server.apiKey, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  });
  t.ok(status < 500, `answered ${status}`);
});
