/**
 * The Streamable HTTP rules of a stateful session, as the SDK's own transport answers them: what a POST must
 * accept and carry (406, 415, the two parse errors), one initialize per session, a known protocol version, one
 * notification stream at a time (409), 202 for notifications alone, and a batch of requests answered on one SSE
 * reply that ends with its last answer.
 */
import t, { type Test } from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { connectMcp } from './support/mcp-client.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;

t.before(async () => {
  server = await startTestServer();
  await createFlow(server, echoFlow('Rules Echo'));
});
t.teardown(() => server.close());

const PATH = '/api/v1/mcp/streamable';
const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A session opened by the SDK client; its id for raw requests. */
async function openSession(t: Test): Promise<string> {
  const mcp = await connectMcp(server, 'streamable');
  t.teardown(() => mcp.close());
  await mcp.listening;
  return (mcp.client.transport as { sessionId?: string }).sessionId!;
}

function post(sessionId: string, body: string, headers: Record<string, string> = {}) {
  return server.request(PATH, { method: 'POST', body, headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', ...headers } });
}

const rpc = (id: number, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params });

t.test('a POST must accept JSON and SSE, and carry JSON', async (t) => {
  const sessionId = await openSession(t);
  const listing = JSON.stringify(rpc(1, 'tools/list'));
  const unacceptable = await post(sessionId, listing, { accept: 'application/json' });
  t.equal(unacceptable.status, 406);
  t.match(await unacceptable.json(), { jsonrpc: '2.0', error: { code: -32000, message: /Not Acceptable/ }, id: null });
  const notJson = await post(sessionId, listing, { 'content-type': 'text/plain' });
  t.equal(notJson.status, 415);
  t.match(await notJson.json(), { error: { code: -32000, message: /Unsupported Media Type/ } });
});

t.test('a body that is not JSON, or not JSON-RPC, is a parse error', async (t) => {
  const sessionId = await openSession(t);
  const broken = await post(sessionId, '{"jsonrpc":');
  t.equal(broken.status, 400);
  t.match(await broken.json(), { error: { code: -32700, message: 'Parse error: Invalid JSON' } });
  const foreign = await post(sessionId, JSON.stringify({ hello: 'world' }));
  t.equal(foreign.status, 400);
  t.match(await foreign.json(), { error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' } });
});

t.test('a session initializes once, and later requests must name a known protocol version', async (t) => {
  const sessionId = await openSession(t);
  const init = rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'again', version: '1' } });
  const again = await post(sessionId, JSON.stringify(init));
  t.equal(again.status, 400);
  t.match(await again.json(), { error: { code: -32600, message: 'Invalid Request: Server already initialized' } });
  const unknownVersion = await post(sessionId, JSON.stringify(rpc(2, 'tools/list')), { 'mcp-protocol-version': '1999-01-01' });
  t.equal(unknownVersion.status, 400);
  t.match(await unknownVersion.json(), { error: { message: /Unsupported protocol version: 1999-01-01/ } });
});

t.test('one notification stream per session: a second GET is a conflict', async (t) => {
  const sessionId = await openSession(t);
  const second = await server.request(PATH, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
  t.equal(second.status, 409);
  t.match(await second.json(), { error: { message: /Only one SSE stream/ } });
  const unacceptable = await server.request(PATH, { headers: { accept: 'application/json', 'mcp-session-id': sessionId } });
  t.equal(unacceptable.status, 406);
});

t.test('notifications alone are accepted with 202 and no body', async (t) => {
  const sessionId = await openSession(t);
  const res = await post(sessionId, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }));
  t.equal(res.status, 202);
  t.equal(await res.text(), '');
});

t.test('a batch of requests is answered on one SSE reply, which ends after its last answer', async (t) => {
  const sessionId = await openSession(t);
  const batch = [rpc(11, 'tools/list'), rpc(12, 'tools/call', { name: 'rules_echo', arguments: { input_value: 'batched hello' } }), rpc(13, 'ping')];
  const res = await post(sessionId, JSON.stringify(batch));
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /text\/event-stream/);
  t.equal(res.headers.get('mcp-session-id'), sessionId);
  // Reading the whole body returns only because the reply ended.
  const events = (await res.text())
    .split('\n\n')
    .filter((frame) => frame.startsWith('event: message'))
    .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as { id: number; result: Record<string, unknown> });
  t.same(events.map((event) => event.id).sort(), [11, 12, 13]);
  const call = events.find((event) => event.id === 12)!;
  t.same(call.result.content, [{ type: 'text', text: 'batched hello' }]);
  t.ok((events.find((event) => event.id === 11)!.result.tools as { name: string }[]).some((tool) => tool.name === 'rules_echo'));
});
