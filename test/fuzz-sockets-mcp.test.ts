/**
 * Fuzz of the WebSocket route (voice) and the MCP transports (Streamable HTTP and legacy SSE), on every adapter:
 * garbage frames, binary where text is expected, frames past the limit, JSON-RPC batches of 1,000 and ids of
 * 100 KB. After each case /health answers; no answer is a 5xx, and none takes more than 5 s (a deadline per
 * answer, not a timing measured). A fixed, small set of cases keeps it to about 15 s an adapter.
 */
import t, { type Test } from 'tap';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import type { TestServer } from './support/server.js';
import { flowId, startVoiceStack, VoiceClient } from './support/voice-stack.js';
import { within } from './support/within.js';

const DEADLINE_MS = 5_000;
const HUNDRED_KB = 'i'.repeat(100 * 1024);
const garbageBytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 131 + 7) % 256));
const rpc = (id: unknown, method = 'tools/list') => ({ jsonrpc: '2.0', id, method, params: {} });

async function healthy(t: Test, server: TestServer, after: string): Promise<void> {
  const res = await server.request('/health', { signal: AbortSignal.timeout(DEADLINE_MS) });
  t.equal(res.status, 200, `/health answers after ${after}`);
}

/** Sends one request; the answer must come within the deadline and not be a 5xx. */
async function answered(t: Test, server: TestServer, what: string, path: string, init: RequestInit): Promise<number> {
  const res = await within(server.request(path, { ...init, signal: AbortSignal.timeout(DEADLINE_MS) }), what, DEADLINE_MS);
  const body = await within(res.arrayBuffer(), `${what}: body`, DEADLINE_MS).catch(() => new ArrayBuffer(0));
  t.ok(res.status < 500, `${what}: ${res.status} (${body.byteLength} bytes)`);
  await healthy(t, server, what);
  return res.status;
}

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

async function fuzzStreamable(t: Test, server: TestServer, base: string): Promise<void> {
  const path = `${base}/streamable`;
  const post = (what: string, body: BodyInit, headers: Record<string, string> = MCP_HEADERS) => answered(t, server, `${path} ${what}`, path, { method: 'POST', headers, body });
  t.equal(await post('garbage', 'this is not json {'), 400);
  t.ok((await post('binary', garbageBytes(4096), { ...MCP_HEADERS, 'content-type': 'application/octet-stream' })) >= 400, 'binary is refused');
  await post('deep nesting', '['.repeat(100_000));
  t.equal(await post('past the body limit', JSON.stringify(rpc(1, 'x'.repeat(3 * 1024 * 1024)))), 413);
  await post('a batch of 1,000', JSON.stringify(Array.from({ length: 1000 }, (_, i) => rpc(i))));
  await post('an id of 100 KB', JSON.stringify(rpc(HUNDRED_KB)));
  await post('a method of 100 KB', JSON.stringify(rpc(1, HUNDRED_KB)));
  await answered(t, server, `${path} an unknown session`, path, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': HUNDRED_KB.slice(0, 4000) }, body: JSON.stringify(rpc(1)) });
}

/** Opens a legacy SSE stream and reads the endpoint its messages go to. */
async function sseEndpoint(server: TestServer, base: string): Promise<{ endpoint: string; close: () => void }> {
  const controller = new AbortController();
  const res = await server.request(`${base}/sse`, { signal: controller.signal });
  const reader = res.body!.getReader();
  let text = '';
  while (!/event: endpoint\ndata: (.+)\n/.test(text)) {
    const { value, done } = await within(reader.read(), 'the endpoint event', DEADLINE_MS);
    if (done) throw new Error(`SSE ended: ${text}`);
    text += Buffer.from(value).toString();
  }
  // The stream is left unread from here: replies pile up for a client that does not read, as a stuck one would.
  return { endpoint: /event: endpoint\ndata: (.+)\n/.exec(text)![1]!, close: () => controller.abort() };
}

async function fuzzSse(t: Test, server: TestServer, base: string): Promise<void> {
  const { endpoint, close } = await sseEndpoint(server, base);
  t.teardown(close);
  const post = (what: string, body: BodyInit, path = endpoint) => answered(t, server, `SSE ${base} ${what}`, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  t.equal(await post('garbage', 'this is not json {'), 400);
  t.ok((await post('binary', garbageBytes(4096))) >= 400, 'binary is refused');
  await post('a batch of 1,000', JSON.stringify(Array.from({ length: 1000 }, (_, i) => rpc(i))));
  await post('an id of 100 KB', JSON.stringify(rpc(HUNDRED_KB)));
  t.equal(await post('past the body limit', JSON.stringify(rpc(1, 'x'.repeat(3 * 1024 * 1024)))), 413);
  t.equal(await post('an unknown session', JSON.stringify(rpc(1)), endpoint.replace(/session_id=[^&]+/, 'session_id=not-a-session')), 404);
  close();
}

/** Text, binary and huge frames on an admitted voice session: error events, or a closed connection, never a crash. */
async function fuzzVoice(t: Test, url: string, server: TestServer): Promise<void> {
  const client = await VoiceClient.open(url);
  t.teardown(() => client.close());
  const frames: [string, string | Buffer][] = [
    ['not JSON', 'this is not json {'],
    ['JSON null', 'null'],
    ['an array of 1,000 frames', JSON.stringify(Array.from({ length: 1000 }, () => ({ type: 'input_audio_buffer.commit' })))],
    ['a type of 100 KB', JSON.stringify({ type: HUNDRED_KB })],
    ['a number for audio', JSON.stringify({ type: 'input_audio_buffer.append', audio: 1e308 })],
    ['binary', garbageBytes(4096)],
    ['binary that is JSON', Buffer.from(JSON.stringify({ type: 'input_audio_buffer.commit' }))],
  ];
  for (const [what, frame] of frames) {
    client.ws.send(frame, { binary: Buffer.isBuffer(frame) });
    const error = await within(client.next('error'), `voice ${what}`, DEADLINE_MS);
    t.equal(error.code, 'invalid_frame', `voice ${what}: an invalid_frame event`);
    await healthy(t, server, `voice ${what}`);
  }
  const huge = await VoiceClient.open(url);
  huge.ws.send('x'.repeat(3 * 1024 * 1024));
  const closed = await within(huge.closed, 'voice: a frame past the limit closes', DEADLINE_MS);
  t.ok([1006, 1009].includes(closed.code), `a frame past the limit closes its connection (${closed.code})`);
  await healthy(t, server, 'a frame past the limit');
  client.speak();
  t.equal((await within(client.next('response.done'), 'the fuzzed session still answers', 20_000)).response.status, 'completed');
}

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: voice and MCP take garbage, binary, huge frames, big batches and ids; the service lives`, async (t) => {
    const stack = await startVoiceStack({ config: { HTTP_SERVER: adapter, MAX_JSON_BODY_MB: '2' } });
    t.teardown(() => stack.close());
    const { server } = stack;
    const voiceFlow = await flowId(stack, chatModelFlow('Fuzzed voice', 'LanguageModelComponent', openaiModelTemplate()));
    const project = await (await server.request('/api/v1/projects/', { method: 'POST', json: { name: `Fuzz ${adapter}` } })).json();
    await createFlow(server, echoFlow('Fuzzed tool', { folder_id: project.id, mcp_enabled: true }));

    await fuzzVoice(t, `${stack.voiceUrl}/${voiceFlow}?x-api-key=${server.apiKey}`, server);
    for (const base of ['/api/v1/mcp', `/api/v1/mcp/project/${project.id}`]) {
      await fuzzStreamable(t, server, base);
      await fuzzSse(t, server, base);
    }
    const anonymousGarbage = await answered(t, server, 'a keyless project post', `/api/v1/mcp/project/${project.id}/streamable`, { method: 'POST', headers: { ...MCP_HEADERS, 'x-api-key': '' }, body: garbageBytes(1024) });
    t.ok([401, 403].includes(anonymousGarbage), 'refused before the body is looked at');
  });
}
